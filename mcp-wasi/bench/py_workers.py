"""The Python example server with several uvicorn worker processes on one port (bench-only, issue 30).

    python py_workers.py --port PORT [--workers N]

The app is the shipped server's: ``momentum_plan.planner.build_server`` (its plan store from
``PLAN_STORE``, created at start as ``momentum-planner`` does), served as its
``mcp.run("streamable-http", host="127.0.0.1", port=PORT)`` serves it (the SDK's
``streamable_http_app`` with its defaults, uvicorn at the server's log level, access log on), but by
``uvicorn.run(..., workers=N)``: uvicorn binds the port once and N worker processes accept on it,
each building its own app (``factory=True``). Default N: one per core. Nothing here ships:
``http_bench.py`` starts it beside the one-process server to measure the Python server with one
worker per core. A 2026-07-28 POST carries everything in the request itself, so any worker can
answer any request.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from momentum_plan.planner import build_server


def app() -> object:
    """One worker's ASGI app: the shipped server's Streamable HTTP app on 127.0.0.1."""
    mcp = build_server()
    if mcp.store is not None:
        mcp.store.create()
    return mcp.streamable_http_app(host="127.0.0.1")


def main() -> None:
    import uvicorn

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    # The workers import this module by name (uvicorn spawns them).
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    uvicorn.run(
        "py_workers:app",
        factory=True,
        host="127.0.0.1",
        port=a.port,
        workers=a.workers,
        log_level=build_server().settings.log_level.lower(),
    )


if __name__ == "__main__":
    main()
