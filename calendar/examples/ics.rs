//! The calendar crate as a JSON-lines filter, for the independent checkers (tests/calendar).
//!
//! Each input line is one JSON object, each output line its answer, in order:
//! - `{"export": {"plan": <object or text>, "request": <object>, "dtstamp": "20261207T120000Z"}}`
//!   → `{"text": <calendar>, "warnings": [...]}` or `{"error": <message>, "kind": <ExportError variant>}`;
//! - `{"import": {"ics": <text>, "startDate": "YYYY-MM-DD", "timezone": <name>}}`
//!   → `{"commitments": [...], "skipped": [...]}` or `{"error": <message>}`.
//!
//! An object plan is passed on as its compact JSON text (numbers as read).

// A driver, not the library: it reads standard input and writes standard output.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use momentum_plan::Value;
use std::io::{BufRead as _, Write as _};

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => serde_json::to_string(v).unwrap_or_default(),
    }
}

fn answer(line: &str) -> Value {
    let Ok(input) = momentum_plan::parse_json(line) else { return serde_json::json!({"error": "not JSON"}) };
    if let Some(e) = input.get("export") {
        let plan = e.get("plan").map(text_of).unwrap_or_default();
        let request = e.get("request").map(|r| serde_json::to_string(r).unwrap_or_default()).unwrap_or_default();
        let stamp = e.get("dtstamp").and_then(Value::as_str).unwrap_or("20261207T120000Z");
        return match momentum_plan_calendar::plan_to_icalendar(&plan, &request, stamp) {
            Ok(x) => serde_json::to_value(&x).unwrap_or(Value::Null),
            Err(err) => serde_json::json!({"error": err.to_string(), "kind": kind(&err)}),
        };
    }
    if let Some(i) = input.get("import") {
        let s = |k: &str| i.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        return match momentum_plan_calendar::commitments_from_icalendar(&s("ics"), &s("startDate"), &s("timezone")) {
            Ok(x) => serde_json::to_value(&x).unwrap_or(Value::Null),
            Err(err) => serde_json::json!({"error": err.to_string()}),
        };
    }
    serde_json::json!({"error": "expected an export or an import object"})
}

fn kind(e: &momentum_plan_calendar::ExportError) -> &'static str {
    use momentum_plan_calendar::ExportError as E;
    match e {
        E::RequestNotJson(_) => "RequestNotJson",
        E::Invalid(_) => "Invalid",
        E::MissingStartDate => "MissingStartDate",
        E::BadStartDate(_) => "BadStartDate",
        E::BadTimezone(_) => "BadTimezone",
        E::BadDtstamp(_) => "BadDtstamp",
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let a = answer(&line);
        if writeln!(out, "{a}").is_err() {
            return;
        }
    }
    let _ = out.flush();
}
