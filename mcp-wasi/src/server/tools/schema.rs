//! `get_plan_schema` (mcp-server.md "Catalog"; validator.md §9): the plan's JSON Schema for a
//! request.

use super::{ToolError, ToolResult, invalid, left_over, texts, wrong_type};
use crate::catalog::{GET_PLAN_SCHEMA, fill};
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
    Ok(ToolResult::with_text(schema, text))
}

/// The `request` and `variant` arguments (`variant` defaults to `validation`), or the tool
/// error naming every argument that does not fit (the catalog's `argumentErrors`).
fn schema_arguments(mut args: Map<String, Value>) -> Result<(Value, SchemaVariant), ToolError> {
    let t = texts();
    let request = args.shift_remove("request");
    let mut problems = Vec::new();
    match &request {
        None => problems.push(t.schema_request.missing.clone()),
        Some(Value::Object(_)) => {}
        Some(v) => problems.push(wrong_type(&t.schema_request, v)),
    }
    let variant = match args.shift_remove(VARIANT) {
        None => Some(SchemaVariant::Validation),
        Some(Value::String(name)) => match SchemaVariant::from_name(&name) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(fill(&t.variant.unknown, &[("error", &e.to_string())]));
                None
            }
        },
        Some(v) => {
            problems.push(wrong_type(&t.variant, &v));
            None
        }
    };
    problems.extend(left_over(GET_PLAN_SCHEMA, &args));
    match (request, variant) {
        (Some(request), Some(variant)) if problems.is_empty() => Ok((request, variant)),
        _ => Err(invalid(GET_PLAN_SCHEMA, &problems)),
    }
}
