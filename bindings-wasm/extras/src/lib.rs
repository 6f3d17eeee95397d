//! # momentum-plan-wasm-extras
//!
//! The second module of the `momentum-plan-wasm` package (issue 32): what a page needs only after
//! its first verdict, loaded on first use so that the validator module (`bindings-wasm`, the crate
//! `momentum-plan-wasm`) stays small. One-line shims over `momentum_plan_js` under its JS names,
//! as the validator module's; the package's entry (`js/wasm/api.js`) joins both modules into the
//! one native object the shared converter (`js/convert.js`) reads. Texts cross as UTF-8 bytes.
//!
//! | JS name | function |
//! |---|---|
//! | `repair(plan, request, unsafe)` | `js::repair` (validator.md §9) |
//! | `repairPlanFault(request, unsafe, path, kind, detail)` | `js::repair_plan_fault` |
//! | `repairPlanTextFault(request, unsafe, plan, unit, before)` | `js::repair_plan_text_fault` |
//! | `schema(request, variant)` | `js::schema` (validator.md §9) |
//! | `new PlanStream(request)` | `js::Stream` (validator.md §10) |
//!
//! Calendars (issue 32 items 1-3) get a module of their own beside this one (a crate
//! `bindings-wasm/calendar`, one more entry in `scripts/build.mjs`'s `MODULES` and in
//! `js/wasm/api.js`'s `MODULES`), so that neither repair nor the tz data is fetched for the other.
// wasm-bindgen hands a JS array over as an owned `Vec`; `misuse` is used as `map_err(misuse)`.
#![allow(clippy::needless_pass_by_value)]

use momentum_plan_js::{self as js, Text};
use wasm_bindgen::prelude::*;

#[path = "../../src/shim.rs"]
mod shim;
use shim::{Out, misuse};

/// `js::repair` of two texts as UTF-8 bytes.
#[wasm_bindgen]
pub fn repair(plan: &[u8], request: &[u8], unsafe_fixes: bool) -> String {
    js::repair(Text::Bytes(plan), Text::Bytes(request), unsafe_fixes).encode()
}

/// `js::repair_plan_fault` (the request as UTF-8 bytes).
#[wasm_bindgen(js_name = repairPlanFault)]
pub fn repair_plan_fault(request: &[u8], unsafe_fixes: bool, path: &str, kind: &str, detail: &str) -> Out {
    Ok(js::repair_plan_fault(Text::Bytes(request), unsafe_fixes, path, kind, detail).map_err(misuse)?.encode())
}

/// `js::repair_plan_text_fault` (the request as UTF-8 bytes).
#[wasm_bindgen(js_name = repairPlanTextFault)]
pub fn repair_plan_text_fault(request: &[u8], unsafe_fixes: bool, plan: &str, unit: u32, before: &str) -> Out {
    Ok(js::repair_plan_text_fault(Text::Bytes(request), unsafe_fixes, plan, unit, before).map_err(misuse)?.encode())
}

/// `js::schema` of a request as UTF-8 bytes.
#[wasm_bindgen]
pub fn schema(request: &[u8], variant: &str) -> String {
    js::schema(Text::Bytes(request), variant).encode()
}

/// `js::Stream` as the class `PlanStream` (validator.md §10), texts as UTF-8 bytes:
/// `new PlanStream(request)`, `requestError()`, `push(chunk)`, `finish()`, the getters
/// `repeatedName` and `length`; the answers are `js::Stream`'s, encoded.
#[wasm_bindgen(js_name = PlanStream)]
pub struct PlanStream(js::Stream);

#[wasm_bindgen(js_class = PlanStream)]
impl PlanStream {
    /// `js::Stream::new` of a request as UTF-8 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(request: &[u8]) -> PlanStream {
        PlanStream(js::Stream::new(Text::Bytes(request)))
    }

    /// `js::Stream::request_error`.
    #[wasm_bindgen(js_name = requestError)]
    pub fn request_error(&self) -> String {
        self.0.request_error()
    }

    /// `js::Stream::push` of a chunk's UTF-8 bytes.
    pub fn push(&mut self, chunk: &[u8]) -> String {
        self.0.push(chunk).encode()
    }

    /// `js::Stream::finish`.
    pub fn finish(&mut self) -> String {
        self.0.finish().encode()
    }

    /// `js::Stream::repeated_name`.
    #[wasm_bindgen(getter, js_name = repeatedName)]
    pub fn repeated_name(&self) -> bool {
        self.0.repeated_name()
    }

    /// `js::Stream::len`.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.0.len()
    }
}
