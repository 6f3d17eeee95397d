"""The calendar export checked by an independent implementation (issue 32, "How it is checked").

Every valid shared vector is exported by the Rust crate (its `ics` example, JSON lines) and the
calendar text is read back and expanded over the plan's first week by Python `icalendar` and
`recurring-ical-events`. The expectation is computed here from the plan JSON itself:

* a routine: on each date of [startDate, startDate + 7 days) the day's block list (the weekday's
  `routine.weekdays` list, else `routine.blocks`) gives one occurrence per block: (date, local
  start HH:MM, duration in minutes, summary = activity); none missing, none extra. The VTIMEZONE
  the crate wrote is also turned into a tzinfo by `icalendar` and must give zoneinfo's offset at
  every occurrence;
* a goal plan: one VTODO per activity, due on startDate + day - 1, guidance and "Done when" in
  the description;
* a request the crate must refuse (startDate missing or not a date, a timezone that zoneinfo does
  not know) gets that error kind.

Then daylight-saving weeks in Europe/Zurich, America/New_York and Australia/Sydney (both
transitions): the warnings are exactly the block starts that zoneinfo finds non-existent or
ambiguous within the horizon (one year), and each occurrence in the transition week expands to the
instant RFC 5545 section 3.3.5 gives (a start in a gap moved forward by the gap, an ambiguous one at
its first instant: PEP 495's fold=0, which is the same rule).

Usage: check_export.py SHARED_VECTORS_DIR ICS_EXAMPLE_BINARY
Prints 'N passed, M failed' and exits 1 on any failure (the first ones are shown with their id).
"""

from __future__ import annotations

import datetime as dt
import json
import pathlib
import subprocess
import sys
import zoneinfo

import icalendar
import recurring_ical_events

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
UTC = dt.timezone.utc
# plan texts hold integers of thousands of digits (shared/vectors README)
sys.set_int_max_str_digits(0)


def run_binary(binary: str, inputs: list[dict]) -> list[dict]:
    text = "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in inputs)
    out = subprocess.run([binary], input=text.encode(), capture_output=True, check=True).stdout
    answers = [json.loads(line) for line in out.decode().splitlines()]
    assert len(answers) == len(inputs), f"{len(answers)} answers for {len(inputs)} inputs"
    return answers


def expected_refusal(plan: dict, request: dict) -> str | None:
    """The error kind the crate must give, from the request alone (README's decisions)."""
    sd = request.get("startDate")
    if sd is None:
        return "MissingStartDate"
    if not isinstance(sd, str):
        return "BadStartDate"
    try:
        if len(sd) != 10:
            raise ValueError
        dt.date.fromisoformat(sd)
    except ValueError:
        return "BadStartDate"
    if plan.get("kind") == "goal":
        return None
    tz = request.get("timezone")
    if tz is None:
        return None
    if not isinstance(tz, str):
        return "BadTimezone"
    try:
        zoneinfo.ZoneInfo(tz)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "BadTimezone"
    return None


def check_text_form(text: str) -> list[str]:
    problems = []
    if not text.endswith("\r\n"):
        problems.append("the text does not end with CRLF")
    for line in text.split("\r\n"):
        if "\n" in line or "\r" in line:
            problems.append("a bare line break")
        if len(line.encode()) > 75:
            problems.append(f"a line of {len(line.encode())} octets: {line[:40]!r}")
    return problems


def minutes(t: str) -> int:
    return int(t[:2]) * 60 + int(t[3:])


def routine_expected(plan: dict, start: dt.date) -> list[tuple]:
    routine = plan["routine"]
    weekdays = routine.get("weekdays")
    weekdays = weekdays if isinstance(weekdays, dict) else {}
    out = []
    for k in range(7):
        day = start + dt.timedelta(days=k)
        wd = WEEKDAYS[day.weekday()]
        blocks = weekdays[wd] if wd in weekdays else routine["blocks"]
        for b in blocks:
            out.append((day.isoformat(), b["start"], int(b["durationMin"]), b["activity"]))
    return sorted(out)


def routine_actual(cal: icalendar.Calendar, start: dt.date, tzname: str | None) -> tuple[list[tuple], list[str]]:
    problems = []
    lo = dt.datetime.combine(start, dt.time())
    hi = lo + dt.timedelta(days=7)
    if tzname is not None:
        z = zoneinfo.ZoneInfo(tzname)
        lo, hi = lo.replace(tzinfo=z), hi.replace(tzinfo=z)
        vtz = [c for c in cal.walk("VTIMEZONE")]
        if len(vtz) != 1:
            problems.append(f"{len(vtz)} VTIMEZONE components")
            own = None
        else:
            own = vtz[0].to_tz()
    out = []
    for ev in recurring_ical_events.of(cal).between(lo, hi):
        s, e = ev.start, ev.end
        if tzname is None:
            if s.tzinfo is not None:
                problems.append(f"a floating export has a zoned start {s}")
            dur = (e - s).total_seconds() / 60
        else:
            local = s.astimezone(zoneinfo.ZoneInfo(tzname))
            if own is not None:
                naive = local.replace(tzinfo=None)
                mine = own.utcoffset(naive)
                theirs = local.utcoffset()
                if mine != theirs:
                    problems.append(f"VTIMEZONE gives {mine} at {naive}, zoneinfo {theirs}")
            dur = (e.astimezone(UTC) - s.astimezone(UTC)).total_seconds() / 60
            s = local
        out.append((s.date().isoformat(), f"{s.hour:02}:{s.minute:02}", int(dur), str(ev["SUMMARY"])))
    return sorted(out), problems


def check_goal(plan: dict, cal: icalendar.Calendar, start: dt.date) -> list[str]:
    expected = []
    for d, day in enumerate(plan["goal"]["days"]):
        acts = day.get("activities") if isinstance(day, dict) else None
        for a in acts if isinstance(acts, list) else []:
            expected.append(((start + dt.timedelta(days=d)).isoformat(), a["title"], a["category"], a["guidance"], a["doneWhen"]))
    actual = []
    for todo in cal.walk("VTODO"):
        due = todo["DUE"].dt
        desc = str(todo["DESCRIPTION"])
        actual.append((due.isoformat(), str(todo["SUMMARY"]), str(todo["CATEGORIES"].cats[0]), desc, desc))
    problems = []
    if len(actual) != len(expected):
        problems.append(f"{len(actual)} VTODOs, expected {len(expected)}")
    for exp, act in zip(expected, actual):
        if exp[:3] != act[:3] or exp[3] not in act[3] or f"Done when: {exp[4]}" not in act[4]:
            problems.append(f"VTODO {act[:3]} differs from the activity {exp[:3]}")
            break
    return problems


def check_uids(cal: icalendar.Calendar) -> list[str]:
    uids = [str(c["UID"]) for c in cal.walk() if c.name in ("VEVENT", "VTODO")]
    return [] if len(set(uids)) == len(uids) else ["duplicate UIDs"]


def check_vectors(vectors_dir: pathlib.Path, binary: str) -> tuple[int, list[str]]:
    cases = []
    for f in sorted(vectors_dir.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            v = json.loads(line)
            if v["expect"]["valid"]:
                cases.append(v)
    inputs = [{"export": {"plan": v["plan"], "request": v["request"], "dtstamp": "20261207T120000Z"}} for v in cases]
    answers = run_binary(binary, inputs)
    failures = []
    for v, a in zip(cases, answers):
        plan = v["plan"] if isinstance(v["plan"], dict) else json.loads(v["plan"])
        request = v["request"]
        problems = []
        refusal = expected_refusal(plan, request)
        if refusal is not None:
            if a.get("kind") != refusal:
                problems.append(f"expected the error {refusal}, got {a.get('kind') or 'a calendar'}")
        elif "error" in a:
            problems.append(f"refused: {a['error']}")
        else:
            text = a["text"]
            problems += check_text_form(text)
            cal = icalendar.Calendar.from_ical(text)
            problems += check_uids(cal)
            start = dt.date.fromisoformat(request["startDate"])
            if plan["kind"] == "goal":
                problems += check_goal(plan, cal, start)
            else:
                tzname = request.get("timezone")
                actual, more = routine_actual(cal, start, tzname)
                problems += more
                expected = routine_expected(plan, start)
                if actual != expected:
                    missing = [x for x in expected if x not in actual]
                    extra = [x for x in actual if x not in expected]
                    problems.append(f"occurrences differ: missing {missing[:3]}, extra {extra[:3]}")
        if problems:
            failures.append(f"{v['id']}: {'; '.join(problems[:3])}")
    return len(cases), failures


# --- daylight-saving weeks ----------------------------------------------------------------------

# zone -> (the Monday of a week holding a transition, as startDate); the horizon (one year) holds
# the other transition.
DST_WEEKS = {
    "Europe/Zurich": ["2027-03-22", "2026-10-19"],
    "America/New_York": ["2027-03-08", "2026-10-26"],
    "Australia/Sydney": ["2026-09-28", "2027-03-29"],
}
# Sunday's blocks, every start near 01:00-03:00 (the transitions of the three zones), in order.
SUNDAY = ["00:30", "00:59", "01:00", "01:30", "01:59", "02:00", "02:30", "02:59", "03:00", "03:30"]


def dst_plan(zone: str, start: str) -> tuple[dict, dict]:
    request = {"requestId": f"dst-{zone}-{start}", "kind": "routine", "timezone": zone, "startDate": start}
    sunday = []
    prev = None
    for s in SUNDAY:
        if prev is not None:
            sunday[-1]["durationMin"] = minutes(s) - minutes(prev)
        sunday.append({"start": s, "durationMin": 29, "activity": f"Block {s}", "category": "mind", "essential": False})
        prev = s
    plan = {
        "format": "daily-momentum-ai-plan", "contractVersion": 1, "requestId": request["requestId"], "kind": "routine",
        "name": "Night owl", "tagline": "Blocks around the clock change.", "description": "Starts near 02:00.",
        "routine": {"blocks": [{"start": "12:00", "durationMin": 60, "activity": "Lunch", "category": "nourish",
                                "essential": True}], "weekdays": {"sun": sunday}},
        "request": request,
    }
    return plan, request


def rfc_instant(day: dt.date, hhmm: str, z: zoneinfo.ZoneInfo) -> dt.datetime:
    """RFC 5545 3.3.5's reading of a local time: PEP 495 fold=0 (gap: forward; fold: first)."""
    return dt.datetime.combine(day, dt.time(int(hhmm[:2]), int(hhmm[3:]), fold=0), tzinfo=z).astimezone(UTC)


def dst_kind(day: dt.date, hhmm: str, z: zoneinfo.ZoneInfo) -> str | None:
    naive = dt.datetime.combine(day, dt.time(int(hhmm[:2]), int(hhmm[3:])))
    a, b = naive.replace(tzinfo=z, fold=0), naive.replace(tzinfo=z, fold=1)
    if a.utcoffset() == b.utcoffset():
        return None
    round_trip = a.astimezone(UTC).astimezone(z).replace(tzinfo=None)
    return "gap" if round_trip != naive else "fold"


def check_dst(binary: str) -> tuple[int, list[str]]:
    cases = [(zone, start) for zone, starts in DST_WEEKS.items() for start in starts]
    pairs = [dst_plan(zone, start) for zone, start in cases]
    answers = run_binary(binary, [{"export": {"plan": p, "request": r}} for p, r in pairs])
    failures = []
    for (zone, start), (plan, _), a in zip(cases, pairs, answers):
        name = f"dst {zone} {start}"
        if "error" in a:
            failures.append(f"{name}: refused: {a['error']}")
            continue
        z = zoneinfo.ZoneInfo(zone)
        first = dt.date.fromisoformat(start)
        try:
            horizon = first.replace(year=first.year + 1)
        except ValueError:
            horizon = first.replace(year=first.year + 1, day=28)
        expected = []
        day = first
        while day < horizon:
            if day.weekday() == 6:
                for i, b in enumerate(plan["routine"]["weekdays"]["sun"]):
                    kind = dst_kind(day, b["start"], z)
                    if kind:
                        expected.append((day.isoformat(), f"$.routine.weekdays.sun[{i}]", kind))
            elif dst_kind(day, "12:00", z):
                expected.append((day.isoformat(), "$.routine.blocks[0]", "?"))
            day += dt.timedelta(days=1)
        actual = [(w["date"], w["path"], "gap" if "does not exist" in w["message"] else "fold") for w in a["warnings"]]
        if actual != expected:
            failures.append(f"{name}: warnings {actual} != expected {expected}")
        if len({e[0] for e in expected}) != 2:
            failures.append(f"{name}: expected both transitions within the horizon, got {expected}")
        # the transition week expanded: each occurrence at the RFC's instant
        cal = icalendar.Calendar.from_ical(a["text"])
        lo = dt.datetime.combine(first, dt.time(), tzinfo=z)
        got = sorted((ev["DTSTART"].dt.astimezone(UTC), str(ev["SUMMARY"]))
                     for ev in recurring_ical_events.of(cal).between(lo, lo + dt.timedelta(days=7)))
        want = []
        for k in range(7):
            d = first + dt.timedelta(days=k)
            blocks = plan["routine"]["weekdays"]["sun"] if d.weekday() == 6 else plan["routine"]["blocks"]
            want += [(rfc_instant(d, b["start"], z), b["activity"]) for b in blocks]
        if got != sorted(want):
            failures.append(f"{name}: expanded {[(str(g[0]), g[1]) for g in got if g not in want][:3]} "
                            f"instead of {[(str(w[0]), w[1]) for w in want if w not in got][:3]}")
    return len(cases), failures


def main() -> int:
    vectors_dir, binary = pathlib.Path(sys.argv[1]), sys.argv[2]
    n1, f1 = check_vectors(vectors_dir, binary)
    n2, f2 = check_dst(binary)
    failures = f1 + f2
    for f in failures[:20]:
        print("FAIL", f)
    total = n1 + n2
    print(f"calendar export: {n1} valid vectors and {n2} daylight-saving weeks checked with icalendar "
          f"{icalendar.__version__} and recurring-ical-events")
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
