//! The calendar functions of both JS packages (issue 32; crate `momentum-plan-calendar`), behind
//! the cargo feature `calendar`: `bindings-node` enables it for its addon, and the wasm package's
//! calendar module (`bindings-wasm/calendar`) for that module only, so the validator module, built
//! without the feature, neither compiles nor links the tz data. The rules and messages are the
//! crate's; this module only picks the JS error class and where it points.
//!
//! Each answer is one JSON text, which the shared `js/calendar.js` reads: the result
//! (`{"text", "events", "warnings"}`, an invalid plan's verdict `{"valid", ...}`, or `{"commitments",
//! "skipped"}`), or `{"error": {"name", "message", "argument", "path", "line"}}` naming the JS
//! error class thrown (`SyntaxError`, `RangeError` or `Error`). No result has an `error` member.

use crate::Text;
use momentum_plan::Argument;
use momentum_plan_calendar::{ExportError, ImportError};
use serde_json::json;

/// The answer `{"error": {...}}`: `name` the JS error class, `argument`/`path`/`line` where.
fn error(name: &str, message: &str, argument: Option<&str>, path: Option<&str>, line: Option<usize>) -> String {
    json!({"error": {"name": name, "message": message, "argument": argument, "path": path, "line": line}}).to_string()
}

/// A serializable result as its JSON text.
fn result(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| error("Error", &e.to_string(), None, None, None))
}

/// The bytes of a text.
fn bytes<'a>(text: &Text<'a>) -> &'a [u8] {
    match *text {
        Text::Str(s) => s.as_bytes(),
        Text::Bytes(b) => b,
    }
}

/// `momentum_plan_calendar::plan_to_icalendar` of a plan and a request text (a JS string or the
/// UTF-8 bytes of one, as the converter's `toJsonText` gives them) and a `DTSTAMP`
/// (`YYYYMMDDTHHMMSSZ`, RFC 5545 §3.8.7.2). Answers the export `{"text", "events", "warnings"}`; a plan
/// that is not valid, its verdict JSON (`Verdict::to_json`, as `validatePlan` gives it; plan bytes
/// that are not UTF-8 get the core's `json` verdict); request text that is not JSON (or not UTF-8)
/// a `SyntaxError` in the core's words (`argument` `request`, `path` `$`); a request without a
/// readable `startDate` or `timezone` an `Error` (`path` `$.startDate` or `$.timezone`); a bad
/// `dtstamp` a `RangeError` (`argument` `dtstamp`).
pub fn plan_to_icalendar(plan: Text<'_>, request: Text<'_>, dtstamp: &str) -> String {
    let not_json = |m: String| error("SyntaxError", &m, Some("request"), Some("$"), None);
    let Ok(request_text) = std::str::from_utf8(bytes(&request)) else {
        // The core's reader words bytes that are not UTF-8 (with line and column).
        let why = momentum_plan::parse_json_bytes(bytes(&request)).err();
        return not_json(why.map_or_else(|| "request is not JSON".to_owned(), |e| Argument::Request.not_json(&e)));
    };
    let Ok(plan_text) = std::str::from_utf8(bytes(&plan)) else {
        return match momentum_plan::parse_json(request_text) {
            Ok(r) => momentum_plan::validate_bytes(bytes(&plan), &r).to_json(),
            Err(e) => not_json(Argument::Request.not_json(&e)),
        };
    };
    match momentum_plan_calendar::plan_to_icalendar(plan_text, request_text, dtstamp) {
        Ok(export) => result(&export),
        Err(ExportError::Invalid(verdict)) => verdict.to_json(),
        Err(ExportError::RequestNotJson(e)) => not_json(Argument::Request.not_json(&e)),
        Err(e @ (ExportError::MissingStartDate | ExportError::BadStartDate(_))) => {
            error("Error", &e.to_string(), Some("request"), Some("$.startDate"), None)
        }
        Err(e @ ExportError::BadTimezone(_)) => {
            error("Error", &e.to_string(), Some("request"), Some("$.timezone"), None)
        }
        Err(e @ ExportError::BadDtstamp(_)) => error("RangeError", &e.to_string(), Some("dtstamp"), Some("$"), None),
    }
}

/// `momentum_plan_calendar::commitments_from_icalendar` of a calendar's text, the week's first day
/// (`YYYY-MM-DD`) and a tz database name: `{"commitments", "skipped"}`, or a `SyntaxError` (with
/// `line`, 1-based) for a file the crate cannot read, a `RangeError` for a file over its caps or a
/// `startDate` or `timezone` it cannot read.
pub fn commitments_from_icalendar(ics: &str, start_date: &str, timezone: &str) -> String {
    match momentum_plan_calendar::commitments_from_icalendar(ics, start_date, timezone) {
        Ok(week) => result(&week),
        Err(e @ ImportError::Malformed { line, .. }) => error("SyntaxError", &e.to_string(), None, None, Some(line)),
        Err(e) => error("RangeError", &e.to_string(), None, None, None),
    }
}
