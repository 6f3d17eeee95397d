"""``plan_to_icalendar`` and ``commitments_from_icalendar`` (issue 32) against the calendar crate's
own answers, read at test time.

1. Every shared vector through ``plan_to_icalendar`` (the plan as given, and an object plan as its
   JSON text): a valid plan's ``{"text", "events", "warnings"}`` equals the crate's ``ics`` driver
   (``cargo run -p momentum-plan-calendar --example ics``) on the same input, the calendar text byte
   for byte; an invalid plan gives the core's verdict (the ``validate`` driver's bytes); a request
   the crate cannot place raises ``ValueError`` with the driver's error text.
2. The app-style fixtures (``calendar/tests/fixtures``) through ``commitments_from_icalendar``:
   the commitments are each fixture's ``.expected.json``, the whole result the driver's.
3. Bad input: a malformed file (``.line``), a bad date or zone, a bad ``dtstamp``, non-``str``
   arguments, the request faults ``validate_plan`` raises.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import momentum_plan
from conftest import EXAMPLES, ROOT, VECTOR_LIST, compact

STAMP = "20261207T120000Z"
FIXTURES = ROOT / "calendar" / "tests" / "fixtures"


def run_ics(inputs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The calendar crate's answer to each input object (its ``ics`` example, JSON lines)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    exe = target / "release" / "examples" / "ics"
    if not exe.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "-p", "momentum-plan-calendar", "--example", "ics"],
            cwd=ROOT,
            check=True,
        )
    data = "".join(compact(i) + "\n" for i in inputs).encode("utf-8")
    out = subprocess.run([str(exe)], input=data, capture_output=True, check=True).stdout.decode("utf-8")
    lines = out.split("\n")[:-1]
    assert len(lines) == len(inputs)
    return [json.loads(line) for line in lines]


def test_every_vector_exports_as_the_crate_does(core_verdicts: Dict[str, Dict[str, str]]) -> None:
    vectors = [v for v in VECTOR_LIST if isinstance(v["request"], dict)]
    answers = run_ics([{"export": {"plan": v["plan"], "request": v["request"], "dtstamp": STAMP}} for v in vectors])
    kinds: Dict[str, int] = {}
    for v, want in zip(vectors, answers):
        kind = want.get("kind", "calendar")
        kinds[kind] = kinds.get(kind, 0) + 1
        forms = [v["plan"]] if isinstance(v["plan"], str) else [v["plan"], compact(v["plan"])]
        for plan in forms:
            if kind == "calendar":
                got = momentum_plan.plan_to_icalendar(plan, v["request"], STAMP)
                assert got == want, v["id"]
            elif kind == "Invalid":
                got = momentum_plan.plan_to_icalendar(plan, v["request"], STAMP)
                assert got == json.loads(core_verdicts["given"][v["id"]]), v["id"]
                assert got["valid"] is False
            else:
                with pytest.raises(ValueError) as e:
                    momentum_plan.plan_to_icalendar(plan, v["request"], STAMP)
                assert str(e.value) == want["error"], v["id"]
                assert e.value.argument == "request"  # type: ignore[attr-defined]
                field = "$.timezone" if kind == "BadTimezone" else "$.startDate"
                assert e.value.path == field, v["id"]  # type: ignore[attr-defined]
    # The vectors hold calendars, invalid plans and requests without a start date.
    assert kinds.get("calendar", 0) > 10 and kinds.get("Invalid", 0) > 1000, kinds


def test_the_example_plan_as_bytes_and_its_warnings() -> None:
    plan = (EXAMPLES / "calm-weekday.plan.json").read_bytes()
    request = (EXAMPLES / "calm-weekday.request.json").read_text(encoding="utf-8")
    got = momentum_plan.plan_to_icalendar(plan, request, STAMP)
    assert "text" in got
    assert got == momentum_plan.plan_to_icalendar(bytearray(plan), json.loads(request), STAMP)
    assert "DTSTART;TZID=Europe/Zurich:20261005T090000\r\n" in got["text"]
    assert got["warnings"] == []
    # Not UTF-8: the core's json verdict, as validate_plan gives it.
    bad = b'{"a": "\xff"}'
    assert momentum_plan.plan_to_icalendar(bad, request, STAMP) == momentum_plan.validate_plan(bad, request)


def fixture_names() -> List[str]:
    return ["google", "apple", "outlook"]


@pytest.mark.parametrize("name", fixture_names())
def test_app_style_fixtures_import_to_their_expected_commitments(name: str) -> None:
    ics = (FIXTURES / f"{name}.ics").read_text(encoding="utf-8")
    expected = json.loads((FIXTURES / f"{name}.expected.json").read_text(encoding="utf-8"))
    got = momentum_plan.commitments_from_icalendar(ics, "2026-10-05", "Europe/Zurich")
    assert got["commitments"] == expected["commitments"]
    assert [s["summary"] for s in got["skipped"]] == [s[0] for s in expected["skipped"]]
    (want,) = run_ics([{"import": {"ics": ics, "startDate": "2026-10-05", "timezone": "Europe/Zurich"}}])
    assert got == want
    assert list(got) == ["commitments", "skipped"]
    assert list(got["commitments"][0]) == ["label", "days", "start", "end"]


def test_the_round_trip_gives_the_blocks_back() -> None:
    plan = json.loads((EXAMPLES / "calm-weekday.plan.json").read_text(encoding="utf-8"))
    export = momentum_plan.plan_to_icalendar(plan, plan["request"], STAMP)
    assert "text" in export
    back = momentum_plan.commitments_from_icalendar(export["text"], "2026-10-05", "Europe/Zurich")
    blocks = plan["routine"]["blocks"]
    assert [(c["label"], c["start"]) for c in back["commitments"]] == [(b["activity"], b["start"]) for b in blocks]
    # The imported commitments in the request: the plan's blocks collide with none of their own.
    request = dict(plan["request"], commitments=back["commitments"])
    verdict = momentum_plan.validate_plan(dict(plan, request=request), request)
    assert [i for i in verdict["errors"] if i["code"] == "commitment"] == []


def test_import_errors_name_the_line_and_the_argument() -> None:
    with pytest.raises(ValueError) as e:
        momentum_plan.commitments_from_icalendar("BEGIN:VCALENDAR\r\nnot a line\r\n", "2026-10-05", "Europe/Zurich")
    assert str(e.value).startswith("the calendar file is malformed at line 2: ")
    assert e.value.line == 2  # type: ignore[attr-defined]
    for start, zone, text in [
        ("2026-13-01", "Europe/Zurich", 'startDate "2026-13-01" is not a date YYYY-MM-DD'),
        ("2026-10-05", "Mars/Olympus", 'timezone "Mars/Olympus" is not a time zone name of the tz database'),
    ]:
        with pytest.raises(ValueError) as e:
            momentum_plan.commitments_from_icalendar("", start, zone)
        assert str(e.value) == text
        assert e.value.line is None  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        momentum_plan.commitments_from_icalendar(b"BEGIN:VCALENDAR", "2026-10-05", "Europe/Zurich")  # type: ignore[arg-type]


def test_export_errors() -> None:
    plan = json.loads((EXAMPLES / "calm-weekday.plan.json").read_text(encoding="utf-8"))
    with pytest.raises(ValueError) as e:
        momentum_plan.plan_to_icalendar(plan, plan["request"], "2026-12-07")
    assert str(e.value) == 'dtstamp "2026-12-07" is not a UTC date-time YYYYMMDDTHHMMSSZ (e.g. "20261207T120000Z")'
    assert (e.value.argument, e.value.path) == ("dtstamp", "$")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        momentum_plan.plan_to_icalendar(plan, plan["request"], None)  # type: ignore[arg-type]
    # The request's faults are validate_plan's, class, text and attributes.
    for request in ["{not json", {"x": {1, 2}}]:
        with pytest.raises((TypeError, ValueError)) as want:
            momentum_plan.validate_plan(plan, request)
        with pytest.raises(want.type) as got:
            momentum_plan.plan_to_icalendar(plan, request, STAMP)
        assert str(got.value) == str(want.value)
        assert got.value.path == want.value.path  # type: ignore[attr-defined]
    # A plan value JSON cannot hold: the same exception as validate_plan's.
    with pytest.raises(TypeError) as got:
        momentum_plan.plan_to_icalendar({"x": {1}}, plan["request"], STAMP)
    assert str(got.value) == "plan at $.x is a set, which JSON cannot hold"
