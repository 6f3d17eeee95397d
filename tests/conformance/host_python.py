#!/usr/bin/env python3
"""Host-object cases in Python (host_cases.py), through momentum_plan.validate_plan:

    .venv/bin/python host_python.py [ID,ID...]

One JSON line per case that has a Python equivalent: {id, outcome, ms}, outcome as in
host_exec.mjs: {"verdict": "<compact JSON, non-ASCII raw>"} or {"error": {class, message, path,
argument, kind}} (from the exception's attributes, null when it has none). Lines are
ASCII (lone surrogates escaped)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.setrecursionlimit(10_000)

import momentum_plan  # noqa: E402
from host_cases import PYTHON, Harness  # noqa: E402


def outcome(plan, request) -> dict:
    try:
        verdict = momentum_plan.validate_plan(plan, request)
        return {"verdict": json.dumps(verdict, ensure_ascii=False, separators=(",", ":"))}
    except Exception as e:  # noqa: BLE001 - every exception is an outcome to compare
        path = getattr(e, "path", None)
        argument = getattr(e, "argument", None)
        kind = getattr(e, "kind", None)
        return {"error": {
            "class": type(e).__name__,
            "message": str(e),
            "path": None if path is None else str(path),
            "argument": None if argument is None else str(argument),
            "kind": None if kind is None else str(kind),
        }}


def main() -> int:
    only = sys.argv[1].split(",") if len(sys.argv) > 1 else None
    h = Harness()
    out = []
    for cid, build in PYTHON.items():
        if only and cid not in only:
            continue
        try:
            plan, request = build(h)
        except Exception as e:  # noqa: BLE001
            out.append({"id": cid, "outcome": {"build_failed": repr(e)}})
            continue
        t0 = time.monotonic()
        got = outcome(plan, request)
        out.append({"id": cid, "outcome": got, "ms": round((time.monotonic() - t0) * 1000)})
    sys.stdout.write("".join(json.dumps(r) + "\n" for r in out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
