//! # momentum-plan-node
//!
//! The native half of the Node.js binding of the `momentum-plan` validator (napi-rs v3). It only
//! converts and calls the core crate; every rule lives in `momentum_plan` (validator.md).
//!
//! The public JavaScript API (`validatePlan`, `getPlanContract`, in `index.js` beside this crate)
//! is a thin wrapper over these exports:
//!
//! | export | what |
//! |---|---|
//! | `validatePacked(plan, request)` | plan TEXT + request TEXT -> the verdict packed for `index.js`'s `unpack` (the hot path) |
//! | `validateText(plan, request)` | plan TEXT + request TEXT -> verdict JSON text (`Verdict::to_json`, for tests) |
//! | `notJson(reason, line, column)` | the core's `Verdict::not_json` (JSON text) for a host value JSON cannot hold |
//! | `validateObjects(plan, request)` | walks JS values through N-API into `serde_json::Value`, -> verdict JSON text (kept to measure the other way in; see README) |
//! | `planContractJson()` | the contract as compact JSON text (validator.md §2) |
//! | `issueCodes()` | every issue code string, in registry order (`IssueCode::ALL`) |
//! | `checkNames()` | every check name, in order (`Check::ALL`) |
//! | `renderPath(segments)` | a JSONPath rendered by the core's rules (validator.md §4, D7) |
//! | `maxDepth()` | `momentum_plan::MAX_DEPTH` (512) |
//! | `benchCore(plan, request, n)` | runs `validate_text_pair` `n` times; ns per run timed inside Rust (the floor row of `npm run bench`) |
//! | `panicForTest()` | panics, to prove a Rust panic becomes a JS `Error` (never an abort) |
//!
//! Verdicts cross as one packed string that the wrapper splits into the plain objects of the
//! core's verdict (`text::pack`): measured about half the cost of `JSON.parse` of the verdict
//! JSON and a third of building the objects through N-API (README, "Conversion"). The tests hold
//! the result equal, byte for byte once stringified, to the core's own `Verdict::to_json()`.
//!
//! Every export is `catch_unwind`: a panic in Rust surfaces as a thrown JS `Error`, never as an
//! aborted Node process.

mod text;
mod walk;

use momentum_plan::json::JsonError;
use momentum_plan::{Check, IssueCode, JsonPath, Segment, Value};

/// The addon's allocator: mimalloc makes the core's `serde_json::Value` building ~10–25 % faster
/// than glibc malloc in Node (README, "Speed").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use napi::bindgen_prelude::{Either, Unknown};
use napi::{Env, Error, Result, Status};
use napi_derive::napi;

/// The request text read strictly (validator.md D12); a fault is an `InvalidArg` error whose
/// message starts with `request is not JSON:` (the JS wrapper throws it as a `SyntaxError`).
fn parse_request(request: &str) -> Result<Value> {
    momentum_plan::json::parse(request).map_err(|e| Error::new(Status::InvalidArg, format!("request is not JSON: {e}")))
}

/// Validates plan text against request text (validator.md §5): the plan is validated as text
/// (its size is its UTF-8 length, D3); the request is parsed with the core's strict reader and
/// may be any JSON value (a non-object request is `requestInvalid`, D1).
///
/// Input: `plan`, `request`: JSON text (JS strings; the wrapper has made sure they hold no lone
/// surrogate, which N-API would turn into U+FFFD). Output: the verdict as compact JSON text (`Verdict::to_json`).
///
/// # Errors
/// `InvalidArg` when the request text is not strict JSON.
#[napi(catch_unwind)]
pub fn validate_text(plan: String, request: String) -> Result<String> {
    momentum_plan::validate_text_pair(&plan, &request)
        .map(|v| v.to_json())
        .map_err(|e| Error::new(Status::InvalidArg, format!("request is not JSON: {e}")))
}

/// Validates plan text against request text (validator.md §5), as [`validate_text`], returning
/// the verdict packed for `index.js`'s `unpack` (`text::pack`). The strings are read with one
/// N-API copy each (`text::read_string`).
///
/// Input: `plan`, `request`: JS strings of JSON text, without lone surrogates (the wrapper checks).
/// Output: the packed verdict.
///
/// # Errors
/// `StringExpected` when an argument is not a string; `InvalidArg` when the request text is not
/// strict JSON (the message starts with `request is not JSON:`).
#[napi(catch_unwind)]
pub fn validate_packed(plan: Unknown<'_>, request: Unknown<'_>) -> Result<String> {
    let plan = text::read_string(&plan, "plan")?;
    let request = text::read_string(&request, "request")?;
    momentum_plan::validate_text_pair(&plan, &request)
        .map(|v| text::pack(&v))
        .map_err(|e| Error::new(Status::InvalidArg, format!("request is not JSON: {e}")))
}

/// The core's verdict for a plan that JSON cannot hold (validator.md §5.1, D12): one `json` error
/// at `$` whose message gives `reason` (and `line`/`column`, 1-based characters, when not 0), as
/// compact JSON text.
#[napi(catch_unwind)]
pub fn not_json(reason: String, line: u32, column: u32) -> String {
    let error = JsonError { reason, line: line as usize, column: column as usize };
    momentum_plan::Verdict::not_json(&error).to_json()
}

/// Validates a plan and a request given as JS values, converted by walking them through N-API
/// (no JSON text in between). Kept so `npm run bench` can measure this way in against the text
/// way the public API uses (README, "Conversion").
///
/// Input: `plan`, `request`: JS values; a string is JSON text. Output: the verdict as compact JSON text (`Verdict::to_json`).
///
/// # Errors
/// `InvalidArg` with the message `<plan|request> at <path> ...` for a value JSON cannot hold
/// (function, symbol, BigInt, NaN/Infinity, cycle, `undefined` in an array), or request text that
/// is not JSON. A plan holding a lone surrogate or nested deeper than `MAX_DEPTH` is not an
/// error: it gets the core's `json` verdict.
#[napi(catch_unwind)]
pub fn validate_objects(env: Env, plan: Unknown<'_>, request: Unknown<'_>) -> Result<String> {
    let request = match walk::to_value(&env, request, "request")? {
        walk::Converted::Value(Value::String(text)) => parse_request(&text)?,
        walk::Converted::Value(v) => v,
        walk::Converted::NotJson(reason) => {
            return Err(Error::new(Status::InvalidArg, format!("request {reason}")));
        }
    };
    let verdict = match walk::to_value(&env, plan, "plan")? {
        walk::Converted::Value(plan) => momentum_plan::validate(&plan, &request),
        walk::Converted::NotJson(reason) => momentum_plan::Verdict::not_json(&JsonError::in_value(reason)),
    };
    Ok(verdict.to_json())
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

/// Runs `momentum_plan::validate_text_pair(plan, request)` `iterations` times (at least once) and
/// returns the nanoseconds per run, timed inside Rust. `npm run bench` calls it with 1 for its
/// floor row (the core plus one native call, no verdict conversion). Not part of the public API.
///
/// # Errors
/// `InvalidArg` when the request text is not strict JSON.
#[napi(catch_unwind)]
pub fn bench_core(plan: String, request: String, iterations: u32) -> Result<f64> {
    let n = iterations.max(1);
    let start = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(momentum_plan::validate_text_pair(std::hint::black_box(&plan), &request))
            .map_err(|e| Error::new(Status::InvalidArg, format!("request is not JSON: {e}")))?;
    }
    Ok(start.elapsed().as_secs_f64() * 1e9 / f64::from(n))
}

/// Panics on purpose: the test suite calls it to show that a Rust panic is caught and thrown as
/// a JS `Error` instead of aborting Node. Not part of the public API.
#[napi(catch_unwind)]
#[allow(clippy::panic)]
pub fn panic_for_test() {
    panic!("momentum-plan-node: deliberate panic for the test suite");
}
