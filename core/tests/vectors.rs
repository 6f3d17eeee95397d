//! Every shared vector (`shared/vectors/*.jsonl`) through the core: exact `valid`, ordered
//! (code, path) errors and warnings, `checks`, non-empty messages and key order (vectors README).
//! Object plans are also run as their compact JSON text, which must give the same verdict.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{Value, validate};

fn pairs_of(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .expect("a list of issues")
        .iter()
        .map(|i| (i["code"].as_str().unwrap_or("").to_owned(), i["path"].as_str().unwrap_or("").to_owned()))
        .collect()
}

#[test]
fn every_shared_vector_agrees() {
    let dir = common::shared().join("vectors");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vectors in {}", dir.display());

    let (mut run, mut as_text, mut failures) = (0usize, 0usize, Vec::new());
    let (mut as_value_text, mut value_text_refused) = (0usize, 0usize);
    for file in &files {
        let text = std::fs::read_to_string(file).expect("vector file readable");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let rec = momentum_plan::json::parse(line).expect("vector line is JSON");
            let id = rec["id"].as_str().expect("id").to_owned();
            let (plan, request, expect) = (&rec["plan"], &rec["request"], &rec["expect"]);
            let verdict = validate(plan, request);
            run += 1;
            let text = verdict.to_json();
            let got: Value = serde_json::from_str(&text).expect("verdict is JSON");
            let mut why = Vec::new();
            // The direct writer gives exactly the bytes of the Serialize implementation.
            if text != serde_json::to_string(&verdict).expect("serializable") {
                why.push(format!("to_json differs from serde_json: {text}"));
            }
            if got["valid"] != expect["valid"] {
                why.push(format!("valid {} expected {}", got["valid"], expect["valid"]));
            }
            for kind in ["errors", "warnings"] {
                if pairs_of(&got[kind]) != pairs_of(&expect[kind]) {
                    why.push(format!("{kind} {:?} expected {:?}", pairs_of(&got[kind]), pairs_of(&expect[kind])));
                }
            }
            if got["checks"] != expect["checks"] {
                why.push(format!("checks {} expected {}", got["checks"], expect["checks"]));
            }
            for issue in verdict.errors.iter().chain(&verdict.warnings) {
                if issue.message.trim().is_empty() {
                    why.push(format!("empty message for {} at {}", issue.code, issue.path));
                }
            }
            let keys: Vec<&String> = got.as_object().expect("object").keys().collect();
            if keys != ["valid", "errors", "warnings", "checks"] {
                why.push(format!("verdict keys {keys:?}"));
            }
            // An object plan as its compact text gives the same verdict (vectors README).
            if plan.is_object() {
                let compact = serde_json::to_string(plan).expect("serializable");
                let again = validate(&Value::String(compact), request);
                as_text += 1;
                if again != verdict {
                    why.push("the compact text of the object plan gives another verdict".to_owned());
                }
            }
            // Every plan and request value as its JSON text (pretty, so the text is longer than
            // the compact size) through `validate_value_text`: the same verdict as `validate`,
            // or a `JsonError` only for what the strict reader refuses (then `validate` judges
            // the value itself, as the MCP server does).
            let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("serializable");
            match momentum_plan::validate_value_text(&pretty(plan), &pretty(request)) {
                Ok(v) if v == verdict => as_value_text += 1,
                Ok(v) => why.push(format!("validate_value_text gives another verdict: {}", v.to_json())),
                Err(_) => value_text_refused += 1,
            }
            if !why.is_empty() {
                failures.push(format!("{id}: {}", why.join("; ")));
            }
        }
    }
    println!(
        "{run} vectors run ({as_text} object plans also as text; {as_value_text} as value text, \
         {value_text_refused} refused by the strict reader), {} mismatches",
        failures.len()
    );
    assert!(as_value_text >= run - run / 20, "validate_value_text judged only {as_value_text} of {run}");
    assert!(run >= 5_800, "only {run} vectors found");
    assert!(
        failures.is_empty(),
        "{} of {run} vectors disagree:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
