//! `PlanStream` (validator.md §10) over every shared vector: the plan's text pushed one byte at a
//! time (so the text split at every byte boundary: after each byte, what the prefix settled), and
//! in chunkings from a seeded generator. Every issue settled at any point is in the final verdict
//! (same code, path and message) whenever the text is JSON and repeats no member name (§10's
//! definition of settled), a settled `json` issue is the final verdict's, and `finish` equals
//! `validate_text` of the whole text, byte for byte.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{Issue, PlanStream, Value, Verdict, validate_text};

/// Each vector's plan as text (a string plan is its text; an object plan its compact JSON), and
/// its request.
fn cases() -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for file in common::vector_files() {
        let text = std::fs::read_to_string(&file).expect("vector file readable");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let rec = momentum_plan::parse_json(line).expect("vector line is JSON");
            let id = rec["id"].as_str().expect("id").to_owned();
            let plan = match &rec["plan"] {
                Value::String(s) => s.clone(),
                other => serde_json::to_string(other).expect("serializable"),
            };
            out.push((id, plan, rec["request"].clone()));
        }
    }
    out
}

/// Whether `issue` is in `verdict` (errors or warnings), code, path and message alike.
fn holds(verdict: &Verdict, issue: &Issue) -> bool {
    verdict.errors.iter().chain(&verdict.warnings).any(|i| i == issue)
}

/// Checks what a stream settled against the final verdict of its whole text.
fn check(id: &str, settled: &[Issue], repeated: bool, got: &Verdict, want: &Verdict) -> Result<(), String> {
    if got.to_json() != want.to_json() {
        return Err(format!("{id}: finish {} but validate_text {}", got.to_json(), want.to_json()));
    }
    let not_json = want.errors.first().is_some_and(|i| i.code.as_str() == "json");
    for issue in settled {
        if issue.code.as_str() == "json" {
            if !holds(want, issue) {
                return Err(format!("{id}: settled {issue:?}, verdict {}", want.to_json()));
            }
        } else if !repeated && !not_json && !holds(want, issue) {
            return Err(format!("{id}: settled {issue:?} not in the verdict {}", want.to_json()));
        }
    }
    Ok(())
}

#[test]
fn every_vector_split_at_every_byte_settles_only_issues_of_its_verdict() {
    let (mut failures, mut settled_total, mut run) = (Vec::new(), 0usize, 0usize);
    for (id, text, request) in cases() {
        let want = validate_text(&text, &request);
        let mut s = PlanStream::new(request.clone());
        let mut settled = Vec::new();
        for b in text.as_bytes() {
            settled.extend(s.push(std::slice::from_ref(b)));
        }
        let repeated = s.repeated_name();
        settled_total += settled.len();
        run += 1;
        if let Err(e) = check(&id, &settled, repeated, &s.finish(), &want) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {run} vectors:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(run > 5000 && settled_total > run / 4, "{run} vectors, {settled_total} settled issues");
}

#[test]
fn every_vector_in_seeded_random_chunkings_settles_the_same() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(x >> 33).unwrap_or(0) % n.max(1)
    };
    let mut failures = Vec::new();
    for (id, text, request) in cases() {
        // Each text as it is, and pretty-printed (white space between every token, so every
        // token is read after a run of it, and chunks end inside the runs).
        let pretty = momentum_plan::parse_json(&text).ok().and_then(|v| serde_json::to_string_pretty(&v).ok());
        for (round, text) in [(0..4, text), (4..5, pretty.unwrap_or_default())] {
            check_chunkings(&id, &text, &request, round, &mut next, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

/// `text` pushed in the chunkings of `rounds` (0: two chunks at a random boundary; then random
/// chunk sizes up to 3, 16 and 300 bytes; 4: up to 64), each checked against its verdict.
fn check_chunkings(
    id: &str,
    text: &str,
    request: &Value,
    rounds: std::ops::Range<usize>,
    next: &mut impl FnMut(usize) -> usize,
    failures: &mut Vec<String>,
) {
    let want = validate_text(text, request);
    let bytes = text.as_bytes();
    for round in rounds {
        let mut s = PlanStream::new(request.clone());
        let mut settled = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let n = match round {
                0 if at == 0 => next(bytes.len() + 1),
                0 => bytes.len() - at,
                1 => 1 + next(3),
                2 => 1 + next(16),
                3 => 1 + next(300),
                _ => 1 + next(64),
            };
            let end = (at + n).min(bytes.len());
            settled.extend(s.push(&bytes[at..end]));
            at = end;
        }
        let repeated = s.repeated_name();
        if let Err(e) = check(id, &settled, repeated, &s.finish(), &want) {
            failures.push(format!("round {round}: {e}"));
        }
    }
}

#[test]
fn a_fault_settles_at_its_byte_with_the_whole_texts_message() {
    let request = serde_json::json!({"requestId": "r1", "kind": "routine"});
    for (text, at) in [("{\"a\": tru ", 9), ("{\"a\": [1,]", 9), ("{\"a\": \"\\ud83d x\"", 13), ("[1e400]", 6)] {
        let mut s = PlanStream::new(request.clone());
        let mut settled_at = None;
        for (i, b) in text.as_bytes().iter().enumerate() {
            if !s.push(std::slice::from_ref(b)).is_empty() && settled_at.is_none() {
                settled_at = Some(i);
            }
        }
        assert_eq!(settled_at, Some(at), "{text}");
    }
}

#[test]
fn a_repeated_name_stops_settling() {
    let request = serde_json::json!({"requestId": "r1", "kind": "routine"});
    let mut s = PlanStream::new(request);
    assert!(s.push(b"{\"format\": \"daily-momentum-ai-plan\", \"x\": 1, \"x\"").is_empty());
    assert!(s.repeated_name());
    assert!(s.push(b": 2, \"name\": 3}").is_empty());
}
