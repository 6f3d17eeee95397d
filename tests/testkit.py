"""The Python test kit: where the shared material is, and how a Python test reads the shared
vectors (``../shared/vectors/README.md``) and the bundled examples.

One reader for every Python test (``bindings-python/tests``, ``mcp-wasi/e2e``,
``tests/conformance``); the Rust one is the ``momentum-plan-testkit`` crate, the JavaScript one
``js/testkit.cjs``. Paths are resolved from this file (the workspace root is its parent's parent),
never from the current directory; ``shared/`` sits beside the workspace. A test folder imports it
by putting ``<root>/tests`` on ``sys.path`` (its ``conftest.py`` or script does).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

#: The workspace root (absolute).
ROOT = Path(__file__).resolve().parent.parent
#: The shared material beside the workspace, ``<root>/../shared`` (absolute).
SHARED = (ROOT.parent / "shared").resolve()
#: The shared vectors' folder.
VECTORS = SHARED / "vectors"
#: The bundled examples' folder, ``<root>/examples``.
EXAMPLES = ROOT / "examples"
#: Fewer vectors than this means a file was not read (the set holds 5,818).
VECTOR_FLOOR = 5000


def compact(value: Any) -> str:
    """Compact JSON as the vectors README defines it: separators ``,`` ``:``, non-ASCII raw."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def vector_files() -> List[Path]:
    """The vector files (``*.jsonl`` of ``VECTORS``), sorted by name. Raises when there are none."""
    files = sorted(VECTORS.glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no *.jsonl in {VECTORS}")
    return files


def vector_lines(path: Path) -> List[str]:
    """The non-blank lines of one vector file, in file order, as raw text (not parsed)."""
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_vectors() -> List[Dict[str, Any]]:
    """Every vector of every file (files in name order, lines in file order), parsed by
    ``json.loads``; each record gains ``file`` (the file's name). Asserts the count floor."""
    out: List[Dict[str, Any]] = []
    for f in vector_files():
        for line in vector_lines(f):
            rec = json.loads(line)
            rec["file"] = f.name
            out.append(rec)
    assert len(out) >= VECTOR_FLOOR, f"only {len(out)} vectors in {VECTORS}"
    return out


def raw_members(line: str) -> Dict[str, str]:
    """The raw JSON text of each top-level member of a JSON object line, exactly as written.

    Used to pass a vector's ``plan`` and ``request`` on unchanged (number literals such as
    ``30.0`` or a 4300-digit integer keep their form).
    """
    dec = json.JSONDecoder()
    out: Dict[str, str] = {}
    i = line.index("{") + 1
    n = len(line)

    def skip(j: int) -> int:
        while j < n and line[j] in " \t\r\n":
            j += 1
        return j

    i = skip(i)
    if line[i] == "}":
        return out
    while True:
        key, i = json.decoder.scanstring(line, skip(i) + 1)  # type: ignore[attr-defined]
        i = skip(i)
        assert line[i] == ":", f"expected ':' at {i}"
        start = skip(i + 1)
        _, end = dec.raw_decode(line, start)
        out[key] = line[start:end]
        i = skip(end)
        if line[i] == "}":
            return out
        assert line[i] == ",", f"expected ',' at {i}"
        i += 1


def example_text(name: str) -> str:
    """The text of ``examples/<name>`` (e.g. ``calm-weekday.plan.json``), UTF-8."""
    return (EXAMPLES / name).read_text(encoding="utf-8")


def example(name: str) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(plan, request) of ``examples/<name>.{plan,request}.json`` as Python objects."""
    return json.loads(example_text(f"{name}.plan.json")), json.loads(example_text(f"{name}.request.json"))


def example_names() -> List[str]:
    """The bundled examples (``calm-weekday``, ``calm-weekday-broken``, ...), sorted."""
    return sorted(p.name[: -len(".plan.json")] for p in EXAMPLES.glob("*.plan.json"))
