//! `repair` (validator.md §9): apply the fixes the validator proposes, validate again, to a fixed
//! point, and say exactly what was done as an RFC 6902 patch.
//!
//! The loop follows what compilers and linters learned (`shared/notes/fixes-and-schema.md` §2, §5):
//! - only `safe` fixes by default, `unsafe` ones when asked, placeholders never;
//! - each fix is tried on its own and kept only when its issue is gone afterwards (and, for an
//!   unsafe fix, when the error count fell), as cargo fix backs out edits that break the build;
//! - one fix per JSON Pointer region per round, and a structural fix (a renamed weekday list)
//!   ends the round, since the paths after it shift;
//! - at most `max_rounds` rounds, and a state seen before stops the loop: the result says why it
//!   stopped.
//!
//! Besides the validator's fixes (proposed next to each rule, `validate/`), the unsafe timing
//! fixes of §9 ("moving or shortening a block") are proposed here, in [`timing`]: they need a
//! trial validation each, which only a repair should pay for.

mod timing;

use crate::fix::{Applicability, Edit, Fix};
use crate::json::{self, JsonError};
use crate::validate::{Input, verdict_and_fixes};
use crate::verdict::{Issue, Verdict};
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// What `repair` may do (validator.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepairOptions {
    /// Apply `unsafe` fixes too (they change meaning: a category synonym, a block moved or
    /// shortened, a number rounded); `false` by default, when they are only offered.
    pub unsafe_fixes: bool,
    /// The most rounds of fix-then-validate (default 10; measured: 3 suffice on the vectors).
    pub max_rounds: u32,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions { unsafe_fixes: false, max_rounds: 10 }
    }
}

/// Why the repair loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// No fix left to apply: the plan is valid, or what is left needs unsafe fixes, placeholders
    /// or the model.
    FixedPoint,
    /// `max_rounds` rounds ran and fixes were still being applied.
    RoundLimit,
    /// A round led back to a plan seen before (fixes undoing each other).
    RepeatedState,
    /// The plan is not a JSON object (or not JSON): nothing can be fixed by a patch.
    NotAnObject,
}

impl Stop {
    /// Every reason, in declaration order.
    pub const ALL: [Stop; 4] = [Stop::FixedPoint, Stop::RoundLimit, Stop::RepeatedState, Stop::NotAnObject];

    /// `fixedPoint`, `roundLimit`, `repeatedState` or `notAnObject`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Stop::FixedPoint => "fixedPoint",
            Stop::RoundLimit => "roundLimit",
            Stop::RepeatedState => "repeatedState",
            Stop::NotAnObject => "notAnObject",
        }
    }
}

/// The result of [`repair`] (validator.md §9). Its JSON ([`Repair::to_json`]) has the members
/// `plan, patch, applied, offered, verdict`, then `rounds, stopped, revealed, requestAtFault`.
#[derive(Debug, Clone, PartialEq)]
pub struct Repair {
    /// The repaired plan as JSON text: the input text itself when nothing was applied; otherwise
    /// the plan with its own member order, written compactly, or with two-space indentation when
    /// the input text had line breaks.
    pub plan: String,
    /// The RFC 6902 patch from the input plan to `plan`: every replaced or removed value is
    /// guarded by a `test` op first, so a stale patch fails instead of corrupting a newer draft.
    pub patch: Vec<Value>,
    /// The fixes applied, in the order applied. A fix's `path` is its issue's in the plan it was
    /// applied to, as a patch op's pointer is: a later round's fix can move what it names
    /// (putting blocks in start order), and its issue is gone from the plan of its own round.
    pub applied: Vec<Fix>,
    /// The fixes proposed for the repaired plan's issues and not applied (unsafe ones when not
    /// asked for, placeholders, and any that did not remove their issue).
    pub offered: Vec<Fix>,
    /// The verdict on `plan`.
    pub verdict: Verdict,
    /// Rounds of fixes applied.
    pub rounds: u32,
    /// Why the loop ended.
    pub stopped: Stop,
    /// Errors that only became checkable once a fix was applied (a time that now parses can now
    /// overlap; §9): listed so nothing is hidden. They are also in `verdict` unless fixed later.
    pub revealed: Vec<Issue>,
    /// When the request is at fault (a `requestInvalid`, or a `kind` that is neither `routine`
    /// nor `goal`), why: no change to the plan can make it valid, and the request must change.
    pub request_at_fault: Vec<String>,
}

fn fix_json(f: &Fix) -> Value {
    json!({"code": f.code.as_str(), "path": f.path, "applicability": f.applicability.as_str(), "description": f.description})
}

impl Repair {
    /// The plan as given, nothing applied: for a valid plan, and for one no patch can touch.
    fn unchanged(plan: Input<'_>, verdict: Verdict, stopped: Stop, request_at_fault: Vec<String>) -> Repair {
        Repair {
            plan: plan_text(plan),
            patch: Vec::new(),
            applied: Vec::new(),
            offered: Vec::new(),
            verdict,
            rounds: 0,
            stopped,
            revealed: Vec::new(),
            request_at_fault,
        }
    }

    /// The repair of a plan a host cannot hand over as JSON at all (validator.md §9, D12): a value
    /// JSON cannot carry (a lone surrogate, nesting deeper than [`crate::MAX_DEPTH`]) or text
    /// holding a lone surrogate. Nothing is applied; `plan` is `plan_text` (the host's best text
    /// of it, e.g. with U+FFFD for a lone surrogate, or empty); the verdict is the `json` verdict of
    /// `error` ([`Verdict::not_json`]); `stopped` is `notAnObject`; `requestAtFault` is judged
    /// from `request` (any [`Input`]) as [`repair`] judges it. Bindings use it so that their
    /// answer is the core's.
    ///
    /// # Errors
    /// As [`repair`]: a [`JsonError`] when the request, given as text or bytes, is not JSON.
    pub fn not_json(plan_text: String, error: &JsonError, request: Input<'_>) -> Result<Repair, JsonError> {
        let request = request_value(request)?;
        Ok(Repair {
            plan: plan_text,
            patch: Vec::new(),
            applied: Vec::new(),
            offered: Vec::new(),
            verdict: Verdict::not_json(error),
            rounds: 0,
            stopped: Stop::NotAnObject,
            revealed: Vec::new(),
            request_at_fault: crate::schema::request_faults(&request),
        })
    }

    /// The result as compact JSON text, members in the order of validator.md §9 and then
    /// `rounds, stopped, revealed, requestAtFault`; each fix `{code, path, applicability,
    /// description}`. The same bytes on every surface.
    #[must_use]
    pub fn to_json(&self) -> String {
        let fixes = |list: &[Fix]| Value::Array(list.iter().map(fix_json).collect()).to_string();
        let revealed: Vec<Value> = self
            .revealed
            .iter()
            .map(|i| json!({"code": i.code.as_str(), "path": i.path, "message": i.message}))
            .collect();
        // The verdict goes in as the core writes it (`Verdict::to_json`), never parsed back.
        let mut out = String::with_capacity(self.plan.len() + 512);
        out.push_str("{\"plan\":");
        out.push_str(&Value::String(self.plan.clone()).to_string());
        out.push_str(",\"patch\":");
        out.push_str(&Value::Array(self.patch.clone()).to_string());
        out.push_str(",\"applied\":");
        out.push_str(&fixes(&self.applied));
        out.push_str(",\"offered\":");
        out.push_str(&fixes(&self.offered));
        out.push_str(",\"verdict\":");
        out.push_str(&self.verdict.to_json());
        out.push_str(",\"rounds\":");
        out.push_str(&self.rounds.to_string());
        out.push_str(",\"stopped\":\"");
        out.push_str(self.stopped.as_str());
        out.push_str("\",\"revealed\":");
        out.push_str(&Value::Array(revealed).to_string());
        out.push_str(",\"requestAtFault\":");
        out.push_str(&json!(self.request_at_fault).to_string());
        out.push('}');
        out
    }
}

/// Repairs a plan against the request it answers (validator.md §9): applies the validator's fixes
/// at the levels `options` allows, validates again, to a fixed point. Pure and deterministic.
///
/// Input: the plan and the request in any form ([`Input`]); a text plan is read strictly (a plan
/// that is not a JSON object is returned unchanged with its verdict). Output: the [`Repair`].
/// A valid plan comes back unchanged with an empty patch, at the cost of one validation.
///
/// # Errors
/// A [`JsonError`] when the *request*, given as text or bytes, or either argument given as
/// [`Input::ValueText`], is not strict JSON (as [`crate::validate_input`]).
#[allow(clippy::too_many_lines)] // kept whole, to read side by side with validator.md §9
pub fn repair(plan: Input<'_>, request: Input<'_>, options: &RepairOptions) -> Result<Repair, JsonError> {
    if let Input::ValueText(t) = plan {
        // The value the text stands for, repaired as that value; the request is read first, as
        // `validate_input` reads it, so its fault is the one returned when both are at fault.
        let request = request_value(request)?;
        return repair(Input::Value(&json::parse(t)?), Input::Value(&request), options);
    }
    // A valid plan costs one validation: it comes back as given.
    let first = crate::validate_input(plan, request)?;
    if first.valid {
        return Ok(Repair::unchanged(plan, first, Stop::FixedPoint, Vec::new()));
    }
    let request = request_value(request)?;
    let request: &Value = &request;
    // The plan as a value, and its text when it came as text.
    let (value, text): (Option<Value>, Option<&str>) = match plan {
        Input::Text(t) => (json::parse(t).ok(), Some(t)),
        Input::Value(Value::String(t)) => (json::parse(t).ok(), Some(t.as_str())),
        Input::Bytes(b) => match std::str::from_utf8(b) {
            Ok(t) => (json::parse(t).ok(), Some(t)),
            Err(_) => (None, None),
        },
        Input::Value(v) => (Some(v.clone()), None),
        Input::Tree(t) => (Some(t.to_value()), None),
        // Read as a value at the top.
        Input::ValueText(_) => (None, None),
    };
    let request_at_fault = crate::schema::request_faults(request);
    let Some(mut value) = value.filter(Value::is_object) else {
        return Ok(Repair::unchanged(plan, first, Stop::NotAnObject, request_at_fault));
    };

    let allowed = |a: Applicability| a == Applicability::Safe || (options.unsafe_fixes && a == Applicability::Unsafe);
    // The validator's fixes, and the timing fixes (unsafe) when they may be applied.
    let fixes_of = |value: &Value| {
        let (verdict, mut fixes) = verdict_and_fixes(value, request);
        if options.unsafe_fixes {
            fixes.extend(timing::fixes(value, request, &verdict));
        }
        (verdict, fixes)
    };
    let (mut verdict, mut fixes) = fixes_of(&value);
    let (mut patch, mut applied, mut revealed) = (Vec::new(), Vec::new(), Vec::<Issue>::new());
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let (mut rounds, mut stopped) = (0u32, Stop::FixedPoint);
    while !verdict.valid {
        if rounds >= options.max_rounds {
            stopped = Stop::RoundLimit;
            break;
        }
        seen.insert(value.to_string());
        // This round's candidates, in verdict order: allowed, with an edit, one per region (a
        // pointer, its ancestors and descendants), up to and including the first structural fix
        // (paths after a renamed member shift, so the plan is validated again first).
        let mut touched: Vec<String> = Vec::new(); // sorted
        let mut picked: Vec<&Fix> = Vec::new();
        for fix in fixes.iter().filter(|f| allowed(f.applicability)) {
            let Some(pointer) = fix.edit.pointer() else { continue };
            if overlaps(&touched, &pointer) {
                continue;
            }
            let at = touched.partition_point(|t| t.as_str() < pointer.as_str());
            touched.insert(at, pointer);
            picked.push(fix);
            if matches!(fix.edit, Edit::Rename { .. }) {
                break;
            }
        }
        if picked.is_empty() {
            break;
        }
        let mut any = false;
        // The round's fixes together first: one edit of the plan and one validation for the whole
        // round, kept when every fix's issue is gone (and, when any is unsafe, the error count
        // fell), so a repair stays linear in the plan's size.
        {
            let mut trial = value.clone();
            let mut ops = Vec::new();
            let mut done: Vec<&Fix> = Vec::new();
            for fix in &picked {
                if let Some(o) = apply(&mut trial, &fix.edit) {
                    ops.extend(o);
                    done.push(fix);
                }
            }
            let after = crate::validate(&trial, request);
            let remaining = keys(&after);
            let gone = done.iter().all(|f| remaining.binary_search(&(f.code.as_str(), f.path.as_str())).is_err());
            let safe = done.iter().all(|f| f.applicability == Applicability::Safe);
            if !done.is_empty() && gone && (safe || after.errors.len() < verdict.errors.len()) {
                note_revealed(&verdict, &after, &mut revealed);
                value = trial;
                verdict = after;
                patch.extend(ops);
                applied.extend(done.into_iter().cloned());
                any = true;
            }
        }
        // Otherwise one at a time, each kept only when its issue is gone and, for an unsafe fix,
        // the error count fell (at most `ONE_BY_ONE` trials a round, a bound on the work).
        if !any {
            for fix in picked.into_iter().take(ONE_BY_ONE) {
                let mut trial = value.clone();
                let Some(ops) = apply(&mut trial, &fix.edit) else { continue };
                let after = crate::validate(&trial, request);
                let gone = !after.errors.iter().any(|i| i.code == fix.code && i.path == fix.path);
                let better = fix.applicability == Applicability::Safe || after.errors.len() < verdict.errors.len();
                if !(gone && better) {
                    continue;
                }
                note_revealed(&verdict, &after, &mut revealed);
                value = trial;
                verdict = after;
                patch.extend(ops);
                applied.push(fix.clone());
                any = true;
            }
        }
        if !any {
            break;
        }
        rounds += 1;
        (verdict, fixes) = fixes_of(&value);
        if seen.contains(&value.to_string()) {
            stopped = Stop::RepeatedState;
            break;
        }
    }
    // Offered: what is left, with the timing fixes too when they were not to be applied.
    let offered: Vec<Fix> = if verdict.valid {
        Vec::new()
    } else if options.unsafe_fixes {
        fixes
    } else {
        fixes.into_iter().chain(timing::fixes(&value, request, &verdict)).collect()
    };
    // The plan's text: the input itself when nothing changed; else the value, indented like a
    // multi-line input when that stays within the size limit (indentation must not add a
    // `size` error), compact otherwise. The verdict is always the returned text's own.
    let (plan, verdict) = match text {
        Some(t) if applied.is_empty() => (t.to_owned(), first),
        _ => {
            let pretty = text.is_some_and(|t| t.contains('\n'));
            let mut out =
                if pretty { serde_json::to_string_pretty(&value).unwrap_or_default() } else { value.to_string() };
            if out.len() > crate::LIMITS.payload_bytes as usize {
                out = value.to_string();
            }
            let verdict =
                if text.is_some() { crate::validate_input(Input::Text(&out), Input::Value(request))? } else { verdict };
            (out, verdict)
        }
    };
    Ok(Repair { plan, patch, applied, offered, verdict, rounds, stopped, revealed, request_at_fault })
}

/// The most fixes tried one at a time in a round (when the round's fixes cannot all be kept
/// together): each trial is one validation of the whole plan, so this bounds a round's work.
const ONE_BY_ONE: usize = 16;

/// The (code, path) of each error of `v`, sorted (a sorted `Vec` and a binary search: smaller in
/// the wasm package than another `BTreeSet` instance).
fn keys(v: &Verdict) -> Vec<(&'static str, &str)> {
    let mut k: Vec<(&'static str, &str)> = v.errors.iter().map(|i| (i.code.as_str(), i.path.as_str())).collect();
    k.sort_unstable();
    k
}

/// Adds to `revealed` the errors of `after` that `before` did not have (a fix can make more of
/// the plan checkable: a time that now parses, a last block that is now rest; what comes to light
/// is listed, never hidden).
fn note_revealed(before: &Verdict, after: &Verdict, revealed: &mut Vec<Issue>) {
    let old = keys(before);
    let mut listed: Vec<(&'static str, &str)> = revealed.iter().map(|r| (r.code.as_str(), r.path.as_str())).collect();
    listed.sort_unstable();
    let mut new: Vec<&Issue> = after
        .errors
        .iter()
        .filter(|e| {
            let key = (e.code.as_str(), e.path.as_str());
            old.binary_search(&key).is_err() && listed.binary_search(&key).is_err()
        })
        .collect();
    // One entry per (code, path), in verdict order.
    let mut firsts: Vec<(&'static str, &str, usize)> =
        new.iter().enumerate().map(|(i, e)| (e.code.as_str(), e.path.as_str(), i)).collect();
    firsts.sort_unstable();
    firsts.dedup_by(|b, a| (a.0, a.1) == (b.0, b.1));
    let mut keep: Vec<usize> = firsts.into_iter().map(|(_, _, i)| i).collect();
    keep.sort_unstable();
    new = keep.into_iter().map(|i| new[i]).collect();
    let new: Vec<Issue> = new.into_iter().cloned().collect();
    revealed.extend(new);
}

/// Whether `pointer` is in `touched` (sorted), or is an ancestor or a descendant of one that is.
fn overlaps(touched: &[String], pointer: &str) -> bool {
    let has = |p: &str| touched.binary_search_by(|t| t.as_str().cmp(p)).is_ok();
    let ancestor = pointer.match_indices('/').map(|(i, _)| &pointer[..i]).chain([pointer]).any(has);
    let prefix = format!("{pointer}/");
    let at = touched.partition_point(|t| t.as_str() < prefix.as_str());
    ancestor || touched.get(at).is_some_and(|t| t.starts_with(&prefix))
}

/// The request as a value, borrowed when it is one.
fn request_value(request: Input<'_>) -> Result<Cow<'_, Value>, JsonError> {
    Ok(match request {
        Input::Text(t) | Input::ValueText(t) => Cow::Owned(json::parse(t)?),
        Input::Bytes(b) => Cow::Owned(json::parse_bytes(b)?),
        Input::Value(v) => Cow::Borrowed(v),
        Input::Tree(t) => Cow::Owned(t.to_value()),
    })
}

/// The plan's text as given: its text, or the compact JSON of a value or built tree (bytes that
/// are not UTF-8: with U+FFFD for what is not).
fn plan_text(plan: Input<'_>) -> String {
    match plan {
        Input::Text(t) | Input::ValueText(t) => t.to_owned(),
        Input::Value(Value::String(t)) => t.clone(),
        Input::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Input::Value(v) => v.to_string(),
        Input::Tree(t) => t.to_value().to_string(),
    }
}

/// Applies `edit` to `value`, returning the RFC 6902 ops that do the same (a `test` before every
/// replaced or removed value); `None` when the edit does not fit the value.
fn apply(value: &mut Value, edit: &Edit) -> Option<Vec<Value>> {
    match edit {
        Edit::Set { pointer, value: new } => {
            if let Some(old) = value.pointer_mut(pointer) {
                let ops = vec![
                    json!({"op": "test", "path": pointer, "value": old.clone()}),
                    json!({"op": "replace", "path": pointer, "value": new}),
                ];
                *old = new.clone();
                return Some(ops);
            }
            let (parent, name) = split_pointer(pointer)?;
            value.pointer_mut(&parent)?.as_object_mut()?.insert(name, new.clone());
            Some(vec![json!({"op": "add", "path": pointer, "value": new})])
        }
        Edit::Remove { pointer } => {
            let (parent, name) = split_pointer(pointer)?;
            let old = value.pointer_mut(&parent)?.as_object_mut()?.shift_remove(&name)?;
            Some(vec![json!({"op": "test", "path": pointer, "value": old}), json!({"op": "remove", "path": pointer})])
        }
        Edit::Rename { parent, from, to } => {
            let obj = value.pointer_mut(parent)?.as_object_mut()?;
            if !obj.contains_key(from) || obj.contains_key(to) {
                return None;
            }
            let from_ptr = format!("{parent}/{}", crate::fix::escape_pointer(from));
            let to_ptr = format!("{parent}/{}", crate::fix::escape_pointer(to));
            let old = obj.get(from).cloned().unwrap_or(Value::Null);
            // In place: the renamed member keeps its position.
            let renamed: Map<String, Value> = std::mem::take(obj)
                .into_iter()
                .map(|(k, v)| if &k == from { (to.clone(), v) } else { (k, v) })
                .collect();
            *obj = renamed;
            Some(vec![
                json!({"op": "test", "path": from_ptr, "value": old}),
                json!({"op": "move", "from": from_ptr, "path": to_ptr}),
            ])
        }
        Edit::None => None,
    }
}

/// A pointer's parent pointer and last member name (unescaped, RFC 6901).
fn split_pointer(pointer: &str) -> Option<(String, String)> {
    let i = pointer.rfind('/')?;
    let name = pointer[i + 1..].replace("~1", "/").replace("~0", "~");
    Some((pointer[..i].to_owned(), name))
}
