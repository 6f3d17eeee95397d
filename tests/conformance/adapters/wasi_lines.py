#!/usr/bin/env python3
"""Lines-protocol adapter for the WASI MCP server (shared/tools/README.md):

    wasi_lines.py [--repair|--schema|--calendar] SANDBOX_BINARY [RUNNER ARGS...]

Starts the sandboxed server once, answers `initialize`, then turns every input line into a
`tools/call` of `validate_plan` (`repair_plan` with --repair, `get_plan_schema` with --schema)
whose `arguments` are the line itself (byte for byte, so number literals keep their form),
pipelined. Writes per line: for validate_plan the result's structuredContent as compact JSON; for
repair_plan and get_plan_schema the result's text block, which is the core's bytes as they are
(structuredContent embeds the same bytes: checked, a difference is an error line); a tool error is
{"error": its text}. With --calendar a line is `{"export": {"plan", "request", "dtstamp"}}` (a
`tools/call` of `export_calendar` with those arguments) or `{"import": {"ics", "startDate",
"timezone"}}` (`import_commitments`, `ics` as its `calendar`), and the answer is written as the
calendar crate's `ics` driver writes it: an export as `{"text": the embedded resource's text,
"events", "warnings"}` (`structuredContent`, whose `uri` must be the resource's and whose JSON
must be the text block's), an import as its `structuredContent`, a tool error as
`{"error": its text}`. Exits 3 when the server does not list the tool (not built yet)."""
import json
import subprocess
import sys
import threading

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # integers of any length, as the core carries them

TOOLS = {"--validate": "validate_plan", "--repair": "repair_plan", "--schema": "get_plan_schema", "--calendar": "export_calendar"}


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def calendar_call(line: str) -> tuple[str, str]:
    """The tool and its arguments (JSON text) for a --calendar line."""
    pair = json.loads(line)
    if "export" in pair:
        return "export_calendar", compact(pair["export"])
    i = pair["import"]
    return "import_commitments", compact({"calendar": i["ics"], "startDate": i["startDate"], "timezone": i["timezone"]})


def calendar_answer(res: dict) -> str:
    """A --calendar result as the `ics` driver writes it."""
    if res.get("isError"):
        return compact({"error": res["content"][0]["text"]})
    sc = res.get("structuredContent")
    if json.loads(res["content"][0]["text"]) != sc:
        return compact({"error": "structuredContent is not the text block's JSON"})
    if len(res["content"]) == 1:
        return compact(sc)
    resource = res["content"][1].get("resource", {})
    if res["content"][1].get("type") != "resource" or resource.get("uri") != sc.get("uri") or resource.get("mimeType") != "text/calendar":
        return compact({"error": f"not a text/calendar resource with the result's uri: {json.dumps(res)[:300]}"})
    return compact({"text": resource.get("text"), "events": sc["events"], "warnings": sc["warnings"]})


def main() -> int:
    args = sys.argv[1:]
    mode = args.pop(0) if args and args[0] in TOOLS else "--validate"
    tool = TOOLS[mode]
    lines = [l.rstrip("\r\n") for l in sys.stdin.buffer.read().decode("utf-8").split("\n")]
    lines = [l for l in lines if l.strip()]
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        w = proc.stdin
        w.write(b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
                b'"capabilities":{},"clientInfo":{"name":"conformance","version":"1"}}}\n')
        w.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        w.write(b'{"jsonrpc":"2.0","id":"tools","method":"tools/list"}\n')
        for n, line in enumerate(lines, 1):
            name, arguments = calendar_call(line) if mode == "--calendar" else (tool, line)
            w.write(('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n'
                     % (n, name, arguments)).encode("utf-8"))
        w.close()

    threading.Thread(target=feed, daemon=True).start()
    results = {}
    listed = None
    for raw in proc.stdout:
        msg = json.loads(raw)
        if msg.get("id") == "tools":
            listed = [t.get("name") for t in msg.get("result", {}).get("tools", [])]
            continue
        if msg.get("id") in (0, None):
            continue
        res = msg.get("result")
        if res is None:
            results[msg["id"]] = json.dumps({"error": json.dumps(msg)[:300]})
        elif mode == "--calendar":
            results[msg["id"]] = calendar_answer(res)
        elif res.get("isError"):
            text = res["content"][0]["text"] if mode != "--validate" else json.dumps(msg)[:300]
            results[msg["id"]] = json.dumps({"error": text}, ensure_ascii=False, separators=(",", ":"))
        elif mode == "--validate":
            results[msg["id"]] = json.dumps(res["structuredContent"], ensure_ascii=False, separators=(",", ":"))
        else:
            text = res["content"][0]["text"]
            if json.loads(text) != res.get("structuredContent"):
                text = json.dumps({"error": "structuredContent is not the text block's JSON"})
            results[msg["id"]] = text
    proc.wait()
    if listed is not None and tool not in listed:
        print(f"wasi_lines.py: the server has no tool {tool} (not built yet)", file=sys.stderr)
        return 3
    out = sys.stdout.buffer
    for n in range(1, len(lines) + 1):
        out.write(results.get(n, json.dumps({"error": "no response"})).encode("utf-8") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
