//! Native unit tests. The TypeScript types themselves (`js/types.d.ts`) are generated and checked
//! against the core's registries and JSON by `momentum-plan-codegen`'s tests; `test/types/`
//! type-checks a usage file against the built package's `.d.ts`.

#[test]
fn the_contract_text_is_the_cores() {
    let now = serde_json::to_string(momentum_plan::contract()).expect("contract");
    assert_eq!(crate::CONTRACT_JSON, now);
}

/// `validateUtf8` (what index.js calls, the texts as UTF-8 bytes) answers exactly what
/// `validateTexts` (the texts as strings) answers, on every shared vector: a plan given as text
/// is passed as that text, an object plan and the request as their compact JSON.
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
            let texts = crate::validate_texts(&plan, &request);
            assert!(texts.len() > 1, "{}: a packed verdict", case["id"]);
            assert_eq!(crate::validate_utf8(plan.as_bytes(), request.as_bytes()), texts, "{}", case["id"]);
            n += 1;
        }
    }
    assert!(n > 5000, "only {n} vectors read");
}

/// Bytes that are not UTF-8: the plan gets the core's `json` verdict, the request its error
/// (`!` and `request is not JSON: …`), as `validate_input` gives them for `Input::Bytes`.
#[test]
fn bytes_that_are_not_utf8() {
    let request = br#"{"requestId":"r","requestVersion":1,"kind":"routine"}"#;
    let bad_plan = crate::validate_utf8(b"{\"name\":\"\xff\"}", request);
    let fields: Vec<&str> = bad_plan.split('\0').collect();
    // valid, check digits, error count, then code, path and message of each error (to_packed)
    assert_eq!(&fields[..5], &["0", "0", "1", "json", "$"], "{bad_plan:?}");
    assert!(fields[5].contains("not valid UTF-8") && fields[5].contains("line 1"), "{bad_plan:?}");
    let bad_request = crate::validate_utf8(b"{}", b"{\"a\":\"\xc3\"}");
    assert!(bad_request.starts_with("!request is not JSON: "), "{bad_request:?}");
    assert!(bad_request.contains("not valid UTF-8"), "{bad_request:?}");
}
