//! `momentum-plan calendar` and `momentum-plan commitments`: the calendar crate
//! (`momentum-plan-calendar`, issue 32) on files. The rules and messages are the crate's; this
//! module reads the files, prints, and picks the exit code.

use crate::check::{issues, print_frames, print_summary};
use crate::files::{STDIN, is_stdin, read_input};
use crate::{Outcome, fail};
use momentum_plan_calendar::{ExportError, commitments_from_icalendar, plan_to_icalendar};
use std::path::Path;

/// The `DTSTAMP` format of RFC 5545 §3.8.7.2 (a UTC DATE-TIME), for `jiff`'s `strftime`.
const DTSTAMP_FORMAT: &str = "%Y%m%dT%H%M%SZ";

/// [`read_input`] as UTF-8 text.
fn read_text(path: &Path, what: &str) -> Result<String, String> {
    String::from_utf8(read_input(path, what)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        format!("the {what} {} is not UTF-8 text (byte {at})", path.display())
    })
}

/// The current time as a `DTSTAMP` (`YYYYMMDDTHHMMSSZ`, UTC): the CLI's default for `--dtstamp`
/// (the crate has no clock).
pub(crate) fn now_dtstamp() -> String {
    jiff::Timestamp::now().strftime(DTSTAMP_FORMAT).to_string()
}

/// `momentum-plan calendar PLAN REQUEST`: the plan as an iCalendar object on stdout (the crate's
/// bytes: CRLF lines), each daylight-saving warning on stderr (`warning: DATE PATH: MESSAGE`).
///
/// Outcomes: [`Outcome::Valid`] with the calendar; [`Outcome::Invalid`] for an invalid plan, its
/// verdict on stderr as `check` draws it (code frames and the summary line) and nothing on stdout;
/// [`Outcome::Failed`] for a file that cannot be read, a request that is not JSON, a request
/// without a usable `startDate` or `timezone`, or a malformed `dtstamp`. `PLAN` (not both) may be
/// `-`, standard input.
pub(crate) fn export(plan: &Path, request: &Path, dtstamp: &str) -> Outcome {
    if is_stdin(plan) && is_stdin(request) {
        return fail("standard input (-) can be named once");
    }
    let (plan_bytes, request_text) = match (read_input(plan, "plan"), read_text(request, "request")) {
        (Ok(p), Ok(r)) => (p, r),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let name = plan.display().to_string();
    // A plan that is not UTF-8 is not valid JSON: its verdict (a `json` issue) comes from the core's
    // byte reader, as `check` gives it.
    let Ok(plan_text) = std::str::from_utf8(&plan_bytes) else {
        let request = match momentum_plan::parse_json(&request_text) {
            Ok(r) => r,
            Err(e) => return fail(format!("the request {} is not JSON: {e}", request.display())),
        };
        return invalid(&name, &plan_bytes, &momentum_plan::validate_bytes(&plan_bytes, &request));
    };
    match plan_to_icalendar(plan_text, &request_text, dtstamp) {
        Ok(export) => {
            for w in &export.warnings {
                anstream::eprintln!("warning: {} {}: {}", w.date, w.path, w.message);
            }
            anstream::print!("{}", export.text);
            Outcome::Valid
        }
        Err(ExportError::Invalid(verdict)) => invalid(&name, &plan_bytes, &verdict),
        Err(ExportError::RequestNotJson(e)) => fail(format!("the request {} is not JSON: {e}", request.display())),
        Err(e) => fail(e),
    }
}

/// An invalid plan's verdict on stderr, drawn as `check` draws it, and why there is no calendar.
fn invalid(name: &str, plan: &[u8], verdict: &momentum_plan::Verdict) -> Outcome {
    print_frames(&mut anstream::stderr(), name, plan, &issues(verdict));
    print_summary(&mut anstream::stderr(), 1, 0, 0, verdict.errors.len(), verdict.warnings.len());
    anstream::eprintln!(
        "momentum-plan: no calendar: the plan is not valid (fix it first: momentum-plan repair {name})"
    );
    Outcome::Invalid
}

/// `momentum-plan commitments CALENDAR --start DATE --timezone ZONE`: the week's commitments as a
/// JSON array (validator.md §3, `[{"label","days","start","end"}, ...]`, one commitment a line, to paste
/// into a request's `commitments`) on stdout; each skipped event on stderr
/// (`skipped "SUMMARY" (UID): WHY`). [`Outcome::Failed`] for a file that cannot be read, a calendar
/// the crate cannot read (its message names the line), or a bad `--start` / `--timezone`.
pub(crate) fn import(calendar: &Path, start: &str, timezone: &str) -> Outcome {
    let text = match read_text(calendar, "calendar") {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let week = match commitments_from_icalendar(&text, start, timezone) {
        Ok(w) => w,
        Err(e) => {
            let name = if is_stdin(calendar) { STDIN.to_owned() } else { calendar.display().to_string() };
            return fail(format!("{name}: {e}"));
        }
    };
    for s in &week.skipped {
        anstream::eprintln!("skipped {:?} ({}): {}", s.summary, s.uid, s.why);
    }
    match commitments_json(&week.commitments) {
        Ok(json) => {
            anstream::println!("{json}");
            Outcome::Valid
        }
        Err(e) => fail(format!("cannot write the commitments as JSON: {e}")),
    }
}

/// The commitments as a JSON array, one compact commitment per line (`[]` when there are none).
fn commitments_json(commitments: &[momentum_plan_calendar::Commitment]) -> serde_json::Result<String> {
    if commitments.is_empty() {
        return Ok("[]".to_owned());
    }
    let lines = commitments.iter().map(serde_json::to_string).collect::<serde_json::Result<Vec<_>>>()?;
    Ok(format!("[\n  {}\n]", lines.join(",\n  ")))
}
