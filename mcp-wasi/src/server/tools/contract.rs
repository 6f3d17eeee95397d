//! `get_plan_contract` (mcp-server.md "Catalog"): the contract of validator.md §2, no arguments.

use super::{ToolError, ToolResult, texts, unexpected};
use crate::catalog::{GET_PLAN_CONTRACT, fill};
use momentum_plan::Contract;
use serde_json::{Map, Value};

/// The contract ([`momentum_plan::contract`]) as `structuredContent` and as text; any argument
/// is a tool error (the input schema is `{"type":"object","additionalProperties":false}`).
pub(super) fn call(arguments: &Map<String, Value>) -> Result<ToolResult<&'static Contract>, ToolError> {
    if !arguments.is_empty() {
        let text = &texts().no_arguments;
        return Err(ToolError(fill(text, &[("tool", GET_PLAN_CONTRACT), ("unexpected", &unexpected(arguments))])));
    }
    Ok(ToolResult::json(momentum_plan::contract()))
}
