//! Replays the fuzzers' findings (issue 7) through the invariants the fuzz targets assert, so a
//! fixed bug stays fixed without libFuzzer or a nightly toolchain.
//!
//! - `fuzz/regressions/validate_text/*` (any file but `*.md`): bytes, checked as target
//!   `validate_text` checks them (as plan text against the calm-weekday request, and as the
//!   request of the calm-weekday plan).
//! - `fuzz/regressions/validate_pair/*.json`: `{"plan": ..., "request": ...}`, the pair a
//!   `validate_pair` input generated, checked as object and as compact text.
//! - The hostile inputs below, which the fuzz targets' invariants must also hold for.
//!
//! The invariants live in `fuzz/src/invariants.rs` (one copy, shared with the fuzz targets).
#![allow(clippy::disallowed_methods)]

#[allow(dead_code, unreachable_pub)]
#[path = "../../fuzz/src/invariants.rs"]
mod invariants;

use momentum_plan::Value;
use std::path::{Path, PathBuf};

fn regressions(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target)
}

/// The files of a regression folder with the given extension filter, sorted by name.
fn files(target: &str, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let dir = regressions(target);
    let mut out: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.map(|e| e.expect("readable entry").path()).filter(|p| p.is_file() && keep(p)).collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

fn ext(p: &Path) -> Option<&str> {
    p.extension().and_then(|e| e.to_str())
}

#[test]
fn recorded_validate_text_findings_hold_the_invariants() {
    let found = files("validate_text", |p| ext(p) != Some("md"));
    for path in &found {
        let data = std::fs::read(path).expect("readable regression");
        let outcome = std::panic::catch_unwind(|| invariants::check_text_input(&data));
        assert!(outcome.is_ok(), "regression {} fails again", path.display());
    }
}

#[test]
fn recorded_validate_pair_findings_hold_the_invariants() {
    // The 600-level pair is read, walked and dropped recursively (serde_json); an unoptimized
    // build needs more than a test thread's 2 MiB of stack for that, so the cases run on 64 MiB.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(replay_validate_pair_findings)
        .expect("a thread")
        .join()
        .expect("the replay finishes");
}

fn replay_validate_pair_findings() {
    let found = files("validate_pair", |p| ext(p) == Some("json"));
    for path in &found {
        let text = std::fs::read_to_string(path).expect("readable regression");
        // Not the strict reader: a recorded object may hold what the reader rejects (`1e400`,
        // more than 512 levels; the recorded pairs stay under 600 levels).
        let mut de = serde_json::Deserializer::from_str(&text);
        de.disable_recursion_limit();
        let case: Value = serde::Deserialize::deserialize(&mut de).expect("a {plan, request} object");
        let (plan, request) = (&case["plan"], &case["request"]);
        let outcome = std::panic::catch_unwind(|| invariants::check_pair(plan, request));
        assert!(outcome.is_ok(), "regression {} fails again", path.display());
    }
}

/// Inputs at the edges the fuzzers aim for; each must hold every invariant.
#[test]
fn hostile_inputs_hold_the_invariants() {
    let plan = invariants::CALM_PLAN;
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b" ".to_vec(),
        b"\xEF\xBB\xBF{}".to_vec(),
        b"{\"a\":\"\\ud83d\"}".to_vec(),
        b"{\"a\":\"\xED\xA0\xBD\"}".to_vec(),
        b"{\"contractVersion\":1e400}".to_vec(),
        b"{\"contractVersion\":1.0,\"contractVersion\":1}".to_vec(),
        format!("{}{}", "[".repeat(512), "]".repeat(512)).into_bytes(),
        format!("{{\"a\":{}{}}}", "[".repeat(512), "]".repeat(512)).into_bytes(),
        plan.replacen("\"06:45\"", "\"24:00\"", 1).into_bytes(),
        plan.replacen("\"Walk\"", "\"Walk\\u2028\"", 1).into_bytes(),
        plan.replacen("\"Walk\"", "\"\\u007f\"", 1).into_bytes(),
        plan.replacen("30", "30.0", 1).into_bytes(),
        plan.as_bytes()[..plan.len() / 2].to_vec(),
    ];
    for data in &cases {
        invariants::check_text_input(data);
    }
    let plan = invariants::calm_plan();
    invariants::check_pair(plan, invariants::calm_request());
    invariants::check_pair(plan, &Value::Null);
    invariants::check_pair(&Value::String(invariants::CALM_PLAN.to_owned()), invariants::calm_request());
}

/// Fuzz finding F2 (`validate_pair`, minimized to the 10 input bytes
/// `fuzz/regressions/validate_pair/f2-compact-size-deeper-than-max-depth`, the pair in the
/// `.json` beside it): `compact_size` read containers nested deeper than `MAX_DEPTH` as `null`,
/// so for such a value it was not the length of the compact serialization (2052 vs 5103 bytes
/// for the pair's plan). The validator is not affected (it rejects a plan that deep as `json`
/// before measuring it). Fixed: `compact_size` walks the `Value` itself, at any depth; it is now
/// the fuzzers' own (`fuzz/src/invariants.rs`), the bound on the pairs their edits build.
#[test]
fn compact_size_measures_values_deeper_than_max_depth() {
    let mut v = Value::from(1);
    for level in 0..600 {
        v = if level % 2 == 0 { Value::Array(vec![v]) } else { serde_json::json!({ "x": v }) };
    }
    let text = serde_json::to_string(&v).expect("serializes");
    assert_eq!(invariants::compact_size(&v), text.len());
}
