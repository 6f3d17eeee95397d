//! # momentum-plan-node
//!
//! The native half of the Node.js binding of the `momentum-plan` validator (napi-rs v3): one-line
//! shims over `momentum_plan_js`, the JS packages' one native side, under the JS names its docs
//! list (the same as `bindings-wasm`'s). `index.js` hands this module as it is to the shared
//! converter (`makeConverter(native)`, `js/convert.js`). Every rule lives in the core
//! (validator.md); a text argument is a JS string (read with one N-API copy) or a `Uint8Array`
//! (borrowed), `text::read_text`.
//!
//! Errors: a text that is neither is `StringExpected`; a call the converter never makes
//! (`momentum_plan_js::Misuse`) is `InvalidArg`. Every export is `catch_unwind`: a Rust panic is a
//! thrown JS `Error`, never an aborted Node process. Test-only exports (`validateText`,
//! `benchCore`, `panicForTest`) sit behind the cargo feature `test-exports` (`test_exports.rs`).
//! The calendar functions (issue 32, `calendar.rs`) are `momentum_plan_js::calendar`'s (its
//! feature `calendar`, which the wasm validator module is built without).
#![allow(clippy::needless_pass_by_value)] // napi-rs hands JS strings and arrays over as owned `String`s and `Vec`s

mod calendar;
mod text;

pub use calendar::{commitments_from_icalendar, plan_to_icalendar};

use momentum_plan::Segment;
use momentum_plan_js as js;
use napi::bindgen_prelude::{Either, Unknown};
use napi::{Error, Result, Status};
use napi_derive::napi;

/// The addon's allocator: mimalloc makes the core's allocations ~10–25 % faster than glibc malloc
/// in Node (README, "Speed"); `momentum_plan_alloc` calls it without the aligned API where its
/// size classes give the alignment.
#[global_allocator]
static GLOBAL: momentum_plan_alloc::MiMalloc = momentum_plan_alloc::MiMalloc;

/// A [`js::Misuse`] as an `InvalidArg` error.
fn misuse(m: js::Misuse) -> Error {
    Error::new(Status::InvalidArg, m.0)
}

/// The plan `plan` and request `request` as texts (`js::validate`): the encoded answer.
#[napi(catch_unwind)]
pub fn validate(plan: Unknown<'_>, request: Unknown<'_>) -> Result<String> {
    Ok(js::validate(text::read_text(&plan, "plan")?.js(), text::read_text(&request, "request")?.js()).encode())
}

/// `js::repair` of two texts.
#[napi(catch_unwind)]
pub fn repair(plan: Unknown<'_>, request: Unknown<'_>, unsafe_fixes: bool) -> Result<String> {
    let (plan, request) = (text::read_text(&plan, "plan")?, text::read_text(&request, "request")?);
    Ok(js::repair(plan.js(), request.js(), unsafe_fixes).encode())
}

/// `js::repair_plan_fault`.
#[napi(catch_unwind)]
pub fn repair_plan_fault(
    request: Unknown<'_>,
    unsafe_fixes: bool,
    path: String,
    kind: String,
    detail: String,
) -> Result<String> {
    let request = text::read_text(&request, "request")?;
    Ok(js::repair_plan_fault(request.js(), unsafe_fixes, &path, &kind, &detail).map_err(misuse)?.encode())
}

/// `js::repair_plan_text_fault`.
#[napi(catch_unwind)]
pub fn repair_plan_text_fault(
    request: Unknown<'_>,
    unsafe_fixes: bool,
    plan: String,
    unit: u32,
    before: String,
) -> Result<String> {
    let request = text::read_text(&request, "request")?;
    Ok(js::repair_plan_text_fault(request.js(), unsafe_fixes, &plan, unit, &before).map_err(misuse)?.encode())
}

/// `js::schema` of a request text.
#[napi(catch_unwind)]
pub fn schema(request: Unknown<'_>, variant: String) -> Result<String> {
    Ok(js::schema(text::read_text(&request, "request")?.js(), &variant).encode())
}

/// `js::plan_fault`.
#[napi(catch_unwind)]
pub fn plan_fault(path: String, kind: String, detail: String) -> Result<String> {
    Ok(js::plan_fault(&path, &kind, &detail).map_err(misuse)?.encode())
}

/// `js::plan_text_fault`.
#[napi(catch_unwind)]
pub fn plan_text_fault(unit: u32, before: String) -> Result<String> {
    Ok(js::plan_text_fault(unit, &before).map_err(misuse)?.encode())
}

/// `js::fault_text`.
#[napi(catch_unwind)]
pub fn fault_text(argument: String, path: String, kind: String, detail: String) -> Result<String> {
    js::fault_text(&argument, &path, &kind, &detail).map_err(misuse)
}

/// `js::text_fault_text`.
#[napi(catch_unwind)]
pub fn text_fault_text(argument: String, unit: u32, before: String) -> Result<String> {
    js::text_fault_text(&argument, unit, &before).map_err(misuse)
}

/// `js::float_text`.
#[napi(catch_unwind)]
pub fn float_text(value: f64) -> Result<String> {
    js::float_text(value).map_err(misuse)
}

/// `js::render_path`: strings are member names, numbers array indices.
#[napi(catch_unwind)]
pub fn render_path(segments: Vec<Either<String, u32>>) -> String {
    js::render_path(segments.iter().map(|s| match s {
        Either::A(name) => Segment::Key(name),
        Either::B(i) => Segment::Index(*i as usize),
    }))
}

/// `js::max_depth`.
#[napi(catch_unwind)]
pub fn max_depth() -> u32 {
    js::max_depth()
}

/// `js::check_names`.
#[napi(catch_unwind)]
pub fn check_names() -> Vec<&'static str> {
    js::check_names()
}

/// `js::issue_codes`.
#[napi(catch_unwind)]
pub fn issue_codes() -> Vec<&'static str> {
    js::issue_codes()
}

/// `js::warning_codes`.
#[napi(catch_unwind)]
pub fn warning_codes() -> Vec<&'static str> {
    js::warning_codes()
}

/// `js::CONTRACT_JSON`.
#[napi(catch_unwind)]
pub fn plan_contract() -> &'static str {
    js::CONTRACT_JSON
}

/// `js::Stream` as the class `PlanStream` (validator.md §10): `new PlanStream(requestText)`,
/// `requestError()`, `push(chunk)` (a string or a `Uint8Array` of UTF-8), `finish()`, the getters
/// `repeatedName` and `length`; the answers are `js::Stream`'s, encoded.
#[napi(js_name = "PlanStream")]
pub struct PlanStream(js::Stream);

#[napi]
impl PlanStream {
    /// `js::Stream::new` of a request text.
    #[napi(constructor, catch_unwind)]
    pub fn new(request: Unknown<'_>) -> Result<PlanStream> {
        Ok(PlanStream(js::Stream::new(text::read_text(&request, "request")?.js())))
    }

    /// `js::Stream::request_error`.
    #[napi(catch_unwind)]
    pub fn request_error(&self) -> String {
        self.0.request_error()
    }

    /// `js::Stream::push` of a chunk's bytes.
    #[napi(catch_unwind)]
    pub fn push(&mut self, chunk: Unknown<'_>) -> Result<String> {
        Ok(self.0.push(text::read_text(&chunk, "chunk")?.bytes()).encode())
    }

    /// `js::Stream::finish`.
    #[napi(catch_unwind)]
    pub fn finish(&mut self) -> String {
        self.0.finish().encode()
    }

    /// `js::Stream::repeated_name`.
    #[napi(getter, catch_unwind)]
    pub fn repeated_name(&self) -> bool {
        self.0.repeated_name()
    }

    /// `js::Stream::len` (a plan's bytes are far below 2^53).
    #[napi(getter, catch_unwind)]
    #[allow(clippy::cast_precision_loss)]
    pub fn length(&self) -> f64 {
        self.0.len() as f64
    }
}

#[cfg(feature = "test-exports")]
pub mod test_exports;
