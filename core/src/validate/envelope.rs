//! §5.3 envelope: `format`, `contractVersion`, `kind`, then `name`, `tagline` and `description`
//! (`required`, then `length`), with their fixes (§9).

use super::{PlanFields, Validator};
use crate::contract::{FORMAT, LIMITS};
use crate::fix::Applicability;
use crate::json::{self, char_len, is_blank};
use crate::messages;
use crate::path::Loc;
use crate::tree::Node;
use crate::verdict::IssueCode;
use serde_json::Value;

impl<const COLLECT: bool> Validator<'_, COLLECT> {
    /// §5.3: the envelope's members, in the specified order.
    pub(super) fn envelope(&mut self, plan: &PlanFields<'_>, root: &Loc<'_>) {
        if !matches!(plan.format, Some(Node::String(f)) if *f == FORMAT) {
            self.error(IssueCode::Format, &root.key("format"), messages::format(plan.format));
            if self.collecting() {
                let desc = messages::fixes::format();
                self.propose_set(IssueCode::Format, &root.key("format"), Applicability::Safe, desc, FORMAT.into());
            }
        }
        let version_ok = matches!(plan.contract_version, Some(Node::Number(n))
            if json::numbers_equal(n, "1"));
        if !version_ok {
            self.error(
                IssueCode::ContractVersion,
                &root.key("contractVersion"),
                messages::contract_version(plan.contract_version),
            );
            if self.collecting() {
                let desc = messages::fixes::contract_version();
                self.propose_set(
                    IssueCode::ContractVersion,
                    &root.key("contractVersion"),
                    Applicability::Safe,
                    desc,
                    1.into(),
                );
            }
        }
        if !matches!(plan.kind, Some(Node::String(k)) if *k == "routine" || *k == "goal") {
            self.error(IssueCode::Kind, &root.key("kind"), messages::kind(plan.kind));
            if self.collecting() {
                self.propose_kind(plan, &root.key("kind"));
            }
        }
        for (field, value, limit) in [
            ("name", plan.name, LIMITS.name),
            ("tagline", plan.tagline, LIMITS.tagline),
            ("description", plan.description, LIMITS.description),
        ] {
            self.text_field(value, field, limit, root);
        }
    }

    /// A required, non-blank string of at most `limit` characters: `required`, then `length`.
    fn text_field(&mut self, value: Option<&Node<'_>>, field: &str, limit: u32, parent: &Loc<'_>) {
        let path = &parent.key(field);
        match value {
            Some(Node::String(s)) if !is_blank(s) => {
                let n = char_len(s);
                if n > limit as usize {
                    self.error(IssueCode::Length, path, messages::text_length(field, n, limit));
                    self.propose_text(IssueCode::Length, value, path, Some(limit));
                }
            }
            other => self.error(IssueCode::Required, path, messages::text_required(field, other, limit)),
        }
        if !matches!(value, Some(Node::String(s)) if !is_blank(s)) {
            self.propose_text(IssueCode::Required, value, path, Some(limit));
        }
    }

    /// The `kind` fix (§9): the request's kind, safe when the plan already has that body and not
    /// the other, unsafe otherwise; none when the request's kind is itself at fault.
    pub(super) fn propose_kind(&mut self, plan: &PlanFields<'_>, path: &Loc<'_>) {
        let Some(asked) = self.asked_kind else { return };
        let (has_routine, has_goal) = (plan.routine.is_some(), plan.goal.is_some());
        let only_asked_body = if asked == "routine" { has_routine && !has_goal } else { has_goal && !has_routine };
        let applicability = if only_asked_body { Applicability::Safe } else { Applicability::Unsafe };
        self.propose_set(
            IssueCode::Kind,
            path,
            applicability,
            messages::fixes::kind(asked),
            Value::String(asked.to_owned()),
        );
    }
}
