//! Unit tests of the one native side: the texts and the bytes give the same answers on every
//! shared vector, the encoding's markers, and the contract text.

use super::{Answer, Text};

#[test]
fn the_contract_text_is_the_cores() {
    let now = serde_json::to_string(momentum_plan::contract()).expect("contract");
    assert_eq!(super::CONTRACT_JSON, now);
}

/// `validate` of the texts as UTF-8 bytes (what the wasm package passes) answers exactly what it
/// answers for the texts as strings (what the Node package passes), on every shared vector: a plan
/// given as text is passed as that text, an object plan and the request as their compact JSON.
#[test]
fn utf8_bytes_give_the_verdict_of_the_texts_on_every_vector() {
    let mut n = 0;
    for file in momentum_plan_testkit::vector_files() {
        let lines = std::fs::read_to_string(&file).expect("vector file readable");
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let case: serde_json::Value = serde_json::from_str(line).expect("a vector line is JSON");
            let plan = match &case["plan"] {
                serde_json::Value::String(text) => text.clone(),
                other => serde_json::to_string(other).expect("plan serializes"),
            };
            let request = serde_json::to_string(&case["request"]).expect("request serializes");
            let texts = super::validate(Text::Str(&plan), Text::Str(&request));
            assert!(matches!(&texts, Answer::Packed(p) if p.len() > 1), "{}: a packed verdict", case["id"]);
            let bytes = super::validate(Text::Bytes(plan.as_bytes()), Text::Bytes(request.as_bytes()));
            assert_eq!(bytes, texts, "{}", case["id"]);
            n += 1;
        }
    }
    assert!(n > 5000, "only {n} vectors read");
}

/// Bytes that are not UTF-8: the plan gets the core's `json` verdict, the request its error
/// (`!` and `request is not JSON: …`), as `validate_input` gives them for `Input::Bytes`.
#[test]
fn bytes_that_are_not_utf8() {
    let request = Text::Bytes(br#"{"requestId":"r","requestVersion":1,"kind":"routine"}"#);
    let bad_plan = super::validate(Text::Bytes(b"{\"name\":\"\xff\"}"), request).encode();
    let fields: Vec<&str> = bad_plan.split('\0').collect();
    // valid, check digits, error count, then code, path and message of each error (to_packed)
    assert_eq!(&fields[..5], &["0", "0", "1", "json", "$"], "{bad_plan:?}");
    assert!(fields[5].contains("not valid UTF-8") && fields[5].contains("line 1"), "{bad_plan:?}");
    let bad_request = super::validate(Text::Bytes(b"{}"), Text::Bytes(b"{\"a\":\"\xc3\"}")).encode();
    assert!(bad_request.starts_with("!request is not JSON: "), "{bad_request:?}");
    assert!(bad_request.contains("not valid UTF-8"), "{bad_request:?}");
}

/// Each error kind has its marker, read from the core's own messages; values pass unchanged.
#[test]
fn every_answer_encodes_with_its_marker() {
    let request = momentum_plan_testkit::example("calm-weekday.request.json").to_string();
    let schema = super::schema(Text::Str(&request), "validation");
    assert!(matches!(&schema, Answer::Json(t) if t.starts_with('{')), "{schema:?}");
    let parsed = momentum_plan_testkit::example("calm-weekday.request.json");
    let core = momentum_plan::plan_schema(&parsed, momentum_plan::SchemaVariant::Validation).expect("schema");
    assert_eq!(schema.encode(), core.to_string());
    let unknown = super::schema(Text::Str(&request), "loose").encode();
    let message = momentum_plan::SchemaVariant::from_name("loose").expect_err("unknown variant").to_string();
    assert_eq!(unknown, format!("?{message}"));
    let at_fault = super::schema(Text::Str("{}"), "validation").encode();
    let message = momentum_plan::plan_schema(
        &momentum_plan::parse_json("{}").expect("JSON"),
        momentum_plan::SchemaVariant::Validation,
    )
    .expect_err("no plan answers {}")
    .to_string();
    assert_eq!(at_fault, format!("#{message}"));
    let not_json = super::repair(Text::Str("{}"), Text::Str("{\"a\":"), false).encode();
    let message =
        momentum_plan::Argument::Request.not_json(&momentum_plan::parse_json("{\"a\":").expect_err("not JSON"));
    assert_eq!(not_json, format!("!{message}"));
}

/// Calls the converter never makes are a `Misuse`, never a panic.
#[test]
fn misuse_is_an_error() {
    assert!(super::fault_text("neither", "$", "cycle", "$").is_err());
    assert!(super::plan_fault("$", "cycle", "$").is_err(), "a cycle is an exception, not a verdict");
    assert!(super::plan_text_fault(0x1_0000, "").is_err());
    assert!(super::float_text(f64::NAN).is_err());
    assert!(super::value_span("{}", "not a path").is_err());
    assert_eq!(super::value_span("{", "$"), Ok(None));
}

/// The stream's answers: packed issues (`""` for none) whose errors are the core stream's settled
/// issues, the verdict packed as `validate` packs it, `~` after `finish`, `!` for a request that
/// is not JSON; texts and bytes alike.
#[test]
fn the_stream_encodes_the_core_streams_answers() {
    let path = momentum_plan_testkit::root().join("examples").join("calm-weekday-broken.plan.json");
    let plan = std::fs::read_to_string(path).expect("the broken example is readable");
    let request = momentum_plan_testkit::example("calm-weekday-broken.request.json").to_string();
    let mut stream = super::Stream::new(Text::Bytes(request.as_bytes()));
    assert_eq!(stream.request_error(), "");
    let mut core = momentum_plan::PlanStream::new(momentum_plan::parse_json(&request).expect("JSON"));
    let mut settled = 0;
    for chunk in plan.as_bytes().chunks(7) {
        let want = core.push(chunk);
        let got = stream.push(chunk);
        if want.is_empty() {
            assert_eq!(got, Answer::Packed(String::new()));
        } else {
            settled += want.len();
            let packed = momentum_plan::Verdict { valid: false, errors: want, warnings: vec![], checks: vec![] };
            assert_eq!(got, Answer::Packed(packed.to_packed()));
        }
    }
    assert!(settled >= 3, "{settled} issues settled");
    assert_eq!(stream.len(), plan.len());
    assert_eq!(stream.finish(), super::validate(Text::Str(&plan), Text::Str(&request)));
    let spent = format!("~{}", momentum_plan::PlanStream::FINISHED);
    assert_eq!(stream.push(b"}").encode(), spent);
    assert_eq!(stream.finish().encode(), spent);
    assert!(stream.is_empty() && !stream.repeated_name());
    let bad = super::Stream::new(Text::Str("{\"a\":"));
    assert!(bad.request_error().starts_with("!request is not JSON: "), "{}", bad.request_error());
}
