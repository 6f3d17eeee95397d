#!/usr/bin/env python3
"""One verdict everywhere: every shared vector through every built surface, byte for byte.

    conformance.py --surface NAME=KIND:COMMAND ... [--show N]

KIND is `exact` (the surface carries every JSON value exactly: the core, Python, the WASI server)
or `js` (a JavaScript object cannot hold `30.0`, integers beyond ±(2^53−1) or array-index keys in
place, so those vectors go in as text, plan and request both: shared/vectors/README.md). The first
surface is the reference (the core's `validate --lines`).

Each vector runs as given (object plans as objects, text as text) and, for object plans, again as
the plan's compact JSON text. A surface must (1) agree with the vector's expectation (valid,
ordered (code, path) errors and warnings, checks, non-empty messages, key order; the same
comparison as shared/tools/run_vectors.py) and (2) give verdict bytes identical to the reference
for the same input. Prints per surface: inputs run, agreement, identical bytes, time; then the first
mismatches with the vector id, the surfaces and a diff. Exit 0 only when everything agrees."""
from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"

spec = importlib.util.spec_from_file_location("run_vectors", SHARED / "tools" / "run_vectors.py")
run_vectors = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_vectors)  # reuse its reader, dumper, runner and comparison

JS_SAFE = 2**53 - 1


def js_text_only(*values) -> bool:
    """Whether a JS object would change the value: a whole number written as a float, an integer
    beyond ±(2^53−1), or an object key that is an array index (vectors README)."""
    stack = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, float):
            if v.is_integer():
                return True
        elif isinstance(v, int):
            if abs(v) > JS_SAFE:
                return True
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                if k.isdigit() and (k == "0" or not k.startswith("0")) and int(k) < 2**32 - 1:
                    return True
                stack.append(x)
    return False


def inputs_for(kind: str, vectors):
    """[(key, line)] for one surface: key = (vector id, variant, request form)."""
    out = []
    for _, rec, _line in vectors:
        plan, request = rec["plan"], rec["request"]
        text_only = kind == "js" and js_text_only(plan, request)
        req = run_vectors.dump(request)
        request_json = json.dumps(req, ensure_ascii=False) if text_only else req
        if isinstance(plan, str):
            out.append(((rec["id"], "text"), '{"plan":' + run_vectors.dump(plan) + ',"request":' + request_json + "}"))
            continue
        if not text_only:
            out.append(((rec["id"], "object"), '{"plan":' + run_vectors.dump(plan) + ',"request":' + request_json + "}"))
        compact = run_vectors.dump(plan)
        out.append(((rec["id"], "text"), '{"plan":' + json.dumps(compact, ensure_ascii=False) + ',"request":' + request_json + "}"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--surface", action="append", required=True, help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args()

    vectors = run_vectors.load(SHARED / "vectors")
    expect = {rec["id"]: rec["expect"] for _, rec, _ in vectors}
    surfaces = []
    for s in args.surface:
        name, rest = s.split("=", 1)
        kind, cmd = rest.split(":", 1)
        surfaces.append((name, kind, shlex.split(cmd)))

    outputs: dict[str, dict] = {}
    report = []
    problems = []
    for name, kind, cmd in surfaces:
        items = inputs_for(kind, vectors)
        t0 = time.monotonic()
        lines, err, rc = run_vectors.run_command(cmd, [l for _, l in items], 3600)
        elapsed = time.monotonic() - t0
        if rc != 0 or len(lines) != len(items):
            problems.append(f"{name}: exited {rc} after {len(lines)} of {len(items)} lines; stderr: {err.strip()[-600:]}")
        got = {key: (lines[i] if i < len(lines) else None) for i, (key, _) in enumerate(items)}
        outputs[name] = got
        agree = 0
        for key, line in got.items():
            why = ["no output line"] if line is None else run_vectors.compare(expect[key[0]], line, True)
            if why:
                problems.append(f"EXPECTATION {key[0]} ({key[1]}) on {name}: " + "; ".join(why)[:400])
            else:
                agree += 1
        report.append([name, len(items), agree, None, elapsed, sum(1 for k in got if k[1] == "object"), sum(1 for k in got if k[1] == "text")])

    ref_name = surfaces[0][0]
    ref = outputs[ref_name]
    for row in report:
        name = row[0]
        same = 0
        for key, line in outputs[name].items():
            if line is not None and line == ref.get(key):
                same += 1
            elif line is not None:
                a, b = ref.get(key) or "", line
                diff = "\n".join(difflib.unified_diff(
                    json.dumps(json.loads(a), indent=1, ensure_ascii=False).splitlines() if a else [],
                    json.dumps(json.loads(b), indent=1, ensure_ascii=False).splitlines() if b.startswith("{") else [b],
                    ref_name, name, lineterm="", n=1))
                problems.append(f"BYTES {key[0]} ({key[1]}): {ref_name} vs {name}\n{diff[:1200]}")
        row[3] = same

    print(f"{len(vectors)} vectors; reference surface: {ref_name}")
    print(f"{'surface':10} {'inputs':>7} {'objects':>7} {'texts':>6} {'agree':>7} {'identical':>9} {'time':>8}")
    for name, n, agree, same, elapsed, n_obj, n_text in report:
        print(f"{name:10} {n:7} {n_obj:7} {n_text:6} {agree:7} {same:9} {elapsed:7.1f}s")
    for p in problems[: args.show]:
        print(p)
    if len(problems) > args.show:
        print(f"... and {len(problems) - args.show} more problems")
    ok = not problems
    print("conformance: " + ("every surface agrees, byte for byte" if ok else f"{len(problems)} problems"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
