#!/usr/bin/env python3
"""Lines-protocol adapter for the Python binding (shared/tools/README.md): one verdict per line.

Reads {"plan": ..., "request": ...} lines (json.loads carries every vector exactly: ints stay
ints, 30.0 stays a float), calls momentum_plan.validate_plan, writes the verdict as compact JSON
with non-ASCII raw (the core's own bytes)."""
import json
import sys

import momentum_plan


def main() -> int:
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line.strip():
            continue
        try:
            pair = json.loads(line)
            verdict = momentum_plan.validate_plan(pair["plan"], pair["request"])
            text = json.dumps(verdict, ensure_ascii=False, separators=(",", ":"))
        except (ValueError, TypeError, KeyError) as e:
            text = json.dumps({"error": f"{type(e).__name__}: {e}"})
        out.write(text.encode("utf-8") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
