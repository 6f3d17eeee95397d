//! # momentum-plan-wasm
//!
//! The `momentum-plan` validator as a WebAssembly module for browsers and Node (wasm-bindgen), so
//! an app can check an AI-drafted plan on the person's device, offline, before importing it.
//!
//! The binding is thin: every rule and every message is the core's (`shared/spec/validator.md`).
//!
//! ## Crossing the boundary
//!
//! A JS value becomes JSON text in JavaScript, by the converter shared with momentum-plan-node
//! (`js/convert.js` at the repository root; the build writes its copies into `pkg/node/` and
//! `pkg/web/`, and each output's `index.js` builds it over the raw exports below). `index.js`
//! writes the two texts as UTF-8 with `TextEncoder.encodeInto`, they are copied into wasm memory
//! once each, and the core parses both into one arena ([`validate_utf8`]). The verdict goes out packed in one string
//! ([`Verdict::to_packed`], as in momentum-plan-node), which the shared converter splits into plain
//! objects with the core's key order; a repair or a schema goes out as its JSON text through
//! `JSON.parse`. The README records the measurements (`npm run bench`, `npm run bench:boundary`).
//!
//! ## Raw exports (the shared converter's native side; see the generated `.d.ts`)
//!
//! - `validateUtf8(plan, request)`: the packed verdict of two JSON texts given as UTF-8 bytes, or
//!   the request's error message (what `index.js` calls); `validateTexts(plan, request)`: the
//!   same for two strings; `checkNames()`: what a packed verdict's digits stand for;
//! - `repairUtf8`, `repairPlanFault`, `repairPlanTextFault`: the repair of two JSON texts given as
//!   UTF-8 bytes (or of a plan JSON cannot carry), or the request's error message;
//! - `schemaUtf8(request, variant)`: the plan schema of a request given as UTF-8 bytes, or an
//!   error message (kind-prefixed);
//! - `faultText`, `textFaultText`, `planFault`, `planTextFault`: the core's words for what a host
//!   value or text holds that JSON cannot (`momentum_plan::HostFault`);
//! - `floatText`, `renderPath`, `maxDepth`: the core's number form, JSONPaths and nesting limit;
//! - `getPlanContract()`: the contract;
//! - `valueSpan(text, path)`: where the value a verdict's path names is in the plan's text
//!   ([`momentum_plan::value_span`]), with offsets in UTF-16 code units for a textarea.
//!
//! The package's `index.js` (written by `scripts/build.mjs`) exports `validatePlan`,
//! `repairPlan`, `planSchema`, `getPlanContract`, `renderPath` and `valueSpan`, and wraps every call so that a trap (out of memory, or a
//! panic, which aborts) re-instantiates the module instead of leaving it unusable.

use momentum_plan::{
    Argument, Check, FaultKind, HostFault, Input, JsonError, JsonPath, Position, Repair, RepairOptions, SchemaVariant,
    Segment, SpanError, Verdict,
};
use wasm_bindgen::prelude::*;

/// The allocator: talc instead of Rust's default dlmalloc, for size (README "Size").
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The TypeScript declarations of the package's types (`Verdict`, `Issue`, `IssueCode`,
/// `CheckName`, `Contract`, `Repair`, `Fix`, `PlanSchema`, ...): `js/types.d.ts`, the one copy both
/// JS packages ship, generated from the core's registries by `momentum-plan-codegen` (whose tests
/// fail when it is stale); wasm-bindgen writes it into the `.d.ts`.
pub const TYPESCRIPT: &str = include_str!("../../js/types.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_SECTION: &str = TYPESCRIPT;

/// The TypeScript of [`value_span`]'s answer (hand-written: the shape is this binding's, not a
/// core registry's).
#[wasm_bindgen(typescript_custom_section)]
const TS_VALUE_SPAN: &str = r#"
/** A place in the plan's text: 1-based line and column (in characters, validator.md §7) and the
 * offset from the start of the text in UTF-16 code units (a JS string index, as
 * `setSelectionRange` takes it). */
export interface TextPosition {
  line: number;
  column: number;
  offset: number;
}

/** Where a value is in the plan's text: from its first character to just after its last
 * (`end` is exclusive). `missing` is true when the path leads to no value (a `required` issue's
 * member, an index past the end): then the span is that of `found`, the deepest value on the
 * path. */
export interface ValueSpan {
  start: TextPosition;
  end: TextPosition;
  missing: boolean;
  found: string;
}
"#;

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
}

/// A `TypeError` for a call the shared converter never makes (an unknown name, a bad unit).
fn invalid(message: &str) -> JsValue {
    JsTypeError::new(message).into()
}

/// The argument named `name` (`plan`, `request`).
fn argument(name: &str) -> Result<Argument, JsValue> {
    Argument::from_name(name).ok_or_else(|| invalid(&format!("unknown argument {name:?}")))
}

/// The fault `kind` (a `FaultKind` name) with `detail` at `path` in `argument`.
fn host_fault(argument: Argument, path: &str, kind: &str, detail: &str) -> Result<HostFault, JsValue> {
    let kind = FaultKind::from_name(kind).ok_or_else(|| invalid(&format!("unknown fault kind {kind:?}")))?;
    Ok(HostFault::new(argument, path, kind, detail))
}

/// A lone surrogate `unit` in JSON text after `before` (validator.md §7, D12).
fn text_error(unit: u32, before: &str) -> Result<JsonError, JsValue> {
    let unit = u16::try_from(unit).map_err(|_| invalid(&format!("{unit} is not a UTF-16 code unit")))?;
    Ok(JsonError::lone_surrogate_in_text(unit, before))
}

/// Validates plan text against request text (validator.md §5) with
/// [`momentum_plan::validate_text_pair`]: both parsed once into one arena.
///
/// - `plan`, `request`: JSON text without lone surrogates (the converter checks them; the
///   crossing would write U+FFFD for one).
///
/// Returns the verdict packed in one string ([`Verdict::to_packed`], which the shared converter
/// splits into the plain objects of `{valid, errors, warnings, checks}`), or `!` and the message
/// (`request is not JSON: …`, [`Argument::not_json`]) when the request text is not JSON, which the
/// converter throws as a `SyntaxError`.
#[wasm_bindgen(js_name = validateTexts)]
#[must_use]
pub fn validate_texts(plan: &str, request: &str) -> String {
    packed_or_message(momentum_plan::validate_text_pair(plan, request))
}

/// A verdict packed ([`Verdict::to_packed`]), or `!` and the request's message
/// ([`Argument::not_json`]) when the request is not JSON.
fn packed_or_message(verdict: Result<Verdict, JsonError>) -> String {
    match verdict {
        Ok(verdict) => verdict.to_packed(),
        Err(e) => format!("!{}", Argument::Request.not_json(&e)),
    }
}

/// [`validate_texts`] for the two texts as UTF-8 bytes, which JavaScript writes with
/// `TextEncoder.encodeInto` (native code) and wasm-bindgen copies in with one `set`: the way
/// `index.js` calls the core, because wasm-bindgen's string crossing writes an ASCII text one
/// `charCodeAt` at a time in JavaScript, which costs about as much as `JSON.parse` of the text
/// (README "Crossing the boundary").
///
/// - `plan`, `request`: the UTF-8 of JSON text (validator.md §7): what `encodeInto` writes
///   (always valid UTF-8), or the bytes the caller passed (a `Uint8Array`, a Node `Buffer`, an
///   `ArrayBuffer` or a byte view, read as Python's `bytes` are); bytes that are not UTF-8 give the
///   plan a `json` verdict, the request the error below.
///
/// Returns what [`validate_texts`] returns for the same texts, byte for byte
/// ([`momentum_plan::validate_input`] with [`Input::Bytes`]).
#[wasm_bindgen(js_name = validateUtf8)]
#[must_use]
pub fn validate_utf8(plan: &[u8], request: &[u8]) -> String {
    packed_or_message(momentum_plan::validate_input(Input::Bytes(plan), Input::Bytes(request)))
}

/// The name of every check, in the order they run ([`Check::ALL`]): what the digits of a packed
/// verdict ([`Verdict::to_packed`]) stand for.
#[wasm_bindgen(js_name = checkNames)]
#[must_use]
pub fn check_names() -> Vec<String> {
    Check::ALL.iter().map(|c| c.as_str().to_owned()).collect()
}

/// The repair as a plain JS object: [`Repair::to_json`] through `JSON.parse`.
fn repair_to_js(repair: &Repair) -> Result<JsValue, JsValue> {
    json_parse(&repair.to_json())
}

/// A repair, or the request's message (`request is not JSON: …`) as a JS string.
fn repair_or_message(repair: Result<Repair, JsonError>) -> Result<JsValue, JsValue> {
    match repair {
        Ok(r) => repair_to_js(&r),
        Err(e) => Ok(JsValue::from_str(&Argument::Request.not_json(&e))),
    }
}

/// Repairs plan text against request text (validator.md §9, [`momentum_plan::repair`]): the
/// safe fixes, and the unsafe ones too when `unsafe_fixes`, applied to a fixed point. The texts
/// come as UTF-8 bytes, written by `index.js` with `TextEncoder.encodeInto` as for
/// [`validate_utf8`] (wasm-bindgen's `&str` crossing writes a text one `charCodeAt` at a time).
///
/// - `plan`, `request`: the UTF-8 of JSON text (validator.md §7);
/// - `unsafe_fixes`: [`RepairOptions::unsafe_fixes`].
///
/// Returns the repair (a plain object equal to [`Repair::to_json`]), or a string, the message
/// (`request is not JSON: …`) when the request text is not JSON (or not UTF-8).
///
/// # Errors
/// None in practice; a failure of `JSON.parse` would be rethrown.
#[wasm_bindgen(js_name = repairUtf8, unchecked_return_type = "Repair | string")]
pub fn repair_utf8(plan: &[u8], request: &[u8], unsafe_fixes: bool) -> Result<JsValue, JsValue> {
    let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
    repair_or_message(momentum_plan::repair(Input::Bytes(plan), Input::Bytes(request), &options))
}

/// The repair of a plan value holding a json-kind fault (as [`plan_fault`]): `plan` `""`, the
/// `json` verdict, nothing applied; or the request's message as [`repair_utf8`]. `request`: the
/// UTF-8 of its JSON text, as for [`repair_utf8`].
///
/// # Errors
/// A `TypeError` for an unknown kind or one that is an exception, not a verdict.
#[wasm_bindgen(js_name = repairPlanFault, unchecked_return_type = "Repair | string")]
pub fn repair_plan_fault(
    request: &[u8],
    unsafe_fixes: bool,
    path: &str,
    kind: &str,
    detail: &str,
) -> Result<JsValue, JsValue> {
    let fault = host_fault(Argument::Plan, path, kind, detail)?;
    let error = fault.json_error().ok_or_else(|| invalid(&format!("a {kind} fault is not a verdict")))?;
    let _ = unsafe_fixes; // no fix applies to a plan that is not JSON
    repair_or_message(Repair::not_json(String::new(), &error, Input::Bytes(request)))
}

/// The repair of plan text holding a lone surrogate (the code unit `unit`, right after `before`;
/// `plan` is the text with U+FFFD for each lone surrogate): the `json` verdict, nothing applied;
/// or the request's message as [`repair_utf8`]. `request`: as for [`repair_plan_fault`].
///
/// # Errors
/// A `TypeError` for a `unit` beyond 0xFFFF.
#[wasm_bindgen(js_name = repairPlanTextFault, unchecked_return_type = "Repair | string")]
pub fn repair_plan_text_fault(
    request: &[u8],
    unsafe_fixes: bool,
    plan: &str,
    unit: u32,
    before: &str,
) -> Result<JsValue, JsValue> {
    let error = text_error(unit, before)?;
    let _ = unsafe_fixes; // no fix applies to a plan that is not JSON
    repair_or_message(Repair::not_json(plan.to_owned(), &error, Input::Bytes(request)))
}

/// The JSON Schema (2020-12) of the plan that answers the request `request`, the UTF-8 of its
/// JSON text (written by `index.js` with `encodeInto`, as for [`validate_utf8`];
/// [`momentum_plan::plan_schema`], validator.md §9), variant `validation` or `strict`.
///
/// Returns the schema (a plain object), or a string: `!` + the request's message when the request
/// text is not JSON (or not UTF-8), `?` + the core's message for an unknown variant, `#` + the
/// core's message for a request at fault (the converter throws a `SyntaxError`, a `RangeError`,
/// an `Error`).
///
/// # Errors
/// None in practice; a failure of `JSON.parse` would be rethrown.
#[wasm_bindgen(js_name = schemaUtf8, unchecked_return_type = "PlanSchema | string")]
pub fn schema_utf8(request: &[u8], variant: &str) -> Result<JsValue, JsValue> {
    let request = match momentum_plan::parse_json_bytes(request) {
        Ok(r) => r,
        Err(e) => return Ok(JsValue::from_str(&format!("!{}", Argument::Request.not_json(&e)))),
    };
    let variant = match SchemaVariant::from_name(variant) {
        Ok(v) => v,
        Err(e) => return Ok(JsValue::from_str(&format!("?{e}"))),
    };
    match momentum_plan::plan_schema(&request, variant) {
        Ok(schema) => json_parse(&schema.to_string()),
        Err(e) => Ok(JsValue::from_str(&format!("#{e}"))),
    }
}

/// The message of a fault the converter found in a host value (`HostFault`'s `Display`,
/// validator.md §7, D12), which it throws as a `TypeError`: `argument` is `plan` or `request`,
/// `path` a rendered JSONPath, `kind` a `FaultKind` name, `detail` the kind's detail.
///
/// # Errors
/// A `TypeError` for an unknown argument or kind.
#[wasm_bindgen(js_name = faultText)]
pub fn fault_text(argument: &str, path: &str, kind: &str, detail: &str) -> Result<String, JsValue> {
    Ok(host_fault(self::argument(argument)?, path, kind, detail)?.to_string())
}

/// The message for JSON text holding a lone surrogate (the code unit `unit`, right after the text
/// `before`): [`Argument::not_json`] of [`JsonError::lone_surrogate_in_text`], whose line and
/// column the core counts. The converter throws it as a `SyntaxError`.
///
/// # Errors
/// A `TypeError` for an unknown argument or a `unit` beyond 0xFFFF.
#[wasm_bindgen(js_name = textFaultText)]
pub fn text_fault_text(argument: &str, unit: u32, before: &str) -> Result<String, JsValue> {
    Ok(self::argument(argument)?.not_json(&text_error(unit, before)?))
}

/// The core's `json` verdict for a plan value holding a fault JSON text could hold too (`tooDeep`,
/// `loneSurrogate`, `loneSurrogateInName`: [`HostFault::json_error`], validator.md D12), packed as
/// [`validate_texts`] packs verdicts.
///
/// # Errors
/// A `TypeError` for an unknown kind or one that is an exception, not a verdict.
#[wasm_bindgen(js_name = planFault)]
pub fn plan_fault(path: &str, kind: &str, detail: &str) -> Result<String, JsValue> {
    let fault = host_fault(Argument::Plan, path, kind, detail)?;
    let error = fault.json_error().ok_or_else(|| invalid(&format!("a {kind} fault is not a verdict")))?;
    Ok(Verdict::not_json(&error).to_packed())
}

/// The core's `json` verdict for plan text holding a lone surrogate (the code unit `unit`, right
/// after `before`), packed as [`validate_texts`] packs verdicts.
///
/// # Errors
/// A `TypeError` for a `unit` beyond 0xFFFF.
#[wasm_bindgen(js_name = planTextFault)]
pub fn plan_text_fault(unit: u32, before: &str) -> Result<String, JsValue> {
    Ok(Verdict::not_json(&text_error(unit, before)?).to_packed())
}

/// [`momentum_plan::float_text`]: the JSON text of a finite number the core reads as a
/// non-integer (validator.md §7), for the numbers JavaScript does not write in the core's form.
///
/// # Errors
/// A `TypeError` for NaN or ±Infinity (the converter never passes them).
#[wasm_bindgen(js_name = floatText)]
pub fn float_text(value: f64) -> Result<String, JsValue> {
    momentum_plan::float_text(value).ok_or_else(|| invalid(&format!("{value} has no JSON form")))
}

/// A JSONPath rendered by the core's rules (validator.md §4, D7): strings are member names,
/// numbers are array indices (`["routine", "blocks", 0]` → `$.routine.blocks[0]`).
///
/// # Errors
/// A `TypeError` for a segment that is neither a string nor a non-negative integer.
#[wasm_bindgen(js_name = renderPath)]
// wasm-bindgen hands a JS array over as an owned `Vec` (the JS API is fixed); `i as usize` is
// of a whole number in 0..=u32::MAX (the guard), so it neither truncates nor loses a sign.
#[allow(clippy::needless_pass_by_value, clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn render_path(
    #[wasm_bindgen(unchecked_param_type = "ReadonlyArray<string | number>")] segments: Vec<JsValue>,
) -> Result<String, JsValue> {
    let mut names = Vec::with_capacity(segments.len());
    for s in &segments {
        names.push(match (s.as_string(), s.as_f64()) {
            (Some(name), _) => Ok(name),
            (None, Some(i)) if i >= 0.0 && i.fract() == 0.0 && i <= f64::from(u32::MAX) => Err(i as usize),
            _ => return Err(invalid("a path segment is a string or a non-negative integer")),
        });
    }
    Ok(JsonPath::from_segments(names.iter().map(|s| match s {
        Ok(name) => Segment::Key(name),
        Err(i) => Segment::Index(*i),
    }))
    .into_string())
}

/// `momentum_plan::MAX_DEPTH`: the deepest nesting a plan may have (validator.md §7).
#[wasm_bindgen(js_name = maxDepth)]
#[must_use]
pub fn max_depth() -> u32 {
    u32::try_from(momentum_plan::MAX_DEPTH).unwrap_or(u32::MAX)
}

/// A position as JSON: line and column as the core counts them, and the offset in UTF-16 code
/// units (the byte offset's prefix of `text` re-counted: the index a JS string uses).
fn position_json(text: &str, p: Position) -> String {
    let offset: usize = text[..p.byte].chars().map(char::len_utf16).sum();
    format!(r#"{{"line":{},"column":{},"offset":{offset}}}"#, p.line, p.column)
}

/// Where the value that `path` names is in the JSON `text` ([`momentum_plan::value_span`],
/// validator.md §4 paths, §7 line and column): what the import page selects in its plan editor
/// when an issue is clicked.
///
/// - `text`: the plan's JSON text (a JS string; its offsets are UTF-16 code units);
/// - `path`: a JSONPath as a verdict renders it (`$.routine.blocks[2].start`).
///
/// Returns `{start, end, missing, found}` (`ValueSpan`): `start` and `end` (exclusive) each
/// `{line, column, offset}`, `offset` in UTF-16 code units; `missing` false and `found` the path
/// itself when the value exists, else `missing` true and `found` the deepest value on the path
/// (its span given instead, [`SpanError::Missing`]). `null` when the text is not JSON (no value
/// has a place; the verdict's `json` issue says where the text goes wrong).
///
/// # Errors
/// A `TypeError` with the core's message for a path that is not a JSONPath ([`SpanError::Path`]).
#[wasm_bindgen(js_name = valueSpan, unchecked_return_type = "ValueSpan | null")]
pub fn value_span(text: &str, path: &str) -> Result<JsValue, JsValue> {
    let (span, found) = match momentum_plan::value_span(text, path) {
        Ok(span) => (span, None),
        Err(SpanError::Missing { found, span }) => (span, Some(found)),
        Err(SpanError::NotJson(_)) => return Ok(JsValue::NULL),
        Err(e) => return Err(invalid(&e.to_string())),
    };
    let found_json = serde_json::to_string(found.as_deref().unwrap_or(path)).map_err(|e| invalid(&e.to_string()))?;
    json_parse(&format!(
        r#"{{"start":{},"end":{},"missing":{},"found":{found_json}}}"#,
        position_json(text, span.start),
        position_json(text, span.end),
        found.is_some(),
    ))
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
