//! The export (issue 32 item 1) on the shared base vectors and on daylight-saving weeks.
//! The independent expansion of every valid vector is `tests/calendar/check_export.py`.

use momentum_plan::Value;
use momentum_plan_calendar::{ExportError, plan_to_icalendar};
use serde_json::json;

const STAMP: &str = "20261207T120000Z";

fn base(id_prefix: &str) -> (String, String) {
    let v = momentum_plan_testkit::vectors()
        .into_iter()
        .find(|v| v["id"].as_str().is_some_and(|id| id.starts_with(id_prefix)))
        .unwrap_or_else(|| panic!("no vector {id_prefix}*"));
    let plan = match &v["plan"] {
        Value::String(text) => text.clone(),
        p => serde_json::to_string(p).unwrap(),
    };
    (plan, serde_json::to_string(&v["request"]).unwrap())
}

/// A base vector exported: the plan as a value and the unfolded calendar text.
fn exported(id_prefix: &str) -> (Value, String) {
    let (plan, request) = base(id_prefix);
    let x = plan_to_icalendar(&plan, &request, STAMP).unwrap();
    (serde_json::from_str(&plan).unwrap(), unfold(&x.text))
}

fn unfold(text: &str) -> String {
    text.replace("\r\n ", "")
}

fn component<'a>(text: &'a str, uid_end: &str) -> &'a str {
    let at = text.find(&format!("{uid_end}@momentum-plan")).unwrap_or_else(|| panic!("no UID …{uid_end}"));
    let begin = text[..at].rfind("BEGIN:V").unwrap();
    let end = at + text[at..].find("END:V").unwrap();
    &text[begin..end]
}

#[test]
fn calm_weekday_routine_weekly_events_with_its_zone() {
    let (plan, request) = base("base-calm");
    let x = plan_to_icalendar(&plan, &request, STAMP).unwrap();
    assert!(x.warnings.is_empty(), "{:?}", x.warnings);
    assert!(x.text.ends_with("END:VCALENDAR\r\n"));
    assert!(x.text.split("\r\n").all(|l| l.len() <= 75 && !l.contains('\n')));
    let text = unfold(&x.text);
    assert_eq!(text.matches("BEGIN:VEVENT").count(), 5);
    assert_eq!(x.events, 5);
    assert_eq!(text.matches("BEGIN:VTIMEZONE").count(), 1);
    // the last block, Sleep 22:00 for 480 minutes, ends the next morning
    let sleep = component(&text, "/blocks/4");
    assert!(sleep.contains("SUMMARY:Sleep\r\n"), "{sleep}");
    assert!(sleep.contains("DTSTART;TZID=Europe/Zurich:20261005T220000\r\n"), "{sleep}");
    assert!(sleep.contains("DURATION:PT480M\r\n"));
    assert!(sleep.contains("RRULE:FREQ=WEEKLY;WKST=MO;BYDAY=MO,TU,WE,TH,FR,SA,SU\r\n"));
    assert!(sleep.contains("CATEGORIES:rest\r\n"));
    assert!(sleep.contains(&format!("DTSTAMP:{STAMP}\r\n")));
    // the same input gives the same bytes (stable UIDs, no clock)
    assert_eq!(plan_to_icalendar(&plan, &request, STAMP).unwrap().text, x.text);
}

#[test]
fn weekday_lists_replace_the_default_blocks_on_their_day() {
    let (p, text) = exported("base-weekdays");
    let lists = p["routine"]["weekdays"].as_object().unwrap();
    let overridden: Vec<&str> = lists.keys().map(String::as_str).collect();
    let byday: Vec<&str> =
        [("mon", "MO"), ("tue", "TU"), ("wed", "WE"), ("thu", "TH"), ("fri", "FR"), ("sat", "SA"), ("sun", "SU")]
            .into_iter()
            .filter(|(d, _)| !overridden.contains(d))
            .map(|(_, b)| b)
            .collect();
    let first = component(&text, "/blocks/0");
    assert!(first.contains(&format!("BYDAY={}\r\n", byday.join(","))), "{first}");
    for (day, blocks) in lists {
        for i in 0..blocks.as_array().unwrap().len() {
            let c = component(&text, &format!("/weekdays/{day}/{i}"));
            let code = &day[..2].to_ascii_uppercase();
            assert!(c.contains(&format!("BYDAY={code}\r\n")), "{c}");
        }
    }
    // startDate 2026-10-12 is a Monday: a Wednesday list starts on the 14th
    if lists.contains_key("wed") {
        assert!(component(&text, "/weekdays/wed/0").contains(":20261014T"));
    }
}

#[test]
fn goal_plan_todos_due_on_each_day() {
    let (p, text) = exported("base-goal");
    let days = p["goal"]["days"].as_array().unwrap();
    let total: usize = days.iter().map(|d| d["activities"].as_array().unwrap().len()).sum();
    assert_eq!(text.matches("BEGIN:VTODO").count(), total);
    assert!(!text.contains("VTIMEZONE"));
    let a = &days[1]["activities"][0];
    let c = component(&text, "/goal/1/0");
    assert!(c.contains("DUE;VALUE=DATE:20261103\r\n"), "{c}");
    assert!(c.contains(&format!("SUMMARY:{}\r\n", a["title"].as_str().unwrap().replace(',', "\\,"))));
    assert!(c.contains(&format!("Done when: {}", a["doneWhen"].as_str().unwrap().replace(',', "\\,"))));
}

#[test]
fn invalid_plan_gets_the_core_verdict() {
    let (plan, request) = base("base-broken");
    match plan_to_icalendar(&plan, &request, STAMP) {
        Err(ExportError::Invalid(v)) => {
            assert!(!v.valid);
            assert_eq!(*v, momentum_plan::validate_text(&plan, &momentum_plan::parse_json(&request).unwrap()));
        }
        other => panic!("expected the verdict, got {other:?}"),
    }
}

fn with_request(change: impl Fn(&mut serde_json::Map<String, Value>)) -> (String, String) {
    let (plan, request) = base("base-calm");
    let mut p: Value = momentum_plan::parse_json(&plan).unwrap();
    let mut r: Value = momentum_plan::parse_json(&request).unwrap();
    change(r.as_object_mut().unwrap());
    p["request"] = r.clone();
    (p.to_string(), r.to_string())
}

#[test]
fn start_date_and_timezone_decisions() {
    let (p, r) = with_request(|r| {
        r.remove("startDate");
    });
    assert_eq!(plan_to_icalendar(&p, &r, STAMP), Err(ExportError::MissingStartDate));
    let (p, r) = with_request(|r| {
        r.insert("startDate".into(), json!("2026-02-30"));
    });
    assert_eq!(plan_to_icalendar(&p, &r, STAMP), Err(ExportError::BadStartDate("\"2026-02-30\"".into())));
    let (p, r) = with_request(|r| {
        r.insert("timezone".into(), json!("Mars/Olympus"));
    });
    assert_eq!(plan_to_icalendar(&p, &r, STAMP), Err(ExportError::BadTimezone("\"Mars/Olympus\"".into())));
    let (p, r) = with_request(|r| {
        r.insert("timezone".into(), json!(7));
    });
    assert_eq!(plan_to_icalendar(&p, &r, STAMP), Err(ExportError::BadTimezone("7".into())));
    // no timezone: floating local times, no VTIMEZONE, no warnings
    let (p, r) = with_request(|r| {
        r.remove("timezone");
    });
    let x = plan_to_icalendar(&p, &r, STAMP).unwrap();
    assert!(!x.text.contains("VTIMEZONE") && !x.text.contains("TZID"));
    assert!(x.text.contains("DTSTART:20261005T220000\r\n"));
    let (plan, request) = base("base-calm");
    for bad in ["20261207T120000", "2026-12-07T12:00:00Z", "20261307T120000Z", ""] {
        assert_eq!(plan_to_icalendar(&plan, &request, bad), Err(ExportError::BadDtstamp(bad.into())));
    }
    assert!(matches!(plan_to_icalendar(&plan, "{", STAMP), Err(ExportError::RequestNotJson(_))));
}

#[test]
fn text_is_escaped() {
    let (plan, request) = base("base-calm");
    let mut p: Value = momentum_plan::parse_json(&plan).unwrap();
    p["routine"]["blocks"][0]["activity"] = json!("Walk; park, \\ lake");
    let x = plan_to_icalendar(&p.to_string(), &request, STAMP).unwrap();
    assert!(unfold(&x.text).contains("SUMMARY:Walk\\; park\\, \\\\ lake\r\n"));
}

/// A routine whose Sunday holds starts around 01:00-03:00 in `zone`, from `start` (a Monday).
fn dst_pair(zone: &str, start: &str) -> (String, String) {
    let starts = ["00:30", "01:00", "01:30", "01:59", "02:00", "02:30", "02:59", "03:00", "03:30"];
    let mut sunday = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        let next = starts.get(i + 1).map_or(29, |n| minutes(n) - minutes(s));
        sunday.push(json!({"start": s, "durationMin": next, "activity": format!("Block {s}"), "category": "mind", "essential": false}));
    }
    let request = json!({"requestId": "dst", "kind": "routine", "timezone": zone, "startDate": start});
    let plan = json!({"format": "daily-momentum-ai-plan", "contractVersion": 1, "requestId": "dst", "kind": "routine",
        "name": "N", "tagline": "T", "description": "D",
        "routine": {"blocks": [{"start": "12:00", "durationMin": 60, "activity": "Lunch", "category": "nourish", "essential": true}],
                    "weekdays": {"sun": sunday}},
        "request": request});
    (plan.to_string(), request.to_string())
}

fn minutes(s: &str) -> i64 {
    s[..2].parse::<i64>().unwrap() * 60 + s[3..].parse::<i64>().unwrap()
}

/// (date, start, "gap"/"fold") of each warning.
fn warnings(zone: &str, start: &str) -> Vec<(String, String, &'static str)> {
    let (plan, request) = dst_pair(zone, start);
    let x = plan_to_icalendar(&plan, &request, STAMP).unwrap();
    let p: Value = serde_json::from_str(&plan).unwrap();
    x.warnings
        .iter()
        .map(|w| {
            let i: usize = w.path.trim_start_matches("$.routine.weekdays.sun[").trim_end_matches(']').parse().unwrap();
            let s = p["routine"]["weekdays"]["sun"][i]["start"].as_str().unwrap().to_owned();
            assert!(
                w.message.contains(&s) && w.message.contains(zone) && w.message.contains("RFC 5545"),
                "{}",
                w.message
            );
            (w.date.clone(), s, if w.message.contains("does not exist") { "gap" } else { "fold" })
        })
        .collect()
}

fn expect(gap_date: &str, gap: &[&str], fold_date: &str, fold: &[&str]) -> Vec<(String, String, &'static str)> {
    let mut out: Vec<(String, String, &'static str)> =
        gap.iter().map(|s| (gap_date.to_owned(), (*s).to_owned(), "gap")).collect();
    out.extend(fold.iter().map(|s| (fold_date.to_owned(), (*s).to_owned(), "fold")));
    out.sort();
    out
}

/// The warnings of [`dst_pair`] in `zone` from `start` are exactly the gap starts on `gap_date`
/// and the fold starts on `fold_date`.
fn assert_dst(zone: &str, start: &str, gap: (&str, &[&str]), fold: (&str, &[&str])) {
    let mut got = warnings(zone, start);
    got.sort();
    assert_eq!(got, expect(gap.0, gap.1, fold.0, fold.1), "{zone}");
}

#[test]
fn dst_both_transitions_in_three_zones() {
    const TWO_TO_THREE: &[&str] = &["02:00", "02:30", "02:59"];
    // CET/CEST: 2026-10-25 03:00 -> 02:00, 2027-03-28 02:00 -> 03:00 (tz database)
    assert_dst("Europe/Zurich", "2026-10-19", ("2027-03-28", TWO_TO_THREE), ("2026-10-25", TWO_TO_THREE));
    // EST/EDT: 2026-11-01 02:00 -> 01:00, 2027-03-14 02:00 -> 03:00
    assert_dst(
        "America/New_York",
        "2026-10-26",
        ("2027-03-14", TWO_TO_THREE),
        ("2026-11-01", &["01:00", "01:30", "01:59"]),
    );
    // AEST/AEDT: 2026-10-04 02:00 -> 03:00, 2027-04-04 03:00 -> 02:00
    assert_dst("Australia/Sydney", "2026-09-28", ("2026-10-04", TWO_TO_THREE), ("2027-04-04", TWO_TO_THREE));
}

#[test]
fn dst_message_says_what_calendars_do() {
    let (plan, request) = dst_pair("Europe/Zurich", "2027-03-22");
    let x = plan_to_icalendar(&plan, &request, STAMP).unwrap();
    let w = x.warnings.iter().find(|w| w.date == "2027-03-28" && w.path == "$.routine.weekdays.sun[5]").unwrap();
    assert!(w.message.contains("02:30 does not exist"), "{}", w.message);
    assert!(w.message.contains("to 03:30 UTC+02:00"), "{}", w.message);
    let w = x.warnings.iter().find(|w| w.date == "2027-10-31" && w.path == "$.routine.weekdays.sun[5]").unwrap();
    assert!(w.message.contains("02:30 happens twice"), "{}", w.message);
    assert!(w.message.contains("02:30 UTC+02:00"), "{}", w.message);
    // the VTIMEZONE covers the horizon's years: 2027 and 2028
    let text = unfold(&x.text);
    assert!(text.contains("DTSTART:20280326T020000\r\n"), "{text}");
    assert!(!text.contains("DTSTART:2029"));
}

#[test]
fn zone_without_dst_gets_one_observance_and_no_warning() {
    let (plan, request) = dst_pair("Asia/Tokyo", "2026-10-05");
    let x = plan_to_icalendar(&plan, &request, STAMP).unwrap();
    assert!(x.warnings.is_empty());
    let text = unfold(&x.text);
    assert_eq!(text.matches("BEGIN:STANDARD").count() + text.matches("BEGIN:DAYLIGHT").count(), 1, "{text}");
    assert!(text.contains("TZOFFSETTO:+0900\r\n"));
}

#[test]
fn the_zone_is_written_as_the_database_spells_it() {
    let (p, r) = with_request(|r| {
        r.insert("timezone".into(), json!("europe/zurich"));
    });
    match plan_to_icalendar(&p, &r, STAMP) {
        Ok(x) => assert!(x.text.contains("TZID=Europe/Zurich:") && !x.text.contains("europe/zurich"), "{}", x.text),
        // a database that matches names exactly refuses it: that is fine too, never a wrong TZID
        Err(e) => assert_eq!(e, ExportError::BadTimezone("\"europe/zurich\"".into())),
    }
}

/// `events` counts the entries of every valid vector's calendar: its `VEVENT`s and `VTODO`s, never
/// the `VTIMEZONE`.
#[test]
fn events_counts_every_vevent_and_vtodo() {
    let mut exported = 0;
    for v in momentum_plan_testkit::vectors() {
        if v["expect"]["valid"] != Value::Bool(true) {
            continue;
        }
        let plan = match &v["plan"] {
            Value::String(text) => text.clone(),
            p => serde_json::to_string(p).unwrap(),
        };
        let Ok(x) = plan_to_icalendar(&plan, &serde_json::to_string(&v["request"]).unwrap(), STAMP) else { continue };
        let entries = x.text.matches("\r\nBEGIN:VEVENT\r\n").count() + x.text.matches("\r\nBEGIN:VTODO\r\n").count();
        assert_eq!(x.events, entries, "{}", v["id"]);
        exported += 1;
    }
    assert!(exported > 1000, "only {exported} valid vectors exported");
}
