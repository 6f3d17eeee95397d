//! §5.7 commitments (D4, D5, D9): the request's commitments read into the parts they cover
//! (malformed ones are `requestInvalid` and skipped, D1), and each day's commitment pass.

use super::routine::Day;
use super::{Validator, minutes_fact};
use crate::contract::{LIMITS, weekday_index};
use crate::json::{deep_equal_opt, is_emptyish, parse_hhmm};
use crate::messages;
use crate::path::Loc;
use crate::tree::Node;
use crate::verdict::{Issue, IssueCode};

/// One stretch of a valid commitment (validator.md D4): `[start, end)` minutes on the days of
/// `days` (bit 0 = mon … bit 6 = sun). A night shift has an evening and a morning part.
#[derive(Clone, Copy)]
pub(super) struct Part<'a> {
    label: Option<&'a Node<'a>>,
    start: i64,
    end: i64,
    days: u8,
    /// The whole commitment, for messages.
    shown: messages::CommitmentTimes,
}

/// A [`Part`] that owns its label: what a [`crate::PlanStream`] keeps of the request's
/// commitments, read once (validator.md §10), for every block it settles.
#[derive(Clone)]
pub(crate) struct OwnedPart {
    label: Option<serde_json::Value>,
    start: i64,
    end: i64,
    days: u8,
    shown: messages::CommitmentTimes,
}

impl<'a> Part<'a> {
    /// The part, its label as a value.
    pub(super) fn owned(&self) -> OwnedPart {
        let Part { label, start, end, days, shown } = *self;
        OwnedPart { label: label.map(|l| l.into_value()), start, end, days, shown }
    }

    /// An owned part read back, its label's view in `arena`.
    pub(super) fn from_owned(p: &'a OwnedPart, arena: &'a bumpalo::Bump) -> Part<'a> {
        let label = p.label.as_ref().map(|l| &*arena.alloc(Node::from_value(l, 1, arena)));
        Part { label, start: p.start, end: p.end, days: p.days, shown: p.shown }
    }
}

/// The stretches a commitment from `start` to `end` (minutes after midnight) on `days` covers
/// (validator.md D4): itself, or for a night shift (`end < start`) from `start` to 24:00 on `days`
/// and from 00:00 to `end` on the following days (sun is followed by mon). `(start, end, days)`
/// each; the one place the rule is written, for the validator and repair's timing fixes.
pub(crate) fn stretches(start: i64, end: i64, days: u8) -> impl Iterator<Item = (i64, i64, u8)> {
    let night = end < start;
    let next = ((days << 1) | (days >> 6)) & 0x7f;
    std::iter::once((start, if night { 1440 } else { end }, days)).chain(night.then_some((0, end, next)))
}

/// A block with a valid start and an integer duration (clamped like every integer), for the
/// commitment pass.
pub(super) struct Timed<'v> {
    pub(super) index: usize,
    pub(super) start: i64,
    pub(super) minutes: i64,
    pub(super) activity: Option<&'v Node<'v>>,
}

impl<'a, const COLLECT: bool> Validator<'a, COLLECT> {
    /// Reads the request's commitments into parts, reporting malformed ones (D1, D4, D9, §7).
    pub(super) fn read_commitments(&mut self, commitments: Option<&'a Node<'a>>, echo: &Loc<'_>) {
        let list = match commitments {
            None => return,
            Some(Node::Array(a)) => a,
            Some(v) if is_emptyish(v) => return,
            Some(v) => {
                self.error(IssueCode::RequestInvalid, &echo.key("commitments"), messages::commitments_not_list(v));
                return;
            }
        };
        let list_path = echo.key("commitments");
        for (i, c) in list.iter().enumerate() {
            let path = list_path.index(i);
            let Node::Object(c) = c else {
                self.error(IssueCode::RequestInvalid, &path, messages::commitment_not_object(i, c));
                continue;
            };
            let mut ok = true;
            let days: u8 = match c.get("days") {
                None | Some(Node::Null) => 0x7f,
                Some(Node::Array(ds)) if ds.iter().all(|d| d.as_str().and_then(weekday_index).is_some()) => {
                    ds.iter().filter_map(|d| d.as_str().and_then(weekday_index)).fold(0u8, |m, i| m | (1 << i))
                }
                Some(d) => {
                    ok = false;
                    self.error(IssueCode::RequestInvalid, &path.key("days"), messages::commitment_days(d));
                    0
                }
            };
            let start = c.get("start").and_then(|s| parse_hhmm(s, false));
            if start.is_none() {
                ok = false;
                self.error(IssueCode::RequestInvalid, &path.key("start"), messages::commitment_start(c.get("start")));
            }
            let end = c.get("end").and_then(|s| parse_hhmm(s, true));
            if end.is_none() {
                ok = false;
                self.error(IssueCode::RequestInvalid, &path.key("end"), messages::commitment_end(c.get("end")));
            }
            if let (true, Some(s), Some(e)) = (ok, start, end) {
                let shown = messages::CommitmentTimes { start: s, end: e, days };
                let (s, e) = (i64::from(s), i64::from(e));
                let label = c.get("label");
                for (start, end, days) in stretches(s, e, days) {
                    self.parts.to_mut().push(Part { label, start, end, days, shown });
                }
            }
        }
    }

    /// §5.7, D4, D5, D9: every block with a valid start and an integer duration (`timed`) against
    /// the commitment parts on its day, then (D5) its minutes after midnight against the next day's.
    pub(super) fn commitment_pass(&mut self, timed: &[Timed<'_>], path: &Loc<'_>, day: Day) {
        if self.parts.is_empty() {
            return;
        }
        let (today, tomorrow): (u8, u8) = match day {
            Day::Every => (0x7f, 0x7f),
            Day::Weekday(d) => (1 << d, 1 << ((d + 1) % 7)),
        };
        let mut found: Vec<Issue> = Vec::new();
        for &Timed { index: i, start, minutes, activity } in timed {
            let end = start.saturating_add(minutes);
            let mut hit = |p: &Part<'_>, from: i64, to: i64, after_midnight: bool| {
                let span = (minutes_fact(from), minutes_fact(to));
                let message = messages::commitment(activity, span, after_midnight, p.label, p.shown);
                found.push(Issue::new(IssueCode::Commitment, path.index(i).render(), message));
            };
            for p in self.parts.iter().filter(|p| p.days & today != 0) {
                if start < p.end && end > p.start && !deep_equal_opt(activity, p.label) {
                    hit(p, start, end.min(1440), false);
                }
            }
            if (1..=i64::from(LIMITS.minutes_per_activity)).contains(&minutes) && end > 1440 {
                let after = end - 1440;
                for p in self.parts.iter().filter(|p| p.days & tomorrow != 0) {
                    if 0 < p.end && after > p.start && !deep_equal_opt(activity, p.label) {
                        hit(p, 0, after, true);
                    }
                }
            }
        }
        self.errors.append(&mut found);
    }
}
