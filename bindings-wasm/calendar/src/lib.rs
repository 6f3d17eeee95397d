//! # momentum-plan-wasm-calendar
//!
//! The third module of the `momentum-plan-wasm` package (issue 32): the calendar functions and the
//! tz data they need, loaded on first use (`loadCalendar()`), so that neither the validator module
//! (`bindings-wasm`, the crate `momentum-plan-wasm`) nor the extras (`bindings-wasm/extras`) carry
//! them. One-line shims over `momentum_plan_js::calendar` (the JS packages' one native side,
//! feature `calendar`; the Node addon shims the same functions) under its JS names; the package's
//! entry (`js/wasm/api.js`) joins the modules into one native object, and the shared
//! `js/calendar.js` reads the answers (one JSON text each) and throws their errors. The plan and
//! request cross as UTF-8 bytes, the other texts as strings.
//!
//! | JS name | function |
//! |---|---|
//! | `planToIcalendar(plan, request, dtstamp)` | `js::calendar::plan_to_icalendar` |
//! | `commitmentsFromIcalendar(ics, startDate, timezone)` | `js::calendar::commitments_from_icalendar` |
// shim.rs's `misuse` is used as `map_err(misuse)` by the other modules.
#![allow(clippy::needless_pass_by_value)]

use momentum_plan_js::{Text, calendar};
use wasm_bindgen::prelude::*;

#[path = "../../src/shim.rs"]
#[allow(dead_code)] // the TypeError of a misuse: no call here can misuse
mod shim;

/// `calendar::plan_to_icalendar` of a plan and a request as UTF-8 bytes and a `DTSTAMP`.
#[wasm_bindgen(js_name = planToIcalendar)]
pub fn plan_to_icalendar(plan: &[u8], request: &[u8], dtstamp: &str) -> String {
    calendar::plan_to_icalendar(Text::Bytes(plan), Text::Bytes(request), dtstamp)
}

/// `calendar::commitments_from_icalendar`.
#[wasm_bindgen(js_name = commitmentsFromIcalendar)]
pub fn commitments_from_icalendar(ics: &str, start_date: &str, timezone: &str) -> String {
    calendar::commitments_from_icalendar(ics, start_date, timezone)
}
