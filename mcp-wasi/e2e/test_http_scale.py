"""Scale-out: two runner processes on two loopback ports sharing one plan store.

The HTTP server is stateless in both eras (spec: "Streamable HTTP"), so any instance can answer any
request: a save on A is listed and read on B; the overwrite question (2026-07-28 ``input_required``)
asked by A can be answered in a retry sent to B; and concurrent saves of one id through both leave
exactly one complete plan (each save is one atomic rename) and no temporary files.

Raw 2026-07-28 POSTs: ``MCP-Protocol-Version: 2026-07-28``, ``Mcp-Method``, ``Mcp-Name`` and the
``_meta`` envelope (``http_env.modern``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from http_env import (
    ACCEPT_OVERWRITE,
    ELICITATION,
    HttpRunner,
    modern,
    save_args,
    temp_files,
    tool_result,
)
from sandbox_env import args_text, core_verdict, core_verdicts, example


@pytest.fixture
def pair(store: Path, cache_dir: Path) -> Iterator[tuple[HttpRunner, HttpRunner]]:
    """Two runners (A, B) on two ports, one store."""
    with HttpRunner(store=store, cache_dir=cache_dir) as a, HttpRunner(store=store, cache_dir=cache_dir) as b:
        assert a.port != b.port
        yield a, b
        assert a.alive() and b.alive(), a.stderr() + b.stderr()


def listed(r: HttpRunner, era: str) -> list[str]:
    reply = r.modern("resources/list") if era == "modern" else r.classic("resources/list")
    assert reply.status == 200, reply
    return [x["uri"] for x in reply.result["resources"]]


def read_text(r: HttpRunner, uri: str, era: str) -> str:
    reply = r.modern("resources/read", {"uri": uri}) if era == "modern" else r.classic("resources/read", {"uri": uri})
    assert reply.status == 200, reply
    contents = reply.result["contents"]
    assert len(contents) == 1 and contents[0]["uri"] == uri and contents[0]["mimeType"] == "application/json"
    return str(contents[0]["text"])


def test_save_on_a_read_on_b(pair: tuple[HttpRunner, HttpRunner], store: Path) -> None:
    a, b = pair
    plan, req = example("calm-weekday")
    verdict = core_verdict(plan, req)
    plan_id = req["requestId"]
    uri = f"plan://{plan_id}"
    assert listed(b, "modern") == [] and listed(a, "classic") == []

    saved = tool_result(a.modern("tools/call", save_args(plan, req)))
    assert saved == {"saved": True, "planId": plan_id, "uri": uri, "warnings": verdict["warnings"]}
    on_disk = (store / f"{plan_id}.json").read_text(encoding="utf-8")

    for era in ("modern", "classic"):
        assert listed(b, era) == [uri]
        assert read_text(b, uri, era) == on_disk
        assert json.loads(read_text(a, uri, era)) == plan
    # resources/list and resources/read change with every save: no caching across instances.
    reply = b.modern("resources/list")
    assert (reply.result["ttlMs"], reply.result["cacheScope"]) == (0, "private")


def test_question_on_a_answer_on_b(pair: tuple[HttpRunner, HttpRunner], store: Path) -> None:
    """input_required asked by A; the retry with inputResponses.overwrite goes to B: saved."""
    a, b = pair
    plan, req = example("calm-weekday")
    plan_id = req["requestId"]
    uri = f"plan://{plan_id}"
    path = store / f"{plan_id}.json"
    assert tool_result(b.modern("tools/call", save_args(plan, req)))["saved"] is True
    before = path.read_bytes()

    changed = dict(plan, tagline="Saved on one instance, confirmed on the other.")
    changed_verdict = core_verdict(changed, req)
    asked = a.modern("tools/call", save_args(changed, req), capabilities=ELICITATION)
    assert asked.status == 200, asked
    r = asked.result
    assert r["resultType"] == "input_required", r
    assert "requestState" not in r, "the question carries no state: any instance can take the retry"
    assert list(r["inputRequests"]) == ["overwrite"]
    question = r["inputRequests"]["overwrite"]
    assert question["method"] == "elicitation/create"
    schema = question["params"]["requestedSchema"]
    assert schema["properties"]["overwrite"]["type"] == "boolean" and schema["required"] == ["overwrite"]
    assert question["params"].get("mode", "form") == "form" and question["params"]["message"]
    assert r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "momentum-planner"
    assert path.read_bytes() == before, "nothing written while the question is open"

    # A retry on B without the answer under its key is asked again; a declined one leaves the
    # plan; the accepted one replaces it.
    again = save_args(changed, req)
    again["inputResponses"] = {"unrelated": ACCEPT_OVERWRITE}
    reasked = b.modern("tools/call", again, capabilities=ELICITATION).result
    assert reasked["resultType"] == "input_required" and list(reasked["inputRequests"]) == ["overwrite"], reasked
    assert path.read_bytes() == before

    declined = tool_result(b.modern("tools/call", save_args(changed, req, {"action": "decline"}), capabilities=ELICITATION))
    assert declined["saved"] is False and declined["warnings"][-1]["code"] == "notSaved"
    assert path.read_bytes() == before

    done = b.modern("tools/call", save_args(changed, req, ACCEPT_OVERWRITE), capabilities=ELICITATION)
    assert done.result["resultType"] == "complete"
    assert tool_result(done) == {"saved": True, "planId": plan_id, "uri": uri, "warnings": changed_verdict["warnings"]}
    for r_ in (b, a):
        assert json.loads(read_text(r_, uri, "modern")) == changed
        assert json.loads(read_text(r_, uri, "classic")) == changed
    assert temp_files(store) == []


def test_concurrent_saves_of_one_id(pair: tuple[HttpRunner, HttpRunner], store: Path) -> None:
    """2 threads x 50 confirmed saves of one id, alternating instances, all plans different."""
    a, b = pair
    plan, req = example("calm-weekday")
    plan_id = req["requestId"]
    # Plans of different sizes, so a torn or interleaved write could not pass for one of them.
    plans = {
        (t, i): dict(plan, description=f"Concurrent save {t}-{i}: " + "x" * (17 * i + 5 * t)) for t in range(2) for i in range(50)
    }
    # Every variant is valid (the core says so), so every confirmed save writes.
    verdicts = [json.loads(v) for v in core_verdicts([args_text(p, req) for p in plans.values()])]
    assert all(v["valid"] for v in verdicts)
    sent = [json.dumps(p, ensure_ascii=False) for p in plans.values()]
    results: dict[tuple[int, int], Any] = {}
    errors: list[BaseException] = []

    def worker(t: int) -> None:
        conns = [a.connection(30), b.connection(30)]  # keep-alive, one per instance
        try:
            for i in range(50):
                conn = conns[(i + t) % 2]
                reply = modern(conn, "tools/call", save_args(plans[(t, i)], req, ACCEPT_OVERWRITE), capabilities=ELICITATION)
                results[(t, i)] = tool_result(reply)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)
        finally:
            for c in conns:
                c.close()

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not any(th.is_alive() for th in threads), "saves did not finish within 120 s"
    assert errors == [], errors
    assert len(results) == 100
    for key, r in results.items():
        assert r["saved"] is True and r["planId"] == plan_id, (key, r)

    assert sorted(p.name for p in store.iterdir()) == [f"{plan_id}.json"], "exactly one file, no temporary files"
    text = (store / f"{plan_id}.json").read_text(encoding="utf-8")
    final = json.loads(text)  # complete and parseable
    assert json.dumps(final, ensure_ascii=False) in sent, "the file is one of the plans sent, whole"
    assert final in list(plans.values())
    for r_ in (a, b):
        assert read_text(r_, f"plan://{plan_id}", "modern") == text
