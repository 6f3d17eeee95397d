//! # momentum-plan-node
//!
//! The native half of the Node.js binding of the `momentum-plan` validator (napi-rs v3). It only
//! converts and calls the core crate; every rule lives in `momentum_plan` (validator.md).
//!
//! The public JavaScript API (`validatePlan`, `getPlanContract`, in `index.js` beside this crate)
//! is the shared converter (`js/convert.js` at the repository root, copied here as `convert.js`
//! at build time) over these exports:
//!
//! | export | what |
//! |---|---|
//! | `validatePacked(plan, request)` | plan TEXT + request TEXT (each a string, or a `Uint8Array` of UTF-8) -> the verdict packed by `Verdict::to_packed` (the hot path), or `!` + the message when the request is not JSON |
//! | `repairJson(plan, request, unsafe)` | plan TEXT + request TEXT (as `validatePacked`) -> `Repair::to_json` (validator.md §9), or `!` + the message when the request is not JSON |
//! | `repairPlanFaultJson(request, unsafe, path, kind, detail)` | the repair of a plan value holding a json-kind fault: nothing applied, `plan` `""`, the `json` verdict |
//! | `repairPlanTextFaultJson(request, unsafe, plan, unit, before)` | the repair of plan text holding a lone surrogate (`plan`: the text with U+FFFD for each) |
//! | `planSchemaJson(request, variant)` | the plan schema's JSON, or `!`/`?`/`#` + the message: request not JSON, unknown variant, request at fault |
//! | `applicabilities()`, `stopReasons()`, `schemaVariants()` | the names of `Applicability`, `Stop`, `SchemaVariant` (for `index.d.ts`) |
//! | `faultText(argument, path, kind, detail)` | the core's `HostFault` message (validator.md §7, D12) for an error the shared converter throws |
//! | `textFaultText(argument, unit, before)` | `Argument::not_json` of a lone surrogate in JSON text (line and column counted by the core) |
//! | `planFaultPacked(path, kind, detail)` | the packed `json` verdict of a plan whose value holds a json-kind fault (`HostFault::json_error`) |
//! | `planTextFaultPacked(unit, before)` | the packed `json` verdict of plan text holding a lone surrogate |
//! | `floatText(x)` | `momentum_plan::float_text`: the §7 form of a number JavaScript does not write as the core does |
//! | `planContractJson()` | the contract as compact JSON text (validator.md §2) |
//! | `issueCodes()` | every issue code string, in registry order (`IssueCode::ALL`) |
//! | `checkNames()` | every check name, in order (`Check::ALL`) |
//! | `renderPath(segments)` | a JSONPath rendered by the core's rules (validator.md §4, D7) |
//! | `maxDepth()` | `momentum_plan::MAX_DEPTH` (512) |
//!
//! With the cargo feature `test-exports` (never in the shipped addon; `test.sh` builds it
//! separately into `test/addon/`), also:
//!
//! | export | what |
//! |---|---|
//! | `validateText(plan, request)` | plan TEXT + request TEXT -> verdict JSON text (`Verdict::to_json`), to compare with the packed way |
//! | `benchCore(plan, request, n)` | runs `validate_text_pair` `n` times; ns per run timed inside Rust (the floor row of `npm run bench`) |
//! | `panicForTest()` | panics, to prove a Rust panic becomes a JS `Error` (never an abort) |
//!
//! Verdicts cross as one packed string that the wrapper splits into the plain objects of the
//! core's verdict (`Verdict::to_packed`): measured about half the cost of `JSON.parse` of the verdict
//! JSON and a third of building the objects through N-API (README, "Conversion"). The tests hold
//! the result equal, byte for byte once stringified, to the core's own `Verdict::to_json()`.
//!
//! Every export is `catch_unwind`: a panic in Rust surfaces as a thrown JS `Error`, never as an
//! aborted Node process.

mod text;

use momentum_plan::{
    Applicability, Argument, Check, FaultKind, HostFault, IssueCode, JsonError, JsonPath, Repair, RepairOptions,
    SchemaVariant, Segment, Stop, Verdict,
};

/// The addon's allocator: mimalloc makes the core's allocations ~10–25 % faster than glibc malloc
/// in Node (README, "Speed"); `momentum_plan_alloc` calls it without the aligned API where its
/// size classes give the alignment.
#[global_allocator]
static GLOBAL: momentum_plan_alloc::MiMalloc = momentum_plan_alloc::MiMalloc;
use napi::bindgen_prelude::{Either, Unknown};
use napi::{Error, Result, Status};
use napi_derive::napi;

/// An `InvalidArg` error: the converter passed something it never passes.
fn invalid(what: String) -> Error {
    Error::new(Status::InvalidArg, what)
}

/// The argument named `name` (`plan`, `request`).
fn argument(name: &str) -> Result<Argument> {
    Argument::from_name(name).ok_or_else(|| invalid(format!("unknown argument {name:?}")))
}

/// The fault `kind` (a `FaultKind` name) with `detail` at `path` in `argument`.
fn host_fault(argument: Argument, path: String, kind: &str, detail: String) -> Result<HostFault> {
    let kind = FaultKind::from_name(kind).ok_or_else(|| invalid(format!("unknown fault kind {kind:?}")))?;
    Ok(HostFault::new(argument, path, kind, detail))
}

/// A lone surrogate `unit` in JSON text after `before` (validator.md §7, D12).
fn text_error(unit: u32, before: &str) -> Result<JsonError> {
    let unit = u16::try_from(unit).map_err(|_| invalid(format!("{unit} is not a UTF-16 code unit")))?;
    Ok(JsonError::lone_surrogate_in_text(unit, before))
}

/// Validates plan text against request text (validator.md §5): the plan is validated as text
/// (its size is its UTF-8 length, D3); the request is read with the core's strict reader and may
/// be any JSON value (a non-object request is `requestInvalid`, D1). A string is read with one
/// N-API copy (`text::read_string`), a `Uint8Array` borrowed (`text::read_text`).
///
/// Input: `plan`, `request`: JS strings of JSON text without lone surrogates (the converter
/// checks; N-API would write U+FFFD for one), or `Uint8Array`s of its UTF-8 (bytes that are not
/// UTF-8 give the plan the `json` verdict, the request the message below). Output: the verdict packed for the converter's `unpackVerdict` (`Verdict::to_packed`),
/// or `!` followed by `Argument::not_json`'s message (`request is not JSON: …`) when the request
/// text is not JSON: the converter throws that as a `SyntaxError` (no exception crosses N-API on
/// the way).
///
/// # Errors
/// `StringExpected` when an argument is neither a string nor a `Uint8Array`.
#[napi(catch_unwind)]
pub fn validate_packed(plan: Unknown<'_>, request: Unknown<'_>) -> Result<String> {
    let plan = text::read_text(&plan, "plan")?;
    let request = text::read_text(&request, "request")?;
    Ok(match momentum_plan::validate_input(plan.input(), request.input()) {
        Ok(v) => v.to_packed(),
        Err(e) => format!("!{}", Argument::Request.not_json(&e)),
    })
}

/// A repair as its JSON text, or `!` + the request's message (`request is not JSON: …`).
fn repair_or_message(repair: std::result::Result<Repair, JsonError>) -> String {
    match repair {
        Ok(r) => r.to_json(),
        Err(e) => format!("!{}", Argument::Request.not_json(&e)),
    }
}

/// Repairs plan text against request text (validator.md §9, `momentum_plan::repair`): the safe
/// fixes, and the unsafe ones too when `unsafe_fixes`, applied to a fixed point. Both texts are
/// read with one N-API copy each, or borrowed as UTF-8 bytes from a `Uint8Array` (as for
/// `validatePacked`).
///
/// Output: `Repair::to_json`, or `!` followed by `Argument::not_json`'s message when the request
/// text is not JSON (the converter throws it as a `SyntaxError`).
///
/// # Errors
/// `StringExpected` when `plan` or `request` is neither a string nor a `Uint8Array`.
#[napi(catch_unwind)]
pub fn repair_json(plan: Unknown<'_>, request: Unknown<'_>, unsafe_fixes: bool) -> Result<String> {
    let plan = text::read_text(&plan, "plan")?;
    let request = text::read_text(&request, "request")?;
    let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
    Ok(repair_or_message(momentum_plan::repair(plan.input(), request.input(), &options)))
}

/// The repair of a plan value holding a json-kind fault (as `planFaultPacked`): `plan` `""`, the
/// `json` verdict, nothing applied; or the request's message as `repairJson`. `request`: its
/// JSON text, a string or a `Uint8Array` of UTF-8.
///
/// # Errors
/// `InvalidArg` for an unknown kind or one that is an exception, not a verdict;
/// `StringExpected` for a `request` that is neither a string nor a `Uint8Array`.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn repair_plan_fault_json(
    request: Unknown<'_>,
    unsafe_fixes: bool,
    path: String,
    kind: String,
    detail: String,
) -> Result<String> {
    let request = text::read_text(&request, "request")?;
    let fault = host_fault(Argument::Plan, path, &kind, detail)?;
    let error = fault.json_error().ok_or_else(|| invalid(format!("a {kind} fault is not a verdict")))?;
    let _ = unsafe_fixes; // no fix applies to a plan that is not JSON
    Ok(repair_or_message(Repair::not_json(String::new(), &error, request.input())))
}

/// The repair of plan text holding a lone surrogate (the code unit `unit`, right after `before`;
/// `plan` is the text with U+FFFD for each lone surrogate): the `json` verdict, nothing applied;
/// or the request's message as `repairJson`. `request`: as for `repairPlanFaultJson`.
///
/// # Errors
/// `InvalidArg` for a `unit` beyond 0xFFFF; `StringExpected` as for `repairPlanFaultJson`.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn repair_plan_text_fault_json(
    request: Unknown<'_>,
    unsafe_fixes: bool,
    plan: String,
    unit: u32,
    before: String,
) -> Result<String> {
    let request = text::read_text(&request, "request")?;
    let error = text_error(unit, &before)?;
    let _ = unsafe_fixes; // no fix applies to a plan that is not JSON
    Ok(repair_or_message(Repair::not_json(plan, &error, request.input())))
}

/// The JSON Schema (2020-12) of the plan that answers the request text `request` (a string, or
/// a `Uint8Array` of its UTF-8) (`momentum_plan::plan_schema`, validator.md §9), variant
/// `validation` or `strict`.
///
/// Output: the schema's compact JSON, or one character and the core's message: `!` the request
/// text is not JSON (or not UTF-8), `?` an unknown variant, `#` a request at fault (the converter
/// throws a `SyntaxError`, a `RangeError`, an `Error`).
///
/// # Errors
/// `StringExpected` for a `request` that is neither a string nor a `Uint8Array`.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn plan_schema_json(request: Unknown<'_>, variant: String) -> Result<String> {
    let parsed = match text::read_text(&request, "request")? {
        text::Text::Str(t) => momentum_plan::parse_json(&t),
        text::Text::Bytes(b) => momentum_plan::parse_json_bytes(b),
    };
    let request = match parsed {
        Ok(r) => r,
        Err(e) => return Ok(format!("!{}", Argument::Request.not_json(&e))),
    };
    let variant = match SchemaVariant::from_name(&variant) {
        Ok(v) => v,
        Err(e) => return Ok(format!("?{e}")),
    };
    Ok(match momentum_plan::plan_schema(&request, variant) {
        Ok(schema) => schema.to_string(),
        Err(e) => format!("#{e}"),
    })
}

/// Every fix applicability name, in the core's order (`Applicability::ALL`): the source of
/// `Applicability` in `index.d.ts`.
#[napi(catch_unwind)]
pub fn applicabilities() -> Vec<&'static str> {
    Applicability::ALL.iter().map(|a| a.as_str()).collect()
}

/// Every reason the repair loop stops (`Stop::ALL`): the source of `RepairStop` in `index.d.ts`.
#[napi(catch_unwind)]
pub fn stop_reasons() -> Vec<&'static str> {
    Stop::ALL.iter().map(|s| s.as_str()).collect()
}

/// The schema variant names (`SchemaVariant::ALL`).
#[napi(catch_unwind)]
pub fn schema_variants() -> Vec<&'static str> {
    SchemaVariant::ALL.iter().map(|v| v.as_str()).collect()
}

/// The message of a fault the converter found in a host value (`HostFault`'s `Display`,
/// validator.md §7, D12): the converter throws it as a `TypeError`.
///
/// Input: `argument` (`plan`/`request`), `path` (a rendered JSONPath), `kind` (a `FaultKind`
/// name), `detail` (the kind's detail). Output: the message.
///
/// # Errors
/// `InvalidArg` for an unknown argument or kind.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn fault_text(argument: String, path: String, kind: String, detail: String) -> Result<String> {
    Ok(host_fault(self::argument(&argument)?, path, &kind, detail)?.to_string())
}

/// The message for JSON text holding a lone surrogate (the code unit `unit`, right after the
/// text `before`): `Argument::not_json` of `JsonError::lone_surrogate_in_text`, whose line and
/// column the core counts. The converter throws it as a `SyntaxError`.
///
/// # Errors
/// `InvalidArg` for an unknown argument or a `unit` beyond 0xFFFF.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn text_fault_text(argument: String, unit: u32, before: String) -> Result<String> {
    Ok(self::argument(&argument)?.not_json(&text_error(unit, &before)?))
}

/// The core's `json` verdict for a plan value holding a fault that JSON text could hold too
/// (`tooDeep`, `loneSurrogate`, `loneSurrogateInName`: `HostFault::json_error`, validator.md
/// D12), packed as `validatePacked`'s verdicts.
///
/// # Errors
/// `InvalidArg` for an unknown kind or one that is an exception, not a verdict.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn plan_fault_packed(path: String, kind: String, detail: String) -> Result<String> {
    let fault = host_fault(Argument::Plan, path, &kind, detail)?;
    let error = fault.json_error().ok_or_else(|| invalid(format!("a {kind} fault is not a verdict")))?;
    Ok(Verdict::not_json(&error).to_packed())
}

/// The core's `json` verdict for plan text holding a lone surrogate (the code unit `unit`, right
/// after `before`), packed as `validatePacked`'s verdicts.
///
/// # Errors
/// `InvalidArg` for a `unit` beyond 0xFFFF.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn plan_text_fault_packed(unit: u32, before: String) -> Result<String> {
    Ok(Verdict::not_json(&text_error(unit, &before)?).to_packed())
}

/// `momentum_plan::float_text`: the JSON text of a finite number the core reads as a non-integer
/// (validator.md §7), for the numbers JavaScript does not write in the core's form.
///
/// # Errors
/// `InvalidArg` for NaN or ±Infinity (the converter never passes them).
#[napi(catch_unwind)]
pub fn float_text(value: f64) -> Result<String> {
    momentum_plan::float_text(value).ok_or_else(|| invalid(format!("{value} has no JSON form")))
}

/// The plan contract (validator.md §2) as compact JSON text, key order as specified.
#[napi(catch_unwind)]
pub fn plan_contract_json() -> String {
    serde_json::to_string(momentum_plan::contract()).unwrap_or_default()
}

/// Every issue code string, in registry order (`IssueCode::ALL`): the source of the `IssueCode`
/// union in `index.d.ts`.
#[napi(catch_unwind)]
pub fn issue_codes() -> Vec<&'static str> {
    IssueCode::ALL.iter().map(|c| c.as_str()).collect()
}

/// The name of every check, in the order they run (validator.md §4–§5; `Check::ALL`): the
/// source of the `CheckName` union in `index.d.ts`.
#[napi(catch_unwind)]
pub fn check_names() -> Vec<&'static str> {
    Check::ALL.iter().map(|c| c.as_str()).collect()
}

/// A JSONPath rendered by the core's rules (validator.md §4, D7): strings are member names,
/// numbers are array indices.
#[napi(catch_unwind)]
#[allow(clippy::needless_pass_by_value)] // napi-rs hands JS values over as owned `String`s/`Vec`s; the Node API is fixed
pub fn render_path(segments: Vec<Either<String, u32>>) -> String {
    JsonPath::from_segments(segments.iter().map(|s| match s {
        Either::A(name) => Segment::Key(name),
        Either::B(i) => Segment::Index(*i as usize),
    }))
    .into_string()
}

/// `momentum_plan::MAX_DEPTH`: the deepest nesting a plan may have (validator.md §7).
#[napi(catch_unwind)]
pub fn max_depth() -> u32 {
    u32::try_from(momentum_plan::MAX_DEPTH).unwrap_or(u32::MAX)
}

#[cfg(feature = "test-exports")]
pub mod test_exports;
