//! Fuzz target `validate_pair`: a (plan, request) pair, validated as object and as compact text.
//!
//! Input: `PLAN_TEXT \0 REQUEST_TEXT \0 EDIT_BYTES`. When both texts are JSON (the seeds from
//! the vectors are), they are the pair; otherwise the pair is generated from the whole input
//! (plan-shaped values, see `fuzz_support::gen_value`). Then the edit bytes drive structured
//! edits (replace, delete, insert, swap, repeat, deep wrap, echo the request) so mutations stay
//! JSON and reach the later checks. `FUZZ_DUMP_PAIR=1` prints each pair as one JSON line on
//! stderr (`FUZZ_PAIR {"plan":...,"request":...}`), to record a finding.
#![no_main]

use arbitrary::Unstructured;
use fuzz_support::{edit, gen_plan, gen_value};
use libfuzzer_sys::fuzz_target;
use momentum_plan::{Value, parse_json_bytes};
use std::sync::OnceLock;

fn pair(data: &[u8]) -> Option<(Value, Value)> {
    fuzz_support::start_input();
    let (plan, request, edits) = fuzz_support::split(data);
    match (parse_json_bytes(plan), parse_json_bytes(request)) {
        (Ok(mut p), Ok(mut r)) => {
            let mut u = Unstructured::new(edits);
            edit(&mut u, &mut p, &mut r).ok()?;
            Some((p, r))
        }
        _ => {
            let mut u = Unstructured::new(data);
            let mut p = gen_plan(&mut u).ok()?;
            let mut r =
                if u.ratio(3u8, 4).ok()? { fuzz_support::calm_request().clone() } else { gen_value(&mut u, 4).ok()? };
            edit(&mut u, &mut p, &mut r).ok()?;
            Some((p, r))
        }
    }
}

/// Whether to print each generated pair (`FUZZ_DUMP_PAIR=1`): how a finding is written out as
/// `fuzz/regressions/validate_pair/<name>.json` for `core/tests/fuzz_regressions.rs`.
fn dump() -> bool {
    static DUMP: OnceLock<bool> = OnceLock::new();
    *DUMP.get_or_init(|| std::env::var_os("FUZZ_DUMP_PAIR").is_some())
}

fuzz_target!(|data: &[u8]| {
    if let Some((plan, request)) = pair(data) {
        if dump() {
            let case = serde_json::json!({"plan": plan, "request": request});
            eprintln!("FUZZ_PAIR {}", serde_json::to_string(&case).unwrap_or_default());
        }
        fuzz_support::check_pair(&plan, &request);
    }
});
