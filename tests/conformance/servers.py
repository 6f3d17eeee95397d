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
non-ASCII raw) and `isError`. A tool error's text is each SDK's own, so only its presence is
compared (mcp-server.md: a tool error carries one text block and no structured content).

Then the catalog (issue 29: one catalog, schemas/mcp-catalog.json, every server's texts): the
bytes of `tools/list` (each tool as canonical JSON, without `_meta`, the MCP Apps link, which
each server offers as its SDK allows), `prompts/get draft_plan`, `resources/templates/list`, and
one refusal of each kind of `save_plan` (CATALOG_CALLS): a tool error (an invalid plan, a
requestId that cannot be a plan id; the text after the Python SDK's own `Error executing tool
save_plan: ` prefix) and a `notSaved` warning (a second save, from a client that cannot be
asked). Each must equal the first server's bytes.

Exit 0 when every server agrees on every call; 1 otherwise (a table of the first differences)."""
from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import shlex
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
    out.append(("request as text", "validate_plan", {"plan": plan, "request": json.dumps(request)}))
    out.append(("request as text", "get_plan_schema", {"request": json.dumps(request)}))
    out.append(("request", "get_plan_schema", {"request": request, "variant": "strict"}))
    out.append(("plan text over the limit", "save_plan", {"plan": pretty, "request": request}))
    out.append(("contract", "get_plan_contract", {}))
    return out


SDK_TOOL_ERROR_PREFIX = "Error executing tool save_plan: "
"""What the Python SDK puts before a tool error's own text (mcp 2.3, ``Tool.run``)."""


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
            text = r.content[0].text if r.content and hasattr(r.content[0], "text") else ""
            out.append((label, "isError " + text.removeprefix(SDK_TOOL_ERROR_PREFIX)))
        else:
            out.append((label, canonical(r.structured_content)))
    return out


async def run_server(
    command: list[str], todo: list[tuple[str, str, dict]]
) -> tuple[list[str], list[tuple[bool, str | None]], list[tuple[str, str]]]:
    """The tools the server lists, (isError, canonical structuredContent or None) for every call,
    in order, and the catalog's bytes (:func:`catalog_bytes`)."""
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
                answers.append((bool(r.is_error), None if sc is None else canonical(sc)))
        with tempfile.TemporaryDirectory() as fresh:
            params = StdioServerParameters(
                command=command[0], args=[*command[1:], "--store", fresh], env={**os.environ, "PLAN_STORE": fresh}
            )
            async with Client(params, mode="legacy") as client:
                served = await catalog_bytes(client)
        return listed, answers, served


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
    contract = json.loads(results[ref][-1][1] or "null")
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
