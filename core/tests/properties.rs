//! Property tests (proptest): for arbitrary JSON values and for random mutations of the bundled
//! plans, `validate` never panics, `valid == errors.is_empty()`, every path starts with `$`,
//! messages are non-empty, `checks` is `["json"]` or all eight, and a second call gives the
//! identical verdict. Object plans and their compact text agree.
#![allow(clippy::disallowed_methods)]

mod common;

use momentum_plan::{Check, Value, Verdict, validate};
use proptest::prelude::*;
use serde_json::{Map, Number};

fn invariants(v: &Verdict) {
    assert_eq!(v.valid, v.errors.is_empty());
    for i in v.errors.iter().chain(&v.warnings) {
        assert!(i.path.starts_with('$'), "path {}", i.path);
        assert!(!i.message.trim().is_empty());
    }
    assert!(v.checks == vec![Check::Json] || v.checks == Check::ALL.to_vec());
}

fn check(plan: &Value, request: &Value) {
    let v = validate(plan, request);
    invariants(&v);
    assert_eq!(validate(plan, request), v, "a second call differs");
    if plan.is_object() {
        let text = serde_json::to_string(plan).expect("serializable");
        assert_eq!(validate(&Value::String(text), request), v, "object and compact text differ");
    }
}

/// Numbers as JSON literals: small and huge integers, fractions, exponents, `-0`.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        (0i64..2000).prop_map(|n| Value::Number(n.into())),
        "-?[0-9]{1,30}".prop_map(|s| Value::Number(serde_json::from_str::<Number>(&s).unwrap_or_else(|_| 0.into()))),
        "-?[0-9]{1,4}\\.[0-9]{1,3}(e-?[0-9]{1,2})?"
            .prop_map(|s| Value::Number(serde_json::from_str::<Number>(&s).unwrap_or_else(|_| 0.into()))),
    ]
}

/// Strings drawn from the plan's own vocabulary and from anything at all.
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "routine",
            "goal",
            "rest",
            "body",
            "work",
            "mon",
            "sun",
            "Mon",
            "07:00",
            "23:59",
            "24:00",
            "00:00",
            "Work",
            "Sleep",
            "daily-momentum-ai-plan",
            "",
            " ",
            "\u{3000}",
            "é",
            "start",
            "durationMin",
        ])
        .prop_map(str::to_owned),
        any::<String>(),
        "[0-2][0-9]:[0-5][0-9]",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((string(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Every JSON pointer inside `v` (the root excluded).
fn pointers(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, &p, out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, &p, out);
            }
        }
        _ => {}
    }
}

fn examples() -> Vec<(Value, Value)> {
    ["calm-weekday", "calm-weekday-broken", "first-5k", "week-with-choir"]
        .iter()
        .map(|n| (common::example(&format!("{n}.plan.json")), common::example(&format!("{n}.request.json"))))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_values_never_break_the_validator(plan in json_value(), request in json_value()) {
        check(&plan, &request);
        // and as a plan object wrapping them
        let mut m = Map::new();
        m.insert("kind".into(), Value::String("routine".into()));
        m.insert("routine".into(), plan.clone());
        m.insert("goal".into(), plan);
        check(&Value::Object(m), &request);
    }

    #[test]
    fn arbitrary_text_never_breaks_the_validator(text in any::<String>(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let request = Value::Object(Map::new());
        check(&Value::String(text), &request);
        let v = momentum_plan::validate_bytes(&bytes, &request);
        invariants(&v);
    }

    #[test]
    fn mutated_examples_never_break_the_validator(which in 0usize..4, picks in prop::collection::vec((any::<prop::sample::Index>(), json_value(), 0u8..3), 1..4)) {
        let all = examples();
        let (mut plan, mut request) = all[which].clone();
        for (index, value, how) in picks {
            let mut ptrs = Vec::new();
            pointers(&plan, "", &mut ptrs);
            let ptr = index.get(&ptrs).clone();
            match how {
                0 => { if let Some(slot) = plan.pointer_mut(&ptr) { *slot = value; } }
                1 => {
                    let (parent, key) = ptr.rsplit_once('/').unwrap_or(("", ""));
                    match plan.pointer_mut(parent) {
                        Some(Value::Object(m)) => { m.shift_remove(key); }
                        Some(Value::Array(a)) => { if let Ok(i) = key.parse::<usize>() && i < a.len() { a.remove(i); } }
                        _ => {}
                    }
                }
                _ => { if let Some(m) = request.as_object_mut() { m.insert("days".into(), value); } }
            }
        }
        check(&plan, &request);
    }
}

/// One call a host may make on a [`momentum_plan::TreeBuilder`], in any order (misuse included).
#[derive(Debug, Clone)]
enum Op {
    Null,
    Bool(bool),
    Integer(i64),
    Digits(String),
    Number(String),
    Float(f64),
    Str(String),
    BeginArray,
    EndArray,
    BeginObject,
    Key(String),
    EndObject,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Null),
        any::<bool>().prop_map(Op::Bool),
        any::<i64>().prop_map(Op::Integer),
        "-?[0-9]{0,25}".prop_map(Op::Digits),
        // An exponent always with its sign: the reference below is serde_json's text, which
        // writes `1e5` as `1e+5` (one byte more than the literal the tree keeps).
        "[-+0-9.eE ]{0,8}".prop_map(|s| Op::Number(s.replace('e', "e+").replace('E', "E+"))),
        any::<f64>().prop_map(Op::Float),
        string().prop_map(Op::Str),
        Just(Op::BeginArray),
        Just(Op::EndArray),
        Just(Op::BeginObject),
        string().prop_map(Op::Key),
        Just(Op::EndObject),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// Any sequence of builder calls never panics; whatever it builds measures exactly its compact
    /// JSON, and validates as its JSON text does.
    #[test]
    fn any_builder_calls_are_safe_and_measured_exactly(ops in prop::collection::vec(op(), 0..40)) {
        let arena = momentum_plan::Arena::new();
        let mut b = momentum_plan::TreeBuilder::new(&arena);
        for op in &ops {
            match op {
                Op::Null => b.null(),
                Op::Bool(x) => b.bool(*x),
                Op::Integer(i) => b.integer(*i),
                Op::Digits(d) => b.integer_digits(d),
                Op::Number(n) => b.number(n),
                Op::Float(f) => {
                    b.float(*f);
                }
                Op::Str(s) => b.string(s),
                Op::BeginArray => {
                    let _ = b.begin_array();
                }
                Op::EndArray => b.end_array(),
                Op::BeginObject => {
                    let _ = b.begin_object();
                }
                Op::Key(k) => b.key(k),
                Op::EndObject => b.end_object(),
            }
        }
        if let Some(tree) = b.finish() {
            let value = tree.to_value();
            let text = serde_json::to_string(&value).expect("serializable");
            prop_assert_eq!(tree.size(), text.len());
            let request = serde_json::json!({"requestId": "r1", "kind": "routine"});
            let by_tree = momentum_plan::validate_input(momentum_plan::Input::Tree(&tree), momentum_plan::Input::Value(&request))
                .expect("a value request is never an error");
            invariants(&by_tree);
            // A built string is a string value, not plan text: compare with the value's JSON text.
            let by_text = momentum_plan::validate_input(momentum_plan::Input::Text(&text), momentum_plan::Input::Value(&request))
                .expect("a value request is never an error");
            prop_assert_eq!(&by_tree, &by_text);
        }
    }
}
