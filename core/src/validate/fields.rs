//! The rules several sections share, each with its fixes (§9): a container of the wrong type
//! (D1), `category` (§5.5, §5.8), whole minutes (§5.5 `durationMin`, §5.8 `minutes`), a required
//! text (§5.3, §5.5, §5.8) and distinct activity names (D6).

use super::Validator;
use crate::contract::{LIMITS, is_category};
use crate::fix::{self, Applicability};
use crate::json::{is_blank, is_emptyish};
use crate::messages;
use crate::path::Loc;
use crate::tree::{Members, Node};
use crate::verdict::IssueCode;

impl<'a, const COLLECT: bool> Validator<'a, COLLECT> {
    /// A container read where D1 allows a wrong type: an object is itself, an empty-ish value is
    /// `{}`, anything else is a `type` error and then `{}`.
    pub(super) fn container(&mut self, v: Option<&'a Node<'a>>, path: &Loc<'_>) -> Option<&'a Members<'a>> {
        match v {
            Some(Node::Object(m)) => Some(m),
            Some(v) if !is_emptyish(v) => {
                self.error(IssueCode::Type, path, messages::not_an_object(path.tail(), v));
                None
            }
            _ => None,
        }
    }

    /// `category` at `parent.<field>` unless `v` is one of the nine (the path is built only for an issue).
    pub(super) fn category(&mut self, v: Option<&Node<'_>>, parent: &Loc<'_>, field: &str) {
        if !matches!(v, Some(Node::String(c)) if is_category(c)) {
            let path = &parent.key(field);
            self.error(IssueCode::Category, path, messages::category(v));
            self.propose_category(v, path);
        }
    }

    /// D6: more than `distinctActivities` distinct activity names is `limit` at `path`.
    pub(super) fn distinct(&mut self, mut names: Vec<&str>, path: &Loc<'_>, what: &str) {
        names.sort_unstable();
        names.dedup();
        if names.len() > LIMITS.distinct_activities as usize {
            self.error(IssueCode::Limit, path, messages::distinct_limit(what, names.len(), LIMITS.distinct_activities));
        }
    }

    /// The fixes of a whole number of minutes in 1..=720 (§9): an integral literal or a digit
    /// string is safe; a fraction rounded to a whole number is unsafe.
    pub(super) fn propose_minutes(&mut self, value: Option<&Node<'_>>, path: &Loc<'_>) {
        if !self.collecting() {
            return;
        }
        let Some(v) = value.map(|v| v.into_value()) else {
            let desc = messages::fixes::minutes_placeholder(LIMITS.minutes_per_activity);
            self.propose_placeholder(IssueCode::Duration, path, desc);
            return;
        };
        let max = i64::from(LIMITS.minutes_per_activity);
        if let Some(n) = fix::whole_number_safe(&v, 1, max) {
            self.propose_set(
                IssueCode::Duration,
                path,
                Applicability::Safe,
                messages::fixes::minutes_whole(n),
                n.into(),
            );
        } else if let Some(f) = v
            .as_f64()
            .filter(|f| f.is_finite() && f.round() >= 1.0 && f.round() <= f64::from(LIMITS.minutes_per_activity))
        {
            #[allow(clippy::cast_possible_truncation)] // the filter keeps it in 1..=max, an i64
            let n = f.round() as i64;
            self.propose_set(
                IssueCode::Duration,
                path,
                Applicability::Unsafe,
                messages::fixes::minutes_rounded(n),
                n.into(),
            );
        }
    }

    /// The fixes of a category (§9): case and white space are safe; a word of the category's
    /// contract description is unsafe.
    pub(super) fn propose_category(&mut self, value: Option<&Node<'_>>, path: &Loc<'_>) {
        if !self.collecting() {
            return;
        }
        let Some(Node::String(s)) = value else { return };
        if let Some(id) = fix::category_safe(s) {
            self.propose_set(
                IssueCode::Category,
                path,
                Applicability::Safe,
                messages::fixes::category_written(id),
                id.into(),
            );
        } else if let Some(id) = fix::category_synonym(s) {
            self.propose_set(
                IssueCode::Category,
                path,
                Applicability::Unsafe,
                messages::fixes::category_synonym(id, s),
                id.into(),
            );
        }
    }

    /// The fixes of a text field that must be non-blank and at most `limit` characters (§9):
    /// trimming surrounding white space is safe when that is enough; a missing or blank text is
    /// the model's to write.
    pub(super) fn propose_text(
        &mut self,
        code: IssueCode,
        value: Option<&Node<'_>>,
        path: &Loc<'_>,
        limit: Option<u32>,
    ) {
        if !self.collecting() {
            return;
        }
        match value {
            Some(Node::String(s)) if !is_blank(s) => {
                if let Some(t) = limit.and_then(|l| fix::trimmed_fits(s, l)) {
                    self.propose_set(code, path, Applicability::Safe, messages::fixes::trim_text(), t.into());
                }
            }
            _ => {
                self.propose_placeholder(code, path, messages::fixes::write_text(path.tail(), limit));
            }
        }
    }
}
