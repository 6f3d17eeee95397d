//! One test per issue code and per deliberate fix D1–D12 (validator.md §5–§7), on small plans
//! whose expected verdicts follow from the spec, plus the bundled broken example.
#![allow(clippy::disallowed_methods)]

mod common;

use common::{errors, example, pairs, warnings};
use momentum_plan::{Check, IssueCode, Value, Verdict, validate, validate_text};
use serde_json::json;

/// The bundled calm-weekday plan and its request (Work mon–fri 09:00–17:00; a final overnight
/// Sleep), both as parsed from `examples/`.
fn calm() -> (Value, Value) {
    (example("calm-weekday.plan.json"), example("calm-weekday.request.json"))
}

/// Sets the value at a JSON pointer (which must exist, or be a new member of an existing object).
fn set(v: &mut Value, pointer: &str, new: Value) {
    if let Some(slot) = v.pointer_mut(pointer) {
        *slot = new;
        return;
    }
    let (parent, key) = pointer.rsplit_once('/').expect("pointer has a parent");
    v.pointer_mut(parent).and_then(Value::as_object_mut).expect("parent object").insert(key.to_owned(), new);
}

/// Sets the same value in the request and in the plan's echo of it.
fn set_request(plan: &mut Value, request: &mut Value, pointer: &str, new: Value) {
    set(request, pointer, new.clone());
    set(plan, &format!("/request{pointer}"), new);
}

fn block(start: &str, minutes: i64, activity: &str, category: &str) -> Value {
    json!({"start": start, "durationMin": minutes, "activity": activity, "category": category, "essential": true})
}

/// A minimal routine plan and its request with the given commitments.
fn routine(blocks: Value, weekdays: Option<Value>, commitments: Value) -> (Value, Value) {
    let mut request = json!({"requestId": "r-1", "kind": "routine"});
    request["commitments"] = commitments;
    let mut r = json!({});
    r["blocks"] = blocks;
    if let Some(w) = weekdays {
        r["weekdays"] = w;
    }
    let plan = json!({
        "format": "daily-momentum-ai-plan", "contractVersion": 1, "requestId": "r-1", "kind": "routine",
        "name": "N", "tagline": "T", "description": "D", "routine": r, "request": request.clone()
    });
    (plan, request)
}

fn assert_verdict(v: &Verdict, errs: &[(&str, &str)], warns: &[(&str, &str)]) {
    assert_eq!(errors(v), pairs(errs), "errors of {}", v.to_json_pretty());
    assert_eq!(warnings(v), pairs(warns), "warnings of {}", v.to_json_pretty());
    assert_eq!(v.valid, errs.is_empty());
    assert!(v.errors.iter().chain(&v.warnings).all(|i| !i.message.trim().is_empty()));
}

const SLEEP_WARNING: (&str, &str) = ("overnight", "$.routine.blocks[4]");

#[test]
fn calm_weekday_is_valid_with_one_overnight_warning() {
    let (plan, request) = calm();
    let v = validate(&plan, &request);
    assert_verdict(&v, &[], &[SLEEP_WARNING]);
    assert_eq!(v.checks, Check::ALL.to_vec());
}

#[test]
fn calm_weekday_broken_example() {
    let plan = example("calm-weekday-broken.plan.json");
    let request = example("calm-weekday-broken.request.json");
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[
            ("overlap", "$.routine.blocks[2]"),
            ("category", "$.routine.blocks[3].category"),
            ("commitment", "$.routine.blocks[1]"),
        ],
        &[SLEEP_WARNING],
    );
    // The messages carry the facts the model needs.
    assert!(v.errors[0].message.contains("09:30"), "{}", v.errors[0].message);
    assert!(v.errors[1].message.contains("\"food\"") && v.errors[1].message.contains("nourish"));
    let m = &v.errors[2].message;
    assert!(m.contains("Breakfast") && m.contains("Work") && m.contains("09:00–17:00"), "{m}");
}

#[test]
fn every_example_is_valid() {
    for name in ["calm-weekday", "first-5k", "week-with-choir"] {
        let v = validate(&example(&format!("{name}.plan.json")), &example(&format!("{name}.request.json")));
        assert!(v.valid, "{name}: {}", v.to_json_pretty());
    }
}

#[test]
fn code_json() {
    let (_, request) = calm();
    let v = validate_text("{\"a\":\n  [1,", &request);
    assert_verdict(&v, &[("json", "$")], &[]);
    assert_eq!(v.checks, vec![Check::Json]);
    assert!(v.errors[0].message.contains("line 2, column"), "{}", v.errors[0].message);
}

#[test]
fn code_type() {
    let (_, request) = calm();
    for text in ["[]", "null", "42", "\"plan\""] {
        let v = validate_text(text, &request);
        assert_verdict(&v, &[("type", "$")], &[]);
        assert_eq!(v.checks, vec![Check::Json]);
    }
    let v = validate(&json!([1, 2]), &request);
    assert_verdict(&v, &[("type", "$")], &[]);
}

#[test]
fn code_size_and_length() {
    let (mut plan, request) = calm();
    set(&mut plan, "/description", Value::String("x".repeat(300_000)));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("size", "$"), ("length", "$.description")], &[SLEEP_WARNING]);
}

#[test]
fn code_format_contract_version_kind() {
    let (mut plan, request) = calm();
    set(&mut plan, "/format", json!("daily-plan"));
    set(&mut plan, "/contractVersion", json!("1"));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("format", "$.format"), ("contractVersion", "$.contractVersion")], &[SLEEP_WARNING]);

    let (mut plan, request) = calm();
    set(&mut plan, "/kind", json!("daily"));
    let v = validate(&plan, &request);
    // Not a kind (envelope), and not the request's kind (request check); no routine checks run.
    assert_verdict(&v, &[("kind", "$.kind"), ("kind", "$.kind")], &[]);
    assert!(v.errors[1].message.contains("\"routine\""));
}

#[test]
fn contract_version_is_numeric() {
    let (mut plan, request) = calm();
    set(&mut plan, "/contractVersion", serde_json::from_str("1.0").unwrap());
    assert_verdict(&validate(&plan, &request), &[], &[SLEEP_WARNING]);
    set(&mut plan, "/contractVersion", json!(2));
    assert_verdict(&validate(&plan, &request), &[("contractVersion", "$.contractVersion")], &[SLEEP_WARNING]);
}

#[test]
fn code_required() {
    let (mut plan, request) = calm();
    plan.as_object_mut().unwrap().shift_remove("name");
    set(&mut plan, "/tagline", json!(" \t\u{3000}\u{1f}"));
    set(&mut plan, "/description", json!(5));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("required", "$.name"), ("required", "$.tagline"), ("required", "$.description")],
        &[SLEEP_WARNING],
    );
}

#[test]
fn lengths_count_unicode_scalar_values() {
    let (mut plan, request) = calm();
    set(&mut plan, "/name", Value::String("😀".repeat(80)));
    assert_verdict(&validate(&plan, &request), &[], &[SLEEP_WARNING]);
    set(&mut plan, "/name", Value::String("é".repeat(81)));
    assert_verdict(&validate(&plan, &request), &[("length", "$.name")], &[SLEEP_WARNING]);
}

#[test]
fn code_request_id_and_request() {
    let (mut plan, request) = calm();
    set(&mut plan, "/requestId", json!("req-other"));
    set(&mut plan, "/request/wake", json!("07:00"));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("requestId", "$.requestId"), ("request", "$.request")], &[SLEEP_WARNING]);
    assert!(v.errors[0].message.contains("\"req-2026-10-05-calm-weekday\""));
}

#[test]
fn echo_ignores_key_order_but_not_list_order() {
    let (mut plan, request) = calm();
    let mut echo = serde_json::Map::new();
    for (k, v) in request.as_object().unwrap().iter().rev() {
        echo.insert(k.clone(), v.clone());
    }
    set(&mut plan, "/request", Value::Object(echo));
    assert_verdict(&validate(&plan, &request), &[], &[SLEEP_WARNING]);
    set(&mut plan, "/request/commitments/0/days", json!(["fri", "thu", "wed", "tue", "mon"]));
    assert_verdict(&validate(&plan, &request), &[("request", "$.request")], &[SLEEP_WARNING]);
}

#[test]
fn code_request_invalid_skips_the_commitment() {
    let (mut plan, mut request) = calm();
    set_request(&mut plan, &mut request, "/commitments/0/start", json!("9:00"));
    set(&mut plan, "/routine/blocks/2/activity", json!("Office"));
    let v = validate(&plan, &request);
    // The malformed commitment is skipped: "Office" during work hours is no commitment error.
    assert_verdict(&v, &[("requestInvalid", "$.request.commitments[0].start")], &[SLEEP_WARNING]);
}

#[test]
fn request_invalid_order_follows_the_request() {
    let (plan, request) = routine(
        json!([block("10:00", 30, "Walk", "body")]),
        None,
        json!([5, {"label": "A", "days": ["Mon"], "start": "24:00", "end": "24:01"}]),
    );
    let mut request = request;
    let mut plan = plan;
    set_request(&mut plan, &mut request, "/days", json!(0));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[
            ("requestInvalid", "$.request.commitments[0]"),
            ("requestInvalid", "$.request.commitments[1].days"),
            ("requestInvalid", "$.request.commitments[1].start"),
            ("requestInvalid", "$.request.commitments[1].end"),
            ("requestInvalid", "$.request.days"),
        ],
        &[],
    );
}

#[test]
fn code_weekday_and_d7_quoted_paths() {
    let (plan, request) = routine(
        json!([block("10:00", 30, "Walk", "body")]),
        Some(
            json!({"Mon day": [block("10:00", 30, "Walk", "body")], "it's": [], "sat": [block("09:00", 30, "Run", "body")]}),
        ),
        json!([]),
    );
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("weekday", "$.routine.weekdays['Mon day']"), ("weekday", r"$.routine.weekdays['it\'s']")],
        &[],
    );
}

#[test]
fn code_limit_blocks_per_day() {
    let blocks: Vec<Value> =
        (0..41).map(|i| block(&format!("{:02}:{:02}", i / 6, (i % 6) * 10), 10, "Nap", "rest")).collect();
    let (plan, request) = routine(Value::Array(blocks), None, json!([]));
    assert_verdict(&validate(&plan, &request), &[("limit", "$.routine.blocks")], &[]);
}

#[test]
fn codes_time_duration_category_activity_essential() {
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/0/start", json!("6:45"));
    set(&mut plan, "/routine/blocks/1/durationMin", json!(0));
    set(&mut plan, "/routine/blocks/2/category", json!("Work"));
    set(&mut plan, "/routine/blocks/2/activity", json!("Work at the office, with a long commute too"));
    set(&mut plan, "/routine/blocks/3/essential", json!("yes"));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[
            ("time", "$.routine.blocks[0].start"),
            ("duration", "$.routine.blocks[1].durationMin"),
            ("category", "$.routine.blocks[2].category"),
            ("activity", "$.routine.blocks[2].activity"),
            ("essential", "$.routine.blocks[3].essential"),
            // The commitment pass runs after all the day's blocks: the renamed Work block meets
            // Work; the block with duration 0 meets nothing.
            ("commitment", "$.routine.blocks[2]"),
        ],
        &[SLEEP_WARNING],
    );
}

#[test]
fn code_overlap_names_the_previous_end() {
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/1/start", json!("07:00"));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("overlap", "$.routine.blocks[1]")], &[SLEEP_WARNING]);
    assert!(v.errors[0].message.contains("Breakfast") && v.errors[0].message.contains("07:15"));
}

#[test]
fn code_midnight_and_overnight() {
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/3/durationMin", json!(400));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("midnight", "$.routine.blocks[3]"), ("overlap", "$.routine.blocks[4]")], &[SLEEP_WARNING]);
    // The last block past midnight is an error unless it is rest.
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/4/category", json!("mind"));
    assert_verdict(&validate(&plan, &request), &[("midnight", "$.routine.blocks[4]")], &[]);
}

#[test]
fn code_commitment() {
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/2/activity", json!("Office"));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("commitment", "$.routine.blocks[2]")], &[SLEEP_WARNING]);
    assert!(v.errors[0].message.contains("\"Work\"") && v.errors[0].message.contains("\"Office\""));
}

#[test]
fn commitment_touching_is_not_overlap_and_zero_length_needs_strict_containment() {
    let (plan, request) = routine(
        json!([block("08:00", 60, "Walk", "body"), block("12:00", 60, "Lunch", "nourish")]),
        None,
        json!([{"label": "Call", "start": "09:00", "end": "09:00"}, {"label": "Ping", "start": "12:30", "end": "12:30"}]),
    );
    assert_verdict(&validate(&plan, &request), &[("commitment", "$.routine.blocks[1]")], &[]);
}

fn goal_plan() -> (Value, Value) {
    (example("first-5k.plan.json"), example("first-5k.request.json"))
}

#[test]
fn code_days() {
    let (mut plan, mut request) = goal_plan();
    set_request(&mut plan, &mut request, "/days", json!(4));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("days", "$.goal.days")], &[]);
    assert!(v.errors[0].message.contains('3') && v.errors[0].message.contains('4'));
}

#[test]
fn code_feasibility_and_goal_fields() {
    let (mut plan, request) = goal_plan();
    let act = plan.pointer("/goal/days/0/activities/0").unwrap().clone();
    let mut big = act.clone();
    set(&mut big, "/minutes", json!(700));
    let mut bad = act;
    set(&mut bad, "/minutes", json!(30.0));
    set(&mut bad, "/title", json!("  "));
    set(&mut bad, "/category", json!("running"));
    set(&mut plan, "/goal/days/0/activities", json!([big.clone(), big.clone(), big, bad]));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[
            ("category", "$.goal.days[0].activities[3].category"),
            ("duration", "$.goal.days[0].activities[3].minutes"),
            ("required", "$.goal.days[0].activities[3].title"),
            ("feasibility", "$.goal.days[0]"),
        ],
        &[],
    );
}

#[test]
fn every_code_has_a_unique_stable_string() {
    let mut seen = std::collections::BTreeSet::new();
    for code in IssueCode::ALL {
        assert!(seen.insert(code.as_str()), "duplicate code {code}");
        assert_eq!(code.as_str().parse::<IssueCode>(), Ok(*code));
        assert_eq!(serde_json::to_string(code).unwrap(), format!("\"{}\"", code.as_str()));
    }
    assert_eq!(IssueCode::ALL.len(), 25, "23 error codes, overnight and notSaved");
    let unknown = "overlapping".parse::<IssueCode>().unwrap_err();
    assert_eq!(unknown.to_string(), "\"overlapping\" is not an issue code");
}

// ------------------------------------------------------------------------------------------------
// D1–D12

#[test]
fn d1_wrong_types_are_type_errors() {
    let (mut plan, request) = calm();
    set(&mut plan, "/routine", json!("x"));
    assert_verdict(&validate(&plan, &request), &[("type", "$.routine"), ("required", "$.routine.blocks")], &[]);

    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/1", json!([1]));
    set(&mut plan, "/routine/weekdays", json!(7));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("type", "$.routine.blocks[1]"), ("type", "$.routine.weekdays")], &[SLEEP_WARNING]);

    // Empty-ish containers are read as empty, without a type error.
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/weekdays", json!([]));
    assert_verdict(&validate(&plan, &request), &[], &[SLEEP_WARNING]);

    // A request that is not an object: requestInvalid, then read as {}.
    let (plan, _) = calm();
    let v = validate(&plan, &json!("x"));
    assert_verdict(
        &v,
        &[("requestInvalid", "$.request"), ("requestId", "$.requestId"), ("request", "$.request"), ("kind", "$.kind")],
        &[SLEEP_WARNING],
    );

    // Goal days and activities of the wrong type.
    let (mut plan, request) = goal_plan();
    set(&mut plan, "/goal/days/0", json!("day one"));
    set(&mut plan, "/goal/days/1/activities", json!({"a": 1}));
    set(&mut plan, "/goal/days/2/activities/0", json!(null));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("type", "$.goal.days[0]"), ("type", "$.goal.days[1].activities"), ("type", "$.goal.days[2].activities[0]")],
        &[],
    );
}

#[test]
fn d2_booleans_are_never_numbers() {
    let (mut plan, request) = calm();
    set(&mut plan, "/contractVersion", json!(true));
    set(&mut plan, "/routine/blocks/0/durationMin", json!(true));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("contractVersion", "$.contractVersion"), ("duration", "$.routine.blocks[0].durationMin")],
        &[SLEEP_WARNING],
    );
    let (mut plan, mut request) = goal_plan();
    set_request(&mut plan, &mut request, "/days", json!(true));
    assert_verdict(&validate(&plan, &request), &[("requestInvalid", "$.request.days")], &[]);
}

#[test]
fn d3_size_is_utf8_bytes() {
    let (mut plan, request) = calm();
    // 90,000 characters of 3 bytes each: 270,000 bytes, over the limit by bytes though not by characters.
    set(&mut plan, "/description", Value::String("中".repeat(90_000)));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("size", "$"), ("length", "$.description")], &[SLEEP_WARNING]);
    let text = serde_json::to_string(&plan).unwrap();
    assert_eq!(validate_text(&text, &request), v);
    // Exactly at the limit is fine.
    let (mut plan, request) = calm();
    let base = serde_json::to_string(&plan).unwrap().len();
    set(
        &mut plan,
        "/tagline",
        Value::String("x".repeat(262_144 - base + "Movement before work, an early night.".len())),
    );
    assert_eq!(serde_json::to_string(&plan).unwrap().len(), 262_144);
    assert_verdict(&validate(&plan, &request), &[("length", "$.tagline")], &[SLEEP_WARNING]);
}

#[test]
fn d4_night_shifts_cover_the_next_morning() {
    let (plan, request) = routine(
        json!([block("19:00", 60, "Read", "learning")]),
        Some(json!({
            "tue": [block("05:00", 60, "Walk", "body")],
            "wed": [block("05:00", 60, "Walk", "body")],
            "mon": [block("23:00", 30, "Gym", "body")],
        })),
        json!([{"label": "Night", "days": ["mon"], "start": "22:00", "end": "06:00"}]),
    );
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("commitment", "$.routine.weekdays.tue[0]"), ("commitment", "$.routine.weekdays.mon[0]")],
        &[],
    );
    // sun is followed by mon.
    let (plan, request) = routine(
        json!([block("19:00", 60, "Read", "learning")]),
        Some(json!({"mon": [block("05:00", 60, "Walk", "body")]})),
        json!([{"label": "Night", "days": ["sun"], "start": "22:00", "end": "06:00"}]),
    );
    assert_verdict(&validate(&plan, &request), &[("commitment", "$.routine.weekdays.mon[0]")], &[]);
}

#[test]
fn d5_minutes_after_midnight_meet_the_next_days_commitments() {
    let (plan, request) = routine(
        json!([block("12:00", 60, "Lunch", "nourish")]),
        Some(json!({
            "sun": [block("22:00", 600, "Sleep", "rest")],
            "sat": [block("22:00", 600, "Sleep", "rest")],
        })),
        json!([{"label": "Work", "days": ["mon"], "start": "07:00", "end": "09:00"}]),
    );
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("commitment", "$.routine.weekdays.sun[0]")],
        &[("overnight", "$.routine.weekdays.sun[0]"), ("overnight", "$.routine.weekdays.sat[0]")],
    );
    assert!(v.errors[0].message.contains("after midnight"));
}

#[test]
fn d6_declared_limits_are_enforced() {
    // 41 distinct activity names in one routine.
    let blocks: Vec<Value> =
        (0..41).map(|i| block(&format!("{:02}:{:02}", i / 6, (i % 6) * 10), 10, &format!("A{i}"), "rest")).collect();
    let (plan, request) =
        routine(Value::Array(blocks[..20].to_vec()), Some(json!({"sat": blocks[20..].to_vec()})), json!([]));
    assert_verdict(&validate(&plan, &request), &[("limit", "$.routine")], &[]);

    // A goal activity's activity over 40 and guidance over 600 characters.
    let (mut plan, request) = goal_plan();
    set(&mut plan, "/goal/days/0/activities/0/activity", Value::String("r".repeat(41)));
    set(&mut plan, "/goal/days/0/activities/0/guidance", Value::String("g".repeat(601)));
    let v = validate(&plan, &request);
    assert_verdict(
        &v,
        &[("length", "$.goal.days[0].activities[0].activity"), ("length", "$.goal.days[0].activities[0].guidance")],
        &[],
    );

    // More than 90 days: limit after the days error.
    let (mut plan, request) = goal_plan();
    let day = plan.pointer("/goal/days/0").unwrap().clone();
    set(&mut plan, "/goal/days", Value::Array(vec![day; 91]));
    assert_verdict(&validate(&plan, &request), &[("days", "$.goal.days"), ("limit", "$.goal.days")], &[]);
}

#[test]
fn d8_the_overnight_block_must_not_run_into_the_first_block() {
    let (plan, request) =
        routine(json!([block("05:00", 30, "Walk", "body"), block("22:00", 480, "Sleep", "rest")]), None, json!([]));
    let v = validate(&plan, &request);
    assert_verdict(&v, &[("overlap", "$.routine.blocks[1]")], &[("overnight", "$.routine.blocks[1]")]);
    assert!(v.errors[0].message.contains("Walk") && v.errors[0].message.contains("05:00"));
}

#[test]
fn d9_commitments_without_days_occur_every_day() {
    let (plan, request) = routine(
        json!([block("06:00", 30, "Walk", "body")]),
        Some(json!({"sat": [block("12:00", 60, "Lunch", "nourish")]})),
        json!([{"label": "Call", "start": "12:30", "end": "13:00"}, {"label": "Never", "days": [], "start": "06:00", "end": "07:00"}]),
    );
    assert_verdict(&validate(&plan, &request), &[("commitment", "$.routine.weekdays.sat[0]")], &[]);
}

#[test]
fn d10_blank_activity_is_an_error() {
    let (mut plan, request) = calm();
    set(&mut plan, "/routine/blocks/0/activity", json!(""));
    assert_verdict(&validate(&plan, &request), &[("activity", "$.routine.blocks[0].activity")], &[SLEEP_WARNING]);
    set(&mut plan, "/routine/blocks/0/activity", json!("\u{a0} "));
    assert_verdict(&validate(&plan, &request), &[("activity", "$.routine.blocks[0].activity")], &[SLEEP_WARNING]);
}

#[test]
fn d11_times_are_exactly_hh_mm() {
    for bad in ["07:00\n", "０７:００", "٠٧:٠٠", " 07:00", "07:00:00", "24:00"] {
        let (mut plan, request) = calm();
        set(&mut plan, "/routine/blocks/1/start", json!(bad));
        assert_verdict(&validate(&plan, &request), &[("time", "$.routine.blocks[1].start")], &[SLEEP_WARNING]);
    }
}

#[test]
fn d12_plan_text_is_strict_json() {
    let (_, request) = calm();
    for text in [
        "{\"a\": NaN}",
        "{\"a\": Infinity}",
        "{\"a\": 1e400}",
        "{\"a\": \"\\ud83d\"}",
        "{\"a\": 1,}",
        "\u{feff}{}",
        "{} {}",
        "{'a': 1}",
    ] {
        let v = validate_text(text, &request);
        assert_verdict(&v, &[("json", "$")], &[]);
    }
    // 512 levels parse (the plan is level 1); 513 do not.
    let ok = format!("{{\"x\":{}{}}}", "[".repeat(511), "]".repeat(511));
    assert_eq!(validate_text(&ok, &request).checks.len(), 8);
    let deep = format!("{{\"x\":{}{}}}", "[".repeat(512), "]".repeat(512));
    assert_verdict(&validate_text(&deep, &request), &[("json", "$")], &[]);
}

#[test]
fn duplicate_members_keep_the_last_value() {
    let (_, request) = calm();
    let text = std::fs::read_to_string(common::root().join("examples/calm-weekday.plan.json")).unwrap();
    let doubled = text.replacen(
        "\"format\": \"daily-momentum-ai-plan\"",
        "\"format\": \"x\", \"format\": \"daily-momentum-ai-plan\"",
        1,
    );
    assert_ne!(doubled, text);
    assert_verdict(&validate_text(&doubled, &request), &[], &[SLEEP_WARNING]);
}

#[test]
fn text_pair_agrees_with_the_value_path() {
    for name in ["calm-weekday", "calm-weekday-broken", "first-5k", "week-with-choir"] {
        let root = common::root().join("examples");
        let plan = std::fs::read_to_string(root.join(format!("{name}.plan.json"))).unwrap();
        let request = std::fs::read_to_string(root.join(format!("{name}.request.json"))).unwrap();
        let by_value = validate_text(&plan, &momentum_plan::parse_json(&request).unwrap());
        assert_eq!(momentum_plan::validate_text_pair(&plan, &request).unwrap(), by_value, "{name}");
    }
    let e = momentum_plan::validate_text_pair("{}", "{\"a\":").unwrap_err();
    assert_eq!(e.line, 1);
    // A request that is JSON but not an object is a verdict, not an error (D1).
    let v = momentum_plan::validate_text_pair("{}", "[]").unwrap();
    assert_eq!(v.errors[0].code.as_str(), "format");
    assert!(v.errors.iter().any(|i| i.code.as_str() == "requestInvalid" && i.path == "$.request"));
}
