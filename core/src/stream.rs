//! [`PlanStream`]: validating plan text as it arrives (validator.md §10).
//!
//! One incremental reader: a byte-at-a-time JSON state machine (resumable at any byte, so chunks
//! may split a UTF-8 sequence, an escape or a number) that reads each byte once and knows, at
//! every byte, whether some completion of the text so far can still be JSON. It decides *when*
//! an issue is settled; *what* the issue says always comes from the core's own parser and rules
//! (`tree::check` for a `json` fault, `validate::member_issues` for a member's issues), so no
//! rule or message is written twice. [`PlanStream::finish`] is [`crate::validate_bytes`] of all
//! the bytes.

use crate::json::{self, MAX_DEPTH};
use crate::tree::{self, Node};
use crate::validate::{Input, OwnedPart, StreamDay, block_issues, commitment_parts, member_issues, validate_input};
use crate::verdict::{Issue, Verdict};
use bumpalo::Bump;
use serde_json::Value;

/// The plan's top-level members whose issues depend on nothing but their own value and the
/// request (validator.md §5.3–§5.4): each settles at its value's end, or as missing at the
/// plan's `}`.
const OWN_MEMBERS: [&str; 8] =
    ["format", "contractVersion", "kind", "name", "tagline", "description", "requestId", "request"];

/// Where the reader is inside a number literal (RFC 8259 grammar).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

/// What the reader expects next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    /// A value; with `close`, `]` may end the array instead (right after its `[`).
    Value {
        close: bool,
    },
    /// After `{`: a member name or `}`.
    NameOrEnd,
    /// After `,` in an object: a member name.
    Name,
    /// After a member name: `:`.
    Colon,
    /// After a value: `,`, the container's closer, or (at the top) only white space.
    After,
    /// Inside a string (`name`: a member name).
    Str {
        name: bool,
    },
    /// After a `\` in a string.
    Esc {
        name: bool,
    },
    /// Inside `\uXXXX`: `n` digits read, value `v`; `hi` is the high surrogate this escape must
    /// complete (0 for none).
    Hex {
        name: bool,
        n: u8,
        v: u32,
        hi: u32,
    },
    /// After the high surrogate escape `hi`: `\` (then `u`, once `backslash`) must follow.
    Low {
        name: bool,
        hi: u32,
        backslash: bool,
    },
    Number(Num),
    Literal {
        word: &'static [u8],
        at: u8,
    },
    /// No completion can make the text JSON.
    Fault,
}

/// What an open container is to the rules.
#[derive(Clone, Debug)]
enum Role {
    Plan,
    Routine,
    Weekdays,
    /// A day's list of blocks: `routine.blocks` (`weekday` `None`) or a `routine.weekdays`
    /// list; the list read so far; a `rest` block past midnight waiting to know whether it is
    /// the last element (its index, text, the day before it and what it settled already).
    List {
        weekday: Option<Box<str>>,
        day: StreamDay,
        undecided: Option<Box<Waiting>>,
    },
    Block,
    Other,
}

/// A `rest` block past midnight waiting to know whether it is its list's last element: its
/// index, its bytes, the list before it, and the issues it settled already.
type Waiting = (usize, (usize, usize), StreamDay, Vec<Issue>);

/// A member name: bytes of the text (no escape in it), or decoded.
#[derive(Clone)]
enum Name {
    Raw(usize, usize),
    Decoded(Box<[u8]>),
}

impl Name {
    /// The name's bytes (`buf`: the text).
    fn bytes<'b>(&'b self, buf: &'b [u8]) -> &'b [u8] {
        match self {
            Name::Raw(start, end) => &buf[*start..*end],
            Name::Decoded(d) => d,
        }
    }
}

/// An open container.
#[derive(Clone)]
struct Frame {
    object: bool,
    role: Role,
    /// Where it starts (its bracket), and how many elements (arrays) it has had.
    start: usize,
    count: usize,
    /// Where its member names start in [`PlanStream::names`] (objects only).
    names_from: usize,
}

/// Validates plan text as it streams in (validator.md §10): [`PlanStream::push`] the bytes as
/// they arrive, in chunks split anywhere; each push returns the issues that became *settled*
/// with those bytes (issues every JSON completion of the text so far has in its verdict, among
/// completions that repeat no member name); [`PlanStream::finish`] returns the verdict,
/// byte-identical to [`crate::validate_bytes`] (so to [`crate::validate_text`] for UTF-8 text)
/// of all the bytes pushed. Pure: no I/O, no clock.
///
/// What settles when (validator.md §10):
/// - the `json` error at the first byte no completion can make JSON (its message is the one the
///   whole text's verdict gives: the core parser's reason, line and column); invalid UTF-8 at its
///   first faulty byte;
/// - the request's own `requestInvalid` issues at the plan's `{`;
/// - the issues of `format`, `contractVersion`, `kind`, `name`, `tagline`, `description`,
///   `requestId` and the `request` echo at the end of the member's value, or as missing at the
///   plan's `}`.
///
/// Once a member name repeats in any object, nothing more settles ([`PlanStream::repeated_name`]
/// turns true, once): the last value would win (§7), so only `finish` counts.
///
/// ```
/// use momentum_plan::PlanStream;
/// let mut s = PlanStream::new(serde_json::json!({"requestId": "r1", "kind": "routine"}));
/// assert!(s.push(b"{\"form").is_empty());
/// let settled = s.push(b"at\": 1, ");
/// assert_eq!(settled[0].code.as_str(), "format");
/// assert!(!s.finish().valid);
/// ```
#[derive(Clone)]
pub struct PlanStream {
    request: Value,
    /// The request's commitment parts, read once (every block is checked against them).
    parts: Vec<OwnedPart>,
    /// Every byte pushed.
    buf: Vec<u8>,
    /// How many bytes of `buf` the reader has read.
    pos: usize,
    /// How many bytes of `buf` are known to be valid UTF-8 (the rest: an unfinished sequence).
    utf8_ok: usize,
    st: St,
    frames: Vec<Frame>,
    /// The member names of every open object, outermost first (each frame knows where its own
    /// start), for a repeated name.
    names: Vec<Name>,
    /// Start of the string or number being read.
    token_start: usize,
    /// Whether the string being read holds an escape.
    escaped: bool,
    /// The top-level member whose value is being read (its name) and where the value starts.
    member: Option<(Box<[u8]>, Option<usize>)>,
    /// Which of [`OWN_MEMBERS`] the plan has had.
    seen: [bool; 8],
    /// A fault at this byte whose `json` issue is still to settle.
    fault_at: Option<usize>,
    /// Whether the plan's `kind` is `routine` (`None`: not read yet).
    routine: Option<bool>,
    /// Routine issues settled but for the plan's `kind`, not read yet.
    pending: Vec<Issue>,
    /// Whether settling has stopped (a `json` fault settled, or a member name repeated).
    stopped: bool,
    repeated: bool,
    /// The arena settling works in, kept from push to push (reset for each settle).
    arena: Reused,
}

/// An arena kept between pushes. Behind a mutex only so that a stream can be shared between
/// threads (`Sync`, as the bindings need); it is only ever reached through `&mut`, so never
/// locked. A clone starts with an empty arena.
#[derive(Default)]
struct Reused(std::sync::Mutex<Bump>);

// The bindings keep a stream between calls, on any thread.
const _: () = {
    const fn shareable<T: Send + Sync>() {}
    shareable::<PlanStream>();
};

impl Clone for Reused {
    fn clone(&self) -> Self {
        Reused::default()
    }
}

impl PlanStream {
    /// What a binding's stream object says to a call after its `finish` has given the verdict
    /// (Python's `ValueError`, the JS packages' `Error`): one wording for every surface.
    pub const FINISHED: &'static str = "PlanStream: finish() has already given the verdict; start a new PlanStream";

    /// A stream validating a plan against `request` (the request as given, as for
    /// [`crate::validate_text`]: an object; anything else is `requestInvalid`, D1).
    #[must_use]
    pub fn new(request: Value) -> PlanStream {
        PlanStream {
            parts: commitment_parts(&request),
            request,
            buf: Vec::new(),
            pos: 0,
            utf8_ok: 0,
            st: St::Value { close: false },
            frames: Vec::new(),
            names: Vec::new(),
            token_start: 0,
            escaped: false,
            member: None,
            seen: [false; 8],
            fault_at: None,
            routine: None,
            pending: Vec::new(),
            stopped: false,
            repeated: false,
            arena: Reused::default(),
        }
    }

    /// Whether a member name has repeated (in any object): from then on nothing settles and only
    /// [`PlanStream::finish`] counts (validator.md §10, §7).
    #[must_use]
    pub fn repeated_name(&self) -> bool {
        self.repeated
    }

    /// How many bytes have been pushed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Every byte pushed so far, in order (for a host that shows the text beside its issues).
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Whether nothing has been pushed yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Reads the next bytes of the plan text (any split: inside a UTF-8 sequence, an escape, a
    /// number) and returns the issues that became settled with them (code, path and message as
    /// the final verdict words them; validator.md §10), in the order they settled. Never panics.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Issue> {
        let arena = std::mem::take(self.arena.0.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner));
        let mut out = Out { issues: Vec::new(), arena };
        let issues = self.read_bytes(bytes, &mut out);
        *self.arena.0.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner) = out.arena;
        issues
    }

    /// [`PlanStream::push`], settling into `out`.
    fn read_bytes(&mut self, bytes: &[u8], out: &mut Out) -> Vec<Issue> {
        self.buf.extend_from_slice(bytes);
        if self.stopped {
            return std::mem::take(&mut out.issues);
        }
        // UTF-8 first: an invalid sequence is the verdict's `json` error whatever follows (§5.1).
        match std::str::from_utf8(&self.buf[self.utf8_ok..]) {
            Ok(_) => self.utf8_ok = self.buf.len(),
            Err(e) => {
                self.utf8_ok += e.valid_up_to();
                if e.error_len().is_some() {
                    if let Err(e) = json::utf8_text(&self.buf) {
                        out.extend(Verdict::not_json(&e).errors);
                    }
                    self.stopped = true;
                    return std::mem::take(&mut out.issues);
                }
            }
        }
        if self.fault_at.is_none() {
            self.read(out);
        }
        if let Some(at) = self.fault_at
            && !self.stopped
        {
            self.settle_fault(at, out);
        }
        std::mem::take(&mut out.issues)
    }

    /// The verdict on all the bytes pushed: exactly [`crate::validate_bytes`] of them (validator.md
    /// §10). An unfinished text gets the `json` error the core's parser gives it.
    #[must_use]
    pub fn finish(self) -> Verdict {
        validate_input(Input::Bytes(&self.buf), Input::Value(&self.request)).unwrap_or_else(|e| Verdict::not_json(&e))
    }

    /// The `json` issue of the fault at byte `at`, once the text up to it is whole characters and
    /// the core's parser, reading it, reports that fault (not the end of the text).
    fn settle_fault(&mut self, at: usize, out: &mut Out) {
        let Ok(text) = std::str::from_utf8(&self.buf[..self.utf8_ok]) else { return };
        let mut end = at + 1;
        while end <= text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        if end > text.len() {
            return;
        }
        if let Err(e) = tree::check(&text[..end])
            && !e.reason.starts_with("unexpected end of text")
        {
            out.extend(Verdict::not_json(&e).errors);
            self.stopped = true;
        }
    }

    /// Marks a fault at byte `at`.
    fn fault(&mut self, at: usize) {
        self.st = St::Fault;
        self.fault_at = Some(at);
    }

    /// Reads the bytes not yet read (only those known to be whole UTF-8 do not matter: the
    /// grammar is ASCII outside strings, and inside one any byte but `"`, `\` and controls is text).
    #[allow(clippy::too_many_lines)] // one state machine: its states read best together
    fn read(&mut self, out: &mut Out) {
        let mut i = self.pos;
        while i < self.buf.len() {
            let c = self.buf[i];
            match self.st {
                St::Fault => return,
                St::Str { name } => {
                    let j = tree::skip_plain(&self.buf, i);
                    if j > i {
                        i = j;
                        continue;
                    }
                    match c {
                        b'"' => {
                            let start = self.token_start;
                            if name {
                                self.name_done(start, i);
                                if self.stopped {
                                    self.pos = i + 1;
                                    return;
                                }
                                self.st = St::Colon;
                            } else {
                                self.value_done(i + 1, out);
                            }
                        }
                        b'\\' => {
                            self.escaped = true;
                            self.st = St::Esc { name };
                        }
                        0..=0x1f => return self.fault(i),
                        _ => {}
                    }
                }
                St::Esc { name } => match c {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.st = St::Str { name },
                    b'u' => self.st = St::Hex { name, n: 0, v: 0, hi: 0 },
                    _ => return self.fault(i),
                },
                St::Hex { name, n, v, hi } => {
                    let Some(d) = char::from(c).to_digit(16) else { return self.fault(i) };
                    let v = v * 16 + d;
                    if n < 3 {
                        self.st = St::Hex { name, n: n + 1, v, hi };
                    } else if hi != 0 {
                        if !(0xDC00..=0xDFFF).contains(&v) {
                            return self.fault(i);
                        }
                        self.st = St::Str { name };
                    } else {
                        match v {
                            0xD800..=0xDBFF => self.st = St::Low { name, hi: v, backslash: false },
                            0xDC00..=0xDFFF => return self.fault(i),
                            _ => self.st = St::Str { name },
                        }
                    }
                }
                St::Low { name, hi, backslash } => match (backslash, c) {
                    (false, b'\\') => self.st = St::Low { name, hi, backslash: true },
                    (true, b'u') => self.st = St::Hex { name, n: 0, v: 0, hi },
                    _ => return self.fault(i),
                },
                St::Number(n) => {
                    let next = match (n, c) {
                        (Num::Minus, b'0') => Some(Num::Zero),
                        (Num::Minus, b'1'..=b'9') | (Num::Int, b'0'..=b'9') => Some(Num::Int),
                        (Num::Zero | Num::Int, b'.') => Some(Num::Dot),
                        (Num::Dot | Num::Frac, b'0'..=b'9') => Some(Num::Frac),
                        (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Some(Num::E),
                        (Num::E, b'+' | b'-') => Some(Num::ESign),
                        (Num::E | Num::ESign | Num::Exp, b'0'..=b'9') => Some(Num::Exp),
                        _ => None,
                    };
                    if let Some(n) = next {
                        self.st = St::Number(n);
                    } else if matches!(n, Num::Zero | Num::Int | Num::Frac | Num::Exp) {
                        // The literal ends before `c`, which is read again after it.
                        let lit = &self.buf[self.token_start..i];
                        if lit.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
                            && !std::str::from_utf8(lit)
                                .ok()
                                .and_then(|s| s.parse::<f64>().ok())
                                .is_some_and(f64::is_finite)
                        {
                            return self.fault(i);
                        }
                        self.value_done(i, out);
                        if self.stopped {
                            self.pos = i;
                            return;
                        }
                        continue;
                    } else {
                        return self.fault(i);
                    }
                }
                St::Literal { word, at } => {
                    if word.get(usize::from(at)) != Some(&c) {
                        return self.fault(i);
                    }
                    if usize::from(at) + 1 == word.len() {
                        self.value_done(i + 1, out);
                    } else {
                        self.st = St::Literal { word, at: at + 1 };
                    }
                }
                _ if matches!(c, b' ' | b'\t' | b'\n' | b'\r') => {
                    i = tree::skip_ws(&self.buf, i);
                    continue;
                }
                St::Value { close } => {
                    if close && c == b']' {
                        self.close(i, out);
                    } else {
                        self.value_start(i);
                        match c {
                            b'{' | b'[' => {
                                if self.frames.len() >= MAX_DEPTH {
                                    return self.fault(i);
                                }
                                let object = c == b'{';
                                let role = self.role_of(object);
                                let names_from = self.names.len();
                                self.frames.push(Frame { object, role, start: i, count: 0, names_from });
                                if object && self.frames.len() == 1 {
                                    self.plan_opened(out);
                                }
                                self.st = if object { St::NameOrEnd } else { St::Value { close: true } };
                            }
                            b'"' => {
                                self.token_start = i + 1;
                                self.escaped = false;
                                self.st = St::Str { name: false };
                            }
                            b't' => self.st = St::Literal { word: b"true", at: 1 },
                            b'f' => self.st = St::Literal { word: b"false", at: 1 },
                            b'n' => self.st = St::Literal { word: b"null", at: 1 },
                            b'-' => {
                                self.token_start = i;
                                self.st = St::Number(Num::Minus);
                            }
                            b'0' => {
                                self.token_start = i;
                                self.st = St::Number(Num::Zero);
                            }
                            b'1'..=b'9' => {
                                self.token_start = i;
                                self.st = St::Number(Num::Int);
                            }
                            _ => return self.fault(i),
                        }
                    }
                }
                St::NameOrEnd | St::Name => match c {
                    b'"' => {
                        self.token_start = i + 1;
                        self.escaped = false;
                        self.st = St::Str { name: true };
                    }
                    b'}' if self.st == St::NameOrEnd => self.close(i, out),
                    _ => return self.fault(i),
                },
                St::Colon => {
                    if c != b':' {
                        return self.fault(i);
                    }
                    self.st = St::Value { close: false };
                }
                St::After => match (self.frames.last().map(|f| f.object), c) {
                    (Some(false), b',') => {
                        self.list_next(false, out);
                        self.st = St::Value { close: false };
                    }
                    (Some(true), b',') => self.st = St::Name,
                    (Some(false), b']') | (Some(true), b'}') => self.close(i, out),
                    _ => return self.fault(i),
                },
            }
            if self.stopped {
                self.pos = i + 1;
                return;
            }
            i += 1;
        }
        self.pos = i;
    }

    /// A value starts at byte `at`: where a top-level member's value begins; an array counts it.
    fn value_start(&mut self, at: usize) {
        if let Some(f) = self.frames.last_mut()
            && !f.object
        {
            f.count += 1;
        }
        if self.frames.len() == 1
            && let Some((_, start @ None)) = &mut self.member
        {
            *start = Some(at);
        }
    }

    /// Closes the innermost container at its closer, byte `at`.
    fn close(&mut self, at: usize, out: &mut Out) {
        if matches!(self.frames.last(), Some(Frame { role: Role::List { .. }, .. })) {
            self.list_next(true, out);
        }
        let frame = self.frames.pop();
        if let Some(f) = &frame {
            self.names.truncate(f.names_from);
        }
        match frame.as_ref().map(|f| (&f.role, f.start)) {
            Some((Role::Plan, _)) => self.plan_closed(out),
            Some((Role::Block, start)) => self.block_closed(start, at + 1, out),
            _ => {}
        }
        self.value_done(at + 1, out);
    }

    /// A value ended just before byte `end`.
    fn value_done(&mut self, end: usize, out: &mut Out) {
        self.st = St::After;
        if self.frames.len() == 1
            && let Some((name, Some(start))) = self.member.take()
        {
            self.member_done(&name, start, end, out);
        }
    }

    /// A member name ended at its closing quote, byte `end`: a repeated name stops settling.
    fn name_done(&mut self, start: usize, end: usize) {
        let name = if self.escaped {
            // The name is a whole JSON string the reader has checked: decoded by serde_json.
            std::str::from_utf8(&self.buf[start - 1..=end])
                .ok()
                .and_then(|t| serde_json::from_str::<String>(t).ok())
                .map_or(Name::Raw(start, end), |s| Name::Decoded(s.into_bytes().into_boxed_slice()))
        } else {
            Name::Raw(start, end)
        };
        let Some(frame) = self.frames.last() else { return };
        let buf = &self.buf;
        if self.names[frame.names_from..].iter().any(|n| n.bytes(buf) == name.bytes(buf)) {
            self.repeated = true;
            self.stopped = true;
            return;
        }
        if self.frames.len() == 1 {
            self.member = Some((name.bytes(buf).into(), None));
        }
        self.names.push(name);
    }

    /// The plan's `{`: the request's own issues are in the verdict of every object plan.
    fn plan_opened(&mut self, out: &mut Out) {
        let Out { issues, arena } = out;
        arena.reset();
        let node = arena.alloc(Node::from_value(&self.request, 1, arena));
        issues.extend(member_issues("", None, node));
    }

    /// The plan's `}`: each of [`OWN_MEMBERS`] it lacks settles as missing.
    fn plan_closed(&mut self, out: &mut Out) {
        let Out { issues, arena } = out;
        arena.reset();
        let node = arena.alloc(Node::from_value(&self.request, 1, arena));
        // A plan without `kind` has no routine issues.
        self.pending.clear();
        for (k, name) in OWN_MEMBERS.iter().enumerate() {
            if !self.seen[k] {
                issues.extend(member_issues(name, None, node));
            }
        }
    }

    /// The top-level member `name` ended: its value is bytes `start..end`.
    fn member_done(&mut self, name: &[u8], start: usize, end: usize, out: &mut Out) {
        let Some(k) = OWN_MEMBERS.iter().position(|m| m.as_bytes() == name) else { return };
        self.seen[k] = true;
        let Ok(text) = std::str::from_utf8(&self.buf[start..end]) else { return };
        let Out { issues, arena } = out;
        arena.reset();
        // Only these are judged against the request (`member_issues`): the others need no view of it.
        let request = match OWN_MEMBERS[k] {
            "kind" | "requestId" | "request" => arena.alloc(Node::from_value(&self.request, 1, arena)),
            _ => &Node::Null,
        };
        if let Ok(value) = tree::parse(text, arena) {
            let value = arena.alloc(value);
            if OWN_MEMBERS[k] == "kind" {
                let routine = matches!(value, Node::String("routine"));
                self.routine = Some(routine);
                let pending = std::mem::take(&mut self.pending);
                if routine {
                    issues.extend(pending);
                }
            }
            issues.extend(member_issues(OWN_MEMBERS[k], Some(value), request));
        }
    }

    /// The role of a container opening now (an object when `object`), from its parent's.
    fn role_of(&self, object: bool) -> Role {
        let Some(parent) = self.frames.last() else { return if object { Role::Plan } else { Role::Other } };
        let name = self.names[parent.names_from..].last().map(|n| n.bytes(&self.buf));
        match (&parent.role, object, name) {
            (Role::Plan, true, Some(b"routine")) => Role::Routine,
            (Role::Routine, false, Some(b"blocks")) => {
                Role::List { weekday: None, day: StreamDay::default(), undecided: None }
            }
            (Role::Routine, true, Some(b"weekdays")) => Role::Weekdays,
            (Role::Weekdays, false, Some(n)) => {
                match std::str::from_utf8(n).ok().filter(|n| crate::contract::weekday_index(n).is_some()) {
                    Some(w) => Role::List { weekday: Some(w.into()), day: StreamDay::default(), undecided: None },
                    None => Role::Other,
                }
            }
            (Role::List { .. }, true, _) => Role::Block,
            _ => Role::Other,
        }
    }

    /// Routine issues: settled once the plan's `kind` is known to be `routine`.
    fn routine_issues(routine: Option<bool>, pending: &mut Vec<Issue>, issues: Vec<Issue>, out: &mut Vec<Issue>) {
        match routine {
            Some(true) => out.extend(issues),
            Some(false) => {}
            None => pending.extend(issues),
        }
    }

    /// A block object of a day's list closed: bytes `start..end`.
    fn block_closed(&mut self, start: usize, end: usize, out: &mut Out) {
        let Some(Frame { role: Role::List { weekday, day, undecided }, count, .. }) = self.frames.last_mut() else {
            return;
        };
        let Ok(text) = std::str::from_utf8(&self.buf[start..end]) else { return };
        let Out { issues: settled, arena } = out;
        arena.reset();
        let Ok(node) = tree::parse(text, arena) else { return };
        let before = day.clone();
        let (issues, waits) = block_issues(arena, &self.parts, weekday.as_deref(), *count - 1, &node, None, day);
        if waits {
            *undecided = Some(Box::new((*count - 1, (start, end), before, issues.clone())));
        }
        Self::routine_issues(self.routine, &mut self.pending, issues, settled);
    }

    /// A day's list goes on (`,`) or ends (`]`, `last`): a block waiting to know whether it is
    /// the last element settles the rest of its issues.
    fn list_next(&mut self, last: bool, out: &mut Out) {
        let Some(Frame { role: Role::List { weekday, day, undecided }, .. }) = self.frames.last_mut() else { return };
        let Some(waiting) = undecided.take() else { return };
        let (i, (start, end), mut before, settled) = *waiting;
        let Ok(text) = std::str::from_utf8(&self.buf[start..end]) else { return };
        let Out { issues: into, arena } = out;
        arena.reset();
        let Ok(node) = tree::parse(text, arena) else { return };
        let (issues, _) = block_issues(arena, &self.parts, weekday.as_deref(), i, &node, Some(last), &mut before);
        *day = before;
        let new: Vec<Issue> = issues.into_iter().filter(|x| !settled.contains(x)).collect();
        Self::routine_issues(self.routine, &mut self.pending, new, into);
    }
}

/// What one push settles, and the arena its settling works in (reset for each settle).
struct Out {
    issues: Vec<Issue>,
    arena: Bump,
}

impl Out {
    fn extend(&mut self, issues: impl IntoIterator<Item = Issue>) {
        self.issues.extend(issues);
    }
}
