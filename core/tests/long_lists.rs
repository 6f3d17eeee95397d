//! Day lists far over the limit (issue 27 item 7): `validate_text` checks a list longer than 64
//! elements a block at a time as it reads it, keeping only the issues. Its verdicts must be the
//! ones the whole tree gives (`validate_value_text` builds it all, then runs the same rules), on
//! routines made to reach every branch: each kind of block fault, commitments, a final `rest`
//! block past midnight, elements that are not blocks, repeated `blocks`, `weekdays`, weekday and
//! `routine` members (the last value counts, §7), lists at and around the threshold, pretty and
//! compact text; and a JSON fault anywhere in such a text is the fault the whole parse reports.
#![allow(clippy::disallowed_methods)]

mod common;

use momentum_plan::{Value, Verdict, validate_text, validate_value_text};

/// A seeded generator (no clock, no global state): `next(n)` is in `0..n`.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.0 >> 33).unwrap_or(0) % n.max(1)
    }
}

/// One element of a day list: mostly blocks, some with a fault, a few not blocks at all.
fn element(r: &mut Rng, names: usize) -> String {
    let start = format!("{:02}:{:02}", r.next(24), r.next(12) * 5);
    let activity = match r.next(20) {
        0 => "\"Caf\\u00e9 time\"".to_owned(),
        1 => "42".to_owned(),
        _ => format!("\"Activity {}\"", r.next(names)),
    };
    let category = ["\"body\"", "\"work\"", "\"rest\"", "\"nourish\"", "\"food\"", "7"][r.next(6)];
    let minutes = ["30", "45", "90", "600", "0", "\"30\"", "1.5", "1441"][r.next(8)];
    match r.next(40) {
        0 => return ["42", "\"x\"", "null", "[]", "{}"][r.next(5)].to_owned(),
        1 => return format!("{{\"durationMin\": {minutes}, \"activity\": {activity}}}"),
        2 => return format!("{{\"start\": \"25:00\", \"durationMin\": 30, \"activity\": {activity}}}"),
        _ => {}
    }
    let essential = if r.next(15) == 0 { "\"yes\"" } else { "true" };
    format!(
        "{{\"start\": \"{start}\", \"durationMin\": {minutes}, \"activity\": {activity}, \"category\": {category}, \"essential\": {essential}}}"
    )
}

/// A day list of `n` elements, in time order or not, maybe ending with a `rest` block past midnight.
fn list(r: &mut Rng, n: usize) -> String {
    let names = [5, 30, 60][r.next(3)];
    let mut items: Vec<String> = (0..n).map(|_| element(r, names)).collect();
    if r.next(2) == 0
        && let Some(last) = items.last_mut()
    {
        "{\"start\": \"22:30\", \"durationMin\": 480, \"activity\": \"Sleep\", \"category\": \"rest\", \"essential\": true}"
            .clone_into(last);
    }
    format!("[{}]", items.join(", "))
}

/// A routine plan answering `request` with routine members `routine` (text, repeats allowed).
fn plan(routine: &str, request: &str) -> String {
    format!(
        "{{\"format\": \"daily-momentum-ai-plan\", \"contractVersion\": 1, \"requestId\": \"r-1\", \"kind\": \"routine\", \
         \"name\": \"N\", \"tagline\": \"T\", \"description\": \"D\", \"routine\": {routine}, \"request\": {request}}}"
    )
}

/// The verdict of the whole tree (every list built, then checked).
fn whole(text: &str, request: &str) -> Verdict {
    validate_value_text(text, request).unwrap_or_else(|e| Verdict::not_json(&e))
}

fn requests() -> Vec<String> {
    let work = r#"{"label": "Work", "days": ["mon", "tue", "wed", "thu", "fri"], "start": "09:00", "end": "17:00"}"#;
    let night = r#"{"label": "Shift", "days": ["sat"], "start": "22:00", "end": "06:00"}"#;
    [format!("[{work}, {night}]"), "[]".to_owned()]
        .iter()
        .map(|c| format!("{{\"requestId\": \"r-1\", \"kind\": \"routine\", \"commitments\": {c}}}"))
        .collect()
}

/// The routines: lists around the threshold, in each place a day list can be, and repeated.
fn routines(r: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for n in [63, 64, 65, 66, 100, 130] {
        out.push(format!("{{\"blocks\": {}}}", list(r, n)));
        out.push(format!(
            "{{\"blocks\": {}, \"weekdays\": {{\"mon\": {}, \"Sat\": {}, \"sun\": {}}}}}",
            list(r, 3),
            list(r, n),
            list(r, n),
            list(r, n + 1)
        ));
        out.push(format!("{{\"blocks\": {}, \"blocks\": {}}}", list(r, n), list(r, 2)));
        out.push(format!("{{\"blocks\": {}, \"blocks\": {}}}", list(r, 2), list(r, n)));
        out.push(format!("{{\"blocks\": {}, \"blocks\": \"none\"}}", list(r, n)));
        out.push(format!("{{\"weekdays\": {{\"tue\": {}, \"tue\": {{}}}}, \"blocks\": {}}}", list(r, n), list(r, n)));
        out.push(format!("{{\"weekdays\": {{\"wed\": {}}}, \"weekdays\": {{\"thu\": {}}}}}", list(r, n), list(r, n)));
        out.push(format!("{{\"weekdays\": {{\"fri\": {}}}, \"weekdays\": 5, \"blocks\": []}}", list(r, n)));
    }
    out
}

#[test]
fn long_lists_checked_as_read_give_the_whole_trees_verdicts() {
    let mut r = Rng(0x5eed_1157);
    let (mut compared, mut long_issues) = (0, 0);
    for request in requests() {
        let request_value: Value = momentum_plan::parse_json(&request).expect("request is JSON");
        for routine in routines(&mut r) {
            let mut texts = vec![plan(&routine, &request)];
            // The same plan with a repeated `routine`: the last one counts.
            texts.push(plan(&format!("{{\"blocks\": {}}}, \"routine\": {routine}", list(&mut r, 70)), &request));
            // Pretty-printed (no repeats left): white space everywhere between tokens.
            if let Ok(v) = momentum_plan::parse_json(&texts[0]) {
                texts.push(serde_json::to_string_pretty(&v).expect("serializable"));
            }
            for text in texts {
                let (got, want) = (validate_text(&text, &request_value), whole(&text, &request));
                assert_eq!(got.to_json(), want.to_json(), "{text}");
                compared += 1;
                long_issues += got.errors.len();
            }
        }
    }
    assert!(compared > 100 && long_issues > 1000, "{compared} plans, {long_issues} errors");
}

#[test]
fn a_json_fault_in_a_long_list_is_the_whole_parses() {
    let mut r = Rng(0xfa_0175);
    let request = &requests()[0];
    let request_value: Value = momentum_plan::parse_json(request).expect("request is JSON");
    let text = plan(&format!("{{\"blocks\": {}}}", list(&mut r, 90)), request);
    let mut faults = 0;
    for _ in 0..300 {
        // Cut the text short, or put a stray byte somewhere in it.
        let at = r.next(text.len());
        let broken = if r.next(2) == 0 {
            text[..at].to_owned()
        } else {
            let stray = ["]", "}", ",", ":", "x", "\"", "[", "{", "1", " "][r.next(10)];
            format!("{}{stray}{}", &text[..at], &text[at..])
        };
        let (got, want) = (validate_text(&broken, &request_value), whole(&broken, request));
        assert_eq!(got.to_json(), want.to_json(), "{broken}");
        faults += usize::from(got.errors.first().is_some_and(|i| i.code.as_str() == "json"));
    }
    assert!(faults > 200, "{faults} of 300 texts were not JSON");
}
