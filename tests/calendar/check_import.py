"""The calendar import checked on files written by an independent generator (issue 32).

Each case builds a calendar with Python `icalendar` (its own serializer: folding, escaping,
VTIMEZONEs from zoneinfo, RRULE/EXDATE/RDATE values), passes the text to the Rust crate (its
`ics` example, JSON lines) and compares the commitments with two expectations:

* the commitments written here by hand for the case;
* the same week expanded by `recurring-ical-events` and grouped by the crate's documented rules
  (calendar/README.md: instances starting in the week, converted to the request's zone, all-day
  and TRANSP:TRANSPARENT events left out, same label/start/end on several days is one
  commitment, ordered by first occurrence then label).

Usage: check_import.py ICS_EXAMPLE_BINARY
Prints 'N passed, M failed' and exits 1 on any failure.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import zoneinfo

import icalendar
import recurring_ical_events

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Z = zoneinfo.ZoneInfo
ZURICH = Z("Europe/Zurich")


def event(summary: str, start, end=None, duration=None, **props) -> icalendar.Event:
    e = icalendar.Event()
    e.add("uid", f"{summary.replace(' ', '-').lower()}@generated.test")
    e.add("dtstamp", dt.datetime(2026, 10, 1, 8, 0, tzinfo=dt.timezone.utc))
    e.add("summary", summary)
    e.add("dtstart", start)
    if end is not None:
        e.add("dtend", end)
    if duration is not None:
        e.add("duration", duration)
    for k, v in props.items():
        e.add(k.replace("_", "-"), v)
    return e


def calendar(*events: icalendar.Event) -> str:
    cal = icalendar.Calendar()
    cal.add("prodid", "-//check_import.py//icalendar//EN")
    cal.add("version", "2.0")
    for e in events:
        cal.add_component(e)
    cal.add_missing_timezones()
    return cal.to_ical().decode()


def c(label, days, start, end):
    return {"label": label, "days": days, "start": start, "end": end}


def d(y, m, day, h=0, mi=0, tz=ZURICH):
    return dt.datetime(y, m, day, h, mi, tzinfo=tz)


CASES = [
    (
        "a week of rules, zones and exceptions",
        lambda: calendar(
            event("Yoga", d(2026, 9, 1, 18, 30), d(2026, 9, 1, 19, 30), rrule={"freq": "weekly", "byday": ["TU", "TH"]}),
            event("Standup", dt.datetime(2026, 9, 28, 7, 0, tzinfo=dt.timezone.utc), duration=dt.timedelta(minutes=15),
                  rrule={"freq": "daily", "count": 30}),
            event("Flight", d(2026, 10, 9, 23, 30, Z("Asia/Tokyo")), d(2026, 10, 10, 2, 0, Z("Asia/Tokyo"))),
            event("Late film", d(2026, 10, 7, 23, 0), d(2026, 10, 8, 1, 30)),
            event("Holiday", dt.date(2026, 10, 8), dt.date(2026, 10, 9)),
            event("Coffee maybe", d(2026, 10, 6, 10, 0), d(2026, 10, 6, 10, 30), transp="TRANSPARENT"),
            event("Piano", d(2026, 9, 7, 17, 0), d(2026, 9, 7, 17, 45), rrule={"freq": "weekly"},
                  exdate=[d(2026, 10, 5, 17, 0)]),
            event("Physio", d(2026, 10, 6, 10, 0), duration=dt.timedelta(minutes=45), rdate=[d(2026, 10, 9, 10, 0)]),
            event("Read", dt.datetime(2026, 10, 11, 21, 0), dt.datetime(2026, 10, 11, 21, 30)),
            event("Choir; tenors, basses", d(2026, 9, 2, 19, 30), d(2026, 9, 2, 21, 0),
                  rrule={"freq": "weekly", "interval": 2, "until": d(2026, 12, 31, 23, 0)}),
        ),
        "2026-10-05", "Europe/Zurich",
        [
            c("Standup", WEEKDAYS, "09:00", "09:15"),
            c("Physio", ["tue", "fri"], "10:00", "10:45"),
            c("Yoga", ["tue", "thu"], "18:30", "19:30"),
            c("Late film", ["wed"], "23:00", "01:30"),
            c("Flight", ["fri"], "16:30", "19:00"),
            c("Read", ["sun"], "21:00", "21:30"),
        ],
        ["Holiday", "Coffee maybe"],
    ),
    (
        # 2026-10-25 Europe leaves summer time, 2026-11-01 the United States: New York is five
        # hours behind Zurich that week, not six
        "the week Europe and America change on different Sundays",
        lambda: calendar(
            event("NY sync", d(2026, 9, 7, 9, 0, Z("America/New_York")), d(2026, 9, 7, 9, 30, Z("America/New_York")),
                  rrule={"freq": "weekly", "byday": ["MO", "TH"]}),
            event("Sydney call", d(2026, 10, 27, 8, 0, Z("Australia/Sydney")), d(2026, 10, 27, 9, 0, Z("Australia/Sydney"))),
        ),
        "2026-10-26", "Europe/Zurich",
        [
            c("NY sync", ["mon", "thu"], "14:00", "14:30"),
            c("Sydney call", ["mon"], "22:00", "23:00"),
        ],
        [],
    ),
]


def independent(text: str, start: str, tz: str) -> list[dict]:
    """The week expanded by recurring-ical-events, grouped by the README's rules."""
    z = Z(tz)
    lo = dt.datetime.combine(dt.date.fromisoformat(start), dt.time(), tzinfo=z)
    hi = lo + dt.timedelta(days=7)
    cal = icalendar.Calendar.from_ical(text)
    groups: dict[tuple, list] = {}
    for ev in recurring_ical_events.of(cal).between(lo, hi):
        s = ev.start
        if not isinstance(s, dt.datetime) or str(ev.get("TRANSP", "")).upper() == "TRANSPARENT":
            continue
        e = ev.end
        if s.tzinfo is None:
            s, e = s.replace(tzinfo=z), e.replace(tzinfo=z)
        s, e = s.astimezone(z), e.astimezone(z)
        if not (lo <= s < hi):
            continue
        key = (str(ev["SUMMARY"]).strip(), f"{s.hour:02}:{s.minute:02}", f"{e.hour:02}:{e.minute:02}")
        g = groups.setdefault(key, [s.astimezone(dt.timezone.utc), set()])
        g[0] = min(g[0], s.astimezone(dt.timezone.utc))
        g[1].add(s.weekday())
    ordered = sorted(groups.items(), key=lambda kv: (kv[1][0], kv[0][0]))
    return [c(k[0], [WEEKDAYS[i] for i in sorted(v[1])], k[1], k[2]) for k, v in ordered]


def main() -> int:
    binary = sys.argv[1]
    built = [(name, make(), start, tz, want, skipped) for name, make, start, tz, want, skipped in CASES]
    lines = "".join(json.dumps({"import": {"ics": t, "startDate": s, "timezone": z}}) + "\n"
                    for _, t, s, z, _, _ in built)
    out = subprocess.run([binary], input=lines.encode(), capture_output=True, check=True).stdout.decode()
    answers = [json.loads(l) for l in out.splitlines()]
    failures = []
    for (name, text, start, tz, want, skipped), a in zip(built, answers):
        if "error" in a:
            failures.append(f"{name}: {a['error']}")
            continue
        if a["commitments"] != want:
            failures.append(f"{name}: commitments {a['commitments']} != hand-written {want}")
        other = independent(text, start, tz)
        if a["commitments"] != other:
            failures.append(f"{name}: commitments {a['commitments']} != recurring-ical-events' {other}")
        if [s["summary"] for s in a["skipped"]] != skipped:
            failures.append(f"{name}: skipped {a['skipped']} != {skipped}")
    for f in failures:
        print("FAIL", f)
    print(f"calendar import: {len(built)} calendars made by icalendar {icalendar.__version__}, "
          "checked against hand-written commitments and recurring-ical-events")
    print(f"{len(built) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
