//! Peak heap of one validation (issue 27 item 7): a counting allocator, and the text shapes the
//! memory goal is measured on (validator.md §5.2, D12: over-limit texts are still parsed whole).
//!
//! A binary that measures declares `#[global_allocator] static A: Counting = Counting;` itself
//! (the allocator is the binary's), then calls [`peak_of`] around the call it measures.

#![allow(unsafe_code)] // a global allocator is `unsafe impl GlobalAlloc`: it only forwards to `System`

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes allocated and not yet freed, in this process.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been since the last [`peak_of`] started.
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// `System`, counting the bytes it has out (live and peak, in bytes of requested size).
#[derive(Debug, Clone, Copy)]
pub struct Counting;

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by, Ordering::Relaxed);
}

// SAFETY: every call forwards to `System` with the caller's arguments; the counters are atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `GlobalAlloc::alloc`, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator (so from `System`) with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `dealloc`, and `new_size` is the caller's valid new size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as if the old block were freed only once the new one exists (a moving
            // realloc holds both for a moment).
            grew(new_size);
            shrank(layout.size());
        }
        p
    }
}

/// What one measured call cost, in bytes of heap (requested sizes, not pages).
#[derive(Debug, Clone, Copy)]
pub struct Peak {
    /// The most the call had allocated at once, above what was live when it started.
    pub peak: usize,
    /// What it left allocated when it returned (its result: the verdict).
    pub kept: usize,
}

/// Runs `f` and returns its result with the heap it took (only meaningful in a binary whose
/// global allocator is [`Counting`]; otherwise both figures are 0).
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, Peak) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let kept = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    (out, Peak { peak, kept })
}

/// One text shape of the memory goal: a name and a way to build about `n` bytes of it.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The shape's name in the report.
    pub name: &'static str,
    /// What the text is, in a few words.
    pub what: &'static str,
    /// Builds a text of about `n` bytes (at least `n`).
    pub build: fn(usize) -> String,
}

/// `[` + `item` repeated with commas to at least `n` bytes + `]`.
fn array_of(item: &str, n: usize) -> String {
    let mut s = String::with_capacity(n + item.len() + 2);
    s.push('[');
    s.push_str(item);
    while s.len() < n {
        s.push(',');
        s.push_str(item);
    }
    s.push(']');
    s
}

/// A valid plan's envelope around `routine` (its JSON text), for the request [`request`].
fn plan_with(extra: &str) -> String {
    format!(
        "{{\"format\":\"daily-momentum-ai-plan\",\"contractVersion\":1,\"requestId\":\"mem\",\"kind\":\"routine\",\
         \"name\":\"Memory\",\"tagline\":\"A huge plan.\",\"description\":\"Built to measure memory.\",{extra},\
         \"request\":{{\"requestId\":\"mem\",\"kind\":\"routine\"}}}}"
    )
}

/// The request every shape's plan answers.
#[must_use]
pub fn request() -> serde_json::Value {
    serde_json::json!({"requestId": "mem", "kind": "routine"})
}

const BLOCK: &str = r#"{"start":"07:00","durationMin":30,"activity":"Walk","category":"body","essential":true}"#;

/// The shapes of the memory goal (issue 27 item 7), in report order.
#[must_use]
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape { name: "numbers", what: "`[1,1,…]` as the plan", build: |n| array_of("1", n) },
        Shape { name: "strings", what: "`[\"ab\",…]` as the plan", build: |n| array_of("\"ab\"", n) },
        Shape {
            name: "nested",
            what: "an array of arrays nested to the depth limit (512 levels)",
            build: |n| array_of(&format!("{}{}", "[".repeat(511), "]".repeat(511)), n),
        },
        Shape {
            name: "members",
            what: "an object with many members",
            build: |n| {
                let mut s = String::with_capacity(n + 32);
                s.push('{');
                let mut i = 0usize;
                while s.len() < n {
                    if i > 0 {
                        s.push(',');
                    }
                    let _ = write!(s, "\"k{i}\":1");
                    i += 1;
                }
                s.push('}');
                s
            },
        },
        Shape {
            name: "inside",
            what: "a plan with `[1,1,…]` in a member the rules do not read",
            build: |n| plan_with(&format!("\"routine\":{{\"blocks\":[{BLOCK}]}},\"notes\":{}", array_of("1", n))),
        },
        Shape {
            name: "blocks",
            what: "a plan whose `routine.blocks` is huge (every block after the first overlaps)",
            build: |n| plan_with(&format!("\"routine\":{{\"blocks\":{}}}", array_of(BLOCK, n))),
        },
    ]
}
