"""PlanStream (validator.md §10) through the binding, on every shared vector: each settled issue is
in the verdict of the whole text, and finish() is validate_plan of the text; random chunkings of
str and of bytes (split inside UTF-8 sequences); the helpers; the errors."""

from __future__ import annotations

import asyncio
import random
from typing import AsyncIterator, List, get_args

import pytest

import momentum_plan
from conftest import VECTOR_LIST, compact
from momentum_plan import PlanStream, astream_plan, stream_plan


def vectors() -> list:
    return VECTOR_LIST


def plan_text(vector: dict) -> str:
    """A string plan as it is; an object plan as its compact JSON (the text pushed and judged)."""
    plan = vector["plan"]
    return plan if isinstance(plan, str) else compact(plan)


def chunks(data, rng: random.Random) -> List:
    out, i = [], 0
    while i < len(data):
        n = rng.randint(1, 64)
        out.append(data[i : i + n])
        i += n
    return out


def test_every_vector_in_random_chunks_settles_only_issues_of_its_verdict() -> None:
    rng = random.Random(31)
    count = settled_total = warnings_total = 0
    for v in vectors():
        text = plan_text(v)
        want = momentum_plan.validate_plan(text.encode(), v["request"])
        issues = want["errors"] + want["warnings"]
        for data in (text, text.encode()):  # bytes chunks split inside UTF-8 sequences too
            s = PlanStream(v["request"])
            settled = [i for c in chunks(data, rng) for i in s.push(c)]
            # §10: what settles is in the verdict of every JSON completion; a text that is not JSON
            # itself (cut short, say) is no completion, and after a repeated name only finish counts.
            if not s.repeated_name and all(e["code"] != "json" for e in want["errors"]):
                assert all(i in issues for i in settled), (v["id"], settled)
                # is_warning tells a settled warning from an error, as the verdict will list it.
                assert all(momentum_plan.is_warning(i["code"]) == (i in want["warnings"]) for i in settled), v["id"]
                warnings_total += sum(1 for i in settled if i in want["warnings"])
            assert s.finish() == want, v["id"]
            settled_total += len(settled)
        count += 1
    assert count >= 5000 and settled_total > 1000 and warnings_total > 100, (count, settled_total, warnings_total)


def test_is_warning_is_the_cores_rule() -> None:
    """Every code of the registry (the generated IssueCode type) is a warning or not as the core's
    verdicts list it; a string that is no code is not a warning."""
    codes = [c for literal in get_args(momentum_plan.IssueCode) for c in get_args(literal)]
    warnings = {c for c in codes if momentum_plan.is_warning(c)}
    assert warnings and warnings < set(codes), warnings
    assert momentum_plan.is_warning("overnight") and not momentum_plan.is_warning("overlap")
    assert not momentum_plan.is_warning("no such code") and not momentum_plan.is_warning("")


def test_the_helpers_yield_what_push_settles() -> None:
    v = next(v for v in vectors() if not momentum_plan.validate_plan(plan_text(v), v["request"])["valid"])
    text = plan_text(v)
    parts = [text[i : i + 16] for i in range(0, len(text), 16)]
    a = PlanStream(v["request"])
    want = [i for p in parts for i in a.push(p)]
    b = PlanStream(v["request"])
    assert list(stream_plan(b, iter(parts))) == want
    assert b.finish() == a.finish()

    async def source() -> AsyncIterator[str]:
        for p in parts:
            yield p

    async def collect() -> list:
        c = PlanStream(v["request"])
        return [i async for i in astream_plan(c, source())]

    assert asyncio.run(collect()) == want


def test_bad_calls_raise_clear_errors() -> None:
    s = PlanStream({"requestId": "r1", "kind": "routine"})
    with pytest.raises(TypeError, match="str, bytes or bytearray, not int"):
        s.push(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lone surrogate"):
        s.push("\ud800")
    assert len(s) == 0
    s.push('{"format": 1')
    verdict = s.finish()
    assert not verdict["valid"] and verdict["errors"][0]["code"] == "json"
    with pytest.raises(ValueError, match="already given the verdict"):
        s.push("}")
    with pytest.raises(ValueError, match="already given the verdict"):
        s.finish()
    with pytest.raises(ValueError, match="request is not JSON"):
        PlanStream("{")
