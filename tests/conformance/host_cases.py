"""Python equivalents of the host-object cases (host_cases.mjs), keyed by the same ids.

Each builder gets the harness `h` (fresh copies of the example plan and request, their text,
`nest`) and returns `(plan, request)` for `momentum_plan.validate_plan`. A case of
host_cases.mjs without a builder here carries `noPython` (its reason) there; host_conformance.py
checks that every case has exactly one of the two.

An equivalent is the Python value that means what the JavaScript value means to the core:
- a JS number that is not an integer in the core's terms (beyond ±(2^53−1)) is a Python `float`
  (both are written by momentum_plan::float_text); a JS −0 is the integer 0 (Python has no
  integer −0; the float -0.0 is not an integer and is written -0.0);
- a boxed JS value is an `int`/`str` subclass instance; `true` boxed is plain `True` (no bool
  subclass);
- a member JS leaves out (undefined, toJSON returning undefined) is an absent key;
- a JS `Set` is a Python `set` (the message names the host's type: host_cases.mjs pythonMessage);
- JSON text as UTF-8 bytes (a JS `Uint8Array`/`Buffer`) is Python `bytes`, a `bytearray` or a
  `memoryview` (`*-utf8`, `bytes-not-utf8`); a Python `Mapping` that is not a `dict`
  (`mapping-proxy`, `custom-mapping`) is an object, as a dict is.
"""
from __future__ import annotations

import collections
import collections.abc
import copy
import decimal
import json
import types
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MAX_DEPTH = 512
PAYLOAD_BYTES = 262144


class Harness:
    def __init__(self) -> None:
        self.plan_text = (EXAMPLES / "calm-weekday.plan.json").read_text(encoding="utf-8")
        self.request_text = (EXAMPLES / "calm-weekday.request.json").read_text(encoding="utf-8")
        self._plan = json.loads(self.plan_text)
        self._request = json.loads(self.request_text)

    def plan(self) -> dict:
        return copy.deepcopy(self._plan)

    def request(self) -> dict:
        return copy.deepcopy(self._request)

    @staticmethod
    def nest(n: int, leaf):
        v = leaf
        for _ in range(n):
            v = [v]
        return v

    @staticmethod
    def compact(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _duration(h: Harness, v):
    plan = h.plan()
    plan["routine"]["blocks"][0]["durationMin"] = v
    return plan, h.request()


# as host_cases.mjs ESCAPES: escaped in compact JSON, or several UTF-8 bytes, or raw
ESCAPES = '"\\\b\f\n\r\t\u0001\u001f\u007f\u2028é😀' * 1000


def _padded(h: Harness, v, size: int, prefix: str = ""):
    plan = h.plan()
    plan["routine"]["blocks"][0]["durationMin"] = v  # json.dumps writes a float as float_text does
    plan["notes"] = prefix
    plan["notes"] = prefix + "x" * (size - len(h.compact(plan).encode("utf-8")))
    return plan, h.request()


def _set(path, value):
    def build(h: Harness):
        plan = h.plan()
        *head, last = path
        node = plan
        for k in head:
            node = node[k]
        node[last] = value
        return plan, h.request()

    return build


def _without(*path):
    def build(h: Harness):
        plan = h.plan()
        *head, last = path
        node = plan
        for k in head:
            node = node[k]
        del node[last]
        return plan, h.request()

    return build


class Int(int):
    """An int subclass: the nearest thing Python has to a boxed Number."""


class Str(str):
    """A str subclass: the nearest thing Python has to a boxed String."""


def _boxed(h: Harness):
    plan = h.plan()
    b = plan["routine"]["blocks"][0]
    b["durationMin"] = Int(30)
    b["activity"] = Str("Walk")
    b["essential"] = True
    return plan, h.request()


def _request_version_2pow53(h: Harness):
    plan, request = h.plan(), h.request()
    plan["request"]["requestVersion"] = float(2**53)
    request["requestVersion"] = float(2**53)
    return plan, request


def _set_days(h: Harness):
    request = h.request()
    request["commitments"][0]["days"] = set(request["commitments"][0]["days"])
    return h.plan(), request


def _surrogate_key(h: Harness):
    plan = h.plan()
    plan["routine"]["weekdays"] = {"mo\ud800n": plan["routine"]["blocks"]}
    return plan, h.request()


def _request_with(key, value):
    def build(h: Harness):
        request = h.request()
        request[key] = value
        return h.plan(), request

    return build


def _surrogate_request_key(h: Harness):
    request = h.request()
    request["commitments"][0]["la\udbffbel"] = "Work"
    return h.plan(), request


def _cycle_plan(h: Harness):
    plan = h.plan()
    plan["request"]["plan"] = plan
    return plan, h.request()


def _cycle_array(h: Harness):
    plan = h.plan()
    plan["routine"]["blocks"].append(plan["routine"]["blocks"])
    return plan, h.request()


def _cycle_request(h: Harness):
    request = h.request()
    request["commitments"][0]["request"] = request
    return h.plan(), request


def _shared(h: Harness):
    plan = h.plan()
    plan["routine"]["weekdays"] = {"mon": plan["routine"]["blocks"]}
    return plan, h.request()


def _deep_plan(levels: int, text: bool = False):
    def build(h: Harness):
        plan = h.plan()
        plan["routine"]["blocks"] = h.nest(levels, 0)
        return (h.compact(plan) if text else plan), h.request()

    return build


def _deep_request(levels: int, text: bool = False):
    def build(h: Harness):
        request = h.request()
        request["commitments"] = h.nest(levels, 0)
        return h.plan(), (h.compact(request) if text else request)

    return build


def walk():
    """A function named like the activity (case `function`)."""


def _tuple_ordereddict(h: Harness):
    plan = h.plan()
    plan["routine"]["blocks"] = tuple(plan["routine"]["blocks"])
    return collections.OrderedDict(plan), h.request()


def _int_key(h: Harness):
    plan = h.plan()
    plan["routine"]["weekdays"] = {1: plan["routine"]["blocks"]}
    return plan, h.request()


# as host_cases.mjs UTF8_NAME: a plan text whose bytes are not all ASCII
UTF8_NAME = "Café ☕ weekday"


def _utf8(form):
    """The example's plan and request as UTF-8 bytes in `form` (bytes, bytearray, memoryview)."""

    def build(h: Harness):
        plan = h.plan_text.replace("Calm weekday", UTF8_NAME)
        return form(plan.encode("utf-8")), form(h.request_text.encode("utf-8"))

    return build


class ReadOnly(collections.abc.Mapping):
    """A custom `Mapping` that is not a dict (read through `items()`)."""

    def __init__(self, data: dict) -> None:
        self._data = data

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _mapped(wrap):
    """The example's plan and request with every dict in them wrapped by `wrap`."""

    def deep(v):
        if isinstance(v, dict):
            return wrap({k: deep(x) for k, x in v.items()})
        if isinstance(v, list):
            return [deep(x) for x in v]
        return v

    return lambda h: (deep(h.plan()), deep(h.request()))


PYTHON = {
    "num-2pow53": lambda h: _duration(h, float(2**53)),
    "num-neg2pow53": lambda h: _duration(h, float(-(2**53))),
    "num-maxsafe": lambda h: _duration(h, 2**53 - 1),
    "num-1e20": lambda h: _duration(h, 1e20),
    "num-1e21": lambda h: _duration(h, 1e21),
    "num-neg0": lambda h: _duration(h, 0),
    "num-1e-6": lambda h: _duration(h, 1e-6),
    "num-30.5": lambda h: _duration(h, 30.5),
    "num-2pow53-request": _request_version_2pow53,
    "size-limit-2pow53": lambda h: _padded(h, float(2**53), PAYLOAD_BYTES),
    "size-over-2pow53": lambda h: _padded(h, float(2**53), PAYLOAD_BYTES + 1),
    "size-limit-1e20": lambda h: _padded(h, 1e20, PAYLOAD_BYTES),
    "size-limit-escapes": lambda h: _padded(h, 30, PAYLOAD_BYTES, ESCAPES),
    "size-over-escapes": lambda h: _padded(h, 30, PAYLOAD_BYTES + 1, ESCAPES),
    "set-days": _set_days,
    "boxed": _boxed,
    "tojson-undefined-member": _without("tagline"),
    "bigint-tojson": lambda h: _duration(h, "30"),
    "surrogate-value": _set(("name",), "Calm \ud83d weekday"),
    "surrogate-value-low": _set(("routine", "blocks", 1, "activity"), "Break\udc00fast"),
    "surrogate-key": _surrogate_key,
    "surrogate-text": lambda h: (h.plan_text.replace("Calm weekday", "Calm \ud83d weekday"), h.request()),
    "surrogate-text-after-emoji": lambda h: (h.plan_text.replace("Calm weekday", "😀 Calm \ud83d weekday"), h.request()),
    "surrogate-text-escape": lambda h: (h.plan_text.replace("Calm weekday", "Calm \\ud83d weekday"), h.request()),
    "surrogate-request-value": _request_with("goal", "A calmer \ude00 weekday"),
    "surrogate-request-key": _surrogate_request_key,
    "surrogate-request-text": lambda h: (h.plan(), h.request_text.replace("A calmer", "A \ud83d calmer")),
    "cycle-plan": _cycle_plan,
    "cycle-array": _cycle_array,
    "cycle-request": _cycle_request,
    "shared-not-cycle": _shared,
    "depth-plan-512": _deep_plan(MAX_DEPTH - 2),
    "depth-plan-513": _deep_plan(MAX_DEPTH - 1),
    "depth-plan-text-513": _deep_plan(MAX_DEPTH - 1, text=True),
    "depth-plan-100k": _deep_plan(100_000),
    "depth-request-100k": _deep_request(100_000),
    "depth-request-512": _deep_request(MAX_DEPTH - 1),
    "depth-request-513": _deep_request(MAX_DEPTH),
    "depth-request-text-513": _deep_request(MAX_DEPTH, text=True),
    "undefined-member": _without("tagline"),
    "getter": lambda h: (h.plan(), h.request()),
    "nan": lambda h: _duration(h, float("nan")),
    "infinity": lambda h: _duration(h, float("inf")),
    "neg-infinity-request": _request_with("requestVersion", float("-inf")),
    "function": _set(("routine", "blocks", 0, "activity"), walk),
    "boxed-string-plan": lambda h: (Str(h.plan_text), h.request()),
    "boxed-string-request": lambda h: (h.plan(), Str(h.request_text)),
    "null-plan": lambda h: (None, h.request()),
    "number-plan": lambda h: (float(2**53), h.request()),
    "null-request": lambda h: (h.plan(), None),
    "request-text-not-json": lambda h: (h.plan(), '{"requestId": "req-2026-10-05-calm-weekday",'),
    "plan-text-not-json": lambda h: (h.plan_text[:200], h.request()),
    # Python's own host values (host_cases.mjs: noJs)
    "py-neg-zero-float": lambda h: _duration(h, -0.0),
    "py-int-2pow64": lambda h: _duration(h, 2**64),
    "py-bool": lambda h: _duration(h, True),
    "py-tuple-ordereddict": _tuple_ordereddict,
    "py-int-key": _int_key,
    "py-decimal": lambda h: _duration(h, decimal.Decimal("30")),
    "bytes-utf8": _utf8(bytes),
    "bytearray-utf8": _utf8(bytearray),
    "memoryview-utf8": _utf8(memoryview),
    "bytes-not-utf8": lambda h: (h.plan_text.encode("utf-8").replace(b"Calm", b"C\xffalm"), h.request()),
    "mapping-proxy": _mapped(types.MappingProxyType),
    "custom-mapping": _mapped(ReadOnly),
}
