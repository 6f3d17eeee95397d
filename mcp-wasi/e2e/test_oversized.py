"""A call over the 4 MiB stdio line limit through the official Python SDK client (issue 27 item 2).

The server skips the line and answers ``-32600`` (mcp-server.md "JSON-RPC hygiene") with the
request's id, read from the line as it is skipped, so the client's waiting call ends with that
error instead of hanging; the session then serves the next call. ``asyncio.wait_for(…, 10)`` is
only the hang guard. The TypeScript SDK client's case (which writes the id last) is in
``ts_sdk.test.mjs``; raw lines (an id inside ``params``, an oversized notification) below.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from sandbox_env import RawSession, core_verdict, example, runner_args, server_params

LIMIT = 4 * 1024 * 1024
SKIPPED = f"Invalid Request: the line is longer than {LIMIT} bytes and was skipped"


def huge_arguments(size: int = 5_000_000) -> dict[str, Any]:
    """validate_plan arguments whose plan text is about ``size`` bytes (a ``description`` filler)."""
    plan, request = example("calm-weekday")
    return {"plan": json.dumps(dict(plan, description="x" * size)), "request": request}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_5_mb_call_is_answered_and_the_session_goes_on(mode: str, cache_dir: Path) -> None:
    plan, request = example("calm-weekday")

    async def go() -> None:
        async with Client(server_params(None, cache_dir), mode=mode) as c:  # type: ignore[arg-type]
            t0 = time.monotonic()
            with pytest.raises(MCPError) as err:
                await asyncio.wait_for(c.call_tool("validate_plan", huge_arguments()), 10)
            assert err.value.error.code == -32600, err.value.error
            assert err.value.error.message == SKIPPED
            assert time.monotonic() - t0 < 10
            r = await asyncio.wait_for(c.call_tool("validate_plan", {"plan": plan, "request": request}), 10)
            assert r.is_error is False
            assert r.structured_content == core_verdict(plan, request)

    asyncio.run(go())


def test_raw_oversized_lines_answer_with_their_top_level_id(cache_dir: Path) -> None:
    filler = "y" * (LIMIT + 10)
    with RawSession(runner_args(None, cache_dir)) as s:
        s.initialize()
        # The id after params (the TypeScript SDK's order), with an "id" inside params first.
        s.send_text(
            '{"method":"tools/call","params":{"id":"inner","name":"validate_plan","arguments":{"plan":"'
            + filler
            + '","request":{}}},"jsonrpc":"2.0","id":"outer"}'
        )
        answer = s.recv(timeout=10)
        assert answer == {"jsonrpc": "2.0", "id": "outer", "error": {"code": -32600, "message": SKIPPED}}
        # A notification is never answered: the next answer is the one for the line after it.
        s.send_text('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"' + filler + '"}}')
        # No id to read: id null.
        s.send_text(filler)
        assert s.recv(timeout=10) == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": SKIPPED}}
        assert s.request(9, "ping") == {"jsonrpc": "2.0", "id": 9, "result": {}}
        assert s.close() == 0
