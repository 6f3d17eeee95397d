"""The official MCP conformance suite over HTTP, inside the pytest step: runs conformance/run.sh.

``run.sh`` installs the pinned suite (``npm ci`` when the lock changed), starts
``momentum-plan-sandbox --http 127.0.0.1:0`` on a store holding one saved plan, and runs
``@modelcontextprotocol/conformance`` 0.1.16 (default suite) and 0.2.0-alpha.12
(``--requirements 2026-07-28``) against it, each with its expected-failures baseline
(``conformance/expected-failures-*.yml``: only scenarios that need the suite's fixture tools,
prompts and resources, or capabilities the server does not declare). It exits non-zero when a
scenario outside the baseline fails or a baseline entry passes.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from http_env import require_http_build

RUN = Path(__file__).resolve().parent / "conformance" / "run.sh"


def test_conformance_suite() -> None:
    require_http_build()
    try:
        out = subprocess.run(["bash", str(RUN)], capture_output=True, timeout=900, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"conformance/run.sh did not finish within 900 s:\n{(e.stdout or b'').decode()[-4000:]}") from e
    text = out.stdout.decode("utf-8", "replace")
    print(text)
    totals = re.findall(r"^Total: .*$", text, re.M)
    assert out.returncode == 0, f"conformance/run.sh exit {out.returncode}:\n{text[-12000:]}\n{out.stderr.decode()[-4000:]}"
    assert len(totals) == 2, f"expected two suite summaries, found {totals}"
