//! `export_calendar` and `import_commitments` (issue 32 item 3; the rules are the calendar crate's):
//! every valid shared vector (read at test time) exported through `tools/call` gives the crate's
//! calendar bytes as an embedded `text/calendar` resource and its `events` and `warnings` as
//! `structuredContent`, or the crate's refusal as a tool error; the app-style fixtures
//! (`calendar/tests/fixtures`) import to the crate's commitments; an invalid plan gets the verdict
//! of `validate_plan` in a tool error, no calendar; a missing `dtstamp` is the server's clock; and
//! bad input (arguments that do not fit, a malformed file, a bad date or zone) is a tool error
//! naming what is wrong, never a protocol error or a crash, in both eras and over HTTP.

use crate::common::*;
use serde_json::{Value, json};

/// The `DTSTAMP` every export here is given (the crate has no clock).
const STAMP: &str = "20261207T120000Z";

/// A calendar fixture of the crate (`calendar/tests/fixtures/<name>`).
fn fixture(name: &str) -> String {
    std::fs::read_to_string(root().join("calendar/tests/fixtures").join(name)).expect("fixture")
}

/// A classic (2025-11-25) server with a store, initialized.
fn classic() -> Harness {
    let mut h = Harness::with_store();
    h.initialize("2025-11-25", json!({}));
    h
}

/// The plan as the crate reads it: plan text as it is, an object as its compact JSON.
fn plan_text(plan: &Value) -> String {
    match plan {
        Value::String(t) => t.clone(),
        v => v.to_string(),
    }
}

/// The tool error text of a result (one text block, `isError`, no `structuredContent`).
fn tool_error(result: &Value) -> String {
    assert_eq!(result["isError"], true, "{result}");
    assert!(result.get("structuredContent").is_none(), "a tool error carries no structuredContent: {result}");
    text(result)
}

/// Asserts `result` is the export of `plan` for `request` at [`STAMP`], exactly as the crate
/// makes it: the calendar bytes as the embedded resource, `{uri, events, warnings}` as
/// `structuredContent` and as the text block.
fn assert_export(result: &Value, plan: &Value, request: &Value, uri: &str, label: &str) {
    let x = momentum_plan_calendar::plan_to_icalendar(&plan_text(plan), &request.to_string(), STAMP)
        .unwrap_or_else(|e| panic!("{label}: the crate refused: {e}"));
    assert_eq!(result["isError"], false, "{label}: {result}");
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 2, "{label}: a text block and the resource: {result}");
    assert_eq!(content[1]["type"], "resource", "{label}");
    assert_eq!(content[1]["resource"]["uri"], uri, "{label}");
    assert_eq!(content[1]["resource"]["mimeType"], "text/calendar", "{label}");
    assert_eq!(content[1]["resource"]["text"], x.text.as_str(), "{label}: the calendar bytes");
    let structured = json!({"uri": uri, "events": x.events, "warnings": x.warnings});
    assert_eq!(result["structuredContent"], structured, "{label}");
    assert_eq!(content[0]["type"], "text", "{label}");
    assert_eq!(content[0]["text"].as_str(), Some(structured.to_string().as_str()), "{label}: the same JSON as text");
}

#[test]
fn every_valid_vector_exports_the_crates_calendar_or_its_refusal() {
    let mut h = classic();
    let (mut exported, mut refused) = (0, 0);
    for (n, v) in momentum_plan_testkit::vectors().into_iter().enumerate() {
        if v["expect"]["valid"] != true || !v["request"].is_object() {
            continue;
        }
        let (plan, request) = (&v["plan"], &v["request"]);
        let label = v["id"].as_str().unwrap_or("?");
        let result = h.result(&req(
            n,
            "tools/call",
            call("export_calendar", json!({"plan": plan, "request": request, "dtstamp": STAMP})),
        ));
        match momentum_plan_calendar::plan_to_icalendar(&plan_text(plan), &request.to_string(), STAMP) {
            Ok(_) => {
                let id = request["requestId"].as_str().unwrap_or("plan");
                let encoded: String = id
                    .bytes()
                    .map(|b| {
                        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                            char::from(b).to_string()
                        } else {
                            format!("%{b:02X}")
                        }
                    })
                    .collect();
                assert_export(&result, plan, request, &format!("calendar://{encoded}.ics"), label);
                exported += 1;
            }
            Err(e) => {
                assert_eq!(tool_error(&result), e.to_string(), "{label}");
                refused += 1;
            }
        }
    }
    assert!(exported > 1000 && refused > 0, "{exported} exported, {refused} refused");
}

#[test]
fn an_invalid_plan_gets_validate_plans_verdict_and_no_calendar() {
    let (plan, request) = broken();
    let mut h = classic();
    let verdict = h.result(&req(1, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(verdict["structuredContent"]["valid"], false);
    let result = h.result(&req(2, "tools/call", call("export_calendar", json!({"plan": plan, "request": request}))));
    let message = tool_error(&result);
    let (head, tail) = message.split_once("The verdict: ").expect("the verdict follows");
    assert!(
        head.starts_with("No calendar was made: the plan is not valid") && head.contains("Fix it first"),
        "{message}"
    );
    assert_eq!(tail, text(&verdict), "validate_plan's verdict, byte for byte");
    // plan text: the same
    let result =
        h.result(&req(3, "tools/call", call("export_calendar", json!({"plan": plan.to_string(), "request": request}))));
    assert!(tool_error(&result).ends_with(&text(&verdict)));
}

#[test]
fn without_dtstamp_the_server_stamps_the_calendar_with_its_clock() {
    let stamp = |t: std::time::SystemTime| {
        let s = t.duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs();
        jiff::Timestamp::from_second(i64::try_from(s).expect("seconds"))
            .expect("a time")
            .strftime("%Y%m%dT%H%M%SZ")
            .to_string()
    };
    let (plan, request) = calm();
    let before = stamp(std::time::SystemTime::now());
    let result =
        classic().result(&req(1, "tools/call", call("export_calendar", json!({"plan": plan, "request": request}))));
    let after = stamp(std::time::SystemTime::now());
    let ics = result["content"][1]["resource"]["text"].as_str().expect("the calendar");
    let at = ics.find("DTSTAMP:").expect("a DTSTAMP") + "DTSTAMP:".len();
    let got = &ics[at..at + 16];
    assert!(before.as_str() <= got && got <= after.as_str(), "{before} <= {got} <= {after}");
    // and otherwise the same bytes as with that stamp given
    let with = momentum_plan_calendar::plan_to_icalendar(&plan.to_string(), &request.to_string(), got).unwrap();
    assert_eq!(ics, with.text);
    let uri = format!("calendar://{}.ics", request["requestId"].as_str().expect("an id"));
    assert_eq!(result["content"][1]["resource"]["uri"], uri.as_str());
}

#[test]
fn the_fixtures_import_to_the_crates_commitments() {
    let mut h = classic();
    for (n, name) in ["google", "apple", "outlook"].into_iter().enumerate() {
        let ics = fixture(&format!("{name}.ics"));
        for (start, zone) in [("2026-10-05", "Europe/Zurich"), ("2026-10-26", "America/New_York")] {
            let args = json!({"calendar": ics, "startDate": start, "timezone": zone});
            let result = h.result(&req(n, "tools/call", call("import_commitments", args)));
            let want =
                momentum_plan_calendar::commitments_from_icalendar(&ics, start, zone).expect("the crate reads it");
            let want = serde_json::to_value(&want).expect("JSON");
            assert_eq!(result["isError"], false, "{name}: {result}");
            assert_eq!(result["structuredContent"], want, "{name} {start} {zone}");
            assert_eq!(text(&result), want.to_string(), "{name}: the same JSON as text");
        }
        // The week of the fixture's expectation: exactly its commitments, in the request's shape.
        let expected: Value = serde_json::from_str(&fixture(&format!("{name}.expected.json"))).expect("JSON");
        let args = json!({"calendar": ics, "startDate": "2026-10-05", "timezone": "Europe/Zurich"});
        let result = h.result(&req(9, "tools/call", call("import_commitments", args)));
        assert_eq!(result["structuredContent"]["commitments"], expected["commitments"], "{name}");
    }
}

#[test]
fn bad_input_is_a_tool_error_that_says_what_is_wrong() {
    let (plan, request) = calm();
    let mut h = classic();
    let cases = [
        ("export_calendar", json!({}), "Invalid arguments for export_calendar: `plan` is missing"),
        (
            "export_calendar",
            json!({"plan": plan, "request": request, "dtstamp": 20_261_207}),
            "Invalid arguments for export_calendar: `dtstamp` must be a string, a UTC date-time YYYYMMDDTHHMMSSZ such as \"20261207T120000Z\" (leave it out for the server's clock), not a number.",
        ),
        (
            "export_calendar",
            json!({"plan": plan, "request": request, "when": 1}),
            "Invalid arguments for export_calendar: unexpected argument `when`: only `plan`, `request` and `dtstamp` are accepted.",
        ),
        (
            "export_calendar",
            json!({"plan": plan, "request": request, "dtstamp": "2026-12-07"}),
            "dtstamp \"2026-12-07\" is not a UTC date-time YYYYMMDDTHHMMSSZ (e.g. \"20261207T120000Z\")",
        ),
        (
            "import_commitments",
            json!({"calendar": 5, "timezone": null, "x": 1}),
            "Invalid arguments for import_commitments: `calendar` must be a string, the calendar file's text (iCalendar, RFC 5545), not a number; `startDate` is missing: pass the week's first day as YYYY-MM-DD (the request's startDate); `timezone` must be a string, a tz database name such as \"Europe/Zurich\", not null; unexpected argument `x`: only `calendar`, `startDate` and `timezone` are accepted.",
        ),
        (
            "import_commitments",
            json!({"calendar": "BEGIN:VCALENDAR\r\nnot a content line\r\nEND:VCALENDAR\r\n", "startDate": "2026-10-05", "timezone": "Europe/Zurich"}),
            "the calendar file is malformed at line 2",
        ),
        (
            "import_commitments",
            json!({"calendar": "", "startDate": "5 Oct", "timezone": "Europe/Zurich"}),
            "startDate \"5 Oct\" is not a date YYYY-MM-DD",
        ),
        (
            "import_commitments",
            json!({"calendar": "", "startDate": "2026-10-05", "timezone": "Mars/Olympus"}),
            "timezone \"Mars/Olympus\" is not a time zone name of the tz database",
        ),
    ];
    for (n, (tool, arguments, want)) in cases.into_iter().enumerate() {
        let result = h.result(&req(n, "tools/call", call(tool, arguments)));
        let got = tool_error(&result);
        assert!(got.starts_with(want), "{tool}: {got}\n  wanted: {want}");
    }
    // A request the calendar cannot be placed from: the crate's message.
    let mut no_start = request.clone();
    no_start.as_object_mut().expect("object").remove("startDate");
    let mut plan_no_start = plan.clone();
    plan_no_start["request"] = no_start.clone();
    let result =
        h.result(&req(20, "tools/call", call("export_calendar", json!({"plan": plan_no_start, "request": no_start}))));
    assert!(tool_error(&result).starts_with("the request has no startDate"), "{result}");
    // Hostile calendar texts: a clear answer, never a panic (the crate's caps hold).
    let deep = "BEGIN:VCALENDAR\r\n".repeat(10_000);
    let many = format!("BEGIN:VCALENDAR\r\n{}END:VCALENDAR\r\n", "X-A:1\r\n".repeat(300_000));
    for (n, ics) in [deep, many, "\u{0}\u{feff}BEGIN".to_owned()].into_iter().enumerate() {
        let args = json!({"calendar": ics, "startDate": "2026-10-05", "timezone": "UTC"});
        let result = h.result(&req(30 + n, "tools/call", call("import_commitments", args)));
        assert!(tool_error(&result).starts_with("the calendar file"), "{n}: {result}");
    }
    // The server goes on.
    assert!(h.result(&req(99, "tools/call", call("get_plan_contract", json!({}))))["structuredContent"].is_object());
}

#[test]
fn both_calendar_tools_are_listed_read_only_in_every_era_and_answer_over_http() {
    let mut h = Harness::read_only();
    let listed = h.result(&req(1, "tools/list", json!({})));
    let names: Vec<&str> = listed["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"export_calendar") && names.contains(&"import_commitments"), "{names:?}");
    for tool in listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"].as_str().is_some_and(|n| n.contains("calendar") || n.contains("commitments")))
    {
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
        assert!(tool["outputSchema"].is_object(), "{tool}");
    }
    // 2026-07-28 over stdio lines: the same result, stamped.
    let (plan, request) = calm();
    let arguments = json!({"plan": plan, "request": request, "dtstamp": STAMP});
    let result = h.result(&modern(2, "tools/call", call("export_calendar", arguments.clone()), json!({})));
    assert_modern_complete(&result);
    let uri = format!("calendar://{}.ics", request["requestId"].as_str().unwrap());
    assert_export(&result, &plan, &request, &uri, "modern");
    // 2024-11-05: the resource, no structuredContent (it came in 2025-06-18).
    let mut old = Harness::read_only();
    old.initialize("2024-11-05", json!({}));
    let result = old.result(&req(3, "tools/call", call("export_calendar", arguments.clone())));
    assert!(result.get("structuredContent").is_none(), "{result}");
    assert_eq!(result["content"][1]["resource"]["mimeType"], "text/calendar");
    // Over Streamable HTTP (2026-07-28).
    let message = modern(4, "tools/call", call("export_calendar", arguments), json!({}));
    let (status, body) = crate::repair::over_http(&message, "export_calendar");
    assert_eq!(status, 200);
    let answer = momentum_plan::parse_json(std::str::from_utf8(&body).unwrap()).unwrap();
    assert_export(&answer["result"], &plan, &request, &uri, "http");
}
