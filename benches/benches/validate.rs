//! Criterion benchmarks of the core (issue: core speed). For each fixture, side by side in one run:
//! `parse` (`serde_json::from_str::<Value>`, the floor), `validate_text` (parse + validate: the hot
//! path), and `validate_parsed` (validation of an already-parsed plan). Throughput is in bytes of
//! plan text. `repair_text` is `repair` of the same text (a valid plan: one validation, §9) and
//! `plan_schema` the validation schema for the fixture's request. `stream_16` and `stream_256` are
//! the same text pushed through a `PlanStream` (validator.md §10) in 16- and 256-byte chunks,
//! settled issues collected, then `finish` (which includes the request's clone, as a host pays).
//!
//! Then the MCP path for an object plan (group `mcp/<fixture>`): `tools_call` is one
//! `tools/call validate_plan` line (plan and request as objects) through the server library,
//! answer written (the plan read once, from its text, into the core's tree); `via_value` is what
//! that path cost when the whole message was built as a `serde_json::Value` first and the plan
//! walked from it (`rpc::parse_line`, then `validate`), without writing the answer.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use momentum_plan::Value;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    for f in momentum_plan_benches::all() {
        let mut g = c.benchmark_group(f.name);
        g.throughput(Throughput::Bytes(f.plan_text.len() as u64));
        let parsed: Value = serde_json::from_str(&f.plan_text).expect("fixture is JSON");
        g.bench_function("parse", |b| b.iter(|| serde_json::from_str::<Value>(black_box(&f.plan_text)).expect("JSON")));
        g.bench_function("validate_text", |b| {
            b.iter(|| momentum_plan::validate_text(black_box(&f.plan_text), black_box(&f.request)));
        });
        g.bench_function("validate_parsed", |b| {
            b.iter(|| momentum_plan::validate(black_box(&parsed), black_box(&f.request)));
        });
        // validator.md §9: a repair of a valid plan costs one validation (issue 13); the broken
        // fixture shows what a repair that applies fixes costs.
        let options = momentum_plan::RepairOptions::default();
        g.bench_function("repair_text", |b| {
            b.iter(|| {
                let plan = momentum_plan::Input::Text(black_box(&f.plan_text));
                momentum_plan::repair(plan, momentum_plan::Input::Value(black_box(&f.request)), &options)
            });
        });
        g.bench_function("plan_schema", |b| {
            b.iter(|| momentum_plan::plan_schema(black_box(&f.request), momentum_plan::SchemaVariant::Validation));
        });
        // validator.md §10: the whole text through a `PlanStream` in chunks of 16 and 256 bytes,
        // every settled issue collected, then `finish` (goals: ≤ 2× and ≤ 1.3× `validate_text`).
        for chunk in [16, 256] {
            g.bench_function(format!("stream_{chunk}"), |b| {
                b.iter(|| {
                    let mut s = momentum_plan::PlanStream::new(f.request.clone());
                    let mut settled = 0;
                    for part in black_box(f.plan_text.as_bytes()).chunks(chunk) {
                        settled += s.push(part).len();
                    }
                    (settled, s.finish())
                });
            });
        }
        g.finish();

        let line = tools_call_line(&parsed, &f.request);
        let mut g = c.benchmark_group(format!("mcp/{}", f.name));
        g.throughput(Throughput::Bytes(line.len() as u64));
        let mut server = momentum_plan_mcp::Server::new(None);
        g.bench_function("tools_call", |b| b.iter(|| server.handle_line(black_box(line.as_bytes()))));
        g.bench_function("via_value", |b| {
            b.iter(|| {
                let message = momentum_plan_mcp::rpc::parse_line(black_box(line.as_bytes())).expect("JSON");
                let args = &message["params"]["arguments"];
                momentum_plan::validate(&args["plan"], &args["request"])
            });
        });
        g.finish();
    }
}

/// A `tools/call validate_plan` line (classic era; no handshake needed for tools/call here).
fn tools_call_line(plan: &Value, request: &Value) -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "validate_plan", "arguments": {"plan": plan, "request": request}},
    })
    .to_string()
}

criterion_group!(core, benches);
criterion_main!(core);
