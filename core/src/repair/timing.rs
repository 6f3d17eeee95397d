//! The unsafe timing fixes of `repair` (validator.md §9: "moving or shortening a block"), for the
//! `overlap`, `midnight` and `commitment` issues of a routine's day lists (§5.5–5.7):
//! - an overlapping block starts at the previous block's end, shortened when the day would not
//!   fit otherwise (by 24:00, or the D8 bound for a final rest block; before the next block and
//!   any commitment); when it cannot move (it is a commitment's block), the previous block moves
//!   earlier to end at its start, or is shortened to;
//! - a final rest block whose part after midnight runs into the day's first block (D8) ends when
//!   that block starts;
//! - a block past midnight ends at 24:00;
//! - a block over a commitment moves just after it, or just before it, within its neighbours,
//!   else is shortened to end at its start (or start at its end).
//!
//! A block whose activity is a commitment's label is never moved or shortened (it is the person's
//! fixed time; `shared/notes/fixes-and-schema.md` §5.3(d)). Each issue gets at most one fix: the
//! first candidate, in the order above, after which the validator no longer raises the issue and
//! raises fewer errors in all; the validator is the only judge, these are proposals. Candidates
//! are found from the plan's times and the request's commitments (D4: a night shift's two parts).

use super::apply;
use crate::contract::{LIMITS, weekday_index};
use crate::fix::{Applicability, Edit, Fix};
use crate::json::hhmm;
use crate::path::JsonPath;
use crate::tree::Node;
use crate::verdict::{IssueCode, Verdict};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The most candidate plans validated in one call: each is one validation of the whole plan, so
/// this bounds the work a round adds (the repair loop bounds the rounds).
const TRIALS: usize = 48;

/// One stretch of a valid commitment on the days of `days` (bit 0 = mon … bit 6 = sun), in
/// minutes after midnight, `start < end` (validator.md D4).
struct Part<'v> {
    label: Option<&'v Value>,
    start: i64,
    end: i64,
    days: u8,
}

/// A block's times: `(start, end)` in minutes after midnight, when its start is `HH:MM` and its
/// duration a whole number of minutes in 1..=720 (the blocks the overlap check reads, §5.5).
fn times(block: &Value) -> Option<(i64, i64)> {
    let start = i64::from(crate::json::parse_hhmm(&Node::String(block.get("start")?.as_str()?), false)?);
    let minutes = match block.get("durationMin")? {
        Value::Number(n) => crate::json::integer_in(&Node::Number(n.as_str()), 1, LIMITS.minutes_per_activity.into())?,
        _ => return None,
    };
    Some((start, start + minutes))
}

/// The request's valid commitments as parts (D4; a malformed one is the request's fault and
/// fixes nothing).
fn parts(request: &Value) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let Some(Value::Array(list)) = request.get("commitments") else { return out };
    for c in list {
        let hhmm = |key: &str, allow_24: bool| {
            c.get(key)?.as_str().and_then(|s| crate::json::parse_hhmm(&Node::String(s), allow_24)).map(i64::from)
        };
        let days = match c.get("days") {
            None | Some(Value::Null) => Some(0x7f),
            Some(Value::Array(ds)) => ds.iter().try_fold(0u8, |m, d| Some(m | (1 << weekday_index(d.as_str()?)?))),
            Some(_) => None,
        };
        let (Some(days), Some(start), Some(end)) = (days, hhmm("start", false), hhmm("end", true)) else { continue };
        let label = c.get("label");
        out.extend(crate::validate::stretches(start, end, days).map(|(start, end, days)| Part {
            label,
            start,
            end,
            days,
        }));
    }
    out
}

/// One list of blocks: its JSON Pointer and JSONPath, its blocks, and the days it is on.
struct Day<'v> {
    pointer: String,
    path: JsonPath,
    blocks: &'v [Value],
    days: u8,
}

/// The routine's day lists: `routine.blocks` (every day), then each weekday list.
fn days(plan: &Value) -> Vec<Day<'_>> {
    let mut out = Vec::new();
    let Some(routine) = plan.get("routine") else { return out };
    let root = JsonPath::root().key("routine");
    if let Some(Value::Array(blocks)) = routine.get("blocks") {
        out.push(Day { pointer: "/routine/blocks".to_owned(), path: root.key("blocks"), blocks, days: 0x7f });
    }
    if let Some(Value::Object(weekdays)) = routine.get("weekdays") {
        for (key, list) in weekdays {
            if let (Some(d), Value::Array(blocks)) = (weekday_index(key), list) {
                let pointer = format!("/routine/weekdays/{key}");
                out.push(Day { pointer, path: root.key("weekdays").key(key), blocks, days: 1 << d });
            }
        }
    }
    out
}

/// New times for block `index` of a day: `(start, durationMin)`.
type Candidate = (usize, i64, i64);

/// The unsafe timing fixes for the `overlap`, `midnight` and `commitment` errors of `verdict`
/// (the verdict on `plan` for `request`), each with its description and its edit (the block's
/// `start`, its `durationMin`, or both). Deterministic; at most [`TRIALS`] validations.
pub(super) fn fixes(plan: &Value, request: &Value, verdict: &Verdict) -> Vec<Fix> {
    let wanted = |c: IssueCode| matches!(c, IssueCode::Overlap | IssueCode::Midnight | IssueCode::Commitment);
    // Each issue once, in verdict order.
    let mut issues: Vec<(IssueCode, &str)> = Vec::new();
    for e in verdict.errors.iter().filter(|i| wanted(i.code)) {
        if !issues.contains(&(e.code, e.path.as_str())) {
            issues.push((e.code, e.path.as_str()));
        }
    }
    if issues.is_empty() {
        return Vec::new();
    }
    // Where each issue's block is: (its day, its index), found by rendering the blocks' paths.
    let mut paths: Vec<&str> = issues.iter().map(|&(_, p)| p).collect();
    paths.sort_unstable();
    let days = days(plan);
    let mut at: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (d, day) in days.iter().enumerate() {
        for i in 0..day.blocks.len() {
            let path = day.path.index(i).into_string();
            if paths.binary_search(&path.as_str()).is_ok() {
                at.insert(path, (d, i));
            }
        }
    }
    let timed: Vec<Vec<Option<(i64, i64)>>> = days.iter().map(|d| d.blocks.iter().map(times).collect()).collect();
    let arena = crate::tree::arena_for(0);
    let parts = parts(request);
    let labels: Vec<&Value> = parts.iter().filter_map(|p| p.label).collect();
    let mut trials = TRIALS;
    let mut out = Vec::new();
    for (code, path) in issues {
        let Some(&(d, i)) = at.get(path) else { continue };
        let (day, timed) = (&days[d], &timed[d]);
        let fixed = |j: usize| day.blocks[j].get("activity").is_some_and(|a| labels.contains(&a));
        let candidates = match code {
            IssueCode::Overlap => overlap(timed, i, &fixed),
            IssueCode::Midnight => timed[i].map(|(s, _)| vec![(i, s, 1440 - s)]).unwrap_or_default(),
            _ => commitment(timed, i, &fixed, &parts, day.days),
        };
        for (j, start, minutes) in candidates {
            if trials == 0 {
                return out;
            }
            let Some((old_start, old_end)) = timed[j] else { continue };
            let old = (old_start, old_end - old_start);
            // A start is a time of day (a candidate past 24:00 would write an invalid time).
            let valid = (0..1440).contains(&start) && (1..=LIMITS.minutes_per_activity.into()).contains(&minutes);
            if old == (start, minutes) || !valid {
                continue;
            }
            let edit = edit(day, j, old, (start, minutes));
            let mut trial = plan.clone();
            trials -= 1;
            if apply(&mut trial, &edit).is_none() {
                continue;
            }
            let after = crate::validate(&trial, request);
            let gone = !after.errors.iter().any(|e| e.code == code && e.path == path);
            if gone && after.errors.len() < verdict.errors.len() {
                let activity = day.blocks[j].get("activity").map(|a| Node::from_value(a, 1, &arena));
                let description = crate::messages::fixes::block_times(activity.as_ref(), old, (start, minutes));
                let path = path.to_owned();
                out.push(Fix { code, path, applicability: Applicability::Unsafe, description, edit });
                break;
            }
        }
    }
    out
}

/// The edit giving block `j` of `day` the times `new` (`(start, durationMin)`, `old` its own):
/// the one member that changes, or the whole block when both do.
fn edit(day: &Day<'_>, j: usize, old: (i64, i64), new: (i64, i64)) -> Edit {
    let block = format!("{}/{j}", day.pointer);
    let start = Value::String(hhmm(new.0));
    let minutes = Value::from(new.1);
    match (old.0 == new.0, old.1 == new.1) {
        (false, true) => Edit::Set { pointer: format!("{block}/start"), value: start },
        (true, _) => Edit::Set { pointer: format!("{block}/durationMin"), value: minutes },
        (false, false) => {
            let mut members: Map<String, Value> = day.blocks[j].as_object().cloned().unwrap_or_default();
            members.insert("start".to_owned(), start);
            members.insert("durationMin".to_owned(), minutes);
            Edit::Set { pointer: block, value: Value::Object(members) }
        }
    }
}

/// The timed blocks before and after `i`: the end of the previous one and the start of the next.
fn neighbours(timed: &[Option<(i64, i64)>], i: usize) -> (Option<(usize, i64)>, Option<i64>) {
    let prev = (0..i).rev().find_map(|j| timed[j].map(|(_, e)| (j, e)));
    let next = timed[i + 1..].iter().find_map(|t| t.map(|(s, _)| s));
    (prev, next)
}

/// The candidates for an `overlap` at block `i` (§5.5, D8).
fn overlap(timed: &[Option<(i64, i64)>], i: usize, fixed: &dyn Fn(usize) -> bool) -> Vec<Candidate> {
    let Some((start, end)) = timed[i] else { return Vec::new() };
    let first_start = timed.iter().find_map(|t| t.map(|(s, _)| s)).unwrap_or(0);
    let last = i + 1 == timed.len();
    let (prev, next) = neighbours(timed, i);
    let mut out = Vec::new();
    match prev {
        // D8: a final block past midnight into the day's first block ends when that one starts.
        Some((_, pe)) if start >= pe => out.push((i, start, 1440 + first_start - start)),
        None => out.push((i, start, 1440 + first_start - start)),
        Some((p, pe)) => {
            if !fixed(i) {
                // Start at the previous end, keeping the minutes when the day still fits.
                let limit = next.unwrap_or(if last { 1440 + first_start } else { 1440 });
                out.push((i, pe, (end - start).min(limit - pe)));
                if !last && next.is_none() {
                    out.push((i, pe, (end - start).min(1440 - pe)));
                }
            }
            if !fixed(p) {
                let Some((ps, pe)) = timed[p] else { return out };
                let (before, _) = neighbours(timed, p);
                let floor = before.map_or(0, |(_, e)| e);
                // The previous block earlier, ending at this one's start; else shortened to.
                if start - (pe - ps) >= floor {
                    out.push((p, start - (pe - ps), pe - ps));
                }
                out.push((p, ps, start - ps));
            }
        }
    }
    out
}

/// The candidates for a `commitment` at block `i` on the days `days` (§5.7): just after the
/// first commitment part it meets, or just before it, within the neighbours; else shortened.
fn commitment(
    timed: &[Option<(i64, i64)>],
    i: usize,
    fixed: &dyn Fn(usize) -> bool,
    parts: &[Part<'_>],
    days: u8,
) -> Vec<Candidate> {
    let Some((start, end)) = timed[i] else { return Vec::new() };
    if fixed(i) {
        return Vec::new();
    }
    let minutes = end - start;
    let (prev, next) = neighbours(timed, i);
    let floor = prev.map_or(0, |(_, e)| e);
    let ceiling = next.unwrap_or(1440);
    let mut out = Vec::new();
    for p in parts.iter().filter(|p| p.days & days != 0 && start < p.end && end > p.start) {
        if p.end + minutes <= ceiling {
            out.push((i, p.end, minutes));
        }
        if p.start - minutes >= floor {
            out.push((i, p.start - minutes, minutes));
        }
        if start < p.start {
            out.push((i, start, p.start - start));
        }
        if end > p.end {
            out.push((i, p.end, end - p.end));
        }
        if p.end < ceiling {
            out.push((i, p.end, minutes.min(ceiling - p.end)));
        }
        if floor < p.start {
            let s = floor.max(p.start - minutes);
            out.push((i, s, p.start - s));
        }
    }
    out
}
