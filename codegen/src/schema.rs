//! The one description of the public JSON shapes (validator.md §2, §4, §9; mcp-server.md
//! `save_plan`), as JSON Schema 2020-12 definitions built from the core's registries.
//!
//! Every enumeration is read from the core: [`IssueCode::ALL`], [`Check::ALL`], [`CATEGORIES`],
//! [`WEEKDAYS`], the limits of [`contract()`], [`Applicability::ALL`], [`Stop::ALL`] and
//! [`SchemaVariant::ALL`]. A definition refers to another with `{"$ref": "#/$defs/<name>"}`;
//! every `description` is what the TypeScript and Python renderings write as the doc comment.

use momentum_plan::{
    Applicability, CATEGORIES, CONTRACT_VERSION, Check, FORMAT, IssueCode, SchemaVariant, Stop, WEEKDAYS, contract,
};
use serde_json::{Map, Value, json};

/// The JSON Schema dialect of every generated schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Where a definition is rendered besides the schema document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// In the TypeScript and the Python types (and the MCP schemas when referred to).
    Everywhere,
    /// In the TypeScript only (an options bag Python takes as keyword arguments).
    TypeScript,
    /// Only in the schema document and the MCP schemas (a result no binding returns).
    Mcp,
    /// In the Python types and `js/calendar.d.ts` (so `bindings-node/index.d.ts` and the wasm
    /// package's `index.d.ts`), not in `js/types.d.ts`: the calendar's results (issue 32), which the
    /// wasm package has in its calendar module, not in the validator module that embeds `types.d.ts`.
    Native,
}

/// One named definition of the schema document's `$defs`.
#[derive(Debug, Clone)]
pub struct Def {
    /// The type's name in `$defs`, TypeScript and Python, e.g. `"Verdict"`.
    pub name: &'static str,
    /// Its JSON Schema; `description` is required (the doc comment).
    pub schema: Value,
    /// Where it is rendered.
    pub reach: Reach,
}

/// The description of a calendar export's `events` (the crate's `Export::events`).
const EVENTS: &str = "How many entries the calendar holds: its VEVENTs (a routine) or VTODOs (a goal plan); the VTIMEZONE is not counted.";

/// The description of a calendar export's `warnings` (the crate's `Export::warnings`).
const WARNINGS: &str = "One per block start in a daylight-saving gap or fold within a year of `startDate`, in date order, then block order; empty for goal plans and floating times.";

/// `{"$ref": "#/$defs/<name>"}` with a description.
fn reference(name: &str, description: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}"), "description": description})
}

/// A string member.
fn string(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

/// An array of the definition `name`.
fn array_of(name: &str, description: &str) -> Value {
    json!({"type": "array", "items": {"$ref": format!("#/$defs/{name}")}, "description": description})
}

/// A string enumeration.
fn enumeration<'a>(values: impl IntoIterator<Item = &'a str>, description: &str) -> Value {
    json!({"type": "string", "enum": values.into_iter().collect::<Vec<_>>(), "description": description})
}

/// An object whose members are all required, in this order.
fn object(members: &[(&str, Value)], description: &str) -> Value {
    let properties: Map<String, Value> = members.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect();
    let required: Vec<&str> = members.iter().map(|(k, _)| *k).collect();
    json!({"type": "object", "properties": properties, "required": required, "description": description})
}

/// An RFC 6902 operation `op` with these members after `op`.
fn operation(op: &str, members: &[(&str, Value)]) -> Value {
    let mut all = vec![("op", json!({"type": "string", "const": op, "description": "The operation."}))];
    all.extend(members.iter().cloned());
    object(&all, &format!("An RFC 6902 `{op}` operation; paths are JSON Pointers."))
}

/// The limit names of the contract, in contract order, with their values.
fn limits() -> Vec<(String, Value)> {
    match serde_json::to_value(contract().limits) {
        Ok(Value::Object(m)) => m.into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Every definition, in document order (a definition comes after those it refers to).
#[must_use]
#[allow(clippy::too_many_lines)] // one table of every definition, read top to bottom
pub fn defs() -> Vec<Def> {
    use Reach::{Everywhere, Mcp, Native, TypeScript};
    let limits = limits();
    let limit_members: Vec<(&str, Value)> = limits
        .iter()
        .map(|(k, v)| {
            (
                k.as_str(),
                json!({"type": "integer", "description": format!("{v} in contract version {CONTRACT_VERSION}.")}),
            )
        })
        .collect();
    let pointer = || string("A JSON Pointer into the plan.");
    let value = || reference("JsonValue", "The value.");
    let operations = ["PatchTest", "PatchReplace", "PatchAdd", "PatchRemove", "PatchMove"]
        .map(|n| json!({"$ref": format!("#/$defs/{n}")}));
    vec![
        Def {
            name: "IssueCode",
            schema: enumeration(
                IssueCode::ALL.iter().map(|c| c.as_str()),
                "One of the issue codes of the core's closed registry (validator.md §5–§6), in registry order.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "CheckName",
            schema: enumeration(
                Check::ALL.iter().map(|c| c.as_str()),
                "The name of one of the eight checks, in the order they run (validator.md §4–§5).",
            ),
            reach: Everywhere,
        },
        Def {
            name: "CategoryId",
            schema: enumeration(CATEGORIES.iter().map(|c| c.id), "A category id of the contract (validator.md §2)."),
            reach: Everywhere,
        },
        Def {
            name: "Weekday",
            schema: enumeration(WEEKDAYS, "A weekday id of the contract, `mon` first (validator.md §2)."),
            reach: Everywhere,
        },
        Def {
            name: "Issue",
            schema: object(
                &[
                    ("code", reference("IssueCode", "The stable issue code.")),
                    (
                        "path",
                        string(
                            "Where: a JSONPath from the plan's root `$` (validator.md §4), e.g. `$.routine.blocks[2].start`.",
                        ),
                    ),
                    (
                        "message",
                        string(
                            "What is wrong and what to change, in English, for the model that drafted the plan; never empty.",
                        ),
                    ),
                ],
                "One error or warning (validator.md §4); keys in this order.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "Verdict",
            schema: object(
                &[
                    ("valid", json!({"type": "boolean", "description": "True exactly when `errors` is empty."})),
                    ("errors", array_of("Issue", "The errors, in the order of validator.md §5.")),
                    ("warnings", array_of("Issue", "The warnings (`overnight`), in the order of validator.md §5.")),
                    (
                        "checks",
                        array_of(
                            "CheckName",
                            "The checks that ran, in order: all eight for a plan that is a JSON object, else only `json`.",
                        ),
                    ),
                ],
                "The verdict on a plan (validator.md §4): the core's verdict JSON, keys in this order.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "Category",
            schema: object(
                &[
                    ("id", reference("CategoryId", "The id written in plans, e.g. `body`.")),
                    ("means", string("What the category covers, e.g. `exercise, movement, physical care`.")),
                ],
                "One of the nine categories a block or activity may have (validator.md §2).",
            ),
            reach: Everywhere,
        },
        Def {
            name: "Limits",
            schema: object(
                &limit_members,
                "The declared limits (validator.md §2): counts are items, lengths Unicode scalar values, sizes UTF-8 bytes, times minutes.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "Contract",
            schema: object(
                &[
                    ("format", json!({"type": "string", "const": FORMAT, "description": "The plan format."})),
                    (
                        "contractVersion",
                        json!({"type": "integer", "const": CONTRACT_VERSION, "description": "The contract version."}),
                    ),
                    ("categories", array_of("Category", "The nine categories, in contract order.")),
                    ("weekdays", array_of("Weekday", "The weekday ids, `mon` first.")),
                    ("limits", reference("Limits", "The declared limits.")),
                    (
                        "rules",
                        json!({"type": "array", "items": {"type": "string"}, "description": "The eight rules a drafting model must follow, in contract order."}),
                    ),
                ],
                "The plan contract (validator.md §2), as `get_plan_contract` returns it; keys in this order.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "Applicability",
            schema: enumeration(
                Applicability::ALL.iter().map(|a| a.as_str()),
                "How sure a fix is (validator.md §9): `safe` is applied by default, `unsafe` only when asked, `placeholder` never (it needs a value from the person or the model).",
            ),
            reach: Everywhere,
        },
        Def {
            name: "RepairStop",
            schema: enumeration(
                Stop::ALL.iter().map(|s| s.as_str()),
                "Why the repair loop ended (validator.md §9): no fix left to apply, the round bound, a plan seen before, or a plan that is not a JSON object.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "SchemaVariant",
            schema: enumeration(
                SchemaVariant::ALL.iter().map(|v| v.as_str()),
                "A plan schema variant (validator.md §9): `validation` accepts every plan the validator accepts; `strict` keeps to the providers' structured-output subset.",
            ),
            reach: Everywhere,
        },
        Def { name: "JsonValue", schema: json!({"description": "A JSON value."}), reach: Everywhere },
        Def {
            name: "PatchTest",
            schema: operation("test", &[("path", pointer()), ("value", value())]),
            reach: Everywhere,
        },
        Def {
            name: "PatchReplace",
            schema: operation("replace", &[("path", pointer()), ("value", value())]),
            reach: Everywhere,
        },
        Def {
            name: "PatchAdd",
            schema: operation("add", &[("path", pointer()), ("value", value())]),
            reach: Everywhere,
        },
        Def { name: "PatchRemove", schema: operation("remove", &[("path", pointer())]), reach: Everywhere },
        Def {
            name: "PatchMove",
            schema: operation(
                "move",
                &[("from", string("A JSON Pointer into the plan: what moves.")), ("path", pointer())],
            ),
            reach: Everywhere,
        },
        Def {
            name: "PatchOperation",
            schema: json!({
                "oneOf": operations,
                "description": "One RFC 6902 operation of a repair's patch.",
            }),
            reach: Everywhere,
        },
        Def {
            name: "Fix",
            schema: object(
                &[
                    ("code", reference("IssueCode", "The code of the issue the fix answers.")),
                    ("path", string("The JSONPath of that issue.")),
                    ("applicability", reference("Applicability", "`safe`, `unsafe` or `placeholder`.")),
                    (
                        "description",
                        string("What the fix does, written for the model, e.g. `Write start as \"07:00\".`"),
                    ),
                ],
                "One fix for one issue (validator.md §9); keys in this order.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "Repair",
            schema: object(
                &[
                    ("plan", string("The repaired plan as JSON text (the input itself when nothing was applied).")),
                    (
                        "patch",
                        array_of(
                            "PatchOperation",
                            "The RFC 6902 patch from the input to `plan`; each replaced or removed value is guarded by a `test`.",
                        ),
                    ),
                    ("applied", array_of("Fix", "The fixes applied, in order.")),
                    (
                        "offered",
                        array_of(
                            "Fix",
                            "The fixes offered but not applied (unsafe ones when not asked for, placeholders).",
                        ),
                    ),
                    ("verdict", reference("Verdict", "The verdict on `plan`.")),
                    ("rounds", json!({"type": "integer", "minimum": 0, "description": "Rounds of fixes applied."})),
                    ("stopped", reference("RepairStop", "Why the loop ended.")),
                    (
                        "revealed",
                        array_of(
                            "Issue",
                            "Errors that only became checkable after a fix (they are in `verdict` too unless fixed later).",
                        ),
                    ),
                    (
                        "requestAtFault",
                        json!({"type": "array", "items": {"type": "string"}, "description": "Why no plan can satisfy the request (empty when none): the request must change, not the plan."}),
                    ),
                ],
                "The result of a repair (validator.md §9): the core's Repair JSON, keys in this order.",
            ),
            reach: Everywhere,
        },
        Def {
            name: "RepairOptions",
            schema: json!({
                "type": "object",
                "properties": {"unsafe": {"type": "boolean", "description": "Apply unsafe fixes too (they change meaning); default false."}},
                "description": "The options of a repair.",
            }),
            reach: TypeScript,
        },
        Def {
            name: "PlanSchema",
            schema: json!({
                "type": "object",
                "properties": {
                    "$schema": {"type": "string", "const": DIALECT, "description": "The dialect."},
                    "title": string("The schema's title."),
                    "description": string("What the schema describes."),
                    "type": {"type": "string", "const": "object", "description": "A plan is an object."},
                },
                "required": ["$schema", "title", "description", "type"],
                "additionalProperties": {"$ref": "#/$defs/JsonValue"},
                "description": "A plan schema: JSON Schema 2020-12, as the core's `plan_schema` writes it (validator.md §9).",
            }),
            reach: Everywhere,
        },
        Def {
            name: "CalendarWarning",
            schema: object(
                &[
                    ("date", string("The date, `YYYY-MM-DD`, in the request's `timezone`.")),
                    (
                        "path",
                        string("The block's JSONPath in the plan (validator.md §4), e.g. `$.routine.weekdays.sun[0]`."),
                    ),
                    (
                        "message",
                        string(
                            "English: the local start, why it is a problem that day, and what a calendar does with it (RFC 5545 §3.3.5).",
                        ),
                    ),
                ],
                "A block whose local start does not exist (spring gap) or exists twice (autumn fold) on one date (issue 32).",
            ),
            reach: Native,
        },
        Def {
            name: "CalendarExport",
            schema: object(
                &[
                    (
                        "text",
                        string(
                            "The VCALENDAR object (RFC 5545): UTF-8, lines ended by CRLF and folded at 75 octets; the same bytes on every surface.",
                        ),
                    ),
                    ("events", json!({"type": "integer", "minimum": 0, "description": EVENTS})),
                    ("warnings", array_of("CalendarWarning", WARNINGS)),
                ],
                "A valid plan as an iCalendar object (issue 32; momentum-plan-calendar's `Export`): a routine's blocks as weekly VEVENTs from the request's `startDate` in its `timezone`, a goal plan's activities as VTODOs.",
            ),
            reach: Native,
        },
        Def {
            name: "Commitment",
            schema: object(
                &[
                    ("label", string("The event's SUMMARY (trimmed); `Busy` when it has none.")),
                    ("days", array_of("Weekday", "The weekdays it occurs on in the week, in week order.")),
                    ("start", string("Local start `HH:MM` in the request's timezone (seconds dropped).")),
                    (
                        "end",
                        string(
                            "Local end `HH:MM` (seconds rounded up); not after `start` when it runs past midnight (a night shift).",
                        ),
                    ),
                ],
                "One commitment of a request (validator.md §3), as read from a calendar.",
            ),
            reach: Native,
        },
        Def {
            name: "SkippedEvent",
            schema: object(
                &[
                    ("uid", string("The event's UID (empty when it has none).")),
                    ("summary", string("The event's SUMMARY (empty when it has none).")),
                    (
                        "why",
                        string("Why it is not a commitment, in English (all-day, free, cancelled, unknown zone, ...)."),
                    ),
                ],
                "An event of the week left out of the commitments, and why.",
            ),
            reach: Native,
        },
        Def {
            name: "CalendarCommitments",
            schema: object(
                &[
                    (
                        "commitments",
                        array_of(
                            "Commitment",
                            "The request's `commitments` for the week: one per distinct (label, start, end), in order of first occurrence, then label.",
                        ),
                    ),
                    ("skipped", array_of("SkippedEvent", "The events of the week left out, in file order.")),
                ],
                "The commitments of one week read from a calendar file (issue 32; momentum-plan-calendar's `Imported`).",
            ),
            reach: Native,
        },
        Def {
            name: "ExportCalendarResult",
            schema: object(
                &[
                    (
                        "uri",
                        string(
                            "The uri of the calendar, the result's embedded resource (`text/calendar`): `calendar://<requestId>.ics`, the requestId percent-encoded (the catalog's `calendar.uriTemplate`).",
                        ),
                    ),
                    ("events", json!({"type": "integer", "minimum": 0, "description": EVENTS})),
                    ("warnings", array_of("CalendarWarning", WARNINGS)),
                ],
                "The structuredContent of the MCP tool `export_calendar` (issue 32): the calendar text itself is the result's embedded resource.",
            ),
            reach: Mcp,
        },
        Def {
            name: "SaveResult",
            schema: object(
                &[
                    ("saved", json!({"type": "boolean", "description": "Whether the plan was written."})),
                    ("planId", string("The id it is saved under: the plan's requestId.")),
                    ("uri", string("The resource URI of the saved plan, `plan://<planId>`.")),
                    ("warnings", array_of("Issue", "Why the plan was left as it was (`notSaved`), else empty.")),
                ],
                "The result of the MCP tool `save_plan` (mcp-server.md).",
            ),
            reach: Mcp,
        },
    ]
}

/// The schema document: every definition under `$defs` (pretty-printed in
/// `schemas/momentum-plan.schema.json`).
#[must_use]
pub fn document() -> Value {
    let defs: Map<String, Value> = defs().into_iter().map(|d| (d.name.to_owned(), d.schema)).collect();
    json!({
        "$schema": DIALECT,
        "title": "momentum-plan",
        "description": "The JSON shapes of momentum-plan (validator.md §2, §4, §9; mcp-server.md): the verdict, the contract, the repair and the MCP tool results. GENERATED by `cargo run -p momentum-plan-codegen` from the core's registries; do not edit.",
        "$defs": defs,
    })
}

/// The definition named by a `$ref` (`#/$defs/<name>`).
pub(crate) fn ref_name(reference: &str) -> Option<&str> {
    reference.strip_prefix("#/$defs/")
}

/// `schema` with every `$ref` replaced by its definition (recursively), and, when
/// `descriptions` is false, without `description` members: the self-contained form of an MCP
/// `outputSchema`.
#[must_use]
pub fn inline(schema: &Value, defs: &[Def], descriptions: bool) -> Value {
    match schema {
        Value::Object(m) => {
            let mut out = Map::new();
            if let Some(target) = m.get("$ref").and_then(Value::as_str).and_then(ref_name)
                && let Some(def) = defs.iter().find(|d| d.name == target)
                && let Value::Object(inner) = inline(&def.schema, defs, descriptions)
            {
                out = inner;
            }
            for (k, v) in m {
                if k == "$ref" || (!descriptions && k == "description") {
                    continue;
                }
                let v = if k == "properties" || k == "$defs" {
                    Value::Object(
                        v.as_object()
                            .into_iter()
                            .flatten()
                            .map(|(name, s)| (name.clone(), inline(s, defs, descriptions)))
                            .collect(),
                    )
                } else {
                    inline(v, defs, descriptions)
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|s| inline(s, defs, descriptions)).collect()),
        other => other.clone(),
    }
}
