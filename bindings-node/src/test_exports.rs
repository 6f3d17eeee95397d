//! Test- and bench-only exports (cargo feature `test-exports`): never in the shipped addon.
//! `test.sh` builds them into a separate addon, `test/addon/momentum-plan-node.node`, for the
//! test suite and `npm run bench`; `test/api.test.mjs` checks the shipped addon lacks them.

use momentum_plan::Argument;
use napi::{Error, Result, Status};
use napi_derive::napi;

/// Validates plan text against request text (validator.md §5) and returns the verdict as compact
/// JSON text (`Verdict::to_json`): the bytes the packed way must equal.
///
/// # Errors
/// `InvalidArg` when the request text is not strict JSON.
#[napi(catch_unwind)]
pub fn validate_text(plan: String, request: String) -> Result<String> {
    momentum_plan::validate_text_pair(&plan, &request)
        .map(|v| v.to_json())
        .map_err(|e| Error::new(Status::InvalidArg, Argument::Request.not_json(&e)))
}

/// Runs `momentum_plan::validate_text_pair(plan, request)` `iterations` times (at least once) and
/// returns the nanoseconds per run, timed inside Rust. `npm run bench` calls it with 1 for its
/// floor row (the core plus one native call, no verdict conversion).
///
/// # Errors
/// `InvalidArg` when the request text is not strict JSON.
#[napi(catch_unwind)]
pub fn bench_core(plan: String, request: String, iterations: u32) -> Result<f64> {
    let n = iterations.max(1);
    let start = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(momentum_plan::validate_text_pair(std::hint::black_box(&plan), &request))
            .map_err(|e| Error::new(Status::InvalidArg, Argument::Request.not_json(&e)))?;
    }
    Ok(start.elapsed().as_secs_f64() * 1e9 / f64::from(n))
}

/// Panics on purpose: the test suite calls it to show that a Rust panic is caught and thrown as
/// a JS `Error` instead of aborting Node.
#[napi(catch_unwind)]
#[allow(clippy::panic)]
pub fn panic_for_test() {
    panic!("momentum-plan-node: deliberate panic for the test suite");
}
