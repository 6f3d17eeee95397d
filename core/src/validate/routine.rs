//! §5.5–5.6 routine: `routine.blocks` (every day), then each `routine.weekdays` list, each a day
//! of blocks checked in order (D8, D10, D11), then its commitment pass (§5.7), with the fixes of
//! each rule (§9).

use super::commitments::Timed;
use super::{PlanFields, Validator, get, minutes_fact, pick};
use crate::contract::{LIMITS, weekday_index};
use crate::fix::{self, Applicability, Edit};
use crate::json::{char_len, integer, integer_in, is_blank, parse_hhmm};
use crate::messages;
use crate::path::Loc;
use crate::tree::{Members, Node};
use crate::verdict::IssueCode;
use serde_json::Value;

/// A day's blocks read so far (§5.5–5.7): what the next block is checked against.
pub(crate) struct DayState<'v> {
    /// (start, activity) of the first block that passed the time and duration checks (D8).
    pub(crate) first: Option<(i64, Option<&'v Node<'v>>)>,
    /// The end of the previous block that passed them (overlap).
    pub(crate) prev_end: Option<i64>,
    /// The blocks with a valid start and an integer duration, for the commitment pass.
    pub(super) timed: Vec<Timed<'v>>,
    /// The first `overlap` or `midnight` issue of this list, for the list's order fix (§9).
    pub(super) order_issue: Option<(IssueCode, usize)>,
}

/// Where a list of blocks sits in the week (validator.md D4, D5, D9).
#[derive(Clone, Copy)]
pub(super) enum Day {
    /// `routine.blocks`: every day.
    Every,
    /// `routine.weekdays.<day>`: 0 = mon … 6 = sun.
    Weekday(usize),
}

impl<'a, const COLLECT: bool> Validator<'a, COLLECT> {
    /// §5.5–5.7: `routine.blocks`, then each weekday list in the order given, then the distinct
    /// activity names (D6, the pass's last issue).
    pub(super) fn routine(&mut self, plan: &PlanFields<'a>, root: &Loc<'_>) {
        let path = root.key("routine");
        let routine = self.container(plan.routine, &path);
        let mut names: Vec<&str> = Vec::with_capacity(16);

        // The names of lists read a block at a time (not in the tree; D6).
        let held: Vec<Option<Vec<Box<str>>>> = match self.days.as_mut() {
            Some(days) => days.iter_mut().map(|d| d.as_mut().and_then(|d| d.names.take())).collect(),
            None => Vec::new(),
        };

        let blocks = get(routine, "blocks");
        self.day(blocks, &path.key("blocks"), Day::Every);
        names_of(&held, 7, blocks, &mut names);

        let wpath = path.key("weekdays");
        let weekdays = self.container(get(routine, "weekdays"), &wpath);
        for (key, list) in weekdays.into_iter().flat_map(Members::iter) {
            let dpath = wpath.key(key);
            if let Some(d) = weekday_index(key) {
                self.day(Some(list), &dpath, Day::Weekday(d));
                names_of(&held, d, Some(list), &mut names);
            } else {
                self.error(IssueCode::Weekday, &dpath, messages::weekday(key));
                if self.collecting() {
                    self.propose_weekday(key, weekdays, &wpath, &dpath);
                }
            }
        }
        self.distinct(names, &path, "blocks");
    }

    /// The `weekday` fix (§9): the key's case and white space are safe, an English weekday name is
    /// unsafe; none when that weekday already has a list.
    fn propose_weekday(&mut self, key: &str, weekdays: Option<&Members<'_>>, wpath: &Loc<'_>, dpath: &Loc<'_>) {
        let taken = |d: &str| weekdays.is_some_and(|w| w.get(d).is_some());
        let (to, applicability) = match (fix::weekday_safe(key), fix::weekday_name(key)) {
            (Some(d), _) => (Some(d), Applicability::Safe),
            (None, Some(d)) => (Some(d), Applicability::Unsafe),
            _ => (None, Applicability::Unsafe),
        };
        if let Some(to) = to.filter(|d| !taken(d)) {
            let edit = Edit::Rename { parent: wpath.pointer(), from: key.to_owned(), to: to.to_owned() };
            self.propose(IssueCode::Weekday, dpath, applicability, messages::fixes::weekday(to), edit);
        }
    }

    /// One day's list of blocks (§5.5–5.7, D5, D8).
    fn day(&mut self, list: Option<&Node<'_>>, path: &Loc<'_>, day: Day) {
        // A list whose blocks were checked as they were read (a stream, or a list far over the
        // limit; validator.md §10, issue 27): the same rules gave those issues, in this order.
        let which = match day {
            Day::Weekday(d) => d,
            Day::Every => 7,
        };
        if let Some(known) = self.days.as_mut().and_then(|d| d[which].take()).filter(|k| k.blocks > 0) {
            if known.blocks > LIMITS.blocks_per_day as usize {
                self.error(IssueCode::Limit, path, messages::blocks_limit(known.blocks, LIMITS.blocks_per_day));
            }
            self.errors.reserve_exact(known.own.len() + known.commitment.len());
            self.errors.extend(known.own);
            self.errors.extend(known.commitment);
            self.warnings.extend(known.warnings);
            return;
        }
        let blocks = match list {
            Some(Node::Array(a)) if !a.is_empty() => a,
            other => {
                self.error(IssueCode::Required, path, messages::blocks_required(other));
                return;
            }
        };
        if blocks.len() > LIMITS.blocks_per_day as usize {
            self.error(IssueCode::Limit, path, messages::blocks_limit(blocks.len(), LIMITS.blocks_per_day));
        }

        let last = blocks.len() - 1;
        let mut st =
            DayState { first: None, prev_end: None, timed: Vec::with_capacity(blocks.len()), order_issue: None };
        for (i, block) in blocks.iter().enumerate() {
            self.block(&mut st, i, block, path, Some(i == last));
        }
        let DayState { timed, order_issue, .. } = st;
        if self.collecting()
            && let Some((code, i)) = order_issue
        {
            self.propose_order(blocks, code, &path.index(i), path);
        }
        self.commitment_pass(&timed, path, day);
    }

    /// Block `i` of a day's list at `path` (§5.5–5.6, D8, D10, D11), the day so far in `st`;
    /// `last`: whether it is the list's last element, `None` when not known yet (a stream,
    /// validator.md §10): then a `rest` block running past midnight reports nothing of its end
    /// and the call returns `true` (call again with `last` known, on the state before it).
    pub(super) fn block<'v>(
        &mut self,
        st: &mut DayState<'v>,
        i: usize,
        block: &'v Node<'v>,
        path: &Loc<'_>,
        last: Option<bool>,
    ) -> bool {
        let bpath = path.index(i);
        let Node::Object(b) = block else {
            self.error(IssueCode::Type, &bpath, messages::block_not_object(i, block));
            return false;
        };
        let [f_start, f_minutes, f_category, f_activity, f_essential] =
            pick(b, ["start", "durationMin", "category", "activity", "essential"]);
        let start = f_start.and_then(|s| parse_hhmm(s, false)).map(i64::from);
        if let (Some(s), Some(m)) = (start, f_minutes.and_then(integer)) {
            st.timed.push(Timed { index: i, start: s, minutes: m, activity: f_activity });
        }
        let Some(start) = start else {
            let spath = bpath.key("start");
            self.error(IssueCode::Time, &spath, messages::start_time(f_start));
            if self.collecting()
                && let Some(t) = f_start.and_then(Node::as_str).and_then(fix::time_safe)
            {
                let desc = messages::fixes::start_time(&t);
                self.propose_set(IssueCode::Time, &spath, Applicability::Safe, desc, t.into());
            }
            return false;
        };
        let Some(minutes) = f_minutes.and_then(|d| integer_in(d, 1, i64::from(LIMITS.minutes_per_activity))) else {
            let message = messages::duration_min(f_minutes, LIMITS.minutes_per_activity);
            self.error(IssueCode::Duration, &bpath.key("durationMin"), message);
            self.propose_minutes(f_minutes, &bpath.key("durationMin"));
            return false;
        };
        self.block_fields(f_category, f_activity, f_essential, &bpath);
        let activity = f_activity;
        let end = start + minutes;
        if let Some(pe) = st.prev_end
            && start < pe
        {
            st.order_issue.get_or_insert((IssueCode::Overlap, i));
            self.error(IssueCode::Overlap, &bpath, messages::overlap(activity, minutes_fact(start), minutes_fact(pe)));
        }
        if st.first.is_none() {
            st.first = Some((start, activity));
        }
        if end > 1440 {
            let is_rest = matches!(f_category, Some(Node::String(c)) if *c == "rest");
            if is_rest && last.is_none() {
                // Whether it is the list's last element is not known yet (a stream, §10).
                st.prev_end = Some(end);
                return true;
            }
            if is_rest && last == Some(true) {
                self.warning(IssueCode::Overnight, &bpath, messages::overnight(activity, minutes_fact(end - 1440)));
                // D8: the day repeats, so the part after midnight must end before the day's
                // first block starts.
                if let Some((first_start, first_activity)) = st.first
                    && end - 1440 > first_start
                {
                    st.order_issue.get_or_insert((IssueCode::Overlap, i));
                    let message = messages::overnight_overlap(
                        activity,
                        minutes_fact(end - 1440),
                        first_activity,
                        minutes_fact(first_start),
                    );
                    self.error(IssueCode::Overlap, &bpath, message);
                }
            } else {
                st.order_issue.get_or_insert((IssueCode::Midnight, i));
                let message =
                    messages::midnight(activity, minutes_fact(start), minutes_fact(minutes), minutes_fact(end - 1440));
                self.error(IssueCode::Midnight, &bpath, message);
            }
        }
        st.prev_end = Some(end);
        false
    }

    /// A block's `category`, `activity` (D10) and `essential` (§5.5), once its time and duration
    /// passed, with their fixes (§9).
    fn block_fields(
        &mut self,
        category: Option<&Node<'_>>,
        activity: Option<&Node<'_>>,
        essential: Option<&Node<'_>>,
        bpath: &Loc<'_>,
    ) {
        self.category(category, bpath, "category");
        let activity_ok =
            matches!(activity, Some(Node::String(s)) if !is_blank(s) && char_len(s) <= LIMITS.activity as usize);
        if !activity_ok {
            let path = bpath.key("activity");
            self.error(IssueCode::Activity, &path, messages::activity(activity, LIMITS.activity));
            self.propose_text(IssueCode::Activity, activity, &path, Some(LIMITS.activity));
        }
        if !matches!(essential, Some(Node::Bool(_))) {
            let path = bpath.key("essential");
            self.error(IssueCode::Essential, &path, messages::essential(essential));
            if self.collecting() {
                self.propose_essential(essential, &path);
            }
        }
    }

    /// The `essential` fixes (§9): `"true"`/`"false"` written as a boolean is safe, a yes/no word
    /// or 0/1 is unsafe; otherwise the model must say.
    fn propose_essential(&mut self, found: Option<&Node<'_>>, path: &Loc<'_>) {
        let v = found.map(|v| v.into_value());
        if let Some(b) = v.as_ref().and_then(fix::boolean_safe) {
            let desc = messages::fixes::essential_written(b);
            self.propose_set(IssueCode::Essential, path, Applicability::Safe, desc, b.into());
        } else if let Some(b) = v.as_ref().and_then(fix::boolean_guess) {
            let desc = messages::fixes::essential_guess(b, found);
            self.propose_set(IssueCode::Essential, path, Applicability::Unsafe, desc, b.into());
        } else {
            self.propose_placeholder(IssueCode::Essential, path, messages::fixes::essential_placeholder());
        }
    }

    /// The order fix of a list with an `overlap` or `midnight` issue (`code`, first raised at
    /// `at`; §9): the blocks in start order, exact repeats removed, when that is all it takes.
    fn propose_order(&mut self, blocks: &[Node<'_>], code: IssueCode, at: &Loc<'_>, path: &Loc<'_>) {
        if let Some((sorted, removed)) = fix::clean_order(blocks) {
            let list: Vec<Value> = sorted.iter().map(|b| b.into_value()).collect();
            let edit = Edit::Set { pointer: path.pointer(), value: Value::Array(list) };
            self.propose(code, at, Applicability::Safe, messages::fixes::order(removed), edit);
        }
    }
}

/// The activity names of day list `which` (D6): those `held` from a list read a block at a time,
/// else those in its tree.
fn names_of<'v>(held: &'v [Option<Vec<Box<str>>>], which: usize, list: Option<&'v Node<'v>>, names: &mut Vec<&'v str>) {
    match held.get(which).and_then(Option::as_ref) {
        Some(held) => names.extend(held.iter().map(|n| &**n)),
        None => collect_names(list, "activity", names),
    }
}

/// Every string `field` of every object in `list` (D6).
fn collect_names<'v>(list: Option<&'v Node<'v>>, field: &str, names: &mut Vec<&'v str>) {
    if let Some(Node::Array(blocks)) = list {
        names.extend(blocks.iter().filter_map(|b| b.get(field)?.as_str()));
    }
}
