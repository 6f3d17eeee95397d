//! Calls one entry of the core `N` times on one fixture, for instruction counts under callgrind
//! (stable on a noisy machine, unlike wall time; the README's callgrind table):
//!
//! ```sh
//! cargo build --release -p momentum-plan-benches --example calls
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='calls::text' \
//!     target/release/examples/calls 2000 text calm-weekday
//! ```
//!
//! Arguments: `N` (calls), the entry (`floor`: `serde_json::from_str::<Value>` of the plan text,
//! dropped; `text`: `validate_text`; `value`: `validate` of the pre-parsed plan; `pair`:
//! `validate_text_pair` of the compact plan and request texts) and a fixture name of
//! `momentum_plan_benches::all()`. Each entry is its own `#[inline(never)]` function named as the
//! entry, for `--toggle-collect`; the collected count ÷ `N` is the cost of one call.
#![allow(missing_docs)]

use serde_json::Value;
use std::hint::black_box;
use std::process::ExitCode;

#[inline(never)]
fn floor(plan: &str) -> usize {
    serde_json::from_str::<Value>(plan).map_or(0, |v| usize::from(v.is_object()))
}

#[inline(never)]
fn text(plan: &str, request: &Value) -> usize {
    momentum_plan::validate_text(plan, request).errors.len()
}

#[inline(never)]
fn value(plan: &Value, request: &Value) -> usize {
    momentum_plan::validate(plan, request).errors.len()
}

#[inline(never)]
fn pair(plan: &str, request: &str) -> usize {
    momentum_plan::validate_text_pair(plan, request).map_or(0, |v| v.errors.len())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(n), Some(entry), Some(name)) =
        (args.first().and_then(|n| n.parse::<usize>().ok()), args.get(1), args.get(2))
    else {
        eprintln!("usage: calls N floor|text|value|pair FIXTURE");
        return ExitCode::from(2);
    };
    let Some(fixture) = momentum_plan_benches::all().into_iter().find(|f| f.name == name) else {
        eprintln!("calls: no fixture {name:?}");
        return ExitCode::from(2);
    };
    let Ok(parsed) = serde_json::from_str::<Value>(&fixture.plan_text) else {
        eprintln!("calls: fixture {name:?} is not JSON");
        return ExitCode::from(2);
    };
    let compact = parsed.to_string();
    let request_text = fixture.request.to_string();
    let mut errors = 0;
    for _ in 0..n {
        errors += match entry.as_str() {
            "floor" => floor(black_box(&fixture.plan_text)),
            "text" => text(black_box(&fixture.plan_text), &fixture.request),
            "value" => value(black_box(&parsed), &fixture.request),
            "pair" => pair(black_box(&compact), &request_text),
            other => {
                eprintln!("calls: no entry {other:?}");
                return ExitCode::from(2);
            }
        };
    }
    println!("{name}: {n} calls of {entry}, {errors} errors in all");
    ExitCode::SUCCESS
}
