#!/usr/bin/env python3
"""The three shipped MCP servers give the same verdict for the same `tools/call` arguments
(issue 27; mcp-server.md "Tools", validator.md §4, §5, §9).

    .venv/bin/python servers.py --server NAME=COMMAND ... [--show N]

Each server is started over stdio by the official MCP Python SDK client (`mcp.Client`, the
2025-11-25 handshake, as the hosts use it), with its plan store in a fresh temporary folder, and
gets the same list of calls (CALLS): `validate_plan`, `repair_plan` and `get_plan_schema` with
plan text, pretty-printed plan text over the size limit (§5.2: the calm-weekday example padded to
just under the limit compact, then indented), plans that are a JSON array, a number, null, a
string holding an array or null, a request as text, and the first vector of every file in
`shared/vectors` (its plan and request as objects, and its plan as compact text against the
example's request). `repair_plan` gets the text plans only (a repair's `plan` text is written from
the plan as the host read it: JavaScript reads 1.0 as 1). For every call the answers must
agree with the first server's: `structuredContent` as canonical JSON bytes (keys sorted, compact,
non-ASCII raw) and `isError`, and a tool error's text (mcp-server.md: a tool error carries one
text block and no structured content).

Then the catalog (issue 29: one catalog, schemas/mcp-catalog.json, every server's texts): the
bytes of `tools/list` (each tool as canonical JSON, without `_meta`, the MCP Apps link, which
each server offers as its SDK allows), `prompts/get draft_plan`, `resources/templates/list`, and
one refusal of each kind of `save_plan` (CATALOG_CALLS): a tool error (an invalid plan, a
requestId that cannot be a plan id; the text after the Python SDK's own `Error executing tool
save_plan: ` prefix) and a `notSaved` warning (a second save, from a client that cannot be
asked). Each must equal the first server's bytes.

The calendar tools (issue 32): ``export_calendar`` of the calm plan (object and text), the first
vector of every file, the broken plan (its verdict in a tool error), a request without a start
date and a malformed ``dtstamp``, all with one fixed DTSTAMP; ``import_commitments`` of the
app-style fixtures (``calendar/tests/fixtures``), a malformed file and an unknown zone. A result's
embedded resource (the calendar's uri, MIME type and text) is compared too.

The calls include arguments that fit no input schema (:func:`argument_calls`, issue 27): a tool
error's text (after the Python SDK's ``Error executing tool <name>: `` prefix, which it puts
before the errors a tool raises) is compared too, so each is the catalog's ``argumentErrors`` text
on every server.

Then one raw stdio session per server with a store holding one plan (:func:`pipelined_with_store`,
issue 29): the initialize result's ``serverInfo`` name and title (the catalog's ``server``) and
``capabilities``, and the ``resources/list`` entries, must equal the first server's.

Then one raw stdio session per server without a store, in an empty working folder, its
requests written at once and stdin closed right after them (issue 29 findings 7-9,
:func:`pipelined_read_only`): every request answered, the initialize result first and no
list_changed, the catalog's readOnly instructions and prompt text, no save_plan and no template,
nothing created; its parts must equal the first server's.

Exit 0 when every server agrees on every call; 1 otherwise (a table of the first differences)."""
from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from testkit import example, example_text, vector_files, vector_lines  # noqa: E402
CALL_TIMEOUT = 60  # seconds: a hang guard only


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def over_the_limit_pretty(plan: dict, limit: int) -> str:
    """`plan` padded (a `notes` member) to just under `limit` bytes compact, then indented so the
    text is over it: the text's size is a `size` error, its compact re-serialisation is not."""
    padded = copy.deepcopy(plan)
    padded["notes"] = ""
    padded["notes"] = "x" * (limit - 64 - len(canonical_size(padded)))
    text = json.dumps(padded, indent=8, ensure_ascii=False)
    assert len(canonical_size(padded)) < limit < len(text.encode("utf-8"))
    return text


def canonical_size(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def calls() -> list[tuple[str, str, dict]]:
    """(label, tool, arguments) for every call each server gets."""
    plan, request = example("calm-weekday")
    plan_text = example_text("calm-weekday.plan.json")
    broken = example_text("calm-weekday-broken.plan.json")
    limit = 262_144  # §5.2 (the contract's limits.payloadBytes; checked below against the servers)
    pretty = over_the_limit_pretty(plan, limit)
    out: list[tuple[str, str, dict]] = []
    plans: list[tuple[str, Any]] = [
        ("text", plan_text),
        ("text-broken", broken),
        ("text-pretty-over-limit", pretty),
        ("object", plan),
        ("object-broken", json.loads(broken)),
        ("array", [plan]),
        ("number", 42),
        ("null", None),
        ("string-of-array", "[1, 2]"),
        ("string-of-null", "null"),
        ("string-not-json", plan_text[:200]),
    ]
    for f in vector_files():
        first = json.loads(vector_lines(f)[0])
        vplan = first["plan"]
        plans.append((f"vector {first['id']}", vplan if isinstance(vplan, str) else canonical_size(vplan).decode()))
        out.append((f"vector {first['id']} as given", "validate_plan", {"plan": vplan, "request": first["request"]}))
        out.append((f"vector {first['id']} request", "get_plan_schema", {"request": first["request"]}))
    for label, p in plans:
        out.append((f"plan {label}", "validate_plan", {"plan": p, "request": request}))
        if isinstance(p, str):
            # a repair's `plan` is text built from the plan read: from an object, each host's JSON
            # reader decides how a number reads (JavaScript has no 1.0), so only text is compared
            out.append((f"plan {label}", "repair_plan", {"plan": p, "request": request}))
    out.append(("plan text, unsafe", "repair_plan", {"plan": broken, "request": request, "unsafe": True}))
    out.extend(argument_calls(plan, request))
    out.append(("request as text", "validate_plan", {"plan": plan, "request": json.dumps(request)}))
    out.append(("request as text", "get_plan_schema", {"request": json.dumps(request)}))
    out.append(("request", "get_plan_schema", {"request": request, "variant": "strict"}))
    out.append(("plan text over the limit", "save_plan", {"plan": pretty, "request": request}))
    out.append(("contract", "get_plan_contract", {}))
    out.extend(calendar_calls(plan, request, plans))
    return out


STAMP = "20261207T120000Z"
FIXTURES = Path(__file__).resolve().parents[2] / "calendar" / "tests" / "fixtures"


def calendar_calls(plan: dict, request: dict, plans: list[tuple[str, Any]]) -> list[tuple[str, str, dict]]:
    """The calls of the calendar tools (issue 32), each with the fixed DTSTAMP where it exports."""
    out: list[tuple[str, str, dict]] = []
    for label, p in [("object", plan), *plans[:2], *[(lab, p) for lab, p in plans if lab.startswith("vector")]]:
        out.append((f"calendar {label}", "export_calendar", {"plan": p, "request": request, "dtstamp": STAMP}))
    for f in vector_files():
        first = json.loads(vector_lines(f)[0])
        if isinstance(first["request"], dict):
            out.append((f"calendar vector {first['id']}", "export_calendar",
                        {"plan": first["plan"], "request": first["request"], "dtstamp": STAMP}))
    no_start = {k: v for k, v in request.items() if k != "startDate"}
    out.append(("calendar no startDate", "export_calendar", {"plan": {**plan, "request": no_start}, "request": no_start, "dtstamp": STAMP}))
    out.append(("calendar dtstamp malformed", "export_calendar", {"plan": plan, "request": request, "dtstamp": "2026-12-07"}))
    for f in sorted(FIXTURES.glob("*.ics")):
        ics = f.read_text(encoding="utf-8")
        for start, zone in (("2026-10-05", "Europe/Zurich"), ("2026-10-26", "America/New_York")):
            out.append((f"commitments {f.stem} {start} {zone}", "import_commitments",
                        {"calendar": ics, "startDate": start, "timezone": zone}))
    broken = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    out.append(("commitments malformed", "import_commitments", {"calendar": broken, "startDate": "2026-10-05", "timezone": "UTC"}))
    out.append(("commitments unknown zone", "import_commitments", {"calendar": "", "startDate": "2026-10-05", "timezone": "Mars/Base"}))
    return out


def argument_calls(plan: dict, request: dict) -> list[tuple[str, str, dict]]:
    """Arguments that fit no input schema (mcp-server.md "Catalog": a tool error naming the
    argument and why; the catalog's ``argumentErrors``, the same text on every server)."""
    return [
        ("arguments: plan an array of numbers", "validate_plan", {"plan": [1, 2], "request": request}),
        ("arguments: plan null, request an array", "validate_plan", {"plan": None, "request": [request]}),
        ("arguments: plan missing", "validate_plan", {"request": request}),
        ("arguments: nothing", "validate_plan", {}),
        ("arguments: one unexpected", "validate_plan", {"plan": plan, "request": request, "why": "x"}),
        ("arguments: unsafe a string, two unexpected", "repair_plan",
         {"plan": plan, "request": request, "unsafe": "yes", "a": 1, "b": 2}),
        ("arguments: unsafe null", "repair_plan", {"plan": "{}", "request": request, "unsafe": None}),
        ("arguments: plan a number", "save_plan", {"plan": 7, "request": request}),
        ("arguments: request an array", "get_plan_schema", {"request": []}),
        ("arguments: variant a number", "get_plan_schema", {"request": request, "variant": 7}),
        ("arguments: variant unknown", "get_plan_schema", {"request": request, "variant": "Strict"}),
        ("arguments: request missing, unexpected", "get_plan_schema", {"plan": plan}),
        ("arguments: any", "get_plan_contract", {"x": 1}),
        ("arguments: dtstamp a number, plan missing", "export_calendar", {"request": request, "dtstamp": 20261207}),
        ("arguments: dtstamp null, unexpected", "export_calendar", {"plan": plan, "request": request, "dtstamp": None, "at": 1}),
        ("arguments: calendar missing, startDate a number", "import_commitments", {"startDate": 5, "timezone": "UTC"}),
        ("arguments: nothing", "import_commitments", {}),
        ("arguments: timezone an array, unexpected", "import_commitments",
         {"calendar": "", "startDate": "2026-10-05", "timezone": ["UTC"], "plan": plan}),
    ]


def tool_error_text(tool: str, result: Any) -> str:
    """A tool error's one text block, without the Python SDK's own ``Error executing tool
    <tool>: `` prefix (mcp 2.3, ``Tool.run``, on the errors a tool raises)."""
    text = result.content[0].text if result.content and hasattr(result.content[0], "text") else ""
    return text.removeprefix(f"Error executing tool {tool}: ")


def catalog_calls() -> list[tuple[str, str, dict]]:
    """(label, tool, arguments) of the refusals of each kind, in order (the plan saved by the
    first call makes the last one a notSaved)."""
    plan, request = example("calm-weekday")
    broken = json.loads(example_text("calm-weekday-broken.plan.json"))
    unsafe = copy.deepcopy(plan)
    unsafe["requestId"] = unsafe["request"]["requestId"] = "../escape"
    return [
        ("first save", "save_plan", {"plan": plan, "request": request}),
        ("refusal: an invalid plan", "save_plan", {"plan": broken, "request": request}),
        ("refusal: an unsafe requestId", "save_plan", {"plan": unsafe, "request": unsafe["request"]}),
        ("notSaved: saved, the client cannot be asked", "save_plan", {"plan": plan, "request": request}),
    ]


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


async def catalog_bytes(client: Client) -> list[tuple[str, str]]:
    """(label, canonical bytes) of the catalog as this server serves it, in order."""
    out = []
    for tool in (await client.list_tools()).tools:
        listed = dump(tool)
        listed.pop("_meta", None)
        out.append((f"tools/list {tool.name}", canonical(listed)))
    got = await client.get_prompt("draft_plan", {"request_json": '{"requestId": "r-1"}'})
    out.append(("prompts/get draft_plan messages", canonical([dump(m) for m in got.messages])))
    templates = (await client.list_resource_templates()).resource_templates
    out.append(("resources/templates/list", canonical([dump(t) for t in templates])))
    for label, tool, arguments in catalog_calls():
        r = await asyncio.wait_for(client.call_tool(tool, arguments), CALL_TIMEOUT)
        if r.is_error:
            out.append((label, "isError " + tool_error_text(tool, r)))
        else:
            out.append((label, canonical(r.structured_content)))
    return out


async def run_server(
    command: list[str], todo: list[tuple[str, str, dict]]
) -> tuple[list[str], list[tuple[bool, str | None]], list[tuple[str, str]]]:
    """The tools the server lists, (isError, canonical structuredContent, or for a tool error its
    text: :func:`tool_error_text`) for every call, in order, and the catalog's bytes
    (:func:`catalog_bytes`)."""
    with tempfile.TemporaryDirectory() as store:
        params = StdioServerParameters(
            command=command[0], args=[*command[1:], "--store", store], env={**os.environ, "PLAN_STORE": store}
        )
        answers = []
        async with Client(params, mode="legacy") as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            for _, tool, arguments in todo:
                r = await asyncio.wait_for(client.call_tool(tool, arguments), CALL_TIMEOUT)
                sc = r.structured_content
                if r.is_error:
                    # a tool error carries no structured content, and the same text everywhere
                    shown = "text " + tool_error_text(tool, r) + ("" if sc is None else " + structuredContent")
                else:
                    shown = None if sc is None else canonical(sc)
                    # the blocks after the text (export_calendar's embedded calendar): uri, MIME type, text
                    if len(r.content) > 1:
                        shown = f"{shown} + content {canonical([dump(c) for c in r.content[1:]])}"
                answers.append((bool(r.is_error), shown))
        with tempfile.TemporaryDirectory() as fresh:
            params = StdioServerParameters(
                command=command[0], args=[*command[1:], "--store", fresh], env={**os.environ, "PLAN_STORE": fresh}
            )
            async with Client(params, mode="legacy") as client:
                served = await catalog_bytes(client)
        return listed, answers, served


CATALOG = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "mcp-catalog.json").read_text(encoding="utf-8"))
PIPELINE_TIMEOUT = 120  # seconds: a hang guard only


def pipelined_read_only(command: list[str]) -> tuple[dict[str, str], list[str]]:
    """One raw stdio session without a store (no ``--store``, no ``PLAN_STORE``), in a fresh empty
    working folder, its requests written at once and stdin closed right after them, as
    ``printf '...' | server`` does (issue 29 findings 7, 8, 9; mcp-server.md "Sandbox and
    store"). Returns the comparable parts (label -> canonical bytes) and the problems seen: a
    request left unanswered, anything on stdout before the initialize result, a list_changed
    notification, a file left in the working folder."""
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "pipelined", "version": "0"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "prompts/get",
         "params": {"name": "draft_plan", "arguments": {"request_json": '{"requestId": "r-1"}'}}},
        {"jsonrpc": "2.0", "id": 4, "method": "resources/templates/list"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_plan_contract", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call",
         "params": {"name": "save_plan", "arguments": {"plan": example("calm-weekday")[0], "request": example("calm-weekday")[1]}}},
    ]
    text = "".join(json.dumps(m) + "\n" for m in lines)
    env = {k: v for k, v in os.environ.items() if k != "PLAN_STORE"}
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as cwd:
        p = subprocess.run(command, input=text.encode(), capture_output=True, env=env, cwd=cwd, timeout=PIPELINE_TIMEOUT)
        left = sorted(os.listdir(cwd))
    if left:
        problems.append(f"a read-only server created {left} in its working folder")
    out = [json.loads(line) for line in p.stdout.decode().splitlines() if line.strip()]
    if not out or out[0].get("id") != 1:
        problems.append(f"the first message is not the initialize result: {str(out[:1])[:200]}")
    for m in out:
        if str(m.get("method", "")).endswith("list_changed"):
            problems.append(f"sent {m['method']} (nothing changed)")
    answers = {m["id"]: m for m in out if "id" in m and "method" not in m}
    missing = [m["id"] for m in lines if "id" in m and m["id"] not in answers]
    if missing:
        problems.append(f"requests {missing} got no answer before the server exited (status {p.returncode})")
    got: dict[str, str] = {}
    result = lambda i: answers.get(i, {}).get("result")  # noqa: E731
    instructions = (result(1) or {}).get("instructions")
    if instructions != CATALOG["instructions"]["readOnly"]:
        problems.append(f"instructions are not the catalog's readOnly ones: {str(instructions)[:200]}")
    got["instructions"] = canonical(instructions)
    tools = [t["name"] for t in (result(2) or {}).get("tools", [])]
    got["tools/list names"] = canonical(tools)
    if "save_plan" in tools:
        problems.append("a read-only server lists save_plan")
    messages = (result(3) or {}).get("messages")
    got["prompts/get draft_plan messages"] = canonical(messages)
    want_text = CATALOG["prompt"]["text"]["readOnly"].replace("{request_json}", '{"requestId": "r-1"}')
    if not messages or messages[0].get("content", {}).get("text") != want_text:
        problems.append(f"the prompt is not the catalog's readOnly text: {str(messages)[:200]}")
    templates = (result(4) or {}).get("resourceTemplates", [])
    got["resources/templates/list"] = canonical(templates)  # none: an empty list, or -32601 (no resources)
    if templates:
        problems.append(f"a read-only server offers templates {templates}")
    got["get_plan_contract"] = canonical((result(5) or {}).get("structuredContent"))
    save = answers.get(6, {})
    refused = "error" in save or (save.get("result") or {}).get("isError") is True
    got["save_plan refused"] = canonical(refused)
    if not refused:
        problems.append(f"a read-only server accepted save_plan: {str(save)[:200]}")
    return got, problems


def pipelined_with_store(command: list[str]) -> dict[str, str]:
    """One raw stdio session with a store that holds one saved plan (written before the start, so
    no save races the listing), its requests written at once (issue 29): the parts of the
    initialize result every server must send alike (``serverInfo`` name and title, the catalog's
    ``server``; ``capabilities``: a server that sends no list_changed notification says nothing of
    it) and the ``resources/list`` entries (label -> canonical bytes)."""
    plan = example("calm-weekday")[0]
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "pipelined", "version": "0"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/list"},
    ]
    text = "".join(json.dumps(m) + "\n" for m in lines)
    with tempfile.TemporaryDirectory() as store:
        Path(store, f"{plan['requestId']}.json").write_text(json.dumps(plan, indent=2) + "\n", encoding="utf-8")
        env = {**os.environ, "PLAN_STORE": store}
        p = subprocess.run([*command, "--store", store], input=text.encode(), capture_output=True, env=env,
                           timeout=PIPELINE_TIMEOUT)
    out = [json.loads(line) for line in p.stdout.decode().splitlines() if line.strip()]
    answers = {m["id"]: m for m in out if "id" in m and "method" not in m}
    init_result = answers.get(1, {}).get("result") or {}
    info = init_result.get("serverInfo") or {}
    return {
        "initialize serverInfo name, title": canonical({k: info.get(k) for k in ("name", "title")}),
        "initialize capabilities": canonical(init_result.get("capabilities")),
        "resources/list": canonical((answers.get(2, {}).get("result") or {}).get("resources")),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", action="append", required=True, help="NAME=COMMAND (first = reference)")
    ap.add_argument("--show", type=int, default=8)
    ap.add_argument("--allow-missing-tool", action="append", default=[], metavar="SERVER:TOOL",
                    help="a known gap: that server's calls of that tool are not compared (and said so)")
    args = ap.parse_args()
    todo = calls()
    results = {}
    listed = {}
    served = {}
    problems = []
    for spec in args.server:
        name, cmd = spec.split("=", 1)
        t0 = time.monotonic()
        try:
            listed[name], results[name], served[name] = asyncio.run(run_server(shlex.split(cmd), todo))
        except Exception as e:  # noqa: BLE001 - a server that cannot be driven is a failure
            problems.append(f"SERVER {name}: could not be driven: {e!r}"[:600])
            continue
        print(f"  {name:8} {len(todo)} calls in {time.monotonic() - t0:4.1f}s")
    names = list(results)
    if not names:
        print("servers: no server answered")
        return 1
    ref = names[0]
    at = next(i for i, (label, tool, _) in enumerate(todo) if (label, tool) == ("contract", "get_plan_contract"))
    contract = json.loads(results[ref][at][1] or "null")
    if not contract or contract["limits"]["payloadBytes"] != 262_144:
        problems.append("the contract's payloadBytes is not the limit the calls were built for")
    # What the reference must say (validator.md §5.2, §5.3): the text's own size; the type verdict.
    expected = {("plan text-pretty-over-limit", "validate_plan"): "size", ("plan string-of-array", "validate_plan"): "type"}
    for i, (label, tool, _) in enumerate(todo):
        code = expected.get((label, tool))
        if code is not None:
            verdict = json.loads(results[ref][i][1] or "null")
            if not verdict or [e["code"] for e in verdict["errors"]][:1] != [code]:
                problems.append(f"EXPECT {tool} {label} on {ref}: a {code} error first, got {results[ref][i]}"[:600])
    tools = sorted({t for _, t, _ in todo})
    skipped = set()
    for n in names:
        for t in tools:
            if t not in listed[n]:
                if f"{n}:{t}" in args.allow_missing_tool:
                    print(f"  note: {n} has no tool {t} (a known gap, --allow-missing-tool): its calls are not compared")
                    skipped.add((n, t))
                else:
                    problems.append(f"MISSING TOOL {t} on {n} (mcp-server.md lists it)")
    agree = {n: 0 for n in names}
    compared_calls = {n: sum(1 for _, t, _ in todo if (n, t) not in skipped) for n in names}
    for i, (label, tool, _) in enumerate(todo):
        compared = [n for n in names if (n, tool) not in skipped]
        first = compared[0] if compared else ref
        want = results[first][i]
        for n in compared:
            got = results[n][i]
            if got == want:
                agree[n] += 1
            else:
                problems.append(
                    f"DIFF {tool} {label}: {first} isError={want[0]} {(want[1] or '')[:300]}\n"
                    f"    {n} isError={got[0]} {(got[1] or '')[:300]}"
                )
    # Read-only, pipelined and closed at once (issue 29 findings 7-9): the same parts everywhere.
    read_only: dict[str, dict[str, str]] = {}
    for spec in args.server:
        name, cmd = spec.split("=", 1)
        try:
            read_only[name], seen = pipelined_read_only(shlex.split(cmd))
        except Exception as e:  # noqa: BLE001 - a server that cannot be driven is a failure
            problems.append(f"SERVER {name}: the pipelined read-only session failed: {e!r}"[:600])
            continue
        problems.extend(f"READ-ONLY {name}: {p}" for p in seen)
    ro_names = list(read_only)
    for n in ro_names[1:]:
        for label, text in read_only[ro_names[0]].items():
            if read_only[n].get(label) != text:
                problems.append(f"READ-ONLY DIFF {label}: {ro_names[0]} {text[:300]}\n    {n} {read_only[n].get(label, '(none)')[:300]}")
    print(f"servers: read-only pipelined session ({len(read_only.get(ref, {}))} parts) compared across " + ", ".join(ro_names))
    # With a store: the initialize result and resources/list (issue 29): the same parts everywhere.
    stored: dict[str, dict[str, str]] = {}
    for spec in args.server:
        name, cmd = spec.split("=", 1)
        try:
            stored[name] = pipelined_with_store(shlex.split(cmd))
        except Exception as e:  # noqa: BLE001 - a server that cannot be driven is a failure
            problems.append(f"SERVER {name}: the pipelined session with a store failed: {e!r}"[:600])
    st_names = list(stored)
    if st_names and json.loads(stored[st_names[0]]["initialize serverInfo name, title"]) != CATALOG["server"]:
        problems.append(f"INITIALIZE {st_names[0]}: serverInfo is not the catalog's server: {stored[st_names[0]]}")
    for n in st_names[1:]:
        for label, text in stored[st_names[0]].items():
            if stored[n].get(label) != text:
                problems.append(f"STORE DIFF {label}: {st_names[0]} {text[:300]}\n    {n} {stored[n].get(label, '(none)')[:300]}")
    print(f"servers: initialize and resources/list ({len(stored.get(ref, {}))} parts) compared across " + ", ".join(st_names))
    # The catalog: the same bytes from every server (issue 29).
    for n in names[1:]:
        want, got = dict(served[ref]), dict(served[n])
        if list(want) != list(got):
            problems.append(f"CATALOG {n}: serves {list(got)}, {ref} {list(want)}")
        for label, text in want.items():
            if got.get(label) != text:
                problems.append(f"CATALOG DIFF {label}: {ref} {text[:400]}\n    {n} {(got.get(label) or '(none)')[:400]}")
    print(f"servers: catalog ({len(served[ref])} parts) compared across " + ", ".join(names))
    print(f"servers: {len(todo)} calls; reference {ref}; " + ", ".join(f"{n} {agree[n]} of {compared_calls[n]} agree" for n in names))
    for p in problems[: args.show]:
        print(p)
    if len(problems) > args.show:
        print(f"... and {len(problems) - args.show} more")
    print("servers: " + ("every server gives the same verdicts" if not problems else f"{len(problems)} problems"))
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
