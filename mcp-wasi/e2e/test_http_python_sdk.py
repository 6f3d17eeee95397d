"""The official Python SDK client (mcp 2.3) over Streamable HTTP, in both eras.

``Client("http://127.0.0.1:PORT/mcp", mode=...)`` selects the SDK's ``streamable_http_client``
transport (``mcp/client/client.py``: a ``str`` server is a URL). Modes: ``auto`` (probes
``server/discover``, lands on 2026-07-28), ``2026-07-28`` (adopts it, no probe) and ``legacy``
(the 2025-11-25 ``initialize`` handshake; every later POST carries ``MCP-Protocol-Version:
2025-11-25``). The server is stateless in both eras (spec: "Streamable HTTP"): in 2026-07-28 the
overwrite question is an ``input_required`` result the SDK answers through the elicitation
callback and retries; a classic HTTP client cannot be asked, so the plan is left, ``saved:
false``, with a ``notSaved`` warning naming 2026-07-28.

Expected values come from the core (``validate --lines``, ``core-probe contract``) and from the
bundled examples.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from http_env import HttpRunner, http_server  # noqa: F401  (fixture)
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
    text_of,
    tool_annotations,
)

MODES = {"auto": "2026-07-28", "2026-07-28": "2026-07-28", "legacy": "2025-11-25"}


def run(coro: Any, timeout: float = 120.0) -> Any:
    """Runs a session with a bound, so a hung server fails the test."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def not_saved_warning(result: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any]:
    """The notSaved issue that ends ``warnings`` after the verdict's own warnings."""
    assert result["saved"] is False, result
    assert result["warnings"][: len(verdict["warnings"])] == verdict["warnings"]
    assert len(result["warnings"]) == len(verdict["warnings"]) + 1, result["warnings"]
    last = result["warnings"][-1]
    assert list(last) == ["code", "path", "message"]
    assert last["code"] == "notSaved" and last["path"] == "$" and last["message"], last
    return last


@pytest.mark.parametrize("mode", list(MODES))
def test_full_session(mode: str, http_server: HttpRunner, store: Path) -> None:  # noqa: F811
    """Every tool, the refusal, a save, resources list + read, the prompt, the overwrite question."""
    calm_plan, calm_req = example("calm-weekday")
    broken_plan, broken_req = example("calm-weekday-broken")
    calm_verdict = core_verdict(calm_plan, calm_req)
    broken_verdict = core_verdict(broken_plan, broken_req)
    contract = json.loads(core_contract_text())
    plan_id = calm_req["requestId"]
    path = store / f"{plan_id}.json"

    async def session() -> None:
        ask = Elicitor("accept", True)
        async with Client(http_server.url, mode=mode, elicitation_callback=ask) as c:  # type: ignore[arg-type]
            assert c.protocol_version == MODES[mode]
            if mode != "2026-07-28":  # a pinned version adopts a synthesized discover result
                assert c.server_info is not None and c.server_info.name == "momentum-planner"
                assert c.server_capabilities.resources is not None, "resources offered with a store"
                assert "save" in (c.instructions or "").lower()
            if mode == "legacy":
                with pytest.warns(MCPDeprecationWarning):
                    await c.send_ping()

            tools = (await c.list_tools()).tools
            assert [t.name for t in tools] == TOOLS
            for t in tools:
                assert t.title and t.description and t.output_schema
                assert t.input_schema["type"] == "object"
                assert tool_annotations(t).idempotent_hint is True
                assert tool_annotations(t).open_world_hint is False
            by_name = {t.name: t for t in tools}
            assert tool_annotations(by_name["validate_plan"]).read_only_hint is True
            assert tool_annotations(by_name["save_plan"]).read_only_hint is False

            # get_plan_contract: exactly the core's contract, key order included.
            r = await c.call_tool("get_plan_contract", {})
            assert check_structured(r) == contract
            assert ordered(text_of(r)) == ordered(core_contract_text())

            # validate_plan: the valid plan, the broken one, the broken one as text.
            assert calm_verdict["valid"] is True
            assert check_structured(await c.call_tool("validate_plan", {"plan": calm_plan, "request": calm_req})) == calm_verdict
            assert broken_verdict["valid"] is False and broken_verdict["errors"]
            r = await c.call_tool("validate_plan", {"plan": broken_plan, "request": broken_req})
            assert check_structured(r) == broken_verdict
            as_text = json.dumps(broken_plan, indent=2)
            r = await c.call_tool("validate_plan", {"plan": as_text, "request": broken_req})
            assert check_structured(r) == core_verdict(as_text, broken_req)
            r = await c.call_tool("validate_plan", {"plan": calm_plan})
            assert r.is_error is True and "request" in text_of(r)
            await check_repair_and_schema(c)
            await check_calendar(c)
            with pytest.raises(MCPError) as err:
                await c.call_tool("no_such_tool", {})
            assert err.value.code == -32602 and "Unknown tool: no_such_tool" in err.value.message

            # save_plan: the broken plan is refused with every error; nothing written.
            r = await c.call_tool("save_plan", {"plan": broken_plan, "request": broken_req})
            assert r.is_error is True
            refusal = text_of(r)
            assert refusal.startswith("Plan not saved.")
            for e in broken_verdict["errors"]:
                assert f" | {e['path']}: {e['message']}" in refusal
            assert files_under(store) == set()

            # save_plan: the valid plan.
            saved = check_structured(await c.call_tool("save_plan", {"plan": calm_plan, "request": calm_req}))
            assert saved == {"saved": True, "planId": plan_id, "uri": f"plan://{plan_id}", "warnings": calm_verdict["warnings"]}
            assert ordered(path.read_text(encoding="utf-8")) == ordered(json.dumps(calm_plan))
            assert files_under(store) == {Path(f"{plan_id}.json")}
            assert ask.asked == []

            # Resources: template, list, read, a missing one.
            templates = (await c.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["plan://{planId}"]
            assert [str(x.uri) for x in (await c.list_resources()).resources] == [f"plan://{plan_id}"]
            read = await c.read_resource(f"plan://{plan_id}")
            assert len(read.contents) == 1 and read.contents[0].mime_type == "application/json"
            assert resource_text(read.contents[0]) == path.read_text(encoding="utf-8")
            with pytest.raises(MCPError) as err:
                await c.read_resource("plan://never-saved")
            assert err.value.code == (-32002 if mode == "legacy" else -32602)
            assert err.value.message == "Resource not found"
            assert err.value.data == {"uri": "plan://never-saved"}

            # Save a changed plan over it.
            changed = dict(calm_plan, tagline="Movement before work, an early night, over HTTP.")
            changed_verdict = core_verdict(changed, calm_req)
            before = path.read_bytes()
            r = check_structured(await c.call_tool("save_plan", {"plan": changed, "request": calm_req}))
            if mode == "legacy":
                # Classic HTTP: no stream to ask on; the plan is left and the warning says why.
                assert ask.asked == []
                last = not_saved_warning(r, changed_verdict)
                assert "2026-07-28" in last["message"], last
                assert path.read_bytes() == before
            else:
                # 2026-07-28: input_required, answered yes by the callback, retried: replaced.
                assert len(ask.asked) == 1
                schema = ask.asked[0].requested_schema
                schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)
                assert schema["properties"]["overwrite"]["type"] == "boolean"
                assert schema["required"] == ["overwrite"]
                assert r == {"saved": True, "planId": plan_id, "uri": f"plan://{plan_id}", "warnings": changed_verdict["warnings"]}
                assert json.loads(path.read_text(encoding="utf-8")) == changed
                read = await c.read_resource(f"plan://{plan_id}")
                assert json.loads(resource_text(read.contents[0])) == changed
            assert files_under(store) == {Path(f"{plan_id}.json")}

            # The prompt.
            await check_prompt(c, calm_req)

    run(session())


@pytest.mark.parametrize("mode", ["auto", "2026-07-28"])
@pytest.mark.parametrize(
    "answer",
    [("decline", None), ("cancel", None), ("accept", False)],
    ids=["decline", "cancel", "accept-false"],
)
def test_overwrite_declined(mode: str, answer: tuple[str, Any], http_server: HttpRunner, store: Path) -> None:  # noqa: F811
    """2026-07-28: the question is asked; any answer but accept+true leaves the plan."""
    plan, req = example("calm-weekday")
    plan_id = req["requestId"]
    path = store / f"{plan_id}.json"

    async def session() -> None:
        ask = Elicitor(*answer)
        async with Client(http_server.url, mode=mode, elicitation_callback=ask) as c:  # type: ignore[arg-type]
            assert check_structured(await c.call_tool("save_plan", {"plan": plan, "request": req}))["saved"] is True
            before = path.read_bytes()
            changed = dict(plan, name="Calm weekday (edited over HTTP)")
            r = check_structured(await c.call_tool("save_plan", {"plan": changed, "request": req}))
            assert len(ask.asked) == 1
            assert r["planId"] == plan_id and r["uri"] == f"plan://{plan_id}"
            not_saved_warning(r, core_verdict(changed, req))
            assert path.read_bytes() == before
            assert files_under(store) == {Path(f"{plan_id}.json")}

    run(session())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_overwrite_without_elicitation(mode: str, http_server: HttpRunner, store: Path) -> None:  # noqa: F811
    """A client without the elicitation capability: the plan is left, with a notSaved warning."""
    plan, req = example("calm-weekday")
    path = store / f"{req['requestId']}.json"

    async def session() -> None:
        async with Client(http_server.url, mode=mode) as c:  # type: ignore[arg-type]
            assert check_structured(await c.call_tool("save_plan", {"plan": plan, "request": req}))["saved"] is True
            before = path.read_bytes()
            changed = dict(plan, name="Other")
            r = check_structured(await c.call_tool("save_plan", {"plan": changed, "request": req}))
            not_saved_warning(r, core_verdict(changed, req))
            assert path.read_bytes() == before

    run(session())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_every_example(mode: str, http_server: HttpRunner) -> None:  # noqa: F811
    """Every bundled example over HTTP: the core's verdict; valid ones save and are listed."""
    async def session() -> None:
        async with Client(http_server.url, mode=mode) as c:  # type: ignore[arg-type]
            await check_every_example(c)

    run(session())
