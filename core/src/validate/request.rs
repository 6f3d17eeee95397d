//! §5.4 request: the request read (D1, §7: `requestInvalid` first, in request order), then
//! `requestId`, the echo and the asked `kind`, with their fixes (§9).

use super::{PlanFields, Validator, get};
use crate::fix::{Applicability, Edit};
use crate::json::{deep_equal, deep_equal_opt, integer, is_emptyish};
use crate::messages;
use crate::path::Loc;
use crate::tree::{Members, Node};
use crate::verdict::IssueCode;

impl<'a, const COLLECT: bool> Validator<'a, COLLECT> {
    /// §5.4: the request's own faults first (D1, §7), then the plan against it.
    pub(super) fn request(&mut self, plan: &PlanFields<'_>, request: &'a Node<'a>, root: &Loc<'_>) {
        let req = self.read_request(request, root);
        self.answer(plan, request, req, root);
    }

    /// The request's own faults (D1, §7: `requestInvalid`, in request order) and its parts:
    /// the commitments and `days`. Returns the request's members (`None`: not an object).
    pub(super) fn read_request(&mut self, request: &'a Node<'a>, root: &Loc<'_>) -> Option<&'a Members<'a>> {
        let echo = root.key("request");
        let req: Option<&'a Members<'a>> = match request {
            Node::Object(m) => Some(m),
            other => {
                self.error(IssueCode::RequestInvalid, &echo, messages::request_not_object(other));
                None
            }
        };
        self.read_commitments(get(req, "commitments"), &echo);
        match get(req, "days") {
            None | Some(Node::Null) => {}
            Some(d) => match integer(d) {
                Some(n) if n >= 1 => self.request_days = Some((n, d)),
                _ => self.error(IssueCode::RequestInvalid, &echo.key("days"), messages::request_days(d)),
            },
        }
        req
    }

    /// The plan against the request read by [`Validator::read_request`] (`req`: its members):
    /// `requestId`, the echo, the asked `kind`.
    pub(super) fn answer(
        &mut self,
        plan: &PlanFields<'_>,
        request: &'a Node<'a>,
        req: Option<&'a Members<'a>>,
        root: &Loc<'_>,
    ) {
        let echo = root.key("request");

        if !deep_equal_opt(plan.request_id, get(req, "requestId")) {
            self.error(
                IssueCode::RequestId,
                &root.key("requestId"),
                messages::request_id(plan.request_id, get(req, "requestId")),
            );
            if self.collecting() {
                let path = root.key("requestId");
                if let Some(id) = get(req, "requestId") {
                    let desc = messages::fixes::copy_request_id(id);
                    self.propose_set(IssueCode::RequestId, &path, Applicability::Safe, desc, id.into_value());
                } else {
                    let desc = messages::fixes::remove_request_id();
                    self.propose(
                        IssueCode::RequestId,
                        &path,
                        Applicability::Safe,
                        desc,
                        Edit::Remove { pointer: path.pointer() },
                    );
                }
            }
        }
        let echo_equal = match plan.request {
            Some(v) => deep_equal(v, request),
            None => matches!(request, Node::Null),
        };
        if !echo_equal {
            self.error(
                IssueCode::Request,
                &echo,
                match plan.request {
                    None => messages::request_missing(),
                    Some(_) => messages::request_differs(),
                },
            );
            if self.collecting() {
                let desc = messages::fixes::copy_request();
                self.propose_set(IssueCode::Request, &echo, Applicability::Safe, desc, request.into_value());
            }
        }
        if let Some(kind) = plan.kind.filter(|k| !is_emptyish(k))
            && !deep_equal_opt(Some(kind), get(req, "kind"))
        {
            self.error(IssueCode::Kind, &root.key("kind"), messages::kind_not_asked(kind, get(req, "kind")));
            if self.collecting() {
                self.propose_kind(plan, &root.key("kind"));
            }
        }
    }
}
