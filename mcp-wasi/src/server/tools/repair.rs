//! `repair_plan` (mcp-server.md "Catalog"; validator.md §9): the core's repair.

use super::{ToolError, ToolResult, UNSAFE, plan_arguments};
use crate::arguments::ObjectArguments;
use crate::catalog::REPAIR_PLAN;
use momentum_plan::{Input, RepairOptions};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The core's repair of `plan` (an object, or plan text as a string, as the reference driver
/// reads it) against `request`, with the fixes that change meaning too when `unsafe` is true.
/// The text block and `structuredContent` are both [`momentum_plan::Repair::to_json`]'s bytes,
/// the latter embedded as raw JSON, never re-serialized. A request at fault is a normal result
/// (its `requestAtFault` says so); arguments that do not fit the input schema are a tool error.
pub(super) fn call(
    kept: ObjectArguments,
    arguments: Map<String, Value>,
) -> Result<ToolResult<Box<RawValue>>, ToolError> {
    let (plan, request, options) = plan_arguments(REPAIR_PLAN, arguments, &[UNSAFE])?;
    let (plan, request) = kept.values(plan, request);
    let options = RepairOptions { unsafe_fixes: options.unsafe_fixes, ..RepairOptions::default() };
    let plan = match &plan {
        Value::String(text) => Input::Text(text),
        other => Input::Value(other),
    };
    // Only a request given as text can fail to read; here it is always a JSON object.
    let repair = momentum_plan::repair(plan, Input::Value(&request), &options)
        .map_err(|e| ToolError(format!("Invalid arguments for {REPAIR_PLAN}: `request` could not be read: {e}.")))?;
    let text = repair.to_json();
    let structured = RawValue::from_string(text.clone())
        .map_err(|e| ToolError(format!("The repair could not be written as JSON ({e}).")))?;
    Ok(ToolResult::with_text(structured, text))
}
