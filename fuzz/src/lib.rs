//! Shared support for the fuzz targets: the fixed inputs (the calm-weekday example), the verdict
//! invariants every target asserts, and a plan-shaped JSON value generator with structured edits
//! driven by `arbitrary::Unstructured`.
//!
//! Invariants asserted on every verdict (validator.md §4):
//! - `valid == errors.is_empty()`;
//! - every issue path starts with `$` and is a well-formed path (D7 rendering);
//! - every message is non-blank;
//! - `checks` is `["json"]` (then exactly one `json`/`type` error at `$` and no warnings) or all
//!   eight checks;
//! - warnings are only `overnight`; `notSaved` never comes from the validator;
//! - `to_json()` is JSON with the four keys in order.
//!
//! Invariants between calls: the same input gives the same verdict twice; bytes, text and
//! `Value::String(text)` give the same verdict; an object plan and its compact text give the
//! same verdict; text and the object it parses to differ only in the `size` error (text is
//! measured in its own bytes, the object by its compact form).

use arbitrary::{Result, Unstructured};
use momentum_plan::{Check, IssueCode, Value, Verdict, json, validate, validate_text};
use serde_json::{Map, Number};
use std::sync::OnceLock;

/// The calm-weekday request of `shared/examples` (read at compile time).
pub const CALM_REQUEST: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/examples/calm-weekday.request.json"));

/// The calm-weekday plan of `shared/examples` (read at compile time).
pub const CALM_PLAN: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/examples/calm-weekday.plan.json"));

/// The calm-weekday request as a value (parsed once).
pub fn calm_request() -> &'static Value {
    static REQ: OnceLock<Value> = OnceLock::new();
    REQ.get_or_init(|| json::parse(CALM_REQUEST).expect("the calm-weekday request is JSON"))
}

/// The calm-weekday plan as a value (parsed once).
pub fn calm_plan() -> &'static Value {
    static PLAN: OnceLock<Value> = OnceLock::new();
    PLAN.get_or_init(|| json::parse(CALM_PLAN).expect("the calm-weekday plan is JSON"))
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
        assert_eq!(IssueCode::from_str_code(issue.code.as_str()), Some(issue.code));
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
    let back = json::parse(&text).expect("to_json is JSON");
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
        assert_eq!(json::compact_size(plan), compact.len(), "compact_size differs from the compact text's length");
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

// ---------------------------------------------------------------------------------------------
// Plan-shaped value generation and structured edits.

/// Member names of the plan and request shapes (validator.md §2–§5).
pub const KEYS: &[&str] = &[
    "format",
    "contractVersion",
    "requestId",
    "kind",
    "name",
    "tagline",
    "description",
    "routine",
    "blocks",
    "weekdays",
    "start",
    "durationMin",
    "activity",
    "category",
    "essential",
    "goal",
    "days",
    "day",
    "activities",
    "title",
    "minutes",
    "guidance",
    "doneWhen",
    "request",
    "requestVersion",
    "timezone",
    "startDate",
    "wake",
    "sleep",
    "commitments",
    "label",
    "end",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    "Mon",
    "",
    "x",
    "a b",
    "it's\\",
    "mön",
];

/// Interesting strings: the format, kinds, times, categories, weekday ids, labels.
pub const STRINGS: &[&str] = &[
    "daily-momentum-ai-plan",
    "routine",
    "goal",
    "00:00",
    "06:45",
    "07:15",
    "09:00",
    "17:00",
    "22:00",
    "23:59",
    "24:00",
    "12:60",
    "7:05",
    "07:5",
    "0700",
    "07:00 ",
    "\u{ff10}7:00",
    "mind",
    "body",
    "work",
    "rest",
    "social",
    "service",
    "learning",
    "craft",
    "nourish",
    "Rest",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    "monday",
    "Work",
    "Sleep",
    "Walk",
    "",
    " ",
    "\t\n",
    "\u{2028}",
    "\u{feff}",
    "\u{1f600}",
    "\u{0}",
    "a\"b\\c",
    "req-2026-10-05-calm-weekday",
    "Europe/Zurich",
    "2026-10-05",
    "\u{301}",
    "\u{fffd}",
];

/// Interesting number literals (kept exactly by `arbitrary_precision`).
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "30",
    "45",
    "60",
    "90",
    "91",
    "480",
    "719",
    "720",
    "721",
    "1440",
    "1441",
    "1.0",
    "1e0",
    "1E0",
    "10e-1",
    "0.1e1",
    "1.5",
    "-0",
    "-0.0",
    "0.0",
    "1e400",
    "-1e400",
    "1e-400",
    "1e308",
    "1.7976931348623157e308",
    "2e308",
    "9007199254740993",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "0.000000000000000000000000000001e30",
    "262144",
    "40",
    "41",
    "24",
    "25",
];

/// Depth budget for generated values (a few levels more than any plan needs).
const GEN_DEPTH: u32 = 7;

/// A number from [`NUMBERS`] or a random integer/float.
pub fn gen_number(u: &mut Unstructured<'_>) -> Result<Number> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 | 1 => serde_json::from_str(u.choose(NUMBERS)?).expect("a number literal"),
        2 => Number::from(u.arbitrary::<i64>()?),
        _ => Number::from_f64(u.arbitrary::<f64>()?).unwrap_or_else(|| Number::from(0)),
    })
}

/// A string from [`STRINGS`], an arbitrary string, or a long string (up to 300,000 chars).
pub fn gen_string(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=9u8)? {
        0..=5 => (*u.choose(STRINGS)?).to_owned(),
        6..=8 => u.arbitrary::<String>()?,
        _ => {
            let ch = *u.choose(&['a', ' ', 'é', '\u{1f600}', '"', '\u{7f}'])?;
            let n = *u.choose(&[39usize, 40, 41, 80, 81, 120, 121, 600, 601, 1000, 1001, 300_000])?;
            std::iter::repeat_n(ch, n).collect()
        }
    })
}

/// A member name from [`KEYS`] or arbitrary.
pub fn gen_key(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(if u.ratio(7u8, 8)? { (*u.choose(KEYS)?).to_owned() } else { u.arbitrary()? })
}

/// A JSON value of at most `depth` more levels, biased towards plan vocabulary.
pub fn gen_value(u: &mut Unstructured<'_>, depth: u32) -> Result<Value> {
    let top = if depth == 0 { 4 } else { 6 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(gen_number(u)?),
        3 | 4 => Value::String(gen_string(u)?),
        5 => {
            let n = u.int_in_range(0..=4u8)?;
            let mut a = Vec::new();
            for _ in 0..n {
                a.push(gen_value(u, depth - 1)?);
            }
            Value::Array(a)
        }
        _ => {
            let n = u.int_in_range(0..=6u8)?;
            let mut m = Map::new();
            for _ in 0..n {
                let k = gen_key(u)?;
                m.insert(k, gen_value(u, depth - 1)?);
            }
            Value::Object(m)
        }
    })
}

/// A plan-like object: the calm plan (or a generated object) with edits.
pub fn gen_plan(u: &mut Unstructured<'_>) -> Result<Value> {
    if u.ratio(3u8, 4)? { Ok(calm_plan().clone()) } else { gen_value(u, GEN_DEPTH) }
}

/// Picks a node of `v` (walking down a random number of levels) and returns it.
fn pick<'v>(u: &mut Unstructured<'_>, v: &'v mut Value) -> Result<&'v mut Value> {
    // Choose the route on a shared borrow, then walk it mutably.
    let mut route = Vec::new();
    let mut at: &Value = v;
    while u.ratio(3u8, 4)? {
        let len = match at {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if len == 0 {
            break;
        }
        let i = u.choose_index(len)?;
        route.push(i);
        at = match at {
            Value::Object(m) => m.values().nth(i).expect("in range"),
            Value::Array(a) => &a[i],
            _ => unreachable!("len > 0"),
        };
    }
    let mut node = v;
    for i in route {
        node = match node {
            Value::Object(m) => m.values_mut().nth(i).expect("in range"),
            Value::Array(a) => &mut a[i],
            _ => unreachable!("the route was walked above"),
        };
    }
    Ok(node)
}

/// Applies up to 8 structured edits to `plan` and `request`.
pub fn edit(u: &mut Unstructured<'_>, plan: &mut Value, request: &mut Value) -> Result<()> {
    let n = u.int_in_range(0..=8u8)?;
    for _ in 0..n {
        let target: &mut Value = if u.ratio(4u8, 5)? { &mut *plan } else { &mut *request };
        let node = pick(u, target)?;
        match u.int_in_range(0..=9u8)? {
            0 | 1 => *node = gen_value(u, 3)?,
            2 => {
                if let Value::Object(m) = node {
                    if !m.is_empty() {
                        let i = u.choose_index(m.len())?;
                        let k = m.keys().nth(i).cloned().expect("in range");
                        m.shift_remove(&k);
                    }
                } else if let Value::Array(a) = node
                    && !a.is_empty()
                {
                    let i = u.choose_index(a.len())?;
                    a.remove(i);
                }
            }
            3 => match node {
                Value::Object(m) => {
                    let k = gen_key(u)?;
                    let v = gen_value(u, 2)?;
                    m.insert(k, v);
                }
                Value::Array(a) => {
                    let v = if a.is_empty() { gen_value(u, 2)? } else { a[u.choose_index(a.len())?].clone() };
                    let at = u.int_in_range(0..=a.len())?;
                    a.insert(at, v);
                }
                _ => *node = Value::String(gen_string(u)?),
            },
            4 => {
                if let Value::Array(a) = node
                    && a.len() > 1
                {
                    let i = u.choose_index(a.len())?;
                    let j = u.choose_index(a.len())?;
                    a.swap(i, j);
                } else {
                    *node = Value::Number(gen_number(u)?);
                }
            }
            5 => {
                // Repeat an array's element many times (limits: 24, 40, 90).
                if let Value::Array(a) = node
                    && let Some(first) = a.first().cloned()
                {
                    let n = *u.choose(&[23usize, 24, 25, 39, 40, 41, 89, 90, 91])?;
                    while a.len() < n {
                        a.push(first.clone());
                    }
                }
            }
            6 => {
                // Wrap in many levels: around MAX_DEPTH (512).
                let levels = u.int_in_range(500..=515u32)?;
                let mut v = std::mem::take(node);
                for l in 0..levels {
                    v = if l % 2 == 0 {
                        Value::Array(vec![v])
                    } else {
                        Value::Object(Map::from_iter([("x".to_owned(), v)]))
                    };
                }
                *node = v;
            }
            7 => *node = Value::String(gen_string(u)?),
            _ => {
                // Keep the echo in step with the request so later checks are reached.
                if let Value::Object(p) = &mut *plan {
                    p.insert("request".to_owned(), request.clone());
                    if let Some(id) = request.get("requestId") {
                        p.insert("requestId".to_owned(), id.clone());
                    }
                }
            }
        }
    }
    Ok(())
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
