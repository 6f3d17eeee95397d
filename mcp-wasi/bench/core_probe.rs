//! `core-probe`: the core validator in-process, for the server's end-to-end tests and bench.
//!
//! ```text
//! core-probe contract                    # the core's contract as compact JSON (get_plan_contract's reference)
//! core-probe bench PLAN REQUEST N        # N timed in-process validations of PLAN (a file) against REQUEST
//! ```
//!
//! `bench` prints one JSON object: `{"n", "validate_text_ns": {"median", "p99", "mean"},
//! "validate_object_ns": {…}}`, nanoseconds per call: `validate_text` gets the plan file's text
//! (parse + validate, the core's hot path); `validate_object` gets the plan already parsed into a
//! `Value` (what a server does after reading the JSON-RPC line). Exit 2 on bad usage or unreadable
//! input.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use momentum_plan::{Value, contract, validate, validate_text};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["contract"] => match serde_json::to_string(contract()) {
            Ok(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        },
        ["bench", plan, request, n] => match bench(plan, request, n) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        _ => fail("usage: core-probe contract | core-probe bench PLAN REQUEST N"),
    }
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("core-probe: {msg}");
    ExitCode::from(2)
}

/// Median, p99 and mean of per-call times, in nanoseconds.
fn stats(mut ns: Vec<u128>) -> String {
    ns.sort_unstable();
    let pick = |q: f64| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // q in 0..=1: an index of ns
        let i = ((ns.len() as f64 - 1.0) * q).round() as usize;
        ns[i]
    };
    let mean = ns.iter().sum::<u128>() / ns.len().max(1) as u128;
    format!("{{\"median\":{},\"p99\":{},\"mean\":{mean}}}", pick(0.5), pick(0.99))
}

fn bench(plan: &str, request: &str, n: &str) -> Result<(), String> {
    let n: usize = n.parse().ok().filter(|&n| n > 0).ok_or("N must be a positive integer")?;
    let text = std::fs::read_to_string(plan).map_err(|e| format!("{plan}: {e}"))?;
    let request_text = std::fs::read_to_string(request).map_err(|e| format!("{request}: {e}"))?;
    let request: Value = momentum_plan::parse_json(&request_text).map_err(|e| format!("{request_text}: {e}"))?;
    let object: Value = momentum_plan::parse_json(&text).map_err(|e| format!("{plan}: {e}"))?;
    let time = |f: &dyn Fn() -> bool| -> Vec<u128> {
        for _ in 0..n.min(500) {
            black_box(f());
        }
        (0..n)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed().as_nanos()
            })
            .collect()
    };
    let as_text = time(&|| validate_text(black_box(&text), &request).valid);
    let as_object = time(&|| validate(black_box(&object), &request).valid);
    println!("{{\"n\":{n},\"validate_text_ns\":{},\"validate_object_ns\":{}}}", stats(as_text), stats(as_object));
    Ok(())
}
