//! `validate_plan` (mcp-server.md "Catalog"): the verdict of validator.md §4.

use super::{ToolError, ToolResult, plan_arguments};
use crate::arguments::ObjectArguments;
use crate::catalog::VALIDATE_PLAN;
use momentum_plan::Verdict;
use serde_json::{Map, Value};

/// The core's verdict on `plan` (an object, or plan text as a string) against `request`, read
/// from the text `kept` holds when the line gave them as objects ([`ObjectArguments::verdict`]).
/// An invalid plan is a normal result; only arguments that do not fit the input schema are a
/// tool error. The text block is [`Verdict::to_json`].
pub(super) fn call(kept: ObjectArguments, arguments: Map<String, Value>) -> Result<ToolResult<Verdict>, ToolError> {
    let (plan, request, _) = plan_arguments(VALIDATE_PLAN, arguments, &[])?;
    let verdict = kept.verdict(plan, request);
    let text = verdict.to_json();
    Ok(ToolResult::with_text(verdict, text))
}
