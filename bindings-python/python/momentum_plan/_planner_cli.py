"""The ``momentum-planner`` command (``[project.scripts]`` in pyproject.toml).

The server is :mod:`momentum_plan.planner`, on the official MCP Python SDK, which is the ``mcp``
extra: without it the command says how to install it (exit status 2, as the Node server's without its
SDK) instead of a traceback.
The command line is parsed here, before the SDK is imported, so ``--help``, ``--version`` and a
usage error answer at once (importing the SDK takes about two seconds).
"""

from __future__ import annotations

import argparse
import os
import sys
from argparse import Namespace
from pathlib import Path
from typing import List, Optional

import momentum_plan

# The top-level modules the server imports from the ``mcp`` extra (the SDK and what it brings).
EXTRA_MODULES = ("mcp", "mcp_types", "pydantic", "typing_extensions")

MISSING_EXTRA = (
    "momentum-planner: the MCP server needs the MCP Python SDK (missing module {name!r}); "
    "install it with: pip install 'momentum-plan[mcp]'"
)


def parse_args(argv: Optional[List[str]] = None) -> Namespace:
    """The command line of ``momentum-planner`` (``--http PORT``, ``--store DIR``); the environment
    (``MCP_TRANSPORT``, ``MCP_PORT``, ``PLAN_STORE``) gives the defaults. ``--help`` and
    ``--version`` print and exit 0; a usage error prints the usage and exits 2."""
    parser = argparse.ArgumentParser(
        prog="momentum-planner",
        description="An MCP server that checks and stores daily-momentum-ai-plan plans (stdio by default).",
    )
    parser.add_argument(
        "--http",
        metavar="PORT",
        type=int,
        nargs="?",
        const=int(os.environ.get("MCP_PORT", "8000")),
        help="serve Streamable HTTP on http://127.0.0.1:PORT/mcp (default port $MCP_PORT or 8000) instead of stdio",
    )
    parser.add_argument("--store", metavar="DIR", type=Path, help="the plan store (default $PLAN_STORE; with neither the server is read-only: no save_plan)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {momentum_plan.__version__}")
    args = parser.parse_args(argv)
    if args.http is None:
        transport = os.environ.get("MCP_TRANSPORT", "stdio")
        if transport in ("streamable-http", "http"):
            args.http = int(os.environ.get("MCP_PORT", "8000"))
        elif transport != "stdio":
            parser.error(f"MCP_TRANSPORT must be stdio or streamable-http, not {transport!r}")
    if args.http is not None and not 0 < args.http < 65536:
        parser.error(f"--http: {args.http} is not a TCP port (1-65535)")
    return args


def main() -> None:
    """Parses the command line, then runs :func:`momentum_plan.planner.serve`; exits 2 with an
    install hint on stderr when the ``mcp`` extra is missing (as the Node server does without its SDK)."""
    args = parse_args()
    try:
        from momentum_plan.planner import serve
    except ModuleNotFoundError as e:
        top = (e.name or "").split(".")[0]
        if top in EXTRA_MODULES:
            print(MISSING_EXTRA.format(name=top), file=sys.stderr)
            sys.exit(2)
        raise
    serve(args)
