"""Python values at the boundary: what converts, what is refused (and where), text forms, the
contract and the constants.

Every kind of value JSON cannot hold is refused with ``TypeError``/``ValueError`` naming its JSON
path; values JSON text cannot carry either (a lone surrogate, nesting over 512 levels) get the
core's ``json`` verdict, as the same text would; nothing crashes.
"""

from __future__ import annotations

import collections
import copy
import datetime
import decimal
import enum
import fractions
import json
import runpy
import sys
import threading
import types
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List

import pytest

import momentum_plan
from conftest import EXAMPLES, HERE, compact

PLAN: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday.plan.json").read_text(encoding="utf-8"))
REQUEST: Dict[str, Any] = json.loads((EXAMPLES / "calm-weekday.request.json").read_text(encoding="utf-8"))


def plan_with(path: List[Any], value: Any) -> Dict[str, Any]:
    """A deep copy of the calm-weekday plan with ``value`` put at ``path``."""
    plan = copy.deepcopy(PLAN)
    target: Any = plan
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return plan


def codes(verdict: Any) -> List[Any]:
    return [(i["code"], i["path"]) for i in verdict["errors"]]


class Color(enum.Enum):
    RED = 1


class Minutes(enum.IntEnum):
    HALF_HOUR = 30


class Kind(str, enum.Enum):
    ROUTINE = "routine"


class Opaque:
    pass


# (label, value, exception type, words the message must hold)
NOT_JSON: List[Any] = [
    ("set", {1, 2}, TypeError, "is a set, which JSON cannot hold"),
    ("frozenset", frozenset({1}), TypeError, "frozenset"),
    ("bytes", b"07:00", TypeError, "is a bytes object, which"),
    ("bytearray", bytearray(b"x"), TypeError, "bytearray"),
    ("memoryview", memoryview(b"x"), TypeError, "memoryview"),
    ("datetime", datetime.datetime(2026, 10, 5, 7, 0), TypeError, "datetime.datetime"),
    ("date", datetime.date(2026, 10, 5), TypeError, "datetime.date"),
    ("time", datetime.time(7, 0), TypeError, "datetime.time"),
    ("timedelta", datetime.timedelta(minutes=30), TypeError, "datetime.timedelta"),
    ("decimal", decimal.Decimal("30"), TypeError, "decimal.Decimal"),
    ("fraction", fractions.Fraction(1, 2), TypeError, "fractions.Fraction"),
    ("complex", 1j, TypeError, "complex"),
    ("uuid", uuid.UUID(int=0), TypeError, "uuid.UUID"),
    ("enum", Color.RED, TypeError, "Color"),
    ("object", Opaque(), TypeError, "Opaque"),
    ("type", int, TypeError, "type"),
    ("function", len, TypeError, "is a function (len), which"),
    ("generator", (i for i in range(2)), TypeError, "generator"),
    ("range", range(3), TypeError, "range"),
    ("ellipsis", ..., TypeError, "ellipsis"),
    ("nan", float("nan"), ValueError, "is NaN, which JSON cannot hold"),
    ("inf", float("inf"), ValueError, "is Infinity, which JSON cannot hold"),
    ("-inf", float("-inf"), ValueError, "is -Infinity, which JSON cannot hold"),
]


@pytest.mark.parametrize("label,value,exc,words", NOT_JSON, ids=[n[0] for n in NOT_JSON])
def test_not_json_value_names_its_path(label: str, value: Any, exc: type, words: str) -> None:
    plan = plan_with(["routine", "blocks", 0, "start"], value)
    with pytest.raises(exc) as info:
        momentum_plan.validate_plan(plan, REQUEST)
    message = str(info.value)
    assert message.startswith("plan at $.routine.blocks[0].start "), message
    assert words in message
    assert (info.value.argument, info.value.path) == ("plan", "$.routine.blocks[0].start")  # type: ignore[attr-defined]
    assert info.value.kind == ("notFinite" if exc is ValueError else "unsupported")  # type: ignore[attr-defined]


@pytest.mark.parametrize("label,value,exc,words", NOT_JSON, ids=[n[0] for n in NOT_JSON])
def test_not_json_value_in_the_request_names_its_path(label: str, value: Any, exc: type, words: str) -> None:
    request = copy.deepcopy(REQUEST)
    request["commitments"][0]["days"][2] = value
    with pytest.raises(exc) as info:
        momentum_plan.validate_plan(PLAN, request)
    assert str(info.value).startswith("request at $.commitments[0].days[2] ")
    assert (info.value.argument, info.value.path) == ("request", "$.commitments[0].days[2]")  # type: ignore[attr-defined]


def test_not_json_value_at_the_root() -> None:
    with pytest.raises(TypeError, match=r"^plan at \$ is a set, which JSON cannot hold$"):
        momentum_plan.validate_plan({1}, REQUEST)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^plan at \$ is NaN, which JSON cannot hold \(JSON has no NaN or Infinity\)$"):
        momentum_plan.validate_plan(float("nan"), REQUEST)  # type: ignore[arg-type]


def test_non_str_member_names_are_refused() -> None:
    for key in (1, 1.5, None, True, ("a",), b"name"):
        plan = plan_with(["routine", "weekdays"], {key: []})
        with pytest.raises(TypeError) as info:
            momentum_plan.validate_plan(plan, REQUEST)
        assert str(info.value).startswith("plan at $.routine.weekdays has a member name that is a")
        assert str(info.value).endswith(", which JSON cannot hold (member names are strings)")
        assert info.value.kind == "nonStringName"  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"^plan at \$\.x has a member name that is an int \(1\), which JSON"):
        momentum_plan.validate_plan({"x": {1: 2}}, REQUEST)


def test_member_names_are_bracket_quoted_in_paths() -> None:
    plan = plan_with(["routine", "weekdays"], {"Mon day": [{"start": {2}}]})
    with pytest.raises(TypeError, match=r"^plan at \$\.routine\.weekdays\['Mon day'\]\[0\]\.start is a set"):
        momentum_plan.validate_plan(plan, REQUEST)


def test_cycles_are_refused_not_followed() -> None:
    plan = copy.deepcopy(PLAN)
    plan["routine"]["blocks"].append(plan["routine"])
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan(plan, REQUEST)
    assert str(info.value) == "plan at $.routine.blocks[5] refers back to $.routine (a cycle), which JSON cannot hold"
    assert (info.value.path, info.value.kind) == ("$.routine.blocks[5]", "cycle")  # type: ignore[attr-defined]
    looped: List[Any] = []
    looped.append(looped)
    with pytest.raises(ValueError, match=r"^plan at \$\.x\[0\] refers back to \$\.x \(a cycle\)"):
        momentum_plan.validate_plan({"x": looped}, REQUEST)
    request = copy.deepcopy(REQUEST)
    request["self"] = request
    with pytest.raises(ValueError, match=r"^request at \$\.self refers back to \$ \(a cycle\)"):
        momentum_plan.validate_plan(PLAN, request)


def test_shared_values_are_not_cycles() -> None:
    block = copy.deepcopy(PLAN["routine"]["blocks"][0])
    plan = plan_with(["routine", "weekdays"], {"sat": [block], "sun": [block]})
    assert momentum_plan.validate_plan(plan, REQUEST) == momentum_plan.validate_plan(compact(plan), REQUEST)


def nested(levels: int) -> Dict[str, Any]:
    """An object plan ``levels`` levels deep (the plan itself is level 1)."""
    inner: Any = {}
    for _ in range(levels - 2):
        inner = [inner]
    return {"x": inner} if levels > 1 else {}


@pytest.mark.parametrize("levels", [512, 513, 100_000])
def test_depth_matches_the_text(levels: int) -> None:
    plan = nested(levels)
    verdict = momentum_plan.validate_plan(plan, REQUEST)
    if levels <= 512:
        assert verdict["checks"][-1] == "feasibility"
        assert verdict == momentum_plan.validate_plan(compact(plan), REQUEST)
    else:
        assert codes(verdict) == [("json", "$")]
        assert "nesting deeper than 512 levels" in verdict["errors"][0]["message"]
        assert verdict["checks"] == ["json"]


def test_a_deep_request_is_refused() -> None:
    request = copy.deepcopy(REQUEST)
    inner: Any = []
    for _ in range(600):
        inner = [inner]
    request["goal"] = inner
    with pytest.raises(ValueError, match=r"^request at \$\.goal(\[0\])+ is nested deeper than 512 levels, which JSON cannot hold here$"):
        momentum_plan.validate_plan(PLAN, request)


def test_lone_surrogates_give_the_json_verdict() -> None:
    for plan in (
        plan_with(["name"], "Calm \ud83d day"),
        plan_with(["routine", "weekdays"], {"mon\udc00": []}),
        '{"name": "Calm \ud83d day"}',
    ):
        verdict = momentum_plan.validate_plan(plan, REQUEST)
        assert codes(verdict) == [("json", "$")]
        assert verdict["checks"] == ["json"]
        message = verdict["errors"][0]["message"]
        assert "lone surrogate" in message
        message.encode("utf-8")  # the message itself holds no lone surrogate
    assert "at $.name" in momentum_plan.validate_plan(plan_with(["name"], "\ud83d"), REQUEST)["errors"][0]["message"]
    text = momentum_plan.validate_plan('{\n "name": "ab\udfff"}', REQUEST)["errors"][0]["message"]
    assert "U+DFFF" in text and "line 2, column 13" in text
    # Escaped in text, the core reports it too (D12).
    assert codes(momentum_plan.validate_plan('{"name": "\\ud83d"}', REQUEST)) == [("json", "$")]


def test_lone_surrogates_in_the_request_are_refused() -> None:
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan(PLAN, dict(REQUEST, goal="\ud83d"))
    assert str(info.value) == (
        "request at $.goal holds a lone surrogate (U+D83D), which JSON cannot hold (it is not a character)"
    )
    assert info.value.kind == "loneSurrogate"  # type: ignore[attr-defined]
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan(PLAN, dict(REQUEST, **{"go\udc00al": 1}))
    assert str(info.value) == (
        "request at $['go\ufffdal'] has a member name holding a lone surrogate (U+DC00), which JSON cannot hold"
        " (it is not a character)"
    )
    assert info.value.path == "$['go\ufffdal']"  # type: ignore[attr-defined]
    assert info.value.kind == "loneSurrogateInName"  # type: ignore[attr-defined]
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan(PLAN, '{\n"goal": "\ud83d"}')
    assert str(info.value) == "request is not JSON: a lone surrogate (U+D83D) is not a character at line 2, column 10"
    assert (info.value.argument, info.value.path, info.value.kind) == ("request", "$", None)  # type: ignore[attr-defined]


def test_integers_are_exact_at_any_size() -> None:
    bigs = [2**64, 2**64 + 1, 10**20, -(10**40), 2**96 - 1, 16**17, 10**27 - 1, 10**9 * 2**70, -(2**200) + 12345]
    for n in [0, -1, 30, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, -(2**63), -(2**63) - 1] + bigs:
        plan = plan_with(["routine", "blocks", 0, "durationMin"], n)
        assert momentum_plan.validate_plan(plan, REQUEST) == momentum_plan.validate_plan(compact(plan), REQUEST), n
    huge = 7 * 10**5000 + 3  # beyond sys.int_max_str_digits: str(huge) would raise
    plan = plan_with(["routine", "blocks", 0, "durationMin"], huge)
    verdict = momentum_plan.validate_plan(plan, REQUEST)
    assert codes(verdict)[0] == ("duration", "$.routine.blocks[0].durationMin")
    if hasattr(sys, "set_int_max_str_digits"):
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            text = compact(plan)
        finally:
            sys.set_int_max_str_digits(old)
        assert verdict == momentum_plan.validate_plan(text, REQUEST)
        # The exact literal reaches the core: a request that echoes it differently is a mismatch.
        plan["request"] = dict(REQUEST, requestVersion=huge)
        request = dict(REQUEST, requestVersion=huge - 1)
        assert ("request", "$.request") in codes(momentum_plan.validate_plan(plan, request))


def test_floats_are_never_integers() -> None:
    plan = plan_with(["routine", "blocks", 0, "durationMin"], 30.0)
    verdict = momentum_plan.validate_plan(plan, REQUEST)
    assert codes(verdict) == [("duration", "$.routine.blocks[0].durationMin")]
    assert "30.0" in verdict["errors"][0]["message"]
    assert verdict == momentum_plan.validate_plan(compact(plan), REQUEST)
    # contractVersion is compared numerically (1.0 passes), booleans are never numbers.
    assert momentum_plan.validate_plan(plan_with(["contractVersion"], 1.0), REQUEST)["valid"]
    assert codes(momentum_plan.validate_plan(plan_with(["contractVersion"], True), REQUEST)) == [
        ("contractVersion", "$.contractVersion")
    ]
    for f in (-0.0, 0.1, 1e20, 5e-324, 1.7976931348623157e308):
        plan = plan_with(["routine", "blocks", 0, "durationMin"], f)
        assert codes(momentum_plan.validate_plan(plan, REQUEST)) == [("duration", "$.routine.blocks[0].durationMin")]


def test_subclasses_and_tuples_convert_like_json_dumps() -> None:
    plan = plan_with(["routine", "blocks", 0, "durationMin"], Minutes.HALF_HOUR)
    plan["kind"] = Kind.ROUTINE
    plan["routine"]["blocks"] = tuple(plan["routine"]["blocks"])
    plan = collections.OrderedDict(plan)
    assert momentum_plan.validate_plan(plan, REQUEST) == momentum_plan.validate_plan(PLAN, REQUEST)


class SameName(str):
    """A ``str`` whose instances are equal only to themselves: a dict can hold two that spell
    one member name."""

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other


def test_keys_that_spell_one_name_keep_the_last_value_as_json_text_does() -> None:
    # Exact str keys are distinct, so the binding skips the search for a repeated name; a str
    # subclass's keys are searched, and the last value wins at the first position (validator.md
    # §7), exactly as for the text json.dumps writes. The echo shows it: only the deduplicated
    # object equals the request.
    echo = {k: v for k, v in REQUEST.items() if k != "kind"}
    echo = {SameName("kind"): "goal", **echo, SameName("kind"): REQUEST["kind"]}
    assert len(echo) == len(REQUEST) + 1
    plan = plan_with(["request"], echo)
    text = json.dumps(plan, ensure_ascii=False, separators=(",", ":"))
    assert text.count('"kind":') == 3
    verdict = momentum_plan.validate_plan(plan, REQUEST)
    assert verdict == momentum_plan.validate_plan(text, REQUEST)
    assert verdict["valid"], verdict


def test_key_order_is_kept() -> None:
    # The echo check ignores order, but the size and the verdict's paths follow the dict's order.
    plan = plan_with(["routine", "weekdays"], {"zzz": [], "aaa": []})
    assert [e["path"] for e in momentum_plan.validate_plan(plan, REQUEST)["errors"]] == [
        "$.routine.weekdays.zzz",
        "$.routine.weekdays.aaa",
    ]


def test_non_object_plans_get_the_type_verdict() -> None:
    for plan in ([], [PLAN], 42, 1.5, True, None, "[]", "42", b"null"):
        verdict = momentum_plan.validate_plan(plan, REQUEST)  # type: ignore[arg-type]
        assert codes(verdict) == [("type", "$")]
        assert verdict["checks"] == ["json"]


def test_text_and_bytes_agree() -> None:
    for text in (
        compact(PLAN),
        json.dumps(PLAN, indent=2),
        json.dumps(PLAN, ensure_ascii=True),
        compact(plan_with(["name"], "Café ☕ 😀")),
        "{",
        "",
        "\ufeff{}",
        '{"a": NaN}',
        '{"a": 1e400}',
        "[" * 600 + "]" * 600,
    ):
        assert momentum_plan.validate_plan(text, REQUEST) == momentum_plan.validate_plan(text.encode("utf-8"), REQUEST)


class ReadOnly(collections.abc.Mapping):  # type: ignore[type-arg]
    """A custom ``Mapping`` (not a ``dict``): read through ``items()``, as the stubs promise."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Any:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def mapped(value: Any, wrap: Callable[[Dict[str, Any]], Any]) -> Any:
    """``value`` with every dict in it (itself included) wrapped by ``wrap``."""
    if isinstance(value, dict):
        return wrap({k: mapped(v, wrap) for k, v in value.items()})
    if isinstance(value, list):
        return [mapped(v, wrap) for v in value]
    return value


UTF8_FORMS: List[Any] = [
    ("bytes", bytes),
    ("bytearray", bytearray),
    ("memoryview", memoryview),
    ("memoryview-slice", lambda b: memoryview(b"  " + b + b"  ")[2:-2]),
]


@pytest.mark.parametrize("label,form", UTF8_FORMS, ids=[f[0] for f in UTF8_FORMS])
def test_utf8_bytes_in_every_form_are_text(label: str, form: Callable[[bytes], Any]) -> None:
    texts = [compact(PLAN), json.dumps(PLAN, indent=2), compact(PLAN) + " " * 262_144, "[1]", "{", ""]
    for text in texts:
        expected = momentum_plan.validate_plan(text, REQUEST)
        assert momentum_plan.validate_plan(form(text.encode("utf-8")), REQUEST) == expected
        assert momentum_plan.validate_plan(PLAN, form(compact(REQUEST).encode("utf-8"))) == momentum_plan.validate_plan(
            PLAN, REQUEST
        )
    assert momentum_plan.validate_plan(form(b'{"name": "\xff"}'), REQUEST) == momentum_plan.validate_plan(
        b'{"name": "\xff"}', REQUEST
    )
    broken = (EXAMPLES / "calm-weekday-broken.plan.json").read_bytes()
    assert momentum_plan.repair_plan(form(broken), form(compact(REQUEST).encode())) == momentum_plan.repair_plan(
        broken, REQUEST
    )
    assert momentum_plan.plan_schema(form(compact(REQUEST).encode())) == momentum_plan.plan_schema(REQUEST)
    with pytest.raises(ValueError, match=r"^request is not JSON: "):
        momentum_plan.validate_plan(PLAN, form(b"{"))


def test_a_memoryview_of_other_items_is_refused() -> None:
    for view in (memoryview(b"abcd").cast("I"), memoryview(bytearray(b"abcdef"))[::2]):
        with pytest.raises(TypeError, match=r"^plan at \$ is a memoryview object, which JSON cannot hold$"):
            momentum_plan.validate_plan(view, REQUEST)
    with pytest.raises(TypeError, match=r"^plan at \$.name is a bytearray object, which JSON cannot hold$"):
        momentum_plan.validate_plan(plan_with(["name"], bytearray(b"Calm")), REQUEST)


MAPPINGS: List[Any] = [("mappingproxy", types.MappingProxyType), ("custom-mapping", ReadOnly)]


@pytest.mark.parametrize("label,wrap", MAPPINGS, ids=[m[0] for m in MAPPINGS])
def test_any_mapping_is_an_object(label: str, wrap: Callable[[Dict[str, Any]], Any]) -> None:
    broken = json.loads((EXAMPLES / "calm-weekday-broken.plan.json").read_text(encoding="utf-8"))
    for plan in (PLAN, broken):
        expected = momentum_plan.validate_plan(plan, REQUEST)
        assert momentum_plan.validate_plan(mapped(plan, wrap), mapped(REQUEST, wrap)) == expected
        assert momentum_plan.validate_plan(wrap(plan), REQUEST) == expected
        assert momentum_plan.repair_plan(mapped(plan, wrap), REQUEST) == momentum_plan.repair_plan(plan, REQUEST)
    assert momentum_plan.plan_schema(mapped(REQUEST, wrap)) == momentum_plan.plan_schema(REQUEST)
    # the faults of a dict, worded by the core, with their paths
    with pytest.raises(TypeError) as info:
        momentum_plan.validate_plan(plan_with(["routine", "weekdays"], wrap({1: "mon"})), REQUEST)
    assert str(info.value) == (
        "plan at $.routine.weekdays has a member name that is an int (1), which JSON cannot hold "
        "(member names are strings)"
    )
    assert (info.value.path, info.value.kind) == ("$.routine.weekdays", "nonStringName")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"^plan at \$.routine.weekdays.mon is a set, which JSON cannot hold$"):
        momentum_plan.validate_plan(plan_with(["routine", "weekdays"], wrap({"mon": {1}})), REQUEST)


def test_a_mapping_that_holds_itself_is_a_cycle() -> None:
    inner: Dict[str, Any] = {}
    proxy = types.MappingProxyType(inner)
    inner["self"] = proxy
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan(plan_with(["request"], proxy), REQUEST)
    assert (info.value.path, info.value.kind) == ("$.request.self", "cycle")  # type: ignore[attr-defined]


def test_a_mapping_that_lists_a_name_twice_keeps_the_last_value() -> None:
    class Twice(ReadOnly):
        def items(self) -> Any:
            return [*self._data.items(), ("name", "first"), ("name", "Calm weekday")]

    plan = copy.deepcopy(PLAN)
    del plan["name"]
    got = momentum_plan.validate_plan(Twice({**plan}), REQUEST)
    twice = compact(plan)[:-1] + ',"name":"first","name":"Calm weekday"}'
    assert got == momentum_plan.validate_plan(twice, REQUEST)


def test_invalid_utf8_bytes_get_the_json_verdict() -> None:
    verdict = momentum_plan.validate_plan(b'{"name": "\xff"}', REQUEST)
    assert codes(verdict) == [("json", "$")]
    assert "UTF-8" in verdict["errors"][0]["message"]


def test_size_is_measured_on_the_text_as_given() -> None:
    padded = compact(PLAN) + " " * 262_144
    assert ("size", "$") in codes(momentum_plan.validate_plan(padded, REQUEST))
    assert momentum_plan.validate_plan(compact(PLAN), REQUEST)["valid"]


def test_request_forms_agree() -> None:
    expected = momentum_plan.validate_plan(PLAN, REQUEST)
    assert momentum_plan.validate_plan(PLAN, compact(REQUEST)) == expected
    assert momentum_plan.validate_plan(PLAN, json.dumps(REQUEST, indent=1).encode()) == expected
    assert momentum_plan.validate_plan(plan=PLAN, request=REQUEST) == expected


def test_request_text_that_is_not_json_is_refused() -> None:
    for text in ("{", "", "{'a': 1}", '{"a": NaN}'):
        with pytest.raises(ValueError, match=r"^request is not JSON: "):
            momentum_plan.validate_plan(PLAN, text)
    with pytest.raises(ValueError, match="UTF-8"):
        momentum_plan.validate_plan(PLAN, b"\xff")


def test_a_malformed_request_is_the_validators_business() -> None:
    for request in ([], None, 7, "[]", "null"):
        verdict = momentum_plan.validate_plan(PLAN, request)  # type: ignore[arg-type]
        assert ("requestInvalid", "$.request") in codes(verdict)


def test_the_verdict_is_plain_data_in_spec_order() -> None:
    verdict = momentum_plan.validate_plan(PLAN, REQUEST)
    assert type(verdict) is dict and list(verdict) == ["valid", "errors", "warnings", "checks"]
    assert verdict["valid"] is True and verdict["errors"] == []
    assert [list(w) for w in verdict["warnings"]] == [["code", "path", "message"]]
    assert json.loads(json.dumps(verdict)) == verdict


def test_the_contract() -> None:
    contract = momentum_plan.get_plan_contract()
    assert list(contract) == ["format", "contractVersion", "categories", "weekdays", "limits", "rules"]
    assert contract["format"] == momentum_plan.FORMAT == PLAN["format"]
    assert contract["contractVersion"] == momentum_plan.CONTRACT_VERSION == PLAN["contractVersion"]
    assert all(list(c) == ["id", "means"] for c in contract["categories"])
    assert len(contract["categories"]) == 9 and len(contract["weekdays"]) == 7 and len(contract["rules"]) == 8
    assert list(contract["limits"]) == list(momentum_plan.Limits.__annotations__)
    assert all(type(v) is int for v in contract["limits"].values())
    # Each call returns a new dict: changing one does not change the next.
    contract["rules"].clear()
    assert len(momentum_plan.get_plan_contract()["rules"]) == 8


def test_constants() -> None:
    assert momentum_plan.FORMAT == "daily-momentum-ai-plan"
    assert momentum_plan.CONTRACT_VERSION == 1
    assert isinstance(momentum_plan.__version__, str) and momentum_plan.__version__.count(".") == 2


def test_wrong_arguments_are_type_errors() -> None:
    call: Callable[..., Any] = momentum_plan.validate_plan
    with pytest.raises(TypeError):
        call(PLAN)
    with pytest.raises(TypeError):
        call(PLAN, REQUEST, REQUEST)
    with pytest.raises(TypeError):
        call(PLAN, requests=REQUEST)


def test_threads_get_their_own_verdicts() -> None:
    texts = [compact(plan_with(["routine", "blocks", 0, "durationMin"], n)) for n in range(0, 1000, 7)]
    expected = [momentum_plan.validate_plan(t, REQUEST) for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda t: momentum_plan.validate_plan(t, REQUEST), texts)) == expected
    assert threading.active_count() >= 1


def test_the_typed_usage_file_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """tests/typing/usage.py (checked by mypy --strict in test.sh) also runs as written."""
    runpy.run_path(str(HERE / "typing" / "usage.py"), run_name="__main__")
    assert "required $.name" in capsys.readouterr().out


# Issue 12: every fault text is the core's (host::HostFault, JsonError), and a dict becomes the
# core's tree in one pass, numbers in the core's form for in-memory values (validator.md §7).


@pytest.mark.parametrize(
    "value,text",
    [
        (float(2**53), "9007199254740992.0"),
        (-float(2**53), "-9007199254740992.0"),
        (1e20, "1e+20"),
        (1e21, "1e+21"),
        (-0.0, "-0.0"),
        (30.0, "30.0"),
    ],
)
def test_floats_take_the_cores_in_memory_form(value: float, text: str) -> None:
    plan = plan_with(["routine", "blocks", 0, "durationMin"], value)
    verdict = momentum_plan.validate_plan(plan, REQUEST)
    assert codes(verdict) == [("duration", "$.routine.blocks[0].durationMin")]
    assert f"durationMin is {text};" in verdict["errors"][0]["message"], verdict["errors"][0]["message"]
    # Byte for byte what the same text in the core's form gives (the size included).
    as_text = compact(plan).replace(json.dumps(value), text)
    assert verdict == momentum_plan.validate_plan(as_text, REQUEST)


@pytest.mark.parametrize("n", [2**53, -(2**53), 2**63, -(2**63) - 1, 2**64, 10**20, 10**21, -(10**40)])
def test_huge_ints_stay_integers(n: int) -> None:
    plan = plan_with(["routine", "blocks", 0, "durationMin"], n)
    verdict = momentum_plan.validate_plan(plan, REQUEST)
    assert verdict == momentum_plan.validate_plan(compact(plan), REQUEST)
    assert f"durationMin is {n};" in verdict["errors"][0]["message"]


@pytest.mark.parametrize("value,detail", [(float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity")])
def test_not_finite_floats_in_plan_and_request(value: float, detail: str) -> None:
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan({"x": [1, value]}, REQUEST)
    assert str(info.value) == f"plan at $.x[1] is {detail}, which JSON cannot hold (JSON has no NaN or Infinity)"
    assert (info.value.argument, info.value.path, info.value.kind) == ("plan", "$.x[1]", "notFinite")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=rf"^request at \$\.v is {detail}, which JSON cannot hold"):
        momentum_plan.validate_plan(PLAN, dict(REQUEST, v=value))


def test_a_lone_surrogate_in_a_plan_key_is_the_json_verdict() -> None:
    verdict = momentum_plan.validate_plan({"na\udc00me": 1}, REQUEST)
    assert codes(verdict) == [("json", "$")]
    assert "a lone surrogate (U+DC00) in a member name at $['na\ufffdme'] is not a character" in (
        verdict["errors"][0]["message"]
    )


def nested_request(levels: int) -> Any:
    """A request ``levels`` levels deep (the request itself is level 1)."""
    inner: Any = []
    for _ in range(levels - 2):
        inner = [inner]
    return dict(REQUEST, goal=inner)


def test_depth_512_and_513_in_the_request() -> None:
    verdict = momentum_plan.validate_plan(PLAN, nested_request(512))
    assert verdict == momentum_plan.validate_plan(PLAN, compact(nested_request(512)))
    with pytest.raises(ValueError) as info:
        momentum_plan.validate_plan(PLAN, nested_request(513))
    assert str(info.value) == (
        "request at $.goal" + "[0]" * 511 + " is nested deeper than 512 levels, which JSON cannot hold here"
    )
    assert info.value.kind == "tooDeep"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"^request is not JSON: nesting deeper than 512 levels is not allowed"):
        momentum_plan.validate_plan(PLAN, compact(nested_request(513)))


def test_depth_513_plan_verdict_matches_the_text() -> None:
    verdict = momentum_plan.validate_plan(nested(513), REQUEST)
    assert verdict["errors"][0]["message"].startswith(
        "The plan is not valid JSON: nesting deeper than 512 levels is not allowed"
    )


def test_a_json_plan_fault_still_reads_the_request_text() -> None:
    with pytest.raises(ValueError, match=r"^request is not JSON: "):
        momentum_plan.validate_plan({"name": "\ud83d"}, "{")


def test_the_bench_floor_walks_without_building_and_is_not_in_the_wheel() -> None:
    from momentum_plan import _native

    # The installed wheel has no bench-only export; the bench's own build (bench.py) has it.
    assert not hasattr(_native, "_walk")
    assert "_walk" not in momentum_plan.__all__
    bench = runpy.run_path(str(HERE.parent / "bench.py"), run_name="bench")
    native = bench["bench_native"]()
    assert native._walk({"a": [1, 2.5, "x", None, True]}) == (7, 2)
    with pytest.raises(ValueError, match=r"^plan at \$\.a is NaN"):
        native._walk({"a": float("nan")})
    assert native.validate_plan("{}", "{}") == momentum_plan.validate_plan("{}", "{}")
