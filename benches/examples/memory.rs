//! Peak heap of `validate_text` on big texts (issue 27 item 7): for each shape of
//! `momentum_plan_benches::memory::shapes`, a text of about 50 MB (`memory [MB]` for another
//! size), the peak bytes the call allocated at once, its ratio to the text's size, and what the
//! returned verdict itself holds. Goal: peak ≤ 4× the text plus a constant. Printed as a
//! Markdown table (for `benches/report`).
#![allow(missing_docs)]

use momentum_plan_benches::memory::{Counting, peak_of, request, shapes};

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let mb: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let request = request();
    println!(
        "| shape | text bytes | peak heap of `validate_text` | peak ÷ text | verdict heap | (peak − verdict) ÷ text | errors |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for shape in shapes() {
        let text = (shape.build)(mb * 1_000_000);
        let (verdict, cost) = peak_of(|| momentum_plan::validate_text(&text, &request));
        println!(
            "| {} ({}) | {} | {} | **{:.2}×** | {} | {:.2}× | {} |",
            shape.name,
            shape.what,
            text.len(),
            cost.peak,
            cost.peak as f64 / text.len() as f64,
            cost.kept,
            (cost.peak - cost.kept) as f64 / text.len() as f64,
            verdict.errors.len()
        );
    }
}
