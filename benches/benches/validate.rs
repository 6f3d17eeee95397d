//! Criterion benchmarks of the core (issue: core speed). For each fixture, side by side in one run:
//! `parse` (serde_json::from_str::<Value>, the floor), `validate_text` (parse + validate: the hot
//! path), and `validate_parsed` (validation of an already-parsed plan). Throughput is in bytes of
//! plan text.
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
            b.iter(|| momentum_plan::validate_text(black_box(&f.plan_text), black_box(&f.request)))
        });
        g.bench_function("validate_parsed", |b| {
            b.iter(|| momentum_plan::validate(black_box(&parsed), black_box(&f.request)))
        });
        g.finish();
    }
}

criterion_group!(core, benches);
criterion_main!(core);
