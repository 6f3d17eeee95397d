//! The import (issue 32 item 2) on files in the style of Google Calendar, Apple Calendar and
//! Outlook (`tests/fixtures`, written from their documented export formats), then a plan for the
//! request with those commitments validated by the core. The files made by Python `icalendar` at
//! test time are `tests/calendar/check_import.py`.

// A test reads its fixture files; the crate itself does no I/O.
#![allow(clippy::disallowed_methods)]

use momentum_plan::Value;
use momentum_plan_calendar::{ImportError, commitments_from_icalendar};
use serde_json::json;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The commitments and the skipped summaries of a fixture for the week of 2026-10-05 in Zurich.
fn import(name: &str) -> (Value, Vec<(String, String)>) {
    let x = commitments_from_icalendar(&fixture(name), "2026-10-05", "Europe/Zurich").unwrap();
    let skipped = x.skipped.iter().map(|s| (s.summary.clone(), s.why.clone())).collect();
    (serde_json::to_value(&x.commitments).unwrap(), skipped)
}

/// Each app-style fixture's commitments equal its `<name>.expected.json`, and its skipped events
/// are the listed ones, each with a why that holds the listed word.
#[test]
fn google_apple_and_outlook_style_files() {
    for name in ["google", "apple", "outlook"] {
        let expected: Value = serde_json::from_str(&fixture(&format!("{name}.expected.json"))).unwrap();
        let (c, got) = import(&format!("{name}.ics"));
        assert_eq!(c, expected["commitments"], "{name}");
        let skipped = expected["skipped"].as_array().unwrap();
        assert_eq!(got.len(), skipped.len(), "{name}: {got:?}");
        for ((summary, why), want) in got.iter().zip(skipped) {
            assert_eq!(summary, want[0].as_str().unwrap(), "{name}");
            let word = want[1].as_str().unwrap();
            assert!(why.contains(word), "{name}: {why:?} does not say {word:?}");
        }
    }
}

#[test]
fn the_same_file_in_another_zone_moves_the_times() {
    let x = commitments_from_icalendar(&fixture("google.ics"), "2026-10-05", "America/New_York").unwrap();
    let work = x.commitments.iter().find(|c| c.label == "Work").unwrap();
    assert_eq!((work.start.as_str(), work.end.as_str()), ("03:00", "11:00"));
    let call = x.commitments.iter().find(|c| c.label.starts_with("Call")).unwrap();
    assert_eq!(
        (call.start.as_str(), call.end.as_str(), call.days.as_slice()),
        ("09:00", "10:00", &["tue".to_owned()][..])
    );
}

/// A plan drafted for the request holding the imported commitments: the core reports a
/// `commitment` issue on each block that collides with one (validator.md §5.7).
#[test]
fn imported_commitments_collide_with_the_plan_in_the_core() {
    let base = momentum_plan_testkit::vectors()
        .into_iter()
        .find(|v| v["id"].as_str().is_some_and(|id| id.starts_with("base-calm")) && v["plan"].is_object())
        .or_else(|| {
            momentum_plan_testkit::vectors()
                .into_iter()
                .find(|v| v["id"].as_str().is_some_and(|id| id.starts_with("base-calm")))
        })
        .unwrap();
    let mut plan = match &base["plan"] {
        Value::String(t) => momentum_plan::parse_json(t).unwrap(),
        p => p.clone(),
    };
    let mut request = base["request"].clone();
    let x = commitments_from_icalendar(&fixture("google.ics"), request["startDate"].as_str().unwrap(), "Europe/Zurich")
        .unwrap();
    request["commitments"] = serde_json::to_value(&x.commitments).unwrap();
    plan["request"] = request.clone();
    let verdict = momentum_plan::validate(&plan, &request);
    let issues: Vec<(String, String)> =
        verdict.errors.iter().map(|i| (i.code.as_str().to_owned(), i.path.clone())).collect();
    // the plan's Work block (09:00-17:00, activity "Work") is the Work commitment itself; the
    // call (tue 15:00) and the dentist (thu 14:00) fall inside it
    let blocks = plan["routine"]["blocks"].as_array().unwrap();
    let work = blocks.iter().position(|b| b["activity"] == "Work").unwrap();
    let at = format!("$.routine.blocks[{work}]");
    assert_eq!(issues, [("commitment".to_owned(), at.clone()), ("commitment".to_owned(), at)], "{verdict:?}");
    assert!(verdict.errors[0].message.contains("Call with the New York office"));
    assert!(verdict.errors[1].message.contains("Dentist"));
}

#[test]
fn malformed_files_name_the_line() {
    let cases = [
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART 20261005T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR\r\n", 3),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3),
        (
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261005T090000\r\nDURATION:1H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            4,
        ),
        (
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261005T090000\r\nRRULE:BYDAY=MO\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            4,
        ),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n", 2),
        ("SUMMARY:x\r\n", 1),
        ("", 1),
        ("BEGIN:VCALENDAR\r\nEND:VEVENT\r\n", 2),
    ];
    for (text, line) in cases {
        match commitments_from_icalendar(text, "2026-10-05", "Europe/Zurich") {
            Err(ImportError::Malformed { line: l, message }) => assert_eq!(l, line, "{text:?}: {message}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert_eq!(
        commitments_from_icalendar("", "2026-13-01", "Europe/Zurich"),
        Err(ImportError::BadStartDate("2026-13-01".into()))
    );
    assert_eq!(
        commitments_from_icalendar("", "2026-10-05", "Mars/Base"),
        Err(ImportError::BadTimezone("Mars/Base".into()))
    );
}

fn one_event(props: &str) -> momentum_plan_calendar::Imported {
    let text = format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nSUMMARY:E\r\n{props}END:VEVENT\r\nEND:VCALENDAR\r\n"
    );
    commitments_from_icalendar(&text, "2026-10-05", "Europe/Zurich").unwrap()
}

#[test]
fn unsupported_and_unknown_are_skipped_with_why() {
    let x = one_event("DTSTART:20261005T090000\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=5\r\n");
    assert!(x.commitments.is_empty() && x.skipped[0].why.contains("MONTHLY"), "{x:?}");
    let x = one_event("DTSTART;TZID=Somewhere/Else:20261005T090000\r\n");
    assert!(x.skipped[0].why.contains("Somewhere/Else"), "{x:?}");
    let x = one_event("DTSTART:20261005T090000\r\nDURATION:P1D\r\n");
    assert!(x.skipped[0].why.contains("24 hours"), "{x:?}");
    let x = one_event("DTSTART:20261005T090000\r\nDURATION:PT1H\r\nSTATUS:CANCELLED\r\n");
    assert!(x.skipped[0].why.contains("cancelled"), "{x:?}");
    // a prefixed TZID (Mozilla style) resolves by its tail
    let x = one_event("DTSTART;TZID=/mozilla.org/20050126_1/Europe/London:20261005T090000\r\nDURATION:PT1H\r\n");
    assert_eq!(x.commitments[0].start, "10:00");
    // a COUNT rule started long ago is counted, and ended before the week
    let x = one_event("DTSTART:20200106T090000\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=5\r\n");
    assert!(x.commitments.is_empty() && x.skipped.is_empty(), "{x:?}");
    let x = one_event("DTSTART:17000104T090000\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY;COUNT=100000000\r\n");
    assert!(x.skipped[0].why.contains("steps"), "{x:?}");
    // without COUNT, a rule from long ago jumps to the week
    let x = one_event("DTSTART:19700105T090000\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY;INTERVAL=3\r\n");
    assert_eq!(x.commitments.len(), 1);
    assert_eq!(x.commitments[0].days.len(), 3, "{x:?}");
}

#[test]
fn overnight_and_daylight_saving_weeks() {
    // 2026-10-25: Zurich goes back from 03:00 to 02:00; a 02:30 start is the first 02:30
    let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:n\r\nSUMMARY:Night\r\nDTSTART:20261024T220000\r\nDTEND:20261025T060000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let x = commitments_from_icalendar(text, "2026-10-19", "Europe/Zurich").unwrap();
    assert_eq!(
        serde_json::to_value(&x.commitments).unwrap(),
        json!([{"label": "Night", "days": ["sat"], "start": "22:00", "end": "06:00"}])
    );
}

/// Inputs that once could panic or take quadratic time (found by reading the code for the fuzz
/// target): a multi-byte BYDAY, a duration past jiff's span limits, thousands of RDATEs and
/// EXDATEs in the week.
#[test]
fn hostile_values_are_errors_or_skips_not_panics() {
    let x = one_event("DTSTART:20261005T090000\r\nRRULE:FREQ=WEEKLY;BYDAY=1éMO\r\n");
    assert!(x.commitments.is_empty());
    let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261005T090000\r\nRRULE:FREQ=WEEKLY;BYDAY=é\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    assert!(matches!(
        commitments_from_icalendar(text, "2026-10-05", "UTC"),
        Err(ImportError::Malformed { line: 4, .. })
    ));
    let x = one_event("DTSTART:20261005T090000\r\nDURATION:P9999999W\r\n");
    assert!(x.commitments.is_empty() && x.skipped.len() == 1, "{x:?}");
    let values: Vec<String> = (0..5000).map(|i| format!("20261006T{:02}{:02}00", i / 60 % 24, i % 60)).collect();
    let props = format!(
        "DTSTART:20261005T090000\r\nDURATION:PT1M\r\nRDATE:{}\r\nEXDATE:{}\r\n",
        values.join(","),
        values[..2500].join(",")
    );
    let x = one_event(&props);
    // 1440 distinct minutes of 2026-10-06 less the first 1440 excluded: only Monday's 09:00 is left
    assert_eq!(x.commitments.len(), 1, "{:?}", &x.commitments[..3.min(x.commitments.len())]);
    assert_eq!(x.commitments[0].days, ["mon"]);
}

#[test]
fn dtstamp_must_be_ascii() {
    let e = momentum_plan_calendar::plan_to_icalendar("{}", "{}", "2026é207T12000Z");
    assert!(matches!(e, Err(momentum_plan_calendar::ExportError::BadDtstamp(_))));
}

#[test]
fn events_that_cannot_be_placed_are_listed_only_near_the_week() {
    let far = one_event("DTSTART;TZID=Somewhere/Else:20200105T090000\r\nDURATION:PT1H\r\n");
    assert!(far.skipped.is_empty(), "{far:?}");
    let later = one_event("DTSTART:20270105T090000\r\nRRULE:FREQ=MONTHLY\r\n");
    assert!(later.skipped.is_empty(), "{later:?}");
    let old_rule = one_event("DTSTART:20200105T090000\r\nRRULE:FREQ=MONTHLY\r\n");
    assert_eq!(old_rule.skipped.len(), 1, "{old_rule:?}");
}

/// The round trip: every valid routine vector with a zone and a start date exported, and the
/// calendar imported for the same week, gives back the plan's blocks as commitments (label =
/// activity, the weekdays of the list that holds the block, end = start + duration on the clock).
#[test]
fn exported_routines_import_back_as_their_blocks() {
    let mut checked = 0;
    for v in momentum_plan_testkit::vectors() {
        if v["expect"]["valid"] != true || v["request"]["kind"] != "routine" {
            continue;
        }
        let (Some(start), Some(zone)) = (v["request"]["startDate"].as_str(), v["request"]["timezone"].as_str()) else {
            continue;
        };
        let plan_text = match &v["plan"] {
            Value::String(t) => t.clone(),
            p => serde_json::to_string(p).unwrap(),
        };
        let Ok(x) =
            momentum_plan_calendar::plan_to_icalendar(&plan_text, &v["request"].to_string(), "20261207T120000Z")
        else {
            continue;
        };
        let got = commitments_from_icalendar(&x.text, start, zone).unwrap();
        assert!(got.skipped.is_empty(), "{}: {:?}", v["id"], got.skipped);
        let plan = momentum_plan::parse_json(&plan_text).unwrap();
        let mut want: Vec<(String, String, String, Vec<&str>)> = Vec::new();
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
        let weekdays = plan["routine"]["weekdays"].as_object();
        for (i, day) in days.iter().enumerate() {
            let list = weekdays.and_then(|w| w.get(*day)).unwrap_or(&plan["routine"]["blocks"]);
            for b in list.as_array().unwrap() {
                let s = b["start"].as_str().unwrap();
                let m = s[..2].parse::<i64>().unwrap() * 60
                    + s[3..].parse::<i64>().unwrap()
                    + b["durationMin"].as_i64().unwrap();
                let end = format!("{:02}:{:02}", m / 60 % 24, m % 60);
                let label = b["activity"].as_str().unwrap().trim().to_owned();
                match want.iter_mut().find(|w| w.0 == label && w.1 == s && w.2 == end) {
                    Some(w) => w.3.push(days[i]),
                    None => want.push((label, s.to_owned(), end, vec![days[i]])),
                }
            }
        }
        let mut got_set: Vec<(String, String, String, Vec<&str>)> = got
            .commitments
            .iter()
            .map(|c| (c.label.clone(), c.start.clone(), c.end.clone(), c.days.iter().map(String::as_str).collect()))
            .collect();
        got_set.sort();
        want.sort();
        assert_eq!(got_set, want, "{}", v["id"]);
        checked += 1;
    }
    assert!(checked > 500, "only {checked} routines went round");
}
