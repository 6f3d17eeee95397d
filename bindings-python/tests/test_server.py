"""The example MCP server (examples/momentum_planner.py) end to end, through the official SDK's
``Client``: in process and over stdio as a subprocess, in the SDK's default mode (``auto``, which
gives 2026-07-28) and its legacy mode (the 2025-11-25 handshake); plus one call over Streamable HTTP.

One scenario covers the catalog: every tool, the refusal, the save, the overwrite question answered
accept (yes and no), decline and cancel, a client that cannot be asked, the resource and the prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Dict, List, Optional

import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

import momentum_plan
from conftest import EXAMPLES, HERE

SERVER = HERE.parent / "examples" / "momentum_planner.py"
sys.path.insert(0, str(SERVER.parent))
import momentum_planner  # noqa: E402

PLAN: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday.plan.json").read_text(encoding="utf-8"))
REQUEST: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday.request.json").read_text(encoding="utf-8"))
BROKEN: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday-broken.plan.json").read_text(encoding="utf-8"))
PLAN_ID = PLAN["requestId"]
CATALOG: Dict[str, Any] = json.loads((HERE.parent.parent / "schemas" / "mcp-catalog.json").read_text(encoding="utf-8"))
"""The one catalog, from the repository (not the package copy)."""

MODES = ["auto", "legacy"]
EXPECTED_VERSION = {"auto": "2026-07-28", "legacy": "2025-11-25"}


class Person:
    """Answers the overwrite question from a queue, and remembers what was asked."""

    def __init__(self) -> None:
        self.answers: List[str] = []
        self.asked: List[types.ElicitRequestParams] = []

    async def __call__(self, ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params)
        answer = self.answers.pop(0)
        if answer in ("decline", "cancel"):
            return types.ElicitResult(action=answer)
        return types.ElicitResult(action="accept", content={"overwrite": answer == "yes"})


Connect = Callable[[Optional[Person]], "contextlib.AbstractAsyncContextManager[Client]"]


def in_process(mode: str, store: Path) -> Connect:
    @contextlib.asynccontextmanager
    async def connect(person: Optional[Person]) -> AsyncIterator[Client]:
        server = momentum_planner.build_server(store)
        async with Client(server, mode=mode, elicitation_callback=person) as client:
            yield client

    return connect


def over_stdio(mode: str, store: Path) -> Connect:
    @contextlib.asynccontextmanager
    async def connect(person: Optional[Person]) -> AsyncIterator[Client]:
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env={"PLAN_STORE": str(store)})
        async with Client(params, mode=mode, elicitation_callback=person) as client:
            yield client

    return connect


def structured(result: types.CallToolResult) -> Dict[str, Any]:
    assert result.is_error is False, result.content
    assert result.structured_content is not None
    # The same JSON comes as a text block.
    assert [c.type for c in result.content] == ["text"]
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert json.loads(text.text) == result.structured_content
    return result.structured_content


def error_text(result: types.CallToolResult) -> str:
    assert result.is_error is True
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
    return result.content[0].text


def saved_text(store: Path) -> str:
    return (store / f"{PLAN_ID}.json").read_text(encoding="utf-8")


async def scenario(connect: Connect, mode: str, store: Path) -> None:
    person = Person()
    async with connect(person) as client:
        assert client.protocol_version == EXPECTED_VERSION[mode]

        # The catalog.
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert list(tools) == [t["name"] for t in CATALOG["tools"]]
        for t in tools.values():
            assert t.title and t.description and t.output_schema and t.annotations
            assert t.annotations.open_world_hint is False and t.annotations.idempotent_hint is True
        assert tools["validate_plan"].annotations.read_only_hint is True
        assert tools["save_plan"].annotations.read_only_hint is False
        assert tools["save_plan"].annotations.destructive_hint is False
        for name in ("validate_plan", "save_plan"):
            assert sorted(tools[name].input_schema["required"]) == ["plan", "request"]
            assert sorted(tools[name].input_schema["properties"]) == ["plan", "request"]

        # get_plan_contract: the binding's contract, keys in order.
        contract = structured(await client.call_tool("get_plan_contract", {}))
        assert contract == momentum_plan.get_plan_contract()
        assert list(contract) == list(momentum_plan.get_plan_contract())

        # validate_plan: the binding's verdict, for an object and for text; invalid is not an error.
        for plan in (PLAN, json.dumps(PLAN), BROKEN):
            verdict = structured(await client.call_tool("validate_plan", {"plan": plan, "request": REQUEST}))
            assert verdict == momentum_plan.validate_plan(plan, REQUEST)
            assert list(verdict) == ["valid", "errors", "warnings", "checks"]
        assert verdict["valid"] is False and verdict["errors"]
        # Arguments that do not fit: a tool error naming the argument.
        assert "plan" in error_text(await client.call_tool("validate_plan", {"request": REQUEST}))
        assert "request" in error_text(await client.call_tool("validate_plan", {"plan": PLAN, "request": 5}))
        # repair_plan: the binding's repair (safe, then unsafe fixes); get_plan_schema: its schema.
        for plan, unsafe in ((BROKEN, False), (BROKEN, True), (PLAN, False)):
            repaired = structured(
                await client.call_tool("repair_plan", {"plan": plan, "request": REQUEST, "unsafe": unsafe})
            )
            assert repaired == momentum_plan.repair_plan(plan, REQUEST, unsafe=unsafe)
            assert list(repaired) == list(momentum_plan.repair_plan(plan, REQUEST))
        assert structured(await client.call_tool("repair_plan", {"plan": PLAN, "request": REQUEST}))["patch"] == []
        for variant in ("validation", "strict"):
            schema = structured(await client.call_tool("get_plan_schema", {"request": REQUEST, "variant": variant}))
            assert schema == momentum_plan.plan_schema(REQUEST, variant)
        assert structured(await client.call_tool("get_plan_schema", {"request": REQUEST})) == momentum_plan.plan_schema(
            REQUEST
        )
        assert "variant" in error_text(await client.call_tool("get_plan_schema", {"request": REQUEST, "variant": "x"}))
        at_fault = error_text(await client.call_tool("get_plan_schema", {"request": {"requestId": "r", "kind": "week"}}))
        assert "no plan can satisfy this request" in at_fault
        # An unknown tool is a tool error here (the SDK's choice).
        assert "Unknown tool" in error_text(await client.call_tool("no_such_tool", {}))

        # save_plan refuses an invalid plan, listing every error; nothing is written.
        text = error_text(await client.call_tool("save_plan", {"plan": BROKEN, "request": REQUEST}))
        expected = "Plan not saved." + "".join(
            f" | {e['path']}: {e['message']}" for e in momentum_plan.validate_plan(BROKEN, REQUEST)["errors"]
        )
        assert text.endswith(expected)
        # ... and an id that cannot be a file name, even in a valid plan.
        unsafe = copy.deepcopy(PLAN)
        unsafe["requestId"] = unsafe["request"]["requestId"] = "../escape"
        assert "cannot be used as a plan id" in error_text(
            await client.call_tool("save_plan", {"plan": unsafe, "request": unsafe["request"]})
        )
        assert not list(store.iterdir()) if store.exists() else True
        assert (await client.list_resources()).resources == []

        # The first save: no question; pretty JSON in the plan's own key order.
        result = structured(await client.call_tool("save_plan", {"plan": json.dumps(PLAN), "request": REQUEST}))
        assert result == {
            "saved": True,
            "planId": PLAN_ID,
            "uri": f"plan://{PLAN_ID}",
            "warnings": momentum_plan.validate_plan(PLAN, REQUEST)["warnings"],
        }
        assert person.asked == []
        assert saved_text(store) == json.dumps(PLAN, indent=2, ensure_ascii=False) + "\n"
        assert list(json.loads(saved_text(store))) == list(PLAN)

        # The resource.
        resources = (await client.list_resources()).resources
        assert [(str(r.uri), r.mime_type) for r in resources] == [(f"plan://{PLAN_ID}", "application/json")]
        templates = (await client.list_resource_templates()).resource_templates
        assert [(t.uri_template, t.mime_type) for t in templates] == [("plan://{planId}", "application/json")]
        read = await client.read_resource(f"plan://{PLAN_ID}")
        assert isinstance(read.contents[0], types.TextResourceContents)
        assert json.loads(read.contents[0].text) == PLAN
        for missing in ("plan://no-such-plan", "plan://..%2Fescape"):
            with pytest.raises(MCPError) as info:
                await client.read_resource(missing)
            assert info.value.code == types.INVALID_PARAMS

        # Saving again asks first. Yes replaces the plan.
        renamed = copy.deepcopy(PLAN)
        renamed["name"] = "Calm weekday, again"
        person.answers = ["yes"]
        result = structured(await client.call_tool("save_plan", {"plan": renamed, "request": REQUEST}))
        assert result["saved"] is True
        assert json.loads(saved_text(store))["name"] == "Calm weekday, again"
        assert len(person.asked) == 1
        question = person.asked[0]
        assert isinstance(question, types.ElicitRequestFormParams)
        assert PLAN_ID in question.message
        assert question.requested_schema["required"] == ["overwrite"]
        assert question.requested_schema["properties"]["overwrite"]["type"] == "boolean"

        # No, decline and cancel leave it, with a notSaved warning last.
        for answer in ("no", "decline", "cancel"):
            person.answers = [answer]
            result = structured(await client.call_tool("save_plan", {"plan": PLAN, "request": REQUEST}))
            assert result["saved"] is False
            assert [(w["code"], w["path"]) for w in result["warnings"]][-1] == ("notSaved", "$")
            assert result["warnings"][:-1] == momentum_plan.validate_plan(PLAN, REQUEST)["warnings"]
            assert json.loads(saved_text(store))["name"] == "Calm weekday, again"
        assert len(person.asked) == 4 and person.answers == []

        # The prompt.
        prompts = (await client.list_prompts()).prompts
        assert [p.name for p in prompts] == ["draft_plan"]
        assert [(a.name, a.required) for a in prompts[0].arguments or []] == [("request_json", True)]
        got = await client.get_prompt("draft_plan", {"request_json": json.dumps(REQUEST)})
        assert len(got.messages) == 1 and got.messages[0].role == "user"
        content = got.messages[0].content
        assert isinstance(content, types.TextContent)
        assert json.dumps(REQUEST) in content.text
        for word in ("get_plan_contract", "validate_plan", "repair_plan", "save_plan"):
            assert word in content.text
        with pytest.raises(MCPError) as info:
            await client.get_prompt("draft_plan", {})
        assert info.value.code == types.INVALID_PARAMS

    # A client that cannot be asked: the plan is left as it is.
    async with connect(None) as client:
        result = structured(await client.call_tool("save_plan", {"plan": PLAN, "request": REQUEST}))
        assert result["saved"] is False
        assert "cannot ask" in result["warnings"][-1]["message"]
        assert json.loads(saved_text(store))["name"] == "Calm weekday, again"


@pytest.mark.parametrize("mode", MODES)
def test_in_process(mode: str, tmp_path: Path) -> None:
    store = tmp_path / "plans"
    asyncio.run(scenario(in_process(mode, store), mode, store))


@pytest.mark.parametrize("mode", MODES)
def test_over_stdio(mode: str, tmp_path: Path) -> None:
    store = tmp_path / "plans"
    asyncio.run(scenario(over_stdio(mode, store), mode, store))


@pytest.mark.parametrize("mode", MODES)
def test_an_error_answer_leaves_the_plan(mode: str, tmp_path: Path) -> None:
    """An error answer to the overwrite question fails the call with that error (the SDK's way:
    in 2025-11-25 the server gets the error response; in 2026-07-28 the client stops before
    retrying); the saved plan stays as it was."""

    async def refuse(ctx: Any, params: types.ElicitRequestParams) -> types.ErrorData:
        return types.ErrorData(code=-32000, message="the person closed the window")

    async def run() -> None:
        async with Client(momentum_planner.build_server(tmp_path), mode=mode, elicitation_callback=refuse) as client:
            structured(await client.call_tool("save_plan", {"plan": PLAN, "request": REQUEST}))
            renamed = dict(PLAN, name="Renamed")
            with pytest.raises(MCPError, match="closed the window"):
                await client.call_tool("save_plan", {"plan": renamed, "request": REQUEST})

    asyncio.run(run())
    assert json.loads(saved_text(tmp_path))["name"] == PLAN["name"]


def test_the_store_keeps_files_whole(tmp_path: Path) -> None:
    store = momentum_planner.PlanStore(tmp_path)
    assert store.path("../x") is None and store.path(".hidden") is None and store.path("a" * 129) is None
    assert store.write("a", {"x": 1}, replace=False) is True
    assert store.write("a", {"x": 2}, replace=False) is False
    assert json.loads((tmp_path / "a.json").read_text()) == {"x": 1}
    assert store.write("a", {"x": 3}, replace=True) is True
    (tmp_path / "notes.txt").write_text("not a plan")
    (tmp_path / "b c.json").write_text("{}")
    (tmp_path / "Z.json").write_text("{}")
    assert store.ids() == ["Z", "a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Z.json", "a.json", "b c.json", "notes.txt"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_over_streamable_http(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, MCP_TRANSPORT="streamable-http", MCP_PORT=str(port), PLAN_STORE=str(tmp_path))
    proc = subprocess.Popen([sys.executable, str(SERVER)], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert proc.poll() is None and time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.1)

        async def call() -> Dict[str, Any]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return structured(await client.call_tool("validate_plan", {"plan": PLAN, "request": REQUEST}))

        assert asyncio.run(call()) == momentum_plan.validate_plan(PLAN, REQUEST)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def over_the_limit_pretty(plan: Dict[str, Any]) -> str:
    """The plan with notes padding it to just under the size limit compact (§5.2), then indented:
    text over the limit whose compact re-serialisation is within it."""
    limit = momentum_plan.get_plan_contract()["limits"]["payloadBytes"]
    padded = copy.deepcopy(plan)
    padded["notes"] = ""
    padded["notes"] = "x" * (limit - 100 - len(json.dumps(padded, separators=(",", ":")).encode()))
    text = json.dumps(padded, indent=8)
    assert len(json.dumps(padded, separators=(",", ":")).encode()) < limit < len(text.encode())
    return text


async def text_scenario(client: Client) -> None:
    pretty = over_the_limit_pretty(PLAN)
    for plan in (pretty, "[1, 2]", "null", "42", json.dumps(PLAN, indent=2), json.dumps(BROKEN)):
        verdict = structured(await client.call_tool("validate_plan", {"plan": plan, "request": REQUEST}))
        assert verdict == momentum_plan.validate_plan(plan, REQUEST), plan[:40]
        repair = structured(await client.call_tool("repair_plan", {"plan": plan, "request": REQUEST}))
        assert repair == momentum_plan.repair_plan(plan, REQUEST), plan[:40]
    assert [e["code"] for e in momentum_plan.validate_plan(pretty, REQUEST)["errors"]] == ["size"]
    assert momentum_plan.validate_plan("[1, 2]", REQUEST)["errors"][0]["code"] == "type"
    refused = error_text(await client.call_tool("save_plan", {"plan": pretty, "request": REQUEST}))
    assert refused.startswith("Error executing tool save_plan: Plan not saved. | $: ") and "bytes" in refused
    # Values that do not fit the input schema (mcp-server.md "Tools"): a tool error naming the argument.
    for plan in ([1, 2], None, 42, True):
        assert "plan" in error_text(await client.call_tool("validate_plan", {"plan": plan, "request": REQUEST}))
    for request in (json.dumps(REQUEST), [REQUEST], None):
        assert "request" in error_text(await client.call_tool("validate_plan", {"plan": PLAN, "request": request}))
        assert "request" in error_text(await client.call_tool("get_plan_schema", {"request": request}))


def test_plan_text_reaches_the_core_as_sent(tmp_path: Path) -> None:
    """Plan text is judged as the text sent (the SDK's pre-parsing of JSON-looking strings is off):
    pretty text over the size limit gets the `size` error, `"[1, 2]"` the `type` verdict, exactly
    as the library gives them; in process and over stdio."""

    async def run() -> None:
        async with in_process("auto", tmp_path / "a")(None) as client:
            await text_scenario(client)
        async with over_stdio("legacy", tmp_path / "b")(None) as client:
            await text_scenario(client)

    asyncio.run(run())


def test_unsafe_must_be_a_boolean(tmp_path: Path) -> None:
    """`unsafe` is a JSON boolean (the input schema's type): "yes", 1, "true" and "no" are tool
    errors, as on the WASI and Node servers, never coerced into applying the fixes that change
    meaning; true applies them, exactly as the library's repair does."""
    request = json.loads((EXAMPLES / "calm-weekday-broken.request.json").read_text(encoding="utf-8"))

    async def run() -> None:
        async with in_process("auto", tmp_path)(None) as client:
            unsafe_type = CATALOG["argumentErrors"]["unsafe"]["type"]
            for bad, kind in [("yes", "a string"), (1, "a number"), ("true", "a string"), (None, "null"), (0, "a number")]:
                r = await client.call_tool("repair_plan", {"plan": BROKEN, "request": request, "unsafe": bad})
                want = f"Invalid arguments for repair_plan: {unsafe_type.replace('{kind}', kind)}."
                assert error_text(r) == want, (bad, r)
            r = await client.call_tool("repair_plan", {"plan": BROKEN, "request": request, "unsafe": True})
            assert structured(r) == momentum_plan.repair_plan(BROKEN, request, unsafe=True)
            assert structured(r)["verdict"]["valid"] is True

    asyncio.run(run())


def test_tools_are_the_catalog(tmp_path: Path) -> None:
    """tools/list is the one catalog (schemas/mcp-catalog.json, generated by codegen, read here
    from the repository, not the package copy): every tool's title, description, annotations,
    inputSchema and outputSchema as the WASI server lists them."""
    catalog = json.loads((HERE.parent.parent / "schemas" / "mcp-catalog.json").read_text(encoding="utf-8"))

    async def listed() -> Dict[str, types.Tool]:
        async with in_process("auto", tmp_path)(None) as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    tools = asyncio.run(listed())
    assert list(tools) == [t["name"] for t in catalog["tools"]]
    for entry in catalog["tools"]:
        got = tools[entry["name"]]
        assert (got.title, got.description) == (entry["title"], entry["description"]), entry["name"]
        assert got.input_schema == entry["inputSchema"], entry["name"]
        assert got.output_schema == entry["outputSchema"], entry["name"]
        assert got.annotations is not None
        assert got.annotations.model_dump(by_alias=True, exclude_none=True) == entry["annotations"], entry["name"]


def test_arguments_that_do_not_fit_are_the_catalogs_tool_error(tmp_path: Path) -> None:
    """A value that fits no input schema is the catalog's tool error (``argumentErrors``: the
    sandboxed server's text), one text block with ``isError``, never the SDK's pydantic dump or a
    protocol error (mcp-server.md "Catalog")."""
    e = CATALOG["argumentErrors"]
    plan, request = PLAN, REQUEST
    cases = [
        ("validate_plan", {"plan": [1, 2], "request": request}, [e["plan"]["type"].replace("{kind}", "an array")]),
        ("validate_plan", {"plan": None, "request": request}, [e["plan"]["type"].replace("{kind}", "null")]),
        (
            "save_plan",
            {"plan": plan, "request": [request], "why": 1},
            [
                e["request"]["type"].replace("{kind}", "an array"),
                "unexpected argument `why`: " + e["accepted"]["save_plan"],
            ],
        ),
        ("repair_plan", {"request": request}, [e["plan"]["missing"]]),
        ("get_plan_schema", {"request": "{}", "variant": 7}, [
            e["schemaRequest"]["type"].replace("{kind}", "a string"),
            e["variant"]["type"].replace("{kind}", "a number"),
        ]),
    ]

    async def run() -> None:
        async with over_stdio("legacy", tmp_path)(None) as client:
            for tool, arguments, problems in cases:
                r = await client.call_tool(tool, arguments)
                assert error_text(r) == f"Invalid arguments for {tool}: {'; '.join(problems)}.", (tool, arguments)
                assert r.structured_content is None
            r = await client.call_tool("get_plan_contract", {"x": 1})
            assert error_text(r) == "Invalid arguments for get_plan_contract: it takes no arguments (unexpected argument `x`); call it with {}."

    asyncio.run(run())


# -- the calendar tools (issue 32) -------------------------------------------------------------

STAMP = "20261207T120000Z"
FIXTURES = HERE.parent.parent / "calendar" / "tests" / "fixtures"


def calendar_of(result: types.CallToolResult) -> Dict[str, Any]:
    """An export's parts: ``structured`` (``{uri, events, warnings}``, also the text block's JSON)
    and the embedded resource's ``uri``, ``mimeType`` and ``text``."""
    assert result.is_error is False, result.content
    assert [c.type for c in result.content] == ["text", "resource"]
    text, embedded = result.content
    assert isinstance(text, types.TextContent) and isinstance(embedded, types.EmbeddedResource)
    assert json.loads(text.text) == result.structured_content
    resource = embedded.resource
    assert isinstance(resource, types.TextResourceContents)
    return {"structured": result.structured_content, "uri": str(resource.uri), "mimeType": resource.mime_type, "text": resource.text}


async def calendar_scenario(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("export_calendar", "import_commitments"):
        assert tools[name].annotations is not None and tools[name].annotations.read_only_hint is True
        assert tools[name].output_schema == CATALOG_TOOLS[name]["outputSchema"]
    uri = f"calendar://{PLAN_ID}.ics"
    # A valid plan, as an object and as text: the binding's bytes as a text/calendar resource.
    want = momentum_plan.plan_to_icalendar(PLAN, REQUEST, STAMP)
    assert "text" in want
    for plan in (PLAN, json.dumps(PLAN, indent=2)):
        got = calendar_of(await client.call_tool("export_calendar", {"plan": plan, "request": REQUEST, "dtstamp": STAMP}))
        assert got == {
            "structured": {"uri": uri, "events": want["events"], "warnings": want["warnings"]},
            "uri": uri,
            "mimeType": "text/calendar",
            "text": want["text"],
        }
    assert want["events"] == want["text"].count("BEGIN:VEVENT") > 0
    # No dtstamp: this server's clock, the same bytes otherwise.
    before = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    got = calendar_of(await client.call_tool("export_calendar", {"plan": PLAN, "request": REQUEST}))
    after = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    at = got["text"].index("DTSTAMP:") + len("DTSTAMP:")
    stamp = got["text"][at : at + 16]
    assert before <= stamp <= after
    assert got["text"] == momentum_plan.plan_to_icalendar(PLAN, REQUEST, stamp)["text"]
    # An invalid plan: validate_plan's verdict in a tool error, no calendar.
    refused = error_text(await client.call_tool("export_calendar", {"plan": BROKEN, "request": REQUEST}))
    verdict = momentum_plan.validate_plan(BROKEN, REQUEST)
    compact_verdict = json.dumps(verdict, ensure_ascii=False, separators=(",", ":"))
    assert refused == CATALOG["calendar"]["planInvalid"].replace("{verdict}", compact_verdict)
    # The crate's refusals, in its words.
    no_start = {k: v for k, v in REQUEST.items() if k != "startDate"}
    plan_no_start = dict(PLAN, request=no_start)
    assert error_text(
        await client.call_tool("export_calendar", {"plan": plan_no_start, "request": no_start, "dtstamp": STAMP})
    ).startswith("the request has no startDate")
    assert error_text(
        await client.call_tool("export_calendar", {"plan": PLAN, "request": REQUEST, "dtstamp": "today"})
    ) == 'dtstamp "today" is not a UTC date-time YYYYMMDDTHHMMSSZ (e.g. "20261207T120000Z")'
    # Import: every fixture, as the binding reads it.
    for name in ("google", "apple", "outlook"):
        ics = (FIXTURES / f"{name}.ics").read_text(encoding="utf-8")
        week = structured(
            await client.call_tool("import_commitments", {"calendar": ics, "startDate": "2026-10-05", "timezone": "Europe/Zurich"})
        )
        assert week == momentum_plan.commitments_from_icalendar(ics, "2026-10-05", "Europe/Zurich")
        expected = json.loads((FIXTURES / f"{name}.expected.json").read_text(encoding="utf-8"))
        assert week["commitments"] == expected["commitments"]
        assert list(week["commitments"][0]) == ["label", "days", "start", "end"]
    malformed = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    text = error_text(
        await client.call_tool("import_commitments", {"calendar": malformed, "startDate": "2026-10-05", "timezone": "UTC"})
    )
    assert text.startswith("the calendar file is malformed at line 3:"), text
    assert "Mars/Base" in error_text(
        await client.call_tool("import_commitments", {"calendar": "", "startDate": "2026-10-05", "timezone": "Mars/Base"})
    )
    # Arguments that do not fit: the catalog's texts.
    e = CATALOG["argumentErrors"]
    got_text = error_text(await client.call_tool("import_commitments", {"calendar": 5, "timezone": None, "x": 1}))
    assert got_text == "Invalid arguments for import_commitments: " + "; ".join([
        e["calendar"]["type"].replace("{kind}", "a number"),
        e["startDate"]["missing"],
        e["timezone"]["type"].replace("{kind}", "null"),
        "unexpected argument `x`: " + e["accepted"]["import_commitments"],
    ]) + "."
    got_text = error_text(await client.call_tool("export_calendar", {"plan": PLAN, "request": REQUEST, "dtstamp": 5}))
    assert got_text == "Invalid arguments for export_calendar: " + e["dtstamp"]["type"].replace("{kind}", "a number") + "."


CATALOG_TOOLS = {t["name"]: t for t in CATALOG["tools"]}


@pytest.mark.parametrize("mode", MODES)
def test_calendar_tools(mode: str, tmp_path: Path) -> None:
    """export_calendar and import_commitments (issue 32) in process (both eras) and over stdio:
    the binding's calendar bytes as an embedded text/calendar resource, the server's clock when
    no dtstamp is given, an invalid plan's verdict as a tool error, the fixtures' commitments, and
    bad input as a clear tool error."""

    async def run() -> None:
        async with in_process(mode, tmp_path / "a")(None) as client:
            await calendar_scenario(client)
        async with over_stdio(mode, tmp_path / "b")(None) as client:
            await calendar_scenario(client)

    asyncio.run(run())
