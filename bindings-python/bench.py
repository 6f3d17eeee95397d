"""Speed of momentum_plan.validate_plan beside Python's own JSON, in one run (a benchmark, not a test).

    python bench.py            # prints a Markdown table (µs per call, best of 15 runs)

Plans: the calm-weekday example (``examples/calm-weekday.plan.json`` and its request) and a large
valid routine made here (``routine.blocks`` and 7 weekday lists of 40 blocks each: 320 blocks).
Rows per plan: validating the plan as a ``dict``, as ``str`` text and as ``bytes``; the other way
to validate a ``dict`` (``json.dumps`` it, then validate the text); the floor, ``_native._walk``
(bench only, not API, not in the wheel: the very walk ``validate_plan`` does over a dict, reading
every value, building nothing); and, for scale, ``json.loads`` of the same text and ``json.dumps``
of the same dict. Goals (issue 12): ``validate_plan(dict)`` at most 0.5x ``json.dumps`` of the dict
and within 2x the floor; text below ``json.loads``. The text rows show their ratio to the floor
too: what a call costs that walks no dict at all (it still reads the request, runs the rules and
builds the verdict, none of which the floor does).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import subprocess
import timeit
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List, Tuple

import momentum_plan

ROOT = Path(__file__).resolve().parent.parent
CATEGORIES = ["mind", "body", "work", "rest", "social", "service", "learning", "craft", "nourish"]


def bench_native() -> ModuleType:
    """The native module built with the bench-only ``_walk`` (``build-bench-native.sh``: the wheel's
    code and build settings plus that one function), loaded as the top-level module ``_native``.
    Every ``validate_plan`` row calls this build too, so the floor ratio compares one build."""
    script = Path(__file__).resolve().parent / "build-bench-native.sh"
    path = subprocess.run([str(script)], check=True, capture_output=True, text=True).stdout.strip()
    spec = importlib.util.spec_from_file_location("_native", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def calm() -> Tuple[Dict[str, Any], Dict[str, Any]]:
    plan = json.loads((ROOT / "examples" / "calm-weekday.plan.json").read_text(encoding="utf-8"))
    request = json.loads((ROOT / "examples" / "calm-weekday.request.json").read_text(encoding="utf-8"))
    return plan, request


def large() -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """A valid routine: 8 lists (every day, and mon..sun) of 40 blocks of 35 minutes."""
    request = {
        "requestId": "req-bench-large",
        "requestVersion": 1,
        "kind": "routine",
        "goal": "A full week, every half hour or so.",
        "timezone": "Europe/Zurich",
        "commitments": [{"label": "Choir", "days": ["wed", "sat"], "start": "23:30", "end": "23:55"}],
    }

    def day(offset: int) -> List[Dict[str, Any]]:
        return [
            {
                "start": f"{(35 * i) // 60:02d}:{(35 * i) % 60:02d}",
                "durationMin": 35,
                "activity": f"Activity {(i + offset) % 36:02d}",
                "category": CATEGORIES[(i + offset) % len(CATEGORIES)],
                "essential": i % 3 == 0,
            }
            for i in range(40)
        ]

    plan = {
        "format": momentum_plan.FORMAT,
        "contractVersion": momentum_plan.CONTRACT_VERSION,
        "requestId": request["requestId"],
        "kind": "routine",
        "name": "A busy week",
        "tagline": "Forty blocks a day, every day.",
        "description": "A large plan for measuring the validator: every list holds the most blocks a day may have.",
        "routine": {
            "blocks": day(0),
            "weekdays": {d: day(n + 1) for n, d in enumerate(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])},
        },
        "request": request,
    }
    return plan, request


def timings(rows: List[Tuple[str, Callable[[], Any]]], repeat: int) -> List[float]:
    """µs per call of each row: the best of ``repeat`` runs. The rows take turns run by run, so a
    burst of load on this (shared) machine hits them alike and the ratios stay fair."""
    timers = [timeit.Timer(fn) for _, fn in rows]
    numbers = [max(t.autorange()[0], 1) for t in timers]
    best = [float("inf")] * len(rows)
    for _ in range(repeat):
        for i, (t, n) in enumerate(zip(timers, numbers)):
            best[i] = min(best[i], t.timeit(n) / n * 1e6)
    return best


def measure(
    native: ModuleType, name: str, plan: Dict[str, Any], request: Dict[str, Any], repeat: int
) -> List[Tuple[str, str, float]]:
    text = compact(plan)
    data = text.encode("utf-8")
    validate = native.validate_plan
    verdict = validate(plan, request)
    assert verdict == validate(text, request) == validate(data, request) == momentum_plan.validate_plan(plan, request)
    assert verdict["valid"], verdict["errors"][:3]
    rows: List[Tuple[str, Callable[[], Any]]] = [
        ("validate_plan(dict)", lambda: validate(plan, request)),
        ("validate_plan(str)", lambda: validate(text, request)),
        ("validate_plan(bytes)", lambda: validate(data, request)),
        ("validate_plan(json.dumps(dict))", lambda: validate(compact(plan), request)),
        ("_native._walk(dict) (floor)", lambda: native._walk(plan)),
        ("json.loads(str)", lambda: json.loads(text)),
        ("json.dumps(dict)", lambda: compact(plan)),
    ]
    label = f"{name} ({len(data):,} bytes)"
    return [(label, row, us) for (row, _), us in zip(rows, timings(rows, repeat))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15, help="timing runs per row (best is kept)")
    args = parser.parse_args()
    native = bench_native()
    results = measure(native, "calm-weekday", *calm(), args.repeat) + measure(native, "large", *large(), args.repeat)
    by = {(p, r): us for p, r, us in results}
    print(f"momentum_plan {momentum_plan.__version__}, CPython {platform.python_version()}, {platform.machine()}\n")
    print("| plan | call | µs per call | vs json | vs floor |")
    print("|---|---|---:|---:|---:|")
    for plan, row, us in results:
        if row in ("validate_plan(str)", "validate_plan(bytes)"):
            ratio = f"{us / by[(plan, 'json.loads(str)')]:.2f}× json.loads"
        elif row.startswith("validate_plan(dict") or row.startswith("validate_plan(json"):
            ratio = f"{us / by[(plan, 'json.dumps(dict)')]:.2f}× json.dumps"
        else:
            ratio = ""
        walked = row in ("validate_plan(dict)", "validate_plan(str)", "validate_plan(bytes)")
        floor = f"{us / by[(plan, '_native._walk(dict) (floor)')]:.2f}×" if walked else ""
        print(f"| {plan} | `{row}` | {us:,.1f} | {ratio} | {floor} |")


if __name__ == "__main__":
    main()
