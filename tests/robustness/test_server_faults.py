"""Robustness of the sandboxed WASI server under load and faults (issue 7), through the real
runner (`momentum-plan-sandbox`) and `.wasm`:

* 100,000 `validate_plan` calls in one session: the runner's memory stays flat;
* a session killed (SIGKILL) in the middle of a large save leaves the old or the new plan, never a
  partial file, and no stray temporary file is ever listed or served as a plan;
* concurrent sessions on one store saving the same id end with one complete plan.

Requests use the stateless 2026-07-28 form (`_meta` per request; the overwrite question answered in
advance through `inputResponses`), so a single line triggers a write."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
RUNNER = TARGET / "release" / "momentum-plan-sandbox"
WASM = TARGET / "wasm32-wasip2" / "release" / "momentum-plan-mcp.wasm"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
}
ACCEPT = {"overwrite": {"action": "accept", "content": {"overwrite": True}}}

pytestmark = pytest.mark.skipif(not (RUNNER.exists() and WASM.exists()), reason="runner or .wasm not built")


def example(name: str):
    return json.loads((ROOT / "examples" / name).read_text())


def start(store: Path | None, cache: Path) -> subprocess.Popen:
    cmd = [str(RUNNER), "--wasm", str(WASM), "--cache-dir", str(cache)]
    if store is not None:
        cmd += ["--store", str(store)]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def call(id_: int, method: str, params: dict) -> bytes:
    params = {**params, "_meta": META}
    return (json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}) + "\n").encode()


def session(store: Path, cache: Path, lines: list[bytes]) -> list[dict]:
    """Runs one short session to its end and returns the responses."""
    p = start(store, cache)
    out, err = p.communicate(b"".join(lines), timeout=120)
    assert p.returncode == 0, err.decode()[-500:]
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def big_plan(letter: str) -> dict:
    plan = example("calm-weekday.plan.json")
    plan["requestId"] = "big-plan"
    plan["request"]["requestId"] = "big-plan"
    plan["notes"] = letter * 150_000  # unknown members are allowed; the plan stays valid
    return plan


def save_line(id_: int, plan: dict) -> bytes:
    return call(id_, "tools/call", {"name": "save_plan", "arguments": {"plan": plan, "request": plan["request"]},
                                   "inputResponses": ACCEPT})


def listed(store: Path, cache: Path) -> list[str]:
    res = session(store, cache, [call(1, "resources/list", {})])
    return [r["uri"] for r in res[0]["result"]["resources"]]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_memory_stays_flat_over_100000_validations(tmp_path):
    plan, request = example("calm-weekday.plan.json"), example("calm-weekday.request.json")
    n = 100_000
    p = start(None, tmp_path / "cache")
    line_of = lambda i: call(i, "tools/call", {"name": "validate_plan", "arguments": {"plan": plan, "request": request}})
    template = line_of(0)

    def feed():
        for i in range(1, n + 1):
            p.stdin.write(template.replace(b'"id": 0', b'"id": %d' % i, 1))
        p.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    samples = {}
    seen = 0
    for raw in p.stdout:
        msg = json.loads(raw)
        assert msg["result"]["structuredContent"]["valid"] is True
        seen += 1
        if seen % 10_000 == 0:
            samples[seen] = rss_kib(p.pid)
    assert p.wait(timeout=60) == 0
    assert seen == n
    growth = samples[n] - samples[20_000]
    print(f"RSS samples (KiB) every 10,000 calls: {samples}; growth after warm-up {growth} KiB")
    assert growth < 4 * 1024, f"memory grew by {growth} KiB between call 20,000 and call {n}: {samples}"


def test_a_save_killed_midway_leaves_the_old_or_the_new_plan(tmp_path):
    store, cache = tmp_path / "store", tmp_path / "cache"
    store.mkdir()
    first = session(store, cache, [save_line(1, big_plan("a"))])
    assert first[0]["result"]["structuredContent"]["saved"] is True
    rng = random.Random(7)
    kills = 0
    for round_ in range(25):
        letter = "b" if round_ % 2 == 0 else "a"
        p = start(store, cache)
        p.stdin.write(save_line(2, big_plan(letter)))
        p.stdin.flush()
        time.sleep(rng.uniform(0, 0.02))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            kills += 1
        p.wait(timeout=30)
        text = (store / "big-plan.json").read_text()
        saved = json.loads(text)  # never a partial file
        assert saved["notes"] in ("a" * 150_000, "b" * 150_000)
        assert saved["routine"] == big_plan("a")["routine"]
        assert listed(store, cache) == ["plan://big-plan"], "only complete plans are listed"
    assert kills > 0, "no save was interrupted; the test proved nothing"
    read = session(store, cache, [call(1, "resources/read", {"uri": "plan://big-plan"})])
    body = json.loads(read[0]["result"]["contents"][0]["text"])
    assert body["notes"] in ("a" * 150_000, "b" * 150_000)


def test_concurrent_sessions_saving_one_id_leave_one_complete_plan(tmp_path):
    store, cache = tmp_path / "store", tmp_path / "cache"
    store.mkdir()
    session(store, cache, [call(1, "tools/list", {})])  # warm the compile cache once
    for round_ in range(5):
        procs = []
        for k in range(4):
            p = start(store, cache)
            procs.append(p)
        for k, p in enumerate(procs):
            p.stdin.write(save_line(1, big_plan("abcd"[k])))
            p.stdin.close()
        for p in procs:
            out = p.stdout.read()
            assert p.wait(timeout=60) == 0
            res = json.loads(out.splitlines()[0])["result"]
            assert res["structuredContent"]["saved"] is True, res
        saved = json.loads((store / "big-plan.json").read_text())
        assert saved["notes"] in [c * 150_000 for c in "abcd"]
        assert listed(store, cache) == ["plan://big-plan"]
