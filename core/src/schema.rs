//! The plan schema (validator.md §9): a JSON Schema 2020-12 of the plan a request asks for,
//! generated from the contract's registries ([`CATEGORIES`], [`WEEKDAYS`], [`LIMITS`], [`FORMAT`])
//! and the request, never written by hand.
//!
//! Two variants ([`SchemaVariant`]):
//! - `validation`: accepts every plan the validator accepts for the request, and rejects what a
//!   schema can express (types, the nine categories, `HH:MM`, integer ranges, lengths, counts,
//!   required members, the `requestId`, `kind` and `request` echo). Objects stay open.
//! - `strict`: for a host that constrains its model's output (structured outputs). It keeps to the
//!   subset the major providers accept: every object closed and fully required, single-value
//!   `enum` instead of `const`, anchored patterns, no `$ref`, no numeric or length bounds (they go
//!   in `description`), no null unions, and no `request` member (`repair` copies the echo).
//!
//! What a schema cannot express stays the validator's: start order and overlap, midnight,
//! commitments, feasibility, distinct activity names, the payload size, integer *literals*
//! (`30.0` is an integer to JSON Schema, not to the validator, §7).

use crate::contract::{CATEGORIES, FORMAT, LIMITS, WEEKDAYS};
use crate::json;
use crate::tree::Node;
use crate::verdict::IssueCode;
use serde_json::{Value, json};
use std::fmt;

/// Which plan schema (validator.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaVariant {
    /// Accepts every plan the validator accepts; open objects, bounds included.
    Validation,
    /// The structured-output subset: closed objects, all members required, no bounds, no `$ref`.
    Strict,
}

impl SchemaVariant {
    /// Both variants, `validation` first.
    pub const ALL: [SchemaVariant; 2] = [SchemaVariant::Validation, SchemaVariant::Strict];

    /// `validation` or `strict`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            SchemaVariant::Validation => "validation",
            SchemaVariant::Strict => "strict",
        }
    }

    /// The variant named `name`.
    ///
    /// # Errors
    /// [`SchemaError::UnknownVariant`] for any other name.
    pub fn from_name(name: &str) -> Result<SchemaVariant, SchemaError> {
        SchemaVariant::ALL
            .into_iter()
            .find(|v| v.as_str() == name)
            .ok_or_else(|| SchemaError::UnknownVariant(crate::quote::clip(name, 40)))
    }
}

/// Why no plan schema can be given.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaError {
    /// A variant name other than `validation` and `strict` (the name, cut to 40 characters).
    UnknownVariant(String),
    /// The request is at fault, so no plan can satisfy it (validator.md §9): the reasons, each a
    /// sentence (the validator's `requestInvalid` messages, and a `kind` that is neither `routine`
    /// nor `goal`). The request must change, not the plan.
    RequestAtFault(Vec<String>),
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::UnknownVariant(name) => {
                write!(f, "unknown schema variant \"{name}\"; use \"validation\" or \"strict\"")
            }
            SchemaError::RequestAtFault(reasons) => {
                write!(f, "no plan can satisfy this request; the request must change: {}", reasons.join(" "))
            }
        }
    }
}

impl std::error::Error for SchemaError {}

/// The faults of `request` that no plan can make up for (validator.md §9): the validator's own
/// `requestInvalid` messages (its request check, run once, is the one place of those rules), then
/// a `kind` that is neither `routine` nor `goal`.
pub(crate) fn request_faults(request: &Value) -> Vec<String> {
    let probe = Value::Object(serde_json::Map::new());
    let verdict = crate::validate(&probe, request);
    let mut out: Vec<String> = verdict
        .errors
        .into_iter()
        .filter(|i| i.code == IssueCode::RequestInvalid)
        .map(|i| format!("{} ({})", i.message, i.path))
        .collect();
    match request.get("kind").and_then(Value::as_str) {
        Some("routine" | "goal") => {}
        _ => out.push(format!(
            "The request's kind is {}; it must be \"routine\" or \"goal\" ($.request.kind).",
            request.get("kind").map_or_else(|| "missing".to_owned(), |k| crate::quote::clip(&k.to_string(), 60))
        )),
    }
    out
}

/// The JSON Schema (2020-12) of the plan that answers `request` (validator.md §9), as a value
/// whose member order is fixed, so its compact JSON is the same bytes on every surface.
///
/// Input: the request (any JSON value); the variant. Output: the schema object.
///
/// # Errors
/// [`SchemaError::RequestAtFault`] when the request itself is at fault (a `requestInvalid`, or a
/// `kind` that is neither `routine` nor `goal`): no plan can satisfy it.
pub fn plan_schema(request: &Value, variant: SchemaVariant) -> Result<Value, SchemaError> {
    let faults = request_faults(request);
    if !faults.is_empty() {
        return Err(SchemaError::RequestAtFault(faults));
    }
    let kind = request.get("kind").and_then(Value::as_str).unwrap_or("routine");
    Ok(match variant {
        SchemaVariant::Validation => validation(request, kind),
        SchemaVariant::Strict => strict(request, kind),
    })
}

/// `HH:MM`, `00:00`..`23:59` (D11: two ASCII digits, a colon, two ASCII digits).
const TIME_PATTERN: &str = "^([01][0-9]|2[0-3]):[0-5][0-9]$";

/// The white space of "blank" (§6: Python's `str.strip()`) as a regex class body of `\uXXXX`
/// escapes and ranges. Written out once; the unit test `the_blank_class_is_the_validators_white_space`
/// regenerates it from the validator's own predicate (`json::is_blank_char`) over every character,
/// so it cannot go stale.
const BLANK_CLASS: &str =
    "\\u0009-\\u000D\\u001C-\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028-\\u2029\\u202F\\u205F\\u3000";

/// The category ids, in contract order.
fn category_ids() -> Vec<&'static str> {
    CATEGORIES.iter().map(|c| c.id).collect()
}

/// The contract's categories in words, for descriptions.
fn category_words() -> String {
    CATEGORIES.iter().map(|c| format!("{} ({})", c.id, c.means)).collect::<Vec<_>>().join(", ")
}

/// The request's `days` when it is a whole number ≥ 1 (the validator's reading, §5.8, D1).
fn request_days(request: &Value) -> Option<i64> {
    let days = request.get("days")?;
    let arena = crate::tree::arena_for(0);
    json::integer(&Node::from_value(days, 1, &arena)).filter(|n| *n >= 1)
}

fn validation(request: &Value, kind: &str) -> Value {
    let not_blank = format!("[^{BLANK_CLASS}]");
    let text = |max: Option<u32>| match max {
        Some(n) => json!({"type": "string", "maxLength": n, "pattern": not_blank}),
        None => json!({"type": "string", "pattern": not_blank}),
    };
    let emptyish = json!({"enum": [null, false, 0, "", [], {}]});
    let mut required = vec!["format", "contractVersion"];
    let request_id = request.get("requestId");
    if request_id.is_some() {
        required.push("requestId");
    }
    required.extend(["kind", "name", "tagline", "description", kind, "request"]);
    let body = if kind == "goal" {
        let days = match request_days(request) {
            Some(n) => json!({"type": "array", "minItems": n, "maxItems": n.min(i64::from(LIMITS.plan_days)),
                "items": {"$ref": "#/$defs/goalDay"}}),
            None => json!({"type": "array", "minItems": 1, "maxItems": LIMITS.plan_days,
                "items": {"$ref": "#/$defs/goalDay"}}),
        };
        json!({"type": "object", "required": ["days"], "properties": {"days": days}})
    } else {
        json!({"type": "object", "required": ["blocks"], "properties": {
            "blocks": {"$ref": "#/$defs/day"},
            "weekdays": {"anyOf": [
                {"type": "object", "propertyNames": {"enum": WEEKDAYS}, "additionalProperties": {"$ref": "#/$defs/day"}},
                emptyish,
            ]},
        }})
    };
    let defs = if kind == "goal" {
        json!({
            "goalDay": {"type": "object", "properties": {"activities": {"anyOf": [
                {"type": "array", "maxItems": LIMITS.activities_per_day, "items": {"$ref": "#/$defs/activity"}},
                emptyish,
            ]}}},
            "activity": {"type": "object",
                "required": ["title", "activity", "category", "minutes", "guidance", "doneWhen"],
                "properties": {
                    "title": text(None),
                    "activity": text(Some(LIMITS.activity)),
                    "category": {"enum": category_ids()},
                    "minutes": {"type": "integer", "minimum": 1, "maximum": LIMITS.minutes_per_activity},
                    "guidance": text(Some(LIMITS.guidance)),
                    "doneWhen": text(None),
                }},
        })
    } else {
        json!({
            "day": {"type": "array", "minItems": 1, "maxItems": LIMITS.blocks_per_day, "items": {"$ref": "#/$defs/block"}},
            "block": {"type": "object",
                "required": ["start", "durationMin", "activity", "category", "essential"],
                "properties": {
                    "start": {"type": "string", "pattern": TIME_PATTERN},
                    "durationMin": {"type": "integer", "minimum": 1, "maximum": LIMITS.minutes_per_activity},
                    "activity": text(Some(LIMITS.activity)),
                    "category": {"enum": category_ids()},
                    "essential": {"type": "boolean"},
                }},
        })
    };
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("{FORMAT} ({kind}), validation schema"),
        "description": "Accepts every plan the momentum-plan validator accepts for this request. Start order, overlap, \
            midnight, commitments, feasibility, distinct activity names, the payload size and integer literals \
            (30.0 is not an integer) are checked by the validator only.",
        "type": "object",
        "required": required,
        "properties": {
            "format": {"const": FORMAT},
            "contractVersion": {"const": 1},
            "requestId": {"const": request_id.cloned().unwrap_or(Value::Null)},
            "kind": {"const": kind},
            "name": text(Some(LIMITS.name)),
            "tagline": text(Some(LIMITS.tagline)),
            "description": text(Some(LIMITS.description)),
            kind: body,
            "request": {"const": request},
        },
        "$defs": defs,
    })
}

fn strict(request: &Value, kind: &str) -> Value {
    let text = |what: String| json!({"type": "string", "pattern": format!("^[^{BLANK_CLASS}]([\\s\\S]*[^{BLANK_CLASS}])?$"), "description": what});
    let one = |v: &Value| -> Value {
        let ty = match v {
            Value::String(_) => "string",
            Value::Number(_) => "number",
            Value::Bool(_) => "boolean",
            _ => "null",
        };
        json!({"type": ty, "enum": [v]})
    };
    let category = json!({"type": "string", "enum": category_ids(),
        "description": format!("one of the nine categories: {}", category_words())});
    let minutes = |what: &str| json!({"type": "integer", "description": format!("{what}: whole minutes, 1-{}", LIMITS.minutes_per_activity)});
    let body = if kind == "goal" {
        let count = request_days(request).map_or_else(
            || format!("1-{} days", LIMITS.plan_days),
            |n| format!("exactly {n} days (the request's days)"),
        );
        let activity = json!({"type": "object", "additionalProperties": false,
        "required": ["title", "activity", "category", "minutes", "guidance", "doneWhen"],
        "properties": {
            "title": text("a short title".to_owned()),
            "activity": text(format!("the activity's name, at most {} characters; the same name for the same kind of thing", LIMITS.activity)),
            "category": category,
            "minutes": minutes("how long"),
            "guidance": text(format!("how to do it, at most {} characters", LIMITS.guidance)),
            "doneWhen": text("how the person knows it is done".to_owned()),
        }});
        let day = json!({"type": "object", "additionalProperties": false, "required": ["activities"],
            "properties": {"activities": {"type": "array", "items": activity,
                "description": format!("at most {} activities, at most {} minutes in all", LIMITS.activities_per_day, LIMITS.minutes_per_day)}}});
        json!({"type": "object", "additionalProperties": false, "required": ["days"],
            "properties": {"days": {"type": "array", "items": day, "description": count}}})
    } else {
        let block = json!({"type": "object", "additionalProperties": false,
        "required": ["start", "durationMin", "activity", "category", "essential"],
        "properties": {
            "start": {"type": "string", "pattern": TIME_PATTERN, "description": "24-hour HH:MM, 00:00-23:59, in the request's timezone"},
            "durationMin": minutes("how long"),
            "activity": text(format!("the activity's name, at most {} characters; a commitment's block uses the commitment's label exactly", LIMITS.activity)),
            "category": category,
            "essential": {"type": "boolean"},
        }});
        json!({"type": "object", "additionalProperties": false, "required": ["blocks"],
            "properties": {"blocks": {"type": "array", "items": block,
                "description": format!("one day, repeated every day: 1-{} blocks in start order, never overlapping, none past midnight except a final rest block; never over a commitment unless the block is that commitment", LIMITS.blocks_per_day)}}})
    };
    let mut properties = serde_json::Map::new();
    properties.insert("format".to_owned(), one(&Value::String(FORMAT.to_owned())));
    properties.insert("contractVersion".to_owned(), json!({"type": "integer", "enum": [1]}));
    // A request without a string requestId: the plan leaves it out (no null unions in this subset).
    if let Some(id) = request.get("requestId").filter(|v| v.is_string() || v.is_number() || v.is_boolean()) {
        properties.insert("requestId".to_owned(), one(id));
    }
    properties.insert("kind".to_owned(), one(&Value::String(kind.to_owned())));
    properties.insert("name".to_owned(), text(format!("the plan's name, at most {} characters", LIMITS.name)));
    properties.insert("tagline".to_owned(), text(format!("one line, at most {} characters", LIMITS.tagline)));
    properties.insert("description".to_owned(), text(format!("at most {} characters", LIMITS.description)));
    properties.insert(kind.to_owned(), body);
    let required: Vec<String> = properties.keys().cloned().collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("{FORMAT} ({kind}), strict schema for structured outputs"),
        "description": "Every member is required and no other is allowed. Add the request object unchanged under \
            \"request\" after generating (repair_plan does it), then validate.",
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": properties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::is_blank_char;
    use std::fmt::Write as _;

    /// The class written from the predicate, over every character.
    fn generated_class() -> String {
        let mut out = String::new();
        let mut c = 0u32;
        while c <= 0x10_FFFF {
            if char::from_u32(c).is_some_and(is_blank_char) {
                let start = c;
                while char::from_u32(c + 1).is_some_and(is_blank_char) {
                    c += 1;
                }
                let _ = write!(out, "\\u{start:04X}");
                if c > start {
                    let _ = write!(out, "-\\u{c:04X}");
                }
            }
            c += 1;
        }
        out
    }

    #[test]
    fn the_blank_class_is_the_validators_white_space() {
        assert_eq!(BLANK_CLASS, generated_class());
        assert!(!BLANK_CLASS.contains("FEFF"));
    }

    #[test]
    fn variants_by_name_and_faulty_requests() {
        assert_eq!(SchemaVariant::from_name("strict"), Ok(SchemaVariant::Strict));
        let e = SchemaVariant::from_name("loose").unwrap_err();
        assert_eq!(e.to_string(), "unknown schema variant \"loose\"; use \"validation\" or \"strict\"");
        let e = plan_schema(&json!({"requestId": "r", "kind": "daily"}), SchemaVariant::Validation).unwrap_err();
        assert!(e.to_string().contains("The request's kind is \"daily\""), "{e}");
        let e = plan_schema(&json!([1]), SchemaVariant::Strict).unwrap_err();
        assert!(e.to_string().contains("not a JSON object"), "{e}");
        let e = plan_schema(&json!({"kind": "goal", "days": 0}), SchemaVariant::Strict).unwrap_err();
        assert!(e.to_string().contains("$.request.days"), "{e}");
    }
}
