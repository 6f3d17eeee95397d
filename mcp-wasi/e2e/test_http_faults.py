"""Faults and hostile clients against ``momentum-plan-sandbox --http`` (spec: "Streamable HTTP").

(a) 20,000 pseudo-random requests (seeded: malformed JSON, wrong types, huge ids, deep nesting,
    truncated bodies, random MCP headers, methods and paths) over keep-alive connections: never a
    5xx, never a dropped connection without an answer, every JSON body parseable, and afterwards a
    valid request is answered correctly;
(b) a client that sends its headers or its body slowly and never finishes (or connects and sends
    nothing) is cut off by the deadline (``--request-timeout-ms``) while other requests are
    served meanwhile; as many body-trickling clients as there are slots do not stall the others
    (the runner reads a body before it gives the request a guest slot);
(c) a body over 4 MiB is 413 (exactly 4 MiB is served; a 64 MiB one is refused before it is
    all sent); hostile bodies under 4 MiB (two million values, 100,000 levels) hit a limit, not
    the memory cap;
(d) a non-loopback bind without a token is refused (exit 64); with ``--bearer-token-file`` a
    missing or wrong token is 401 with ``WWW-Authenticate: Bearer``, the right one is served;
(e) a foreign Host or Origin is 403 (DNS rebinding); ``--allow-host``/``--allow-origin`` extend
    the allow-list.
"""

from __future__ import annotations

import base64
import functools
import http.client
import json
import random
import select
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from http_env import (
    ACCEPT,
    HttpRunner,
    classic,
    envelope,
    modern,
    read_reply,
    require_http_build,
    tool_result,
)
from sandbox_env import EXIT, MODERN, RUNNER, core_verdict, example

MIB = 1 << 20
SEED = 20261201
N_FUZZ = 20_000
FUZZ_THREADS = 4


@pytest.fixture
def runner(store: Path, cache_dir: Path, request: pytest.FixtureRequest) -> Iterator[HttpRunner]:
    extra = getattr(request, "param", None) or []
    with HttpRunner(store=store, cache_dir=cache_dir, extra=extra) as r:
        yield r


def assert_serves(r: HttpRunner, headers: dict[str, str] | None = None) -> None:
    """A valid validate_plan in both eras gets the core's verdict."""
    plan, req = example("calm-weekday-broken")
    verdict = core_verdict(plan, req)
    args = {"name": "validate_plan", "arguments": {"plan": plan, "request": req}}
    assert tool_result(modern(r, "tools/call", args, headers=headers)) == verdict
    assert tool_result(classic(r, "tools/call", args, headers=headers)) == verdict


# -- (a) fuzz ----------------------------------------------------------------------------------------

METHODS = ["tools/call"] * 8 + ["resources/read"] * 2 + ["prompts/get"] * 2 + ["tools/list", "tools/call", "resources/list", "resources/read", "resources/templates/list", "prompts/list",
           "prompts/get", "server/discover", "initialize", "ping", "logging/setLevel", "resources/subscribe",
           "notifications/initialized", "notifications/cancelled", "no/such", "", "TOOLS/LIST", "tools/list\u0000"]
VERSIONS = [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "v999", "", " 2026-07-28 ", "2026-07-29"]
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "text/plain", "",
                 "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "*/*"]
ACCEPTS = [ACCEPT, "application/json", "text/event-stream", "*/*", "application/*", "text/html", "", "image/png;q=0.1",
           "application/json;q=0", "text/event-stream, application/json;q=0.5"]
PATHS = ["/mcp"] * 60 + ["/", "/mcp/", "/MCP", "/mcp?x=1", "/mcp#f", "/mcp/../mcp", "/%6dcp", "/x" * 300, "*", "/mcp%00"]
HTTP_METHODS = ["POST"] * 40 + ["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD", "FOO"]


def rand_text(rng: random.Random, n: int, alphabet: str | None = None) -> str:
    if alphabet is None:
        # printable ASCII, tab, and some Latin-1 (obs-text in header values)
        alphabet = "".join(chr(c) for c in range(0x20, 0x7F)) + "\t" + "éü\u00ff\u0080"
    return "".join(rng.choice(alphabet) for _ in range(n))


def rand_value(rng: random.Random, depth: int = 0) -> Any:
    k = rng.randrange(10 if depth < 3 else 6)
    if k == 0:
        return None
    if k == 1:
        return rng.choice([True, False])
    if k == 2:
        return rng.choice([0, -1, 1.5, 1e308, -0.0, 2**63, -(2**64), int("9" * rng.randrange(1, 400))])
    if k in (3, 4, 5):
        return rand_text(rng, rng.randrange(0, 30), "abc{}[]\":,\\ é\u2028\ud7ff\ue000")
    if k in (6, 7):
        return [rand_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rand_text(rng, rng.randrange(1, 8), "abcdefgh_/"): rand_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def rand_id(rng: random.Random) -> Any:
    return rng.choice([
        1, 0, -1, "a", "", 2**53 + 1, int("7" * rng.randrange(20, 2000)), "x" * rng.randrange(1, 5000),
        None, 1.5, True, [], {}, {"id": 1}, -(10**30),
    ])


@functools.cache
def _example(name: str) -> tuple[Any, Any]:
    return example(name)


def rand_params(rng: random.Random, method: str) -> Any:
    k = rng.randrange(12)
    if k == 0:
        return rand_value(rng)
    p: dict[str, Any] = {}
    if rng.random() < 0.8:
        meta = envelope(rng.choice([{}, {"elicitation": {"form": {}}}, None, [], "x"]) if rng.random() < 0.3 else None)
        if rng.random() < 0.3:
            meta[rng.choice(list(meta))] = rand_value(rng)
        if rng.random() < 0.1:
            meta = rand_value(rng)
        p["_meta"] = meta
    plan, req = _example(rng.choice(["calm-weekday", "calm-weekday-broken", "first-5k"]))
    if method == "tools/call":
        p["name"] = rng.choice(["validate_plan", "save_plan", "get_plan_contract", "nope", 7, None])
        args: Any = {"plan": plan, "request": req}
        if rng.random() < 0.3:
            args = rng.choice([{"plan": rand_value(rng), "request": rand_value(rng)}, rand_value(rng), {"plan": json.dumps(plan)[: rng.randrange(200)]}])
        p["arguments"] = args
        if rng.random() < 0.2:
            p["inputResponses"] = rng.choice([{"overwrite": {"action": "accept", "content": {"overwrite": True}}},
                                              {"overwrite": rand_value(rng)}, rand_value(rng)])
    elif method == "resources/read":
        p["uri"] = rng.choice(["plan://req-2026-10-05-calm-weekday", "plan://../x", "plan://", "file:///etc/passwd",
                               rand_text(rng, 20), 5, None])
    elif method == "prompts/get":
        p["name"] = rng.choice(["draft_plan", "nope", None])
        p["arguments"] = rng.choice([{"request_json": json.dumps(req)}, {}, rand_value(rng)])
    elif method == "initialize":
        p.update({"protocolVersion": rng.choice(VERSIONS), "capabilities": rng.choice([{}, rand_value(rng)]),
                  "clientInfo": {"name": "fuzz", "version": "0"}})
    elif rng.random() < 0.3:
        p["cursor"] = rng.choice(["", "zzz", rand_text(rng, 12), 3])
    return p


def nested(rng: random.Random, depth: int) -> bytes:
    if rng.random() < 0.5:
        inner = "[" * depth + "0" + "]" * depth
    else:
        inner = '{"a":' * depth + "0" + "}" * depth
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "validate_plan", "arguments": {"plan": 0, "request": {}}}}).replace(
        '"plan": 0', '"plan": ' + inner).encode()


def rand_body(rng: random.Random) -> tuple[bytes, str, str]:
    """A body, the method and the name (tool, prompt or uri) it carries, for consistent headers
    (the method is '' when the body names none)."""
    method = rng.choice(METHODS)
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rand_id(rng) if rng.random() < 0.15 else rng.randrange(1000), "method": method}
    if rng.random() < 0.9:
        msg["params"] = rand_params(rng, method)
    params = msg.get("params")
    name = params.get("name", params.get("uri")) if isinstance(params, dict) else None
    name = name if isinstance(name, str) else ""
    if method.startswith("notifications/") and rng.random() < 0.8:
        msg.pop("id")
    k = rng.randrange(30)
    if k == 0:  # wrong member types
        key = rng.choice(["jsonrpc", "method", "params", "id"])
        msg[key] = rand_value(rng)
    elif k == 1:  # a response, or a result/error mix
        msg = rng.choice([{"jsonrpc": "2.0", "id": 1, "result": rand_value(rng)},
                          {"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "x"}},
                          {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}, "method": "x"}])
    elif k == 2:  # a batch
        return json.dumps([msg, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}][: rng.randrange(3)]).encode(), "", ""
    elif k == 3:  # deep nesting (the server stops at 520 levels)
        return nested(rng, rng.choice([10, 100, 511, 512, 513, 519, 520, 521, 600])), "tools/call", "validate_plan"
    elif k == 4:  # not JSON at all
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200))), "", ""
    elif k == 5:  # a truncated body
        data = json.dumps(msg, ensure_ascii=rng.random() < 0.5).encode()
        return data[: rng.randrange(len(data))], method, name
    elif k == 6:  # a BOM, whitespace, trailing data
        data = json.dumps(msg).encode()
        return rng.choice([b"\xef\xbb\xbf" + data, b" \r\n" + data + b"\n\n", data + b"{}", data + b"garbage", b""]), method, name
    elif k == 7:  # scalars and odd top-level values
        return rng.choice([b"null", b"0", b'"x"', b"[]", b"{}", b"true", b"1e999999", b'{"jsonrpc":"2.0"}']), "", ""
    elif k == 8:  # invalid UTF-8 inside strings
        return json.dumps(msg).encode().replace(b'"2.0"', b'"2.\xff\xfe"', 1), method, name
    elif k == 9:  # duplicate members
        return json.dumps(msg).encode()[:-1] + b',"method":"ping","id":9}', method, name
    return json.dumps(msg, ensure_ascii=rng.random() < 0.5).encode(), method, name


def b64_sentinel(text: str) -> str:
    return "=?base64?" + base64.b64encode(text.encode()).decode() + "?="


def rand_headers(rng: random.Random, method: str, name: str, body: bytes) -> dict[str, str]:
    """Mostly the headers a client would send for the body, each sometimes missing or wrong;
    in a third of the cases exactly the right ones, so the body reaches the protocol layer."""
    h: dict[str, str] = {"Content-Type": "application/json", "Accept": ACCEPT}
    if rng.random() < 0.35:
        if b'"io.modelcontextprotocol/protocolVersion"' in body:
            h.update({"MCP-Protocol-Version": MODERN, "Mcp-Method": method})
            if name:
                h["Mcp-Name"] = name
        elif (v := rng.choice([None, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])) is not None:
            h["MCP-Protocol-Version"] = v
        return h
    h = {}
    if rng.random() < 0.97:
        h["Content-Type"] = rng.choice(CONTENT_TYPES) if rng.random() < 0.1 else "application/json"
    if rng.random() < 0.9:
        h["Accept"] = rng.choice(ACCEPTS) if rng.random() < 0.1 else ACCEPT
    if rng.random() < 0.8:
        h["MCP-Protocol-Version"] = rng.choice(VERSIONS) if rng.random() < 0.2 else MODERN
    if rng.random() < 0.85:
        h["Mcp-Method"] = rng.choice([method, method.upper(), " " + method + " ", b64_sentinel(method), "=?base64?!!?=",
                                      rand_text(rng, rng.randrange(0, 40))]) if rng.random() < 0.15 else method
    if rng.random() < 0.8 and name:
        h["Mcp-Name"] = rng.choice([name, b64_sentinel(name), f" {name} ", "=?base64?", "", "validate_plan",
                                    rand_text(rng, rng.randrange(0, 60))]) if rng.random() < 0.2 else name
    elif rng.random() < 0.1:
        h["Mcp-Name"] = rand_text(rng, rng.randrange(0, 60))
    if rng.random() < 0.03:
        h["Mcp-Session-Id"] = rand_text(rng, 20)
    if rng.random() < 0.03:
        h["Origin"] = rng.choice(["http://localhost", "http://127.0.0.1:1", "null", "http://evil.example.com", rand_text(rng, 10)])
    if rng.random() < 0.03:
        h["Authorization"] = "Bearer " + rand_text(rng, 10)
    if rng.random() < 0.05:
        h[rng.choice(["X-Random", "Mcp-Param-X", "mcp-method", "MCP-PROTOCOL-VERSION"])] = rand_text(rng, rng.randrange(0, 100))
    if rng.random() < 0.02:
        h["X-Big"] = "b" * rng.randrange(1000, 6000)
    return h


def fuzz_cases(n: int, seed: int) -> list[tuple[str, str, bytes, dict[str, str]]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        body, method, name = rand_body(rng)
        verb = rng.choice(HTTP_METHODS)
        path = rng.choice(PATHS)
        if verb in ("GET", "HEAD", "OPTIONS", "DELETE") and rng.random() < 0.7:
            body = b""
        cases.append((verb, path, body, rand_headers(rng, method, name, body)))
    return cases


class FuzzStats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.status: Counter[int] = Counter()
        self.reconnects: list[str] = []
        self.failures: list[str] = []


def fuzz_worker(r: HttpRunner, cases: list[tuple[str, str, bytes, dict[str, str]]], stats: FuzzStats) -> None:
    conn = r.connection(10)
    served_on_conn = 0
    last = ""
    for verb, path, body, headers in cases:
        for attempt in (0, 1):
            try:
                conn.request(verb, path, body=body if body or verb not in ("GET", "HEAD") else None, headers=headers)
                reply = read_reply(conn.getresponse())
            except (OSError, http.client.HTTPException) as e:  # reset, broken pipe, timeout, no status line
                conn.close()
                conn = r.connection(10)
                closed = isinstance(e, (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError))
                if closed and attempt == 0 and served_on_conn > 0:
                    # A kept-alive connection the server closed after its last answer: retry once
                    # on a fresh one, as HTTP clients do. A fresh connection must not fail.
                    with stats.lock:
                        stats.reconnects.append(f"after {last}")
                    served_on_conn = 0
                    continue
                with stats.lock:
                    stats.failures.append(f"no answer ({e!r}) to {verb} {path} {headers} {body[:200]!r}")
                break
            served_on_conn += 1
            last = f"{verb} {path} {headers} {body[:100]!r} -> {reply.status} {reply.headers}"
            problem = None
            if reply.status >= 500:
                problem = f"HTTP {reply.status}"
            elif reply.body and "json" in reply.headers.get("content-type", ""):
                try:
                    json.loads(reply.body)
                except ValueError:
                    problem = "a JSON content type with a body that is not JSON"
            with stats.lock:
                stats.status[reply.status] += 1
                if problem:
                    stats.failures.append(f"{problem}: {verb} {path} {headers} {body[:200]!r} -> {reply!r}")
            if reply.headers.get("connection", "").lower() == "close":
                conn.close()
                served_on_conn = 0
            break
    conn.close()


def test_fuzz_requests(runner: HttpRunner) -> None:
    cases = fuzz_cases(N_FUZZ, SEED)
    stats = FuzzStats()
    t0 = time.monotonic()
    threads = [threading.Thread(target=fuzz_worker, args=(runner, cases[i::FUZZ_THREADS], stats)) for i in range(FUZZ_THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    elapsed = time.monotonic() - t0
    assert not any(th.is_alive() for th in threads), "the fuzz did not finish within 300 s"
    print(f"fuzz: {N_FUZZ} requests in {elapsed:.1f} s, statuses {dict(sorted(stats.status.items()))}, "
          f"reconnects {len(stats.reconnects)}: {stats.reconnects[:3]}")
    assert stats.failures == [], f"{len(stats.failures)} failures, first: {stats.failures[:5]}"
    assert sum(stats.status.values()) == N_FUZZ
    assert runner.alive(), runner.stderr()
    assert_serves(runner)


# -- (b) slow clients --------------------------------------------------------------------------------


def slow_client(
    r: HttpRunner, head: bytes, drip: bytes, limit: float, started: threading.Event | None = None
) -> tuple[float, bytes, str]:
    """Sends ``head`` then one byte of ``drip`` every 0.5 s (nothing when empty); returns (seconds
    until the server closed or answered, what it sent, how it ended)."""
    s = socket.create_connection((r.host, r.port), timeout=limit)
    t0 = time.monotonic()
    got = b""
    how = "still open"
    try:
        s.sendall(head)
        if started is not None:
            started.set()
        i = 0
        while time.monotonic() - t0 < limit:
            readable, _, _ = select.select([s], [], [], 0.5)
            if readable:
                try:
                    data = s.recv(65536)
                except ConnectionResetError:
                    how = "reset"
                    break
                if not data:
                    how = "closed"
                    break
                got += data
                if b"\r\n\r\n" in got:
                    how = "answered"
                    break
                continue
            if not drip:
                continue  # a silent client: connected, sends nothing
            try:
                s.sendall(drip[i % len(drip) : i % len(drip) + 1])
            except (BrokenPipeError, ConnectionResetError):
                how = "closed while sending"
                break
            i += 1
        return time.monotonic() - t0, got, how
    finally:
        s.close()


SLOW = {
    "silent": (b"", b""),
    "headers": (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: ", b"abcdefgh"),
    "body": (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
             b"Content-Length: 1000\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"x\":\"", b"abcdefgh"),
}


@pytest.mark.parametrize("runner", [["--request-timeout-ms", "1000"]], indirect=True, ids=["timeout-1s"])
@pytest.mark.parametrize("part", list(SLOW))
def test_slow_client_is_cut_off(runner: HttpRunner, part: str) -> None:
    head, drip = SLOW[part]
    out: dict[str, Any] = {}
    th = threading.Thread(target=lambda: out.update(result=slow_client(runner, head, drip, limit=10.0)))
    th.start()
    served = 0
    t0 = time.monotonic()
    while th.is_alive() and time.monotonic() - t0 < 12:
        ts = time.monotonic()
        assert classic(runner, "tools/list", timeout=5).status == 200
        assert time.monotonic() - ts < 2.0, "a request waited behind the slow client"
        served += 1
        time.sleep(0.1)
    th.join(15)
    elapsed, got, how = out["result"]
    print(f"slow {part}: ended after {elapsed:.2f} s ({how}), {len(got)} bytes back: {got[:120]!r}; {served} requests served meanwhile")
    assert how != "still open", f"the slow client was never cut off (10 s, deadline 1 s); got {got[:200]!r}"
    assert elapsed < 5.0, f"cut off only after {elapsed:.1f} s (deadline 1 s)"
    if got:
        status = int(got.split(b" ", 2)[1])
        assert 400 <= status < 500, got[:200]
    assert served >= 2
    assert_serves(runner)


@pytest.mark.parametrize("runner", [["--request-timeout-ms", "3000", "--max-concurrency", "2"]], indirect=True, ids=["2-slots"])
def test_slow_bodies_do_not_starve_others(runner: HttpRunner) -> None:
    """As many body-trickling clients as there are slots: other requests are still served."""
    head, drip = SLOW["body"]
    started = [threading.Event() for _ in range(2)]
    threads = [threading.Thread(target=slow_client, args=(runner, head, drip, 6.0, e)) for e in started]
    for th in threads:
        th.start()
    try:
        assert all(e.wait(5) for e in started)
        time.sleep(0.3)  # the server has the headers and is reading both bodies
        t0 = time.monotonic()
        assert classic(runner, "tools/list", timeout=10).status == 200
        waited = time.monotonic() - t0
    finally:
        for th in threads:
            th.join(10)
    assert waited < 1.0, f"a plain tools/list waited {waited:.2f} s behind two slow bodies"


# -- (c) body size ------------------------------------------------------------------------------------


def padded_request(size: int) -> bytes:
    """A valid classic tools/list request padded with trailing white space to ``size`` bytes."""
    msg = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    return msg + b" " * (size - len(msg))


def test_body_limit(runner: HttpRunner) -> None:
    headers = {"MCP-Protocol-Version": "2025-11-25", "Content-Type": "application/json", "Accept": ACCEPT}
    at_limit = runner.post(padded_request(4 * MIB), headers)
    assert at_limit.status == 200, at_limit
    assert [t["name"] for t in at_limit.result["tools"]][:2] == ["get_plan_contract", "validate_plan"]
    over = runner.post(padded_request(4 * MIB + 1), headers)
    assert over.status == 413, over
    assert_serves(runner)


def test_big_body_is_refused_without_reading_it_all(runner: HttpRunner) -> None:
    """A 64 MiB body: 413 comes back; the server need not read (or keep) the rest."""
    s = socket.create_connection((runner.host, runner.port), timeout=10)
    total = 64 * MIB
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{runner.port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json\r\nContent-Length: {total}\r\n\r\n").encode()
    got = b""
    try:
        s.sendall(head)
        chunk = b" " * 65536
        sent = 0
        t0 = time.monotonic()
        while sent < total and time.monotonic() - t0 < 20:
            readable, writable, _ = select.select([s], [s], [], 1.0)
            if readable:
                break
            if writable:
                try:
                    sent += s.send(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    break
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                data = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not data:
                break
            got += data
            if b"\r\n\r\n" in got:
                break
    finally:
        s.close()
    assert got.startswith(b"HTTP/1.1 413"), f"sent {sent} of {total} bytes, got {got[:200]!r}"
    assert sent < total, "the server read the whole 64 MiB before answering"
    assert_serves(runner)


def test_bodies_that_would_exhaust_memory(runner: HttpRunner) -> None:
    """Under 4 MiB but hostile: two million values, the same as plan text, 100,000 levels of
    nesting. Each is refused by a limit (not by the 64 MiB memory cap) and the server goes on."""
    h = {"MCP-Protocol-Version": "2025-11-25"}
    n = (4 * MIB - 200) // 2
    values = "[" + ",".join(["0"] * n) + "]"
    call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"validate_plan","arguments":{"plan":%s,"request":{}}}}'
    reply = runner.post((call % values).encode(), h)
    assert reply.status == 400 and reply.error["code"] == -32600, reply
    reply = runner.post((call % json.dumps(values[: 4 * MIB - 300])).encode(), h)
    assert reply.status == 200 and reply.result["isError"] is True, reply
    reply = runner.post((call % ("[" * 100_000 + "]" * 100_000)).encode(), h)
    assert reply.status == 400 and reply.error["code"] == -32700, reply
    assert runner.alive(), runner.stderr()
    assert_serves(runner)


# -- (d) binding and the bearer token -----------------------------------------------------------------


def test_non_loopback_bind_without_token_is_refused(cache_dir: Path) -> None:
    require_http_build()
    out = subprocess.run([str(RUNNER), "--http", "0.0.0.0:0", "--cache-dir", str(cache_dir)],
                         capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == EXIT["usage"], out
    assert out.stdout == b""
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("momentum-plan-sandbox: error: "), lines
    assert "token" in lines[0].lower(), lines


TOKEN = "s3cret-Token_for.tests~0123456789"


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    f = tmp_path / "token"
    f.write_text(TOKEN + "\n", encoding="utf-8")  # as `echo TOKEN > file` writes it
    return f


def test_bearer_token(store: Path, cache_dir: Path, token_file: Path) -> None:
    with HttpRunner(store=store, cache_dir=cache_dir, extra=["--bearer-token-file", str(token_file)]) as r:
        for auth in (None, "Bearer wrong", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", "Basic dXNlcjpwYXNz", TOKEN, "Bearer"):
            h = {"Authorization": auth} if auth is not None else {}
            for reply in (r.modern("tools/list", headers=h), r.classic("tools/list", headers=h)):
                assert reply.status == 401, (auth, reply)
                assert reply.headers.get("www-authenticate", "").startswith("Bearer"), (auth, reply)
        assert_serves(r, {"Authorization": f"Bearer {TOKEN}"})
        # Host and Origin are still checked with a valid token.
        bad_host = r.modern("tools/list", headers={"Authorization": f"Bearer {TOKEN}", "Host": "evil.example.com"})
        assert bad_host.status == 403, bad_host


def test_non_loopback_bind_with_token(cache_dir: Path, token_file: Path) -> None:
    with HttpRunner(cache_dir=cache_dir, addr="0.0.0.0:0", extra=["--bearer-token-file", str(token_file)]) as r:
        r.host = "127.0.0.1"  # listening on every interface; talk to it over loopback
        h = {"Authorization": f"Bearer {TOKEN}", "Host": f"127.0.0.1:{r.port}"}
        assert r.modern("tools/list", headers={"Host": f"127.0.0.1:{r.port}"}).status == 401
        assert_serves(r, h)


# -- (e) Host and Origin ------------------------------------------------------------------------------


def test_dns_rebinding(runner: HttpRunner) -> None:
    port = runner.port
    for h in ({"Host": "evil.example.com"}, {"Host": f"evil.example.com:{port}"}, {"Host": "localhost.evil.example.com"},
              {"Origin": "http://evil.example.com"}, {"Origin": f"http://evil.example.com:{port}"},
              {"Origin": "https://127.0.0.1.evil.example.com"}):
        for reply in (runner.modern("tools/list", headers=h), runner.classic("tools/list", headers=h),
                      runner.modern("server/discover", headers=h)):
            assert reply.status == 403, (h, reply)
    for h in ({"Host": f"localhost:{port}"}, {"Host": f"127.0.0.1:{port}"}, {"Host": f"[::1]:{port}"}, {"Host": "localhost"},
              {"Origin": f"http://localhost:{port}"}, {"Origin": f"http://127.0.0.1:{port}"}, {"Origin": "http://[::1]:9"}):
        for reply in (runner.modern("tools/list", headers=h), runner.classic("tools/list", headers=h)):
            assert reply.status == 200, (h, reply)
            assert [t["name"] for t in reply.result["tools"]][:2] == ["get_plan_contract", "validate_plan"]


@pytest.mark.parametrize(
    "runner", [["--allow-host", "plans.example.org", "--allow-origin", "https://app.example.org"]], indirect=True, ids=["allow"]
)
def test_allow_lists(runner: HttpRunner) -> None:
    assert runner.modern("tools/list", headers={"Host": "plans.example.org"}).status == 200
    assert runner.modern("tools/list", headers={"Host": "evil.example.com"}).status == 403
    ok = runner.modern("tools/list", headers={"Origin": "https://app.example.org"})
    assert ok.status == 200, ok
    assert runner.modern("tools/list", headers={"Origin": "https://evil.example.com"}).status == 403
