//! The calendar functions (issue 32): one-line shims over `momentum_plan_js::calendar` (the JS
//! packages' one native side, feature `calendar`), which the wasm package's calendar module shims
//! too. Each answer is one JSON text that the shared `calendar.js` (from `js/calendar.js`) reads.

use crate::text;
use momentum_plan_js::calendar;
use napi::Result;
use napi::bindgen_prelude::Unknown;
use napi_derive::napi;

/// `calendar::plan_to_icalendar` of a plan and a request (a JS string or a `Uint8Array` of
/// UTF-8, as `toJsonText` gives them) and a `DTSTAMP`.
#[napi(catch_unwind)]
pub fn plan_to_icalendar(plan: Unknown<'_>, request: Unknown<'_>, dtstamp: String) -> Result<String> {
    let (plan, request) = (text::read_text(&plan, "plan")?, text::read_text(&request, "request")?);
    Ok(calendar::plan_to_icalendar(plan.js(), request.js(), &dtstamp))
}

/// `calendar::commitments_from_icalendar`.
#[napi(catch_unwind)]
pub fn commitments_from_icalendar(ics: String, start_date: String, timezone: String) -> String {
    calendar::commitments_from_icalendar(&ics, &start_date, &timezone)
}
