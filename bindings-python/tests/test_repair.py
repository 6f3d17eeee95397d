"""``repair_plan`` and ``plan_schema`` (validator.md §9, issue 13) against the core's own bytes, on
every shared vector, and their inputs.

1. Every vector through ``repair_plan``: the plan as given (safe fixes, then unsafe fixes too)
   and an object plan as its compact JSON text; the whole result, key order and types included,
   equals the core's repair driver (``repair --lines``) on the same input read by ``json.loads``:
   its compact JSON is the core's bytes, except where the core's patch carries a number literal
   Python writes another way (a ``test`` op guarding ``3e1`` holds the float ``30.0``).
2. The guarantees of §9, checked here with an independent RFC 6902 implementation (Python's
   ``jsonpatch``): the returned ``patch`` applied to the input gives the returned ``plan`` exactly
   (types included: ``30`` is not ``30.0``); a valid plan comes back unchanged with an empty
   patch; repairing the repaired plan applies nothing; no applied fix's issue is left.
3. ``plan_schema`` for every distinct request of the vectors, in both variants, as a ``dict`` and as
   text, equals the driver's (``repair --schema --lines``), a request at fault included (the
   driver's ``{"error": ...}`` is the ``ValueError``'s text); the ``validation`` schema accepts every
   valid vector plan (Python's ``jsonschema``, another independent implementation).
4. Bad input: every fault ``validate_plan`` raises, ``repair_plan`` and ``plan_schema`` raise the
   same (class, text, ``argument``/``path``/``kind``); deep and huge plans, a non-object request, an
   unknown variant.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any, Callable, Dict, List, Tuple

import jsonpatch  # type: ignore[import-untyped]
import jsonschema
import pytest

import momentum_plan
from conftest import EXAMPLES, VECTOR_LIST, compact, run_core

# The vectors hold integers of 5,000 digits; json.loads must read the core's lines that carry them.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

FILES = sorted({v["file"] for v in VECTOR_LIST})
PLAN: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday.plan.json").read_text(encoding="utf-8"))
REQUEST: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday.request.json").read_text(encoding="utf-8"))
REPAIR_KEYS = ["plan", "patch", "applied", "offered", "verdict", "rounds", "stopped", "revealed", "requestAtFault"]
FIX_KEYS = ["code", "path", "applicability", "description"]


def line(plan: Any, request: Any, unsafe: bool = False) -> str:
    return '{"plan":' + compact(plan) + ',"request":' + compact(request) + (',"unsafe":true' if unsafe else "") + "}"


def same_as_core(result: Any, core: str) -> bool:
    """``result`` is the core's line read by ``json.loads``: keys in order, every value and type."""
    return compact(result) == core or compact(result) == compact(json.loads(core))


def as_text(plan: Any) -> Any:
    return plan if isinstance(plan, str) else compact(plan)


def exact(value: Any) -> str:
    """A form of a JSON value in which ``30`` and ``30.0`` differ and member order does not matter
    (``jsonpatch``'s ``move`` appends the member; the core keeps its place)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@pytest.fixture(scope="session")
def core_repairs() -> Dict[str, Dict[str, str]]:
    """The core's repair bytes per vector id: the plan as given (safe, unsafe) and as text."""
    ways: Dict[str, Callable[[Dict[str, Any]], str]] = {
        "safe": lambda v: line(v["plan"], v["request"]),
        "unsafe": lambda v: line(v["plan"], v["request"], unsafe=True),
        "text": lambda v: line(as_text(v["plan"]), v["request"]),
    }
    out = {}
    for way, make in ways.items():
        answers = run_core([make(v) for v in VECTOR_LIST], "repair", "--lines")
        out[way] = {v["id"]: a for v, a in zip(VECTOR_LIST, answers)}
    return out


def check_repair(vector: Dict[str, Any], plan: Any, result: Dict[str, Any], unsafe: bool) -> None:
    """The §9 guarantees, independently of the core's bytes."""
    assert list(result) == REPAIR_KEYS
    for fix in result["applied"] + result["offered"]:
        assert list(fix) == FIX_KEYS
    assert all(f["applicability"] == "safe" or (unsafe and f["applicability"] == "unsafe") for f in result["applied"])
    verdict = result["verdict"]
    if isinstance(plan, str):
        try:
            before = json.loads(plan)
        except (ValueError, RecursionError):  # not JSON to json.loads (or too deep for it)
            assert result["patch"] == [] and result["plan"] == plan
            return
    else:
        before = plan
    if vector["expect"]["valid"]:
        assert result["patch"] == [] and result["applied"] == [], "a valid plan must come back unchanged"
        assert result["plan"] == plan if isinstance(plan, str) else exact(json.loads(result["plan"])) == exact(plan)
    if not result["patch"]:
        assert result["applied"] == []
        return
    after = jsonpatch.apply_patch(before, result["patch"])  # fails on a stale `test` op
    assert exact(after) == exact(json.loads(result["plan"])), "the patch does not give the returned plan"
    left = {(i["code"], i["path"]) for i in verdict["errors"]}
    assert not [f for f in result["applied"] if (f["code"], f["path"]) in left], "an applied fix left its issue"
    again = momentum_plan.repair_plan(result["plan"], vector["request"], unsafe=unsafe)
    assert again["applied"] == [] and again["patch"] == [], "repairing the repaired plan applied more"


def run_way(way: str, vector: Dict[str, Any], core: Dict[str, str]) -> None:
    unsafe = way == "unsafe"
    plan = as_text(vector["plan"]) if way == "text" else vector["plan"]
    result = momentum_plan.repair_plan(plan, vector["request"], unsafe=unsafe)
    assert same_as_core(result, core[vector["id"]]), "differs from the core's repair"
    check_repair(vector, plan, dict(result), unsafe)
    if way == "text":
        # The same text as bytes, and the request as text, give the same repair.
        assert momentum_plan.repair_plan(plan.encode("utf-8"), compact(vector["request"])) == result


@pytest.mark.parametrize("way", ["safe", "unsafe", "text"])
@pytest.mark.parametrize("name", FILES)
def test_vectors_repair(name: str, way: str, core_repairs: Dict[str, Dict[str, str]]) -> None:
    vectors = [v for v in VECTOR_LIST if v["file"] == name]
    failures = []
    for v in vectors:
        try:
            run_way(way, v, core_repairs[way])
        except (AssertionError, jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as e:
            failures.append(f"{v['id']}: {str(e).splitlines()[0] if str(e) else 'mismatch'}")
    assert not failures, f"{len(failures)} of {len(vectors)} vectors disagree:\n" + "\n".join(failures[:10])


def test_repair_figures(core_repairs: Dict[str, Dict[str, str]]) -> None:
    """Safe repair makes some invalid plans valid (the core's figure is about 15 %); it is the
    same bytes as the core, so this only guards against a binding that applies nothing."""
    invalid = [v for v in VECTOR_LIST if not v["expect"]["valid"]]
    fixed = sum(1 for v in invalid if json.loads(core_repairs["safe"][v["id"]]).get("verdict", {}).get("valid"))
    assert fixed > len(invalid) // 20


# --- the schema ------------------------------------------------------------------------------

REQUESTS: List[Any] = list({compact(v["request"]): v["request"] for v in VECTOR_LIST}.values())


def schema_or_error(request: Any, variant: str) -> str:
    try:
        return compact(momentum_plan.plan_schema(request, variant))
    except ValueError as e:
        return compact({"error": str(e)})


@pytest.mark.parametrize("variant", ["validation", "strict"])
def test_schema_of_every_request(variant: str) -> None:
    lines = ['{"request":' + compact(r) + ',"variant":"' + variant + '"}' for r in REQUESTS]
    core = run_core(lines, "repair", "--schema", "--lines")
    failures = []
    for request, expected in zip(REQUESTS, core):
        got = schema_or_error(request, variant)
        if got != expected:
            failures.append(f"{compact(request)[:120]}: {got[:200]} != {expected[:200]}")
        elif schema_or_error(compact(request), variant) != got:
            failures.append(f"{compact(request)[:120]}: as text differs")
    assert not failures, f"{len(failures)} of {len(REQUESTS)} requests differ:\n" + "\n".join(failures[:5])
    assert sum(1 for r in core if r.startswith('{"error"')) < len(core)


def test_schema_default_variant_is_validation() -> None:
    assert momentum_plan.plan_schema(REQUEST) == momentum_plan.plan_schema(REQUEST, "validation")
    assert momentum_plan.plan_schema(REQUEST) != momentum_plan.plan_schema(REQUEST, "strict")


def test_validation_schema_accepts_every_valid_plan() -> None:
    validators: Dict[str, Any] = {}
    rejected = []
    for v in VECTOR_LIST:
        if not v["expect"]["valid"]:
            continue
        key = compact(v["request"])
        if key not in validators:
            schema = momentum_plan.plan_schema(v["request"])
            validators[key] = jsonschema.Draft202012Validator(schema)
        plan = json.loads(v["plan"]) if isinstance(v["plan"], str) else v["plan"]
        if not validators[key].is_valid(plan):
            rejected.append(v["id"])
    assert not rejected, f"{len(rejected)} valid plans rejected: {rejected[:10]}"


# --- bad input -------------------------------------------------------------------------------


def outcome(call: Callable[[], Any]) -> Tuple[Any, ...]:
    try:
        call()
    except (TypeError, ValueError) as e:
        return (type(e), str(e), getattr(e, "argument", None), getattr(e, "path", None), getattr(e, "kind", None))
    return ("no exception",)


def deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def cyclic() -> Dict[str, Any]:
    plan = copy.deepcopy(PLAN)
    plan["routine"]["blocks"].append(plan["routine"])
    return plan


class Opaque:
    pass


# (label, plan, request): each raises in validate_plan.
BAD: List[Tuple[str, Any, Any]] = [
    ("nan", {**PLAN, "contractVersion": float("nan")}, REQUEST),
    ("inf", {**PLAN, "contractVersion": float("inf")}, REQUEST),
    ("set", {**PLAN, "routine": {1}}, REQUEST),
    ("object", {**PLAN, "x": Opaque()}, REQUEST),
    ("bytes-inside", {**PLAN, "x": b"07:00"}, REQUEST),
    ("int-key", {**PLAN, "x": {1: 2}}, REQUEST),
    ("cycle", cyclic(), REQUEST),
    ("plan-not-json-type", {1, 2}, REQUEST),
    ("request-nan", PLAN, {**REQUEST, "x": float("nan")}),
    ("request-set", PLAN, {**REQUEST, "x": {1}}),
    ("request-cycle", PLAN, (lambda r: (r.__setitem__("self", r), r)[1])(dict(REQUEST))),
    ("request-deep", PLAN, {**REQUEST, "x": deep(513)}),
    ("request-lone-surrogate", PLAN, {**REQUEST, "x": "\ud83d"}),
    ("request-lone-surrogate-name", PLAN, {**REQUEST, "\udc00": 1}),
    ("request-text-not-json", PLAN, "{"),
    ("request-bytes-not-json", PLAN, b"\xff"),
    ("request-str-lone-surrogate", PLAN, '{"x": "\ud83d"}'),
    ("plan-fault-before-request-text", {"x": {1}}, "{"),
    ("deep-plan-request-text", {"x": deep(600)}, "{"),
]


@pytest.mark.parametrize("label,plan,request_", BAD, ids=[b[0] for b in BAD])
def test_faults_are_validate_plans(label: str, plan: Any, request_: Any) -> None:
    request = request_
    expected = outcome(lambda: momentum_plan.validate_plan(plan, request))
    assert expected[0] in (TypeError, ValueError), expected
    for unsafe in (False, True):
        assert outcome(lambda: momentum_plan.repair_plan(plan, request, unsafe=unsafe)) == expected
    if plan is PLAN:  # the request's own faults: plan_schema reads it the same way
        for variant in ("validation", "strict"):
            assert outcome(lambda: momentum_plan.plan_schema(request, variant)) == expected


@pytest.mark.parametrize(
    "label,plan",
    [
        ("deep-513", {"x": deep(513)}),
        ("deep-100000", {"x": deep(100_000)}),
        ("deep-list", deep(513)),
        ("lone-surrogate-value", {**PLAN, "name": "\ud83d"}),
        ("lone-surrogate-name", {**PLAN, "\ud83d": 1}),
    ],
)
def test_plans_json_cannot_carry_get_the_json_verdict(label: str, plan: Any) -> None:
    repaired = momentum_plan.repair_plan(plan, REQUEST)
    assert list(repaired) == REPAIR_KEYS
    assert repaired["verdict"] == momentum_plan.validate_plan(plan, REQUEST)
    assert [i["code"] for i in repaired["verdict"]["errors"]] == ["json"]
    assert (repaired["plan"], repaired["patch"], repaired["applied"], repaired["offered"]) == ("", [], [], [])
    assert (repaired["rounds"], repaired["stopped"], repaired["requestAtFault"]) == (0, "notAnObject", [])
    # Bad request text still raises, whatever the plan holds (as validate_plan).
    with pytest.raises(ValueError, match="^request is not JSON: "):
        momentum_plan.repair_plan(plan, "[")


def test_plan_text_with_a_lone_surrogate() -> None:
    text = '{"name": "\ud83d"}'
    repaired = momentum_plan.repair_plan(text, REQUEST)
    assert repaired["verdict"] == momentum_plan.validate_plan(text, REQUEST)
    assert repaired["plan"] == '{"name": "\ufffd"}' and repaired["stopped"] == "notAnObject"
    # A deep plan as text: the core's own answer (the text back, the json verdict).
    deep_text = "[" * 600 + "]" * 600
    assert same_as_core(momentum_plan.repair_plan(deep_text, REQUEST), run_core([line(deep_text, REQUEST)], "repair", "--lines")[0])


def test_huge_plan_is_the_cores() -> None:
    plan = copy.deepcopy(PLAN)
    plan["description"] = "x" * 300_000
    repaired = momentum_plan.repair_plan(plan, REQUEST)
    assert same_as_core(repaired, run_core([line(plan, REQUEST)], "repair", "--lines")[0])
    assert "size" in [i["code"] for i in repaired["verdict"]["errors"]]


@pytest.mark.parametrize("request_", [[], None, 3, "[]", "null", {"requestId": "r1", "kind": "week"}])
def test_request_at_fault(request_: Any) -> None:
    repaired = momentum_plan.repair_plan(PLAN, request_)
    assert repaired["requestAtFault"], "a request no plan can satisfy is said to be at fault"
    assert repaired["verdict"] == momentum_plan.validate_plan(repaired["plan"], request_)
    as_value = json.loads(request_) if isinstance(request_, str) else request_  # the driver takes a value
    assert same_as_core(repaired, run_core([line(PLAN, as_value)], "repair", "--lines")[0])
    for variant in ("validation", "strict"):
        with pytest.raises(ValueError, match="^no plan can satisfy this request; the request must change: ") as info:
            momentum_plan.plan_schema(request_, variant)
        # As the JS packages' Error: the request is at fault, as a whole.
        err: Any = info.value
        assert (err.argument, err.path, err.kind) == ("request", "$", None)


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match='^unknown schema variant "Strict"; use "validation" or "strict"$'):
        momentum_plan.plan_schema(REQUEST, "Strict")
    long = "v" * 100
    core = run_core(['{"request":' + compact(REQUEST) + ',"variant":"' + long + '"}'], "repair", "--schema", "--lines")
    assert schema_or_error(REQUEST, long) == core[0]
    with pytest.raises(TypeError):
        momentum_plan.plan_schema(REQUEST, 1)  # type: ignore[arg-type]
    # The variant is checked before the request's faults, as the core's driver does.
    with pytest.raises(ValueError, match="^unknown schema variant"):
        momentum_plan.plan_schema([], "x")


def test_unsafe_is_keyword_only_and_bool() -> None:
    with pytest.raises(TypeError):
        momentum_plan.repair_plan(PLAN, REQUEST, True)  # type: ignore[misc]
    # The JS packages' sentence ("options.unsafe is a string; pass true or false") in Python's words.
    for bad, words in [("yes", "a str"), (1, "an int"), (0.0, "a float"), ([True], "a list"), ({}, "a dict")]:
        with pytest.raises(TypeError, match=f"^unsafe is {words}; pass True or False$"):
            momentum_plan.repair_plan(PLAN, REQUEST, unsafe=bad)  # type: ignore[arg-type]
    # None is as left out; True and False are taken as they are.
    assert momentum_plan.repair_plan(PLAN, REQUEST, unsafe=None) == momentum_plan.repair_plan(PLAN, REQUEST)  # type: ignore[arg-type]
    assert momentum_plan.repair_plan(PLAN, REQUEST, unsafe=False) == momentum_plan.repair_plan(PLAN, REQUEST)


def test_results_are_new_objects_and_json() -> None:
    broken = copy.deepcopy(PLAN)
    broken["format"] = "daily-momentum"
    broken["routine"]["blocks"][0]["start"] = "7:00"
    a, b = momentum_plan.repair_plan(broken, REQUEST), momentum_plan.repair_plan(broken, REQUEST)
    assert a == b and a is not b and a["patch"] is not b["patch"]
    assert {f["path"] for f in a["applied"]} >= {"$.format", "$.routine.blocks[0].start"}
    assert json.loads(json.dumps(a)) == a
    assert broken["format"] == "daily-momentum", "the input is never changed"
    s1, s2 = momentum_plan.plan_schema(REQUEST), momentum_plan.plan_schema(REQUEST)
    assert s1 == s2 and s1 is not s2


def test_threads_get_the_same_repairs() -> None:
    """A dict plan is repaired with the GIL released; calls from many threads stay independent."""
    from concurrent.futures import ThreadPoolExecutor

    cases = [v for v in VECTOR_LIST if not v["expect"]["valid"] and isinstance(v["plan"], dict)][:200]
    expected = [momentum_plan.repair_plan(v["plan"], v["request"], unsafe=True) for v in cases]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            got = list(pool.map(lambda v: momentum_plan.repair_plan(v["plan"], v["request"], unsafe=True), cases))
            assert got == expected
