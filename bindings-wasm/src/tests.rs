//! Native unit tests: the generated TypeScript agrees with the core's registries and JSON.

use crate::ts::TYPES;
use momentum_plan::{CATEGORIES, Check, IssueCode, Value, WEEKDAYS};

/// The `"a" | "b"` union declared as `export type <name> = ...;` in the generated text.
fn union(name: &str) -> Vec<String> {
    let head = format!("export type {name} = ");
    let start = TYPES.find(&head).map(|i| i + head.len()).expect(name);
    let end = start + TYPES[start..].find(';').expect("end of union");
    TYPES[start..end].split(" | ").map(|s| s.trim_matches('"').to_owned()).collect()
}

/// The member names of `export interface <name> { ... }`, in order.
fn members(name: &str) -> Vec<String> {
    let head = format!("export interface {name} {{");
    let start = TYPES.find(&head).map(|i| i + head.len()).expect(name);
    let end = start + TYPES[start..].find("\n}").expect("end of interface");
    TYPES[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("/**") && !l.starts_with('*'))
        .map(|l| l.split(':').next().unwrap_or_default().to_owned())
        .collect()
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().expect("object").keys().cloned().collect()
}

#[test]
fn unions_are_the_registries() {
    let codes: Vec<&str> = IssueCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(union("IssueCode"), codes);
    assert!(codes.contains(&"overlap") && codes.contains(&"notSaved"));
    let checks: Vec<&str> = Check::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(union("CheckName"), checks);
    let cats: Vec<&str> = CATEGORIES.iter().map(|c| c.id).collect();
    assert_eq!(union("CategoryId"), cats);
    assert_eq!(union("Weekday"), WEEKDAYS);
    // Every literal is a plain identifier-like string: nothing to escape inside `"..."`.
    for s in codes.iter().chain(&checks).chain(&cats).chain(&WEEKDAYS) {
        assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'), "{s}");
    }
}

#[test]
fn interfaces_match_the_core() {
    let request = serde_json::json!({"requestId": "r", "kind": "routine"});
    let verdict = momentum_plan::validate_text(r#"{"format": 1}"#, &request);
    let v: Value = serde_json::from_str(&verdict.to_json()).expect("verdict JSON");
    assert_eq!(members("Verdict"), keys(&v));
    let issue = &v["errors"][0];
    assert_eq!(members("Issue"), keys(issue));

    let c: Value = serde_json::from_str(crate::CONTRACT_JSON).expect("contract JSON");
    assert_eq!(members("Contract"), keys(&c));
    assert_eq!(members("Limits"), keys(&c["limits"]));
    assert_eq!(members("Category"), keys(&c["categories"][0]));
    assert!(TYPES.contains(&format!("format: \"{}\";", c["format"].as_str().expect("format"))));
    assert!(TYPES.contains(&format!("contractVersion: {};", c["contractVersion"])));
}

#[test]
fn no_any_in_the_types() {
    let words = TYPES.split(|c: char| !c.is_ascii_alphanumeric());
    assert!(words.clone().all(|w| w != "any"), "{TYPES}");
    assert!(words.clone().any(|w| w == "IssueCode"));
}

#[test]
fn the_contract_text_is_the_cores() {
    let now = serde_json::to_string(momentum_plan::contract()).expect("contract");
    assert_eq!(crate::CONTRACT_JSON, now);
}

#[test]
fn repair_types_match_the_core() {
    use momentum_plan::{Input, RepairOptions, SchemaVariant};
    let request = r#"{"requestId": "r", "kind": "routine"}"#;
    let plan =
        r#"{"format": "daily-momentum-ai-plan ", "kind": "routine", "routine": {"blocks": [{"start": "7:00"}]}}"#;
    let options = RepairOptions { unsafe_fixes: true, ..RepairOptions::default() };
    let r = momentum_plan::repair(Input::Text(plan), Input::Text(request), &options).expect("request is JSON");
    let v: Value = serde_json::from_str(&r.to_json()).expect("repair JSON");
    assert_eq!(members("Repair"), keys(&v));
    let fix = v["applied"].get(0).or_else(|| v["offered"].get(0)).expect("a fix");
    assert_eq!(members("Fix"), keys(fix));
    assert!(union("Applicability").contains(&fix["applicability"].as_str().expect("str").to_owned()));
    assert!(union("RepairStop").contains(&v["stopped"].as_str().expect("str").to_owned()));
    for op in v["patch"].as_array().expect("patch") {
        assert!(TYPES.contains(&format!("op: \"{}\"", op["op"].as_str().expect("op"))));
    }
    let names: Vec<&str> = SchemaVariant::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(union("SchemaVariant"), names);
    assert_eq!(union("Applicability"), ["safe", "unsafe", "placeholder"]);
}
