//! Validates plans from the command line; the stable driver every conformance test uses.
//!
//! ```text
//! validate PLAN.json REQUEST.json   # prints the verdict as pretty JSON; exit 0 valid, 1 invalid, 2 bad usage
//! validate --lines                  # JSON Lines {"plan": …, "request": …} on stdin, one compact verdict per line
//! ```
//!
//! `--lines` speaks the lines protocol of `shared/tools/README.md`: a plan string is plan text
//! (validated as text, unparsed), a plan object is validated as an object; a line that is not a
//! JSON object with `plan` and `request` gets `{"error": "<why>"}`; blank lines are skipped.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

#[path = "common/lines.rs"]
mod lines;

use momentum_plan::{validate, validate_bytes};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--lines" => match lines() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("validate: {e}");
                ExitCode::from(2)
            }
        },
        [plan, request] => files(plan, request),
        _ => {
            eprintln!("usage: validate PLAN.json REQUEST.json\n       validate --lines < pairs.jsonl");
            ExitCode::from(2)
        }
    }
}

fn files(plan: &str, request: &str) -> ExitCode {
    let plan = match std::fs::read(plan) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("validate: cannot read {plan}: {e}");
            return ExitCode::from(2);
        }
    };
    let request = match std::fs::read(request)
        .map_err(|e| e.to_string())
        .and_then(|b| momentum_plan::parse_json_bytes(&b).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("validate: cannot read the request {request}: {e}");
            return ExitCode::from(2);
        }
    };
    let verdict = validate_bytes(&plan, &request);
    println!("{}", verdict.to_json_pretty());
    if verdict.valid { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn lines() -> std::io::Result<()> {
    lines::run(|mut pair| match (pair.swap_remove("plan"), pair.swap_remove("request")) {
        (Some(plan), Some(request)) => validate(&plan, &request).to_json(),
        _ => lines::error_line("the line has no \"plan\" or no \"request\" member"),
    })
}
