"""The README's examples (issue 29 finding 6): every ```python block of bindings-python/README.md
runs as written, with this interpreter and the installed package, in a fresh folder holding the
bundled ``examples/calm-weekday-broken.*`` files, and what it prints must be the ```text block
that follows it, line for line. So the verdicts, repairs and messages the README shows are the
real ones (the outside try found a README repair that applied a fix the core never applies)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

from conftest import EXAMPLES, HERE

README = HERE.parent / "README.md"
FILES = ("calm-weekday-broken.plan.json", "calm-weekday-broken.request.json")


def examples(markdown: str) -> List[Tuple[str, str]]:
    """``(code, output)`` of each ```python block and the ```text block right after it."""
    blocks = re.findall(r"^```(\w+)\n(.*?)^```$", markdown, re.M | re.S)
    out = []
    for i, (lang, body) in enumerate(blocks):
        if lang != "python":
            continue
        assert i + 1 < len(blocks) and blocks[i + 1][0] == "text", (
            f"README: python block {len(out) + 1} is not followed by its output (a text block)"
        )
        out.append((body, blocks[i + 1][1]))
    return out


def test_every_python_example_prints_what_the_readme_says(tmp_path: Path) -> None:
    found = examples(README.read_text(encoding="utf-8"))
    assert len(found) >= 2, f"{len(found)} examples"
    for f in FILES:
        shutil.copy(EXAMPLES / f, tmp_path / f)
    for i, (code, want) in enumerate(found, 1):
        script = tmp_path / f"example_{i}.py"
        script.write_text(code, encoding="utf-8")
        r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"example {i}: {r.stderr}"
        assert r.stdout == want, f"example {i} prints something else than the README:\n{r.stdout}"
