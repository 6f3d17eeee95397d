//! `export_calendar` and `import_commitments` (issue 32 item 3): a valid plan as an iCalendar
//! file, returned as an embedded `text/calendar` resource, and the week of a person's calendar
//! file as the request's `commitments`. The rules and their messages are the calendar crate's
//! (`momentum-plan-calendar`); this module reads the arguments and shapes the results.

use super::{DTSTAMP, ToolError, ToolResult, invalid, left_over, plan_arguments, texts, wrong_type};
use crate::catalog::{ArgumentText, EXPORT_CALENDAR, IMPORT_COMMITMENTS, catalog, fill};
use crate::model::{EmbeddedResource, TextResourceContents};
use momentum_plan_calendar::{ExportError, Imported, Warning};
use serde::Serialize;
use serde_json::{Map, Value};

/// `export_calendar`'s `structuredContent` (codegen's `ExportCalendarResult`): the resource's
/// uri, and the crate's `Export::events` and `Export::warnings`.
#[derive(Debug, Serialize)]
pub(super) struct ExportResult {
    uri: String,
    events: usize,
    warnings: Vec<Warning>,
}

/// `export_calendar`: [`momentum_plan_calendar::plan_to_icalendar`] of `plan` (an object, given
/// to the crate as its compact JSON text, or plan text) and `request`, at `dtstamp` (absent: the
/// server's clock, [`now`]). A valid plan: the text block and `structuredContent`
/// `{uri, events, warnings}`, then the calendar as an embedded resource (`uri` from the
/// request's `requestId`, [`calendar_uri`]). A plan that is not valid: the catalog's
/// `calendar.planInvalid` with `validate_plan`'s verdict, as a tool error. Any other refusal (no
/// `startDate`, an unknown `timezone`, a malformed `dtstamp`) is the crate's message, a tool error.
pub(super) fn export(arguments: Map<String, Value>) -> Result<ToolResult<ExportResult>, ToolError> {
    let (plan, request, options) = plan_arguments(EXPORT_CALENDAR, arguments, &[DTSTAMP])?;
    let dtstamp = options.dtstamp.unwrap_or_else(now);
    let plan_text = match &plan {
        Value::String(text) => text.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    };
    let request_text = serde_json::to_string(&request).unwrap_or_default();
    match momentum_plan_calendar::plan_to_icalendar(&plan_text, &request_text, &dtstamp) {
        Ok(export) => {
            let uri = calendar_uri(&request);
            let mut result = ToolResult::json(ExportResult { uri, events: export.events, warnings: export.warnings });
            result.resource = Some(EmbeddedResource::new(TextResourceContents {
                uri: result.structured.uri.clone(),
                mime_type: &catalog().calendar.mime_type,
                text: export.text,
            }));
            Ok(result)
        }
        Err(ExportError::Invalid(crate_verdict)) => {
            // validate_plan's verdict on the same arguments (the crate read the plan as text).
            let verdict = momentum_plan::validate(&plan, &request);
            let verdict = if verdict.valid { *crate_verdict } else { verdict };
            Err(ToolError(fill(&catalog().calendar.plan_invalid, &[("verdict", &verdict.to_json())])))
        }
        Err(e) => Err(ToolError(e.to_string())),
    }
}

/// `import_commitments`: [`momentum_plan_calendar::commitments_from_icalendar`] of `calendar`
/// for the week of `startDate` in `timezone`: `structuredContent` and the text block
/// `{commitments, skipped}`. A file the crate cannot read, or a `startDate` / `timezone` it
/// cannot use, is its message (with the line at fault), a tool error.
pub(super) fn import(arguments: Map<String, Value>) -> Result<ToolResult<Imported>, ToolError> {
    let [calendar, start_date, timezone] = import_arguments(arguments)?;
    momentum_plan_calendar::commitments_from_icalendar(&calendar, &start_date, &timezone)
        .map(ToolResult::json)
        .map_err(|e| ToolError(e.to_string()))
}

/// The three string arguments of `import_commitments`, in order, or the tool error naming every
/// argument that does not fit its input schema (the catalog's `argumentErrors`).
fn import_arguments(mut args: Map<String, Value>) -> Result<[String; 3], ToolError> {
    let t = texts();
    let mut problems = Vec::new();
    let mut take = |name: &str, text: &ArgumentText| match args.shift_remove(name) {
        None => {
            problems.push(text.missing.clone());
            None
        }
        Some(Value::String(s)) => Some(s),
        Some(v) => {
            problems.push(wrong_type(text, &v));
            None
        }
    };
    let calendar = take("calendar", &t.calendar);
    let start_date = take("startDate", &t.start_date);
    let timezone = take("timezone", &t.timezone);
    problems.extend(left_over(IMPORT_COMMITMENTS, &args));
    match (calendar, start_date, timezone) {
        (Some(c), Some(s), Some(z)) if problems.is_empty() => Ok([c, s, z]),
        _ => Err(invalid(IMPORT_COMMITMENTS, &problems)),
    }
}

/// The calendar's uri: the catalog's `calendar.uriTemplate` with `{requestId}` the request's
/// `requestId` (a string; else the catalog's `unnamed`), every byte outside RFC 3986's
/// unreserved characters percent-encoded (RFC 6570 simple expansion).
fn calendar_uri(request: &Value) -> String {
    let c = &catalog().calendar;
    let id = match request.get("requestId") {
        Some(Value::String(s)) => s.as_str(),
        _ => c.unnamed.as_str(),
    };
    let mut encoded = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(b));
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            encoded.extend(['%', char::from(HEX[usize::from(b >> 4)]), char::from(HEX[usize::from(b & 15)])]);
        }
    }
    fill(&c.uri_template, &[("requestId", &encoded)])
}

/// Now, as a UTC `DTSTAMP` (`YYYYMMDDTHHMMSSZ`): the WASI wall clock the runtime grants. Written
/// field by field, as the calendar crate writes its date-times (jiff's `strftime` would add its
/// whole formatter to the `.wasm`).
fn now() -> String {
    let t = jiff::tz::TimeZone::UTC.to_datetime(jiff::Timestamp::now());
    format!("{:04}{:02}{:02}T{:02}{:02}{:02}Z", t.year(), t.month(), t.day(), t.hour(), t.minute(), t.second())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_uri_percent_encodes_the_request_id_and_names_an_unnamed_plan() {
        assert_eq!(calendar_uri(&json!({"requestId": "r-1.a_b~c"})), "calendar://r-1.a_b~c.ics");
        assert_eq!(calendar_uri(&json!({"requestId": "a b/ü?#"})), "calendar://a%20b%2F%C3%BC%3F%23.ics");
        assert_eq!(calendar_uri(&json!({})), "calendar://plan.ics");
        assert_eq!(calendar_uri(&json!({"requestId": 7})), "calendar://plan.ics");
    }

    #[test]
    fn now_is_a_utc_dtstamp() {
        let stamp = now();
        assert_eq!(stamp.len(), 16, "{stamp}");
        assert!(stamp.starts_with("20") && stamp.as_bytes()[8] == b'T' && stamp.ends_with('Z'), "{stamp}");
        // the crate accepts it
        let request = r#"{"requestId":"r","kind":"goal","startDate":"2026-10-05"}"#;
        assert!(!matches!(
            momentum_plan_calendar::plan_to_icalendar("{}", request, &stamp),
            Err(ExportError::BadDtstamp(_))
        ));
    }
}
