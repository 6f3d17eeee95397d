//! The earliness figures of issue 31 on the shared vectors (`../shared/vectors`), as Markdown for
//! `benches/report`: over the invalid vectors, at what fraction of its text a `PlanStream`
//! (validator.md §10) settles the plan's first error, and how many bytes a host that stops the
//! model there does not wait for. Each plan's text (a string plan as it is, an object plan as its
//! compact JSON) is pushed one byte at a time, so the point found is the earliest byte. Counts,
//! not timings; that settled issues are never wrong is a test (`core/tests/stream.rs`).
#![allow(missing_docs, clippy::disallowed_methods, clippy::disallowed_macros)]

use momentum_plan::{PlanStream, Value, validate_text};

/// The `q`-quantile (0..=1) of sorted `xs`, nearest rank.
fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
    let i = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len()) - 1;
    xs[i]
}

/// One group's row: how many plans, how many settled an error before the end, the fraction of
/// the text read when the first error settled (median, p90; 1 when only `finish` gave it), and
/// the bytes not waited for (in all, and the median per plan).
#[derive(Default)]
struct Group {
    fractions: Vec<f64>,
    early: usize,
    saved: Vec<usize>,
    bytes: usize,
}

impl Group {
    fn add(&mut self, at: Option<usize>, len: usize) {
        #[allow(clippy::cast_precision_loss)]
        self.fractions.push(at.map_or(1.0, |a| a as f64 / len as f64));
        self.early += usize::from(at.is_some());
        self.saved.push(at.map_or(0, |a| len - a));
        self.bytes += len;
    }

    fn row(&mut self, what: &str) -> String {
        self.fractions.sort_by(f64::total_cmp);
        self.saved.sort_unstable();
        let saved: usize = self.saved.iter().sum();
        #[allow(clippy::cast_precision_loss)]
        let share = 100.0 * saved as f64 / self.bytes.max(1) as f64;
        format!(
            "| {what} | {} | {} | **{:.2}** | {:.2} | {saved} of {} ({share:.1} %) | {} |",
            self.fractions.len(),
            self.early,
            quantile(&self.fractions, 0.5),
            quantile(&self.fractions, 0.9),
            self.bytes,
            self.saved.get(self.saved.len() / 2).copied().unwrap_or(0),
        )
    }
}

fn main() {
    let (mut all, mut block, mut other) = (Group::default(), Group::default(), Group::default());
    for rec in momentum_plan_testkit::vectors() {
        let text = match &rec["plan"] {
            Value::String(s) => s.clone(),
            v => serde_json::to_string(v).expect("serializable"),
        };
        let request = &rec["request"];
        let verdict = validate_text(&text, request);
        let Some(first) = verdict.errors.first() else { continue };
        let mut s = PlanStream::new(request.clone());
        let bytes = text.as_bytes();
        let at = (0..bytes.len())
            .find(|&i| s.push(&bytes[i..=i]).iter().any(|issue| !issue.code.is_warning()))
            .map(|i| i + 1)
            .filter(|&a| a < bytes.len());
        all.add(at, bytes.len());
        if first.path.contains(".blocks[") { block.add(at, bytes.len()) } else { other.add(at, bytes.len()) }
    }
    println!(
        "| invalid vectors | plans | an error settled before the end | first error at (median fraction of the text) | p90 | bytes not waited for | median per plan (bytes) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    println!("{}", all.row("all"));
    println!("{}", block.row("whose first error is a block's (`.blocks[`)"));
    println!("{}", other.row("the others"));
}
