//! The invariants the fuzz targets assert, in a file of its own (no dependency beyond
//! `momentum-plan` and `serde_json`) so that `core/tests/fuzz_regressions.rs` can include it
//! with `#[path]` and replay every recorded finding without libFuzzer.
//!
//! Invariants asserted on every verdict (validator.md §4):
//! - `valid == errors.is_empty()`;
//! - every issue path starts with `$` and is a well-formed path (D7 rendering), and an index in
//!   it never points past the end of an array the plan has;
//! - every message is non-blank;
//! - `checks` is `["json"]` (then exactly one `json`/`type` error at `$` and no warnings) or all
//!   eight checks;
//! - warnings are only `overnight`; `notSaved` never comes from the validator;
//! - `to_json()` is JSON with the four keys in order.
//!
//! Invariants between calls: the same input gives the same verdict twice; bytes, text and
//! `Value::String(text)` give the same verdict; an object plan and its compact text give the
//! same verdict (the wording of a `json` error aside: text has a line and column); text and
//! the object it parses to differ only in the `size` error (text is measured in its own bytes,
//! the object by its compact form, validator.md §7).
//!
//! Invariants of `repair` and `plan_schema` (validator.md §9), on every pair: `repair` never
//! panics; its verdict is the verdict of the plan text it returns (a `json` message's wording
//! aside, for an object plan; a plan value that is neither text nor an object gets the `type`
//! verdict without the text checks, as `validate` gives it); no applied fix leaves its issue in
//! the plan of its round ([`fixes_that_left_their_issue`]); a valid plan comes back unchanged
//! with an empty patch; a second repair applies nothing; `plan_schema` in both variants never
//! panics and gives a schema object or a `SchemaError`.

use momentum_plan::{
    Check, IssueCode, MAX_DEPTH, Value, Verdict, parse_json, parse_json_bytes, validate, validate_bytes, validate_text,
};
use std::sync::OnceLock;

/// The calm-weekday request of `shared/examples` (read at compile time).
pub const CALM_REQUEST: &str = include_str!("../../../shared/examples/calm-weekday.request.json");

/// The calm-weekday plan of `shared/examples` (read at compile time).
pub const CALM_PLAN: &str = include_str!("../../../shared/examples/calm-weekday.plan.json");

/// The calm-weekday request as a value (parsed once).
pub fn calm_request() -> &'static Value {
    static REQ: OnceLock<Value> = OnceLock::new();
    REQ.get_or_init(|| parse_json(CALM_REQUEST).expect("the calm-weekday request is JSON"))
}

/// The calm-weekday plan as a value (parsed once).
pub fn calm_plan() -> &'static Value {
    static PLAN: OnceLock<Value> = OnceLock::new();
    PLAN.get_or_init(|| parse_json(CALM_PLAN).expect("the calm-weekday plan is JSON"))
}

/// One parsed path segment.
#[derive(Debug, PartialEq, Eq)]
pub enum Seg {
    /// `.name` or `['name']`.
    Key(String),
    /// `[i]`.
    Index(usize),
}

/// Parses a rendered path (validator.md §4, D7) into segments; `None` when it is malformed.
pub fn parse_path(path: &str) -> Option<Vec<Seg>> {
    let rest = path.strip_prefix('$')?;
    let mut segs = Vec::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                let mut name = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        name.push(c);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let first = name.chars().next()?;
                if first.is_ascii_digit() {
                    return None;
                }
                segs.push(Seg::Key(name));
            }
            '[' => match chars.next()? {
                '\'' => {
                    let mut name = String::new();
                    loop {
                        match chars.next()? {
                            '\\' => {
                                let e = chars.next()?;
                                if e != '\\' && e != '\'' {
                                    return None;
                                }
                                name.push(e);
                            }
                            '\'' => break,
                            c => name.push(c),
                        }
                    }
                    if chars.next()? != ']' {
                        return None;
                    }
                    // A name that is an identifier must be rendered `.name`.
                    let b = name.as_bytes();
                    if !b.is_empty()
                        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
                        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
                    {
                        return None;
                    }
                    segs.push(Seg::Key(name));
                }
                d if d.is_ascii_digit() => {
                    let mut n = String::from(d);
                    loop {
                        match chars.next()? {
                            ']' => break,
                            c if c.is_ascii_digit() => n.push(c),
                            _ => return None,
                        }
                    }
                    if n.len() > 1 && n.starts_with('0') {
                        return None;
                    }
                    segs.push(Seg::Index(n.parse().ok()?));
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    Some(segs)
}

/// Asserts the single-verdict invariants (see the crate docs).
pub fn check_verdict(v: &Verdict) {
    assert_eq!(v.valid, v.errors.is_empty(), "valid must equal errors.is_empty(): {v:?}");
    for issue in v.errors.iter().chain(&v.warnings) {
        assert!(issue.path.starts_with('$'), "path must start with $: {issue:?}");
        assert!(parse_path(&issue.path).is_some(), "malformed path: {issue:?}");
        assert!(!issue.message.trim().is_empty(), "blank message: {issue:?}");
        assert_ne!(issue.code, IssueCode::NotSaved, "the validator never says notSaved");
        assert_eq!(issue.code.as_str().parse::<IssueCode>(), Ok(issue.code));
    }
    for w in &v.warnings {
        assert_eq!(w.code, IssueCode::Overnight, "the only warning is overnight: {w:?}");
    }
    if v.checks == [Check::Json] {
        assert_eq!(v.errors.len(), 1, "a json-only verdict has one error: {v:?}");
        assert!(matches!(v.errors[0].code, IssueCode::Json | IssueCode::Type), "{v:?}");
        assert_eq!(v.errors[0].path, "$");
        assert!(v.warnings.is_empty());
    } else {
        assert_eq!(v.checks, Check::ALL, "checks must be [json] or all eight: {v:?}");
        assert!(v.errors.iter().all(|e| e.code != IssueCode::Json), "{v:?}");
    }
    let text = v.to_json();
    let back = parse_json(&text).expect("to_json is JSON");
    let keys: Vec<&str> = back.as_object().expect("an object").keys().map(String::as_str).collect();
    assert_eq!(keys, ["valid", "errors", "warnings", "checks"]);
}

/// Asserts that every issue of an object plan's verdict (except `requestInvalid`, whose path
/// names the request) points into the plan as far as the plan goes: an index never points past
/// the end of an array that is there. (A missing member may be named, and a container of the
/// wrong type is read as empty, validator.md §7, so names are not checked.)
pub fn check_paths_exist(v: &Verdict, plan: &Value) {
    for issue in v.errors.iter().chain(&v.warnings) {
        if issue.code == IssueCode::RequestInvalid {
            continue;
        }
        let segs = parse_path(&issue.path).expect("checked by check_verdict");
        let mut at = Some(plan);
        for seg in &segs {
            at = match (seg, at) {
                (Seg::Key(k), Some(Value::Object(m))) => m.get(k),
                (Seg::Index(i), Some(Value::Array(a))) => {
                    assert!(*i < a.len(), "path indexes past the end of an array: {issue:?}");
                    a.get(*i)
                }
                _ => None,
            };
        }
    }
}

/// The verdict without `size` errors (and `valid` recomputed), for comparing a text with the
/// object it parses to.
pub fn without_size(v: &Verdict) -> Verdict {
    let errors: Vec<_> = v.errors.iter().filter(|e| e.code != IssueCode::Size).cloned().collect();
    Verdict { valid: errors.is_empty(), errors, warnings: v.warnings.clone(), checks: v.checks.clone() }
}

/// What a verdict says without its wording: `valid`, the (code, path) of each error and warning,
/// and the checks. Text and the object it parses to are compared this way: reading text into a
/// `serde_json::Value` rewrites number literals with an exponent (`3E1` becomes `3e+1`), so a
/// message quoting such a number differs in form (fuzz finding F1, by design).
pub type Shape = (bool, Vec<(IssueCode, String)>, Vec<(IssueCode, String)>, Vec<Check>);

/// The [`Shape`] of a verdict.
pub fn shape(v: &Verdict) -> Shape {
    let pairs = |list: &[momentum_plan::Issue]| list.iter().map(|i| (i.code, i.path.clone())).collect();
    (v.valid, pairs(&v.errors), pairs(&v.warnings), v.checks.clone())
}

/// Nesting depth of a value (1 for a scalar), iteratively.
pub fn depth(v: &Value) -> usize {
    let mut max = 0;
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|x| (x, d + 1))),
            Value::Object(m) => stack.extend(m.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    max
}

/// A verdict's `json` error messages blanked: a position-less in-memory fault and the same
/// fault found in text (with line and column) say the same thing in different words.
pub fn json_messages_blanked(v: &Verdict) -> Verdict {
    let mut v = v.clone();
    for e in &mut v.errors {
        if e.code == IssueCode::Json {
            e.message.clear();
        }
    }
    v
}

/// Validates an object/value plan and its compact text; asserts every invariant on both and
/// that they agree (exactly, except the wording of a `json` error). Returns the object verdict.
pub fn check_object_and_compact(plan: &Value, request: &Value) -> Verdict {
    let vo = validate(plan, request);
    check_verdict(&vo);
    assert_eq!(vo, validate(plan, request), "not deterministic");
    if plan.is_object() && vo.checks.len() > 1 {
        check_paths_exist(&vo, plan);
    }
    if !plan.is_object() {
        // A non-object plan value is a `type` error at `$` (§5.1); its text may instead be a
        // `json` error (e.g. `1e400`, or nesting over 512 levels), so only objects are compared.
        if !plan.is_string() {
            assert_eq!(vo.checks, [Check::Json]);
            assert_eq!(vo.errors[0].code, IssueCode::Type);
        }
        return vo;
    }
    let compact = serde_json::to_string(plan).expect("a Value serializes");
    {
        // Fuzz finding F2 (fixed in b8a300a): this once failed for values deeper than MAX_DEPTH.
        assert_eq!(compact_size(plan), compact.len(), "compact_size differs from the compact text's length");
        let vt = validate_text(&compact, request);
        check_verdict(&vt);
        if vo.errors.iter().any(|e| e.code == IssueCode::Json) {
            assert_eq!(json_messages_blanked(&vo), json_messages_blanked(&vt), "object vs text");
        } else {
            assert_eq!(vo, vt, "object vs compact text verdicts differ for {compact}");
        }
    }
    vo
}

/// Everything target `validate_text` asserts for one input: the bytes as plan text against the
/// calm-weekday request, and (when they are JSON) as the request of the calm-weekday plan.
pub fn check_text_input(data: &[u8]) {
    let request = calm_request();

    // The bytes as plan text.
    let verdict = validate_bytes(data, request);
    check_verdict(&verdict);
    assert_eq!(verdict, validate_bytes(data, request), "not deterministic");
    if let Ok(text) = std::str::from_utf8(data) {
        check_parser_agrees(text);
        assert_eq!(verdict, validate_text(text, request), "bytes vs text");
        assert_eq!(verdict, validate(&Value::String(text.to_owned()), request), "text vs Value::String");
    }
    match parse_json_bytes(data) {
        Err(_) => {
            assert_eq!(verdict.checks, [Check::Json]);
            assert_eq!(verdict.errors[0].code, IssueCode::Json, "{verdict:?}");
        }
        Ok(value) => {
            if value.is_object() {
                // The parsed object gives the text's verdict, except the size (measured on the
                // compact form instead of the text); its compact text gives the object's verdict.
                let vo = check_object_and_compact(&value, request);
                assert_eq!(shape(&without_size(&verdict)), shape(&without_size(&vo)), "text vs parsed object");
            } else {
                assert_eq!(verdict.checks, [Check::Json]);
                assert_eq!(verdict.errors[0].code, IssueCode::Type, "{verdict:?}");
            }

            // The bytes as the request, for the calm plan (as text and as object), and as both.
            let vr = validate_text(CALM_PLAN, &value);
            check_verdict(&vr);
            assert_eq!(vr, validate_text(CALM_PLAN, &value), "not deterministic");
            let vro = check_object_and_compact(calm_plan(), &value);
            assert_eq!(shape(&without_size(&vr)), shape(&without_size(&vro)), "calm text vs calm object");
            if value.is_object() {
                check_object_and_compact(&value, &value);
            }
        }
    }
}

/// The size in bytes of `value`'s compact JSON (what `serde_json::to_string` writes, numbers as
/// their literals), at any depth and without recursion: the bound on the pairs the edits build
/// (`MAX_PAIR_BYTES` in `lib.rs`). Fuzz finding F2: the walk once read containers deeper than
/// `MAX_DEPTH` as `null`.
pub fn compact_size(value: &Value) -> usize {
    walk(value).0
}

/// Whether a value holds what validator.md D12 and §7 reject although `serde_json` reads it:
/// nesting deeper than `MAX_DEPTH` levels (the value itself is level 1), or a number literal
/// with a fraction or exponent that overflows to infinity (`1e400`).
pub fn beyond_d12(value: &Value) -> bool {
    walk(value).1
}

/// [`compact_size`] and [`beyond_d12`] in one iterative walk.
fn walk(value: &Value) -> (usize, bool) {
    let text_size = |s: &str| {
        let escaped = |c: char| match c {
            '"' | '\\' | '\u{8}' | '\u{c}' | '\n' | '\r' | '\t' => 2,
            '\0'..='\u{1f}' => 6,
            c => c.len_utf8(),
        };
        2 + s.chars().map(escaped).sum::<usize>()
    };
    let (mut size, mut beyond) = (0usize, false);
    let mut stack = vec![(value, 1usize)];
    while let Some((v, depth)) = stack.pop() {
        beyond |= depth > MAX_DEPTH && (v.is_array() || v.is_object());
        size += match v {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => {
                let literal = n.as_str();
                beyond |= literal.contains(['.', 'e', 'E']) && !literal.parse::<f64>().is_ok_and(f64::is_finite);
                literal.len()
            }
            Value::String(s) => text_size(s),
            Value::Array(a) => {
                stack.extend(a.iter().map(|x| (x, depth + 1)));
                a.len().max(1) + 1
            }
            Value::Object(m) => {
                stack.extend(m.values().map(|x| (x, depth + 1)));
                m.keys().map(|k| text_size(k) + 2).sum::<usize>().max(1) + 1
            }
        };
    }
    (size, beyond)
}

/// The core's strict reader against `serde_json` (differential): both accept the same texts and
/// read them to the same value, except what validator.md D12 and §7 reject on purpose (a byte
/// order mark, a number overflowing to infinity, nesting over 512 levels) and the nesting
/// between `serde_json`'s own limit (128) and 512 levels, which only the core reads.
pub fn check_parser_agrees(text: &str) {
    let ours = parse_json(text);
    match serde_json::from_str::<Value>(text) {
        Ok(theirs) => {
            // D12 judges the text: an overflowing literal is an error even where a later
            // duplicate member replaces it (`{"a":1e400,"a":1}`; fuzz finding F3).
            let rejected_on_purpose =
                text.starts_with('\u{feff}') || beyond_d12(&theirs) || has_overflowing_literal(text);
            match ours {
                Ok(ours) => {
                    assert!(!rejected_on_purpose, "the core read what D12 rejects: {text:?}");
                    assert_eq!(
                        serde_json::to_string(&ours).ok(),
                        serde_json::to_string(&theirs).ok(),
                        "the core and serde_json read different values from {text:?}"
                    );
                }
                Err(e) => assert!(rejected_on_purpose, "the core rejects JSON serde_json reads ({e}): {text:?}"),
            }
        }
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {}
        Err(e) => {
            assert!(ours.is_err(), "the core reads what serde_json rejects ({e}): {text:?}");
        }
    }
}

/// Whether JSON text (already known to be valid JSON) holds a number literal with a fraction or
/// exponent that overflows to infinity as an `f64`, anywhere (also in a member a later duplicate
/// replaces).
pub fn has_overflowing_literal(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    i += 1;
                }
                // Only a literal with a fraction or exponent can overflow; integers of any
                // length are exact (validator.md §7).
                let literal = &text[start..i];
                if literal.contains(['.', 'e', 'E']) && literal.parse::<f64>().is_ok_and(f64::is_infinite) {
                    return true;
                }
            }
            _ => i += 1,
        }
    }
    false
}

/// Everything target `validate_pair` asserts for one (plan, request) pair.
pub fn check_pair(plan: &Value, request: &Value) {
    check_object_and_compact(plan, request);
    check_repair(plan, request);
    // The plan's compact text as a text value too (Value::String is validated as text).
    if let Ok(text) = serde_json::to_string(plan) {
        let vs = validate(&Value::String(text.clone()), request);
        check_verdict(&vs);
        assert_eq!(vs, validate_text(&text, request));
    }
}

/// The applied fixes of `r` (the result of `repair(plan, request, options)`) whose issue is still
/// there, each as `"<code> at <path>"`; empty when every fix removed its issue (validator.md §9).
///
/// A fix's path is the issue's in the plan the fix was applied to (a fix's round), so it is
/// checked against the verdict at the end of that round: a later round can move what it names
/// (putting blocks in start order moves another block, with an issue of its own, to the same
/// index). A fix whose (code, path) is absent from the final verdict is taken as done without
/// that replay; for the others, `repair` runs again with `max_rounds` set to each round in turn,
/// so the check uses only the public API.
pub fn fixes_that_left_their_issue(
    plan: momentum_plan::Input<'_>,
    request: &Value,
    options: momentum_plan::RepairOptions,
    r: &momentum_plan::Repair,
) -> Vec<String> {
    use momentum_plan::{Input, RepairOptions, repair};
    let has = |v: &Verdict, f: &momentum_plan::Fix| v.errors.iter().any(|i| i.code == f.code && i.path == f.path);
    let mut left = Vec::new();
    // The results after 1, 2, … rounds, made when first needed.
    let mut after_rounds: Vec<momentum_plan::Repair> = Vec::new();
    for (n, f) in r.applied.iter().enumerate() {
        if !has(&r.verdict, f) {
            continue;
        }
        // The first round whose result has applied this fix: its verdict is the plan's then.
        let mut round_verdict = None;
        for k in 1..=r.rounds {
            let at = usize::try_from(k - 1).expect("a small round count");
            if after_rounds.len() <= at {
                let limited = RepairOptions { max_rounds: k, ..options };
                after_rounds.push(repair(plan, Input::Value(request), &limited).expect("a value request"));
            }
            if after_rounds[at].applied.len() > n {
                round_verdict = Some(&after_rounds[at].verdict);
                break;
            }
        }
        if round_verdict.is_none_or(|v| has(v, f)) {
            left.push(format!("{} at {}", f.code, f.path));
        }
    }
    left
}

/// The repair and schema invariants (module docs) for one pair.
pub fn check_repair(plan: &Value, request: &Value) {
    use momentum_plan::{Input, RepairOptions, SchemaVariant, plan_schema, repair};
    let input = match plan {
        Value::String(t) => Input::Text(t),
        v => Input::Value(v),
    };
    let options = RepairOptions::default();
    let Ok(r) = repair(input, Input::Value(request), &options) else {
        panic!("repair refused a value request");
    };
    check_verdict(&r.verdict);
    // The verdict is the returned text's (for an object plan, as an object and its compact text
    // agree: the wording of a `json` error aside).
    let of_text = validate(&Value::String(r.plan.clone()), request);
    if plan.is_string() {
        assert_eq!(r.verdict, of_text, "the verdict is not the returned plan's");
    } else if plan.is_object() {
        assert_eq!(
            json_messages_blanked(&r.verdict),
            json_messages_blanked(&of_text),
            "the verdict is not the returned plan's"
        );
    }
    if let Some(left) = fixes_that_left_their_issue(input, request, options, &r).first() {
        panic!("a fix left its issue: {left}");
    }
    if validate(plan, request).valid {
        assert!(r.patch.is_empty() && r.applied.is_empty(), "a valid plan was changed");
    }
    let again = repair(Input::Text(&r.plan), Input::Value(request), &options).expect("a value request");
    assert!(again.applied.is_empty(), "a second repair applied more");
    for variant in SchemaVariant::ALL {
        if let Ok(schema) = plan_schema(request, variant) {
            assert!(schema.is_object(), "a schema that is not an object");
        }
    }
}
