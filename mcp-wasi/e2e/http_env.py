"""Helpers and fixtures for the end-to-end tests of the Streamable HTTP server.

The server under test is ``momentum-plan-mcp-http.wasm`` (a ``wasi:http/incoming-handler``
component) served by ``momentum-plan-sandbox --http ADDR`` (spec: ``mcp-server.md``, "Streamable
HTTP"). Paths, each overridable by an environment variable (as in ``sandbox_env.py``):

* ``MOMENTUM_PLAN_SANDBOX``: the runner;
* ``MOMENTUM_PLAN_MCP_HTTP_WASM``: the HTTP component, default
  ``$TARGET/wasm32-wasip2/release/momentum-plan-mcp-http.wasm`` (passed on to the runner in the
  same variable, which it reads).

``HttpRunner`` starts the runner on a loopback port (``127.0.0.1:0``), waits for its one
``listening on http://IP:PORT/mcp`` line on stderr (bounded), and kills it at the end. Every wait
here has a timeout, so a server that hangs fails a test instead of blocking it. The fixtures at the
bottom are imported by the ``test_http_*.py`` modules.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from sandbox_env import CLIENT_CAPS_KEY, MODERN, PROTOCOL_VERSION_KEY, RUNNER, TARGET, _path, example

HTTP_WASM = _path("MOMENTUM_PLAN_MCP_HTTP_WASM", TARGET / "wasm32-wasip2" / "release" / "momentum-plan-mcp-http.wasm")

LISTENING = re.compile(r"^momentum-plan-sandbox: listening on (http://(\S+):(\d+)/mcp)\s*$")

#: The Accept header every MCP client sends (spec: the client lists JSON and SSE).
ACCEPT = "application/json, text/event-stream"

#: Elicitation capability as the 2026-07-28 clients declare it (form mode).
ELICITATION: dict[str, Any] = {"elicitation": {"form": {}}}

#: An overwrite answer: yes.
ACCEPT_OVERWRITE = {"action": "accept", "content": {"overwrite": True}}


def require_http_build() -> None:
    missing = [str(p) for p in (RUNNER, HTTP_WASM) if not p.is_file()]
    if missing:
        pytest.fail(
            "missing build outputs: "
            + ", ".join(missing)
            + " (cargo build --release -p momentum-plan-sandbox; "
            + "cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp-http)",
            pytrace=False,
        )


class HttpRunner:
    """``momentum-plan-sandbox --http ADDR`` as a subprocess.

    ``start()`` returns once the listening line is on stderr (or fails with the runner's stderr
    when it exits first or says nothing within ``start_timeout``). ``stop()`` sends SIGTERM, then
    SIGKILL after a grace period; it is idempotent.
    """

    def __init__(
        self,
        store: Path | None = None,
        cache_dir: Path | None = None,
        addr: str = "127.0.0.1:0",
        extra: list[str] | None = None,
        start_timeout: float = 60.0,
    ) -> None:
        self.args = [str(RUNNER), "--http", addr]
        if store is not None:
            self.args += ["--store", str(store)]
        self.args += ["--cache-dir", str(cache_dir)] if cache_dir is not None else ["--no-cache"]
        self.args += extra or []
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.host = ""
        self.port = 0
        self._stderr: list[str] = []
        self._stdout: list[bytes] = []
        self._ready = threading.Event()

    # -- life cycle -----------------------------------------------------------------------------

    def start(self) -> HttpRunner:
        require_http_build()
        env = dict(os.environ, MOMENTUM_PLAN_MCP_HTTP_WASM=str(HTTP_WASM))
        env.pop("MOMENTUM_PLAN_BEARER_TOKEN", None)  # a token only where a test passes one
        self.proc = subprocess.Popen(
            self.args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        threading.Thread(target=self._pump_err, daemon=True).start()
        threading.Thread(target=self._pump_out, daemon=True).start()
        deadline = time.monotonic() + self.start_timeout
        while not self._ready.wait(0.05):
            if self.proc.poll() is not None:
                time.sleep(0.1)  # let the stderr pump catch the last line
                raise AssertionError(f"runner exited {self.proc.returncode} before listening: {self.args}\n{self.stderr()}")
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"runner did not report listening within {self.start_timeout} s\n{self.stderr()}")
        return self

    def _pump_err(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self._stderr.append(line)
            m = LISTENING.match(line)
            if m and not self._ready.is_set():
                self.url, self.host, self.port = m.group(1), m.group(2), int(m.group(3))
                self._ready.set()

    def _pump_out(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            self._stdout.append(raw)

    def stop(self, grace: float = 5.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=grace)
        return self.proc.returncode

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stderr(self) -> str:
        return "\n".join(self._stderr)

    def stdout(self) -> bytes:
        return b"".join(self._stdout)

    def __enter__(self) -> HttpRunner:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- requests -------------------------------------------------------------------------------

    def connection(self, timeout: float = 30.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def post(self, body: Any, headers: dict[str, str] | None = None, **kw: Any) -> Reply:
        return post(self, body, headers, **kw)

    def modern(self, method: str, params: dict[str, Any] | None = None, **kw: Any) -> Reply:
        return modern(self, method, params, **kw)

    def classic(self, method: str, params: dict[str, Any] | None = None, **kw: Any) -> Reply:
        return classic(self, method, params, **kw)


@dataclass
class Reply:
    """One HTTP answer: status, headers (names lower-cased; repeated ones joined by ", "), body."""

    status: int
    headers: dict[str, str]
    body: bytes
    header_list: list[tuple[str, str]] = field(default_factory=list)

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def result(self) -> Any:
        msg = self.json()
        assert "result" in msg, f"HTTP {self.status}: {msg}"
        return msg["result"]

    @property
    def error(self) -> Any:
        msg = self.json()
        assert "error" in msg, f"HTTP {self.status}: {msg}"
        return msg["error"]

    def __repr__(self) -> str:
        return f"Reply({self.status}, {self.headers}, {self.body[:300]!r})"


def read_reply(resp: http.client.HTTPResponse) -> Reply:
    body = resp.read()
    headers: dict[str, str] = {}
    pairs = [(k.lower(), v) for k, v in resp.getheaders()]
    for k, v in pairs:
        headers[k] = f"{headers[k]}, {v}" if k in headers else v
    return Reply(resp.status, headers, body, pairs)


def request(
    target: HttpRunner | http.client.HTTPConnection,
    method: str,
    path: str = "/mcp",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> Reply:
    """One HTTP request (a new connection for a runner, or the given keep-alive connection)."""
    conn = target.connection(timeout) if isinstance(target, HttpRunner) else target
    try:
        conn.request(method, path, body=body, headers=headers or {})
        return read_reply(conn.getresponse())
    finally:
        if isinstance(target, HttpRunner):
            conn.close()


def post(
    target: HttpRunner | http.client.HTTPConnection,
    body: Any,
    headers: dict[str, str] | None = None,
    path: str = "/mcp",
    timeout: float = 30.0,
    defaults: bool = True,
) -> Reply:
    """POST ``body`` (bytes as given, anything else as compact JSON) with the usual MCP headers."""
    data = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    h = {"Content-Type": "application/json", "Accept": ACCEPT} if defaults else {}
    h.update(headers or {})
    return request(target, "POST", path, data, h, timeout)


_ids = iter(range(1, 1 << 62))


def message(method: str, params: dict[str, Any] | None = None, id_: Any = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": next(_ids) if id_ is None else id_, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def envelope(capabilities: Any = None, version: Any = MODERN) -> dict[str, Any]:
    """The 2026-07-28 per-request ``_meta``."""
    return {
        PROTOCOL_VERSION_KEY: version,
        "io.modelcontextprotocol/clientInfo": {"name": "e2e-http", "version": "0"},
        CLIENT_CAPS_KEY: capabilities if capabilities is not None else {},
    }


#: Methods whose 2026-07-28 request carries ``Mcp-Name`` (and the body member it names).
NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def modern_message(
    method: str, params: dict[str, Any] | None = None, capabilities: dict[str, Any] | None = None, id_: Any = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """A 2026-07-28 request and its HTTP headers (version, Mcp-Method, Mcp-Name)."""
    p = dict(params or {})
    p["_meta"] = {**envelope(capabilities), **p.get("_meta", {})}
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if method in NAMED:
        headers["Mcp-Name"] = str(p[NAMED[method]])
    return message(method, p, id_), headers


def modern(
    target: HttpRunner | http.client.HTTPConnection,
    method: str,
    params: dict[str, Any] | None = None,
    capabilities: dict[str, Any] | None = None,
    id_: Any = None,
    headers: dict[str, str] | None = None,
    **kw: Any,
) -> Reply:
    """POST one 2026-07-28 request with matching headers."""
    msg, h = modern_message(method, params, capabilities, id_)
    h.update(headers or {})
    return post(target, msg, h, **kw)


def classic(
    target: HttpRunner | http.client.HTTPConnection,
    method: str,
    params: dict[str, Any] | None = None,
    version: str | None = "2025-11-25",
    id_: Any = None,
    headers: dict[str, str] | None = None,
    **kw: Any,
) -> Reply:
    """POST one classic request (``MCP-Protocol-Version: version`` unless None)."""
    h = {"MCP-Protocol-Version": version} if version else {}
    h.update(headers or {})
    return post(target, message(method, params, id_), h, **kw)


def tool_result(reply: Reply) -> Any:
    """``structuredContent`` of a successful tool result, checked against its one text block."""
    assert reply.status == 200, reply
    r = reply.result
    assert r.get("isError") is False, r
    assert len(r["content"]) == 1 and r["content"][0]["type"] == "text", r
    assert json.loads(r["content"][0]["text"]) == r["structuredContent"]
    return r["structuredContent"]


def save_args(plan: Any, request_: Any, answer: Any = None) -> dict[str, Any]:
    p: dict[str, Any] = {"name": "save_plan", "arguments": {"plan": plan, "request": request_}}
    if answer is not None:
        p["inputResponses"] = {"overwrite": answer}
    return p


def temp_files(store: Path) -> list[str]:
    """Temporary files a save may leave (``.<id>.json.<n>.tmp``, or anything hidden or ``.tmp``)."""
    return sorted(p.name for p in store.iterdir() if p.name.startswith(".") or p.name.endswith(".tmp"))


# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture
def http_server(store: Path, cache_dir: Path) -> Iterator[HttpRunner]:
    """The runner on ``127.0.0.1:0`` with an empty store (``store`` fixture)."""
    with HttpRunner(store=store, cache_dir=cache_dir) as r:
        yield r
        assert r.alive(), f"the runner died during the test:\n{r.stderr()}"
        assert r.stdout() == b"", "the runner writes nothing to stdout"


@pytest.fixture
def http_url(http_server: HttpRunner) -> str:
    """The ``http://127.0.0.1:PORT/mcp`` of ``http_server``."""
    return http_server.url


@pytest.fixture
def http_server_with_plan(http_server: HttpRunner) -> HttpRunner:
    """``http_server`` whose store holds one plan (calm-weekday), saved through the server."""
    plan, req = example("calm-weekday")
    saved = tool_result(http_server.classic("tools/call", {"name": "save_plan", "arguments": {"plan": plan, "request": req}}))
    assert saved["saved"] is True, saved
    return http_server
