//! Goldens of every text the drafting model reads from the core (issues 14 and 29), blessed with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --release -p momentum-plan --test golden
//! ```
//!
//! and reviewed as a diff (`momentum_plan_testkit::golden`: a golden that no case names any more
//! fails the test, as insta's `--unreferenced reject`, and so does a missing one). The vectors are
//! read at test time; the goldens are this crate's own output.
//!
//! - Verdicts (`tests/golden/<name>.json`): the whole verdict JSON, messages included, for one
//!   vector per issue code and one per D-rule (validator.md §5, §6). The vector for a code is the
//!   first, in file and line order, whose verdict raises that code; for a D-rule, the first whose
//!   `origin` names the rule (`fixed:D4,D5` names D4 and D5).
//! - Repairs (`tests/golden/repair/<kind>.json`): the whole `Repair::to_json` at both levels
//!   (safe; safe and unsafe), for one vector per fix kind (validator.md §9). A fix kind is one
//!   description template of `src/messages.rs`'s `fixes`: a function's one sentence, or, for a
//!   function with several, each of them (`order-1`, `order-2`, in source order). The vector for
//!   a kind is the first, in file and line order, whose repair at either level applies or offers
//!   a fix of that kind.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{Input, IssueCode, RepairOptions, Value, repair, validate};
use momentum_plan_testkit::golden;
use std::collections::BTreeMap;

#[test]
fn every_code_and_every_d_rule_has_its_golden_verdict() {
    let mut chosen: BTreeMap<String, String> = BTreeMap::new(); // name -> golden text
    for rec in momentum_plan_testkit::vectors() {
        let id = rec["id"].as_str().expect("id").to_owned();
        let verdict = validate(&rec["plan"], &rec["request"]);
        let mut names: Vec<String> =
            verdict.errors.iter().chain(&verdict.warnings).map(|i| i.code.as_str().to_owned()).collect();
        if let Some(rules) = rec["origin"].as_str().and_then(|o| o.strip_prefix("fixed:")) {
            names.extend(rules.split(',').map(str::to_owned));
        }
        for name in names {
            chosen.entry(name).or_insert_with(|| {
                let verdict: Value = serde_json::from_str(&verdict.to_json()).expect("verdict JSON");
                golden::pretty(&serde_json::json!({"vector": id, "verdict": verdict}))
            });
        }
    }
    // Every code the validator raises, and D1..D12, must have a vector.
    for code in IssueCode::ALL.iter().filter(|c| **c != IssueCode::NotSaved) {
        assert!(chosen.contains_key(code.as_str()), "no vector raises {code}");
    }
    for d in 1..=12 {
        assert!(chosen.contains_key(&format!("D{d}")), "no vector is fixed:D{d}");
    }
    golden::check(&common::root().join("core/tests/golden"), &chosen, "the verdict of its vector");
}

/// One description template of `messages::fixes`: the kind's name and the template's fixed
/// pieces, between which the function's `{...}` slots stand.
struct Template {
    kind: String,
    pieces: Vec<String>,
}

impl Template {
    /// Whether `text` is this template with some text in each slot (a slot may be empty).
    fn matches(&self, text: &str) -> bool {
        let (first, rest) = self.pieces.split_first().expect("a template has a piece");
        let Some(mut tail) = text.strip_prefix(first.as_str()) else { return false };
        let Some((last, middle)) = rest.split_last() else { return tail.is_empty() };
        for piece in middle {
            match tail.find(piece.as_str()) {
                Some(at) => tail = &tail[at + piece.len()..],
                None => return false,
            }
        }
        tail.len() >= last.len() && tail.ends_with(last.as_str())
    }

    /// How much of a text the template fixes: the most specific of two matching templates wins.
    fn fixed(&self) -> usize {
        self.pieces.iter().map(String::len).sum()
    }
}

/// The description templates of `src/messages.rs`'s `mod fixes`, read from the source: in each
/// `pub(crate) fn`, every string literal that is a whole sentence (ends with `.`), its `{...}`
/// format slots split out. A function with one sentence is one kind named after it; one with
/// several gives `<name>-1`, `<name>-2`, ... in source order.
fn fix_templates() -> Vec<Template> {
    let source = std::fs::read_to_string(common::root().join("core/src/messages.rs")).expect("messages.rs");
    let fixes = &source[source.find("pub(crate) mod fixes {").expect("messages.rs has `mod fixes`")..];
    let code: String = fixes.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut out = Vec::new();
    for function in code.split("pub(crate) fn ").skip(1) {
        let name = &function[..function.find('(').expect("fn name(")];
        let sentences: Vec<String> = string_literals(function).into_iter().filter(|s| s.ends_with('.')).collect();
        assert!(!sentences.is_empty(), "messages::fixes::{name} has no sentence");
        let many = sentences.len() > 1;
        for (i, sentence) in sentences.iter().enumerate() {
            let kind = if many { format!("{name}-{}", i + 1) } else { name.to_owned() };
            out.push(Template { kind, pieces: slots_split(sentence) });
        }
    }
    assert!(out.len() >= 19, "only {} fix templates read from messages.rs", out.len());
    out
}

/// The string literals of Rust source text, escapes resolved (`\"`, `\\`, `\n`, and a `\` at a
/// line's end, which drops the line break and the next line's leading white space).
fn string_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut text = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => text.push('\n'),
                    Some('\n') => while chars.next_if(|c| c.is_whitespace()).is_some() {},
                    Some(other) => text.push(other),
                    None => {}
                },
                other => text.push(other),
            }
        }
        out.push(text);
    }
    out
}

/// A format string's fixed pieces around its `{...}` slots (`{{` and `}}` are braces).
fn slots_split(format: &str) -> Vec<String> {
    let mut pieces = vec![String::new()];
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.next_if_eq(&'{').is_some() => pieces.last_mut().expect("a piece").push('{'),
            '}' if chars.next_if_eq(&'}').is_some() => pieces.last_mut().expect("a piece").push('}'),
            '{' => {
                while chars.next().is_some_and(|c| c != '}') {}
                pieces.push(String::new());
            }
            other => pieces.last_mut().expect("a piece").push(other),
        }
    }
    pieces
}

/// The kind of a fix's description: the most specific template it matches.
fn kind_of<'t>(templates: &'t [Template], description: &str) -> &'t str {
    let mut matching: Vec<&Template> = templates.iter().filter(|t| t.matches(description)).collect();
    matching.sort_by_key(|t| std::cmp::Reverse(t.fixed()));
    match matching.as_slice() {
        [] => panic!("the fix description {description:?} matches no template of messages::fixes"),
        [one] => &one.kind,
        [a, b, ..] => {
            assert!(a.fixed() > b.fixed(), "{description:?} matches {} and {} alike", a.kind, b.kind);
            &a.kind
        }
    }
}

#[test]
fn every_fix_kind_has_its_golden_repair() {
    let templates = fix_templates();
    let levels = [RepairOptions::default(), RepairOptions { unsafe_fixes: true, ..RepairOptions::default() }];
    let mut chosen: BTreeMap<String, String> = BTreeMap::new(); // kind -> golden text
    for rec in momentum_plan_testkit::vectors() {
        if chosen.len() == templates.len() {
            break;
        }
        let plan = match &rec["plan"] {
            Value::String(t) => Input::Text(t),
            v => Input::Value(v),
        };
        let [safe, unsafe_] =
            levels.map(|o| repair(plan, Input::Value(&rec["request"]), &o).expect("a value request is never an error"));
        let fixes = [&safe, &unsafe_].into_iter().flat_map(|r| r.applied.iter().chain(&r.offered));
        for fix in fixes {
            chosen.entry(kind_of(&templates, &fix.description).to_owned()).or_insert_with(|| {
                let json = |r: &momentum_plan::Repair| -> Value { serde_json::from_str(&r.to_json()).expect("JSON") };
                golden::pretty(&serde_json::json!({"vector": rec["id"], "safe": json(&safe), "unsafe": json(&unsafe_)}))
            });
        }
    }
    let missing: Vec<&str> = templates.iter().map(|t| t.kind.as_str()).filter(|k| !chosen.contains_key(*k)).collect();
    assert!(missing.is_empty(), "no vector's repair applies or offers a fix of kind {missing:?}");
    golden::check(&common::root().join("core/tests/golden/repair"), &chosen, "the repair of its vector");
}
