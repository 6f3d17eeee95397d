//! §5.8 goal feasibility (D6): `goal.days`, the count the request asks for, each day's
//! activities and their minutes.

use super::{PlanFields, Validator, get};
use crate::contract::LIMITS;
use crate::json::{char_len, integer_in, is_blank, is_emptyish};
use crate::messages;
use crate::path::Loc;
use crate::tree::{Members, Node};
use crate::verdict::IssueCode;

impl<'a, const COLLECT: bool> Validator<'a, COLLECT> {
    /// §5.8: a goal plan's days, then its distinct activity names (D6, the pass's last issue).
    pub(super) fn goal(&mut self, plan: &PlanFields<'a>, root: &Loc<'_>) {
        let gpath = root.key("goal");
        let goal = self.container(plan.goal, &gpath);
        let dpath = gpath.key("days");
        let days = match get(goal, "days") {
            Some(Node::Array(a)) if !a.is_empty() => a,
            other => {
                self.error(IssueCode::Required, &dpath, messages::goal_days_required(other));
                return;
            }
        };
        if let Some((n, asked)) = self.request_days
            && i64::try_from(days.len()) != Ok(n)
        {
            self.error(IssueCode::Days, &dpath, messages::days(days.len(), asked));
        }
        if days.len() > LIMITS.plan_days as usize {
            self.error(IssueCode::Limit, &dpath, messages::days_limit(days.len(), LIMITS.plan_days));
        }
        let mut names: Vec<&str> = Vec::with_capacity(16);
        for (d, day) in days.iter().enumerate() {
            let path = dpath.index(d);
            let Node::Object(day) = day else {
                self.error(IssueCode::Type, &path, messages::goal_day_not_object(d, day));
                continue;
            };
            let apath = path.key("activities");
            let activities: &[Node<'_>] = match day.get("activities") {
                Some(Node::Array(a)) => a,
                Some(v) if !is_emptyish(v) => {
                    self.error(IssueCode::Type, &apath, messages::activities_not_list(v));
                    &[]
                }
                _ => &[],
            };
            if activities.len() > LIMITS.activities_per_day as usize {
                let message = messages::activities_limit(activities.len(), LIMITS.activities_per_day);
                self.error(IssueCode::Limit, &apath, message);
            }
            let mut total: i64 = 0;
            for (j, act) in activities.iter().enumerate() {
                let path = apath.index(j);
                let Node::Object(a) = act else {
                    self.error(IssueCode::Type, &path, messages::activity_not_object(j, act));
                    continue;
                };
                if let Some(Node::String(s)) = a.get("activity") {
                    names.push(s);
                }
                total += self.goal_activity(a, &path);
            }
            if total > i64::from(LIMITS.minutes_per_day) {
                let message = messages::feasibility(total.unsigned_abs(), LIMITS.minutes_per_day);
                self.error(IssueCode::Feasibility, &path, message);
            }
        }
        self.distinct(names, &gpath, "goal days");
    }

    /// One goal activity (§5.8, D6): `category`, `minutes`, the four required texts, then the
    /// `activity` and `guidance` lengths, with their fixes (§9). Returns its minutes when they are
    /// valid (they count toward the day's feasibility), else 0.
    fn goal_activity(&mut self, a: &Members<'_>, path: &Loc<'_>) -> i64 {
        self.category(a.get("category"), path, "category");
        let minutes =
            if let Some(m) = a.get("minutes").and_then(|m| integer_in(m, 1, i64::from(LIMITS.minutes_per_activity))) {
                m
            } else {
                let message = messages::minutes(a.get("minutes"), LIMITS.minutes_per_activity);
                self.error(IssueCode::Duration, &path.key("minutes"), message);
                self.propose_minutes(a.get("minutes"), &path.key("minutes"));
                0
            };
        for field in ["title", "activity", "guidance", "doneWhen"] {
            if !matches!(a.get(field), Some(Node::String(s)) if !is_blank(s)) {
                let message = messages::activity_text_required(field, a.get(field));
                self.error(IssueCode::Required, &path.key(field), message);
                self.propose_text(IssueCode::Required, a.get(field), &path.key(field), None);
            }
        }
        for (field, limit) in [("activity", LIMITS.activity), ("guidance", LIMITS.guidance)] {
            if let Some(Node::String(s)) = a.get(field)
                && !is_blank(s)
                && char_len(s) > limit as usize
            {
                let message = messages::activity_text_length(field, char_len(s), limit);
                self.error(IssueCode::Length, &path.key(field), message);
                self.propose_text(IssueCode::Length, a.get(field), &path.key(field), Some(limit));
            }
        }
        minutes
    }
}
