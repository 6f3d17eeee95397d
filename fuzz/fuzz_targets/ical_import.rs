//! Fuzz target `ical_import` (issue 32): arbitrary bytes as a calendar file for
//! `momentum_plan_calendar::commitments_from_icalendar`, the week of 2026-10-05 in a zone the first
//! byte picks. Asserts: no panic, no hang (bounded expansion); on success every commitment has the
//! request's shape (a non-blank label, weekdays in week order without repeats, `HH:MM` times) and
//! a request holding them raises no `requestInvalid` in the core; the same input gives the same
//! answer twice.
#![no_main]

use libfuzzer_sys::fuzz_target;
use momentum_plan_calendar::{ImportError, commitments_from_icalendar};

const ZONES: [&str; 6] = ["Europe/Zurich", "America/New_York", "Australia/Sydney", "UTC", "Asia/Kolkata", "Pacific/Chatham"];
const DAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

fn hhmm(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 5 && b[2] == b':' && s[..2].parse::<u8>().is_ok_and(|h| h < 24) && s[3..].parse::<u8>().is_ok_and(|m| m < 60)
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let zone = ZONES[usize::from(pick) % ZONES.len()];
    let text = String::from_utf8_lossy(rest);
    let first = commitments_from_icalendar(&text, "2026-10-05", zone);
    assert_eq!(first, commitments_from_icalendar(&text, "2026-10-05", zone), "not deterministic");
    match first {
        Err(ImportError::Malformed { line, message }) => {
            assert!(line >= 1 && line <= text.split('\n').count().max(1), "line {line} out of the text");
            assert!(!message.trim().is_empty());
        }
        Err(e) => assert!(!e.to_string().is_empty()),
        Ok(x) => {
            for c in &x.commitments {
                assert!(!c.label.trim().is_empty(), "{c:?}");
                assert!(hhmm(&c.start) && hhmm(&c.end), "{c:?}");
                assert!(!c.days.is_empty(), "{c:?}");
                let idx: Vec<usize> = c.days.iter().map(|d| DAYS.iter().position(|w| w == d).expect("a weekday")).collect();
                assert!(idx.windows(2).all(|w| w[0] < w[1]), "{c:?}");
            }
            let request = serde_json::json!({"requestId": "f", "kind": "routine", "commitments": x.commitments});
            let verdict = momentum_plan::validate_text("{}", &request);
            assert!(
                verdict.errors.iter().all(|i| i.code.as_str() != "requestInvalid"),
                "imported commitments are not a valid request: {verdict:?}"
            );
        }
    }
});
