//! # momentum-plan-wasm
//!
//! The `momentum-plan` validator as a WebAssembly module for browsers and Node (wasm-bindgen), so
//! an app can check an AI-drafted plan on the person's device, offline, before importing it.
//!
//! The binding is thin: it converts its two arguments to JSON text, calls
//! [`momentum_plan::validate_text`], and hands the verdict back as a plain JS object. It holds no
//! validation rule; every verdict is the core's (`shared/spec/validator.md`).
//!
//! ## Crossing the boundary (one place: this file and `js/convert.js`)
//!
//! A plan object is written to JSON text by `js/convert.js` (a small serializer that also rejects
//! what JSON cannot hold, naming its path), the text is copied into wasm memory once, and the core
//! parses it with `serde_json`. Measured against `serde-wasm-bindgen` walking the object (which
//! crosses the boundary once per value) this is the faster way in; the verdict goes out as its
//! compact JSON text through `JSON.parse`, which also gives plain objects with the core's key
//! order. The README records the measurements (`npm run bench:boundary`).
//!
//! ## Exports (see the generated `.d.ts`)
//!
//! - `validatePlan(plan: object | string, request: object | string): Verdict`
//! - `getPlanContract(): Contract`
//!
//! The package's `index.js` wraps these two so that a trap (out of memory, or a panic, which
//! aborts) re-instantiates the module instead of leaving it unusable.

use momentum_plan::json::{self, JsonError};
use momentum_plan::{Value, Verdict};
use wasm_bindgen::prelude::*;

mod ts;

/// The allocator: talc instead of Rust's default dlmalloc, for size (README "Size").
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The TypeScript declarations of the package's types (`Verdict`, `Issue`, `IssueCode`,
/// `CheckName`, `CategoryId`, `Weekday`, `Category`, `Limits`, `Contract`), built at compile time
/// from the core's registries (`src/ts.rs`); wasm-bindgen writes them into the `.d.ts`.
pub const TYPESCRIPT: &str = ts::TYPES;

#[wasm_bindgen(typescript_custom_section)]
const TS_SECTION: &str = TYPESCRIPT;

#[wasm_bindgen(module = "/js/convert.js")]
extern "C" {
    /// `toJsonText(value, role)` (js/convert.js): the JSON text of a JS argument: a string is
    /// returned as it is (checked for lone surrogates), anything else is serialized. Returns the
    /// text, or a [`NotJson`] for values JSON cannot hold (nesting deeper than
    /// [`momentum_plan::MAX_DEPTH`], a lone surrogate). Throws a `TypeError` naming the path for
    /// functions, symbols, BigInt, NaN, Infinity, cycles and `undefined` in arrays.
    #[wasm_bindgen(catch, js_name = toJsonText)]
    fn to_json_text(value: &JsValue, role: &str) -> Result<JsValue, JsValue>;

    /// Why an argument is not JSON (js/convert.js `NotJson`).
    type NotJson;

    /// What is wrong, e.g. `nesting deeper than 512 levels is not allowed`.
    #[wasm_bindgen(method, getter)]
    fn reason(this: &NotJson) -> String;

    /// 1-based line in the given text, or 0 for a value built in memory.
    #[wasm_bindgen(method, getter)]
    fn line(this: &NotJson) -> u32;

    /// 1-based column in characters, or 0 for a value built in memory.
    #[wasm_bindgen(method, getter)]
    fn column(this: &NotJson) -> u32;
}

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse(text)`: only ever given JSON written by the core.
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;

    /// `new TypeError(message)`.
    #[wasm_bindgen(js_name = TypeError)]
    pub(crate) type JsTypeError;
    #[wasm_bindgen(constructor, js_class = "TypeError")]
    pub(crate) fn new(message: &str) -> JsTypeError;

    /// `new SyntaxError(message)`.
    #[wasm_bindgen(js_name = SyntaxError)]
    type JsSyntaxError;
    #[wasm_bindgen(constructor, js_class = "SyntaxError")]
    fn new(message: &str) -> JsSyntaxError;
}

/// An argument as JSON text, or why it cannot be.
enum Text {
    /// The argument's JSON text.
    Json(String),
    /// The argument holds something JSON cannot (a lone surrogate, nesting too deep).
    NotJson(JsonError),
}

/// Converts one argument through `js/convert.js`. `Err` is the JS exception to rethrow.
fn text_of(value: &JsValue, role: &str) -> Result<Text, JsValue> {
    let out = to_json_text(value, role)?;
    Ok(match out.as_string() {
        Some(text) => Text::Json(text),
        None => {
            let e = out.unchecked_into::<NotJson>();
            let (line, column) = (e.line() as usize, e.column() as usize);
            Text::NotJson(JsonError { reason: e.reason(), line, column })
        }
    })
}

/// The request argument as a JSON value. Text that is not JSON throws a `SyntaxError`; an object
/// holding what JSON cannot throws a `TypeError` (the request is the caller's own input, not the
/// drafted plan, so it gets an exception rather than a verdict).
fn request_value(request: &JsValue) -> Result<Value, JsValue> {
    let is_text = request.is_string();
    let error = |e: &JsonError| -> JsValue {
        let message = format!("request: {e}");
        if is_text { JsSyntaxError::new(&message).into() } else { JsTypeError::new(&message).into() }
    };
    match text_of(request, "request")? {
        Text::Json(text) => json::parse(&text).map_err(|e| error(&e)),
        Text::NotJson(e) => Err(error(&e)),
    }
}

/// The verdict as a plain JS object: its compact JSON through `JSON.parse`, so objects are plain,
/// keys keep the core's order, and the bytes are exactly [`Verdict::to_json`].
fn verdict_to_js(verdict: &Verdict) -> Result<JsValue, JsValue> {
    json_parse(&verdict.to_json())
}

/// Validates a plan against the request it answers (validator.md §5).
///
/// - `plan`: the plan object, or its JSON text (validated as text: a `json` error at `$` with
///   line and column when it is not JSON). Lone surrogates and nesting deeper than 512 levels give
///   the core's `json` verdict.
/// - `request`: the request object, or its JSON text.
///
/// Returns the verdict, `{valid, errors, warnings, checks}`, a plain object.
///
/// # Errors
/// Throws a `TypeError` naming the path (e.g. `plan: $.routine.blocks[0].durationMin is NaN`) when
/// an argument holds a value JSON cannot (a function, symbol, BigInt, NaN, Infinity, a cycle,
/// `undefined` in an array; `undefined` object members are skipped as `JSON.stringify` does), and
/// a `SyntaxError` when request text is not JSON.
#[wasm_bindgen(js_name = validatePlan, unchecked_return_type = "Verdict")]
pub fn validate_plan(
    #[wasm_bindgen(unchecked_param_type = "object | string")] plan: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object | string")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let plan = text_of(&plan, "plan")?;
    let request = request_value(&request)?;
    let verdict = match plan {
        Text::Json(text) => momentum_plan::validate_text(&text, &request),
        Text::NotJson(e) => Verdict::not_json(&e),
    };
    verdict_to_js(&verdict)
}

/// The plan contract (validator.md §2): exactly the JSON of `get_plan_contract`, as a fresh plain
/// object on every call.
///
/// # Errors
/// None in practice (the contract is constant JSON); a failure of `JSON.parse` would be rethrown.
#[wasm_bindgen(js_name = getPlanContract, unchecked_return_type = "Contract")]
pub fn get_plan_contract() -> Result<JsValue, JsValue> {
    json_parse(CONTRACT_JSON)
}

/// The contract's compact JSON text, `serde_json::to_string(momentum_plan::contract())`, written
/// by `build.rs` at build time (the unit tests check it against the core at test time).
pub const CONTRACT_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/contract.json"));

#[cfg(feature = "boundary-probe")]
pub mod probe;

#[cfg(test)]
mod tests;
