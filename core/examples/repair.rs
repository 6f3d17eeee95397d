//! The lines driver of `repair` and `plan_schema` (validator.md §9): the reference every surface's
//! repair and schema bytes are compared with.
//!
//! ```text
//! repair --lines    # JSON Lines {"plan": …, "request": …, "unsafe"?: bool} on stdin → one Repair JSON per line
//! schema --lines    # (as `repair --schema --lines`) {"request": …, "variant"?: "validation"|"strict"} → the schema JSON per line
//! ```
//!
//! A plan string is plan text, as in the validate driver. A line that does not fit gets
//! `{"error": "<why>"}`, and so does a request at fault or an unknown variant for `--schema`
//! (`{"error": "<SchemaError's text>"}`); blank lines are skipped; exit 0 at end of input.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

#[path = "common/lines.rs"]
mod lines;

use lines::error_line;
use momentum_plan::{Input, RepairOptions, SchemaVariant, Value, plan_schema, repair};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let schema = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["--lines"] => false,
        ["--schema", "--lines"] | ["--lines", "--schema"] => true,
        _ => {
            eprintln!("usage: repair --lines < pairs.jsonl\n       repair --schema --lines < requests.jsonl");
            return ExitCode::from(2);
        }
    };
    match lines(schema) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("repair: {e}");
            ExitCode::from(2)
        }
    }
}

/// One answer line for one input object.
fn answer(mut line: serde_json::Map<String, Value>, schema: bool) -> String {
    if schema {
        let Some(request) = line.swap_remove("request") else {
            return error_line("the line has no \"request\" member");
        };
        let variant = match line.swap_remove("variant") {
            None => Ok(SchemaVariant::Validation),
            Some(Value::String(v)) => SchemaVariant::from_name(&v),
            Some(_) => return error_line("\"variant\" is not a string"),
        };
        return match variant.and_then(|v| plan_schema(&request, v)) {
            Ok(s) => s.to_string(),
            Err(e) => error_line(&e.to_string()),
        };
    }
    let (Some(plan), Some(request)) = (line.swap_remove("plan"), line.swap_remove("request")) else {
        return error_line("the line has no \"plan\" or no \"request\" member");
    };
    let options =
        RepairOptions { unsafe_fixes: line.get("unsafe") == Some(&Value::Bool(true)), ..RepairOptions::default() };
    let plan = match &plan {
        Value::String(t) => Input::Text(t),
        v => Input::Value(v),
    };
    match repair(plan, Input::Value(&request), &options) {
        Ok(r) => r.to_json(),
        Err(e) => error_line(&e.to_string()),
    }
}

fn lines(schema: bool) -> std::io::Result<()> {
    lines::run(|pair| answer(pair, schema))
}
