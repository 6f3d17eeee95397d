//! # momentum-plan-js
//!
//! The native side of momentum-plan's two JavaScript packages, written once: `bindings-node`
//! (napi-rs) and `bindings-wasm` (wasm-bindgen) each export these functions under the same JS
//! names through one-line shims, and the shared converter (`js/convert.js`, `makeConverter(native)`)
//! takes either module as it is. Every rule and message is the core's (`momentum_plan`,
//! validator.md); this crate only picks the core call and encodes its answer.
//!
//! | JS name | function | answer |
//! |---|---|---|
//! | `validate(plan, request)` | [`validate`] | [`Answer::Packed`] verdict, or [`Answer::RequestNotJson`] |
//! | `repair(plan, request, unsafe)` | [`repair`] | [`Answer::Json`] repair, or [`Answer::RequestNotJson`] |
//! | `repairPlanFault(request, unsafe, path, kind, detail)` | [`repair_plan_fault`] | as `repair` |
//! | `repairPlanTextFault(request, unsafe, plan, unit, before)` | [`repair_plan_text_fault`] | as `repair` |
//! | `schema(request, variant)` | [`schema`] | [`Answer::Json`] schema, or one of the three errors |
//! | `planFault(path, kind, detail)` | [`plan_fault`] | [`Answer::Packed`] `json` verdict |
//! | `planTextFault(unit, before)` | [`plan_text_fault`] | [`Answer::Packed`] `json` verdict |
//! | `faultText(argument, path, kind, detail)` | [`fault_text`] | the `HostFault` message |
//! | `textFaultText(argument, unit, before)` | [`text_fault_text`] | the lone-surrogate message |
//! | `floatText(x)` | [`float_text`] | `momentum_plan::float_text` |
//! | `renderPath(segments)` | [`render_path`] | a JSONPath (validator.md §4, D7) |
//! | `maxDepth()`, `checkNames()`, `issueCodes()`, `warningCodes()` | [`max_depth`], [`check_names`], [`issue_codes`], [`warning_codes`] | the core's registries |
//! | `planContract()` | [`CONTRACT_JSON`] | the contract's compact JSON (validator.md §2) |
//! | `valueSpan(text, path)` (wasm only) | [`value_span`] | the span's JSON, or none |
//! | `new PlanStream(request)` | [`Stream::new`] | a stream; `requestError()` is `""` or [`Answer::RequestNotJson`] |
//! | `stream.push(chunk)`, `stream.finish()` | [`Stream::push`], [`Stream::finish`] | [`Answer::Packed`] issues (`""` for none) or verdict, or [`Answer::StreamSpent`] |
//! | `stream.repeatedName`, `stream.length` | [`Stream::repeated_name`], [`Stream::len`] | a boolean, a count of bytes |
//! | `planToIcalendar(plan, request, dtstamp)` (feature `calendar`) | `calendar::plan_to_icalendar` | JSON: the export, an invalid plan's verdict, or `{"error"}` |
//! | `commitmentsFromIcalendar(ics, startDate, timezone)` (feature `calendar`) | `calendar::commitments_from_icalendar` | JSON: the commitments, or `{"error"}` |
//!
//! A text (`plan`, `request`) is a JS string or the UTF-8 bytes of one ([`Text`]). A call the
//! converter never makes (an unknown argument or fault kind, a code unit beyond 0xFFFF, a number
//! without a JSON form) is a [`Misuse`], which each shim throws as its host's error.

use momentum_plan::{
    Argument, Check, FaultKind, HostFault, Input, IssueCode, JsonError, JsonPath, Position, Repair, RepairOptions,
    SchemaVariant, Segment, SpanError, Verdict,
};

/// What a text-taking function answers, as one JS string ([`Answer::encode`]). The converter's
/// `decodeAnswer` (`js/convert.js`) reads the first character: `!`, `?`, `#` and `~` are the
/// errors, anything else the value (a packed verdict starts with `0`, `1`
/// or `{`; JSON text with `{`; a stream's packed issues are `""` when there are none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A verdict packed by [`Verdict::to_packed`], which the converter's `unpackVerdict` splits.
    Packed(String),
    /// JSON text written by the core (a [`Repair::to_json`], a plan schema), for `JSON.parse`.
    Json(String),
    /// `!`: the request text is not JSON, or not UTF-8 ([`Argument::not_json`]): a `SyntaxError`.
    RequestNotJson(String),
    /// `?`: a schema variant the core does not know ([`SchemaVariant::from_name`]): a `RangeError`.
    UnknownVariant(String),
    /// `#`: a request no plan can satisfy ([`momentum_plan::plan_schema`]'s error): an `Error`.
    RequestAtFault(String),
    /// `~`: a [`Stream`] used after its `finish` ([`momentum_plan::PlanStream::FINISHED`]): an
    /// `Error`.
    StreamSpent(String),
}

impl Answer {
    /// The one JS string of this answer: the value as it is, or the error's marker and message.
    pub fn encode(self) -> String {
        match self {
            Answer::Packed(text) | Answer::Json(text) => text,
            Answer::RequestNotJson(m) => format!("!{m}"),
            Answer::UnknownVariant(m) => format!("?{m}"),
            Answer::RequestAtFault(m) => format!("#{m}"),
            Answer::StreamSpent(m) => format!("~{m}"),
        }
    }

    /// The request's JSON error as [`Answer::RequestNotJson`].
    fn request_not_json(e: &JsonError) -> Self {
        Answer::RequestNotJson(Argument::Request.not_json(e))
    }
}

/// A call the shared converter never makes (the message says what was wrong); each shim throws it
/// as its host's error (napi `InvalidArg`, a wasm `TypeError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misuse(pub String);

/// A plan or request as the converter hands it over (validator.md §3, §7): JSON text from a JS
/// string, or the UTF-8 bytes of JSON text (bytes that are not UTF-8 are the plan's `json`
/// verdict, the request's [`Answer::RequestNotJson`], as for Python `bytes`).
#[derive(Debug, Clone, Copy)]
pub enum Text<'a> {
    /// JSON text.
    Str(&'a str),
    /// The UTF-8 of JSON text.
    Bytes(&'a [u8]),
}

impl Text<'_> {
    /// The core's input: [`Input::Text`] or [`Input::Bytes`].
    pub fn input(&self) -> Input<'_> {
        match *self {
            Text::Str(s) => Input::Text(s),
            Text::Bytes(b) => Input::Bytes(b),
        }
    }
}

/// The argument named `name` (`plan`, `request`).
fn argument(name: &str) -> Result<Argument, Misuse> {
    Argument::from_name(name).ok_or_else(|| Misuse(format!("unknown argument \"{name}\"")))
}

/// The fault `kind` (a `FaultKind` name) with `detail` at `path` in `argument`.
fn host_fault(argument: Argument, path: &str, kind: &str, detail: &str) -> Result<HostFault, Misuse> {
    let kind = FaultKind::from_name(kind).ok_or_else(|| Misuse(format!("unknown fault kind \"{kind}\"")))?;
    Ok(HostFault::new(argument, path, kind, detail))
}

/// The `JsonError` of a plan value holding a json-kind fault (`HostFault::json_error`, D12).
fn plan_json_error(path: &str, kind: &str, detail: &str) -> Result<JsonError, Misuse> {
    host_fault(Argument::Plan, path, kind, detail)?
        .json_error()
        .ok_or_else(|| Misuse(format!("a {kind} fault is not a verdict")))
}

/// A lone surrogate `unit` in JSON text after `before` (validator.md §7, D12).
fn text_error(unit: u32, before: &str) -> Result<JsonError, Misuse> {
    let unit = u16::try_from(unit).map_err(|_| Misuse(format!("{unit} is not a UTF-16 code unit")))?;
    Ok(JsonError::lone_surrogate_in_text(unit, before))
}

/// Validates plan text against request text (validator.md §5, `momentum_plan::validate_input`):
/// the plan is validated as text (its size is its UTF-8 length, D3), the request read strictly
/// and may be any JSON value (a non-object is `requestInvalid`, D1).
pub fn validate(plan: Text<'_>, request: Text<'_>) -> Answer {
    match momentum_plan::validate_input(plan.input(), request.input()) {
        Ok(v) => Answer::Packed(v.to_packed()),
        Err(e) => Answer::request_not_json(&e),
    }
}

/// A repair as its JSON, or the request's error.
fn repaired(repair: Result<Repair, JsonError>) -> Answer {
    match repair {
        Ok(r) => Answer::Json(r.to_json()),
        Err(e) => Answer::request_not_json(&e),
    }
}

/// Repairs plan text against request text (validator.md §9, `momentum_plan::repair`): the safe
/// fixes, and the unsafe ones too when `unsafe_fixes`, applied to a fixed point.
pub fn repair(plan: Text<'_>, request: Text<'_>, unsafe_fixes: bool) -> Answer {
    let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
    repaired(momentum_plan::repair(plan.input(), request.input(), &options))
}

/// The repair of a plan value holding a json-kind fault (as [`plan_fault`]): `plan` `""`, the
/// `json` verdict, nothing applied (`unsafe_fixes` changes nothing: no fix applies to a plan that
/// is not JSON); or the request's error as [`repair`].
///
/// # Errors
/// A [`Misuse`] for an unknown kind or one that is an exception, not a verdict.
pub fn repair_plan_fault(
    request: Text<'_>,
    unsafe_fixes: bool,
    path: &str,
    kind: &str,
    detail: &str,
) -> Result<Answer, Misuse> {
    let _ = unsafe_fixes;
    let error = plan_json_error(path, kind, detail)?;
    Ok(repaired(Repair::not_json(String::new(), &error, request.input())))
}

/// The repair of plan text holding a lone surrogate (the code unit `unit`, right after `before`;
/// `plan` is the text with U+FFFD for each): the `json` verdict, nothing applied; or the request's
/// error as [`repair`].
///
/// # Errors
/// A [`Misuse`] for a `unit` beyond 0xFFFF.
pub fn repair_plan_text_fault(
    request: Text<'_>,
    unsafe_fixes: bool,
    plan: &str,
    unit: u32,
    before: &str,
) -> Result<Answer, Misuse> {
    let _ = unsafe_fixes;
    let error = text_error(unit, before)?;
    Ok(repaired(Repair::not_json(plan.to_owned(), &error, request.input())))
}

/// The JSON Schema (2020-12) of the plan that answers `request` (`momentum_plan::plan_schema`,
/// validator.md §9), variant `validation` or `strict`: [`Answer::Json`], or
/// [`Answer::RequestNotJson`], [`Answer::UnknownVariant`], [`Answer::RequestAtFault`].
pub fn schema(request: Text<'_>, variant: &str) -> Answer {
    let parsed = match request {
        Text::Str(t) => momentum_plan::parse_json(t),
        Text::Bytes(b) => momentum_plan::parse_json_bytes(b),
    };
    let request = match parsed {
        Ok(r) => r,
        Err(e) => return Answer::request_not_json(&e),
    };
    let variant = match SchemaVariant::from_name(variant) {
        Ok(v) => v,
        Err(e) => return Answer::UnknownVariant(e.to_string()),
    };
    match momentum_plan::plan_schema(&request, variant) {
        Ok(schema) => Answer::Json(schema.to_string()),
        Err(e) => Answer::RequestAtFault(e.to_string()),
    }
}

/// The `json` verdict of a plan value holding a fault JSON text could hold too (`tooDeep`,
/// `loneSurrogate`, `loneSurrogateInName`: `HostFault::json_error`, validator.md D12), packed.
///
/// # Errors
/// A [`Misuse`] for an unknown kind or one that is an exception, not a verdict.
pub fn plan_fault(path: &str, kind: &str, detail: &str) -> Result<Answer, Misuse> {
    Ok(Answer::Packed(Verdict::not_json(&plan_json_error(path, kind, detail)?).to_packed()))
}

/// The `json` verdict of plan text holding a lone surrogate (the code unit `unit`, right after
/// `before`), packed.
///
/// # Errors
/// A [`Misuse`] for a `unit` beyond 0xFFFF.
pub fn plan_text_fault(unit: u32, before: &str) -> Result<Answer, Misuse> {
    Ok(Answer::Packed(Verdict::not_json(&text_error(unit, before)?).to_packed()))
}

/// The message of a fault the converter found in a host value (`HostFault`'s `Display`,
/// validator.md §7, D12), which it throws as a `TypeError`: `argument` is `plan` or `request`,
/// `path` a rendered JSONPath, `kind` a `FaultKind` name, `detail` the kind's detail.
///
/// # Errors
/// A [`Misuse`] for an unknown argument or kind.
pub fn fault_text(argument: &str, path: &str, kind: &str, detail: &str) -> Result<String, Misuse> {
    Ok(host_fault(self::argument(argument)?, path, kind, detail)?.to_string())
}

/// The message for JSON text holding a lone surrogate (the code unit `unit`, right after `before`):
/// `Argument::not_json` of `JsonError::lone_surrogate_in_text`, line and column counted by the
/// core. The converter throws it as a `SyntaxError`.
///
/// # Errors
/// A [`Misuse`] for an unknown argument or a `unit` beyond 0xFFFF.
pub fn text_fault_text(argument: &str, unit: u32, before: &str) -> Result<String, Misuse> {
    Ok(self::argument(argument)?.not_json(&text_error(unit, before)?))
}

/// `momentum_plan::float_text`: the JSON text of a finite number the core reads as a non-integer
/// (validator.md §7), for the numbers JavaScript does not write in the core's form.
///
/// # Errors
/// A [`Misuse`] for NaN or ±Infinity (the converter never passes them). The message names the
/// value by the core's words (`HostFault::not_finite`), not by `f64`'s `Display`, whose float
/// formatting would cost the validator's wasm module 17 KB (issue 32).
pub fn float_text(value: f64) -> Result<String, Misuse> {
    momentum_plan::float_text(value).ok_or_else(|| {
        let name = HostFault::not_finite(Argument::Plan, "", value).detail;
        Misuse(format!("{name} has no JSON form"))
    })
}

/// A JSONPath rendered by the core's rules (validator.md §4, D7) from member names and indices.
pub fn render_path<'a>(segments: impl IntoIterator<Item = Segment<'a>>) -> String {
    JsonPath::from_segments(segments).into_string()
}

/// `momentum_plan::MAX_DEPTH`: the deepest nesting a plan may have (validator.md §7).
pub fn max_depth() -> u32 {
    u32::try_from(momentum_plan::MAX_DEPTH).unwrap_or(u32::MAX)
}

/// The name of every check, in the order they run (`Check::ALL`): what the digits of a packed
/// verdict stand for.
pub fn check_names() -> Vec<&'static str> {
    Check::ALL.iter().map(|c| c.as_str()).collect()
}

/// Every issue code string, in registry order (`IssueCode::ALL`).
pub fn issue_codes() -> Vec<&'static str> {
    IssueCode::ALL.iter().map(|c| c.as_str()).collect()
}

/// The codes of the issues that are warnings (`IssueCode::is_warning`: `overnight`, `notSaved`),
/// in registry order: how a host that has an issue without its verdict (a stream's settled
/// issues, validator.md §10) tells a warning from an error.
pub fn warning_codes() -> Vec<&'static str> {
    IssueCode::ALL.iter().filter(|c| c.is_warning()).map(|c| c.as_str()).collect()
}

/// The plan contract's compact JSON (validator.md §2), `serde_json::to_string(momentum_plan::contract())`
/// written by `build.rs` at build time (so the wasm module ships the text, not the serializer).
pub const CONTRACT_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/contract.json"));

/// A position as JSON: line and column as the core counts them, and the offset in UTF-16 code
/// units (the byte offset's prefix of `text` re-counted: the index a JS string uses).
fn position_json(text: &str, p: Position) -> String {
    let offset: usize = text[..p.byte].chars().map(char::len_utf16).sum();
    format!(r#"{{"line":{},"column":{},"offset":{offset}}}"#, p.line, p.column)
}

/// Where the value that `path` (a verdict's JSONPath) names is in the JSON `text`
/// (`momentum_plan::value_span`, validator.md §4, §7), as the JSON of a `ValueSpan`:
/// `{start, end, missing, found}`, each end `{line, column, offset}` with `offset` in UTF-16 code
/// units; `missing` true and `found` the deepest value on the path when the path leads to no value.
/// `None` when the text is not JSON.
///
/// # Errors
/// A [`Misuse`] with the core's message for a path that is not a JSONPath.
pub fn value_span(text: &str, path: &str) -> Result<Option<String>, Misuse> {
    let (span, found) = match momentum_plan::value_span(text, path) {
        Ok(span) => (span, None),
        Err(SpanError::Missing { found, span }) => (span, Some(found)),
        Err(SpanError::NotJson(_)) => return Ok(None),
        Err(e) => return Err(Misuse(e.to_string())),
    };
    let found_json = momentum_plan::json_string(found.as_deref().unwrap_or(path));
    Ok(Some(format!(
        r#"{{"start":{},"end":{},"missing":{},"found":{found_json}}}"#,
        position_json(text, span.start),
        position_json(text, span.end),
        found.is_some(),
    )))
}

mod stream;
pub use stream::Stream;

#[cfg(feature = "calendar")]
pub mod calendar;

#[cfg(test)]
mod tests;
