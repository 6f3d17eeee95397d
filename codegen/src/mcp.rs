//! The MCP tools' `inputSchema`s and `outputSchema`s (mcp-server.md "Catalog"), in catalog order:
//! the schemas of [`crate::catalog::catalog`]'s tools.
//!
//! An `outputSchema` is its definition of [`crate::schema::defs`] made self-contained (every `$ref`
//! inlined) and without descriptions, so `tools/list` stays small; no `$schema` member (the MCP
//! default dialect is 2020-12).

use crate::schema::{Def, defs, inline};
use momentum_plan::SchemaVariant;
use serde_json::{Map, Value, json};

/// The description of `plan` in every tool that takes one.
const PLAN: &str = "The plan: a JSON object of the daily-momentum-ai-plan shape, or its JSON text as one string.";
/// The description of `request` in the tools that take a plan.
const REQUEST: &str = "The request the plan answers, exactly as it was given (a JSON object).";

/// The `inputSchema` of `validate_plan` and `save_plan`.
fn plan_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "plan": {"type": ["object", "string"], "description": PLAN},
            "request": {"type": "object", "description": REQUEST},
        },
        "required": ["plan", "request"],
        "additionalProperties": false,
    })
}

/// The `inputSchema` of `repair_plan`: as `validate_plan`'s, and `unsafe`.
fn repair_input() -> Value {
    let mut schema = plan_input();
    schema["properties"]["unsafe"] = json!({
        "type": "boolean",
        "default": false,
        "description": "Also apply the unsafe fixes, which change meaning (a category synonym, a moved or shortened block). Only when the user agrees.",
    });
    schema
}

/// The `inputSchema` of `get_plan_schema`: `request` and a `variant` of [`SchemaVariant::ALL`].
fn schema_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "request": {"type": "object", "description": "The request the plan must answer, exactly as it was given (a JSON object)."},
            "variant": {
                "type": "string",
                "enum": SchemaVariant::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
                "default": SchemaVariant::Validation.as_str(),
                "description": "\"validation\" (default): accepts every plan the validator accepts. \"strict\": the subset structured-output features of model providers accept.",
            },
        },
        "required": ["request"],
        "additionalProperties": false,
    })
}

/// The `inputSchema` of `export_calendar`: as `validate_plan`'s, and `dtstamp`.
fn export_input() -> Value {
    let mut schema = plan_input();
    schema["properties"]["dtstamp"] = json!({
        "type": "string",
        "pattern": "^[0-9]{8}T[0-9]{6}Z$",
        "description": "The DTSTAMP of every entry, a UTC date-time YYYYMMDDTHHMMSSZ (RFC 5545 §3.8.7.2), e.g. \"20261207T120000Z\". Absent: the server's clock, now.",
    });
    schema
}

/// The `inputSchema` of `import_commitments`: the calendar text and the week it is read for.
fn import_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "calendar": {"type": "string", "description": "The calendar file's text: an iCalendar object (RFC 5545), as a calendar app exports it."},
            "startDate": {"type": "string", "description": "The week's first day, YYYY-MM-DD: the request's startDate. The week is seven days from its midnight."},
            "timezone": {"type": "string", "description": "The request's time zone, a tz database name such as \"Europe/Zurich\": the commitments' times are local times there."},
        },
        "required": ["calendar", "startDate", "timezone"],
        "additionalProperties": false,
    })
}

/// The self-contained schema of the definition `name`, without descriptions.
fn output(defs: &[Def], name: &str) -> Value {
    inline(&json!({"$ref": format!("#/$defs/{name}")}), defs, false)
}

/// `{tool name: {"inputSchema", "outputSchema"}}` for every tool, in catalog order.
#[must_use]
pub fn tool_schemas() -> Value {
    let defs = defs();
    let tools = [
        ("get_plan_contract", json!({"type": "object", "additionalProperties": false}), output(&defs, "Contract")),
        ("validate_plan", plan_input(), output(&defs, "Verdict")),
        ("repair_plan", repair_input(), output(&defs, "Repair")),
        (
            "get_plan_schema",
            schema_input(),
            json!({"type": "object", "description": "A JSON Schema (2020-12) of the plan that answers the request."}),
        ),
        ("export_calendar", export_input(), output(&defs, "ExportCalendarResult")),
        ("import_commitments", import_input(), output(&defs, "CalendarCommitments")),
        ("save_plan", plan_input(), output(&defs, "SaveResult")),
    ];
    let map: Map<String, Value> = tools
        .into_iter()
        .map(|(name, input, out)| (name.to_owned(), json!({"inputSchema": input, "outputSchema": out})))
        .collect();
    Value::Object(map)
}
