//! Fixtures for the benchmarks: the bundled examples and two large, valid plans built
//! deterministically (a routine of 7 weekday lists × 40 blocks, and a 90-day goal plan).

pub mod memory;

use serde_json::{Value, json};
use std::path::PathBuf;

/// A (plan text, request) pair to benchmark, with a name for the report.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The benchmark's name, e.g. `calm-weekday`.
    pub name: &'static str,
    /// The plan as JSON text (the bytes the throughput is counted in).
    pub plan_text: String,
    /// The request the plan answers.
    pub request: Value,
}

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// A bundled example (`examples/<name>.plan.json` and `.request.json`).
///
/// # Panics
/// When the example files are missing or not JSON (a broken checkout).
#[must_use]
pub fn example(name: &'static str, file: &str) -> Fixture {
    let read = |suffix: &str| {
        std::fs::read_to_string(examples_dir().join(format!("{file}.{suffix}.json"))).expect("example file readable")
    };
    let request = serde_json::from_str(&read("request")).expect("request is JSON");
    Fixture { name, plan_text: read("plan"), request }
}

fn envelope(request_id: &str, kind: &str, body_key: &str, body: &Value, request: &Value) -> Value {
    json!({
        "format": "daily-momentum-ai-plan", "contractVersion": 1, "requestId": request_id, "kind": kind,
        "name": "Benchmark plan", "tagline": "Many blocks, all valid.",
        "description": "A large plan built for benchmarks.", body_key: body, "request": request,
    })
}

/// A valid routine with `routine.blocks` and 7 weekday lists of 40 blocks each (20-minute blocks
/// from 06:00, with 5-minute gaps), and two commitments.
///
/// # Panics
/// Never in practice: the plan is a `serde_json::Value`, which always serializes.
#[must_use]
pub fn large_routine() -> Fixture {
    let request = json!({
        "requestId": "bench-routine", "kind": "routine",
        "commitments": [
            {"label": "Work", "days": ["mon", "tue", "wed", "thu", "fri"], "start": "23:00", "end": "23:30"},
            {"label": "Choir", "days": ["wed", "sat"], "start": "23:35", "end": "23:55"}
        ]
    });
    let categories = ["mind", "body", "learning", "craft", "social", "service", "nourish", "rest"];
    let day = |salt: usize| -> Value {
        Value::Array(
            (0..40)
                .map(|i| {
                    let start = 6 * 60 + i * 25;
                    let category = categories[(i + salt) % categories.len()];
                    json!({
                        "start": format!("{:02}:{:02}", start / 60, start % 60),
                        "durationMin": 20,
                        "activity": format!("Activity {}", (i + salt) % 30),
                        "category": category,
                        "essential": i % 3 == 0,
                    })
                })
                .collect(),
        )
    };
    let weekdays: serde_json::Map<String, Value> =
        momentum_plan::WEEKDAYS.iter().enumerate().map(|(n, w)| ((*w).to_owned(), day(n))).collect();
    let plan =
        envelope("bench-routine", "routine", "routine", &json!({"blocks": day(0), "weekdays": weekdays}), &request);
    Fixture { name: "large-routine", plan_text: serde_json::to_string_pretty(&plan).expect("serializable"), request }
}

/// A valid 90-day goal plan, 4 activities a day.
///
/// # Panics
/// Never in practice: the plan is a `serde_json::Value`, which always serializes.
#[must_use]
pub fn goal_90_days() -> Fixture {
    let request = json!({"requestId": "bench-goal", "kind": "goal", "goal": "Run 10 km", "days": 90});
    let days: Vec<Value> = (0..90)
        .map(|d| {
            json!({"activities": (0..4).map(|a| {
                let activity = ["Run", "Stretch", "Cook", "Read"][a];
                let category = ["body", "body", "nourish", "learning"][a];
                json!({
                "title": format!("Day {} step {}", d + 1, a + 1),
                "activity": activity,
                "category": category,
                "minutes": 20 + 5 * a,
                "guidance": "Keep an easy pace; stop if anything hurts, and note how it felt.",
                "doneWhen": "The time is up and the note is written.",
            })}).collect::<Vec<_>>()})
        })
        .collect();
    let plan = envelope("bench-goal", "goal", "goal", &json!({"days": days}), &request);
    Fixture { name: "goal-90-days", plan_text: serde_json::to_string_pretty(&plan).expect("serializable"), request }
}

/// Every benchmark fixture, in report order.
#[must_use]
pub fn all() -> Vec<Fixture> {
    vec![
        example("calm-weekday", "calm-weekday"),
        example("calm-weekday-broken", "calm-weekday-broken"),
        large_routine(),
        goal_90_days(),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures_are_what_they_claim() {
        for f in super::all() {
            let v = momentum_plan::validate_text(&f.plan_text, &f.request);
            assert_eq!(v.valid, f.name != "calm-weekday-broken", "{}: {}", f.name, v.to_json());
        }
    }
}
