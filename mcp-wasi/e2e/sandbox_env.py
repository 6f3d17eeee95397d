"""Shared helpers for the end-to-end tests, the demo and the bench of the sandboxed MCP server.

Paths (each overridable by an environment variable, which ``mcp-wasi/sandbox/test.sh`` sets):

* ``MOMENTUM_PLAN_SANDBOX``: the runner, default ``$TARGET/release/momentum-plan-sandbox``;
* ``MOMENTUM_PLAN_MCP_WASM``: the server, default
  ``$TARGET/wasm32-wasip2/release/momentum-plan-mcp.wasm``;
* ``MOMENTUM_PLAN_VALIDATE``: the core's line driver (``cargo build --release -p momentum-plan
  --example validate``), default ``$TARGET/release/examples/validate``;
* ``MOMENTUM_PLAN_REPAIR``: the core's repair and schema line driver (``cargo build --release -p
  momentum-plan --example repair``), default ``$TARGET/release/examples/repair``;
* ``MOMENTUM_PLAN_CORE_PROBE``: the core probe (``cargo build --release -p momentum-plan-sandbox
  --example core-probe``), default ``$TARGET/release/examples/core-probe``;

where ``$TARGET`` is ``$CARGO_TARGET_DIR`` or ``<repo>/target``. The shared material
(``<repo>/../shared``), the examples and the vector reader come from the Python test kit,
``tests/testkit.py``.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.client.stdio import StdioServerParameters

E2E = Path(__file__).resolve().parent
sys.path.insert(0, str(E2E.parent.parent / "tests"))

from testkit import EXAMPLES, ROOT, SHARED, VECTOR_FLOOR, VECTORS, example, example_names, raw_members, vector_files, vector_lines  # noqa: E402, F401

TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")


def _path(env: str, default: Path) -> Path:
    value = os.environ.get(env)
    return Path(value) if value else default


RUNNER = _path("MOMENTUM_PLAN_SANDBOX", TARGET / "release" / "momentum-plan-sandbox")
WASM = _path("MOMENTUM_PLAN_MCP_WASM", TARGET / "wasm32-wasip2" / "release" / "momentum-plan-mcp.wasm")
VALIDATE = _path("MOMENTUM_PLAN_VALIDATE", TARGET / "release" / "examples" / "validate")
REPAIR = _path("MOMENTUM_PLAN_REPAIR", TARGET / "release" / "examples" / "repair")
CORE_PROBE = _path("MOMENTUM_PLAN_CORE_PROBE", TARGET / "release" / "examples" / "core-probe")

#: Exit codes of the runner (mcp-wasi/sandbox/src/exit.rs).
EXIT = {"usage": 64, "no_wasm": 65, "bad_store": 66, "bad_wasm": 67, "trap": 68, "memory_cap": 69, "internal": 70}

#: Keys that the spec uses on the wire.
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
MODERN = "2026-07-28"


def runner_args(
    store: Path | None = None,
    cache_dir: Path | None = None,
    memory_mib: int | None = None,
    wasm: Path | None = WASM,
    extra: list[str] | None = None,
) -> list[str]:
    """The runner's arguments (without the program)."""
    args: list[str] = []
    if wasm is not None:
        args += ["--wasm", str(wasm)]
    if store is not None:
        args += ["--store", str(store)]
    if cache_dir is not None:
        args += ["--cache-dir", str(cache_dir)]
    else:
        args += ["--no-cache"]
    if memory_mib is not None:
        args += ["--memory-mib", str(memory_mib)]
    return args + (extra or [])


def server_params(store: Path | None = None, cache_dir: Path | None = None, **kw: Any) -> StdioServerParameters:
    """StdioServerParameters that launch the sandboxed server (as a host would)."""
    return StdioServerParameters(command=str(RUNNER), args=runner_args(store, cache_dir, **kw))


def block_text(block: Any) -> str:
    """The text of a content block that must be a text block."""
    assert isinstance(block, types.TextContent), block
    return block.text


def resource_text(contents: Any) -> str:
    """The text of resource contents that must be text."""
    assert isinstance(contents, types.TextResourceContents), contents
    return contents.text


def ordered(text: str) -> Any:
    """Parses JSON keeping member order observable: objects become lists of (key, value)."""
    return json.loads(text, object_pairs_hook=lambda pairs: [(k, v) for k, v in pairs])


class RawSession:
    """The runner as a subprocess spoken to in raw JSON-RPC lines (for what the SDKs never send).

    ``send`` writes one line; ``recv`` reads one stdout line (parsed) with a timeout, so a hang
    fails the test instead of blocking it.
    """

    def __init__(self, args: list[str], timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [str(RUNNER), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self._lines.put(line)
        self._lines.put(None)

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for line in iter(self.proc.stderr.readline, b""):
            self._stderr.append(line)

    def send_text(self, text: str | bytes) -> None:
        data = text.encode("utf-8") if isinstance(text, str) else text
        assert self.proc.stdin is not None
        self.proc.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def recv_text(self, timeout: float | None = None) -> str | None:
        """The next stdout line (without its newline), or None at EOF."""
        line = self._lines.get(timeout=timeout or self.timeout)
        return None if line is None else line.decode("utf-8").rstrip("\n")

    def recv(self, timeout: float | None = None) -> Any:
        text = self.recv_text(timeout)
        assert text is not None, f"server closed stdout; stderr: {self.stderr()}"
        return json.loads(text)

    def request(self, id_: int | str, method: str, params: dict[str, Any] | None = None) -> Any:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.recv()

    def initialize(self, version: str = "2025-11-25", capabilities: dict[str, Any] | None = None) -> Any:
        reply = self.request(
            0,
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "e2e-raw", "version": "0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def close(self, timeout: float | None = None) -> int:
        """Closes stdin (EOF) and returns the exit code."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        return self.proc.wait(timeout=timeout or self.timeout)

    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> RawSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def modern_meta(capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    """The 2026-07-28 per-request envelope."""
    return {
        PROTOCOL_VERSION_KEY: MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "e2e-raw", "version": "0"},
        CLIENT_CAPS_KEY: capabilities if capabilities is not None else {},
    }


def files_under(path: Path) -> set[Path]:
    """Every file below ``path`` (relative paths)."""
    return {p.relative_to(path) for p in path.rglob("*") if p.is_file()}


def args_text(plan: Any, request: Any) -> str:
    """``{"plan":…,"request":…}`` as compact JSON text (non-ASCII raw)."""
    return json.dumps({"plan": plan, "request": request}, ensure_ascii=False, separators=(",", ":"))


def _driver(command: list[str], lines: list[str]) -> list[str]:
    """A core line driver's answers for ``lines`` (one line each, in order)."""
    out = subprocess.run(
        command,
        input="".join(line + "\n" for line in lines).encode("utf-8"),
        capture_output=True,
        check=True,
        timeout=600,
    )
    # Split at "\n" only: an answer may hold U+2028 or other characters splitlines() breaks at.
    answers = out.stdout.decode("utf-8").split("\n")[:-1]
    assert len(answers) == len(lines), out.stderr.decode()
    return answers


def core_verdicts(lines: list[str]) -> list[str]:
    """The core's verdicts (compact JSON lines) for lines of the lines protocol, in order."""
    return _driver([str(VALIDATE), "--lines"], lines)


def core_verdict(plan: Any, request: Any) -> Any:
    """The core's verdict for one pair, parsed (plain dicts, order kept by Python)."""
    return json.loads(core_verdicts([args_text(plan, request)])[0])


def _repair_driver(args: list[str], lines: list[str]) -> list[str]:
    return _driver([str(REPAIR), *args], lines)


def core_repairs(lines: list[str], schema: bool = False) -> list[str]:
    """The core driver's answers (compact JSON lines) for lines of ``repair --lines`` (or, with
    ``schema``, ``repair --schema --lines``), in order."""
    return _repair_driver(["--schema", "--lines"] if schema else ["--lines"], lines)


def core_repair_text(plan: Any, request: Any, unsafe: bool = False) -> str:
    """The core's repair of one pair as compact JSON text (``repair --lines``): the exact bytes of
    ``repair_plan``'s text block."""
    line = {"plan": plan, "request": request, "unsafe": unsafe}
    return _repair_driver(["--lines"], [json.dumps(line, ensure_ascii=False, separators=(",", ":"))])[0]


def core_schema_text(request: Any, variant: str = "validation") -> str:
    """The core's plan schema as compact JSON text (``repair --schema --lines``), or
    ``{"error": <SchemaError's text>}`` for a request at fault or an unknown variant."""
    line = {"request": request, "variant": variant}
    return _repair_driver(["--schema", "--lines"], [json.dumps(line, ensure_ascii=False, separators=(",", ":"))])[0]


def core_contract_text() -> str:
    """The core's contract as compact JSON text (``core-probe contract``)."""
    out = subprocess.run([str(CORE_PROBE), "contract"], capture_output=True, check=True, timeout=60)
    return out.stdout.decode("utf-8").strip()
