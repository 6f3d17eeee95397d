//! Validates plans from the command line; the stable driver every conformance test uses.
//!
//! ```text
//! validate PLAN.json REQUEST.json   # prints the verdict as pretty JSON; exit 0 valid, 1 invalid, 2 bad usage
//! validate --lines                  # JSON Lines {"plan": …, "request": …} on stdin, one compact verdict per line
//! validate --stream                 # JSON Lines {"plan": TEXT, "request": …, "chunks": [BYTES, …]}: a PlanStream per line
//! ```
//!
//! `--lines` speaks the lines protocol of `shared/tools/README.md`: a plan string is plan text
//! (validated as text, unparsed), a plan object is validated as an object; a line that is not a
//! JSON object with `plan` and `request` gets `{"error": "<why>"}`; blank lines are skipped.
//!
//! `--stream` is the reference of the streaming conformance case (validator.md §10,
//! `tests/conformance`): the plan text's UTF-8 bytes go into a `PlanStream` in chunks of the given
//! byte counts (split anywhere; what they leave is one last chunk), and the answer is
//! `{"pushes": [[issue, …] per push], "repeatedName": bool, "verdict": verdict}`.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

#[path = "common/lines.rs"]
mod lines;

use momentum_plan::{PlanStream, Value, validate, validate_bytes};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--lines" || flag == "--stream" => match lines(flag == "--stream") {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("validate: {e}");
                ExitCode::from(2)
            }
        },
        [plan, request] => files(plan, request),
        _ => {
            eprintln!("usage: validate PLAN.json REQUEST.json\n       validate --lines|--stream < pairs.jsonl");
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

fn lines(stream: bool) -> std::io::Result<()> {
    lines::run(|mut pair| match (pair.swap_remove("plan"), pair.swap_remove("request")) {
        (Some(Value::String(plan)), Some(request)) if stream => streamed(plan.as_bytes(), request, pair.get("chunks")),
        (Some(plan), Some(request)) if !stream => validate(&plan, &request).to_json(),
        _ => lines::error_line("the line has no \"plan\" (text, for --stream) or no \"request\" member"),
    })
}

/// The `--stream` answer for `plan` pushed in chunks of the byte counts `chunks`.
fn streamed(plan: &[u8], request: Value, chunks: Option<&Value>) -> String {
    let sizes: Vec<usize> = chunks
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).filter_map(|n| usize::try_from(n).ok()).collect())
        .unwrap_or_default();
    let mut stream = PlanStream::new(request);
    let mut pushes = Vec::new();
    let mut at = 0;
    for n in sizes {
        let end = (at + n).min(plan.len());
        pushes.push(stream.push(&plan[at..end]));
        at = end;
    }
    if at < plan.len() {
        pushes.push(stream.push(&plan[at..]));
    }
    let repeated = stream.repeated_name();
    serde_json::json!({ "pushes": pushes, "repeatedName": repeated, "verdict": stream.finish() }).to_string()
}
