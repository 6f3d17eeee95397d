//! The validator (validator.md §5–§7): one pass per check, issues in the specified order.
//!
//! One file per section of the specification, each rule with the fixes it proposes (§9) beside
//! it, and every message in [`crate::messages`]:
//!
//! | file | checks |
//! |---|---|
//! | `mod.rs` | the entries, §5.1 `json` (a plan that is not an object), §5.2 `size`, the order of the passes |
//! | `envelope.rs` | §5.3 envelope: `format`, `contractVersion`, `kind`, `name`, `tagline`, `description` |
//! | `request.rs` | §5.4 request: `requestId`, the echo, the asked `kind`; D1 and §7 for a malformed request |
//! | `commitments.rs` | §5.7 commitments: the request's commitments read into parts (D1, D4, D9), each day's commitment pass (D5) |
//! | `routine.rs` | §5.5–5.6 routine: `routine.blocks`, `routine.weekdays`, each day's blocks (D8, D10, D11) |
//! | `goal.rs` | §5.8 goal feasibility (D6) |
//! | `fields.rs` | what several sections share: containers (D1), `category`, whole minutes, texts, distinct names (D6) |

mod commitments;
mod envelope;
mod fields;
mod goal;
mod request;
mod routine;

pub(crate) use commitments::OwnedPart;
use commitments::Part;
pub(crate) use commitments::stretches;

use crate::builder::{Tree, TreeBuilder};
use crate::contract::LIMITS;
use crate::fix::{Applicability, Edit, Fix};
use crate::json::{self, JsonError};
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
    /// The JSON text of a parsed *value*, which the host holds as text: for example the `plan` and
    /// `request` members of an MCP `tools/call`, cut out of the message (§5, §7). Judged exactly as
    /// [`Input::Value`] of the value it parses to: a string plan is plan text, an object plan is
    /// measured by its compact JSON (not by this text), a duplicate name keeps its first position
    /// and its last value. Read straight into the core's tree, strictly (D12): text that is not
    /// strict JSON is the caller's [`JsonError`] (see [`validate_input`]), never a verdict.
    ValueText(&'a str),
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
/// (bindings raise it with [`crate::Argument::not_json`]). Likewise when either argument is an
/// [`Input::ValueText`] that is not strict JSON (a lone surrogate escape, a number overflowing to
/// infinity, nesting deeper than [`crate::MAX_DEPTH`]): the caller then reads the value with its
/// own reader and passes it as an [`Input::Value`], which judges such values. The request is read
/// first, so its error is the one returned when both arguments are at fault.
pub fn validate_input(plan: Input<'_>, request: Input<'_>) -> Result<Verdict, JsonError> {
    let hint = |i: &Input<'_>| match i {
        Input::Text(t) | Input::ValueText(t) => t.len(),
        Input::Bytes(b) => b.len(),
        Input::Value(_) | Input::Tree(_) => 256,
    };
    let arena = tree::arena_for(hint(&plan) + hint(&request));
    let mut scratch = tree::Scratch::new();
    let request = match request {
        Input::Text(t) | Input::ValueText(t) => tree::parse_with(t, &arena, &mut scratch)?,
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
                    Some(t @ Tree { root: Node::Object(map), .. }) => run(&map, t.size_over(PAYLOAD_LIMIT), &request),
                    _ => Verdict::not_json(&JsonError::too_deep()),
                },
                Err(e) => Verdict::not_json(&e),
            }
        }
        Input::Value(other) => not_an_object(&Node::from_value(other, 1, &arena)),
        Input::Tree(t) => match t.root {
            Node::Object(map) => run(&map, t.size_over(PAYLOAD_LIMIT), &request),
            other => not_an_object(&other),
        },
        Input::ValueText(t) => match tree::parse_with(t, &arena, &mut scratch)? {
            // The compact JSON of a parsed value is never longer than its text (whitespace goes, every
            // escape it writes was written at least as long), so only text over the limit is measured.
            node @ Node::Object(map) => {
                run(&map, if t.len() > PAYLOAD_LIMIT { over_limit(json::size_of(&node)) } else { None }, &request)
            }
            // A string value is plan text, as in `Input::Value`.
            Node::String(text) => text_verdict(text, &arena, &mut scratch, &request),
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
        Ok(Some(t @ Tree { root: Node::Object(map), .. })) => {
            run_collecting::<true>(&map, t.size_over(PAYLOAD_LIMIT), &request)
        }
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
    // Only the members the rules read are built (`PLAN_MEMBERS`), and a day list far over the
    // limit is checked a block at a time as it is read (memory, issue 27 item 7; not with the
    // `lean` feature, which reads such a list whole: the same verdict).
    #[cfg(not(feature = "lean"))]
    let (mut lists, days) = (LongLists::new(request), |l: LongLists<'_>| l.days);
    #[cfg(not(feature = "lean"))]
    let parsed = tree::parse_plan(text, arena, scratch, &PLAN_MEMBERS, Some(&mut lists));
    #[cfg(feature = "lean")]
    let (lists, days) = ((), |(): ()| None);
    #[cfg(feature = "lean")]
    let parsed = tree::parse_plan(text, arena, scratch, &PLAN_MEMBERS, None);
    match parsed {
        Ok(Node::Object(map)) => run_with(&map, over_limit(text.len()), request, days(lists)),
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
/// of that value (validator.md §5, §7): [`validate_input`] with both as [`Input::ValueText`]. The
/// verdict is exactly [`validate`] on the parsed values.
///
/// Input: the JSON text of the plan value and of the request value (any JSON: a string plan is
/// plan text; any other plan that is not an object gets the `type` error at `$`; a request that
/// is not an object is `requestInvalid`). Output: the [`Verdict`].
///
/// # Errors
/// A [`JsonError`] when either text is not strict JSON (D12), as [`Input::ValueText`] says.
pub fn validate_value_text(plan: &str, request: &str) -> Result<Verdict, JsonError> {
    validate_input(Input::ValueText(plan), Input::ValueText(request))
}

/// Validates plan text given as bytes: invalid UTF-8 is a `json` error at `$` (validator.md
/// §5.1); otherwise exactly [`validate_text`].
#[must_use]
pub fn validate_bytes(plan: &[u8], request: &Value) -> Verdict {
    validate_input(Input::Bytes(plan), Input::Value(request)).unwrap_or_else(|e| Verdict::not_json(&e))
}

fn not_an_object(v: &Node<'_>) -> Verdict {
    Verdict {
        valid: false,
        errors: vec![Issue::new(IssueCode::Type, "$", messages::plan_not_object(v))],
        warnings: Vec::new(),
        checks: vec![Check::Json],
    }
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

/// The plan's top-level members the rules read (validator.md §3, §5), in [`PlanFields`] order:
/// the only ones [`run`] looks at, so plan text keeps no others (`tree::parse_plan`).
pub(crate) const PLAN_MEMBERS: [&str; 10] =
    ["format", "contractVersion", "kind", "name", "tagline", "description", "requestId", "request", "routine", "goal"];

/// The members `names` of `m`, in one scan of its entries (small objects: cheaper than hashing
/// each name; linear in the object's size either way).
fn pick<'v, const N: usize>(m: &'v Members<'v>, names: [&str; N]) -> [Option<&'v Node<'v>>; N] {
    let mut out = [None; N];
    for (k, v) in m.iter() {
        if let Some(i) = names.iter().position(|n| tree::same_str(n, k)) {
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
    parts: std::borrow::Cow<'a, [Part<'a>]>,
    /// The request's `days` when it is a valid integer ≥ 1 (clamped like every integer).
    request_days: Option<(i64, &'a Node<'a>)>,
    /// The fixes proposed next to each issue (validator.md §9), when collecting; `None` for a
    /// plain validation, which then spends nothing on them.
    fixes: Option<Vec<Fix>>,
    /// The request's `kind` when it is `routine` or `goal` (for the `kind` fix).
    asked_kind: Option<&'static str>,
    /// The issues of day lists a [`crate::PlanStream`] has worked out already (validator.md §10).
    days: Option<Box<Days>>,
}

/// What a [`crate::PlanStream`] worked out for one day's list of blocks as they closed
/// (validator.md §10): the issues the list's blocks and its commitment pass give, each in its
/// order ([`block_issues`] of each block, in turn).
#[derive(Debug, Clone, Default)]
pub(crate) struct DayIssues {
    /// How many blocks it covers.
    pub(crate) blocks: usize,
    /// The blocks' own errors, the commitment pass's, and the warnings.
    pub(crate) own: Vec<Issue>,
    pub(crate) commitment: Vec<Issue>,
    pub(crate) warnings: Vec<Issue>,
    /// The distinct activity names of its blocks (D6), when the list is not in the tree (`None`:
    /// the rules read them from the tree).
    pub(crate) names: Option<Vec<Box<str>>>,
}

impl DayIssues {
    /// Adds the issues of the list's next block.
    pub(crate) fn add(&mut self, b: &BlockIssues) {
        self.blocks += 1;
        self.own.extend_from_slice(&b.own);
        self.commitment.extend_from_slice(&b.commitment);
        self.warnings.extend_from_slice(&b.warnings);
    }
}

/// The validator's side of [`tree::DayLists`]: each block of a day list far over the limit checked
/// as `tree::parse_plan` reads it, with the same rules as every block ([`block_issues`]), keeping
/// only its issues and its activity name (validator.md §5.5–5.7, D6).
#[cfg(not(feature = "lean"))]
struct LongLists<'r> {
    request: &'r Node<'r>,
    /// The request's commitment parts, read at the first long list.
    parts: Option<Vec<OwnedPart>>,
    /// The lists read so far (`None` until a list is long).
    days: Option<Box<Days>>,
    /// The list being read, so far.
    day: StreamDay,
}

#[cfg(not(feature = "lean"))]
impl<'r> LongLists<'r> {
    /// Nothing read yet: a plan with no long list costs nothing here.
    fn new(request: &'r Node<'r>) -> LongLists<'r> {
        LongLists { request, parts: None, days: None, day: StreamDay::default() }
    }
}

#[cfg(not(feature = "lean"))]
impl tree::DayLists for LongLists<'_> {
    fn forget(&mut self, which: std::ops::Range<usize>) {
        if let Some(days) = self.days.as_mut() {
            for w in which {
                days[w] = None;
            }
        }
    }

    fn element<'t>(&mut self, which: usize, index: usize, node: &'t Node<'t>, arena: &'t bumpalo::Bump, last: bool) {
        let days = self.days.get_or_insert_with(Box::default);
        if index == 0 {
            self.day = StreamDay::default();
            days[which] = Some(DayIssues { names: Some(Vec::new()), ..DayIssues::default() });
        }
        let parts = self.parts.get_or_insert_with(|| parts_of(self.request));
        let weekday = crate::contract::WEEKDAYS.get(which).copied();
        let (issues, _) = block_issues(arena, parts, weekday, index, node, Some(last), &mut self.day);
        if let Some(known) = &mut days[which] {
            known.add(&issues);
            // Kept sorted and distinct (binary search): D6 needs only the distinct names.
            if let (Some(names), Some(name)) = (&mut known.names, node.get("activity").and_then(Node::as_str))
                && let Err(at) = names.binary_search_by(|n| (**n).cmp(name))
            {
                names.insert(at, name.into());
            }
        }
    }
}

/// [`DayIssues`] for each list: `routine.weekdays.mon` … `sun` (0–6), then `routine.blocks` (7).
pub(crate) type Days = [Option<DayIssues>; 8];

/// The issues of one block of a day's list (validator.md §5.5–5.7), by kind: its own errors, its
/// commitment errors and its warnings.
#[derive(Debug, Clone, Default)]
pub(crate) struct BlockIssues {
    pub(crate) own: Vec<Issue>,
    pub(crate) commitment: Vec<Issue>,
    pub(crate) warnings: Vec<Issue>,
}

impl BlockIssues {
    /// All of them, in the order a stream settles them (errors, then warnings).
    pub(crate) fn all(&self) -> impl Iterator<Item = &Issue> {
        self.own.iter().chain(&self.commitment).chain(&self.warnings)
    }
}

/// The §5.2 limit in bytes (D3: 262,144).
const PAYLOAD_LIMIT: usize = LIMITS.payload_bytes as usize;

/// The verdict on plan text of `text_len` bytes whose tree (the plan object, only its
/// [`PLAN_MEMBERS`]) is `plan`, against `request` (validator.md §5): what [`validate_text`] gives
/// once its parser has built that tree. For [`crate::PlanStream::finish`], which builds the same
/// tree from the tokens it read.
/// `days`: what the stream worked out for each day's list as its blocks closed, used in place of
/// checking those blocks again (the same rules gave it: [`block_issues`]).
pub(crate) fn plan_verdict(plan: &Members<'_>, text_len: usize, request: &Value, days: Box<Days>) -> Verdict {
    let arena = tree::arena_for(256);
    let request = Node::from_value(request, 1, &arena);
    run_with(plan, over_limit(text_len), &request, Some(days))
}

/// `size` (bytes) when it is over the §5.2 limit, else `None`: what [`run`] is told.
fn over_limit(size: usize) -> Option<usize> {
    (size > PAYLOAD_LIMIT).then_some(size)
}

/// The verdict on an object plan; `oversize` is the plan's size in bytes when it is over the §5.2
/// limit (`None` when within it: a size under the limit is never shown, so it need not be measured).
fn run(plan: &Members<'_>, oversize: Option<usize>, request: &Node<'_>) -> Verdict {
    run_with(plan, oversize, request, None)
}

/// [`run`], with the issues of the day lists a [`crate::PlanStream`] has worked out already.
fn run_with(plan: &Members<'_>, oversize: Option<usize>, request: &Node<'_>, days: Option<Box<Days>>) -> Verdict {
    run_replaying::<false>(plan, oversize, request, days).0
}

/// The verdict and, with `COLLECT`, the fixes proposed for its issues (validator.md §9).
pub(crate) fn run_collecting<const COLLECT: bool>(
    plan: &Members<'_>,
    oversize: Option<usize>,
    request: &Node<'_>,
) -> (Verdict, Vec<Fix>) {
    run_replaying::<COLLECT>(plan, oversize, request, None)
}

/// [`run_collecting`], with the issues of the day lists worked out already (`days`).
fn run_replaying<const COLLECT: bool>(
    plan: &Members<'_>,
    oversize: Option<usize>,
    request: &Node<'_>,
    days: Option<Box<Days>>,
) -> (Verdict, Vec<Fix>) {
    let [format, contract_version, kind, name, tagline, description, request_id, echo, routine, goal] =
        pick(plan, PLAN_MEMBERS);
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
        parts: std::borrow::Cow::Borrowed(&[]),
        request_days: None,
        fixes: COLLECT.then(Vec::new),
        asked_kind,
        days,
    };
    let root = Loc::Root;

    // §5.2 size (D3)
    if let Some(size) = oversize {
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

impl Validator<'_, false> {
    /// A validator with no issues yet, proposing no fixes and reading no request: what a
    /// [`crate::PlanStream`] runs one member or block through.
    fn plain() -> Self {
        Validator {
            errors: Vec::new(),
            warnings: Vec::new(),
            parts: std::borrow::Cow::Borrowed(&[]),
            request_days: None,
            fixes: None,
            asked_kind: None,
            days: None,
        }
    }
}

impl<const COLLECT: bool> Validator<'_, COLLECT> {
    /// Records the error `code` at `path` (rendered now, only because there is an issue).
    fn error(&mut self, code: IssueCode, path: &Loc<'_>, message: String) {
        debug_assert!(!code.is_warning(), "{code} is a warning code");
        self.errors.push(Issue::new(code, path.render(), message));
    }

    /// Records the warning `code` at `path`.
    fn warning(&mut self, code: IssueCode, path: &Loc<'_>, message: String) {
        debug_assert!(code.is_warning(), "{code} is an error code");
        self.warnings.push(Issue::new(code, path.render(), message));
    }

    /// Whether fixes are being collected: proposals are computed only then.
    #[allow(clippy::unused_self)] // reads as a question about this run (`self.collecting()`); COLLECT is its const parameter
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

/// The issues of the top-level member `name` of an object plan that depend on nothing but that
/// member's value (`None`: the member is absent) and the request (validator.md §5.3–§5.4, §10):
/// what a [`crate::PlanStream`] settles at the member's end. `name` is one of `format`,
/// `contractVersion`, `kind`, `name`, `tagline`, `description`, `requestId`, `request`; with
/// `name` empty, the request's own `requestInvalid` issues (in every object plan's verdict).
/// Runs the same rules as [`validate`] on a plan holding only that member and keeps the issues
/// at the member's path, so no rule or message is written twice. `request` is read only for
/// `kind`, `requestId`, `request` and the empty name (a caller may pass `null` for the others).
pub(crate) fn member_issues<'a>(name: &str, value: Option<&'a Node<'a>>, request: &'a Node<'a>) -> Vec<Issue> {
    let mut v = Validator::<false>::plain();
    let root = Loc::Root;
    if name.is_empty() {
        v.read_request(request, &root);
        return v.errors;
    }
    let req = match request {
        Node::Object(m) => Some(m),
        _ => None,
    };
    // Every other member holds a value its rules accept, so they format no issue only to have it
    // dropped below (the filter, not these values, decides what is kept).
    let (format, version, text) = (Node::String(crate::contract::FORMAT), Node::Number("1"), Node::String("x"));
    let kind = match get(req, "kind") {
        Some(k @ Node::String("routine" | "goal")) => k,
        _ => &Node::String("routine"),
    };
    let mut fields = PlanFields {
        format: Some(&format),
        contract_version: Some(&version),
        kind: Some(kind),
        name: Some(&text),
        tagline: Some(&text),
        description: Some(&text),
        request_id: get(req, "requestId"),
        request: Some(request),
        routine: None,
        goal: None,
    };
    match name {
        "format" => fields.format = value,
        "contractVersion" => fields.contract_version = value,
        "kind" => fields.kind = value,
        "name" => fields.name = value,
        "tagline" => fields.tagline = value,
        "description" => fields.description = value,
        "requestId" => fields.request_id = value,
        "request" => fields.request = value,
        _ => {}
    }
    if name != "request" {
        v.envelope(&fields, &root);
    }
    // Only these three are judged against the request (§5.4); the others never read it.
    if let "kind" | "requestId" | "request" = name {
        v.answer(&fields, request, req, &root);
    }
    let path = root.key(name).render();
    v.errors
        .into_iter()
        .filter(|i| match name {
            "request" => i.code == IssueCode::Request,
            _ => i.path == path,
        })
        .collect()
}

/// The request's commitment parts (validator.md D4), read once for a [`crate::PlanStream`]:
/// what [`block_issues`] checks each block against. A malformed commitment has none (its
/// `requestInvalid` issue settles at the plan's `{`, [`member_issues`]).
pub(crate) fn commitment_parts(request: &Value) -> Vec<OwnedPart> {
    let arena = tree::arena_for(256);
    parts_of(arena.alloc(Node::from_value(request, 1, &arena)))
}

/// [`commitment_parts`] of a request's tree.
fn parts_of(request: &Node<'_>) -> Vec<OwnedPart> {
    let mut v = Validator::<false>::plain();
    let req = match request {
        Node::Object(m) => Some(m),
        _ => None,
    };
    v.read_commitments(get(req, "commitments"), &Loc::Root.key("request"));
    v.parts.iter().map(Part::owned).collect()
}

/// A day's list of blocks as a [`crate::PlanStream`] has read it so far (§5.5, D8): owned, so it
/// outlives the tree of each block.
#[derive(Debug, Clone, Default)]
pub(crate) struct StreamDay {
    prev_end: Option<i64>,
    /// Set once, at the list's first block that passes the time and duration checks (shared by
    /// the copies a waiting block keeps).
    first: Option<(i64, Option<std::sync::Arc<Value>>)>,
}

/// The issues of block `i` of a routine's day list (`weekday`: the `routine.weekdays` key, or
/// `None` for `routine.blocks`), given the list so far in `day` (updated), for a plan whose `kind`
/// is `routine` (validator.md §5.5–5.7, §10): its own issues, its overlap with the previous block,
/// its commitment issues, and (when `last` is known) its end past midnight. Returns the issues
/// (by kind) and whether the end past midnight waits for `last` (then call again
/// with `last` known, on the `day` from before this call). The same rule functions as
/// [`validate`]'s, so no rule or message is written twice.
pub(crate) fn block_issues<'a>(
    arena: &'a bumpalo::Bump,
    parts: &'a [OwnedPart],
    weekday: Option<&str>,
    i: usize,
    block: &'a Node<'a>,
    last: Option<bool>,
    day: &mut StreamDay,
) -> (BlockIssues, bool) {
    let mut v = Validator::<false>::plain();
    v.parts = std::borrow::Cow::Borrowed(arena.alloc_slice_fill_iter(parts.iter().map(|p| Part::from_owned(p, arena))));
    let root = Loc::Root;
    let routine = root.key("routine");
    let weekdays = routine.key("weekdays");
    let (path, which) = match weekday.and_then(|w| crate::contract::weekday_index(w).map(|d| (w, d))) {
        Some((w, d)) => (weekdays.key(w), routine::Day::Weekday(d)),
        None => (routine.key("blocks"), routine::Day::Every),
    };
    let first = day.first.as_ref().map(|(s, a)| (*s, a.as_ref().map(|a| &*arena.alloc(Node::from_value(a, 1, arena)))));
    let mut st = routine::DayState { first, prev_end: day.prev_end, timed: Vec::new(), order_issue: None };
    let undecided = v.block(&mut st, i, block, &path, last);
    let own = std::mem::take(&mut v.errors);
    v.commitment_pass(&st.timed, &path, which);
    day.prev_end = st.prev_end;
    if day.first.is_none() {
        day.first = st.first.map(|(s, a)| (s, a.map(|a| std::sync::Arc::new(a.into_value()))));
    }
    (BlockIssues { own, commitment: v.errors, warnings: v.warnings }, undecided)
}
