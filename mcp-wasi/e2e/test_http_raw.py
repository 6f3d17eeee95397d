"""Raw HTTP requests for the transport rules of spec "Streamable HTTP" that no SDK sends.

One endpoint (``/mcp``, other paths 404), POST only (GET/DELETE 405 ``Allow: POST``), no
``Mcp-Session-Id``, one JSON body per answer, 202 for notifications and client responses; the era
from ``MCP-Protocol-Version`` (absent: classic 2025-03-26; unknown: 400 ``-32022``); 2026-07-28
header/body agreement (``-32020``), removed methods and ``initialize`` 404 ``-32601``; the
status table; 415/406; and the catalog over HTTP equal to the stdio server's, byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from http_env import (
    ACCEPT,
    HttpRunner,
    classic,
    envelope,
    http_server,  # noqa: F401  (fixture)
    http_server_with_plan,  # noqa: F401  (fixture)
    message,
    modern,
    modern_message,
    post,
    request,
    tool_result,
)
from sandbox_env import MODERN, WASM, RawSession, core_verdict, example, runner_args


def no_session(reply: Any) -> None:
    assert "mcp-session-id" not in reply.headers, reply


def test_endpoint_and_methods(http_server: HttpRunner) -> None:  # noqa: F811
    for verb in ("GET", "DELETE"):
        for h in ({}, {"Accept": "text/event-stream"}, {"Mcp-Session-Id": "abc", "MCP-Protocol-Version": MODERN}):
            reply = request(http_server, verb, "/mcp", None, h)
            assert reply.status == 405, (verb, h, reply)
            assert reply.headers.get("allow") == "POST", reply
    for path in ("/", "/mcp/x", "/sse", "/messages"):
        reply = http_server.classic("tools/list", path=path)
        assert reply.status == 404, (path, reply)


def test_notifications_and_responses_get_202(http_server: HttpRunner) -> None:  # noqa: F811
    bodies: list[tuple[dict[str, Any], dict[str, str]]] = [
        ({"jsonrpc": "2.0", "method": "notifications/initialized"}, {"MCP-Protocol-Version": "2025-11-25"}),
        ({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}, {}),
        ({"jsonrpc": "2.0", "id": 5, "result": {}}, {"MCP-Protocol-Version": "2025-11-25"}),
        ({"jsonrpc": "2.0", "id": 5, "error": {"code": -1, "message": "no"}}, {}),
    ]
    for body, h in bodies:
        reply = http_server.post(body, h)
        assert reply.status == 202 and reply.body == b"", (body, reply)
    msg, h = modern_message("notifications/cancelled", {"requestId": 1})
    msg.pop("id")
    reply = http_server.post(msg, h)
    assert reply.status == 202 and reply.body == b"", reply


def test_media_types(http_server: HttpRunner) -> None:  # noqa: F811
    body = message("tools/list")
    for ct in ("text/plain", "application/x-www-form-urlencoded", "text/event-stream"):
        reply = http_server.post(body, {"Content-Type": ct, "MCP-Protocol-Version": "2025-11-25"})
        assert reply.status == 415, (ct, reply)
    for accept in ("text/html", "text/event-stream", "image/png"):
        reply = http_server.post(body, {"Accept": accept, "MCP-Protocol-Version": "2025-11-25"})
        assert reply.status == 406, (accept, reply)
    for accept in ("application/json", "*/*", "application/*", ACCEPT):
        reply = http_server.post(body, {"Accept": accept, "MCP-Protocol-Version": "2025-11-25"})
        assert reply.status == 200 and reply.headers["content-type"].startswith("application/json"), (accept, reply)
    reply = post(http_server, body, {"Content-Type": "application/json; charset=utf-8"}, defaults=False)
    assert reply.status == 200, reply


def test_classic_era_from_the_header(http_server: HttpRunner) -> None:  # noqa: F811
    """Absent header: classic 2025-03-26 (annotations, no title/outputSchema/structuredContent)."""
    plan, req = example("calm-weekday")
    verdict = core_verdict(plan, req)
    args = {"name": "validate_plan", "arguments": {"plan": plan, "request": req}}
    for version, annotations, titles in ((None, True, False), ("2025-03-26", True, False),
                                         ("2024-11-05", False, False), ("2025-06-18", True, True), ("2025-11-25", True, True)):
        reply = classic(http_server, "tools/list", version=version)
        assert reply.status == 200, reply
        no_session(reply)
        for tool in reply.result["tools"]:
            assert ("annotations" in tool) == annotations, (version, tool)
            assert ("title" in tool) == titles and ("outputSchema" in tool) == titles, (version, tool)
        r = classic(http_server, "tools/call", args, version=version).result
        assert json.loads(r["content"][0]["text"]) == verdict
        assert ("structuredContent" in r) == titles, (version, r)
        assert "resultType" not in r


def test_classic_status_table_and_ids(http_server: HttpRunner) -> None:  # noqa: F811
    h = {"MCP-Protocol-Version": "2025-11-25"}
    reply = http_server.post(b"{not json", h)
    assert reply.status == 400 and reply.json() == {"jsonrpc": "2.0", "id": None, "error": reply.error}
    assert reply.error["code"] == -32700
    reply = http_server.post({"jsonrpc": "2.0", "id": 3}, h)
    assert reply.status == 400 and reply.error["code"] == -32600 and reply.json()["id"] == 3
    reply = http_server.post(message("no/such", id_="s-1"), h)
    assert reply.status == 200 and reply.error["code"] == -32601 and reply.json()["id"] == "s-1"
    reply = http_server.post(message("tools/call", {"name": "nope"}), h)
    assert reply.status == 200 and reply.error["code"] == -32602
    big = int("9" * 400)
    reply = http_server.post(message("tools/list", id_=big), h)
    assert reply.status == 200 and reply.body.startswith(b'{"jsonrpc":"2.0","id":' + str(big).encode() + b",")
    # A batch is served only under 2025-03-26.
    batch = [message("tools/list", id_=1), message("prompts/list", id_=2)]
    reply = http_server.post(batch, {"MCP-Protocol-Version": "2025-03-26"})
    assert reply.status == 200 and [m["id"] for m in reply.json()] == [1, 2]
    reply = http_server.post(batch, h)
    assert reply.status == 400 and reply.error["code"] == -32600
    # A session id is never minted, and one sent is ignored.
    reply = http_server.post(message("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                    "clientInfo": {"name": "raw", "version": "0"}}), {})
    assert reply.status == 200 and reply.result["protocolVersion"] == "2025-11-25"
    no_session(reply)
    reply = http_server.post(message("tools/list"), {**h, "Mcp-Session-Id": "made-up"})
    assert reply.status == 200 and reply.result["tools"]
    no_session(reply)


def test_unknown_version_header(http_server: HttpRunner) -> None:  # noqa: F811
    for version in ("v999", "2026-07-29", "2025-11-26", "latest"):
        reply = classic(http_server, "tools/list", version=version)
        assert reply.status == 400, (version, reply)
        assert reply.error["code"] == -32022 and reply.error["data"]["requested"] == version, reply
        assert MODERN in reply.error["data"]["supported"]
    msg, _ = modern_message("tools/list")
    msg["params"]["_meta"] = envelope(version="v999")
    reply = http_server.post(msg, {"MCP-Protocol-Version": "v999", "Mcp-Method": "tools/list"})
    assert reply.status == 400 and reply.error["code"] == -32022, reply
    assert reply.error["data"]["requested"] == "v999" and MODERN in reply.error["data"]["supported"], reply


def test_modern_header_ladder(http_server: HttpRunner) -> None:  # noqa: F811
    def send(method: str, params: dict[str, Any] | None, headers: dict[str, str], drop: tuple[str, ...] = ()) -> Any:
        msg, h = modern_message(method, params)
        for k in drop:
            h.pop(k)
        h.update(headers)
        return http_server.post(msg, h)

    call = {"name": "get_plan_contract", "arguments": {}}
    ok = [
        ("tools/list", None, {}, ()),
        ("tools/list", None, {"Mcp-Method": "  tools/list "}, ()),
        ("tools/call", call, {"Mcp-Name": " get_plan_contract\t"}, ()),
        ("tools/call", call, {"Mcp-Name": "=?base64?Z2V0X3BsYW5fY29udHJhY3Q=?="}, ()),
        ("tools/list", None, {"mcp-method": "tools/list", "MCP-PROTOCOL-VERSION": MODERN}, ("Mcp-Method", "MCP-Protocol-Version")),
    ]
    for method, params, headers, drop in ok:
        reply = send(method, params, headers, drop)
        assert reply.status == 200 and reply.result["resultType"] == "complete", (headers, reply)
        no_session(reply)
    bad = [
        ("tools/list", None, {"Mcp-Method": "tools/call"}, ()),
        ("tools/list", None, {"Mcp-Method": "TOOLS/LIST"}, ()),
        ("tools/list", None, {}, ("Mcp-Method",)),
        ("tools/call", call, {"Mcp-Name": "validate_plan"}, ()),
        ("tools/call", call, {}, ("Mcp-Name",)),
        ("tools/call", call, {"Mcp-Name": "=?base64?!!!?="}, ()),
    ]
    for method, params, headers, drop in bad:
        reply = send(method, params, headers, drop)
        assert reply.status == 400 and reply.error["code"] == -32020, (method, headers, drop, reply)
    # Header 2026-07-28, body envelope v999: they disagree.
    msg, h = modern_message("tools/list")
    msg["params"]["_meta"] = envelope(version="v999")
    reply = http_server.post(msg, h)
    assert reply.status == 400 and reply.error["code"] == -32020, reply
    # Envelope shape: missing version or capabilities, or no _meta at all.
    for meta in ({}, {"io.modelcontextprotocol/protocolVersion": MODERN}, None):
        msg, h = modern_message("server/discover")
        if meta is None:
            msg["params"].pop("_meta")
        else:
            msg["params"]["_meta"] = meta
        reply = http_server.post(msg, h)
        assert reply.status == 400 and reply.error["code"] == -32602, (meta, reply)


def test_modern_methods(http_server: HttpRunner) -> None:  # noqa: F811
    for method in ("initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "no/such"):
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "0"}} \
            if method == "initialize" else {"level": "info"} if method == "logging/setLevel" else {"uri": "plan://x"}
        reply = modern(http_server, method, params, id_="m-1")
        assert reply.status == 404 and reply.error["code"] == -32601 and reply.json()["id"] == "m-1", (method, reply)
    d = modern(http_server, "server/discover").result
    assert d["supportedVersions"] == [MODERN] and (d["ttlMs"], d["cacheScope"]) == (3600000, "public")
    assert d["resultType"] == "complete" and d["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "momentum-planner"
    for method, hints in (("tools/list", (3600000, "public")), ("prompts/list", (3600000, "public")),
                          ("resources/templates/list", (3600000, "public")), ("resources/list", (0, "private"))):
        r = modern(http_server, method).result
        assert (r["ttlMs"], r["cacheScope"]) == hints, (method, r)
    reply = modern(http_server, "resources/read", {"uri": "plan://never-saved"})
    assert reply.status == 400 and reply.error == {"code": -32602, "message": "Resource not found",
                                                   "data": {"uri": "plan://never-saved"}}, reply


def stdio_results(store: Path, requests: list[tuple[str, dict[str, Any] | None, bool]]) -> list[Any]:
    with RawSession(runner_args(store, None, wasm=WASM)) as s:
        s.initialize("2025-11-25")
        out = []
        for i, (method, params, is_modern) in enumerate(requests):
            p = dict(params or {})
            if is_modern:
                p["_meta"] = envelope()
            out.append(s.request(100 + i, method, p))
        return out


@pytest.mark.parametrize("era", ["classic", "modern"])
def test_catalog_equals_stdio(era: str, http_server: HttpRunner, tmp_path: Path) -> None:  # noqa: F811
    """The HTTP component serves the same catalog as the stdio program (one protocol library)."""
    stdio_store = tmp_path / "stdio-plans"
    stdio_store.mkdir()
    plan, req = example("calm-weekday")
    reqs: list[tuple[str, dict[str, Any] | None]] = [
        ("tools/list", None), ("prompts/list", None), ("resources/templates/list", None),
        ("prompts/get", {"name": "draft_plan", "arguments": {"request_json": json.dumps(req)}}),
        ("tools/call", {"name": "get_plan_contract", "arguments": {}}),
        ("tools/call", {"name": "validate_plan", "arguments": {"plan": plan, "request": req}}),
    ]
    expected = stdio_results(stdio_store, [(m, p, era == "modern") for m, p in reqs])
    for (method, params), want in zip(reqs, expected):
        if era == "modern":
            reply = modern(http_server, method, params, id_=want["id"])
        else:
            reply = classic(http_server, method, params, id_=want["id"])
        assert reply.status == 200, reply
        assert reply.json() == want, method
    assert tool_result(modern(http_server, "tools/call", reqs[-1][1]))["valid"] is True


def test_resources_of_a_saved_plan(http_server_with_plan: HttpRunner, store: Path) -> None:  # noqa: F811
    """The store holds one plan: list and read it in both eras; unsafe or missing ids are errors."""
    plan, req = example("calm-weekday")
    uri = f"plan://{req['requestId']}"
    text = (store / f"{req['requestId']}.json").read_text(encoding="utf-8")
    assert json.loads(text) == plan
    listed = modern(http_server_with_plan, "resources/list").result
    assert [r["uri"] for r in listed["resources"]] == [uri] and "nextCursor" not in listed
    assert (listed["ttlMs"], listed["cacheScope"]) == (0, "private")
    assert [r["uri"] for r in classic(http_server_with_plan, "resources/list").result["resources"]] == [uri]
    read = modern(http_server_with_plan, "resources/read", {"uri": uri}).result
    assert read["contents"] == [{"uri": uri, "mimeType": "application/json", "text": text}]
    assert (read["ttlMs"], read["cacheScope"]) == (0, "private")
    assert classic(http_server_with_plan, "resources/read", {"uri": uri}).result["contents"][0]["text"] == text
    for bad in ("plan://../etc/passwd", "plan://a/b", "plan://", "plan://" + "x" * 200, "file:///etc/passwd"):
        m = modern(http_server_with_plan, "resources/read", {"uri": bad})
        assert m.status == 400 and m.error["code"] == -32602 and m.error["data"] == {"uri": bad}, (bad, m)
        c = classic(http_server_with_plan, "resources/read", {"uri": bad})
        assert c.status == 200 and c.error["code"] == -32002 and c.error["data"] == {"uri": bad}, (bad, c)
