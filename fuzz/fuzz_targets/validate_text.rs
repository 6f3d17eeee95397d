//! Fuzz target `validate_text`: arbitrary bytes as plan text (against the calm-weekday request)
//! and as request text (for the calm-weekday plan). See `fuzz/README.md` for the invariants.
#![no_main]

use fuzz_support::{CALM_PLAN, calm_request, check_object_and_compact, check_verdict, without_size};
use libfuzzer_sys::fuzz_target;
use momentum_plan::{Check, IssueCode, Value, json, validate, validate_bytes, validate_text};

fuzz_target!(|data: &[u8]| {
    let request = calm_request();

    // The bytes as plan text.
    let verdict = validate_bytes(data, request);
    check_verdict(&verdict);
    assert_eq!(verdict, validate_bytes(data, request), "not deterministic");
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(verdict, validate_text(text, request), "bytes vs text");
        assert_eq!(verdict, validate(&Value::String(text.to_owned()), request), "text vs Value::String");
    }
    match json::parse_bytes(data) {
        Err(_) => {
            assert_eq!(verdict.checks, [Check::Json]);
            assert_eq!(verdict.errors[0].code, IssueCode::Json, "{verdict:?}");
        }
        Ok(value) => {
            if value.is_object() {
                // The parsed object gives the text's verdict, except the size (measured on the
                // compact form instead of the text); its compact text gives the object's verdict.
                let vo = check_object_and_compact(&value, request);
                assert_eq!(without_size(&verdict), without_size(&vo), "text vs parsed object");
            } else {
                assert_eq!(verdict.checks, [Check::Json]);
                assert_eq!(verdict.errors[0].code, IssueCode::Type, "{verdict:?}");
            }

            // The bytes as the request, for the calm plan (as text and as object), and as both.
            let vr = validate_text(CALM_PLAN, &value);
            check_verdict(&vr);
            assert_eq!(vr, validate_text(CALM_PLAN, &value), "not deterministic");
            let vro = check_object_and_compact(fuzz_support::calm_plan(), &value);
            assert_eq!(without_size(&vr), without_size(&vro), "calm text vs calm object");
            if value.is_object() {
                check_object_and_compact(&value, &value);
            }
        }
    }
});
