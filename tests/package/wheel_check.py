"""The installed wheel, in a fresh venv of one CPython: it imports from that venv (not from a
checkout), ships ``py.typed``, and validates every bundled example to the core's verdict bytes.

Usage: python wheel_check.py EXPECTED_DIR EXAMPLES_DIR
(EXPECTED_DIR: ``<example>.verdict.json``, the output of the core's ``validate`` driver.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import momentum_plan

expected, examples = Path(sys.argv[1]), Path(sys.argv[2])
package = Path(momentum_plan.__file__).resolve().parent
assert package.is_relative_to(Path(sys.prefix).resolve()), f"{package} is not inside the venv {sys.prefix}"
assert (package / "py.typed").is_file(), "py.typed is missing"
assert sys.version_info >= (3, 10)
names = sorted(p.name[: -len(".plan.json")] for p in examples.glob("*.plan.json"))
assert "calm-weekday-broken" in names, names
for name in names:
    plan = (examples / f"{name}.plan.json").read_text(encoding="utf-8")
    request = (examples / f"{name}.request.json").read_text(encoding="utf-8")
    want = (expected / f"{name}.verdict.json").read_text(encoding="utf-8").strip()
    for p, r in ((plan, request), (json.loads(plan), json.loads(request))):
        got = json.dumps(momentum_plan.validate_plan(p, r), ensure_ascii=False, separators=(",", ":"))
        assert got == want, (name, got, want)
try:
    momentum_plan.validate_plan("{}", "not json")
except ValueError as e:
    assert str(e).startswith("request is not JSON"), e
else:
    raise AssertionError("request text that is not JSON must raise ValueError")
print(f"  ok  CPython {sys.version.split()[0]}: momentum_plan {momentum_plan.__version__} from {package}, {len(names)} examples")
