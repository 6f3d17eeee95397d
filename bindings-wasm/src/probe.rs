//! Measurement-only exports (cargo feature `boundary-probe`, never in the shipped package): the
//! other ways across the boundary, so `npm run bench:boundary` can time them beside the chosen
//! one in the same run. See the README's "Crossing the boundary".

use momentum_plan::{Value, Verdict};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse(text)`: only ever given JSON written by the core.
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;
}

/// The verdict as a plain JS object: its compact JSON through `JSON.parse` (the way out before
/// packed verdicts, `Verdict::to_packed`).
fn verdict_to_js(verdict: &Verdict) -> Result<JsValue, JsValue> {
    json_parse(&verdict.to_json())
}

fn swb_error(e: &serde_wasm_bindgen::Error) -> JsValue {
    crate::JsTypeError::new(&e.to_string()).into()
}

/// The request text read strictly, or a `TypeError`.
fn request_value(request: &str) -> Result<Value, JsValue> {
    momentum_plan::parse_json(request).map_err(|e| crate::JsTypeError::new(&e.to_string()).into())
}

/// In: `serde-wasm-bindgen` walks the plan object into a `Value` (one boundary crossing per
/// value), then the core validates the value. Out: as `validatePlan` (JSON text + `JSON.parse`).
///
/// # Errors
/// A `TypeError` when `serde-wasm-bindgen` cannot read the plan or the request text is not JSON.
#[wasm_bindgen(js_name = probeSwbIn)]
pub fn probe_swb_in(plan: JsValue, request: &str) -> Result<JsValue, JsValue> {
    let plan: Value = serde_wasm_bindgen::from_value(plan).map_err(|e| swb_error(&e))?;
    let request = request_value(request)?;
    verdict_to_js(&momentum_plan::validate(&plan, &request))
}

/// In: plan text (e.g. from a plain `JSON.stringify` in JS) straight to the core, no checks.
/// Out: as `validatePlan`.
///
/// # Errors
/// A `TypeError` when the request text is not JSON.
#[wasm_bindgen(js_name = probeTextIn)]
pub fn probe_text_in(plan: &str, request: &str) -> Result<JsValue, JsValue> {
    let request = request_value(request)?;
    verdict_to_js(&momentum_plan::validate_text(plan, &request))
}

/// Out: the verdict of plan text serialized by `serde-wasm-bindgen` (`json_compatible`, plain
/// objects) instead of JSON text + `JSON.parse`.
///
/// # Errors
/// A `TypeError` when the request text is not JSON or serialization fails.
#[wasm_bindgen(js_name = probeSwbOut)]
pub fn probe_swb_out(plan: &str, request: &str) -> Result<JsValue, JsValue> {
    let request = request_value(request)?;
    let verdict: Verdict = momentum_plan::validate_text(plan, &request);
    verdict.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| swb_error(&e))
}

/// Out: the verdict of two texts as its JSON text through `JSON.parse` (the way out before packed
/// verdicts), to time beside `validatePlan`'s packed string.
///
/// # Errors
/// A `TypeError` when the request text is not JSON.
#[wasm_bindgen(js_name = probeJsonOut)]
pub fn probe_json_out(plan: &str, request: &str) -> Result<JsValue, JsValue> {
    let verdict =
        momentum_plan::validate_text_pair(plan, request).map_err(|e| crate::JsTypeError::new(&e.to_string()))?;
    verdict_to_js(&verdict)
}
