//! `value_span` on every shared vector: for every issue of the verdict on a plan's text, the span
//! found for the issue's path is the text of the value at that path. The value at a path is
//! resolved independently of `value_span`: every value of the parsed plan is listed under its
//! path, rendered by the public `JsonPath` builder. Plans given as text are used as they are
//! (the vectors README); object plans are also written as pretty (multi-line) text.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{JsonPath, SpanError, Value, line_column, parse_json, validate_text, value_span};
use std::collections::BTreeMap;

/// Every value of `v` under its rendered path (the root is `$`).
fn values_by_path(v: &Value) -> BTreeMap<String, &Value> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(JsonPath::root(), v)];
    while let Some((path, v)) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a.iter().enumerate().map(|(i, x)| (path.index(i), x))),
            Value::Object(m) => stack.extend(m.iter().map(|(k, x)| (path.key(k), x))),
            _ => {}
        }
        out.insert(path.into_string(), v);
    }
    out
}

/// Checks every issue path of the verdict on `text`; returns the number of paths checked, or
/// the first failure.
fn check(id: &str, text: &str, request: &Value) -> Result<(usize, usize), String> {
    let verdict = validate_text(text, request);
    let parsed = parse_json(text);
    let (mut exact, mut missing) = (0, 0);
    for issue in verdict.errors.iter().chain(&verdict.warnings) {
        let got = value_span(text, &issue.path);
        let fail = |what: String| format!("{id}: {} at {}: {what}", issue.code.as_str(), issue.path);
        let plan = match &parsed {
            Err(e) => {
                // Not JSON: the only issue is `json` at `$`, and the span error is the parse error.
                if issue.code.as_str() != "json" || got != Err(SpanError::NotJson(e.clone())) {
                    return Err(fail(format!("{got:?}, parse error {e:?}")));
                }
                exact += 1;
                continue;
            }
            Ok(plan) => plan,
        };
        let values = values_by_path(plan);
        let slice_value = |span: &momentum_plan::Span| {
            let slice = text.get(span.range()).ok_or("the span is not a slice of the text")?;
            if (span.start.line, span.start.column) != line_column(text, span.start.byte)
                || (span.end.line, span.end.column) != line_column(text, span.end.byte)
            {
                return Err("line and column are not those of the bytes");
            }
            parse_json(slice).map_err(|_| "the slice is not one JSON value")
        };
        match (values.get(&issue.path), got) {
            (Some(want), Ok(span)) => {
                let v = slice_value(&span).map_err(|e| fail(e.to_owned()))?;
                if &&v != want {
                    return Err(fail(format!("the span holds {v}, the path names {want}")));
                }
                exact += 1;
            }
            (None, Err(SpanError::Missing { found, span })) => {
                // The deepest value on the path: a proper prefix of it, the longest one that exists.
                let on_path =
                    |p: &&String| issue.path.strip_prefix(p.as_str()).is_some_and(|rest| rest.starts_with(['.', '[']));
                let deepest = values.keys().filter(on_path).max_by_key(|p| p.len());
                if deepest != Some(&found) || found == issue.path {
                    return Err(fail(format!("missing, found {found}, the deepest value is {deepest:?}")));
                }
                let v = slice_value(&span).map_err(|e| fail(e.to_owned()))?;
                if &v != values[&found] {
                    return Err(fail(format!("the span of {found} holds {v}")));
                }
                missing += 1;
            }
            (want, got) => return Err(fail(format!("value {want:?}, span {got:?}"))),
        }
    }
    Ok((exact, missing))
}

#[test]
fn the_span_of_every_issue_path_is_the_value_at_that_path() {
    let (mut text_plans, mut object_plans, mut exact, mut missing) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for file in common::vector_files() {
        let lines = std::fs::read_to_string(&file).expect("vector file readable");
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let rec = parse_json(line).expect("vector line is JSON");
            let id = rec["id"].as_str().expect("id");
            let text = match &rec["plan"] {
                Value::String(t) => {
                    text_plans += 1;
                    t.clone()
                }
                plan => {
                    object_plans += 1;
                    serde_json::to_string_pretty(plan).expect("a plan writes as JSON")
                }
            };
            match check(id, &text, &rec["request"]) {
                Ok((e, m)) => {
                    exact += e;
                    missing += m;
                }
                Err(why) => failures.push(why),
            }
        }
    }
    println!(
        "{text_plans} text plans, {object_plans} object plans as pretty text: {exact} paths found, {missing} missing"
    );
    assert!(failures.is_empty(), "{} failures, first: {:#?}", failures.len(), &failures[..failures.len().min(5)]);
    // The vectors hold 269 text plans; every kind of answer is exercised.
    assert!(text_plans >= 200 && object_plans >= 5000, "{text_plans} {object_plans}");
    assert!(exact > 10_000 && missing > 200, "{exact} {missing}");
}
