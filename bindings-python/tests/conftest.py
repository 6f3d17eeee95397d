"""Shared fixtures: the project's paths, the shared test vectors, and the core's own verdicts.

The vectors are read at test time from ``$ROOT/../shared/vectors`` (never copied). The core's
verdicts come from its line driver (``cargo run --release -p momentum-plan --example validate --
--lines``), its repairs and schemas from ``--example repair`` (``repair --lines``, ``repair
--schema --lines``), built once into ``${CARGO_TARGET_DIR:-$ROOT/target}``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SHARED = ROOT.parent / "shared"
VECTORS = SHARED / "vectors"
EXAMPLES = SHARED / "examples"


def compact(value: Any) -> str:
    """Compact JSON as the vectors README defines it: separators ``,`` ``:``, non-ASCII raw."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_vectors() -> List[Dict[str, Any]]:
    """Every vector of every file, files in name order; each record gains ``file``."""
    out: List[Dict[str, Any]] = []
    for f in sorted(VECTORS.glob("*.jsonl")):
        with f.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    rec["file"] = f.name
                    out.append(rec)
    return out


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
