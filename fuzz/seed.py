#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/ (gitignored).

Sources: the plans and requests of shared/examples/ and of every vector in
shared/vectors/*.jsonl, taken as the exact text of the vector line (numbers keep their
literal form, duplicate names stay), plus a few hand-written MCP sessions for `mcp_lines`, and HTTP requests built from them for
`http_requests`.
Each seed is named by the SHA-1 of its bytes, so reruns are idempotent.

`stream_completion` gets the same (plan, request) seeds as `validate_pair`, each with control
bytes (the SHA-1 of the plan) that cut the plan somewhere and choose a completion and chunks.

Usage: seed.py SHARED_DIR CORPUS_DIR [MAX_BYTES]
"""

import hashlib
import json
import os
import sys

# Seeds larger than this are skipped (libFuzzer's max_len follows the largest seed).
DEFAULT_MAX = 64 * 1024


def raw_members(line):
    """The top-level members of a compact JSON object line as {name: raw text}."""
    dec = json.JSONDecoder()
    out = {}
    i = line.index("{") + 1
    n = len(line)

    def ws(i):
        while i < n and line[i] in " \t\r\n":
            i += 1
        return i

    while True:
        i = ws(i)
        if line[i] == "}":
            return out
        name, i = dec.raw_decode(line, i)
        i = ws(i)
        assert line[i] == ":"
        i = ws(i + 1)
        _, end = dec.raw_decode(line, i)
        out[name] = line[i:end]
        i = ws(end)
        if line[i] == ",":
            i += 1


def control(plan):
    """Control bytes for a `stream_completion` seed: a cut, a completion, chunk sizes."""
    return hashlib.sha1(plan).digest() + hashlib.sha1(plan[::-1]).digest()


def utf8(text):
    # Plan texts may hold lone surrogates on purpose: keep them (as invalid UTF-8).
    return text.encode("utf-8", "surrogatepass")


class Corpus:
    def __init__(self, root, target, max_bytes):
        self.dir = os.path.join(root, target)
        self.max = max_bytes
        self.count = 0
        os.makedirs(self.dir, exist_ok=True)

    def add(self, data):
        if len(data) > self.max:
            return
        name = hashlib.sha1(data).hexdigest()
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
        self.count += 1


# MCP sessions for `mcp_lines` (one message a line; the target splits on \n).
MCP_SESSIONS = [
    [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        '"capabilities":{"elicitation":{}},"clientInfo":{"name":"fuzz","version":"0"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_plan_contract","arguments":{}}}',
        '{"jsonrpc":"2.0","id":4,"method":"prompts/list"}',
        '{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"draft_plan","arguments":{"request_json":"{}"}}}',
        '{"jsonrpc":"2.0","id":6,"method":"resources/list"}',
        '{"jsonrpc":"2.0","id":7,"method":"resources/templates/list"}',
        '{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"plan://x"}}',
        '{"jsonrpc":"2.0","id":9,"method":"ping"}',
    ],
    [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",'
        '"capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}',
        '[{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"ping"},'
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}]',
        '[]',
    ],
    [
        '{"jsonrpc":"2.0","id":"a","method":"server/discover","params":{"_meta":{'
        '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        '"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}',
        '{"jsonrpc":"2.0","id":"b","method":"tools/list","params":{"_meta":{'
        '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        '"io.modelcontextprotocol/clientCapabilities":{}}}}',
        '{"jsonrpc":"2.0","id":"c","method":"tools/list","params":{"_meta":{'
        '"io.modelcontextprotocol/protocolVersion":"2025-11-25",'
        '"io.modelcontextprotocol/clientCapabilities":{}}}}',
        '{"jsonrpc":"2.0","id":"d","method":"ping","params":{"_meta":{'
        '"io.modelcontextprotocol/protocolVersion":2026}}}',
    ],
    [
        'not json',
        '',
        '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"method":"ping"}\r',
        '{"jsonrpc":"2.0","id":null,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        '{"jsonrpc":"2.0","id":7,"result":{}}',
        '{"jsonrpc":"2.0","id":8,"error":{"code":1,"message":"x"}}',
        '{"jsonrpc":"2.0","id":9,"method":"nope"}',
        '{"jsonrpc":"1.0","id":10,"method":"ping"}',
        '42',
        '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"nope"}}',
        '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"validate_plan","arguments":{"plan":1}}}',
        '{"jsonrpc":"2.0","id":13,"method":"logging/setLevel","params":{"level":"debug"}}',
    ],
]


def mcp_call(id_, tool, plan_raw, request_raw, modern=False):
    meta = ""
    if modern:
        meta = (',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
                '"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}')
    return ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s",'
            '"arguments":{"plan":%s,"request":%s}%s}}' % (id_, tool, plan_raw, request_raw, meta))


def main():
    shared, root = sys.argv[1], sys.argv[2]
    max_bytes = int(sys.argv[3]) if len(sys.argv) > 3 else DEFAULT_MAX
    text = Corpus(root, "validate_text", max_bytes)
    pair = Corpus(root, "validate_pair", max_bytes)
    # stream_completion reads PLAN \0 REQUEST \0 CONTROL: the pairs, with control bytes.
    stream = Corpus(root, "stream_completion", max_bytes)
    mcp = Corpus(root, "mcp_lines", max_bytes)
    # ical_import reads ZONE-BYTE CALENDAR-TEXT: the calendar crate's app-style fixtures, each
    # with every zone byte the target knows.
    ical = Corpus(root, "ical_import", max_bytes)
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "calendar", "tests", "fixtures")
    for name in sorted(os.listdir(fixtures)) if os.path.isdir(fixtures) else []:
        if name.endswith(".ics"):
            with open(os.path.join(fixtures, name), "rb") as f:
                body = f.read()
            for zone in range(6):
                ical.add(bytes([zone]) + body)

    pairs = []
    ex = os.path.join(shared, "examples")
    for name in sorted(os.listdir(ex)):
        if name.endswith(".plan.json"):
            base = name[: -len(".plan.json")]
            with open(os.path.join(ex, name), "rb") as f:
                plan = f.read()
            with open(os.path.join(ex, base + ".request.json"), "rb") as f:
                request = f.read()
            text.add(plan)
            text.add(request)
            pair.add(plan + b"\0" + request)
            stream.add(plan + b"\0" + request + b"\0" + control(plan))
            pairs.append((plan.decode(), request.decode()))

    vec = os.path.join(shared, "vectors")
    for name in sorted(os.listdir(vec)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(vec, name), encoding="utf-8", errors="surrogatepass") as f:
            for line in f:
                if not line.strip():
                    continue
                m = raw_members(line)
                plan_raw, request_raw = m["plan"], m["request"]
                if plan_raw.startswith('"'):
                    plan_bytes = utf8(json.loads(plan_raw))  # the plan is text: its text
                else:
                    plan_bytes = utf8(plan_raw)
                text.add(plan_bytes)
                text.add(utf8(request_raw))
                pair.add(plan_bytes + b"\0" + utf8(request_raw))
                stream.add(plan_bytes + b"\0" + utf8(request_raw) + b"\0" + control(plan_bytes))
                if name in ("base.jsonl", "text.jsonl", "limits.jsonl"):
                    pairs.append((plan_raw, request_raw))

    for session in MCP_SESSIONS:
        mcp.add(utf8("\n".join(session)))
    init = ('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
            '"capabilities":{"elicitation":{}},"clientInfo":{"name":"fuzz","version":"0"}}}')
    for i, (plan_raw, request_raw) in enumerate(pairs):
        if not plan_raw.lstrip().startswith(("{", '"')):
            continue
        plan_js = plan_raw if plan_raw.startswith('"') else json.dumps(json.loads(plan_raw))
        req_js = json.dumps(json.loads(request_raw))
        lines = [init, mcp_call(2, "validate_plan", plan_js, req_js),
                 mcp_call(3, "save_plan", plan_js, req_js),
                 mcp_call(4, "save_plan", plan_js, req_js),
                 mcp_call(5, "validate_plan", plan_js, req_js, modern=True),
                 mcp_call(6, "repair_plan", plan_js, req_js),
                 mcp_call(7, "repair_plan", plan_js, req_js, modern=True).replace(
                     '"arguments":{', '"arguments":{"unsafe":true,', 1),
                 '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_plan_schema",'
                 '"arguments":{"request":%s,"variant":"%s"}}}' % (req_js, ("validation", "strict")[i % 2]),
                 # the calendar tools (issue 32): an export with a DTSTAMP, an import of a tiny file
                 mcp_call(9, "export_calendar", plan_js, req_js).replace(
                     '"arguments":{', '"arguments":{"dtstamp":"20261207T120000Z",', 1),
                 '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"import_commitments","arguments":'
                 '{"calendar":"BEGIN:VCALENDAR\\r\\nBEGIN:VEVENT\\r\\nDTSTART:20261005T090000Z\\r\\n'
                 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE\\r\\nSUMMARY:Work\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n",'
                 '"startDate":"2026-10-05","timezone":"Europe/Zurich"}}}']
        mcp.add(utf8("\n".join(lines)))
        if i < 8:
            # The overwrite question and its answers (the server numbers its questions 1, 2, ...),
            # in both eras, and the resources that list and read the saved plans.
            plan_id = json.loads(request_raw).get("requestId") if request_raw.lstrip().startswith("{") else None
            uri = json.dumps("plan://%s" % plan_id)
            modern_retry = ('{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"save_plan",'
                            '"arguments":{"plan":%s,"request":%s},"inputResponses":{"overwrite":'
                            '{"action":"accept","content":{"overwrite":true}}},"_meta":{'
                            '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
                            '"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}' % (plan_js, req_js))
            lines = [init, '{"jsonrpc":"2.0","method":"notifications/initialized"}',
                     mcp_call(2, "save_plan", plan_js, req_js),
                     mcp_call(3, "save_plan", plan_js, req_js),
                     '{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"overwrite":true}}}',
                     mcp_call(4, "save_plan", plan_js, req_js),
                     '{"jsonrpc":"2.0","id":2,"result":{"action":"decline"}}',
                     mcp_call(5, "save_plan", plan_js, req_js),
                     '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"no"}}',
                     mcp_call(6, "save_plan", plan_js, req_js),
                     '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}',
                     '{"jsonrpc":"2.0","id":4,"result":{"action":"cancel"}}',
                     mcp_call(7, "save_plan", plan_js, req_js),
                     '{"jsonrpc":"2.0","id":5,"result":{"action":"accept","content":{"overwrite":false}}}',
                     '{"jsonrpc":"2.0","id":8,"method":"resources/list","params":{}}',
                     '{"jsonrpc":"2.0","id":9,"method":"resources/list","params":{"cursor":"x"}}',
                     '{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":%s}}' % uri,
                     mcp_call(11, "save_plan", plan_js, req_js, modern=True),
                     modern_retry,
                     '{"jsonrpc":"2.0","id":21,"method":"resources/read","params":{"uri":%s,"_meta":{'
                     '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
                     '"io.modelcontextprotocol/clientCapabilities":{}}}}' % uri]
            mcp.add(utf8("\n".join(lines)))

    # HTTP requests for `http_requests`: a head (`METHOD PATH`, `Name: value` lines), an empty
    # line, the body; every MCP session line above becomes a body, in both eras.
    http = Corpus(root, "http_requests", max_bytes)
    heads = [
        "POST /mcp\nHost: 127.0.0.1:8765\nContent-Type: application/json\nAccept: application/json, text/event-stream",
        "POST /mcp\nHost: localhost\nContent-Type: application/json\nMCP-Protocol-Version: 2025-11-25",
        "POST /mcp\nHost: localhost\nContent-Type: application/json\nAuthorization: Bearer fuzz-token",
    ]
    modern_head = ("POST /mcp\nHost: [::1]:1\nContent-Type: application/json\nMCP-Protocol-Version: 2026-07-28"
                   "\nMcp-Method: %s\nMcp-Name: %s")
    bodies = [line for session in MCP_SESSIONS for line in session]
    for body in bodies:
        for head in heads:
            http.add(utf8(head + "\n\n" + body))
        try:
            m = json.loads(body)
        except ValueError:
            continue
        if isinstance(m, dict) and isinstance(m.get("params"), dict):
            params = m["params"]
            params.setdefault("_meta", {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}})
            name = params.get("name") or params.get("uri") or ""
            http.add(utf8(modern_head % (m.get("method", ""), name) + "\n\n" + json.dumps(m)))
    for head in ("GET /mcp\nHost: localhost", "DELETE /mcp\nHost: localhost", "POST /other\nHost: localhost",
                 "POST /mcp\nHost: evil.example.com\nContent-Type: application/json",
                 "POST /mcp\nHost: localhost\nOrigin: http://evil.example.com\nContent-Type: application/json",
                 "POST /mcp\nHost: localhost\nContent-Type: text/plain",
                 "POST /mcp\nHost: localhost\nContent-Type: application/json\nAccept: text/html"):
        http.add(utf8(head + "\n\n" + '{"jsonrpc":"2.0","id":1,"method":"ping"}'))

    for c in (text, pair, stream, mcp, http):
        print("seeded %s: %d inputs -> %s" % (os.path.basename(c.dir), c.count, c.dir))


if __name__ == "__main__":
    main()
