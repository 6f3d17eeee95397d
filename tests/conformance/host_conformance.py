#!/usr/bin/env python3
"""Host-object conformance (issue 12, item 4): the cases of host_cases.mjs (JavaScript values that
are not plain JSON data) and their Python equivalents (host_cases.py) through every surface.

    host_conformance.py --validate CORE_VALIDATE --surface NAME=KIND:COMMAND ... [--show N]

KIND is `js` (the command writes host_exec.mjs outcome lines: host_node.mjs, host_chromium.mjs) or
`python` (host_python.py). The first surface is the reference. For each case:

1. every surface gives the same outcome as the reference: a verdict byte for byte, or an error of
   the same class with the same message, `.path` and `.argument`. Python's exception class is
   compared by this mapping (PYTHON_CLASS), its message must be identical (or the case's
   `pythonMessage`, where the core's text names the host's own type), `.path`/`.argument` are
   compared when the exception carries them, `.kind` (the core's FaultKind name) wherever a
   surface gives one:
       JS TypeError, kind unsupported/nonStringName/hole/undefined  ->  Python TypeError
       JS TypeError, kind notFinite/cycle/tooDeep/loneSurrogate*    ->  Python ValueError
       JS SyntaxError (request text that is not JSON)               ->  Python ValueError
2. every surface meets the case's expectation (host_cases.mjs `expect`), and where the case gives
   a `core` text pair, its verdict is byte-identical to the core's own (`validate PLAN REQUEST`)
   on that text. No message holds a lone surrogate (validator.md §7).

Prints a table case x surface (same / differs / - no equivalent / missing; `!` = the surface
misses the expectation), then the first problems with their outputs. Exit 0 only when every case
agrees and meets its expectation on every surface."""
from __future__ import annotations

import argparse
import difflib
import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

TYPE_KINDS = {"unsupported", "nonStringName", "hole", "undefined"}  # FaultKind::is_type
LONE = re.compile(r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
ALL_CHECKS = ["json", "size", "envelope", "request", "fields", "day-shape", "commitments", "feasibility"]


def python_class(js_class: str, kind: str | None) -> str | None:
    """PYTHON_CLASS: the Python exception class for a JS error class and the fault's kind."""
    if js_class == "SyntaxError":
        return "ValueError"
    if js_class == "TypeError" and kind:
        return "TypeError" if kind in TYPE_KINDS else "ValueError"
    return None


def run_lines(cmd: list[str], timeout: int = 600) -> tuple[dict, str]:
    """Runs a surface command; {id: outcome} and a problem text ('' when it ran cleanly)."""
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, cwd=HERE)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, f"could not run: {e}"
    got = {}
    for raw in p.stdout.decode("utf-8", "replace").splitlines():
        if raw.strip():
            rec = json.loads(raw)
            got[rec["id"]] = rec["outcome"]
    problem = "" if p.returncode == 0 else f"exited {p.returncode}: {p.stderr.decode('utf-8', 'replace').strip()[-800:]}"
    return got, problem


def core_verdicts(validate: list[str], cases: list[dict]) -> dict:
    """{id: compact verdict bytes} of the core on each case's `core` text pair."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases:
            if not c["core"]:
                continue
            plan, request = Path(tmp, "plan.json"), Path(tmp, "request.json")
            plan.write_text(c["core"]["plan"], encoding="utf-8")
            request.write_text(c["core"]["request"], encoding="utf-8")
            p = subprocess.run(validate + [str(plan), str(request)], capture_output=True)
            try:
                verdict = json.loads(p.stdout)
                out[c["id"]] = json.dumps(verdict, ensure_ascii=False, separators=(",", ":"))
            except ValueError:
                out[c["id"]] = {"core_failed": p.stderr.decode("utf-8", "replace")[-400:]}
    return out


def messages(outcome: dict) -> list[str]:
    if "verdict" in outcome:
        try:
            v = json.loads(outcome["verdict"])
        except ValueError:
            return []
        return [i.get("message", "") for i in v.get("errors", []) + v.get("warnings", [])]
    if "error" in outcome:
        return [outcome["error"].get("message") or ""]
    return []


def check_expect(case: dict, outcome: dict, kind: str, core: dict) -> list[str]:
    """Why `outcome` misses the case's expectation on a surface of `kind` ([] when it meets it)."""
    why = []
    if "build_failed" in outcome:
        return [f"the case could not be built: {outcome['build_failed'][:300]}"]
    for m in messages(outcome):
        if LONE.search(m):
            why.append(f"a message holds a lone surrogate: {m!r}")
    want = core.get(case["id"])
    if isinstance(want, dict):
        why.append(f"the core failed on the case's text: {want['core_failed']}")
    elif want is not None and outcome.get("verdict") != want:
        why.append("verdict is not the core's on the equivalent text")
    exp = case["expect"] or {}
    if "verdict" in exp:
        if "verdict" not in outcome:
            why.append("expected a verdict, got " + (f"a {outcome['error']['class']}" if "error" in outcome else "no outcome"))
        else:
            v = json.loads(outcome["verdict"])
            e = exp["verdict"]
            if "valid" in e and v.get("valid") != e["valid"]:
                why.append(f"valid is {v.get('valid')}, expected {e['valid']}")
            if "errors" in e:
                got = [(i["code"], i["path"]) for i in v.get("errors", [])]
                wanted = [(x[0], x[1]) for x in e["errors"]]
                if got != wanted:
                    why.append(f"errors {got}, expected {wanted}")
                else:
                    for x, i in zip(e["errors"], v["errors"]):
                        if len(x) > 2 and x[2] not in i["message"]:
                            why.append(f"{x[0]} message lacks {x[2]!r}: {i['message']!r}")
            if e.get("checks") == "json" and v.get("checks") != ["json"]:
                why.append(f"checks {v.get('checks')}, expected ['json']")
            if e.get("checks") == "all" and v.get("checks") != ALL_CHECKS:
                why.append(f"checks {v.get('checks')}, expected all eight")
            for code in e.get("noCodes", []):
                if any(i["code"] == code for i in v.get("errors", [])):
                    why.append(f"has a {code} error")
    if "error" in exp:
        e = exp["error"]
        if "error" not in outcome:
            why.append(f"expected {e.get('class')}, got {'a verdict' if 'verdict' in outcome else 'no outcome'}")
        else:
            g = outcome["error"]
            if kind == "python":
                cls = python_class(e.get("class", ""), e.get("kind"))
                msg = case.get("pythonMessage") or e.get("message")
                if cls and g["class"] != cls:
                    why.append(f"class {g['class']}, expected {cls} (JS {e.get('class')}, kind {e.get('kind')})")
                if msg is not None and g["message"] != msg:
                    why.append(f"message {g['message']!r}, expected {msg!r}")
                for attr in ("path", "argument", "kind"):
                    if e.get(attr) is not None and g.get(attr) is not None and g[attr] != e[attr]:
                        why.append(f".{attr} {g[attr]!r}, expected {e[attr]!r}")
            else:
                if e.get("kind") and g.get("kind") is not None and g["kind"] != e["kind"]:
                    why.append(f".kind {g['kind']!r}, expected {e['kind']!r}")
                for attr in ("class", "message", "path", "argument"):
                    if attr in e and g.get(attr) != e[attr]:
                        why.append(f"{'.' if attr in ('path', 'argument') else ''}{attr} {g.get(attr)!r}, expected {e[attr]!r}")
                if e.get("class") in ("TypeError", "SyntaxError") and "kind" in e or e.get("class") == "SyntaxError":
                    for attr in ("path", "argument"):
                        if g.get(attr) is None:
                            why.append(f"no .{attr}")
    return why


def same(case: dict, ref: dict, ref_kind: str, got: dict, kind: str) -> tuple[bool, list[str]]:
    """Whether `got` (a surface of `kind`) is the same outcome as the reference; notes."""
    notes = []
    if "verdict" in ref or "verdict" in got:
        return ref.get("verdict") is not None and ref.get("verdict") == got.get("verdict"), notes
    if "error" not in ref or "error" not in got:
        return False, notes
    r, g = ref["error"], got["error"]
    if kind == ref_kind:
        return r == g, notes
    # a Python surface against a JS reference (or the other way round)
    js, py = (r, g) if kind == "python" else (g, r)
    exp = (case["expect"] or {}).get("error", {})
    cls = python_class(js["class"], exp.get("kind"))
    ok = cls is not None and py["class"] == cls
    py_msg = case.get("pythonMessage")
    ok = ok and (py["message"] == (py_msg or js["message"]))
    for attr in ("path", "argument"):
        if py.get(attr) is None:
            notes.append(f"python exception has no .{attr}")
        elif py[attr] != js[attr]:
            ok = False
    if py.get("kind") is not None and js.get("kind") is not None and py["kind"] != js["kind"]:
        ok = False
    return ok, notes


def diff(a: dict, b: dict, a_name: str, b_name: str) -> str:
    """Two outcomes side by side: a line diff of two verdicts, else both in short."""
    if "verdict" in a and "verdict" in b:
        lines = lambda o: json.dumps(json.loads(o["verdict"]), indent=1, ensure_ascii=False).splitlines()  # noqa: E731
        d = difflib.unified_diff(lines(a), lines(b), a_name, b_name, lineterm="", n=0)
        return "\n".join("    " + x for x in list(d)[2:] if not x.startswith("@@"))[:1500]
    return f"    {a_name}: {short(a)}\n    {b_name}: {short(b)}"


def short(outcome: dict | None) -> str:
    if outcome is None:
        return "no outcome"
    if "verdict" in outcome:
        v = outcome["verdict"]
        return "verdict " + (v if len(v) < 700 else v[:700] + "...")
    if "error" in outcome:
        e = outcome["error"]
        msg = e["message"] if len(e["message"]) < 400 else e["message"][:400] + "..."
        path = e["path"] if e["path"] is None or len(e["path"]) < 80 else e["path"][:80] + "..."
        return f"{e['class']}: {msg}  (.path={path}, .argument={e['argument']}, .kind={e.get('kind')})"
    return json.dumps(outcome)[:400]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--validate", required=True, help="the core's validate example (PLAN REQUEST form)")
    ap.add_argument("--surface", action="append", required=True, help="NAME=KIND:COMMAND (first = reference)")
    ap.add_argument("--show", type=int, default=12)
    ap.add_argument("--json", help="also write every outcome here")
    args = ap.parse_args()

    desc = subprocess.run(["node", str(HERE / "host_node.mjs"), "describe"], capture_output=True, check=True)
    cases = json.loads(desc.stdout)
    sys.path.insert(0, str(HERE))
    from host_cases import PYTHON  # noqa: E402 (the Python equivalents, for the data check)

    problems: list[str] = []
    ids = [c["id"] for c in cases]
    for c in cases:
        if c["noJs"] and c["noPython"]:
            problems.append(f"DATA {c['id']}: a case needs a JS build or a Python equivalent")
        if bool(c["noPython"]) == (c["id"] in PYTHON):
            problems.append(f"DATA {c['id']}: needs exactly one of a Python equivalent (host_cases.py) or noPython (host_cases.mjs)")
    for cid in PYTHON:
        if cid not in ids:
            problems.append(f"DATA {cid}: in host_cases.py but not in host_cases.mjs")

    core = core_verdicts(shlex.split(args.validate), cases)
    surfaces = []
    for s in args.surface:
        name, rest = s.split("=", 1)
        kind, cmd = rest.split(":", 1)
        t0 = time.monotonic()
        got, problem = run_lines(shlex.split(cmd))
        if problem:
            problems.append(f"SURFACE {name}: {problem}")
        surfaces.append((name, kind, got, time.monotonic() - t0))

    ref_name, ref_kind, ref, _ = surfaces[0]
    table = []
    diffs, expects, notes = [], [], []
    for c in cases:
        cid = c["id"]
        row = [cid]
        for name, kind, got, _ in surfaces:
            if (kind == "python" and c["noPython"]) or (kind == "js" and c["noJs"]):
                row.append("-")
                continue
            if cid not in got:
                row.append("missing")
                problems.append(f"MISSING {cid} on {name}")
                continue
            o = got[cid]
            miss = check_expect(c, o, kind, core)
            if miss:
                expects.append(f"EXPECT {cid} on {name}: " + "; ".join(miss) + f"\n    got: {short(o)}")
            if name == ref_name:
                cell = "ref"
            elif cid not in ref:
                cell = "alone"
            else:
                ok, n = same(c, ref[cid], ref_kind, o, kind)
                notes += [f"{cid} on {name}: {x}" for x in n]
                cell = "same" if ok else "differs"
                if not ok:
                    diffs.append(f"DIFF {cid}: {ref_name} vs {name}\n" + diff(ref[cid], o, ref_name, name))
            row.append(cell + ("!" if miss else ""))
        table.append(row)

    names = [s[0] for s in surfaces]
    w = max(len(i) for i in ids) + 2
    cols = [max(len(n), 8) + 2 for n in names]
    print(f"host-object cases: {len(cases)} ({sum(1 for c in cases if not c['noPython'] and not c['noJs'])} with a "
          f"Python equivalent, {sum(1 for c in cases if c['noJs'])} Python-only); "
          f"reference surface: {ref_name}")
    print("case".ljust(w) + "".join(n.ljust(cw) for n, cw in zip(names, cols)))
    for row in table:
        print(row[0].ljust(w) + "".join(x.ljust(cw) for x, cw in zip(row[1:], cols)))
    print("same: same outcome as the reference; differs: not; -: no equivalent on that surface (host_cases.mjs "
          "noPython/noJs); alone: a Python-only case (expectation only); !: misses the case's expectation")
    for name, kind, got, elapsed in surfaces:
        agree = sum(1 for r in table if r[1 + names.index(name)] in ("same", "ref", "alone"))
        print(f"  {name:14} {len(got):3} outcomes, {agree:3} same and expected, {elapsed:5.1f}s")
    problems += diffs + expects
    shown = problems[: args.show]
    for p in shown:
        print(p)
    if len(problems) > len(shown):
        print(f"... and {len(problems) - len(shown)} more problems")
    if notes:
        uniq = sorted(set(n.split(": ", 1)[1] for n in notes))
        print("notes: " + "; ".join(f"{u} ({sum(1 for n in notes if n.endswith(u))} cases)" for u in uniq))
    if args.json:
        Path(args.json).write_text(json.dumps({"cases": cases, "core": core,
                                               "surfaces": {n: g for n, _, g, _ in surfaces}}, indent=1))
    ok = not problems
    print("host conformance: " + ("every surface agrees and meets every expectation" if ok
                                  else f"{len(diffs)} differences, {len(expects)} missed expectations, "
                                       f"{len(problems) - len(diffs) - len(expects)} other problems"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
