//! The validator (validator.md §5–§7): one pass per check, issues in the specified order.

use crate::builder::{Tree, TreeBuilder};
use crate::contract::{FORMAT, LIMITS, is_category, weekday_index};
use crate::fix::{self, Applicability, Edit, Fix};
use crate::json::{
    self, JsonError, char_len, deep_equal, deep_equal_opt, integer, integer_in, is_blank, is_emptyish, parse_hhmm,
};
use crate::messages;
use crate::path::Loc;
use crate::tree::{self, Members, Node};
use crate::verdict::{Check, Issue, IssueCode, Verdict};
use serde_json::Value;

/// One argument of a validation, in whichever form the host holds it (validator.md §3, §7): the
/// complete input matrix of [`validate_input`].
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    /// JSON text. A plan's size is its length in UTF-8 bytes (D3).
    Text(&'a str),
    /// Bytes that should be UTF-8 JSON text; invalid UTF-8 is a `json` fault at its position (§5.1).
    Bytes(&'a [u8]),
    /// A parsed value. A `Value::String` *plan* is plan text, as in [`validate`]; an object plan is
    /// measured by its compact JSON and checked for depth and overflowing numbers (§7, D12).
    Value(&'a Value),
    /// A value a host built with a [`TreeBuilder`](crate::TreeBuilder), measured as it was built
    /// (its compact JSON, §7).
    Tree(&'a Tree<'a>),
}

/// Validates a plan against the request it answers (validator.md §5): the one entry behind every
/// other `validate*` function, for any form of either argument ([`Input`]). Each argument is read
/// once, into the core's tree; nothing becomes a `serde_json::Value` on the way.
///
/// Input: the plan and the request, each as text, bytes, a parsed value or a built tree. A plan
/// that is not JSON gets the `json` verdict, one that is not an object the `type` verdict; a
/// request that is not an object is `requestInvalid` (D1). Output: the [`Verdict`]. Never panics;
/// cost is linear in the size of both arguments.
///
/// # Errors
/// A [`JsonError`] when the *request*, given as text or bytes, is not strict JSON (D12): the
/// request is the caller's own data, so that is the caller's error, not a verdict on the plan
/// (bindings raise it with [`crate::Argument::not_json`]).
pub fn validate_input(plan: Input<'_>, request: Input<'_>) -> Result<Verdict, JsonError> {
    let hint = |i: &Input<'_>| match i {
        Input::Text(t) => t.len(),
        Input::Bytes(b) => b.len(),
        Input::Value(_) | Input::Tree(_) => 256,
    };
    let arena = tree::arena_for(hint(&plan) + hint(&request));
    let mut scratch = tree::Scratch::new();
    let request = match request {
        Input::Text(t) => tree::parse_with(t, &arena, &mut scratch)?,
        Input::Bytes(b) => tree::parse_with(json::utf8_text(b)?, &arena, &mut scratch)?,
        Input::Value(v) => Node::from_value(v, 1, &arena),
        Input::Tree(t) => t.root,
    };
    let text = |t, scratch: &mut _| text_verdict(t, &arena, scratch, &request);
    Ok(match plan {
        Input::Text(t) => text(t, &mut scratch),
        Input::Bytes(b) => match json::utf8_text(b) {
            Ok(t) => text(t, &mut scratch),
            Err(e) => Verdict::not_json(&e),
        },
        Input::Value(Value::String(t)) => text(t, &mut scratch),
        Input::Value(v @ Value::Object(_)) => {
            // One walk: checks, measures and builds the view together (§7, D12).
            let mut b = TreeBuilder::over(&arena);
            match b.import(v) {
                Ok(()) => match b.finish() {
                    Some(Tree { root: Node::Object(map), size }) => run(&map, size, &request),
                    _ => Verdict::not_json(&JsonError::too_deep()),
                },
                Err(e) => Verdict::not_json(&e),
            }
        }
        Input::Value(other) => not_an_object(&Node::from_value(other, 1, &arena)),
        Input::Tree(t) => match t.root {
            Node::Object(map) => run(&map, t.size, &request),
            other => not_an_object(&other),
        },
    })
}

/// The verdict on an object plan value and the fixes proposed for its issues (validator.md §9):
/// what `repair` reads each round. A plan that is not an object, or not JSON, gets no fixes.
pub(crate) fn verdict_and_fixes(plan: &Value, request: &Value) -> (Verdict, Vec<Fix>) {
    let arena = tree::arena_for(256);
    let request = Node::from_value(request, 1, &arena);
    let mut b = TreeBuilder::over(&arena);
    match b.import(plan).map(|()| b.finish()) {
        Ok(Some(Tree { root: Node::Object(map), size })) => run_collecting::<true>(&map, size, &request),
        Ok(Some(Tree { root, .. })) => (not_an_object(&root), Vec::new()),
        Ok(None) => (Verdict::not_json(&JsonError::too_deep()), Vec::new()),
        Err(e) => (Verdict::not_json(&e), Vec::new()),
    }
}

/// The verdict on plan text (§5.1: `json`, `type`, then the rules; size D3).
fn text_verdict<'a>(
    text: &'a str,
    arena: &'a bumpalo::Bump,
    scratch: &mut tree::Scratch<'a>,
    request: &Node<'_>,
) -> Verdict {
    match tree::parse_with(text, arena, scratch) {
        Ok(Node::Object(map)) => run(&map, text.len(), request),
        Ok(other) => not_an_object(&other),
        Err(e) => Verdict::not_json(&e),
    }
}

/// Validates a plan against the request it answers (validator.md §5): [`validate_input`] with
/// both as parsed values.
///
/// Input: `plan` is a JSON object, or a `Value::String` holding JSON text (then exactly as
/// [`validate_text`]); `request` is the request as given (an object; anything else is reported
/// as `requestInvalid` and read as `{}`, D1). Output: the [`Verdict`]. Never panics; cost is linear
/// in the size of both values.
///
/// An object plan is measured like text: more than [`crate::MAX_DEPTH`] levels of nesting, or a
/// number overflowing to infinity, is a `json` error; its size is that of its compact JSON (§7).
#[must_use]
pub fn validate(plan: &Value, request: &Value) -> Verdict {
    validate_input(Input::Value(plan), Input::Value(request)).unwrap_or_else(|e| Verdict::not_json(&e))
}

/// Validates plan text against the request it answers (validator.md §5): the hot path. The text
/// is parsed once, strictly (D12); its size is its UTF-8 length in bytes (D3).
///
/// Input: the plan's JSON text; the request as in [`validate`]. Output: the [`Verdict`]: a `json`
/// error at `$` (with line and column in characters) for text that is not JSON, a `type` error
/// at `$` for JSON that is not an object, else all eight checks.
#[must_use]
pub fn validate_text(plan: &str, request: &Value) -> Verdict {
    validate_input(Input::Text(plan), Input::Value(request)).unwrap_or_else(|e| Verdict::not_json(&e))
}

/// Validates plan text against request text (validator.md §5), both read by the core's strict
/// parser (D12): [`validate_input`] with two texts.
///
/// # Errors
/// A [`JsonError`] (reason, line, column) when the *request* text is not strict JSON.
pub fn validate_text_pair(plan: &str, request: &str) -> Result<Verdict, JsonError> {
    validate_input(Input::Text(plan), Input::Text(request))
}

/// Validates a plan that a host received as a parsed JSON *value* but still holds as the JSON text
/// of that value: for example the `plan` and `request` members of an MCP `tools/call`, cut out of
/// the message text (validator.md §5, §7). The verdict is exactly [`validate`] on the parsed values:
/// an object plan's size is the size of its compact JSON, not of this text; a duplicate name keeps
/// its first position and its last value. The texts go straight into the core's tree (one pass
/// each, no `serde_json::Value`).
///
/// Input: the JSON text of the plan value and of the request value (any JSON: a string plan is
/// plan text, as in [`validate`]; any other plan that is not an object gets the `type` error at
/// `$`; a request that is not an object is `requestInvalid`).
/// Output: the [`Verdict`].
///
/// # Errors
/// A [`JsonError`] when either text is not strict JSON (D12: for example a lone surrogate escape,
/// a number overflowing to infinity, nesting deeper than [`crate::MAX_DEPTH`]). The caller then
/// parses the value with its own reader and calls [`validate`], which judges such values.
pub fn validate_value_text(plan: &str, request: &str) -> Result<Verdict, JsonError> {
    let arena = tree::arena_for(plan.len() + request.len());
    let mut scratch = tree::Scratch::new();
    let request = tree::parse_with(request, &arena, &mut scratch)?;
    Ok(match tree::parse_with(plan, &arena, &mut scratch)? {
        node @ Node::Object(map) => run(&map, json::size_of(&node), &request),
        // A string value is plan text, as in `validate`.
        Node::String(text) => match tree::parse_with(text, &arena, &mut scratch) {
            Ok(Node::Object(map)) => run(&map, text.len(), &request),
            Ok(other) => not_an_object(&other),
            Err(e) => Verdict::not_json(&e),
        },
        other => not_an_object(&other),
    })
}

/// Validates plan text given as bytes: invalid UTF-8 is a `json` error at `$` (validator.md
/// §5.1); otherwise exactly [`validate_text`].
#[must_use]
pub fn validate_bytes(plan: &[u8], request: &Value) -> Verdict {
    validate_input(Input::Bytes(plan), Input::Value(request)).unwrap_or_else(|e| Verdict::not_json(&e))
}

impl Verdict {
    /// The verdict for a plan that cannot be read as JSON (validator.md §5.1): one `json` error at
    /// `$` whose message gives `error`, and `checks` `["json"]`. Bindings use it for host values
    /// that JSON cannot hold (a lone surrogate in a string, nesting over [`crate::MAX_DEPTH`]).
    #[must_use]
    pub fn not_json(error: &JsonError) -> Verdict {
        Verdict {
            valid: false,
            errors: vec![Issue::new(IssueCode::Json, "$", messages::not_json(error))],
            warnings: Vec::new(),
            checks: vec![Check::Json],
        }
    }
}

fn not_an_object(v: &Node<'_>) -> Verdict {
    Verdict {
        valid: false,
        errors: vec![Issue::new(IssueCode::Type, "$", messages::plan_not_object(v))],
        warnings: Vec::new(),
        checks: vec![Check::Json],
    }
}

/// Where a list of blocks sits in the week (validator.md D4, D5, D9).
#[derive(Clone, Copy)]
enum Day {
    /// `routine.blocks`: every day.
    Every,
    /// `routine.weekdays.<day>`: 0 = mon … 6 = sun.
    Weekday(usize),
}

/// One stretch of a valid commitment (validator.md D4): `[start, end)` minutes on the days of
/// `days` (bit 0 = mon … bit 6 = sun). A night shift has an evening and a morning part.
struct Part<'a> {
    label: Option<&'a Node<'a>>,
    start: i64,
    end: i64,
    days: u8,
    /// The whole commitment, for messages.
    shown: messages::CommitmentTimes,
}

/// A block with a valid start and an integer duration (clamped like every integer), for the
/// commitment pass.
struct Timed<'v> {
    index: usize,
    start: i64,
    minutes: i64,
    activity: Option<&'v Node<'v>>,
}

/// The plan's top-level members the rules read, found in one pass over the object.
struct PlanFields<'v> {
    format: Option<&'v Node<'v>>,
    contract_version: Option<&'v Node<'v>>,
    kind: Option<&'v Node<'v>>,
    name: Option<&'v Node<'v>>,
    tagline: Option<&'v Node<'v>>,
    description: Option<&'v Node<'v>>,
    request_id: Option<&'v Node<'v>>,
    request: Option<&'v Node<'v>>,
    routine: Option<&'v Node<'v>>,
    goal: Option<&'v Node<'v>>,
}

/// The members `names` of `m`, in one scan of its entries (small objects: cheaper than hashing
/// each name; linear in the object's size either way).
fn pick<'v, const N: usize>(m: &'v Members<'v>, names: [&str; N]) -> [Option<&'v Node<'v>>; N] {
    let mut out = [None; N];
    for (k, v) in m.iter() {
        if let Some(i) = names.iter().position(|n| *n == k) {
            out[i] = Some(v);
        }
    }
    out
}

/// The rules' state. `COLLECT`: whether fixes are proposed (validator.md §9); a constant, so a
/// plain validation is compiled without any proposal code.
struct Validator<'a, const COLLECT: bool> {
    errors: Vec<Issue>,
    warnings: Vec<Issue>,
    /// Parts of every valid commitment, in request order (evening part before morning part).
    parts: Vec<Part<'a>>,
    /// The request's `days` when it is a valid integer ≥ 1 (clamped like every integer).
    request_days: Option<(i64, &'a Node<'a>)>,
    /// The fixes proposed next to each issue (validator.md §9), when collecting; `None` for a
    /// plain validation, which then spends nothing on them.
    fixes: Option<Vec<Fix>>,
    /// The request's `kind` when it is `routine` or `goal` (for the `kind` fix).
    asked_kind: Option<&'static str>,
}

fn run(plan: &Members<'_>, size: usize, request: &Node<'_>) -> Verdict {
    run_collecting::<false>(plan, size, request).0
}

/// The verdict and, with `COLLECT`, the fixes proposed for its issues (validator.md §9).
pub(crate) fn run_collecting<const COLLECT: bool>(
    plan: &Members<'_>,
    size: usize,
    request: &Node<'_>,
) -> (Verdict, Vec<Fix>) {
    let [format, contract_version, kind, name, tagline, description, request_id, echo, routine, goal] = pick(
        plan,
        [
            "format",
            "contractVersion",
            "kind",
            "name",
            "tagline",
            "description",
            "requestId",
            "request",
            "routine",
            "goal",
        ],
    );
    let plan = &PlanFields {
        format,
        contract_version,
        kind,
        name,
        tagline,
        description,
        request_id,
        request: echo,
        routine,
        goal,
    };
    let asked_kind = match request.get("kind") {
        Some(Node::String("routine")) => Some("routine"),
        Some(Node::String("goal")) => Some("goal"),
        _ => None,
    };
    let mut v = Validator::<COLLECT> {
        errors: Vec::new(),
        warnings: Vec::new(),
        parts: Vec::new(),
        request_days: None,
        fixes: COLLECT.then(Vec::new),
        asked_kind,
    };
    let root = Loc::Root;

    // §5.2 size (D3)
    if size > LIMITS.payload_bytes as usize {
        v.error(IssueCode::Size, &root, messages::size(size, LIMITS.payload_bytes));
    }

    v.envelope(plan, &root);
    v.request(plan, request, &root);

    // §5.5–5.8: only a plan that says it is a routine or a goal is read further.
    match plan.kind {
        Some(Node::String(k)) if *k == "routine" => v.routine(plan, &root),
        Some(Node::String(k)) if *k == "goal" => v.goal(plan, &root),
        _ => {}
    }

    let fixes = v.fixes.unwrap_or_default();
    (Verdict { valid: v.errors.is_empty(), errors: v.errors, warnings: v.warnings, checks: Check::ALL.to_vec() }, fixes)
}

impl<'a, const COLLECT: bool> Validator<'a, COLLECT> {
    fn error(&mut self, code: IssueCode, path: &Loc<'_>, message: String) {
        self.errors.push(Issue::new(code, path.render(), message));
    }

    fn warning(&mut self, code: IssueCode, path: &Loc<'_>, message: String) {
        self.warnings.push(Issue::new(code, path.render(), message));
    }

    /// Whether fixes are being collected: proposals are computed only then.
    fn collecting(&self) -> bool {
        COLLECT
    }

    /// Proposes a fix for the issue `code` at `path` (validator.md §9).
    fn propose(
        &mut self,
        code: IssueCode,
        path: &Loc<'_>,
        applicability: Applicability,
        description: String,
        edit: Edit,
    ) {
        if COLLECT && let Some(fixes) = self.fixes.as_mut() {
            fixes.push(Fix { code, path: path.render(), applicability, description, edit });
        }
    }

    /// Proposes setting the value at `path` to `value`.
    fn propose_set(
        &mut self,
        code: IssueCode,
        path: &Loc<'_>,
        applicability: Applicability,
        description: String,
        value: Value,
    ) {
        let edit = Edit::Set { pointer: path.pointer(), value };
        self.propose(code, path, applicability, description, edit);
    }

    /// Proposes a placeholder: the model or the person must write the value.
    fn propose_placeholder(&mut self, code: IssueCode, path: &Loc<'_>, description: String) {
        self.propose(code, path, Applicability::Placeholder, description, Edit::None);
    }

    /// The `kind` fix (§9): the request's kind, safe when the plan already has that body and not
    /// the other, unsafe otherwise; none when the request's kind is itself at fault.
    fn propose_kind(&mut self, plan: &PlanFields<'_>, path: &Loc<'_>) {
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

    /// The fixes of a whole number of minutes in 1..=720 (§9): an integral literal or a digit
    /// string is safe; a fraction rounded to a whole number is unsafe.
    fn propose_minutes(&mut self, value: Option<&Node<'_>>, path: &Loc<'_>) {
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
        } else if let Some(f) = v.as_f64().filter(|f| f.is_finite() && f.round() >= 1.0 && f.round() <= max as f64) {
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
    fn propose_category(&mut self, value: Option<&Node<'_>>, path: &Loc<'_>) {
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
    fn propose_text(&mut self, code: IssueCode, value: Option<&Node<'_>>, path: &Loc<'_>, limit: Option<u32>) {
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

    // ---------------------------------------------------------------------------------------
    // §5.3 envelope

    fn envelope(&mut self, plan: &PlanFields<'_>, root: &Loc<'_>) {
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

    // ---------------------------------------------------------------------------------------
    // §5.4 request, D1, §7

    fn request(&mut self, plan: &PlanFields<'_>, request: &'a Node<'a>, root: &Loc<'_>) {
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

        if !deep_equal_opt(plan.request_id, get(req, "requestId")) {
            self.error(
                IssueCode::RequestId,
                &root.key("requestId"),
                messages::request_id(plan.request_id, get(req, "requestId")),
            );
            if self.collecting() {
                let path = root.key("requestId");
                match get(req, "requestId") {
                    Some(id) => {
                        let desc = messages::fixes::copy_request_id(id);
                        self.propose_set(IssueCode::RequestId, &path, Applicability::Safe, desc, id.into_value());
                    }
                    None => {
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

    /// Reads the request's commitments into parts, reporting malformed ones (D1, D4, D9, §7).
    fn read_commitments(&mut self, commitments: Option<&'a Node<'a>>, echo: &Loc<'_>) {
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
                if e >= s {
                    self.parts.push(Part { label, start: s, end: e, days, shown });
                } else {
                    // D4: a night shift covers its days from start to 24:00 and the following
                    // days from 00:00 to end (sun is followed by mon).
                    let next = ((days << 1) | (days >> 6)) & 0x7f;
                    self.parts.push(Part { label, start: s, end: 1440, days, shown });
                    self.parts.push(Part { label, start: 0, end: e, days: next, shown });
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // §5.5–5.7 routine

    fn routine(&mut self, plan: &PlanFields<'a>, root: &Loc<'_>) {
        let path = root.key("routine");
        let routine = self.container(plan.routine, &path);
        let mut names: Vec<&str> = Vec::with_capacity(16);

        let blocks = get(routine, "blocks");
        self.day(blocks, &path.key("blocks"), Day::Every);
        collect_names(blocks, "activity", &mut names);

        let wpath = path.key("weekdays");
        let weekdays = self.container(get(routine, "weekdays"), &wpath);
        for (key, list) in weekdays.into_iter().flat_map(Members::iter) {
            let dpath = wpath.key(key);
            match weekday_index(key) {
                Some(d) => {
                    self.day(Some(list), &dpath, Day::Weekday(d));
                    collect_names(Some(list), "activity", &mut names);
                }
                None => {
                    self.error(IssueCode::Weekday, &dpath, messages::weekday(key));
                    if self.collecting() {
                        let taken = |d: &str| weekdays.is_some_and(|w| w.get(d).is_some());
                        let (to, applicability) = match (fix::weekday_safe(key), fix::weekday_name(key)) {
                            (Some(d), _) => (Some(d), Applicability::Safe),
                            (None, Some(d)) => (Some(d), Applicability::Unsafe),
                            _ => (None, Applicability::Unsafe),
                        };
                        if let Some(to) = to.filter(|d| !taken(d)) {
                            let edit =
                                Edit::Rename { parent: wpath.pointer(), from: key.to_owned(), to: to.to_owned() };
                            let desc = messages::fixes::weekday(to);
                            self.propose(IssueCode::Weekday, &dpath, applicability, desc, edit);
                        }
                    }
                }
            }
        }
        self.distinct(names, &path, "blocks");
    }

    /// A container read where D1 allows a wrong type: an object is itself, an empty-ish value is
    /// `{}`, anything else is a `type` error and then `{}`.
    fn container(&mut self, v: Option<&'a Node<'a>>, path: &Loc<'_>) -> Option<&'a Members<'a>> {
        match v {
            Some(Node::Object(m)) => Some(m),
            Some(v) if !is_emptyish(v) => {
                self.error(IssueCode::Type, path, messages::not_an_object(path.tail(), v));
                None
            }
            _ => None,
        }
    }

    /// D6: more than `distinctActivities` distinct activity names is `limit` at `path`.
    fn distinct(&mut self, mut names: Vec<&str>, path: &Loc<'_>, what: &str) {
        names.sort_unstable();
        names.dedup();
        if names.len() > LIMITS.distinct_activities as usize {
            self.error(IssueCode::Limit, path, messages::distinct_limit(what, names.len(), LIMITS.distinct_activities));
        }
    }

    /// One day's list of blocks (§5.5–5.7, D5, D8).
    fn day(&mut self, list: Option<&Node<'_>>, path: &Loc<'_>, day: Day) {
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
        // (start, activity) of the first block that passed the time and duration checks (D8).
        let mut first: Option<(i64, Option<&Node<'_>>)> = None;
        let mut prev_end: Option<i64> = None;
        let mut timed: Vec<Timed<'_>> = Vec::with_capacity(blocks.len());
        // The first `overlap` or `midnight` issue of this list, for the list's order fix (§9).
        let mut order_issue: Option<(IssueCode, usize)> = None;
        for (i, block) in blocks.iter().enumerate() {
            let bpath = path.index(i);
            let Node::Object(b) = block else {
                self.error(IssueCode::Type, &bpath, messages::block_not_object(i, block));
                continue;
            };
            let [f_start, f_minutes, f_category, f_activity, f_essential] =
                pick(b, ["start", "durationMin", "category", "activity", "essential"]);
            let start = f_start.and_then(|s| parse_hhmm(s, false)).map(i64::from);
            if let (Some(s), Some(m)) = (start, f_minutes.and_then(integer)) {
                timed.push(Timed { index: i, start: s, minutes: m, activity: f_activity });
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
                continue;
            };
            let Some(minutes) = f_minutes.and_then(|d| integer_in(d, 1, i64::from(LIMITS.minutes_per_activity))) else {
                let message = messages::duration_min(f_minutes, LIMITS.minutes_per_activity);
                self.error(IssueCode::Duration, &bpath.key("durationMin"), message);
                self.propose_minutes(f_minutes, &bpath.key("durationMin"));
                continue;
            };
            self.category(f_category, &bpath, "category");
            let activity = f_activity;
            match activity {
                Some(Node::String(s)) if !is_blank(s) && char_len(s) <= LIMITS.activity as usize => {}
                other => {
                    self.error(IssueCode::Activity, &bpath.key("activity"), messages::activity(other, LIMITS.activity))
                }
            }
            if !matches!(activity, Some(Node::String(s)) if !is_blank(s) && char_len(s) <= LIMITS.activity as usize) {
                self.propose_text(IssueCode::Activity, activity, &bpath.key("activity"), Some(LIMITS.activity));
            }
            if !matches!(f_essential, Some(Node::Bool(_))) {
                self.error(IssueCode::Essential, &bpath.key("essential"), messages::essential(f_essential));
                if self.collecting() {
                    let epath = bpath.key("essential");
                    let v = f_essential.map(|v| v.into_value());
                    if let Some(b) = v.as_ref().and_then(fix::boolean_safe) {
                        let desc = messages::fixes::essential_written(b);
                        self.propose_set(IssueCode::Essential, &epath, Applicability::Safe, desc, b.into());
                    } else if let Some(b) = v.as_ref().and_then(fix::boolean_guess) {
                        let desc = messages::fixes::essential_guess(b, f_essential);
                        self.propose_set(IssueCode::Essential, &epath, Applicability::Unsafe, desc, b.into());
                    } else {
                        let desc = messages::fixes::essential_placeholder();
                        self.propose_placeholder(IssueCode::Essential, &epath, desc);
                    }
                }
            }
            let end = start + minutes;
            if let Some(pe) = prev_end
                && start < pe
            {
                order_issue.get_or_insert((IssueCode::Overlap, i));
                self.error(
                    IssueCode::Overlap,
                    &bpath,
                    messages::overlap(activity, minutes_fact(start), minutes_fact(pe)),
                );
            }
            if first.is_none() {
                first = Some((start, activity));
            }
            if end > 1440 {
                let is_rest = matches!(f_category, Some(Node::String(c)) if *c == "rest");
                if i == last && is_rest {
                    self.warning(IssueCode::Overnight, &bpath, messages::overnight(activity, minutes_fact(end - 1440)));
                    // D8: the day repeats, so the part after midnight must end before the day's
                    // first block starts.
                    if let Some((first_start, first_activity)) = first
                        && end - 1440 > first_start
                    {
                        order_issue.get_or_insert((IssueCode::Overlap, i));
                        let message = messages::overnight_overlap(
                            activity,
                            minutes_fact(end - 1440),
                            first_activity,
                            minutes_fact(first_start),
                        );
                        self.error(IssueCode::Overlap, &bpath, message);
                    }
                } else {
                    order_issue.get_or_insert((IssueCode::Midnight, i));
                    let message = messages::midnight(
                        activity,
                        minutes_fact(start),
                        minutes_fact(minutes),
                        minutes_fact(end - 1440),
                    );
                    self.error(IssueCode::Midnight, &bpath, message);
                }
            }
            prev_end = Some(end);
        }
        if self.collecting()
            && let Some((code, i)) = order_issue
            && let Some((sorted, removed)) = fix::clean_order(blocks)
        {
            let desc = messages::fixes::order(removed);
            let list: Vec<Value> = sorted.iter().map(|b| b.into_value()).collect();
            let edit = Edit::Set { pointer: path.pointer(), value: Value::Array(list) };
            self.propose(code, &path.index(i), Applicability::Safe, desc, edit);
        }
        self.commitment_pass(&timed, path, day);
    }

    /// §5.7, D4, D5, D9: every block with a valid start and an integer duration (`timed`) against
    /// the commitment parts on its day, then (D5) its minutes after midnight against the next day's.
    fn commitment_pass(&mut self, timed: &[Timed<'_>], path: &Loc<'_>, day: Day) {
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

    /// `category` at `parent.<field>` unless `v` is one of the nine (the path is built only for an issue).
    fn category(&mut self, v: Option<&Node<'_>>, parent: &Loc<'_>, field: &str) {
        if !matches!(v, Some(Node::String(c)) if is_category(c)) {
            let path = &parent.key(field);
            self.error(IssueCode::Category, path, messages::category(v));
            self.propose_category(v, path);
        }
    }

    // ---------------------------------------------------------------------------------------
    // §5.8 goal feasibility, D6

    fn goal(&mut self, plan: &PlanFields<'a>, root: &Loc<'_>) {
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
            && n != days.len() as i64
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
                self.category(a.get("category"), &path, "category");
                match a.get("minutes").and_then(|m| integer_in(m, 1, i64::from(LIMITS.minutes_per_activity))) {
                    Some(m) => total += m,
                    None => {
                        let message = messages::minutes(a.get("minutes"), LIMITS.minutes_per_activity);
                        self.error(IssueCode::Duration, &path.key("minutes"), message);
                        self.propose_minutes(a.get("minutes"), &path.key("minutes"));
                    }
                }
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
            }
            if total > i64::from(LIMITS.minutes_per_day) {
                let message = messages::feasibility(total.unsigned_abs(), LIMITS.minutes_per_day);
                self.error(IssueCode::Feasibility, &path, message);
            }
        }
        self.distinct(names, &gpath, "goal days");
    }
}

/// Every string `field` of every object in `list` (D6).
fn collect_names<'v>(list: Option<&'v Node<'v>>, field: &str, names: &mut Vec<&'v str>) {
    if let Some(Node::Array(blocks)) = list {
        names.extend(blocks.iter().filter_map(|b| b.get(field)?.as_str()));
    }
}

/// `m[key]`, where a missing object reads as `{}`.
fn get<'v>(m: Option<&'v Members<'v>>, key: &str) -> Option<&'v Node<'v>> {
    m.and_then(|m| m.get(key))
}

/// A time or a duration in minutes as a message states it. The rules pass only values they have
/// bounded (a time of day, a valid duration, or an end before 24:00 plus 720 minutes), so the
/// saturation at `u32::MAX` for a value out of range never shows.
fn minutes_fact(minutes: i64) -> u32 {
    u32::try_from(minutes).unwrap_or(u32::MAX)
}
