//! Every shared vector (`shared/vectors/*.jsonl`) through the core: exact `valid`, ordered
//! (code, path) errors and warnings, `checks`, non-empty messages and key order (vectors README).
//! Object plans are also run as their compact JSON text, which must give the same verdict, and
//! through the whole input matrix of `validate_input` (value, text, bytes, a built tree; both
//! arguments).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{Arena, Input, TreeBuilder, Value, validate, validate_input};

/// Builds `v` through the public [`TreeBuilder`] as a host binding would, value by value.
fn build(v: &Value, b: &mut TreeBuilder<'_>) {
    match v {
        Value::Null => b.null(),
        Value::Bool(x) => b.bool(*x),
        Value::Number(n) => b.number(n.as_str()),
        Value::String(s) => b.string(s),
        Value::Array(a) => {
            b.begin_array().expect("vectors nest at most 512 levels");
            for x in a {
                build(x, b);
            }
            b.end_array();
        }
        Value::Object(m) => {
            b.begin_object().expect("vectors nest at most 512 levels");
            for (k, x) in m {
                b.key(k);
                build(x, b);
            }
            b.end_object();
        }
    }
}

fn pairs_of(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .expect("a list of issues")
        .iter()
        .map(|i| (i["code"].as_str().unwrap_or("").to_owned(), i["path"].as_str().unwrap_or("").to_owned()))
        .collect()
}

#[test]
#[allow(clippy::too_many_lines)] // one loop over the vectors, a check per surface
fn every_shared_vector_agrees() {
    let files = common::vector_files();

    let (mut run, mut as_text, mut failures) = (0usize, 0usize, Vec::new());
    let (mut as_value_text, mut value_text_refused, mut matrix) = (0usize, 0usize, 0usize);
    for file in &files {
        let text = std::fs::read_to_string(file).expect("vector file readable");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let rec = momentum_plan::parse_json(line).expect("vector line is JSON");
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
            // The complete input matrix (validate_input): the plan as a value, as its compact text,
            // as bytes, as a tree a host built and as the text of its value; the request as a value,
            // text, bytes, tree and value text. Every form gives the same verdict (a string plan is
            // text in every form).
            if plan.is_object() {
                let compact = serde_json::to_string(plan).expect("serializable");
                let request_text = serde_json::to_string(request).expect("serializable");
                let (plan_arena, request_arena) = (Arena::new(), Arena::new());
                let mut pb = TreeBuilder::new(&plan_arena);
                build(plan, &mut pb);
                let mut rb = TreeBuilder::new(&request_arena);
                build(request, &mut rb);
                match (pb.finish(), rb.finish()) {
                    (Some(plan_tree), Some(request_tree)) => {
                        if plan_tree.size() != compact.len() {
                            why.push(format!(
                                "the built plan measures {} bytes, its text {}",
                                plan_tree.size(),
                                compact.len()
                            ));
                        }
                        let plans = [
                            Input::Value(plan),
                            Input::Text(&compact),
                            Input::Bytes(compact.as_bytes()),
                            Input::Tree(&plan_tree),
                            Input::ValueText(&compact),
                        ];
                        let requests = [
                            Input::Value(request),
                            Input::Text(&request_text),
                            Input::Bytes(request_text.as_bytes()),
                            Input::Tree(&request_tree),
                            Input::ValueText(&request_text),
                        ];
                        for (i, p) in plans.iter().enumerate() {
                            for (j, r) in requests.iter().enumerate() {
                                match validate_input(*p, *r) {
                                    Ok(v) if v == verdict => matrix += 1,
                                    Ok(v) => why.push(format!(
                                        "validate_input plan form {i}, request form {j}: {}",
                                        v.to_json()
                                    )),
                                    Err(e) => why.push(format!("validate_input plan form {i}, request form {j}: {e}")),
                                }
                            }
                        }
                    }
                    _ => why.push("the TreeBuilder refused the vector's plan or request".to_owned()),
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
         {value_text_refused} refused by the strict reader; {matrix} input-matrix calls), {} mismatches",
        failures.len()
    );
    assert!(matrix >= 25 * (as_text - as_text / 20), "the input matrix ran only {matrix} calls");
    assert!(as_value_text >= run - run / 20, "validate_value_text judged only {as_value_text} of {run}");
    assert!(run >= 5_800, "only {run} vectors found");
    assert!(
        failures.is_empty(),
        "{} of {run} vectors disagree:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
