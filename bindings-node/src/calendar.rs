//! The calendar functions of the Node package only (issue 32; crate `momentum-plan-calendar`):
//! not in `momentum_plan_js`, which the wasm validator module is built from and which must stay
//! small. Thin: the rules and messages are the crate's; `calendar.js` reads the answers.
//!
//! Each answer is one JSON text: the result (`{"text", "events", "warnings"}`, an invalid plan's verdict
//! `{"valid", ...}`, or `{"commitments", "skipped"}`), or `{"error": {"name", "message",
//! "argument", "path", "line"}}` naming the JS error class `calendar.js` throws. No result has an
//! `error` member.

use crate::text;
use momentum_plan_calendar::{ExportError, ImportError};
use napi::Result;
use napi::bindgen_prelude::Unknown;
use napi_derive::napi;
use serde_json::json;

/// The answer `{"error": {...}}`: `name` the JS error class, `argument`/`path`/`line` where.
fn error(name: &str, message: &str, argument: Option<&str>, path: Option<&str>, line: Option<usize>) -> String {
    json!({"error": {"name": name, "message": message, "argument": argument, "path": path, "line": line}}).to_string()
}

/// A serializable result as its JSON text.
fn result(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| error("Error", &e.to_string(), None, None, None))
}

/// `momentum_plan_calendar::plan_to_icalendar` of a plan and a request text (a JS string or a
/// `Uint8Array` of UTF-8, as `toJsonText` gives them) and a `DTSTAMP`. A plan text that is not
/// UTF-8 gets the core's `json` verdict (as `validatePlan`); request bytes that are not UTF-8
/// are request text that is not JSON.
#[napi(catch_unwind)]
pub fn plan_to_icalendar(plan: Unknown<'_>, request: Unknown<'_>, dtstamp: String) -> Result<String> {
    let (plan, request) = (text::read_text(&plan, "plan")?, text::read_text(&request, "request")?);
    let not_json = |m: String| error("SyntaxError", &m, Some("request"), Some("$"), None);
    let Ok(request_text) = std::str::from_utf8(request.bytes()) else {
        // The core's reader words bytes that are not UTF-8 (with line and column).
        let why = momentum_plan::parse_json_bytes(request.bytes()).err();
        return Ok(not_json(
            why.map_or_else(|| "request is not JSON".to_owned(), |e| momentum_plan::Argument::Request.not_json(&e)),
        ));
    };
    let Ok(plan_text) = std::str::from_utf8(plan.bytes()) else {
        return Ok(match momentum_plan::parse_json(request_text) {
            Ok(r) => momentum_plan::validate_bytes(plan.bytes(), &r).to_json(),
            Err(e) => not_json(momentum_plan::Argument::Request.not_json(&e)),
        });
    };
    Ok(match momentum_plan_calendar::plan_to_icalendar(plan_text, request_text, &dtstamp) {
        Ok(export) => result(&export),
        Err(ExportError::Invalid(verdict)) => verdict.to_json(),
        Err(ExportError::RequestNotJson(e)) => not_json(momentum_plan::Argument::Request.not_json(&e)),
        Err(e @ (ExportError::MissingStartDate | ExportError::BadStartDate(_))) => {
            error("Error", &e.to_string(), Some("request"), Some("$.startDate"), None)
        }
        Err(e @ ExportError::BadTimezone(_)) => {
            error("Error", &e.to_string(), Some("request"), Some("$.timezone"), None)
        }
        Err(e @ ExportError::BadDtstamp(_)) => error("RangeError", &e.to_string(), Some("dtstamp"), Some("$"), None),
    })
}

/// `momentum_plan_calendar::commitments_from_icalendar`: `{"commitments", "skipped"}`, or a
/// `SyntaxError` (with `line`) for a file the crate cannot read, a `RangeError` for a file over
/// its caps or a bad start date or zone.
#[napi(catch_unwind)]
pub fn commitments_from_icalendar(ics: String, start_date: String, timezone: String) -> String {
    match momentum_plan_calendar::commitments_from_icalendar(&ics, &start_date, &timezone) {
        Ok(week) => result(&week),
        Err(e @ ImportError::Malformed { line, .. }) => error("SyntaxError", &e.to_string(), None, None, Some(line)),
        Err(e) => error("RangeError", &e.to_string(), None, None, None),
    }
}
