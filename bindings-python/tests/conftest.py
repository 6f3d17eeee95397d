"""Shared fixtures: the project's paths, the shared test vectors, and the core's own verdicts.

The vectors are read at test time from ``$ROOT/../shared/vectors`` (never copied), through the
Python test kit (``tests/testkit.py``). The core's
verdicts come from its line driver (``cargo run --release -p momentum-plan --example validate --
--lines``), its repairs and schemas from ``--example repair`` (``repair --lines``, ``repair
--schema --lines``), built once into ``${CARGO_TARGET_DIR:-$ROOT/target}``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))

from testkit import EXAMPLES, ROOT, SHARED, VECTORS, compact, load_vectors  # noqa: E402, F401

VECTOR_LIST = load_vectors()


def core_driver(name: str = "validate") -> Path:
    """One of the core's line drivers (``validate``, ``repair``), built in release if missing."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    exe = target / "release" / "examples" / name
    if not exe.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "-p", "momentum-plan", "--example", name],
            cwd=ROOT,
            check=True,
        )
    return exe


def run_core(lines: List[str], *args: str) -> List[str]:
    """The core's answer line for each input line, in order: by default the compact verdict for
    each ``{"plan", "request"}`` line; with ``"repair", "--lines"`` (``"--schema"``) the repair
    driver's."""
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    cmd = [str(core_driver(args[0])), *args[1:]] if args else [str(core_driver()), "--lines"]
    proc = subprocess.run(cmd, input=data, capture_output=True, check=True)
    out = proc.stdout.decode("utf-8").split("\n")
    assert out[-1] == ""
    assert len(out) - 1 == len(lines)
    return out[:-1]


@pytest.fixture(scope="session")
def core_verdicts() -> Dict[str, Dict[str, str]]:
    """The core's verdict bytes per vector id, for the plan as given (``given``: the same Python
    objects the binding gets, written as compact JSON) and for an object plan passed as its
    compact JSON text (``text``)."""
    given = [
        '{"plan":' + compact(v["plan"]) + ',"request":' + compact(v["request"]) + "}"
        for v in VECTOR_LIST
    ]
    as_text = [
        '{"plan":'
        + compact(v["plan"] if isinstance(v["plan"], str) else compact(v["plan"]))
        + ',"request":'
        + compact(v["request"])
        + "}"
        for v in VECTOR_LIST
    ]
    a, b = run_core(given), run_core(as_text)
    return {
        "given": {v["id"]: line for v, line in zip(VECTOR_LIST, a)},
        "text": {v["id"]: line for v, line in zip(VECTOR_LIST, b)},
    }
