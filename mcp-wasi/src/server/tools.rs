//! The tools (mcp-server.md "Catalog"): `tools/list`, the `tools/call` dispatch, and the two
//! channels a call answers on.
//!
//! A tool returns `Result<ToolResult<S>, ToolError>`, as rmcp's `IntoCallToolResult` for
//! `Result<T, E>` does: `Ok` is the result (`structuredContent` and the same JSON as text), `Err`
//! a tool error (one text block, `isError: true`). A call that does not fit `CallToolRequest`,
//! or names an unknown tool, is a JSON-RPC error instead ([`CallError::Rpc`]). One place per
//! tool: [`contract`], [`validate`], [`repair`], [`schema`], [`calendar`] (`export_calendar`,
//! `import_commitments`), and `save_plan` in [`super::save`].

mod calendar;
mod contract;
mod repair;
mod schema;
mod validate;

use super::Server;
use super::eras::{Ctx, respond};
use super::save::SaveStep;
use crate::apps;
use crate::catalog::{
    self, ArgumentErrors, ArgumentText, EXPORT_CALENDAR, GET_PLAN_CONTRACT, GET_PLAN_SCHEMA, IMPORT_COMMITMENTS,
    REPAIR_PLAN, SAVE_PLAN, VALIDATE_PLAN,
};
use crate::model::{
    CacheHints, CallToolParams, CallToolResult, EmbeddedResource, Empty, ListToolsResult, TextContent, ToolContent,
};
use crate::rpc::{self, MAX_LINE_VALUES, RpcError};
use serde::Serialize;
use serde_json::{Map, Value};

/// A tool's result: `structured` becomes `structuredContent` (from 2025-06-18), `text` the one
/// text block (the same JSON), `resource` an embedded resource after it (`export_calendar`'s
/// calendar; `None` for every other tool).
#[derive(Debug)]
pub(super) struct ToolResult<S> {
    pub(super) structured: S,
    pub(super) text: String,
    pub(super) resource: Option<EmbeddedResource>,
}

impl<S: Serialize> ToolResult<S> {
    /// A result whose text is `structured` as compact JSON (`""` if it cannot be written, which
    /// the types written here never do).
    pub(super) fn json(structured: S) -> ToolResult<S> {
        let text = serde_json::to_string(&structured).unwrap_or_default();
        ToolResult { structured, text, resource: None }
    }

    /// A result whose text block is `text` (the JSON of `structured`, as the tool wrote it).
    pub(super) fn with_text(structured: S, text: String) -> ToolResult<S> {
        ToolResult { structured, text, resource: None }
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
        Ok(ToolResult { structured, text, resource }) => respond(
            ctx,
            id,
            &CallToolResult {
                content: ToolContent { text: TextContent::new(text), resource },
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
        &CallToolResult::<Empty> {
            content: ToolContent { text: TextContent::new(text), resource: None },
            structured_content: None,
            is_error: true,
        },
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
            EXPORT_CALENDAR => render(ctx, id, calendar::export(p.arguments)),
            IMPORT_COMMITMENTS => render(ctx, id, calendar::import(p.arguments)),
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

/// What a JSON value is, for messages ("a number"): the catalog's `argumentErrors.kinds`.
pub(super) fn kind(v: &Value) -> &'static str {
    let k = &catalog::catalog().argument_errors.kinds;
    match v {
        Value::Null => &k.null,
        Value::Bool(_) => &k.boolean,
        Value::Number(_) => &k.number,
        Value::String(_) => &k.string,
        Value::Array(_) => &k.array,
        Value::Object(_) => &k.object,
    }
}

/// The catalog's argument-error texts.
pub(super) fn texts() -> &'static ArgumentErrors {
    &catalog::catalog().argument_errors
}

/// An argument's `type` text for the value `v` sent.
pub(super) fn wrong_type(text: &ArgumentText, v: &Value) -> String {
    catalog::fill(&text.wrong_type, &[("kind", kind(v))])
}

/// "unexpected argument(s) `a`, `b`": the names left in `args`, in the order sent (the
/// arguments taken out with `shift_remove`, which keeps the order of the rest).
pub(super) fn unexpected(args: &Map<String, Value>) -> String {
    let names: Vec<String> = args.keys().map(|k| format!("`{k}`")).collect();
    let u = &texts().unexpected;
    catalog::fill(if names.len() == 1 { &u.one } else { &u.many }, &[("names", &names.join(", "))])
}

/// The problem for the names left in `args` (none: `None`), with the sentence naming what `tool`
/// accepts.
pub(super) fn left_over(tool: &str, args: &Map<String, Value>) -> Option<String> {
    if args.is_empty() {
        return None;
    }
    let t = texts();
    let accepted = t.accepted.get(tool).map_or("", String::as_str);
    Some(catalog::fill(&t.left_over, &[("unexpected", &unexpected(args)), ("accepted", accepted)]))
}

/// The tool error for `tool` with `problems` (the catalog's `invalid`).
pub(super) fn invalid(tool: &str, problems: &[String]) -> ToolError {
    let t = texts();
    ToolError(catalog::fill(&t.invalid, &[("tool", tool), ("problems", &problems.join(&t.separator))]))
}

/// The optional boolean argument of `repair_plan`.
const UNSAFE: &str = "unsafe";
/// The optional string argument of `export_calendar`.
const DTSTAMP: &str = "dtstamp";

/// What the optional arguments of a plan tool asked for (`repair_plan`'s `unsafe`,
/// `export_calendar`'s `dtstamp`).
#[derive(Debug, Clone, Default)]
pub(super) struct PlanOptions {
    unsafe_fixes: bool,
    dtstamp: Option<String>,
}

/// The `plan` and `request` arguments of `validate_plan`, `repair_plan`, `export_calendar` and
/// `save_plan`, and the optional ones `optional` names (`unsafe`: a boolean; `dtstamp`: a
/// string), or the tool error naming every argument that does not fit the input schema (the
/// catalog's `argumentErrors`).
pub(super) fn plan_arguments(
    tool: &str,
    mut args: Map<String, Value>,
    optional: &[&str],
) -> Result<(Value, Value, PlanOptions), ToolError> {
    let t = texts();
    let plan = args.shift_remove("plan");
    let request = args.shift_remove("request");
    let mut problems = Vec::new();
    let mut options = PlanOptions::default();
    match &plan {
        None => problems.push(t.plan.missing.clone()),
        Some(Value::String(text)) if rpc::more_values_than(text.as_bytes(), MAX_LINE_VALUES) => {
            // The sandbox's own line reader limit (the other servers read no line): its own text.
            problems.push(format!(
                "the `plan` text holds more than {MAX_LINE_VALUES} JSON values, far over the contract's payload limit of {} bytes, so it was not read; send a plan within that limit",
                momentum_plan::LIMITS.payload_bytes
            ));
        }
        Some(Value::Object(_) | Value::String(_)) => {}
        Some(v) => problems.push(wrong_type(&t.plan, v)),
    }
    match &request {
        None => problems.push(t.request.missing.clone()),
        Some(Value::Object(_)) => {}
        Some(v) => problems.push(wrong_type(&t.request, v)),
    }
    if optional.contains(&UNSAFE) {
        match args.shift_remove(UNSAFE) {
            None => {}
            Some(Value::Bool(b)) => options.unsafe_fixes = b,
            Some(v) => problems.push(wrong_type(&t.unsafe_fixes, &v)),
        }
    }
    if optional.contains(&DTSTAMP) {
        match args.shift_remove(DTSTAMP) {
            None => {}
            Some(Value::String(s)) => options.dtstamp = Some(s),
            Some(v) => problems.push(wrong_type(&t.dtstamp, &v)),
        }
    }
    problems.extend(left_over(tool, &args));
    match (plan, request) {
        (Some(plan), Some(request)) if problems.is_empty() => Ok((plan, request, options)),
        _ => Err(invalid(tool, &problems)),
    }
}
