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
from mcp.shared.exceptions import MCPError

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
ICS = _path("MOMENTUM_PLAN_ICS", TARGET / "release" / "examples" / "ics")
CALENDAR_FIXTURES = ROOT / "calendar" / "tests" / "fixtures"

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


# ---- what the Python SDK tests check over both transports (test_python_sdk.py, test_http_python_sdk.py)

#: The server's tools, in tools/list order.
TOOLS = [t["name"] for t in json.loads((ROOT / "schemas" / "mcp-catalog.json").read_text(encoding="utf-8"))["tools"]]
assert TOOLS[-1] == "save_plan" and "export_calendar" in TOOLS, TOOLS


class Elicitor:
    """An elicitation callback that answers with a fixed action and records each question."""

    def __init__(self, action: str = "accept", overwrite: Any = True) -> None:
        self.action = action
        self.overwrite = overwrite
        self.asked: list[Any] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params)
        if self.action == "accept":
            return types.ElicitResult(action="accept", content={"overwrite": self.overwrite})
        return types.ElicitResult(action=self.action)  # type: ignore[arg-type]


def text_of(result: Any) -> str:
    assert len(result.content) == 1, result.content
    return block_text(result.content[0])


def tool_annotations(tool: Any) -> types.ToolAnnotations:
    assert tool.annotations is not None, tool.name
    return tool.annotations


def check_structured(result: Any) -> Any:
    """structuredContent plus the same JSON as the one text block (spec: Catalog)."""
    assert result.is_error is False, text_of(result)
    assert json.loads(text_of(result)) == result.structured_content
    return result.structured_content


async def read_only_tools(c: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The listed tools by name, after asserting each of ``names`` is read-only, not destructive,
    idempotent, closed-world and declares an outputSchema."""
    tools = {t.name: t for t in (await c.list_tools()).tools}
    for name in names:
        a = tool_annotations(tools[name])
        assert a.read_only_hint is True and a.destructive_hint is False and a.idempotent_hint is True
        assert a.open_world_hint is False and tools[name].output_schema is not None, name
    return tools


def core_calendar(inputs: list[dict[str, Any]]) -> list[Any]:
    """The calendar crate's answers for ``{"export": …}`` / ``{"import": …}`` objects (its ``ics``
    driver, ``calendar/examples/ics.rs``), parsed, in order."""
    return [json.loads(a) for a in _driver([str(ICS)], [json.dumps(i, ensure_ascii=False) for i in inputs])]


async def check_calendar(c: Any) -> None:
    """export_calendar and import_commitments (issue 32) through an SDK client: the crate's
    calendar bytes as the embedded ``text/calendar`` resource with ``{uri, events, warnings}`` as
    structuredContent (checked against the tool's outputSchema by the SDK), a fixture's week as the
    crate's commitments, and bad input (an invalid plan, a malformed file, arguments that do not
    fit) as a clear tool error."""
    stamp = "20261207T120000Z"
    calm_plan, calm_req = example("calm-weekday")
    broken_plan, broken_req = example("calm-weekday-broken")
    await read_only_tools(c, ("export_calendar", "import_commitments"))
    google = (CALENDAR_FIXTURES / "google.ics").read_text(encoding="utf-8")
    week = {"ics": google, "startDate": "2026-10-05", "timezone": "Europe/Zurich"}
    want_export, want_import = core_calendar(
        [{"export": {"plan": calm_plan, "request": calm_req, "dtstamp": stamp}}, {"import": week}]
    )
    r = await c.call_tool("export_calendar", {"plan": calm_plan, "request": calm_req, "dtstamp": stamp})
    assert r.is_error is False, r.content
    assert [b.type for b in r.content] == ["text", "resource"]
    uri = f"calendar://{calm_req['requestId']}.ics"
    assert r.structured_content == {"uri": uri, "events": want_export["events"], "warnings": want_export["warnings"]}
    assert json.loads(block_text(r.content[0])) == r.structured_content
    resource = r.content[1].resource
    assert (str(resource.uri), resource.mime_type, resource.text) == (uri, "text/calendar", want_export["text"])
    args = {"calendar": google, "startDate": "2026-10-05", "timezone": "Europe/Zurich"}
    assert check_structured(await c.call_tool("import_commitments", args)) == want_import
    # Bad input: a clear tool error, and the session goes on.
    r = await c.call_tool("export_calendar", {"plan": broken_plan, "request": broken_req})
    assert r.is_error is True and text_of(r).startswith("No calendar was made: the plan is not valid"), r.content
    malformed = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    r = await c.call_tool("import_commitments", dict(args, calendar=malformed))
    assert r.is_error is True and text_of(r).startswith("the calendar file is malformed at line 3: "), r.content
    r = await c.call_tool("import_commitments", {"calendar": 7})
    assert r.is_error is True and text_of(r).startswith("Invalid arguments for import_commitments: `calendar` must be a string")


async def check_repair_and_schema(c: Any) -> None:
    """repair_plan and get_plan_schema through an SDK client (validator.md §9): text blocks byte for
    byte the core driver's (``repair --lines``, ``repair --schema --lines``), structuredContent the
    same JSON (the SDK has checked it against the tool's outputSchema), tool errors for arguments
    that do not fit and for a schema of a request at fault."""
    calm_plan, calm_req = example("calm-weekday")
    broken_plan, broken_req = example("calm-weekday-broken")
    tools = await read_only_tools(c, ("repair_plan", "get_plan_schema"))
    assert tools["repair_plan"].input_schema["properties"]["unsafe"]["type"] == "boolean"
    assert tools["get_plan_schema"].input_schema["properties"]["variant"]["enum"] == ["validation", "strict"]

    # A plan with a time written 6:45: the safe fix makes it valid, in one call.
    fixable = json.loads(json.dumps(calm_plan))
    fixable["routine"]["blocks"][0]["start"] = fixable["routine"]["blocks"][0]["start"].lstrip("0")
    cases: list[tuple[dict[str, Any], bool]] = [
        ({"plan": fixable, "request": calm_req}, False),
        ({"plan": json.dumps(fixable, indent=2), "request": calm_req}, False),
        ({"plan": broken_plan, "request": broken_req}, False),
        ({"plan": broken_plan, "request": broken_req, "unsafe": True}, True),
        ({"plan": calm_plan, "request": calm_req, "unsafe": False}, False),
    ]
    for args, unsafe in cases:
        r = await c.call_tool("repair_plan", args)
        assert text_of(r) == core_repair_text(args["plan"], args["request"], unsafe), args
        check_structured(r)
    repaired = check_structured(await c.call_tool("repair_plan", {"plan": fixable, "request": calm_req}))
    assert repaired["verdict"]["valid"] is True and repaired["applied"], repaired
    assert json.loads(repaired["plan"]) == calm_plan
    untouched = check_structured(await c.call_tool("repair_plan", {"plan": calm_plan, "request": calm_req}))
    assert untouched["patch"] == [] and untouched["applied"] == []
    # A request no plan can satisfy: a normal result whose requestAtFault says why.
    at_fault = dict(calm_req, kind="weekly")
    assert check_structured(await c.call_tool("repair_plan", {"plan": calm_plan, "request": at_fault}))["requestAtFault"]

    # get_plan_schema: both variants, the default, and a request at fault (a tool error).
    for variant in (None, "validation", "strict"):
        args = {"request": calm_req} if variant is None else {"request": calm_req, "variant": variant}
        r = await c.call_tool("get_plan_schema", args)
        assert text_of(r) == core_schema_text(calm_req, variant or "validation"), variant
        assert check_structured(r)["type"] == "object"
    r = await c.call_tool("get_plan_schema", {"request": at_fault})
    assert r.is_error is True and r.structured_content is None
    assert text_of(r) == json.loads(core_schema_text(at_fault))["error"]

    # Arguments that do not fit: tool errors naming the argument.
    bad_calls: list[tuple[str, dict[str, Any], str]] = [
        ("repair_plan", {"request": calm_req}, "`plan` is missing"),
        ("repair_plan", {"plan": calm_plan, "request": calm_req, "unsafe": "yes"}, "`unsafe` must be a boolean"),
        ("repair_plan", {"plan": calm_plan, "request": [calm_req]}, "`request` must be a JSON object"),
        ("get_plan_schema", {"request": calm_req, "variant": "loose"}, 'unknown schema variant "loose"'),
        ("get_plan_schema", {"request": "{}"}, "`request` must be a JSON object"),
    ]
    for tool, bad, words in bad_calls:
        r = await c.call_tool(tool, bad)
        assert r.is_error is True, (tool, bad)
        assert words in text_of(r) and tool in text_of(r), (tool, bad, text_of(r))


async def check_prompt(c: Any, request: dict[str, Any]) -> None:
    """prompts/list holds only ``draft_plan``; prompts/get with ``request_json`` is one user message
    that quotes the request and names the contract, validate and save steps; without it, -32602."""
    prompts = (await c.list_prompts()).prompts
    assert [p.name for p in prompts] == ["draft_plan"]
    prompt = await c.get_prompt("draft_plan", {"request_json": json.dumps(request)})
    assert len(prompt.messages) >= 1
    assert prompt.messages[0].role == "user"
    body = block_text(prompt.messages[0].content)
    assert json.dumps(request) in body
    for word in ("contract", "validate", "save"):
        assert word in body.lower(), word
    try:
        await c.get_prompt("draft_plan", {})
    except MCPError as err:
        assert err.code == -32602, err
    else:
        raise AssertionError("prompts/get without request_json must fail with -32602")


async def check_every_example(c: Any) -> None:
    """Every bundled example through a session with an empty store: ``validate_plan`` gives the
    core's verdict; a valid one saves, an invalid one is refused (``Plan not saved.``); then
    ``resources/list`` lists exactly the saved plans, in byte order of their ids."""
    names = example_names()
    assert {"calm-weekday", "calm-weekday-broken"} <= set(names)
    saved_ids = []
    for name in names:
        plan, request = example(name)
        verdict = core_verdict(plan, request)
        assert check_structured(await c.call_tool("validate_plan", {"plan": plan, "request": request})) == verdict
        r = await c.call_tool("save_plan", {"plan": plan, "request": request})
        if verdict["valid"]:
            assert check_structured(r)["saved"] is True
            saved_ids.append(request["requestId"])
        else:
            assert r.is_error is True and text_of(r).startswith("Plan not saved.")
    listed = [str(x.uri) for x in (await c.list_resources()).resources]
    assert listed == [f"plan://{i}" for i in sorted(set(saved_ids), key=lambda s: s.encode())]


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
