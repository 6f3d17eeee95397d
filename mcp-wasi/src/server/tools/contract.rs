//! `get_plan_contract` (mcp-server.md "Catalog"): the contract of validator.md §2, no arguments.

use super::{ToolError, ToolResult, unexpected};
use crate::catalog::GET_PLAN_CONTRACT;
use momentum_plan::Contract;
use serde_json::{Map, Value};

/// The contract ([`momentum_plan::contract`]) as `structuredContent` and as text; any argument
/// is a tool error (the input schema is `{"type":"object","additionalProperties":false}`).
pub(super) fn call(arguments: &Map<String, Value>) -> Result<ToolResult<&'static Contract>, ToolError> {
    if !arguments.is_empty() {
        return Err(ToolError(format!(
            "Invalid arguments for {GET_PLAN_CONTRACT}: it takes no arguments ({}); call it with {{}}.",
            unexpected(arguments)
        )));
    }
    Ok(ToolResult::json(momentum_plan::contract()))
}
