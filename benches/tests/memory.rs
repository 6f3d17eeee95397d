//! The memory goal of issue 27 item 7, kept: the peak heap of `validate_text` (and of
//! `validate_bytes` and `validate_text_pair`, which share its parse, and of `value_span`) is at
//! most 4× the text plus a constant, on every shape of `momentum_plan_benches::memory::shapes`,
//! the verdict it returns included, and its working memory beside the verdict at most 1.5×.
//! Texts of 4 MB (the 50 MB figures are `examples/memory.rs`, in RESULTS.md). Its own test
//! binary: the counting allocator is this binary's global allocator.
#![allow(missing_docs)]

use momentum_plan_benches::memory::{Counting, Peak, peak_of, request, shapes};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Bytes any call may take whatever the text (the arena's first chunk, the parser's stacks for
/// 512 levels, the request's tree, the verdict's vectors).
const CONSTANT: usize = 1 << 20;

/// The factor every shape is held to: working memory (beside the verdict) of at most 1.5× the
/// text, whatever its shape (a day list far over the limit is checked a block at a time).
const WORK: f64 = 1.5;

fn within(name: &str, entry: &str, text: &str, cost: Peak) {
    // The verdict is the answer, not working memory: a plan with a million bad blocks gets a
    // million issues (validator.md §5.5), whatever the parse keeps. Working memory stays under
    // 1.5× the text, and everything together, the verdict too, under the goal's 4×.
    let work = cost.peak - cost.kept;
    let ratio = |n: usize| n as f64 / text.len() as f64;
    assert!(
        (work as f64) <= WORK * text.len() as f64 + CONSTANT as f64,
        "{name} via {entry}: {work} bytes at the peak beside a {}-byte verdict, for {} bytes of text ({:.2}×)",
        cost.kept,
        text.len(),
        ratio(work)
    );
    assert!(
        cost.peak <= 4 * text.len() + CONSTANT,
        "{name} via {entry}: a peak of {} bytes for {} bytes of text ({:.2}×)",
        cost.peak,
        text.len(),
        ratio(cost.peak)
    );
}

#[test]
fn peak_heap_is_at_most_four_times_the_text() {
    // A measurement that cannot see an allocation would pass anything. (One test in this
    // binary: tests on other threads would count into the same peak.)
    let (v, cost) = peak_of(|| vec![7u8; 3_000_000]);
    assert!(cost.peak >= 3_000_000 && cost.kept >= 3_000_000, "{cost:?}");
    drop(v);
    let request = request();
    let request_text = request.to_string();
    for shape in shapes() {
        let text = (shape.build)(4_000_000);
        let (by_text, cost) = peak_of(|| momentum_plan::validate_text(&text, &request));
        within(shape.name, "validate_text", &text, cost);
        let (by_bytes, cost) = peak_of(|| momentum_plan::validate_bytes(text.as_bytes(), &request));
        within(shape.name, "validate_bytes", &text, cost);
        let (by_pair, cost) = peak_of(|| momentum_plan::validate_text_pair(&text, &request_text));
        within(shape.name, "validate_text_pair", &text, cost);
        // Where an issue is (the CLI's code frames): one check of the text, no tree.
        let (span, cost) = peak_of(|| momentum_plan::value_span(&text, "$"));
        within("value_span", "value_span", &text, cost);
        assert_eq!(span.map(|s| s.range()), Ok(0..text.len()), "{}", shape.name);
        // The same verdict each way, and a real one: every shape is over the size limit.
        assert_eq!(by_bytes, by_text, "{}", shape.name);
        assert_eq!(by_pair.ok().as_ref(), Some(&by_text), "{}", shape.name);
        assert!(!by_text.valid, "{}", shape.name);
    }
}
