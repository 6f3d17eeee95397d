#!/usr/bin/env python3
"""One verdict everywhere: every shared vector through every built surface, byte for byte.

    conformance.py --surface NAME=KIND:COMMAND ... [--repair-surface NAME=KIND:COMMAND ...]
                   [--schema-surface NAME=KIND:COMMAND ...] [--stream-surface NAME=KIND:COMMAND ...]
                   [--calendar-surface NAME=KIND:COMMAND ...] [--strict] [--show N]

KIND is `exact` (the surface carries every JSON value exactly: the core, Python, the WASI server)
or `js` (a JavaScript object cannot hold `30.0`, integers beyond ±(2^53−1) or array-index keys in
place, so those vectors go in as text, plan and request both: shared/vectors/README.md). The first
surface is the reference (the core's `validate --lines`).

Each vector runs as given (object plans as objects, text as text) and, for object plans, again as
the plan's compact JSON text. A surface must (1) agree with the vector's expectation (valid,
ordered (code, path) errors and warnings, checks, non-empty messages, key order; the same
comparison as shared/tools/run_vectors.py) and (2) give verdict bytes identical to the reference
for the same input. Prints per surface: inputs run, agreement, identical bytes, time; then the first
mismatches with the vector id, the surfaces and a diff. Exit 0 only when everything agrees.

Repair and the plan schema (validator.md §9, issue 13), when `--repair-surface`/`--schema-surface`
are given (the first is the reference: the core's `repair --lines` / `repair --schema --lines`):

- repair: every vector at the safe level (object plans as objects and as text, as above), and a
  deterministic sample (`unsafe_sample`) with unsafe fixes too;
- schema: every distinct request of the vectors in both variants (a request at fault, or an
  unknown variant, is `{"error": the core's message}` on every surface).

KIND says how a surface returns the core's bytes, and so what it is compared with: `raw` (the
core's bytes as they are: the core's driver, the WASI server's text block), `python` (a `dict`
written by `json.dumps`: the reference read by `json.loads` and written the same way), `js` (an
object written by `JSON.stringify`: the reference through `JSON.parse`/`JSON.stringify`; text-only
vectors as text, as above). The two differ from the raw bytes only in how a number literal of the
plan is written (a `test` op guarding `3e1` holds `30.0` in Python, `30` in JavaScript). A surface
whose adapter exits 3 (the function is not built yet) is `missing`: a failure with `--strict`.

PlanStream (validator.md §10, issue 31), when `--stream-surface` is given (the reference: the core's
`validate --stream`): every vector's plan text (an object plan as its compact JSON) pushed as UTF-8
bytes in a seeded random chunking (`stream_inputs_for`: 1 to 64 bytes, so inside UTF-8 sequences,
escapes and numbers), and again split once at a random byte; each answer is the issues settled by
each push, the repeated-name flag and the final verdict, compared as bytes as for repair.

The calendar (issue 32), when `--calendar-surface` is given (the reference: the crate's `ics`
driver, `calendar/examples/ics.rs`): every valid vector exported with one fixed DTSTAMP
(`{"export": {"plan", "request", "dtstamp"}}` -> `{"text", "events", "warnings"}`, or the crate's
refusal `{"error": message}`), and the app-style fixtures (`calendar/tests/fixtures/*.ics`) and two
broken files imported for several weeks and zones (`{"import": {"ics", "startDate", "timezone"}}`
-> `{"commitments", "skipped"}` or `{"error": message}`), compared as for repair: the calendar
text byte for byte."""
from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import random
import shlex
import sys
import time
import zlib
from pathlib import Path

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # the core's repairs may carry integers of any length

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


UNSAFE_SAMPLE = 4  # one vector in this many (by a hash of its id) is repaired with unsafe fixes too


def unsafe_sample(vector_id: str) -> bool:
    """The deterministic sample of vectors repaired at the unsafe level too (about 1 in 4)."""
    return zlib.crc32(vector_id.encode("utf-8")) % UNSAFE_SAMPLE == 0


def repair_inputs_for(kind: str, vectors):
    """[(key, line)] of repair inputs: key = (vector id, variant, level); every vector at the safe
    level, the sample at the unsafe level too."""
    out = []
    for key, line in inputs_for("js" if kind == "js" else "exact", vectors):
        out.append(((key[0], key[1], "safe"), line))
        if unsafe_sample(key[0]):
            out.append(((key[0], key[1], "unsafe"), line[:-1] + ',"unsafe":true}'))
    return out


def schema_inputs_for(kind: str, surface: str, vectors):
    """[(key, line)] of schema inputs: key = (request, variant) for every distinct request. A JS
    surface gets a text-only request as text; the WASI tool takes only an object `request` (its
    input schema), so other requests are not asked of it."""
    requests = {}
    for _, rec, _line in vectors:
        requests.setdefault(run_vectors.dump(rec["request"]), rec["request"])
    out = []
    for text, request in requests.items():
        if surface == "wasi" and not isinstance(request, dict):
            continue
        req = json.dumps(text, ensure_ascii=False) if kind == "js" and js_text_only(request) else text
        for variant in ("validation", "strict"):
            out.append(((text, variant), '{"request":' + req + ',"variant":"' + variant + '"}'))
    return out


STREAM_SEED = 31  # the chunkings are the same on every surface and every run


def stream_inputs_for(kind: str, vectors):
    """[(key, line)] of stream inputs: key = (vector id, chunking); the chunk sizes are drawn from
    one seeded generator in vector order, so every surface gets the same bytes in the same chunks.
    A JS surface gets a text-only request as text (as for verdicts)."""
    rng = random.Random(STREAM_SEED)
    out = []
    for _, rec, _line in vectors:
        plan, request = rec["plan"], rec["request"]
        text = plan if isinstance(plan, str) else run_vectors.dump(plan)
        size = len(text.encode("utf-8"))
        req = run_vectors.dump(request)
        if kind == "js" and js_text_only(plan, request):
            req = json.dumps(req, ensure_ascii=False)
        sizes, at = [], 0
        while at < size:
            sizes.append(rng.randint(1, 64))
            at += sizes[-1]
        cut = rng.randint(0, size)
        head = '{"plan":' + json.dumps(text, ensure_ascii=False) + ',"request":' + req + ',"chunks":'
        out.append(((rec["id"], "random"), head + json.dumps(sizes) + "}"))
        out.append(((rec["id"], "two"), head + json.dumps([cut]) + "}"))
    return out


CALENDAR_STAMP = "20261207T120000Z"  # one DTSTAMP for every export: the same bytes everywhere
CALENDAR_FIXTURES = ROOT / "calendar" / "tests" / "fixtures"
CALENDAR_WEEKS = [  # each fixture is imported for each of these weeks
    ("2026-10-05", "Europe/Zurich"),
    ("2026-10-26", "America/New_York"),  # Europe has changed its clocks, America not yet
    ("2026-09-28", "Australia/Sydney"),  # Sydney's spring change (2026-10-04)
    ("2026-10-12", "Asia/Tokyo"),
]
CALENDAR_BROKEN = [  # (label, text): the crate's error, with its line, on every surface
    ("not a content line", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nno colon here\r\nEND:VCALENDAR\r\n"),
    ("a date for a date-time", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
]


def calendar_inputs_for(kind: str, vectors):
    """[(key, line)] of calendar inputs: key = (vector id or fixture and week, "export" or
    "import"). Every valid vector whose request is an object (the WASI tool's input schema), its
    plan as given (a JS surface gets a text-only vector's plan and request as text, as for
    verdicts); every fixture for every week of CALENDAR_WEEKS; the broken files for one week."""
    out = []
    for _, rec, _line in vectors:
        plan, request = rec["plan"], rec["request"]
        if rec["expect"]["valid"] is not True or not isinstance(request, dict):
            continue
        p, r = run_vectors.dump(plan), run_vectors.dump(request)
        if kind == "js" and js_text_only(plan, request):
            p = p if isinstance(plan, str) else json.dumps(p, ensure_ascii=False)
            r = json.dumps(r, ensure_ascii=False)
        out.append(((rec["id"], "export"), '{"export":{"plan":' + p + ',"request":' + r + ',"dtstamp":"' + CALENDAR_STAMP + '"}}'))
    files = [(f.stem, f.read_text(encoding="utf-8")) for f in sorted(CALENDAR_FIXTURES.glob("*.ics"))]
    weeks = [(label, text, week) for label, text in files for week in CALENDAR_WEEKS]
    weeks += [(label, text, CALENDAR_WEEKS[0]) for label, text in CALENDAR_BROKEN]
    for label, text, (start, zone) in weeks:
        line = json.dumps({"import": {"ics": text, "startDate": start, "timezone": zone}}, ensure_ascii=False)
        out.append(((f"{label} {start} {zone}", "import"), line))
    return out


def calendar_reference(line: str) -> str:
    """The `ics` driver's answer as every surface gives it: an export refusal without the driver's
    `kind` (the surfaces give the crate's message only); everything else as it is."""
    if line.startswith('{"error"') and '"kind"' in line:
        return json.dumps({"error": json.loads(line)["error"]}, ensure_ascii=False, separators=(",", ":"))
    return line


def python_read(line: str) -> str:
    """The core's bytes as Python reads (json.loads) and writes (compact, non-ASCII raw) them."""
    return json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))


def js_read(lines: list[str]) -> list[str]:
    """The core's bytes as JavaScript reads and writes them (JSON.parse, JSON.stringify)."""
    out, err, rc = run_vectors.run_command(["node", str(ROOT / "tests" / "conformance" / "adapters" / "js_lines.cjs"), "--normalize"], lines, 600)
    if rc != 0 or len(out) != len(lines):
        raise RuntimeError(f"js_lines.cjs --normalize failed: {err.strip()[-300:]}")
    return out


def cross_surface(
    title: str, surface_args: list[str], make_inputs, show: int, strict: bool, reference=None
) -> tuple[list[str], list[str]]:
    """Runs one kind of call (repair, schema, stream, calendar) through each surface; compares each
    answer with the reference's answer for the same key, as that surface's host reads it
    (`reference`, when given, first rewrites each of the reference's lines). Prints the table;
    returns (problems, missing surfaces)."""
    surfaces = []
    for s in surface_args:
        name, rest = s.split("=", 1)
        kind, cmd = rest.split(":", 1)
        surfaces.append((name, kind, shlex.split(cmd)))
    problems: list[str] = []
    missing: list[str] = []
    rows = []
    ref_name = surfaces[0][0]
    ref: dict = {}
    for i, (name, kind, cmd) in enumerate(surfaces):
        items = make_inputs(kind, name)
        t0 = time.monotonic()
        lines, err, rc = run_vectors.run_command(cmd, [l for _, l in items], 3600)
        elapsed = time.monotonic() - t0
        if rc == 3:
            missing.append(name)
            rows.append((name, kind, len(items), None, None, elapsed, err.strip().splitlines()[-1:] or [""]))
            continue
        if rc != 0 or len(lines) != len(items):
            problems.append(f"{title} {name}: exited {rc} after {len(lines)} of {len(items)} lines; stderr: {err.strip()[-600:]}")
        if not lines and i > 0:  # the surface failed as a whole: one problem, not one per input
            rows.append((name, kind, len(items), 0, 0, elapsed, []))
            continue
        got = {key: (lines[j] if j < len(lines) else None) for j, (key, _) in enumerate(items)}
        if i == 0:
            ref = {k: (reference(v) if reference and v is not None else v) for k, v in got.items()}
            rows.append((name, kind, len(items), len(items), len(items), elapsed, ["reference"]))
            continue
        keys = [k for k in got if ref.get(k) is not None]
        expected_raw = [ref[k] for k in keys]
        if kind == "python":
            expected = [python_read(x) for x in expected_raw]
        elif kind == "js":
            expected = js_read(expected_raw)
        else:
            expected = expected_raw
        same = raw_same = 0
        for key, want, raw in zip(keys, expected, expected_raw):
            line = got[key]
            if line is None:
                problems.append(f"{title} {key[0][:80]} ({', '.join(key[1:])}) on {name}: no answer line")
                continue
            raw_same += line == raw
            if line == want:
                same += 1
                continue
            a, b = want, line
            diff = "\n".join(difflib.unified_diff(
                json.dumps(json.loads(a), indent=1, ensure_ascii=False).splitlines(),
                json.dumps(json.loads(b), indent=1, ensure_ascii=False).splitlines() if b.startswith("{") else [b],
                ref_name, name, lineterm="", n=1))
            problems.append(f"{title} BYTES {key[0][:80]} ({', '.join(key[1:])}): {ref_name} vs {name}\n{diff[:1200]}")
        rows.append((name, kind, len(items), same, raw_same, elapsed, []))
    print(f"{title}; reference surface: {ref_name}")
    print(f"{'surface':10} {'kind':7} {'inputs':>7} {'identical':>9} {'raw':>7} {'time':>8}")
    for name, kind, n, same, raw_same, elapsed, note in rows:
        if same is None:
            print(f"{name:10} {kind:7} {n:7} {'missing':>9} {'':>7} {elapsed:7.1f}s  {' '.join(note)}")
        else:
            print(f"{name:10} {kind:7} {n:7} {same:9} {raw_same:7} {elapsed:7.1f}s")
    for p in problems[:show]:
        print(p)
    if len(problems) > show:
        print(f"... and {len(problems) - show} more problems")
    if missing:
        print(f"{title}: not built yet, skipped: {' '.join(missing)}" + (" (a failure here)" if strict else ""))
    return problems, missing


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--surface", action="append", required=True, help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--repair-surface", action="append", default=[], help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--schema-surface", action="append", default=[], help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--stream-surface", action="append", default=[], help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--calendar-surface", action="append", default=[], help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--strict", action="store_true", help="a surface whose function is not built is a failure")
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

    if args.repair_surface:
        print()
        p, m = cross_surface("repair", args.repair_surface, lambda kind, name: repair_inputs_for(kind, vectors), args.show, args.strict)
        ok = ok and not p and not (m and args.strict)
        print("repair: " + ("every surface agrees" if not p else f"{len(p)} problems"))
    if args.schema_surface:
        print()
        p, m = cross_surface("schema", args.schema_surface, lambda kind, name: schema_inputs_for(kind, name, vectors), args.show, args.strict)
        ok = ok and not p and not (m and args.strict)
        print("schema: " + ("every surface agrees" if not p else f"{len(p)} problems"))
    if args.stream_surface:
        print()
        p, m = cross_surface("stream", args.stream_surface, lambda kind, name: stream_inputs_for(kind, vectors), args.show, args.strict)
        ok = ok and not p and not (m and args.strict)
        print("stream: " + ("every surface agrees" if not p else f"{len(p)} problems"))
    if args.calendar_surface:
        print()
        p, m = cross_surface(
            "calendar", args.calendar_surface, lambda kind, name: calendar_inputs_for(kind, vectors), args.show,
            args.strict, reference=calendar_reference,
        )
        ok = ok and not p and not (m and args.strict)
        print("calendar: " + ("every surface agrees" if not p else f"{len(p)} problems"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
