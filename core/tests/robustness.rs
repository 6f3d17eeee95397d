//! Hostile input (issue: deep nesting, invalid UTF-8, huge strings and integers): clean `json`
//! errors or exact handling, never a panic or a stack overflow. The deep cases run on a thread
//! with a 1 MiB stack, the size wasm32 gives the main thread, to show the depth is bounded.
#![allow(clippy::disallowed_methods)]

mod common;

use momentum_plan::{Check, Value, validate, validate_bytes, validate_text};
use serde_json::json;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(1 << 20).spawn(f).expect("thread").join().expect("no panic")
}

fn only_json_error(v: &momentum_plan::Verdict) {
    assert_eq!(v.errors.len(), 1, "{}", v.to_json());
    assert_eq!((v.errors[0].code.as_str(), v.errors[0].path.as_str()), ("json", "$"));
    assert_eq!(v.checks, vec![Check::Json]);
}

#[test]
fn six_hundred_levels_of_brackets_are_a_json_error() {
    on_small_stack(|| {
        let text = "[".repeat(600);
        only_json_error(&validate_text(&text, &json!({})));
        let closed = format!("{}{}", "[".repeat(600), "]".repeat(600));
        only_json_error(&validate_text(&closed, &json!({})));
        let nested_object = format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
        only_json_error(&validate_text(&nested_object, &json!({})));
    });
}

#[test]
fn an_object_plan_nested_too_deep_is_a_json_error() {
    on_small_stack(|| {
        let mut inner = Value::Null;
        for _ in 0..600 {
            inner = Value::Array(vec![inner]);
        }
        let plan = json!({"kind": "routine", "routine": inner});
        only_json_error(&validate(&plan, &json!({})));
        // Dropping the 600-level value recurses inside serde_json; forget it to keep this test
        // about the validator (the validator never builds values that deep).
        std::mem::forget(plan);
    });
}

#[test]
fn invalid_utf8_is_a_json_error_with_a_position() {
    let v = validate_bytes(b"{\"name\": \"caf\xe9\"}", &json!({}));
    only_json_error(&v);
    assert!(
        v.errors[0].message.contains("UTF-8") && v.errors[0].message.contains("column 14"),
        "{}",
        v.errors[0].message
    );
}

#[test]
fn a_one_megabyte_string_is_measured_exactly() {
    let (mut plan, request) = (common::example("calm-weekday.plan.json"), common::example("calm-weekday.request.json"));
    plan["name"] = Value::String("n".repeat(1 << 20));
    let v = validate(&plan, &request);
    let codes: Vec<(&str, &str)> = v.errors.iter().map(|i| (i.code.as_str(), i.path.as_str())).collect();
    assert_eq!(codes, [("size", "$"), ("length", "$.name")]);
    assert!(v.errors[1].message.contains("1048576"), "{}", v.errors[1].message);
    assert!(v.errors.iter().all(|i| i.message.len() < 400), "messages quote values, not megabytes");
}

#[test]
fn a_million_digit_integer_is_exact() {
    let (plan, request) = (common::example("calm-weekday.plan.json"), common::example("calm-weekday.request.json"));
    let text = serde_json::to_string(&plan).unwrap();
    let digits = format!("1{}", "0".repeat(1_000_000));
    let huge = text.replacen("\"durationMin\":30", &format!("\"durationMin\":{digits}"), 1);
    assert_ne!(huge, text);
    let v = validate_text(&huge, &request);
    let codes: Vec<(&str, &str)> = v.errors.iter().map(|i| (i.code.as_str(), i.path.as_str())).collect();
    // Out of 1..720, but an integer: the commitment pass still sees the block run past Work
    // (validator.md §5.7: any block with a valid start and an integer duration).
    assert_eq!(
        codes,
        [("size", "$"), ("duration", "$.routine.blocks[0].durationMin"), ("commitment", "$.routine.blocks[0]")]
    );
    // The same integer in the request and the echo stays equal, exactly; one more differs.
    let mut req = request.clone();
    req["requestVersion"] = serde_json::from_str(&digits).unwrap();
    let mut p = plan.clone();
    p["request"]["requestVersion"] = serde_json::from_str(&digits).unwrap();
    assert!(!validate(&p, &req).errors.iter().any(|i| i.code.as_str() == "request"));
    p["request"]["requestVersion"] = serde_json::from_str(&format!("{digits}1")).unwrap();
    assert!(validate(&p, &req).errors.iter().any(|i| i.code.as_str() == "request"));
}

/// `validate_value_text` refuses what the strict reader refuses (a `JsonError` naming it, for the
/// caller to fall back to `validate` on its own parsed value), and that fallback gives the `json`
/// verdict `validate` always gave; accepted texts judge as their parsed values do.
#[test]
fn value_text_refuses_what_the_strict_reader_refuses() {
    on_small_stack(|| {
        let request = r#"{"requestId":"r"}"#;
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(600), "]".repeat(600));
        for (plan, says) in [
            (r#"{"a":1e400}"#, "overflows to infinity"),
            (r#"{"a":"\ud800"}"#, "lone surrogate"),
            (deep.as_str(), "deeper than 512"),
            (r#"{"a":1,}"#, ""),
        ] {
            let e = momentum_plan::validate_value_text(plan, request).unwrap_err();
            assert!(e.to_string().contains(says), "{plan:.40}: {e}");
        }
        // The request is read strictly too.
        assert!(momentum_plan::validate_value_text("{}", r#"{"a":1e400}"#).is_err());
        // What a host does next: its own reader (serde_json here), then `validate`.
        let mut de = serde_json::Deserializer::from_str(r#"{"a":1e400}"#);
        de.disable_recursion_limit();
        let v: Value = serde::Deserialize::deserialize(&mut de).unwrap();
        only_json_error(&validate(&v, &json!({"requestId": "r"})));
        // Whitespace does not count: the size is the compact JSON's.
        let plan = json!({"format": "daily-momentum-ai-plan", "requestId": "r"});
        let pretty = serde_json::to_string_pretty(&plan).unwrap();
        assert_eq!(
            momentum_plan::validate_value_text(&pretty, request).unwrap(),
            validate(&plan, &json!({"requestId": "r"}))
        );
    });
}
