"""The example server's MCP Apps plan view (mcp-server.md "The plan view in the conversation"),
through the official SDK's ``Client`` in process, in both modes (2026-07-28 and the 2025-11-25
handshake): ``validate_plan`` and ``repair_plan`` link the view; a client that declares the
extension ``io.modelcontextprotocol/ui`` with ``text/html;profile=mcp-app`` reads it, byte for byte
the file the WASI and Node servers serve; a client that does not gets "Resource not found"; the
view is not listed in ``resources/list``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp.shared.exceptions import MCPError

from conftest import HERE, ROOT

sys.path.insert(0, str(HERE.parent / "examples"))
import momentum_planner  # noqa: E402

VIEW_URI = "ui://momentum-planner/plan-view"
VIEW_HTML = (ROOT / "bindings-wasm" / "www" / "view" / "plan-view.html").read_text(encoding="utf-8")
MODES = ["auto", "legacy"]


def apps() -> list:
    return [advertise("io.modelcontextprotocol/ui", {"mimeTypes": ["text/html;profile=mcp-app"]})]


async def declaring(mode: str, store: Path) -> None:
    server = momentum_planner.build_server(store)
    async with Client(server, mode=mode, extensions=apps()) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        links = {name: (t.meta or {}).get("ui", {}).get("resourceUri") for name, t in tools.items()}
        assert links == {
            "get_plan_contract": None,
            "validate_plan": VIEW_URI,
            "repair_plan": VIEW_URI,
            "get_plan_schema": None,
            "export_calendar": None,
            "import_commitments": None,
            "save_plan": None,
        }
        result = await client.read_resource(VIEW_URI)
        assert len(result.contents) == 1
        contents = result.contents[0]
        assert contents.mime_type == "text/html;profile=mcp-app"
        assert contents.text == VIEW_HTML
        assert contents.meta == {"ui": {"prefersBorder": True}}
        listed = [str(r.uri) for r in (await client.list_resources()).resources]
        assert VIEW_URI not in listed


async def not_declaring(mode: str, store: Path) -> None:
    server = momentum_planner.build_server(store)
    for extensions in (None, [advertise("io.modelcontextprotocol/ui", {"mimeTypes": ["text/html"]})]):
        async with Client(server, mode=mode, extensions=extensions) as client:
            with pytest.raises(MCPError) as e:
                await client.read_resource(VIEW_URI)
            assert "Resource not found" in str(e.value)


@pytest.mark.parametrize("mode", MODES)
def test_a_client_declaring_the_extension_reads_the_view(mode: str, tmp_path: Path) -> None:
    asyncio.run(declaring(mode, tmp_path))


@pytest.mark.parametrize("mode", MODES)
def test_a_client_without_it_cannot_read_the_view(mode: str, tmp_path: Path) -> None:
    asyncio.run(not_declaring(mode, tmp_path))
