//! The tools (mcp-server.md "Catalog"): `tools/list`, the `tools/call` dispatch, and the two
//! channels a call answers on.
//!
//! A tool returns `Result<ToolResult<S>, ToolError>`, as rmcp's `IntoCallToolResult` for
//! `Result<T, E>` does: `Ok` is the result (`structuredContent` and the same JSON as text), `Err`
//! a tool error (one text block, `isError: true`). A call that does not fit `CallToolRequest`,
//! or names an unknown tool, is a JSON-RPC error instead ([`CallError::Rpc`]). One place per
//! tool: [`contract`], [`validate`], [`repair`], [`schema`], and `save_plan` in [`super::save`].

mod contract;
mod repair;
mod schema;
mod validate;

use super::Server;
use super::eras::{Ctx, respond};
use super::save::SaveStep;
use crate::apps;
use crate::catalog::{self, GET_PLAN_CONTRACT, GET_PLAN_SCHEMA, REPAIR_PLAN, SAVE_PLAN, VALIDATE_PLAN};
use crate::model::{CacheHints, CallToolParams, CallToolResult, Empty, ListToolsResult, TextContent};
use crate::rpc::{self, MAX_LINE_VALUES, RpcError};
use serde::Serialize;
use serde_json::{Map, Value};

/// A tool's result: `structured` becomes `structuredContent` (from 2025-06-18), `text` the one
/// text block (the same JSON).
#[derive(Debug)]
pub(super) struct ToolResult<S> {
    pub(super) structured: S,
    pub(super) text: String,
}

impl<S: Serialize> ToolResult<S> {
    /// A result whose text is `structured` as compact JSON (`""` if it cannot be written, which
    /// the types written here never do).
    pub(super) fn json(structured: S) -> ToolResult<S> {
        let text = serde_json::to_string(&structured).unwrap_or_default();
        ToolResult { structured, text }
    }
}

/// A tool error (mcp-server.md "Catalog"): the text of the result's one block, sent with
/// `isError: true` and no `structuredContent`. Its text says what was wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ToolError(pub(super) String);

/// Why a `tools/call` has no tool result: the tool refused ([`ToolError`], still a result), or
/// the call is a protocol error (`-32602`).
#[derive(Debug)]
pub(super) enum CallError {
    /// A tool error: answered as a result with `isError: true`.
    Tool(ToolError),
    /// A JSON-RPC error response.
    Rpc(RpcError),
}

impl From<ToolError> for CallError {
    fn from(e: ToolError) -> CallError {
        CallError::Tool(e)
    }
}

impl From<RpcError> for CallError {
    fn from(e: RpcError) -> CallError {
        CallError::Rpc(e)
    }
}

/// The result line of a tool's answer, on its channel: a result with `structuredContent` (from
/// 2025-06-18) and the same JSON as text, or a tool error (one text block, `isError: true`, no
/// `structuredContent`).
pub(super) fn render<S: Serialize>(ctx: Ctx, id: &Value, outcome: Result<ToolResult<S>, ToolError>) -> String {
    match outcome {
        Ok(ToolResult { structured, text }) => respond(
            ctx,
            id,
            &CallToolResult {
                content: [TextContent::new(text)],
                structured_content: ctx.structured().then_some(&structured),
                is_error: false,
            },
            None,
        ),
        Err(e) => render_error(ctx, id, e),
    }
}

/// The result line of a tool error: one text block, `isError: true`, no `structuredContent`
/// (one copy for every tool, whatever its result type).
fn render_error(ctx: Ctx, id: &Value, ToolError(text): ToolError) -> String {
    respond(
        ctx,
        id,
        &CallToolResult::<Empty> { content: [TextContent::new(text)], structured_content: None, is_error: true },
        None,
    )
}

/// `tools/list`: the catalog's tools for the request's version (`save_plan` with a store).
pub(super) fn list(ctx: Ctx, id: &Value, store: bool) -> String {
    respond(
        ctx,
        id,
        &ListToolsResult { tools: apps::tools(ctx.apps, catalog::tools(ctx.version, store)) },
        Some(CacheHints::PUBLIC),
    )
}

impl Server {
    /// `tools/call`: `Ok(Some(line))` the tool's answer (a result or a tool error), `Ok(None)`
    /// when `save_plan` waits for the answer to its overwrite question, `Err` when the call does
    /// not fit `CallToolRequest` or names an unknown tool (`-32602`).
    pub(super) fn call_tool(
        &mut self,
        ctx: Ctx,
        id: &Value,
        params: Map<String, Value>,
        sent: &mut Vec<String>,
    ) -> Result<Option<String>, RpcError> {
        let kept = std::mem::take(&mut self.kept);
        let p = CallToolParams::from_map(params).map_err(RpcError::invalid_params)?;
        let line = match p.name.as_str() {
            GET_PLAN_CONTRACT => render(ctx, id, contract::call(&p.arguments)),
            VALIDATE_PLAN => render(ctx, id, validate::call(kept, p.arguments)),
            REPAIR_PLAN => render(ctx, id, repair::call(kept, p.arguments)),
            GET_PLAN_SCHEMA => render(ctx, id, schema::call(p.arguments)),
            SAVE_PLAN if self.store.is_some() => {
                match self.save_plan(ctx, id, kept, p.arguments, p.input_responses, sent) {
                    Ok(SaveStep::Done(result)) => render(ctx, id, Ok(result)),
                    Ok(SaveStep::InputRequired(result)) => rpc::result_line(id, &result),
                    Ok(SaveStep::Asked) => return Ok(None),
                    Err(CallError::Tool(e)) => render_error(ctx, id, e),
                    Err(CallError::Rpc(e)) => return Err(e),
                }
            }
            other => return Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
        };
        Ok(Some(line))
    }
}

/// What a JSON value is, for messages ("a number").
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// "unexpected argument(s) `a`, `b`": the names left in `args`.
fn unexpected(args: &Map<String, Value>) -> String {
    let names: Vec<String> = args.keys().map(|k| format!("`{k}`")).collect();
    format!("unexpected argument{} {}", if names.len() == 1 { "" } else { "s" }, names.join(", "))
}

/// The optional boolean argument of `repair_plan`.
const UNSAFE: &str = "unsafe";

/// What the optional arguments of a plan tool asked for (only `repair_plan` has any).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PlanOptions {
    unsafe_fixes: bool,
}

/// The `plan` and `request` arguments of `validate_plan`, `repair_plan` and `save_plan`, and
/// the optional ones `optional` names (`unsafe`: a boolean), or the tool error naming every
/// argument that does not fit the input schema.
pub(super) fn plan_arguments(
    tool: &str,
    mut args: Map<String, Value>,
    optional: &[&str],
) -> Result<(Value, Value, PlanOptions), ToolError> {
    let plan = args.remove("plan");
    let request = args.remove("request");
    let mut problems = Vec::new();
    let mut options = PlanOptions::default();
    match &plan {
        None => problems
            .push("`plan` is missing: pass the plan as a JSON object, or its JSON text as one string".to_owned()),
        Some(Value::String(text)) if rpc::more_values_than(text.as_bytes(), MAX_LINE_VALUES) => {
            problems.push(format!(
                "the `plan` text holds more than {MAX_LINE_VALUES} JSON values, far over the contract's payload limit of {} bytes, so it was not read; send a plan within that limit",
                momentum_plan::LIMITS.payload_bytes
            ));
        }
        Some(Value::Object(_) | Value::String(_)) => {}
        Some(v) => problems.push(format!("`plan` must be a JSON object or a string of JSON text, not {}", kind(v))),
    }
    match &request {
        None => problems.push("`request` is missing: pass the request the plan answers, as a JSON object".to_owned()),
        Some(Value::Object(_)) => {}
        Some(v) => {
            problems.push(format!("`request` must be a JSON object (the request the plan answers), not {}", kind(v)));
        }
    }
    if optional.contains(&UNSAFE) {
        match args.remove(UNSAFE) {
            None => {}
            Some(Value::Bool(b)) => options.unsafe_fixes = b,
            Some(v) => problems.push(format!(
                "`unsafe` must be a boolean (true applies the fixes that change meaning too; leave it out for the safe ones only), not {}",
                kind(&v)
            )),
        }
    }
    if !args.is_empty() {
        let accepted = match optional {
            [] => "only `plan` and `request` are accepted".to_owned(),
            more => {
                let names: Vec<String> = more.iter().map(|n| format!("`{n}`")).collect();
                format!("only `plan`, `request` and {} are accepted", names.join(", "))
            }
        };
        problems.push(format!("{}: {accepted}", unexpected(&args)));
    }
    match (plan, request) {
        (Some(plan), Some(request)) if problems.is_empty() => Ok((plan, request, options)),
        _ => Err(ToolError(format!("Invalid arguments for {tool}: {}.", problems.join("; ")))),
    }
}
