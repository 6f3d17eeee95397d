//! `get_plan_schema` (mcp-server.md "Catalog"; validator.md §9): the plan's JSON Schema for a
//! request.

use super::{ToolError, ToolResult, kind, unexpected};
use crate::catalog::GET_PLAN_SCHEMA;
use momentum_plan::SchemaVariant;
use serde_json::{Map, Value};

/// The optional argument of `get_plan_schema`.
const VARIANT: &str = "variant";

/// [`momentum_plan::plan_schema`] for `request` and `variant` (default `validation`), as
/// `structuredContent` and as text. Arguments that do not fit the input schema, and a request
/// the schema cannot be built for (the core's [`momentum_plan::SchemaError`] text), are a tool
/// error.
pub(super) fn call(arguments: Map<String, Value>) -> Result<ToolResult<Value>, ToolError> {
    let (request, variant) = schema_arguments(arguments)?;
    let schema = momentum_plan::plan_schema(&request, variant).map_err(|e| ToolError(e.to_string()))?;
    let text = schema.to_string();
    Ok(ToolResult { structured: schema, text })
}

/// The `request` and `variant` arguments (`variant` defaults to `validation`), or the tool
/// error naming every argument that does not fit.
fn schema_arguments(mut args: Map<String, Value>) -> Result<(Value, SchemaVariant), ToolError> {
    let request = args.remove("request");
    let mut problems = Vec::new();
    match &request {
        None => {
            problems.push("`request` is missing: pass the request the plan must answer, as a JSON object".to_owned());
        }
        Some(Value::Object(_)) => {}
        Some(v) => problems
            .push(format!("`request` must be a JSON object (the request the plan must answer), not {}", kind(v))),
    }
    let variant = match args.remove(VARIANT) {
        None => Some(SchemaVariant::Validation),
        Some(Value::String(name)) => match SchemaVariant::from_name(&name) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(format!("`variant`: {e}"));
                None
            }
        },
        Some(v) => {
            problems.push(format!("`variant` must be a string, \"validation\" or \"strict\", not {}", kind(&v)));
            None
        }
    };
    if !args.is_empty() {
        problems.push(format!("{}: only `request` and `variant` are accepted", unexpected(&args)));
    }
    match (request, variant) {
        (Some(request), Some(variant)) if problems.is_empty() => Ok((request, variant)),
        _ => Err(ToolError(format!("Invalid arguments for {GET_PLAN_SCHEMA}: {}.", problems.join("; ")))),
    }
}
