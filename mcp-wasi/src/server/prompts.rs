//! The prompt `draft_plan` (mcp-server.md "Catalog"): `prompts/list` and `prompts/get`.

use super::eras::{Ctx, respond};
use crate::catalog::{self, DRAFT_PLAN, REQUEST_JSON};
use crate::model::{
    CacheHints, GetPromptParams, GetPromptResult, ListPromptsResult, PromptMessage, TextContent, parse_params,
};
use crate::rpc::RpcError;
use serde_json::{Map, Value};

/// `prompts/list`: the one prompt `draft_plan`, cacheable as public.
pub(super) fn list(ctx: Ctx, id: &Value) -> String {
    respond(ctx, id, &ListPromptsResult { prompts: vec![catalog::draft_prompt(ctx.version)] }, Some(CacheHints::PUBLIC))
}

/// `prompts/get` of `draft_plan`: one user message (read the contract, draft, validate, fix,
/// save when `store`) followed by the request of the required string argument `request_json`.
/// An unknown prompt, or a missing or non-string argument, is `-32602`.
pub(super) fn get(ctx: Ctx, id: &Value, params: Map<String, Value>, store: bool) -> Result<String, RpcError> {
    let p: GetPromptParams = parse_params(params)
        .map_err(|_| RpcError::invalid_params("Invalid params: prompts/get needs a string name"))?;
    if p.name != DRAFT_PLAN {
        return Err(RpcError::invalid_params(format!("Unknown prompt: {}", p.name)));
    }
    let request_json = match p.arguments.as_ref().and_then(|a| a.get(REQUEST_JSON)) {
        Some(Value::String(s)) => s,
        Some(_) => {
            return Err(RpcError::invalid_params(format!("Invalid argument: {REQUEST_JSON} must be a string")));
        }
        None => {
            return Err(RpcError::invalid_params(format!("Missing required argument: {REQUEST_JSON}")));
        }
    };
    Ok(respond(
        ctx,
        id,
        &GetPromptResult {
            description: catalog::draft_prompt_description(),
            messages: vec![PromptMessage {
                role: "user",
                content: TextContent::new(catalog::draft_prompt_text(request_json, store)),
            }],
        },
        None,
    ))
}
