//! The plan schema (validator.md §9) against every shared vector, checked with an independent
//! JSON Schema validator (the `jsonschema` crate, Draft 2020-12):
//! - the `validation` schema accepts every valid vector's plan, and rejects at least 70 % of the
//!   invalid object plans whose request a plan can satisfy (the share is printed);
//! - a request at fault (the vectors whose every plan is invalid for the request's sake) gives
//!   `SchemaError::RequestAtFault`, never a schema;
//! - the `strict` schema stays inside the structured-output subset written down as data in
//!   `tests/data/structured-outputs.json`, and accepts the bundled examples once their `request`
//!   echo is left out (what a constrained model would write).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{SchemaError, SchemaVariant, Value, plan_schema};
use std::collections::{BTreeMap, BTreeSet};

/// `v` with every object's members in sorted order: the same JSON value. The `jsonschema` crate
/// compares objects for `const` member by member in order when `serde_json` keeps insertion order
/// (`preserve_order`, on in this workspace), so both sides are sorted before it compares.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&m[k]))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// `plan` with only the members `schema` names (recursively): the canonical form a model
/// constrained by a closed schema writes.
fn project(plan: &Value, schema: &Value) -> Value {
    match (plan, schema.get("properties").and_then(Value::as_object), schema.get("items")) {
        (Value::Object(m), Some(props), _) => {
            Value::Object(m.iter().filter_map(|(k, v)| props.get(k).map(|s| (k.clone(), project(v, s)))).collect())
        }
        (Value::Array(a), _, Some(items)) => Value::Array(a.iter().map(|v| project(v, items)).collect()),
        (other, _, _) => other.clone(),
    }
}

fn compiled(schema: &Value) -> jsonschema::Validator {
    let schema = &sorted(schema);
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("the schema does not compile: {e}\n{schema}"))
}

#[test]
fn the_validation_schema_accepts_every_valid_plan_and_rejects_most_invalid_ones() {
    let files = common::vector_files();
    let mut schemas: BTreeMap<String, Option<jsonschema::Validator>> = BTreeMap::new();
    let (mut valid, mut invalid, mut rejected, mut at_fault) = (0usize, 0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for file in &files {
        for line in std::fs::read_to_string(file).expect("readable").lines().filter(|l| !l.trim().is_empty()) {
            let rec = momentum_plan::parse_json(line).expect("vector line is JSON");
            let (id, request) = (rec["id"].as_str().unwrap_or("?").to_owned(), &rec["request"]);
            let expect_valid = rec["expect"]["valid"].as_bool().expect("expect.valid");
            // The plan as a value: an object, or text that is a JSON object.
            let plan = match &rec["plan"] {
                Value::String(text) => match momentum_plan::parse_json(text) {
                    Ok(v) if v.is_object() => v,
                    _ => continue,
                },
                v if v.is_object() => v.clone(),
                _ => continue,
            };
            let key = serde_json::to_string(request).expect("serializable");
            let schema = schemas.entry(key).or_insert_with(|| match plan_schema(request, SchemaVariant::Validation) {
                Ok(s) => Some(compiled(&s)),
                Err(SchemaError::RequestAtFault(_)) => None,
                Err(e) => panic!("{id}: {e}"),
            });
            let Some(schema) = schema else {
                // No plan satisfies a request at fault: the validator agrees.
                at_fault += 1;
                if expect_valid {
                    failures.push(format!("{id}: a valid plan, but the schema call says the request is at fault"));
                }
                continue;
            };
            let plan = sorted(&plan);
            let accepted = schema.is_valid(&plan);
            if expect_valid {
                valid += 1;
                if !accepted {
                    let why: Vec<String> = schema.iter_errors(&plan).take(3).map(|e| e.to_string()).collect();
                    failures.push(format!("{id}: a valid plan is rejected: {}", why.join("; ")));
                }
            } else {
                invalid += 1;
                rejected += usize::from(!accepted);
            }
        }
    }
    let share = 100.0 * rejected as f64 / invalid.max(1) as f64;
    println!(
        "validation schema: {valid} valid plans accepted of {valid}; {rejected} of {invalid} invalid object plans \
         rejected ({share:.1} %); {at_fault} plans answer a request at fault; {} distinct requests",
        schemas.len()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
    assert!(valid >= 1_000, "only {valid} valid plans found");
    assert!(share >= 70.0, "the validation schema rejects only {share:.1} % of invalid plans");
}

/// Every keyword used anywhere in `schema` (member names of schema objects, not of `properties`
/// or `$defs`, whose members are names chosen by the schema).
fn keywords(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(m) => {
            for (k, v) in m {
                out.insert(k.clone());
                match k.as_str() {
                    "properties" | "$defs" => v.as_object().into_iter().flatten().for_each(|(_, s)| keywords(s, out)),
                    "enum" | "const" | "required" | "description" | "title" | "pattern" | "type" | "$schema" => {}
                    _ => keywords(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|s| keywords(s, out)),
        _ => {}
    }
}

/// Every schema object in `schema` (itself, and the subschemas of `properties`, `items`, `anyOf`,
/// `additionalProperties`).
fn subschemas<'a>(schema: &'a Value, out: &mut Vec<&'a Value>) {
    out.push(schema);
    if let Some(p) = schema.get("properties").and_then(Value::as_object) {
        p.values().for_each(|s| subschemas(s, out));
    }
    for k in ["items", "additionalProperties"] {
        if let Some(s) = schema.get(k).filter(|s| s.is_object()) {
            subschemas(s, out);
        }
    }
    if let Some(list) = schema.get("anyOf").and_then(Value::as_array) {
        for s in list {
            subschemas(s, out);
        }
    }
}

/// Whether `schema` keeps the rule named `rule` (the rule names of the data file).
fn keeps(rule: &str, schema: &Value) -> Result<(), String> {
    let mut all = Vec::new();
    subschemas(schema, &mut all);
    let objects = all.iter().filter(|s| s.get("type").and_then(Value::as_str) == Some("object"));
    let patterns: Vec<&str> = all.iter().filter_map(|s| s.get("pattern").and_then(Value::as_str)).collect();
    let fail = |what: String| Err(format!("{rule}: {what}"));
    match rule {
        "root-object" => {
            if schema.get("type").and_then(Value::as_str) != Some("object") {
                return fail("the root is not an object".to_owned());
            }
        }
        "closed-objects" => {
            for o in objects {
                if o.get("additionalProperties") != Some(&Value::Bool(false)) {
                    return fail(format!("an open object: {o}"));
                }
            }
        }
        "all-required" => {
            for o in objects {
                let props: BTreeSet<&str> = o
                    .get("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k.as_str())
                    .collect();
                let required: BTreeSet<&str> = o
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if props != required {
                    return fail(format!("properties {props:?} but required {required:?}"));
                }
            }
        }
        "anchored-patterns" => {
            if let Some(p) = patterns.iter().find(|p| !(p.starts_with('^') && p.ends_with('$'))) {
                return fail(format!("pattern {p}"));
            }
        }
        "no-lookaround" => {
            if let Some(p) = patterns.iter().find(|p| p.contains("(?=") || p.contains("(?!") || p.contains("(?<")) {
                return fail(format!("pattern {p}"));
            }
        }
        "no-ref" => {
            let text = schema.to_string();
            if text.contains("\"$ref\"") || text.contains("\"$defs\"") {
                return fail("a $ref or $defs".to_owned());
            }
        }
        "no-numeric-bounds" | "no-length-bounds" => {
            let words: &[&str] = if rule == "no-numeric-bounds" {
                &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
            } else {
                &["minLength", "maxLength"]
            };
            let mut used = BTreeSet::new();
            keywords(schema, &mut used);
            if let Some(w) = words.iter().find(|w| used.contains(**w)) {
                return fail(format!("uses {w}"));
            }
        }
        other => return Err(format!("no checker for the rule {other:?}: add one to tests/schema.rs")),
    }
    Ok(())
}

#[test]
fn the_strict_schema_stays_inside_every_providers_subset() {
    let data: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("core/tests/data/structured-outputs.json"))
            .expect("data readable"),
    )
    .expect("data is JSON");
    let providers = data["providers"].as_object().expect("providers");
    let mut allowed: Option<BTreeSet<String>> = None;
    let mut rules = BTreeSet::new();
    for p in providers.values() {
        let kw: BTreeSet<String> =
            p["keywords"].as_array().expect("keywords").iter().filter_map(|k| k.as_str().map(str::to_owned)).collect();
        allowed = Some(match allowed {
            None => kw,
            Some(a) => a.intersection(&kw).cloned().collect(),
        });
        rules.extend(p["rules"].as_array().expect("rules").iter().filter_map(Value::as_str));
    }
    let allowed = allowed.expect("at least one provider");

    let examples = ["calm-weekday", "week-with-choir", "first-5k"];
    for name in examples {
        let request = common::example(&format!("{name}.request.json"));
        let schema = plan_schema(&request, SchemaVariant::Strict).expect("the example request is sound");
        let mut used = BTreeSet::new();
        keywords(&schema, &mut used);
        let outside: Vec<&String> = used.difference(&allowed).collect();
        assert!(outside.is_empty(), "{name}: keywords outside the common subset: {outside:?}");
        for rule in &rules {
            if let Err(e) = keeps(rule, &schema) {
                panic!("{name}: {e}");
            }
        }
        // The plan a constrained model writes: the example with only the members the closed
        // schema names (no `request` echo, no weekday lists, no extra members).
        let plan = sorted(&project(&common::example(&format!("{name}.plan.json")), &schema));
        let v = compiled(&schema);
        let why: Vec<String> = v.iter_errors(&plan).take(3).map(|e| e.to_string()).collect();
        assert!(why.is_empty(), "{name}: the strict schema rejects the example: {why:?}");
    }
}

#[test]
fn schemas_are_deterministic_and_compile_for_both_kinds() {
    for name in ["calm-weekday", "first-5k"] {
        let request = common::example(&format!("{name}.request.json"));
        for variant in SchemaVariant::ALL {
            let a = plan_schema(&request, variant).expect("sound request");
            assert_eq!(
                serde_json::to_string(&a).ok(),
                serde_json::to_string(&plan_schema(&request, variant).expect("sound")).ok()
            );
            compiled(&a);
            let kind = request["kind"].as_str().expect("kind");
            assert!(a["properties"].get(kind).is_some(), "{name} {}: no {kind} body", variant.as_str());
            assert!(a["properties"]["kind"].to_string().contains(kind), "{name}: kind is not {kind}");
        }
    }
}
