//! The schema document describes what the core really writes: every shared vector's verdict and
//! repair (both levels), the contract, and the plan schemas of the vectors' requests validate
//! against their definitions (checked with the independent `jsonschema` crate), and every object
//! definition lists the core's members in the core's order, all required.

use momentum_plan::{Input, RepairOptions, SchemaVariant, Value, contract, plan_schema, repair, validate};
use momentum_plan_codegen::schema::{Def, defs, document};

/// A validator for the definition `name` of the schema document.
fn validator(name: &str) -> jsonschema::Validator {
    let mut schema = document();
    schema["$ref"] = Value::from(format!("#/$defs/{name}"));
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{name} does not compile: {e}"))
}

fn check(v: &jsonschema::Validator, name: &str, instance: &Value, failures: &mut Vec<String>) {
    if let Err(e) = v.validate(instance) {
        if failures.len() < 5 {
            failures.push(format!("{name}: {e} in {instance}"));
        } else {
            failures.push(String::new());
        }
    }
}

#[test]
fn every_vector_verdict_and_repair_matches_the_schemas() {
    let (verdict, repaired, plan_schema_v) = (validator("Verdict"), validator("Repair"), validator("PlanSchema"));
    let mut failures = Vec::new();
    let (mut verdicts, mut schemas, mut ops) = (0, 0, std::collections::BTreeSet::new());
    for rec in momentum_plan_testkit::vectors() {
        let (plan, request) = (&rec["plan"], &rec["request"]);
        let v = momentum_plan::parse_json(&validate(plan, request).to_json()).expect("verdict JSON");
        check(&verdict, "Verdict", &v, &mut failures);
        verdicts += 1;
        let input = match plan {
            Value::String(t) => Input::Text(t),
            other => Input::Value(other),
        };
        for unsafe_fixes in [false, true] {
            let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
            let r = repair(input, Input::Value(request), &options).expect("a value request");
            let r = momentum_plan::parse_json(&r.to_json()).expect("repair JSON");
            for op in r["patch"].as_array().into_iter().flatten() {
                ops.insert(op["op"].as_str().unwrap_or_default().to_owned());
            }
            check(&repaired, "Repair", &r, &mut failures);
        }
        if let Ok(s) = plan_schema(request, SchemaVariant::Validation) {
            check(&plan_schema_v, "PlanSchema", &s, &mut failures);
            schemas += 1;
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
    assert!(verdicts >= 5_000 && schemas >= 1_000, "{verdicts} verdicts, {schemas} schemas");
    // The repairs exercised every kind of patch operation the schema declares.
    assert_eq!(ops.into_iter().collect::<Vec<_>>(), ["add", "move", "remove", "replace", "test"]);
}

#[test]
fn the_contract_matches_its_schema_and_a_wrong_verdict_does_not() {
    let c = serde_json::to_value(contract()).expect("contract");
    assert!(validator("Contract").validate(&c).is_ok());
    let mut bad = c.clone();
    bad["limits"].as_object_mut().expect("limits").shift_remove("planDays");
    assert!(validator("Contract").validate(&bad).is_err(), "a missing limit is rejected");
    let verdict = serde_json::json!({"valid": false, "errors": [{"code": "overlapping", "path": "$", "message": "m"}], "warnings": [], "checks": ["json"]});
    assert!(validator("Verdict").validate(&verdict).is_err(), "a code outside the registry is rejected");
}

/// The member names of the object definition `name`, in order, and its `required`.
fn members(d: &[Def], name: &str) -> (Vec<String>, Vec<String>) {
    let s = &d.iter().find(|x| x.name == name).unwrap_or_else(|| panic!("no {name}")).schema;
    let props = s["properties"].as_object().expect("properties").keys().cloned().collect();
    let req = s["required"].as_array().expect("required").iter().map(|v| v.as_str().expect("str").to_owned()).collect();
    (props, req)
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().expect("object").keys().cloned().collect()
}

#[test]
fn object_definitions_list_the_core_members_in_order() {
    let d = defs();
    let request = serde_json::json!({"requestId": "r", "kind": "routine"});
    let plan =
        r#"{"format": "daily-momentum-ai-plan ", "kind": "routine", "routine": {"blocks": [{"start": "7:00"}]}}"#;
    let options = RepairOptions { unsafe_fixes: true, ..RepairOptions::default() };
    let r = repair(Input::Text(plan), Input::Value(&request), &options).expect("value request");
    let r = momentum_plan::parse_json(&r.to_json()).expect("repair JSON");
    let c = serde_json::to_value(contract()).expect("contract");
    let fix = r["applied"].get(0).or_else(|| r["offered"].get(0)).expect("a fix");
    let samples = [
        ("Verdict", &r["verdict"]),
        ("Issue", &r["verdict"]["errors"][0]),
        ("Repair", &r),
        ("Fix", fix),
        ("Contract", &c),
        ("Limits", &c["limits"]),
        ("Category", &c["categories"][0]),
    ];
    for (name, sample) in samples {
        let (props, required) = members(&d, name);
        assert_eq!(props, keys(sample), "{name}");
        assert_eq!(required, props, "{name}: every member is required");
    }
}
