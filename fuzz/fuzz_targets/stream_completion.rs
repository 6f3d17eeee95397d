//! Fuzz target `stream_completion` (issue 31, validator.md §10): a plan text cut anywhere and
//! completed by generated JSON that repeats no member name, pushed through a `PlanStream` in
//! chunks the input chooses. Asserts (`fuzz_support::stream::check_stream`): every issue settled
//! at any push is in the completed text's final verdict (same code, path and message), a settled
//! `json` issue is the verdict's, and `finish` is byte-identical to `validate_bytes`.
//!
//! Input: `PLAN_TEXT \0 REQUEST_TEXT \0 CONTROL` (the seeds: the vectors' pairs, as for
//! `validate_pair`). When the plan is not JSON text or the request not JSON, the calm-weekday
//! pair is used and the whole input is the control. The control bytes choose the cut, the
//! completion and the chunk sizes. `FUZZ_DUMP_PAIR=1` prints the completed text on stderr.
#![no_main]

use arbitrary::Unstructured;
use fuzz_support::stream::{check_stream, complete, cut};
use libfuzzer_sys::fuzz_target;
use momentum_plan::{Value, parse_json_bytes};

/// The completed text, the request and the chunk ends, or `None` when the control ran out early.
fn case(data: &[u8]) -> Option<(String, Value, Vec<usize>)> {
    fuzz_support::start_input();
    let (plan, request, control) = fuzz_support::split(data);
    let (plan, request, control) = match (std::str::from_utf8(plan), parse_json_bytes(request)) {
        (Ok(p), Ok(r)) if parse_json_bytes(p.as_bytes()).is_ok() => (p, r, control),
        _ => (fuzz_support::CALM_PLAN, fuzz_support::calm_request().clone(), data),
    };
    let mut u = Unstructured::new(control);
    let at = u.int_in_range(0..=plan.len()).ok()?;
    let (at, stack, next) = cut(plan, at);
    let rest = complete(&mut u, plan, at, stack, next).ok()?;
    let text = format!("{}{rest}", &plan[..at]);
    // Chunks of 1 to 64 bytes, sometimes larger, until the control runs out (then the rest).
    let mut ends = Vec::new();
    let mut end = 0;
    while !u.is_empty() && end < text.len() {
        end += if u.ratio(1u8, 8).ok()? {
            u.int_in_range(1..=2048usize).ok()?
        } else {
            u.int_in_range(1..=64usize).ok()?
        };
        ends.push(end);
    }
    Some((text, request, ends))
}

fuzz_target!(|data: &[u8]| {
    if let Some((text, request, ends)) = case(data) {
        if std::env::var_os("FUZZ_DUMP_PAIR").is_some() {
            eprintln!("FUZZ_STREAM {}", serde_json::json!({"plan": text, "request": request}));
        }
        check_stream(text.as_bytes(), &request, &ends);
    }
});
