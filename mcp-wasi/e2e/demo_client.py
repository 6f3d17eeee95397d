"""The main job, shown end to end: a model's host drives the sandboxed validator over MCP.

Started by ``scripts/demo`` (which builds everything first). Uses the official Python SDK client
(``mcp`` 2.3) exactly as a host would: it launches ``momentum-plan-sandbox --store <dir>`` on stdio
and then reads the contract, validates the bundled example plans, shows the broken plan's errors,
tries to save the broken plan (refused), saves the valid one, saves it again (the server asks
before replacing it; this client answers yes), reads ``plan://…`` back and fetches the
``draft_plan`` prompt. Prints a readable transcript; exits non-zero if any step does not behave
as the spec says.

Usage: python demo_client.py [--store DIR] [--mode auto|legacy|2026-07-28]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sandbox_env import RUNNER, WASM, block_text, example, example_names, resource_text  # noqa: E402

WIDTH = 100


def say(text: str = "", indent: int = 0) -> None:
    pad = " " * indent
    for para in text.splitlines() or [""]:
        print(textwrap.fill(para, WIDTH, initial_indent=pad, subsequent_indent=pad + "  ") if para else "")


def quote(text: str, max_lines: int) -> None:
    """Prints text as a quoted block (every wrapped line starts with `|`), at most max_lines lines."""
    lines = text.splitlines()
    for line in lines[:max_lines]:
        for part in textwrap.wrap(line, WIDTH - 5) or [""]:
            print("   | " + part)
    if len(lines) > max_lines:
        print("   | …")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def step(n: int, title: str) -> None:
    print()
    print(f"{n}. {title}")


def issues(items: list[dict[str, Any]], indent: int = 5) -> None:
    for i in items:
        say(f"- {i['code']:<12} {i['path']}: {i['message']}", indent)


class Fail(Exception):
    pass


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise Fail(what)


async def demo(store: Path, mode: str) -> None:
    questions: list[str] = []

    async def answer_yes(context: Any, params: Any) -> types.ElicitResult:
        questions.append(params.message)
        say(f'server asks: "{params.message}"', 5)
        say("client answers: overwrite = yes", 5)
        return types.ElicitResult(action="accept", content={"overwrite": True})

    params = StdioServerParameters(command=str(RUNNER), args=["--wasm", str(WASM), "--store", str(store)])
    say(f"$ {RUNNER.name} --store {store}")
    say(f"  (wasm: {WASM}, {WASM.stat().st_size:,} bytes; stdio; no network; only {store} granted, as /plans)")
    t0 = time.perf_counter()
    async with Client(params, mode=mode, elicitation_callback=answer_yes) as c:  # type: ignore[arg-type]
        info = c.server_info
        name = f"{info.name} {info.version}" if info else "momentum-planner"
        say(
            f"connected to {name} in {1e3 * (time.perf_counter() - t0):.0f} ms; protocol {c.protocol_version} "
            f"(Python SDK client, mode={mode})"
        )
        tools = (await c.list_tools()).tools
        say("tools: " + ", ".join(t.name for t in tools))

        step(1, "get_plan_contract: what a plan must look like")
        contract = (await c.call_tool("get_plan_contract", {})).structured_content
        expect(isinstance(contract, dict), "the contract is an object")
        say(f"format {contract.get('format')!r}, contract version {contract.get('contractVersion')}", 3)
        for key, value in contract.items():
            if key in ("format", "contractVersion"):
                continue
            shown = json.dumps(value, ensure_ascii=False)
            say(f"{key}: {shown[:80] + ' …' if len(shown) > 80 else shown}", 3)

        calm_plan, calm_req = example("calm-weekday")
        broken_plan, broken_req = example("calm-weekday-broken")

        step(2, f"validate_plan: calm-weekday ({calm_plan.get('name')!r})")
        v = (await c.call_tool("validate_plan", {"plan": calm_plan, "request": calm_req})).structured_content
        expect(v["valid"] is True, "calm-weekday is valid")
        say(
            f"valid: {v['valid']}; {plural(len(v['errors']), 'error')}, {plural(len(v['warnings']), 'warning')}; "
            f"checks: {', '.join(v['checks'])}",
            3,
        )
        issues(v["warnings"])

        step(3, "validate_plan: calm-weekday-broken")
        b = (await c.call_tool("validate_plan", {"plan": broken_plan, "request": broken_req})).structured_content
        expect(b["valid"] is False and len(b["errors"]) == 3, "the broken plan has three errors")
        say(f"valid: {b['valid']}; {plural(len(b['errors']), 'error')}:", 3)
        issues(b["errors"])
        if b["warnings"]:
            say(f"and {plural(len(b['warnings']), 'warning')}:", 3)
            issues(b["warnings"])

        step(4, "save_plan: calm-weekday-broken (must be refused)")
        r = await c.call_tool("save_plan", {"plan": broken_plan, "request": broken_req})
        text = block_text(r.content[0])
        expect(r.is_error is True and text.startswith("Plan not saved."), "the broken plan is refused")
        say("refused (tool error): " + text.replace(" | ", "\n  | "), 3)
        expect(list(store.iterdir()) == [], "nothing was written")
        say("store still empty", 3)

        step(5, "save_plan: calm-weekday")
        s = (await c.call_tool("save_plan", {"plan": calm_plan, "request": calm_req})).structured_content
        expect(s["saved"] is True, "the valid plan is saved")
        say(f"saved: {s['saved']}; planId {s['planId']}; uri {s['uri']}; {plural(len(s['warnings']), 'warning')}", 3)
        say(f"store now holds: {', '.join(sorted(p.name for p in store.iterdir()))}", 3)

        step(6, "save_plan: calm-weekday again (the server asks before replacing it)")
        s2 = (await c.call_tool("save_plan", {"plan": calm_plan, "request": calm_req})).structured_content
        expect(len(questions) == 1 and s2["saved"] is True, "the overwrite question was asked and the plan replaced")
        say(f"saved: {s2['saved']} (replaced)", 3)

        step(7, f"resources: list, then read {s['uri']}")
        listed = (await c.list_resources()).resources
        for res in listed:
            say(f"{res.uri}  {res.name}  {res.mime_type or ''}", 3)
        read = await c.read_resource(s["uri"])
        body = resource_text(read.contents[0])
        expect(json.loads(body) == calm_plan, "the plan reads back unchanged")
        say(f"read back {len(body):,} characters, same plan: {json.loads(body) == calm_plan}", 3)
        quote(body, 6)

        step(8, "prompts/get draft_plan (what a host hands the model)")
        prompt = await c.get_prompt("draft_plan", {"request_json": json.dumps(calm_req)})
        msg = block_text(prompt.messages[0].content)
        say(f"{len(prompt.messages)} message(s), role {prompt.messages[0].role}, {len(msg):,} characters:", 3)
        quote(msg, 12)

        others = [n for n in example_names() if n not in ("calm-weekday", "calm-weekday-broken")]
        step(9, "the other bundled examples: " + ", ".join(others))
        for name in others:
            plan, request = example(name)
            v = (await c.call_tool("validate_plan", {"plan": plan, "request": request})).structured_content
            line = f"{name}: valid {v['valid']}, {plural(len(v['errors']), 'error')}, {plural(len(v['warnings']), 'warning')}"
            if v["valid"]:
                sv = (await c.call_tool("save_plan", {"plan": plan, "request": request})).structured_content
                line += f"; saved as {sv['uri']}"
            say(line, 3)
            issues(v["errors"])
        say("store: " + ", ".join(sorted(p.name for p in store.iterdir())), 3)
    print()
    say(f"done in {time.perf_counter() - t0:.2f} s; the session ended and the sandbox exited.")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, help="plan store directory (default: a fresh temporary one)")
    ap.add_argument("--mode", default="auto", choices=["auto", "legacy", "2026-07-28"], help="the SDK client's protocol mode")
    a = ap.parse_args()
    for p in (RUNNER, WASM):
        if not p.is_file():
            print(f"demo: missing {p}; run scripts/demo, which builds it", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="momentum-plan-demo-") as tmp:
        store = a.store or Path(tmp) / "plans"
        store.mkdir(parents=True, exist_ok=True)
        if any(store.iterdir()):
            print(f"demo: the store {store} is not empty; give an empty directory", file=sys.stderr)
            return 2
        try:
            asyncio.run(demo(store.resolve(), a.mode))
        except Fail as e:
            print(f"\ndemo: FAILED: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
