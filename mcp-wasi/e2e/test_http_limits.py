"""Slow and greedy clients against ``momentum-plan-sandbox --http`` (issue 30, "Hardening"):

(a) the request head's deadline is total: a head that trickles in one byte at a time, each well
    within the deadline, is still cut at the deadline and answered ``408`` before the connection
    closes; an idle keep-alive connection is closed without an answer;
(b) a body that arrives slower than the floor rate (500 bytes a second after a 2 s grace) is cut
    with ``408`` long before the request deadline, and a body sent in pieces at a normal pace is
    served;
(c) ``--max-connections``: a connection beyond the cap is answered ``503`` (``Retry-After: 1``) at
    once, the open ones keep being served, and a place freed is taken again;
(d) a few hundred connections trickling their heads: a normal client meanwhile gets every answer
    within three times its own p99 from before (at least 0.25 s, for this shared machine), and
    every slow connection ends by itself with a ``408`` at its deadline;
(e) no request on the usual paths grows the guest's memory (each ``memory.grow`` is an
    ``mprotect`` now and another at the slot's reset): the runner's ``--verbose`` count is 0 for
    every instance.

Every socket here is on loopback, every wait is bounded, and each test stops by itself.
"""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from http_env import HttpRunner, classic, modern, request
from sandbox_env import CALENDAR_FIXTURES, example

HEAD = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: "
BODY_HEAD = (
    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n"
)


@pytest.fixture
def runner(store: Path, cache_dir: Path, request: pytest.FixtureRequest) -> Iterator[HttpRunner]:
    extra = getattr(request, "param", None) or []
    with HttpRunner(store=store, cache_dir=cache_dir, extra=extra) as r:
        yield r


def read_answer(s: socket.socket, limit: float) -> tuple[float, bytes]:
    """Reads until the peer closes or ``limit`` seconds pass; returns (seconds, bytes)."""
    t0 = time.monotonic()
    got = b""
    s.settimeout(0.2)
    while time.monotonic() - t0 < limit:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            break
        if not data:
            break
        got += data
    return time.monotonic() - t0, got


def parse_answer(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split(" ", 2)[1]), headers, body


def drip(s: socket.socket, data: bytes, every: float, limit: float) -> tuple[float, bytes, int]:
    """Sends ``data`` one byte every ``every`` seconds until the server answers or closes (or
    ``limit`` passes); returns (seconds, what came back, bytes sent)."""
    t0 = time.monotonic()
    got = b""
    sent = 0
    s.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(s, selectors.EVENT_READ)
    next_drip = t0
    while time.monotonic() - t0 < limit:
        if sent < len(data) and time.monotonic() >= next_drip:
            try:
                s.send(data[sent : sent + 1])
                sent += 1
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                pass
            next_drip += every
        if sel.select(timeout=0.05):
            try:
                chunk = s.recv(65536)
            except (BlockingIOError, ConnectionResetError):
                chunk = b""
            if not chunk:
                break
            got += chunk
    sel.close()
    return time.monotonic() - t0, got, sent


def trickled_408(r: HttpRunner, first: bytes, every: float, limit: float) -> tuple[float, str]:
    """Sends ``first``, then one byte every ``every`` seconds until the server answers; checks
    that the answer is a whole ``408`` with ``Connection: close`` and returns (seconds, its
    JSON-RPC error message)."""
    s = socket.create_connection((r.host, r.port), timeout=5)
    try:
        s.sendall(first)
        elapsed, got, sent = drip(s, b"x" * 200, every, limit)
    finally:
        s.close()
    assert got, f"closed after {elapsed:.2f} s without an answer ({sent} bytes dripped)"
    status, headers, body = parse_answer(got)
    assert status == 408, got[:300]
    assert headers.get("connection") == "close", headers
    assert int(headers["content-length"]) == len(body), got[:300]
    return elapsed, json.loads(body)["error"]["message"]


# -- (a) the head's deadline ------------------------------------------------------------------


@pytest.mark.parametrize("runner", [["--request-timeout-ms", "1000"]], indirect=True, ids=["timeout-1s"])
def test_a_trickling_head_is_cut_at_the_deadline_with_408(runner: HttpRunner) -> None:
    # One byte every 0.3 s: each within the 1 s deadline, the whole head never.
    elapsed, message = trickled_408(runner, HEAD, 0.3, limit=6.0)
    assert message == "Request timeout: the request head did not arrive within --request-timeout-ms (1000 ms)"
    assert 0.9 <= elapsed < 2.5, f"answered after {elapsed:.2f} s (deadline 1 s, one byte every 0.3 s)"
    assert classic(runner, "tools/list", timeout=5).status == 200


@pytest.mark.parametrize("runner", [["--request-timeout-ms", "1000"]], indirect=True, ids=["timeout-1s"])
def test_an_idle_keep_alive_connection_is_closed_without_an_answer(runner: HttpRunner) -> None:
    conn = http.client.HTTPConnection(runner.host, runner.port, timeout=5)
    try:
        reply = classic(conn, "tools/list")
        assert reply.status == 200
        assert conn.sock is not None, "the server closed a keep-alive connection after one answer"
        elapsed, got = read_answer(conn.sock, limit=4.0)
    finally:
        conn.close()
    assert got == b"", f"an idle connection was sent {got[:200]!r}"
    assert elapsed < 2.5, f"the idle connection stayed open {elapsed:.2f} s (deadline 1 s)"


# -- (b) the body's floor rate ----------------------------------------------------------------


@pytest.mark.parametrize("runner", [["--request-timeout-ms", "30000"]], indirect=True, ids=["timeout-30s"])
def test_a_body_below_the_floor_rate_is_cut_with_408(runner: HttpRunner) -> None:
    elapsed, message = trickled_408(runner, BODY_HEAD % 1000 + b'{"jsonrpc":"2.0"', 0.25, limit=10.0)
    assert message.startswith("Request timeout: the request body arrived slower than 500 bytes a second ("), message
    # 2 s of grace plus 1 s per 500 bytes (16 + a few dripped): cut after about 2 s, not at 30.
    assert 1.8 <= elapsed < 4.0, f"cut after {elapsed:.2f} s"
    assert classic(runner, "tools/list", timeout=5).status == 200


def test_a_body_sent_in_pieces_at_a_normal_pace_is_served(runner: HttpRunner) -> None:
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"pad": "p" * 3000}}, separators=(",", ":")
    ).encode()
    s = socket.create_connection((runner.host, runner.port), timeout=10)
    try:
        s.sendall((BODY_HEAD % len(body)).replace(b"Host:", b"MCP-Protocol-Version: 2025-11-25\r\nHost:"))
        # Four pieces 0.7 s apart: 2.1 s in all, past the grace, at about 1,500 bytes a second.
        for i in range(4):
            time.sleep(0.7)
            s.sendall(body[i * len(body) // 4 : (i + 1) * len(body) // 4])
        _, got = read_answer(s, limit=5.0)
    finally:
        s.close()
    status, _, answer = parse_answer(got)
    assert status == 200, got[:300]
    assert json.loads(answer)["id"] == 7


# -- (c) the connection cap -------------------------------------------------------------------


@pytest.mark.parametrize("runner", [["--max-connections", "4"]], indirect=True, ids=["cap-4"])
def test_connections_beyond_the_cap_are_refused_at_once(runner: HttpRunner) -> None:
    served = http.client.HTTPConnection(runner.host, runner.port, timeout=5)
    idle = [socket.create_connection((runner.host, runner.port), timeout=5) for _ in range(3)]
    try:
        assert classic(served, "tools/list").status == 200  # 4 open: the cap
        extra = socket.create_connection((runner.host, runner.port), timeout=5)
        try:
            elapsed, got = read_answer(extra, limit=3.0)
        finally:
            extra.close()
        status, headers, body = parse_answer(got)
        assert status == 503, got[:300]
        assert headers.get("retry-after") == "1", headers
        assert json.loads(body)["error"]["message"] == (
            "Server busy: too many open connections (--max-connections 4); retry later"
        )
        assert elapsed < 1.0, f"the refusal took {elapsed:.2f} s"
        assert classic(served, "tools/list").status == 200, "an open connection stopped being served"
        for s in idle[:2]:
            s.close()
        deadline = time.monotonic() + 5
        while True:  # the places are given back once the server sees the closes
            try:
                if classic(runner, "tools/list", timeout=5).status == 200:
                    break
            except (ConnectionError, http.client.HTTPException):
                pass
            assert time.monotonic() < deadline, "a freed place was never taken again"
            time.sleep(0.05)
    finally:
        served.close()
        for s in idle:
            s.close()
    assert runner.alive(), runner.stderr()


# -- (d) a few hundred slow connections ---------------------------------------------------------

N_SLOW = 300


@pytest.mark.parametrize("runner", [["--request-timeout-ms", "4000"]], indirect=True, ids=["timeout-4s"])
def test_hundreds_of_trickling_heads_do_not_delay_a_normal_client(runner: HttpRunner) -> None:
    conn = http.client.HTTPConnection(runner.host, runner.port, timeout=5)
    times: list[float] = []
    for _ in range(200):
        t = time.monotonic()
        assert classic(conn, "tools/list").status == 200
        times.append(time.monotonic() - t)
    p99 = sorted(times)[int(len(times) * 0.99) - 1]
    bound = max(3 * p99, 0.25)

    sel = selectors.DefaultSelector()
    slow: dict[socket.socket, bytes] = {}
    for _ in range(N_SLOW):
        s = socket.create_connection((runner.host, runner.port), timeout=5)
        s.sendall(HEAD)
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        slow[s] = b""
    ended: dict[socket.socket, float] = {}
    worst = 0.0
    served = 0
    t0 = time.monotonic()
    next_drip = t0
    try:
        while len(ended) < N_SLOW and time.monotonic() - t0 < 10.0:
            now = time.monotonic()
            if now >= next_drip:  # one byte to every open slow connection each second
                for s in slow:
                    if s not in ended:
                        try:
                            s.send(b"x")
                        except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                            pass
                next_drip += 1.0
            for key, _ in sel.select(timeout=0):
                s = key.fileobj
                assert isinstance(s, socket.socket)
                try:
                    chunk = s.recv(65536)
                except (BlockingIOError, ConnectionResetError):
                    chunk = b""
                slow[s] += chunk
                if not chunk:
                    ended[s] = time.monotonic() - t0
                    sel.unregister(s)
            t = time.monotonic()
            assert classic(conn, "tools/list").status == 200
            took = time.monotonic() - t
            worst = max(worst, took)
            served += 1
            time.sleep(0.01)
    finally:
        conn.close()
        for s in slow:
            s.close()
        sel.close()
    print(f"p99 before {p99 * 1e3:.1f} ms; worst during {worst * 1e3:.1f} ms over {served} requests; "
          f"{len(ended)} of {N_SLOW} slow connections ended, the last after {max(ended.values(), default=0):.2f} s")
    assert served >= 50
    assert worst <= bound, f"a normal request took {worst * 1e3:.1f} ms (bound {bound * 1e3:.1f} ms)"
    assert len(ended) == N_SLOW, f"{N_SLOW - len(ended)} slow connections were still open after 10 s (deadline 4 s)"
    statuses = {parse_answer(raw)[0] if raw else None for raw in slow.values()}
    assert statuses == {408}, f"the slow connections ended with {statuses}"
    assert max(ended.values()) < 7.0
    assert runner.alive(), runner.stderr()


# -- (e) no memory.grow on the request path ---------------------------------------------------


@pytest.mark.parametrize("runner", [["--verbose"]], indirect=True, ids=["verbose"])
def test_no_request_grows_the_guest_memory(runner: HttpRunner) -> None:
    calls = 0
    assert classic(runner, "tools/list").status == 200
    assert modern(runner, "tools/list").status == 200
    assert request(runner, "GET").status == 405
    calls += 3
    for name in ("calm-weekday", "calm-weekday-broken", "week-with-choir", "first-5k"):
        plan, req = example(name)
        for tool in ("validate_plan", "repair_plan"):
            assert modern(runner, "tools/call", {"name": tool, "arguments": {"plan": plan, "request": req}}).status == 200
            calls += 1
    assert modern(runner, "tools/call", {"name": "get_plan_schema", "arguments": {"request": req}}).status == 200
    assert modern(runner, "tools/call", {"name": "save_plan", "arguments": {"plan": plan, "request": req}}).status == 200
    calls += 2
    # The calendar tools (issue 32): the tz data is in the data image, not on the heap.
    calm, calm_req = example("calm-weekday")
    export = {"plan": calm, "request": calm_req, "dtstamp": "20261207T120000Z"}
    assert modern(runner, "tools/call", {"name": "export_calendar", "arguments": export}).status == 200
    for name in ("google", "apple", "outlook"):
        ics = (CALENDAR_FIXTURES / f"{name}.ics").read_text(encoding="utf-8")
        week = {"calendar": ics, "startDate": "2026-10-05", "timezone": "Europe/Zurich"}
        assert modern(runner, "tools/call", {"name": "import_commitments", "arguments": week}).status == 200
    calls += 4
    deadline = time.monotonic() + 5
    while True:  # an instance's line comes when its task ends, just after the answer
        ended = [line for line in runner.stderr().splitlines() if "instance ended after" in line]
        if len(ended) >= calls or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    # One more instance: the check at start ("instantiated once") logs no line.
    assert len(ended) == calls, "\n".join(ended)
    grown = [line for line in ended if not line.endswith("after 0 memory.grow(s)")]
    assert grown == [], grown
