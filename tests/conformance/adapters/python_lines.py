#!/usr/bin/env python3
"""Lines-protocol adapter for the Python binding (shared/tools/README.md): one answer per line.

    python_lines.py              # {"plan", "request"} -> the verdict of validate_plan
    python_lines.py --repair     # {"plan", "request", "unsafe"?} -> the result of repair_plan
    python_lines.py --schema     # {"request", "variant"?} -> the result of plan_schema
    python_lines.py --stream     # {"plan": text, "request", "chunks": [bytes]} -> a PlanStream's pushes and verdict
    python_lines.py --calendar   # {"export": {"plan", "request", "dtstamp"}} -> plan_to_icalendar's result,
                                 # {"import": {"ics", "startDate", "timezone"}} -> commitments_from_icalendar's

Reads each line with json.loads (it carries every vector exactly: ints stay ints, 30.0 stays a
float), calls the binding, writes the result as compact JSON with non-ASCII raw (the core's own
bytes, as Python reads and writes them). A raised error is {"error": "Class: message"}; for
plan_schema's ValueError (an unknown variant, a request at fault) it is {"error": message}, as the
core's driver writes it. `--stream` pushes the plan text's UTF-8 bytes into a `PlanStream` in
chunks of the given byte counts (the rest as one last chunk) and writes `{"pushes": [[issue, ...]
per push], "repeatedName", "verdict"}`, as the core's `validate --stream`. `--calendar` answers a
refusal (`ValueError`: a request without a start date, a file the crate cannot read) as
{"error": message}, as the crate's `ics` driver writes it (without its `kind`). Exits 3 when the
installed module has no such function (not built yet)."""
import json
import sys

import momentum_plan

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # integers of any length, as the core carries them


def streamed(plan_stream, pair: dict) -> dict:
    """The `--stream` answer: the plan's UTF-8 bytes through a PlanStream in the line's chunks."""
    data = pair["plan"].encode("utf-8")
    stream = plan_stream(pair["request"])
    pushes, at = [], 0
    for n in pair.get("chunks", []):
        pushes.append(stream.push(data[at : at + n]))
        at = min(at + n, len(data))
    if at < len(data):
        pushes.append(stream.push(data[at:]))
    repeated = stream.repeated_name
    return {"pushes": pushes, "repeatedName": repeated, "verdict": stream.finish()}


def calendar(pair: dict) -> dict:
    """The `--calendar` answer: an export or an import through the binding."""
    try:
        if "export" in pair:
            e = pair["export"]
            return momentum_plan.plan_to_icalendar(e["plan"], e["request"], e["dtstamp"])
        i = pair["import"]
        return momentum_plan.commitments_from_icalendar(i["ics"], i["startDate"], i["timezone"])
    except ValueError as err:
        return {"error": str(err)}


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "--validate"
    name = {
        "--validate": "validate_plan",
        "--repair": "repair_plan",
        "--schema": "plan_schema",
        "--stream": "PlanStream",
        "--calendar": "plan_to_icalendar",
    }.get(mode)
    if name is None:
        print(f"usage: python_lines.py [--repair|--schema|--stream|--calendar], not {mode}", file=sys.stderr)
        return 2
    fn = getattr(momentum_plan, name, None)
    if fn is None:
        print(f"python_lines.py: momentum_plan has no {name} (rebuild bindings-python)", file=sys.stderr)
        return 3
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line.strip():
            continue
        try:
            pair = json.loads(line)
            if mode == "--validate":
                result = fn(pair["plan"], pair["request"])
            elif mode == "--stream":
                result = streamed(fn, pair)
            elif mode == "--calendar":
                result = calendar(pair)
            elif mode == "--repair":
                result = fn(pair["plan"], pair["request"], unsafe=pair.get("unsafe") is True)
            else:
                try:
                    result = fn(pair["request"], pair.get("variant", "validation"))
                except ValueError as e:
                    result = {"error": str(e)}
            text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        except (ValueError, TypeError, KeyError) as e:
            text = json.dumps({"error": f"{type(e).__name__}: {e}"})
        out.write(text.encode("utf-8") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
