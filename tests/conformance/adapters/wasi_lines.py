#!/usr/bin/env python3
"""Lines-protocol adapter for the WASI MCP server (shared/tools/README.md):

    wasi_lines.py SANDBOX_BINARY [RUNNER ARGS...]

Starts the sandboxed server once, answers `initialize`, then turns every input line into a
`tools/call` of `validate_plan` whose `arguments` are the line itself (byte for byte, so number
literals keep their form), pipelined, and writes each result's structuredContent as compact JSON."""
import json
import subprocess
import sys
import threading


def main() -> int:
    cmd = sys.argv[1:]
    lines = [l.rstrip("\r\n") for l in sys.stdin.buffer.read().decode("utf-8").split("\n")]
    lines = [l for l in lines if l.strip()]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        w = proc.stdin
        w.write(b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
                b'"capabilities":{},"clientInfo":{"name":"conformance","version":"1"}}}\n')
        w.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        for n, line in enumerate(lines, 1):
            w.write(('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"validate_plan","arguments":%s}}\n'
                     % (n, line)).encode("utf-8"))
        w.close()

    threading.Thread(target=feed, daemon=True).start()
    results = {}
    for raw in proc.stdout:
        msg = json.loads(raw)
        if msg.get("id") in (0, None):
            continue
        res = msg.get("result")
        if res is None or res.get("isError"):
            results[msg["id"]] = json.dumps({"error": json.dumps(msg)[:300]})
        else:
            results[msg["id"]] = json.dumps(res["structuredContent"], ensure_ascii=False, separators=(",", ":"))
    proc.wait()
    out = sys.stdout.buffer
    for n in range(1, len(lines) + 1):
        out.write(results.get(n, json.dumps({"error": "no response"})).encode("utf-8") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
