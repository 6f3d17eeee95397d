"""(1) The official Python SDK client (mcp 2.3) against the sandboxed server, in both eras.

Modes: ``auto`` (probes ``server/discover``, lands on 2026-07-28), ``2026-07-28`` (no probe: the
first line is a modern request) and ``legacy`` (the 2025-11-25 ``initialize`` handshake).
Expected values come from the core (``validate --lines``, ``core-probe contract``) and from the
bundled examples, never from copies in this file.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from sandbox_env import (
    TOOLS,
    Elicitor,
    check_every_example,
    check_prompt,
    check_repair_and_schema,
    check_calendar,
    check_structured,
    core_contract_text,
    core_verdict,
    example,
    files_under,
    ordered,
    resource_text,
    server_params,
    text_of,
    tool_annotations,
)

MODES = {"auto": "2026-07-28", "2026-07-28": "2026-07-28", "legacy": "2025-11-25"}


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.mark.parametrize("mode", list(MODES))
def test_full_session(mode: str, store: Path, cache_dir: Path) -> None:
    """Contract, validate (valid, broken, as text, bad arguments), refusal, save, resources, prompt."""
    calm_plan, calm_req = example("calm-weekday")
    broken_plan, broken_req = example("calm-weekday-broken")
    calm_verdict = core_verdict(calm_plan, calm_req)
    broken_verdict = core_verdict(broken_plan, broken_req)
    contract = json.loads(core_contract_text())

    async def session() -> None:
        ask = Elicitor("accept", True)
        async with Client(server_params(store, cache_dir), mode=mode, elicitation_callback=ask) as c:  # type: ignore[arg-type]
            assert c.protocol_version == MODES[mode]

            tools = (await c.list_tools()).tools
            assert [t.name for t in tools] == TOOLS
            for t in tools:
                assert t.title and t.description and t.output_schema
                assert t.input_schema["type"] == "object"
                assert t.annotations is not None and t.annotations.idempotent_hint is True
                assert t.annotations.open_world_hint is False
            by_name = {t.name: t for t in tools}
            assert tool_annotations(by_name["get_plan_contract"]).read_only_hint is True
            assert tool_annotations(by_name["validate_plan"]).read_only_hint is True
            assert tool_annotations(by_name["repair_plan"]).read_only_hint is True
            assert tool_annotations(by_name["get_plan_schema"]).read_only_hint is True
            assert sorted(by_name["validate_plan"].input_schema["required"]) == ["plan", "request"]
            assert tool_annotations(by_name["save_plan"]).read_only_hint is False
            assert tool_annotations(by_name["save_plan"]).destructive_hint is False

            # get_plan_contract: exactly the core's contract, key order included.
            r = await c.call_tool("get_plan_contract", {})
            assert check_structured(r) == contract
            assert ordered(text_of(r)) == ordered(core_contract_text())

            # validate_plan: the valid plan, the broken one (three errors), and both as text.
            assert check_structured(await c.call_tool("validate_plan", {"plan": calm_plan, "request": calm_req})) == calm_verdict
            assert calm_verdict["valid"] is True
            r = await c.call_tool("validate_plan", {"plan": broken_plan, "request": broken_req})
            assert check_structured(r) == broken_verdict
            assert broken_verdict["valid"] is False and len(broken_verdict["errors"]) == 3
            as_text = json.dumps(broken_plan, indent=1)
            r = await c.call_tool("validate_plan", {"plan": as_text, "request": broken_req})
            assert check_structured(r) == core_verdict(as_text, broken_req)
            # Plan text that is not JSON is a verdict (a json error), not a tool error.
            r = await c.call_tool("validate_plan", {"plan": "{not json", "request": calm_req})
            assert check_structured(r) == core_verdict("{not json", calm_req)

            await check_repair_and_schema(c)
            await check_calendar(c)

            # Arguments that do not fit the schema: tool errors naming the argument.
            bad_arguments: list[tuple[dict[str, Any], str]] = [
                ({"request": calm_req}, "plan"),
                ({"plan": calm_plan}, "request"),
                ({"plan": calm_plan, "request": 7}, "request"),
                ({}, "plan"),
            ]
            for bad, name in bad_arguments:
                r = await c.call_tool("validate_plan", bad)
                assert r.is_error is True, bad
                assert name in text_of(r), (bad, text_of(r))
            # Unknown tool: a protocol error.
            with pytest.raises(MCPError) as err:
                await c.call_tool("no_such_tool", {})
            assert err.value.code == -32602 and "Unknown tool: no_such_tool" in err.value.message

            # save_plan refuses the broken plan, naming every error; nothing is written.
            r = await c.call_tool("save_plan", {"plan": broken_plan, "request": broken_req})
            assert r.is_error is True
            refusal = text_of(r)
            assert refusal.startswith("Plan not saved.")
            for e in broken_verdict["errors"]:
                assert f" | {e['path']}: {e['message']}" in refusal
            assert files_under(store) == set()

            # Save the valid plan.
            plan_id = calm_req["requestId"]
            r = await c.call_tool("save_plan", {"plan": calm_plan, "request": calm_req})
            saved = check_structured(r)
            assert saved == {
                "saved": True,
                "planId": plan_id,
                "uri": f"plan://{plan_id}",
                "warnings": calm_verdict["warnings"],
            }
            on_disk = (store / f"{plan_id}.json").read_text(encoding="utf-8")
            assert ordered(on_disk) == ordered(json.dumps(calm_plan))
            assert "\n" in on_disk, "saved as pretty JSON"
            assert files_under(store) == {Path(f"{plan_id}.json")}
            assert ask.asked == []

            # Resources: the template, the list, the read.
            templates = (await c.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["plan://{planId}"]
            assert templates[0].mime_type == "application/json"
            listed = (await c.list_resources()).resources
            assert [str(x.uri) for x in listed] == [f"plan://{plan_id}"]
            read = await c.read_resource(f"plan://{plan_id}")
            assert len(read.contents) == 1
            assert read.contents[0].mime_type == "application/json"
            assert ordered(resource_text(read.contents[0])) == ordered(json.dumps(calm_plan))
            with pytest.raises(MCPError) as err:
                await c.read_resource("plan://never-saved")
            assert err.value.code == (-32002 if mode == "legacy" else -32602)
            assert err.value.message == "Resource not found"
            assert err.value.data == {"uri": "plan://never-saved"}

            # Save again: the overwrite question, answered yes; the new content replaces the old.
            changed = dict(calm_plan, tagline="Movement before work, an early night, again.")
            r = await c.call_tool("save_plan", {"plan": changed, "request": calm_req})
            assert check_structured(r)["saved"] is True
            assert len(ask.asked) == 1
            question = ask.asked[0]
            schema = question.requested_schema
            schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)
            assert schema["properties"]["overwrite"]["type"] == "boolean"
            assert schema["required"] == ["overwrite"]
            assert json.loads((store / f"{plan_id}.json").read_text(encoding="utf-8")) == changed
            read = await c.read_resource(f"plan://{plan_id}")
            assert json.loads(resource_text(read.contents[0])) == changed

            # The prompt.
            await check_prompt(c, calm_req)

    run(session())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
@pytest.mark.parametrize(
    "answer",
    [("decline", None), ("cancel", None), ("accept", False)],
    ids=["decline", "cancel", "accept-false"],
)
def test_overwrite_declined(mode: str, answer: tuple[str, Any], store: Path, cache_dir: Path) -> None:
    """Any answer but accept+true leaves the plan and says why (saved: false, notSaved at $)."""
    plan, request = example("calm-weekday")
    verdict = core_verdict(plan, request)
    plan_id = request["requestId"]
    path = store / f"{plan_id}.json"

    async def session() -> None:
        ask = Elicitor(*answer)
        async with Client(server_params(store, cache_dir), mode=mode, elicitation_callback=ask) as c:  # type: ignore[arg-type]
            assert check_structured(await c.call_tool("save_plan", {"plan": plan, "request": request}))["saved"] is True
            before = path.read_bytes()
            changed = dict(plan, name="Calm weekday (edited)")
            r = check_structured(await c.call_tool("save_plan", {"plan": changed, "request": request}))
            assert len(ask.asked) == 1
            assert r["saved"] is False and r["planId"] == plan_id and r["uri"] == f"plan://{plan_id}"
            assert r["warnings"][: len(verdict["warnings"])] == verdict["warnings"]
            last = r["warnings"][-1]
            assert len(r["warnings"]) == len(verdict["warnings"]) + 1
            assert list(last) == ["code", "path", "message"]
            assert last["code"] == "notSaved" and last["path"] == "$" and last["message"]
            assert path.read_bytes() == before
            assert files_under(store) == {Path(f"{plan_id}.json")}

    run(session())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_overwrite_without_elicitation(mode: str, store: Path, cache_dir: Path) -> None:
    """A client that cannot answer questions: the existing plan is left, with a notSaved warning."""
    plan, request = example("calm-weekday")
    path = store / f"{request['requestId']}.json"

    async def session() -> None:
        async with Client(server_params(store, cache_dir), mode=mode) as c:  # type: ignore[arg-type]
            assert check_structured(await c.call_tool("save_plan", {"plan": plan, "request": request}))["saved"] is True
            before = path.read_bytes()
            r = check_structured(await c.call_tool("save_plan", {"plan": dict(plan, name="Other"), "request": request}))
            assert r["saved"] is False
            assert r["warnings"][-1]["code"] == "notSaved"
            assert path.read_bytes() == before

    run(session())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_every_example(mode: str, store: Path, cache_dir: Path) -> None:
    """Every bundled example: validate_plan gives the core's verdict; valid ones save and list."""
    async def session() -> None:
        async with Client(server_params(store, cache_dir), mode=mode) as c:  # type: ignore[arg-type]
            await check_every_example(c)

    run(session())
