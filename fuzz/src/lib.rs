//! Shared support for the fuzz targets: the invariants every target asserts
//! ([`invariants`], also replayed by `core/tests/fuzz_regressions.rs`), the in-memory plan store
//! of the MCP targets ([`mem_store`]), and a plan-shaped JSON
//! value generator with structured edits driven by `arbitrary::Unstructured`.

pub mod invariants;
pub mod mem_store;
pub mod stream;

pub use invariants::*;

use arbitrary::{Result, Unstructured};
use momentum_plan::Value;
use serde_json::{Map, Number};
use std::cell::Cell;

/// An input `A \0 B \0 REST` split in three (missing parts empty): the layout of the
/// `validate_pair` and `stream_completion` inputs.
pub fn split(data: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let mut parts = data.splitn(3, |b| *b == 0);
    let a = parts.next().unwrap_or_default();
    let b = parts.next().unwrap_or_default();
    let c = parts.next().unwrap_or_default();
    (a, b, c)
}

// ---------------------------------------------------------------------------------------------
// Plan-shaped value generation and structured edits.

/// Member names of the plan and request shapes (validator.md §2–§5).
pub const KEYS: &[&str] = &[
    "format",
    "contractVersion",
    "requestId",
    "kind",
    "name",
    "tagline",
    "description",
    "routine",
    "blocks",
    "weekdays",
    "start",
    "durationMin",
    "activity",
    "category",
    "essential",
    "goal",
    "days",
    "day",
    "activities",
    "title",
    "minutes",
    "guidance",
    "doneWhen",
    "request",
    "requestVersion",
    "timezone",
    "startDate",
    "wake",
    "sleep",
    "commitments",
    "label",
    "end",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    "Mon",
    "",
    "x",
    "a b",
    "it's\\",
    "mön",
];

/// Interesting strings: the format, kinds, times, categories, weekday ids, labels.
pub const STRINGS: &[&str] = &[
    "daily-momentum-ai-plan",
    "routine",
    "goal",
    "00:00",
    "06:45",
    "07:15",
    "09:00",
    "17:00",
    "22:00",
    "23:59",
    "24:00",
    "12:60",
    "7:05",
    "07:5",
    "0700",
    "07:00 ",
    "\u{ff10}7:00",
    "mind",
    "body",
    "work",
    "rest",
    "social",
    "service",
    "learning",
    "craft",
    "nourish",
    "Rest",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    "monday",
    "Work",
    "Sleep",
    "Walk",
    "",
    " ",
    "\t\n",
    "\u{2028}",
    "\u{feff}",
    "\u{1f600}",
    "\u{0}",
    "a\"b\\c",
    "req-2026-10-05-calm-weekday",
    "Europe/Zurich",
    "2026-10-05",
    "\u{301}",
    "\u{fffd}",
];

/// Interesting number literals (kept exactly by `arbitrary_precision`).
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "30",
    "45",
    "60",
    "90",
    "91",
    "480",
    "719",
    "720",
    "721",
    "1440",
    "1441",
    "1.0",
    "1e0",
    "1E0",
    "10e-1",
    "0.1e1",
    "1.5",
    "-0",
    "-0.0",
    "0.0",
    "1e400",
    "-1e400",
    "1e-400",
    "1e308",
    "1.7976931348623157e308",
    "2e308",
    "9007199254740993",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "0.000000000000000000000000000001e30",
    "262144",
    "40",
    "41",
    "24",
    "25",
];

/// Depth budget for generated values (a few levels more than any plan needs).
const GEN_DEPTH: u32 = 7;

/// A number from [`NUMBERS`] or a random integer/float.
pub fn gen_number(u: &mut Unstructured<'_>) -> Result<Number> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 | 1 => serde_json::from_str(u.choose(NUMBERS)?).expect("a number literal"),
        2 => Number::from(u.arbitrary::<i64>()?),
        _ => Number::from_f64(u.arbitrary::<f64>()?).unwrap_or_else(|| Number::from(0)),
    })
}

thread_local! {
    /// Bytes of long strings [`gen_string`] may still make for the current input.
    static LONG_BUDGET: Cell<usize> = const { Cell::new(MAX_PAIR_BYTES) };
}

/// Starts a new input: long strings may again take up to [`MAX_PAIR_BYTES`] in all (without this
/// bound, a 2 KB input asks for hundreds of 300,000-character strings: 5 GB).
pub fn start_input() {
    LONG_BUDGET.with(|b| b.set(MAX_PAIR_BYTES));
}

/// A string from [`STRINGS`], an arbitrary string, or a long string (up to 300,000 chars, within
/// the input's budget, see [`start_input`]).
pub fn gen_string(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=9u8)? {
        0..=5 => (*u.choose(STRINGS)?).to_owned(),
        6..=8 => u.arbitrary::<String>()?,
        _ => {
            let ch = *u.choose(&['a', ' ', 'é', '\u{1f600}', '"', '\u{7f}'])?;
            let mut n = *u.choose(&[39usize, 40, 41, 80, 81, 120, 121, 600, 601, 1000, 1001, 300_000])?;
            let bytes = n * ch.len_utf8();
            LONG_BUDGET.with(|b| {
                if bytes > b.get() {
                    n = 41;
                } else {
                    b.set(b.get() - bytes);
                }
            });
            std::iter::repeat_n(ch, n).collect()
        }
    })
}

/// A member name from [`KEYS`] or arbitrary.
pub fn gen_key(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(if u.ratio(7u8, 8)? { (*u.choose(KEYS)?).to_owned() } else { u.arbitrary()? })
}

/// A JSON value of at most `depth` more levels, biased towards plan vocabulary.
pub fn gen_value(u: &mut Unstructured<'_>, depth: u32) -> Result<Value> {
    let top = if depth == 0 { 4 } else { 6 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(gen_number(u)?),
        3 | 4 => Value::String(gen_string(u)?),
        5 => {
            let n = u.int_in_range(0..=4u8)?;
            let mut a = Vec::new();
            for _ in 0..n {
                a.push(gen_value(u, depth - 1)?);
            }
            Value::Array(a)
        }
        _ => {
            let n = u.int_in_range(0..=6u8)?;
            let mut m = Map::new();
            for _ in 0..n {
                let k = gen_key(u)?;
                m.insert(k, gen_value(u, depth - 1)?);
            }
            Value::Object(m)
        }
    })
}

/// A plan-like object: the calm plan (or a generated object) with edits.
pub fn gen_plan(u: &mut Unstructured<'_>) -> Result<Value> {
    if u.ratio(3u8, 4)? { Ok(calm_plan().clone()) } else { gen_value(u, GEN_DEPTH) }
}

/// Picks a node of `v` (walking down a random number of levels) and returns it.
fn pick<'v>(u: &mut Unstructured<'_>, v: &'v mut Value) -> Result<&'v mut Value> {
    // Choose the route on a shared borrow, then walk it mutably.
    let mut route = Vec::new();
    let mut at: &Value = v;
    while u.ratio(3u8, 4)? {
        let len = match at {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if len == 0 {
            break;
        }
        let i = u.choose_index(len)?;
        route.push(i);
        at = match at {
            Value::Object(m) => m.values().nth(i).expect("in range"),
            Value::Array(a) => &a[i],
            _ => unreachable!("len > 0"),
        };
    }
    let mut node = v;
    for i in route {
        node = match node {
            Value::Object(m) => m.values_mut().nth(i).expect("in range"),
            Value::Array(a) => &mut a[i],
            _ => unreachable!("the route was walked above"),
        };
    }
    Ok(node)
}

/// Largest pair (compact JSON bytes of plan and request together) the edits may build: enough
/// to pass the 262,144-byte size limit, small enough that one input stays well under a second
/// (repeating and cloning can otherwise grow a pair geometrically).
pub const MAX_PAIR_BYTES: usize = 1 << 20;

/// Applies up to 8 structured edits to `plan` and `request`; an `Err` when the input runs out or
/// the pair grows over [`MAX_PAIR_BYTES`] (the input is then skipped).
pub fn edit(u: &mut Unstructured<'_>, plan: &mut Value, request: &mut Value) -> Result<()> {
    let n = u.int_in_range(0..=8u8)?;
    for _ in 0..n {
        edit_once(u, plan, request)?;
        if compact_size(plan) + compact_size(request) > MAX_PAIR_BYTES {
            return Err(arbitrary::Error::IncorrectFormat);
        }
    }
    Ok(())
}

fn edit_once(u: &mut Unstructured<'_>, plan: &mut Value, request: &mut Value) -> Result<()> {
    {
        let target: &mut Value = if u.ratio(4u8, 5)? { &mut *plan } else { &mut *request };
        let node = pick(u, target)?;
        match u.int_in_range(0..=9u8)? {
            0 | 1 => *node = gen_value(u, 3)?,
            2 => {
                if let Value::Object(m) = node {
                    if !m.is_empty() {
                        let i = u.choose_index(m.len())?;
                        let k = m.keys().nth(i).cloned().expect("in range");
                        m.shift_remove(&k);
                    }
                } else if let Value::Array(a) = node
                    && !a.is_empty()
                {
                    let i = u.choose_index(a.len())?;
                    a.remove(i);
                }
            }
            3 => match node {
                Value::Object(m) => {
                    let k = gen_key(u)?;
                    let v = gen_value(u, 2)?;
                    m.insert(k, v);
                }
                Value::Array(a) => {
                    let v = if a.is_empty() { gen_value(u, 2)? } else { a[u.choose_index(a.len())?].clone() };
                    let at = u.int_in_range(0..=a.len())?;
                    a.insert(at, v);
                }
                _ => *node = Value::String(gen_string(u)?),
            },
            4 => {
                if let Value::Array(a) = node
                    && a.len() > 1
                {
                    let i = u.choose_index(a.len())?;
                    let j = u.choose_index(a.len())?;
                    a.swap(i, j);
                } else {
                    *node = Value::Number(gen_number(u)?);
                }
            }
            5 => {
                // Repeat an array's element many times (limits: 24, 40, 90).
                if let Value::Array(a) = node
                    && let Some(first) = a.first().cloned()
                {
                    let n = *u.choose(&[23usize, 24, 25, 39, 40, 41, 89, 90, 91])?;
                    if compact_size(&first) * n > MAX_PAIR_BYTES {
                        return Err(arbitrary::Error::IncorrectFormat);
                    }
                    while a.len() < n {
                        a.push(first.clone());
                    }
                }
            }
            6 => {
                // Wrap in many levels: around MAX_DEPTH (512).
                let levels = u.int_in_range(500..=515u32)?;
                let mut v = std::mem::take(node);
                for l in 0..levels {
                    v = if l % 2 == 0 {
                        Value::Array(vec![v])
                    } else {
                        Value::Object(Map::from_iter([("x".to_owned(), v)]))
                    };
                }
                *node = v;
            }
            7 => *node = Value::String(gen_string(u)?),
            _ => {
                // Keep the echo in step with the request so later checks are reached.
                if let Value::Object(p) = &mut *plan {
                    p.insert("request".to_owned(), request.clone());
                    if let Some(id) = request.get("requestId") {
                        p.insert("requestId".to_owned(), id.clone());
                    }
                }
            }
        }
    }
    Ok(())
}
