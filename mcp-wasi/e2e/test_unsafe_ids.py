"""(4) Plan ids that could not be safe file names are refused, and nothing is written outside the store.

Spec (mcp-server.md, Catalog): the plan id is its ``requestId``; an id outside
``[A-Za-z0-9][A-Za-z0-9._-]{0,127}`` is refused as a tool error, never used as a path.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from mcp.client import Client

from sandbox_env import RawSession, block_text, core_verdict, example, files_under, runner_args, server_params

UNSAFE = ["../x", "/abs", "a/b", "", "x" * 200, "..", ".x", "a\\b", "-x", "x" * 129, "é", "a b", "x\u0000y"]
SAFE_EDGES = ["x" * 128, "A", "0.9_x-Y"]


def with_id(plan: dict, request: dict, new_id: str) -> tuple[dict, dict]:
    """The calm plan and request with requestId replaced in the request, the plan's requestId and
    the plan's echo of the request."""
    p = json.loads(json.dumps(plan))
    r = dict(request, requestId=new_id)
    p["requestId"] = new_id
    if isinstance(p.get("request"), dict):
        p["request"]["requestId"] = new_id
    return p, r


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p: (root / p).read_bytes() for p in files_under(root)}


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_unsafe_ids_refused(mode: str, store: Path, cache_dir: Path) -> None:
    base_plan, base_req = example("calm-weekday")
    outer = store.parent.parent  # <tmp>/outer/plans -> <tmp>: everything the test owns
    (outer / "sentinel.json").write_text("{}")
    before = snapshot(outer)
    cwd_before = set(os.listdir(Path.cwd()))

    async def session() -> None:
        async with Client(server_params(store, cache_dir), mode=mode) as c:  # type: ignore[arg-type]
            for bad in UNSAFE:
                plan, request = with_id(base_plan, base_req, bad)
                r = await c.call_tool("save_plan", {"plan": plan, "request": request})
                assert r.is_error is True, (bad, r)
                assert len(r.content) == 1, bad
                text = block_text(r.content[0])
                if core_verdict(plan, request)["valid"]:
                    assert "requestId" in text, (bad, text)
                else:
                    assert text.startswith("Plan not saved."), bad
                assert snapshot(outer) == before, f"{bad!r} wrote something"
            for good in SAFE_EDGES:
                plan, request = with_id(base_plan, base_req, good)
                assert core_verdict(plan, request)["valid"] is True
                r = await c.call_tool("save_plan", {"plan": plan, "request": request})
                assert r.is_error is False and r.structured_content["saved"] is True, good
                assert (store / f"{good}.json").is_file()

    asyncio.run(session())
    assert set(os.listdir(Path.cwd())) == cwd_before
    assert files_under(store) == {Path(f"{g}.json") for g in SAFE_EDGES}
    assert {p for p in files_under(outer) if not str(p).startswith("outer/plans/")} == {Path("sentinel.json")}
    assert not Path("/abs.json").exists()


def test_unsafe_resource_uris_not_found(store: Path, cache_dir: Path) -> None:
    """resources/read of an unsafe id is 'Resource not found', even when such a file exists outside."""
    (store.parent / "x.json").write_text('{"secret": true}')
    (store / "notes.txt").write_text("not a plan")
    (store / ".hidden.json").write_text("{}")
    with RawSession(runner_args(store, cache_dir)) as s:
        s.initialize()
        for i, uri in enumerate(["plan://../x", "plan:///abs", "plan://a/b", "plan://", "plan://" + "x" * 200, "plan://notes.txt", "plan://.hidden"]):
            reply = s.request(i + 1, "resources/read", {"uri": uri})
            assert reply["error"]["code"] == -32002, (uri, reply)
            assert reply["error"]["message"] == "Resource not found"
            assert reply["error"]["data"] == {"uri": uri}
        listed = s.request(99, "resources/list", {})
        assert listed["result"]["resources"] == [], "only <safe id>.json files are plans"
        assert s.close() == 0
