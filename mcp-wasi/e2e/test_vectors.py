"""(7) Every shared vector through ``validate_plan`` over stdio, in one sandboxed session.

Each vector's ``plan`` and ``request`` are passed on as their raw JSON text (number literals kept).
The same ``{"plan", "request"}`` text goes to the core's line driver (``validate --lines``); the
server's ``structuredContent`` must equal the core's verdict exactly (key order, messages
included), its text block must hold the same JSON, and the verdict must meet the vector's
``expect``. The session runs every vector in the classic era (after ``initialize``) and again in
the stateless era (2026-07-28 ``_meta`` on each request), interleaved on one process.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from sandbox_env import RawSession, core_repairs, core_verdicts, modern_meta, ordered, raw_members, runner_args, vector_files, vector_lines


def load_vectors() -> list[tuple[str, str, dict[str, Any]]]:
    """(id, arguments text, expect) for every line of every vector file."""
    out = []
    for f in vector_files():
        for line in vector_lines(f):
            raw = raw_members(line)
            args = '{"plan":' + raw["plan"] + ',"request":' + raw["request"] + "}"
            out.append((json.loads(raw["id"]), args, json.loads(raw["expect"])))
    return out


def meets_expectation(verdict: dict[str, Any], expect: dict[str, Any]) -> bool:
    pairs = lambda issues: [(i["code"], i["path"]) for i in issues]  # noqa: E731
    return (
        verdict["valid"] == expect["valid"]
        and pairs(verdict["errors"]) == pairs(expect["errors"])
        and pairs(verdict["warnings"]) == pairs(expect["warnings"])
        and verdict["checks"] == expect["checks"]
    )


def test_all_vectors_one_session(cache_dir: Path) -> None:
    vectors = load_vectors()
    assert len(vectors) == 5818, "the shared set has 5,818 vectors"
    core = core_verdicts([args for _, args, _ in vectors])
    meta = json.dumps(modern_meta(), separators=(",", ":"))

    with RawSession(runner_args(None, cache_dir), timeout=120) as s:
        s.initialize()

        def writer() -> None:
            for era in ("classic", "modern"):
                for n, (_, args, _) in enumerate(vectors):
                    rid = n if era == "classic" else f"m{n}"
                    extra = ',"_meta":' + meta if era == "modern" else ""
                    s.send_text(
                        '{"jsonrpc":"2.0","id":'
                        + json.dumps(rid)
                        + ',"method":"tools/call","params":{"name":"validate_plan","arguments":'
                        + args
                        + extra
                        + "}}"
                    )

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        mismatches: list[str] = []
        for k in range(2 * len(vectors)):
            line = s.recv_text()
            assert line is not None, f"server ended early; stderr: {s.stderr()[-2000:]}"
            reply = json.loads(line)
            n = k if k < len(vectors) else k - len(vectors)
            vid, _, expect = vectors[n]
            want_id = n if k < len(vectors) else f"m{n}"
            assert reply.get("id") == want_id, (vid, reply)
            result = reply.get("result")
            if result is None or result.get("isError") is not False:
                mismatches.append(f"{vid}: not a verdict: {line[:300]}")
                continue
            structured = ordered(line)
            # Pull structuredContent out of the order-preserving parse.
            res = dict(dict(structured)["result"])
            if res["structuredContent"] != ordered(core[n]):
                mismatches.append(f"{vid}: structuredContent {json.dumps(result['structuredContent'])[:300]} != core {core[n][:300]}")
            elif ordered(result["content"][0]["text"]) != ordered(core[n]) or len(result["content"]) != 1:
                mismatches.append(f"{vid}: text block differs from the verdict")
            elif not meets_expectation(result["structuredContent"], expect):
                mismatches.append(f"{vid}: verdict does not meet the vector's expect")
            if k >= len(vectors) and "resultType" not in result:
                mismatches.append(f"{vid}: modern result without resultType")
        t.join(timeout=60)
        assert s.close() == 0
    assert mismatches == [], f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:10])


def test_repair_and_schema_on_a_sample_of_vectors(cache_dir: Path) -> None:
    """Every 10th vector through ``repair_plan`` (safe fixes; every 40th with ``unsafe: true`` too)
    and its request through ``get_plan_schema`` (both variants), in one sandboxed session: each
    text block is byte for byte the core's line driver (``repair --lines``, ``repair --schema
    --lines``) on the same raw text. The full set runs natively in tests/mcp/repair.rs."""
    vectors = load_vectors()[::10]
    calls: list[tuple[str, str, str]] = []  # (tool, arguments text, driver line)
    for n, (_, args, _) in enumerate(vectors):
        calls.append(("repair_plan", args, args))
        if n % 4 == 0:
            unsafe = args[:-1] + ',"unsafe":true}'
            calls.append(("repair_plan", unsafe, unsafe))
        request = raw_members(args)["request"]
        for variant in ("validation", "strict"):
            line = '{"request":' + request + ',"variant":"' + variant + '"}'
            calls.append(("get_plan_schema", line, line))
    repairs = core_repairs([c[2] for c in calls if c[0] == "repair_plan"])
    schemas = core_repairs([c[2] for c in calls if c[0] == "get_plan_schema"], schema=True)
    expected = iter(repairs), iter(schemas)
    mismatches: list[str] = []
    with RawSession(runner_args(None, cache_dir), timeout=120) as s:
        s.initialize()

        def writer() -> None:
            for n, (tool, args, _) in enumerate(calls):
                s.send_text(
                    '{"jsonrpc":"2.0","id":' + str(n) + ',"method":"tools/call","params":{"name":"' + tool
                    + '","arguments":' + args + "}}"
                )

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        for n, (tool, args, _) in enumerate(calls):
            line = s.recv_text()
            assert line is not None, f"server ended early; stderr: {s.stderr()[-2000:]}"
            reply = json.loads(line)
            assert reply.get("id") == n, reply
            want = next(expected[0] if tool == "repair_plan" else expected[1])
            result = reply["result"]
            error = json.loads(want).get("error") if tool == "get_plan_schema" and want.startswith('{"error"') else None
            if error is not None:
                ok = result["isError"] is True and result["content"][0]["text"] == error
            else:
                ok = (
                    result["isError"] is False
                    and len(result["content"]) == 1
                    and result["content"][0]["text"] == want
                    and '"structuredContent":' + want in line
                )
            if not ok:
                mismatches.append(f"{tool} {args[:200]}: {line[:300]} != {want[:300]}")
        t.join(timeout=60)
        assert s.close() == 0
    assert mismatches == [], f"{len(mismatches)} of {len(calls)} mismatches, first: " + "\n".join(mismatches[:5])
