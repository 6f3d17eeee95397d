"""Every shared vector through ``momentum_plan.validate_plan``, twice.

One test per vector file and way; a failure lists the ids of the vectors that disagree.

1. The plan as given: an object plan as the ``dict`` ``json.loads`` made (Python objects carry
   every vector), plan text as ``str``.
2. An object plan as its compact JSON text (``str``, and the same text as ``bytes``), with the
   request as JSON text too; plan text stays as it is.

Each run checks exactly ``valid``, the ordered (code, path) of errors and warnings, ``checks`` and
non-empty messages against the vector's expectation, and the whole verdict, bytes and key order
included, against the core's own verdict for the same input.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import pytest

import momentum_plan
from conftest import VECTOR_LIST, compact

FILES = sorted({v["file"] for v in VECTOR_LIST})


def pairs(issues: List[Dict[str, Any]]) -> List[Tuple[str, str]]:
    return [(i["code"], i["path"]) for i in issues]


def check_expectation(verdict: Dict[str, Any], expect: Dict[str, Any]) -> None:
    assert list(verdict) == ["valid", "errors", "warnings", "checks"]
    assert verdict["valid"] is expect["valid"]
    assert pairs(verdict["errors"]) == pairs(expect["errors"])
    assert pairs(verdict["warnings"]) == pairs(expect["warnings"])
    assert verdict["checks"] == expect["checks"]
    for issue in verdict["errors"] + verdict["warnings"]:
        assert list(issue) == ["code", "path", "message"]
        assert isinstance(issue["message"], str) and issue["message"].strip()


def run_as_given(vector: Dict[str, Any], core: Dict[str, str]) -> None:
    verdict = momentum_plan.validate_plan(vector["plan"], vector["request"])
    check_expectation(dict(verdict), vector["expect"])
    assert compact(verdict) == core[vector["id"]], "differs from the core's verdict"


def run_as_text(vector: Dict[str, Any], core: Dict[str, str]) -> None:
    plan = vector["plan"]
    text = plan if isinstance(plan, str) else compact(plan)
    request_text = compact(vector["request"])
    verdict = momentum_plan.validate_plan(text, request_text)
    check_expectation(dict(verdict), vector["expect"])
    assert compact(verdict) == core[vector["id"]], "differs from the core's verdict"
    # The same text as bytes (and the request as a dict) gives the same verdict.
    assert momentum_plan.validate_plan(text.encode("utf-8"), vector["request"]) == verdict


def run_file(name: str, run: Callable[[Dict[str, Any], Dict[str, str]], None], core: Dict[str, str]) -> None:
    """Runs every vector of one file; fails naming the first mismatching ids."""
    vectors = [v for v in VECTOR_LIST if v["file"] == name]
    assert vectors
    failures = []
    for v in vectors:
        try:
            run(v, core)
        except AssertionError as e:
            failures.append(f"{v['id']}: {str(e).splitlines()[0] if str(e) else 'mismatch'}")
    assert not failures, f"{len(failures)} of {len(vectors)} vectors disagree:\n" + "\n".join(failures[:10])


@pytest.mark.parametrize("name", FILES)
def test_vectors_as_given(name: str, core_verdicts: Dict[str, Dict[str, str]]) -> None:
    run_file(name, run_as_given, core_verdicts["given"])


@pytest.mark.parametrize("name", FILES)
def test_vectors_as_text(name: str, core_verdicts: Dict[str, Dict[str, str]]) -> None:
    run_file(name, run_as_text, core_verdicts["text"])
