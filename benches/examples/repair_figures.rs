//! The figures of issue 13 on the shared vectors (`../shared/vectors`, beside the workspace), as
//! Markdown for `benches/report`: how many invalid plans `repair` makes valid with safe fixes alone
//! and with unsafe ones too, the error occurrences removed, the rounds needed; and how the
//! `validation` plan schema judges the vectors' plans (checked with the `jsonschema` crate).
//! Deterministic counts, not timings; the guarantees themselves are tests
//! (`core/tests/repair.rs`, `core/tests/schema.rs`).
#![allow(missing_docs, clippy::disallowed_methods, clippy::disallowed_macros)]

use momentum_plan::{Input, RepairOptions, SchemaVariant, Value, plan_schema, repair, validate};
use std::collections::BTreeMap;

/// Every object's members sorted (the `jsonschema` crate compares `const` objects member by member
/// in insertion order under `serde_json`'s `preserve_order`).
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

fn main() {
    let levels = [RepairOptions::default(), RepairOptions { unsafe_fixes: true, ..RepairOptions::default() }];
    let (mut invalid, mut at_fault, mut errors) = (0usize, 0usize, 0usize);
    let (mut valid_after, mut errors_after) = ([0usize; 2], [0usize; 2]);
    let mut rounds: [BTreeMap<u32, usize>; 2] = [BTreeMap::new(), BTreeMap::new()];
    let (mut valid_plans, mut accepted, mut invalid_objects, mut rejected, mut no_schema) = (0, 0, 0, 0, 0);
    let mut schemas: BTreeMap<String, Option<jsonschema::Validator>> = BTreeMap::new();
    for rec in momentum_plan_testkit::vectors() {
        let (plan, request) = (&rec["plan"], &rec["request"]);
        let before = validate(plan, request);
        let input = match plan {
            Value::String(t) => Input::Text(t),
            v => Input::Value(v),
        };
        if !before.valid {
            invalid += 1;
            errors += before.errors.len();
            for (k, options) in levels.iter().enumerate() {
                let r = repair(input, Input::Value(request), options).expect("a value request");
                valid_after[k] += usize::from(r.verdict.valid);
                errors_after[k] += r.verdict.errors.len();
                *rounds[k].entry(r.rounds).or_default() += 1;
                if k == 0 && !r.request_at_fault.is_empty() {
                    at_fault += 1;
                }
            }
        }
        let object = match plan {
            Value::String(t) => momentum_plan::parse_json(t).ok().filter(Value::is_object),
            v => Some(v.clone()).filter(Value::is_object),
        };
        let Some(object) = object else { continue };
        let key = request.to_string();
        let schema = schemas.entry(key).or_insert_with(|| {
            plan_schema(request, SchemaVariant::Validation)
                .ok()
                .map(|s| jsonschema::draft202012::new(&sorted(&s)).expect("the schema compiles"))
        });
        let ok = schema.as_ref().is_some_and(|s| s.is_valid(&sorted(&object)));
        if before.valid {
            valid_plans += 1;
            accepted += usize::from(ok);
        } else {
            invalid_objects += 1;
            rejected += usize::from(!ok);
            no_schema += usize::from(schema.is_none());
        }
    }
    let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
    let fixable = invalid - at_fault;
    println!("| | safe fixes | safe and unsafe fixes |\n|---|---:|---:|");
    println!(
        "| invalid plans made valid, of {invalid} | **{} ({:.1} %)** | {} ({:.1} %) |",
        valid_after[0],
        pct(valid_after[0], invalid),
        valid_after[1],
        pct(valid_after[1], invalid)
    );
    println!(
        "| … of the {fixable} whose request a plan can satisfy | {:.1} % | {:.1} % |",
        pct(valid_after[0], fixable),
        pct(valid_after[1], fixable)
    );
    println!(
        "| error occurrences left, of {errors} | {} (−{:.1} %) | {} (−{:.1} %) |",
        errors_after[0],
        pct(errors - errors_after[0], errors),
        errors_after[1],
        pct(errors - errors_after[1], errors)
    );
    let dist = |m: &BTreeMap<u32, usize>| m.iter().map(|(r, n)| format!("{r}: {n}")).collect::<Vec<_>>().join(", ");
    println!("| rounds (rounds: plans) | {} | {} |", dist(&rounds[0]), dist(&rounds[1]));
    println!("\n{at_fault} invalid plans answer a request at fault (`requestAtFault`): no plan can satisfy it.\n");
    println!("| `validation` plan schema | |\n|---|---:|");
    println!("| valid plans accepted | **{accepted} of {valid_plans} ({:.1} %)** |", pct(accepted, valid_plans));
    println!(
        "| invalid object plans rejected | **{rejected} of {invalid_objects} ({:.1} %)**, of which {no_schema} because the request is at fault (no schema) |",
        pct(rejected, invalid_objects)
    );
}
