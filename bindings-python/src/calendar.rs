//! The calendar functions (issue 32; crate `momentum-plan-calendar`): thin, the rules and messages
//! are the crate's. `plan_to_icalendar` reads its arguments as `validate_plan` does (module
//! `lib`'s `read`) and gives the crate JSON text; `commitments_from_icalendar` takes `str`s.

use crate::{Read, guard, host_error, output, place, read, request_not_json, request_value};
use momentum_plan::{Arena, Argument, Verdict};
use momentum_plan_calendar::{ExportError, ImportError};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;

/// A valid plan as an iCalendar object (RFC 5545; issue 32): returns
/// `{"text": str, "events": int, "warnings": [{"date", "path", "message"}]}` (`CalendarExport`), or, for a plan
/// that is not valid, its verdict (`Verdict`, `valid` `False`; the same dict `validate_plan`
/// returns), never a calendar.
///
/// `plan`, `request`: as `validate_plan` takes them (a `Mapping`, or JSON text as `str` or UTF-8
/// bytes), with the same exceptions. `dtstamp`: the `DTSTAMP` of every component, a UTC
/// date-time `YYYYMMDDTHHMMSSZ` (RFC 5545 §3.8.7.2; the core has no clock).
///
/// `text` is the crate's bytes (CRLF lines folded at 75 octets): a routine's blocks as weekly
/// `VEVENT`s from the request's `startDate` in its `timezone` (floating times without one), a goal
/// plan's activities as `VTODO`s due on their day. Raises `ValueError` with the crate's text for a
/// request without a `startDate` or with a `startDate` / `timezone` it cannot read (`.argument`
/// `"request"`, `.path` `"$.startDate"` / `"$.timezone"`, `.kind` `None`) and for a malformed
/// `dtstamp` (`.argument` `"dtstamp"`, `.path` `"$"`); `TypeError` when `dtstamp` is not a `str`.
#[pyfunction]
#[pyo3(signature = (plan, request, dtstamp))]
pub(crate) fn plan_to_icalendar<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyAny>,
    request: &Bound<'py, PyAny>,
    dtstamp: &str,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        // The request first, as `validate_plan` reads it: its faults are the caller's error.
        let request_value = request_value(py, request)?;
        let request_text = request_value.to_string();
        let arena = Arena::with_capacity(4096);
        let invalid = |v: &Verdict| output::verdict(py, v).map(Bound::into_any);
        let plan_text = match read(plan, Argument::Plan, &arena)? {
            Read::Text(t) => t.to_owned(),
            Read::Bytes(b) => match std::str::from_utf8(b) {
                Ok(t) => t.to_owned(),
                // Not UTF-8, not JSON: the core's `json` verdict for the bytes as given.
                Err(_) => return invalid(&momentum_plan::validate_bytes(b, &request_value)),
            },
            Read::OwnedBytes(b) => match String::from_utf8(b) {
                Ok(t) => t,
                Err(e) => return invalid(&momentum_plan::validate_bytes(e.as_bytes(), &request_value)),
            },
            Read::Tree(t) => t.to_value().to_string(),
            Read::NotText(e) => return invalid(&Verdict::not_json(&e)),
            Read::Fault(f) => match f.json_error() {
                Some(e) => return invalid(&Verdict::not_json(&e)),
                None => return Err(host_error(py, &f)),
            },
        };
        let export = py.detach(|| momentum_plan_calendar::plan_to_icalendar(&plan_text, &request_text, dtstamp));
        match export {
            Ok(x) => output::value(py, &serde_json::to_value(&x).map_err(|e| PyValueError::new_err(e.to_string()))?),
            Err(ExportError::Invalid(v)) => invalid(&v),
            Err(ExportError::RequestNotJson(e)) => Err(request_not_json(py, &e)),
            Err(e @ (ExportError::MissingStartDate | ExportError::BadStartDate(_))) => {
                Err(place(py, PyValueError::new_err(e.to_string()), Argument::Request, "$.startDate", None))
            }
            Err(e @ ExportError::BadTimezone(_)) => {
                Err(place(py, PyValueError::new_err(e.to_string()), Argument::Request, "$.timezone", None))
            }
            Err(e @ ExportError::BadDtstamp(_)) => {
                let err = PyValueError::new_err(e.to_string());
                let value = err.value(py);
                value.setattr(intern!(py, "argument"), "dtstamp")?;
                value.setattr(intern!(py, "path"), "$")?;
                value.setattr(intern!(py, "kind"), py.None())?;
                Err(err)
            }
        }
    })
}

/// The commitments of one week in a calendar file (issue 32): returns
/// `{"commitments": [{"label", "days", "start", "end"}], "skipped": [{"uid", "summary", "why"}]}`
/// (`CalendarCommitments`; each commitment is a request's, validator.md §3).
///
/// `ics`: the calendar's text (RFC 5545, `str`); `start_date`: the week's first day `YYYY-MM-DD`
/// (the request's `startDate`); `timezone`: a tz database name (the request's), the zone the
/// times are converted to. Raises `ValueError` with the crate's text for a file it cannot read
/// (`.line`: the 1-based line at fault), a file over its caps, or a bad `start_date` /
/// `timezone` (`.line` `None`); `TypeError` for an argument that is not a `str`.
#[pyfunction]
#[pyo3(signature = (ics, start_date, timezone))]
pub(crate) fn commitments_from_icalendar<'py>(
    py: Python<'py>,
    ics: &str,
    start_date: &str,
    timezone: &str,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let week = py.detach(|| momentum_plan_calendar::commitments_from_icalendar(ics, start_date, timezone));
        match week {
            Ok(w) => output::value(py, &serde_json::to_value(&w).map_err(|e| PyValueError::new_err(e.to_string()))?),
            Err(e) => {
                let line = match &e {
                    ImportError::Malformed { line, .. } => Some(*line),
                    _ => None,
                };
                let err = PyValueError::new_err(e.to_string());
                err.value(py).setattr(intern!(py, "line"), line)?;
                Err(err)
            }
        }
    })
}
