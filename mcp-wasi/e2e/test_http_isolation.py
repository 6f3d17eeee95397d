"""Isolation between requests on one pool slot (issue 30, "Isolation stays proven"): the canary.

The guest is the test-only component ``momentum-plan-sandbox-canary.wasm``
(``mcp-wasi/sandbox/tests/canary``, built by ``mcp-wasi/sandbox/test.sh``; path:
``MOMENTUM_PLAN_SANDBOX_CANARY_WASM``, default in the target directory). Each request, it answers
the 32-bit words it reads at three fixed addresses of its linear memory, and then writes a canary
at each: one in the initial memory (inside the prefix the runner keeps resident and resets in
place), one in a page it grows itself inside that prefix, one in a page it grows far beyond it
(which the reset gives back to the kernel). Neither its allocator nor its data image owns them.

The runner serves it with ``--max-concurrency 1``: one instance at a time, from a pool of 1
instance and 2 memory slots (``MEMORIES_PER_COMPONENT``), so with more requests than memory
slots at least one request runs in a slot an earlier one wrote its canaries into (and wasmtime
gives a module the slot it used last, so in practice every request after the first does). Each
request must read zeros at every address, and find the memory at its initial size: a canary, or a
memory still grown, is what the previous request left behind.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from http_env import HttpRunner, request
from sandbox_env import TARGET, _path

CANARY_WASM = _path(
    "MOMENTUM_PLAN_SANDBOX_CANARY_WASM", TARGET / "wasm32-wasip2" / "release" / "momentum-plan-sandbox-canary.wasm"
)

#: The guest's addresses (``ADDRESSES`` of ``mcp-wasi/sandbox/tests/canary/src/main.rs``).
ADDRESSES = [32 << 10, (7 << 18) + 256, (8 << 20) + 256]
#: The guest's initial memory in 64 KiB pages (1.25 MiB, its ``build.rs``).
INITIAL_PAGES = 20
#: More requests than the pool has memory slots (2 for ``--max-concurrency 1``).
REQUESTS = 4


@pytest.fixture
def canary_runner(cache_dir: Path) -> Iterator[HttpRunner]:
    if not CANARY_WASM.is_file():
        pytest.fail(
            f"missing {CANARY_WASM} (cargo build --release --target wasm32-wasip2 -p momentum-plan-sandbox-canary; "
            "mcp-wasi/sandbox/test.sh builds it)",
            pytrace=False,
        )
    extra = ["--wasm", str(CANARY_WASM), "--max-concurrency", "1", "--verbose"]
    with HttpRunner(cache_dir=cache_dir, extra=extra) as r:
        yield r
        assert r.alive(), f"the runner died during the test:\n{r.stderr()}"


def test_a_reused_slot_reads_zeros_where_the_previous_request_wrote(canary_runner: HttpRunner) -> None:
    answers = []
    for n in range(REQUESTS):
        # GET and POST alike: the guest answers every request the same way.
        reply = request(canary_runner, "POST" if n % 2 else "GET", "/anything", b"{}" if n % 2 else None)
        assert reply.status == 200, f"request {n + 1}: {reply}\n{canary_runner.stderr()}"
        answers.append(json.loads(reply.body))
    for n, answer in enumerate(answers, 1):
        assert answer == {"pages": INITIAL_PAGES, "words": [[a, 0] for a in ADDRESSES]}, (
            f"request {n} of {REQUESTS} saw what an earlier request left in its slot "
            f"(canaries are 0xC0FFEE01.., one per address): {answers}"
        )
    # Every instance grew its memory itself (one memory.grow to cover the far address), and so
    # wrote where the reset then had to clear: the test did exercise the grown pages.
    ended = [ln for ln in canary_runner.stderr().splitlines() if "instance ended after" in ln]
    assert ended == ["momentum-plan-sandbox: instance ended after 1 memory.grow(s)"] * REQUESTS, canary_runner.stderr()
