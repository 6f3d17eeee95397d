//! # momentum-plan-calendar
//!
//! A valid `daily-momentum-ai-plan` as an iCalendar object (RFC 5545), and a person's calendar
//! file as the request's `commitments` (issue 32 items 1, 2 and 5; shapes: validator.md §3).
//!
//! - [`plan_to_icalendar`]: plan text + request text + `DTSTAMP` → the calendar text and its
//!   daylight-saving warnings, or the core's verdict when the plan is invalid.
//! - [`commitments_from_icalendar`]: calendar text + `startDate` + `timezone` → the commitments of
//!   that week, and the events left out with why.
//!
//! Pure: no I/O, no clock, no environment (the same `clippy.toml` lints as the core). Time zones
//! come from the tz database bundled into the binary by `jiff` (`tzdb-bundle-always`), so native,
//! `wasm32-unknown-unknown` and WASI builds read the same data. The decisions the issue leaves
//! open are in this crate's README.
//!
//! ```
//! let request = r#"{"requestId":"r1","kind":"routine","timezone":"Europe/Zurich","startDate":"2026-10-05"}"#;
//! let plan = r#"{"format":"daily-momentum-ai-plan","contractVersion":1,"requestId":"r1","kind":"routine",
//!   "name":"N","tagline":"T","description":"D","routine":{"blocks":[{"start":"07:00","durationMin":30,
//!   "activity":"Walk","category":"body","essential":true}]},
//!   "request":{"requestId":"r1","kind":"routine","timezone":"Europe/Zurich","startDate":"2026-10-05"}}"#;
//! let export = momentum_plan_calendar::plan_to_icalendar(plan, request, "20261001T000000Z").unwrap();
//! assert!(export.text.contains("DTSTART;TZID=Europe/Zurich:20261005T070000\r\n"));
//! assert!(export.text.contains("RRULE:FREQ=WEEKLY;WKST=MO;BYDAY=MO,TU,WE,TH,FR,SA,SU\r\n"));
//!
//! // and back: the week of 2026-10-05 in Zurich, as the request's commitments
//! let week = momentum_plan_calendar::commitments_from_icalendar(&export.text, "2026-10-05", "Europe/Zurich").unwrap();
//! assert_eq!(
//!     serde_json::to_string(&week.commitments).unwrap(),
//!     r#"[{"label":"Walk","days":["mon","tue","wed","thu","fri","sat","sun"],"start":"07:00","end":"07:30"}]"#
//! );
//! ```

mod export;
mod ical;
mod import;
mod time;
mod windows_zones;

pub use export::{Export, ExportError, HORIZON_YEARS, PRODID, Warning, plan_to_icalendar};
pub use import::{
    Commitment, ImportError, Imported, MAX_EVENTS, MAX_ICS_BYTES, MAX_LINES, MAX_STEPS, MAX_STEPS_PER_EVENT, Skipped,
    commitments_from_icalendar,
};
