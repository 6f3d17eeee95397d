"""(3) A read-only run (no ``--store``): ``save_plan`` and the ``plan://`` resource are absent.

Spec (mcp-server.md, "Sandbox and store"): without the store, ``save_plan`` is an unknown tool,
``resources/*`` get -32601, the capabilities have no ``resources`` and the instructions do not
mention saving.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from sandbox_env import TOOLS, RawSession, example, modern_meta, runner_args, server_params


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_sdk_sees_no_save(mode: str, cache_dir: Path) -> None:
    plan, request = example("calm-weekday")

    async def session() -> None:
        async with Client(server_params(None, cache_dir), mode=mode) as c:  # type: ignore[arg-type]
            names = [t.name for t in (await c.list_tools()).tools]
            assert names == [n for n in TOOLS if n != "save_plan"]
            caps = c.server_capabilities
            assert caps is not None and caps.resources is None and caps.tools is not None and caps.prompts is not None
            assert c.instructions and "save" not in c.instructions.lower()
            assert "repair_plan" in c.instructions
            r = await c.call_tool("validate_plan", {"plan": plan, "request": request})
            assert r.is_error is False and r.structured_content["valid"] is True
            with pytest.raises(MCPError) as err:
                await c.call_tool("save_plan", {"plan": plan, "request": request})
            assert err.value.code == -32602 and "Unknown tool: save_plan" in err.value.message

    asyncio.run(session())


def test_with_store_instructions_mention_saving(store: Path, cache_dir: Path) -> None:
    async def session() -> None:
        async with Client(server_params(store, cache_dir), mode="legacy") as c:  # type: ignore[arg-type]
            assert c.instructions and "save" in c.instructions.lower()
            assert c.server_capabilities is not None and c.server_capabilities.resources is not None

    asyncio.run(session())


RESOURCE_METHODS = [
    ("resources/list", {}),
    ("resources/templates/list", {}),
    ("resources/read", {"uri": "plan://req-2026-10-05-calm-weekday"}),
]


def test_raw_resources_are_method_not_found(cache_dir: Path) -> None:
    """Both eras, raw lines: every resources/* method is -32601 without a store."""
    with RawSession(runner_args(None, cache_dir)) as s:
        # Stateless era first (a modern request may be the first line).
        d = s.request(1, "server/discover", {"_meta": modern_meta()})
        assert "resources" not in d["result"]["capabilities"]
        for i, (method, params) in enumerate(RESOURCE_METHODS, start=10):
            reply = s.request(i, method, dict(params, _meta=modern_meta()))
            assert reply["id"] == i and reply["error"]["code"] == -32601, reply
        init = s.initialize()
        assert "resources" not in init["result"]["capabilities"]
        for i, (method, params) in enumerate(RESOURCE_METHODS, start=20):
            reply = s.request(i, method, params)
            assert reply["id"] == i and reply["error"]["code"] == -32601, reply
        assert s.close() == 0
