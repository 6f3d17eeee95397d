//! `momentum-plan calendar` and `momentum-plan commitments` (issue 32) on the bundled examples and
//! the calendar crate's app-style fixtures (`calendar/tests/fixtures`): the calendar is the crate's
//! bytes, the commitments are each fixture's `.expected.json`, an invalid plan gets `check`'s
//! frames and exit code, and the README's round trip runs as written.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use assert_cmd::Command;
use momentum_plan::Value;
use momentum_plan_calendar::{commitments_from_icalendar, plan_to_icalendar};
use serde_json::json;
use std::path::{Path, PathBuf};

const STAMP: &str = "20261207T120000Z";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("cli/ has a parent").to_path_buf()
}

fn text(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// The binary, run in the workspace root with `args` and `stdin`.
fn run_with(args: &[&str], stdin: &str) -> Run {
    let out = Command::cargo_bin("momentum-plan")
        .expect("the binary is built")
        .current_dir(root())
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

fn run(args: &[&str]) -> Run {
    run_with(args, "")
}

const PLAN: &str = "examples/calm-weekday.plan.json";
const REQUEST: &str = "examples/calm-weekday.request.json";

#[test]
fn calendar_prints_the_crates_bytes_from_a_file_and_from_stdin() {
    let want = plan_to_icalendar(&text(PLAN), &text(REQUEST), STAMP).unwrap();
    assert!(want.text.contains("DTSTART;TZID=Europe/Zurich:20261005T090000\r\n"), "{}", want.text);
    let r = run(&["calendar", PLAN, REQUEST, "--dtstamp", STAMP]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(r.stdout, want.text);
    let r = run_with(&["calendar", "-", REQUEST, "--dtstamp", STAMP], &text(PLAN));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, want.text);
}

#[test]
fn calendar_without_dtstamp_stamps_the_current_utc_time() {
    let r = run(&["calendar", PLAN, REQUEST]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let stamp = r.stdout.lines().find_map(|l| l.strip_prefix("DTSTAMP:")).expect("a DTSTAMP line");
    let year: i32 = stamp[..4].parse().unwrap();
    assert!(stamp.len() == 16 && stamp.ends_with('Z') && &stamp[8..9] == "T" && year >= 2026, "{stamp}");
    // The rest is the crate's bytes with that stamp.
    assert_eq!(r.stdout, plan_to_icalendar(&text(PLAN), &text(REQUEST), stamp).unwrap().text);
}

#[test]
fn calendar_of_an_invalid_plan_is_checks_verdict_on_stderr_and_exit() {
    let plan = "examples/calm-weekday-broken.plan.json";
    let request = "examples/calm-weekday-broken.request.json";
    let check = run(&["check", "--color", "never", plan]);
    let r = run(&["calendar", "--color", "never", plan, request, "--dtstamp", STAMP]);
    assert_eq!(r.code, check.code);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "", "no calendar");
    // The same frames and summary as `check` prints, then why there is no calendar.
    assert!(r.stderr.starts_with(&check.stdout), "{}\n---\n{}", r.stderr, check.stdout);
    assert!(r.stderr.contains("error[category]"), "{}", r.stderr);
    assert!(r.stderr.ends_with("no calendar: the plan is not valid (fix it first: momentum-plan repair examples/calm-weekday-broken.plan.json)\n"));
}

#[test]
fn calendar_of_a_plan_that_is_not_utf8_is_the_json_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("bad.plan.json");
    std::fs::write(&plan, b"{\"a\": \"\xff\"}").unwrap();
    let plan = plan.to_string_lossy().into_owned();
    let check = run(&["check", "--color", "never", "--request", REQUEST, &plan]);
    let r = run(&["calendar", "--color", "never", &plan, REQUEST, "--dtstamp", STAMP]);
    assert_eq!((r.code, check.code), (1, 1));
    assert_eq!(r.stdout, "");
    assert!(r.stderr.starts_with(&check.stdout), "{}", r.stderr);
    assert!(r.stderr.starts_with("error[json]"), "{}", r.stderr);
}

/// calm-weekday's plan and request with `change` made to the request (in both places).
fn changed(dir: &Path, change: impl Fn(&mut serde_json::Map<String, Value>)) -> (String, String) {
    let mut plan: Value = serde_json::from_str(&text(PLAN)).unwrap();
    let mut request: Value = serde_json::from_str(&text(REQUEST)).unwrap();
    change(request.as_object_mut().unwrap());
    plan["request"] = request.clone();
    let (p, r) = (dir.join("x.plan.json"), dir.join("x.request.json"));
    std::fs::write(&p, plan.to_string()).unwrap();
    std::fs::write(&r, request.to_string()).unwrap();
    (p.to_string_lossy().into_owned(), r.to_string_lossy().into_owned())
}

#[test]
fn calendar_usage_errors_exit_2_with_the_crates_message() {
    let dir = tempfile::tempdir().unwrap();
    let (p, r) = changed(dir.path(), |r| {
        r.remove("startDate");
    });
    assert!(run(&["check", &p]).code == 0, "still a valid plan");
    let x = run(&["calendar", &p, &r, "--dtstamp", STAMP]);
    assert_eq!(x.code, 2);
    assert_eq!(x.stdout, "");
    assert_eq!(
        x.stderr,
        "momentum-plan: the request has no startDate (YYYY-MM-DD): the calendar needs the plan's first day\n"
    );
    let x = run(&["calendar", PLAN, REQUEST, "--dtstamp", "2026-12-07"]);
    assert_eq!(x.code, 2);
    assert!(x.stderr.contains("dtstamp \"2026-12-07\" is not a UTC date-time"), "{}", x.stderr);
    let x = run(&["calendar", PLAN, "examples/no-such.request.json"]);
    assert_eq!(x.code, 2);
    assert!(x.stderr.contains("cannot read the request examples/no-such.request.json"), "{}", x.stderr);
    let x = run(&["calendar", "-", "-"]);
    assert_eq!(x.code, 2);
}

#[test]
fn calendar_prints_the_daylight_saving_warnings_on_stderr() {
    // A Sunday block at 02:30 in Zurich from 2026-10-19: ambiguous on 2026-10-25 and missing on
    // 2027-03-28 (the crate decides which; the CLI prints each of its warnings).
    let dir = tempfile::tempdir().unwrap();
    let request =
        json!({"requestId": "dst", "kind": "routine", "timezone": "Europe/Zurich", "startDate": "2026-10-19"});
    let plan = json!({"format": "daily-momentum-ai-plan", "contractVersion": 1, "requestId": "dst", "kind": "routine",
        "name": "N", "tagline": "T", "description": "D",
        "routine": {"blocks": [{"start": "12:00", "durationMin": 60, "activity": "Lunch", "category": "nourish", "essential": true}],
                    "weekdays": {"sun": [{"start": "02:30", "durationMin": 30, "activity": "Stars", "category": "mind", "essential": false}]}},
        "request": request});
    let (p, r) = (dir.path().join("dst.plan.json"), dir.path().join("dst.request.json"));
    std::fs::write(&p, plan.to_string()).unwrap();
    std::fs::write(&r, request.to_string()).unwrap();
    let want = plan_to_icalendar(&plan.to_string(), &request.to_string(), STAMP).unwrap();
    let dates: Vec<&str> = want.warnings.iter().map(|w| w.date.as_str()).collect();
    assert_eq!(dates, ["2026-10-25", "2027-03-28"]);
    let x = run(&["calendar", p.to_str().unwrap(), r.to_str().unwrap(), "--dtstamp", STAMP]);
    assert_eq!(x.code, 0, "{}", x.stderr);
    assert_eq!(x.stdout, want.text);
    let lines: Vec<String> =
        want.warnings.iter().map(|w| format!("warning: {} {}: {}", w.date, w.path, w.message)).collect();
    assert_eq!(x.stderr.lines().collect::<Vec<_>>(), lines);
    assert!(lines[0].starts_with("warning: 2026-10-25 $.routine.weekdays.sun[0]: "), "{}", lines[0]);
}

#[test]
fn commitments_of_the_app_style_fixtures_are_their_expected_json() {
    for name in ["google", "apple", "outlook"] {
        let ics = format!("calendar/tests/fixtures/{name}.ics");
        let expected: Value =
            serde_json::from_str(&text(&format!("calendar/tests/fixtures/{name}.expected.json"))).unwrap();
        let r = run(&["commitments", &ics, "--start", "2026-10-05", "--timezone", "Europe/Zurich"]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let got: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{name}: {e}: {}", r.stdout));
        assert_eq!(got, expected["commitments"], "{name}");
        // One line per commitment, pasteable as the request's "commitments".
        assert_eq!(r.stdout.lines().count(), got.as_array().unwrap().len() + 2, "{name}: {}", r.stdout);
        let skipped = expected["skipped"].as_array().unwrap();
        assert_eq!(r.stderr.lines().count(), skipped.len(), "{name}: {}", r.stderr);
        for (line, want) in r.stderr.lines().zip(skipped) {
            let summary = serde_json::to_string(want[0].as_str().unwrap()).unwrap();
            assert!(line.starts_with(&format!("skipped {summary} (")), "{name}: {line}");
            assert!(line.contains(want[1].as_str().unwrap()), "{name}: {line}");
        }
        // Standard input gives the same.
        let s = run_with(&["commitments", "-", "--start", "2026-10-05", "--timezone", "Europe/Zurich"], &text(&ics));
        assert_eq!((s.code, s.stdout, s.stderr), (0, r.stdout, r.stderr), "{name}");
    }
}

#[test]
fn commitments_errors_exit_2_and_name_the_line() {
    let r = run(&["commitments", PLAN, "--start", "2026-10-05", "--timezone", "Europe/Zurich"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .starts_with("momentum-plan: examples/calm-weekday.plan.json: the calendar file is malformed at line 1: "),
        "{}",
        r.stderr
    );
    let ics = "calendar/tests/fixtures/google.ics";
    let r = run(&["commitments", ics, "--start", "2026-13-05", "--timezone", "Europe/Zurich"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("startDate \"2026-13-05\" is not a date"), "{}", r.stderr);
    let r = run(&["commitments", ics, "--start", "2026-10-05", "--timezone", "Mars/Olympus"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("timezone \"Mars/Olympus\" is not a time zone name"), "{}", r.stderr);
}

/// The README's round trip (the `sh` block after "in three commands"), each line run as written
/// from a temporary folder holding the files it names: the commitments of the calendar's week,
/// the check of the plan, the plan into a calendar file.
#[test]
fn the_readmes_round_trip_runs_as_written() {
    let readme = text("README.md");
    let after = readme.split("in three commands").nth(1).expect("the README's round trip");
    let block = after.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("its sh block");
    let lines: Vec<&str> = block.lines().map(|l| l.split(" #").next().unwrap().trim()).collect();
    assert_eq!(lines.len(), 3, "{block}");
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for line in &lines {
        let (command, target) = match line.split_once(" > ") {
            Some((c, t)) => (c, Some(t)),
            None => (*line, None),
        };
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "momentum-plan", "{line}");
        let r = run(&words[1..]);
        assert_eq!(r.code, 0, "{line}: {}", r.stderr);
        if let Some(t) = target {
            std::fs::write(dir.path().join(t), &r.stdout).unwrap();
        }
        outputs.push(r.stdout);
    }
    // 1: the commitments of that week, as the calendar crate reads them.
    let ics = lines[0].split_whitespace().nth(2).unwrap();
    let want = commitments_from_icalendar(&text(ics), "2026-10-05", "Europe/Zurich").unwrap();
    assert_eq!(serde_json::from_str::<Value>(&outputs[0]).unwrap(), serde_json::to_value(&want.commitments).unwrap());
    // 2: the plan is valid.
    assert!(outputs[1].contains("1 plan checked: 1 valid, 0 invalid"), "{}", outputs[1]);
    // 3: a calendar with one weekly event per block, read back as the plan's blocks.
    let ics = &outputs[2];
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\n") && ics.ends_with("END:VCALENDAR\r\n"));
    let back = commitments_from_icalendar(ics, "2026-10-05", "Europe/Zurich").unwrap();
    let plan: Value = serde_json::from_str(&text(PLAN)).unwrap();
    let blocks = plan["routine"]["blocks"].as_array().unwrap();
    assert_eq!(back.commitments.len(), blocks.len());
    for (c, b) in back.commitments.iter().zip(blocks) {
        assert_eq!(
            (c.label.as_str(), c.start.as_str(), c.days.len()),
            (b["activity"].as_str().unwrap(), b["start"].as_str().unwrap(), 7)
        );
    }
}
