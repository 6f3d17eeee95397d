"""The whole story of an installed MCP server, driven by the official MCP Python SDK client.

Usage: python story.py KIND EXPECTED_DIR EXAMPLES_DIR STORE -- COMMAND [ARGS...]
       python story.py KIND EXPECTED_DIR EXAMPLES_DIR STORE --url http://127.0.0.1:PORT/mcp

KIND is the server: ``wasi`` (momentum-plan-sandbox), ``python`` (momentum-planner from the
wheel) or ``node`` (momentum-planner from the npm package); it decides the catalog expected (the
Node server has no draft_plan prompt). EXPECTED_DIR holds
``<example>.verdict.json``, the core's own verdict bytes (the ``validate`` example driver) for
each bundled example; repairs and schemas are compared with the installed ``momentum_plan``
wheel of this interpreter. STORE is the server's (empty) plan store, checked on disk. With
``--url`` the server is already listening (Streamable HTTP), and only the read-only part runs.

Steps: initialize; tools/list; get_plan_contract; validate_plan on every example (as objects);
export_calendar and import_commitments on the calm example (the core's calendar and commitments);
repair_plan and get_plan_schema on the broken example; save_plan refused, saved, saved again after
the overwrite question (answered yes); resources/list and resources/read; prompts/list and
prompts/get. Exits 0 when every step holds, 1 with the failed step otherwise.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any, List

import mcp_types as types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

import momentum_plan

TOOLS = {
    "wasi": ["export_calendar", "get_plan_contract", "get_plan_schema", "import_commitments", "repair_plan", "save_plan", "validate_plan"],
    "python": ["export_calendar", "get_plan_contract", "get_plan_schema", "import_commitments", "repair_plan", "save_plan", "validate_plan"],
    "node": ["export_calendar", "get_plan_contract", "get_plan_schema", "import_commitments", "repair_plan", "save_plan", "validate_plan"],
}
PROMPTS = {"wasi": ["draft_plan"], "python": ["draft_plan"], "node": []}


class Fail(Exception):
    pass


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise Fail(what)
    print(f"  ok  {what}")


def text_of(block: Any) -> str:
    expect(isinstance(block, types.TextContent), "a text content block")
    return str(block.text)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


async def story(kind: str, expected: Path, examples: Path, store: Path, server: Any, http: bool) -> None:
    asked: List[str] = []

    async def answer_yes(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"overwrite": True})

    names = sorted(p.name[: -len(".plan.json")] for p in examples.glob("*.plan.json"))
    expect(len(names) >= 2 and "calm-weekday" in names and "calm-weekday-broken" in names, f"examples {names}")
    async with Client(server, elicitation_callback=answer_yes) as c:
        info = c.server_info
        expect(info is not None and info.name == "momentum-planner", f"initialize: {kind} server {info and info.name}")
        tools = sorted(t.name for t in (await c.list_tools()).tools)
        expect(tools == TOOLS[kind], f"tools/list: {tools}")

        contract = (await c.call_tool("get_plan_contract", {})).structured_content
        expect(contract == momentum_plan.get_plan_contract(), "get_plan_contract is the core's contract")

        for name in names:
            plan, request = load(examples / f"{name}.plan.json"), load(examples / f"{name}.request.json")
            r = await c.call_tool("validate_plan", {"plan": plan, "request": request})
            want_verdict = load(expected / f"{name}.verdict.json")
            expect(r.is_error is not True and r.structured_content == want_verdict, f"validate_plan {name}: the core's verdict")
        broken, broken_req = load(examples / "calm-weekday-broken.plan.json"), load(examples / "calm-weekday-broken.request.json")
        calm, calm_req = load(examples / "calm-weekday.plan.json"), load(examples / "calm-weekday.request.json")
        expect(load(expected / "calm-weekday-broken.verdict.json")["valid"] is False, "the broken example is invalid")

        if "repair_plan" in tools:
            r = await c.call_tool("repair_plan", {"plan": broken, "request": broken_req})
            expect(r.structured_content == momentum_plan.repair_plan(broken, broken_req), "repair_plan: the core's repair")
        if "get_plan_schema" in tools:
            r = await c.call_tool("get_plan_schema", {"request": calm_req, "variant": "strict"})
            expect(r.structured_content == momentum_plan.plan_schema(calm_req, "strict"), "get_plan_schema: the core's schema")
        if "export_calendar" in tools:
            stamp = "20261207T120000Z"
            r = await c.call_tool("export_calendar", {"plan": calm, "request": calm_req, "dtstamp": stamp})
            want = momentum_plan.plan_to_icalendar(calm, calm_req, stamp)
            resources = [b.resource for b in r.content if isinstance(b, types.EmbeddedResource)]
            expect(r.is_error is not True and len(resources) == 1 and resources[0].mime_type == "text/calendar"
                   and getattr(resources[0], "text", None) == want["text"], "export_calendar: the core's calendar")
            r = await c.call_tool("import_commitments", {"calendar": want["text"], "startDate": calm_req["startDate"],
                                                         "timezone": calm_req["timezone"]})
            got = r.structured_content
            expect(got == momentum_plan.commitments_from_icalendar(want["text"], calm_req["startDate"], calm_req["timezone"]),
                   "import_commitments: the core's commitments")
        if http:
            return

        r = await c.call_tool("save_plan", {"plan": broken, "request": broken_req})
        expect(r.is_error is True and "Plan not saved." in text_of(r.content[0]), "save_plan refuses the broken plan")
        expect(list(store.iterdir()) == [], "nothing written")
        s = (await c.call_tool("save_plan", {"plan": calm, "request": calm_req})).structured_content
        plan_id = calm["requestId"]
        expect(s is not None and s["saved"] is True and s["uri"] == f"plan://{plan_id}", f"save_plan saves {s and s['uri']}")
        expect(json.loads((store / f"{plan_id}.json").read_text(encoding="utf-8")) == calm, "the saved file is the plan")
        s2 = (await c.call_tool("save_plan", {"plan": calm, "request": calm_req})).structured_content
        expect(len(asked) == 1 and plan_id in asked[0], f"the overwrite question was asked: {asked}")
        expect(s2 is not None and s2["saved"] is True, "replaced after yes")

        listed = [str(res.uri) for res in (await c.list_resources()).resources]
        expect(listed == [f"plan://{plan_id}"], f"resources/list: {listed}")
        read = await c.read_resource(f"plan://{plan_id}")
        body = read.contents[0]
        expect(isinstance(body, types.TextResourceContents) and json.loads(body.text) == calm, "resources/read")

        if PROMPTS[kind]:
            prompts = sorted(p.name for p in (await c.list_prompts()).prompts)
            expect(prompts == PROMPTS[kind], f"prompts/list: {prompts}")
            request_json = json.dumps(calm_req)
            got = await c.get_prompt("draft_plan", {"request_json": request_json})
            msg = text_of(got.messages[0].content)
            expect("get_plan_contract" in msg and request_json in msg, "prompts/get draft_plan names the contract and the request")


def main(argv: List[str]) -> int:
    if len(argv) < 6 or argv[4] not in ("--", "--url") or argv[0] not in TOOLS:
        print(__doc__, file=sys.stderr)
        return 2
    kind, expected, examples, store = argv[0], Path(argv[1]), Path(argv[2]), Path(argv[3])
    http = argv[4] == "--url"
    server: Any = argv[5] if http else StdioServerParameters(command=argv[5], args=argv[6:])
    print(f"story: {kind} server {' '.join(argv[5:])}")
    try:
        asyncio.run(story(kind, expected, examples, store, server, http))
    except Fail as e:
        print(f"story: FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
