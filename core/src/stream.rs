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
use crate::tree::{self, Node, Tok};
use crate::validate::{
    DayIssues, Days, Input, OwnedPart, PLAN_MEMBERS, StreamDay, block_issues, commitment_parts, member_issues,
    plan_verdict, validate_input,
};
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
    /// the last element.
    List {
        weekday: Option<Box<str>>,
        day: StreamDay,
        undecided: Option<Box<Waiting>>,
        /// The issues of its blocks so far, for `finish` (`None` once an element is not a block
        /// the stream could check).
        known: Option<Box<DayIssues>>,
    },
    Block,
    Other,
}

/// A `rest` block past midnight waiting to know whether it is its list's last element.
#[derive(Clone, Debug)]
struct Waiting {
    /// Its index in the list.
    index: usize,
    /// Where it is: its bytes, and its tokens on the tape (`None`: not kept).
    at: Span,
    /// The list before it.
    before: StreamDay,
    /// The issues it settled already.
    settled: Vec<Issue>,
}

/// Where a value is: its bytes `bytes.0..bytes.1`, and its tokens `toks.0..toks.1` on the tape
/// when they were kept.
#[derive(Clone, Copy, Debug)]
struct Span {
    bytes: (usize, usize),
    toks: Option<(usize, usize)>,
}

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
    /// Where its `Open` token is on the tape ([`NOT_KEPT`]: not kept).
    tok: usize,
}

/// A tape index for a value whose tokens were not kept.
const NOT_KEPT: usize = usize::MAX;

/// The top-level member whose value is being read.
#[derive(Clone)]
struct Member {
    /// Which of [`OWN_MEMBERS`] it is.
    own: Option<usize>,
    /// Where its value starts: byte, and tape index.
    value: Option<(usize, usize)>,
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
///   plan's `}`;
/// - a routine block's own issues, its overlap with the block before it and its commitment
///   issues at its `}` (once the plan's `kind` is known), its end past midnight once it is known
///   whether it is its list's last block.
///
/// Once a member name repeats in any object, nothing more settles ([`PlanStream::repeated_name`]
/// turns true, once): the last value would win (§7), so only `finish` counts.
///
/// Cost (§10: never re-reads what it has read): each byte is read once, into tokens kept on a
/// tape (offsets into the text, 12 bytes a token, only for the members the rules read); a
/// settled value and the final verdict are built from the tape, not from the text again.
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
#[allow(clippy::struct_excessive_bools)] // independent facts of the reader, each read on its own
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
    /// The top-level member whose value is being read.
    member: Option<Member>,
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
    /// The tokens read (validator.md §10's "never re-reads"): settled values and the final
    /// verdict are built from them.
    tape: Vec<Tok>,
    /// Whether tokens are kept now: not inside a top-level member the rules do not read.
    keep: bool,
    /// Whether the tape can stand for the text: the text is an object and its offsets fit in
    /// 32 bits (else `finish` reads the text again).
    tape_ok: bool,
    /// The issues of each day's list the stream has read whole (validator.md §10): `finish`
    /// uses them in place of checking those blocks again.
    days: Box<Days>,
    /// The arena and working memory settling works in, kept from push to push.
    arena: Reused,
}

/// An arena kept between pushes. Behind a mutex only so
/// that a stream can be shared between threads (`Sync`, as the bindings need); it is only ever
/// reached through `&mut`, so never locked. A clone starts empty.
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
            tape: Vec::new(),
            keep: true,
            tape_ok: true,
            days: Box::default(),
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
        if u32::try_from(self.buf.len()).is_err() {
            // Offsets past 32 bits: no more tokens (`finish` then reads the text again).
            self.tape_ok = false;
            self.keep = false;
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
            let b = std::mem::take(&mut self.buf);
            self.read(&b, out);
            self.buf = b;
        }
        if let Some(at) = self.fault_at
            && !self.stopped
        {
            self.settle_fault(at, out);
        }
        std::mem::take(&mut out.issues)
    }

    /// The verdict on all the bytes pushed: exactly [`crate::validate_bytes`] of them (validator.md
    /// §10). An unfinished text gets the `json` error the core's parser gives it. A whole object
    /// read without a fault or a repeated name is built from the tape (no byte read again); any
    /// other text is read again by [`crate::validate_bytes`].
    #[must_use]
    pub fn finish(self) -> Verdict {
        let whole = self.tape_ok
            && !self.stopped
            && self.fault_at.is_none()
            && self.frames.is_empty()
            && self.st == St::After
            && self.pos == self.buf.len()
            && self.utf8_ok == self.buf.len();
        if whole {
            let arena = tree::arena_for(self.buf.len());
            let text = std::str::from_utf8(&self.buf).unwrap_or_default();
            if let Some(Node::Object(plan)) = tree::from_tape(&self.tape, text, 0, &arena) {
                return plan_verdict(&plan, self.buf.len(), &self.request, self.days);
            }
        }
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

    /// Keeps token `t` on the tape (when tokens are kept now).
    #[inline(always)]
    #[allow(clippy::inline_always)] // deliberate: once per token of the reader's loop
    fn tok(&mut self, t: Tok) {
        if self.keep {
            self.tape.push(t);
        }
    }

    /// Reads the bytes of `b` (the text; `self.buf` is out while it is read) from `self.pos` on
    /// (only those known to be whole UTF-8 do not matter: the grammar is ASCII outside strings,
    /// and inside one any byte but `"`, `\` and controls is text). Whole tokens are read at once
    /// (a string to its quote, a number to the byte after it); a token the chunk ends inside is
    /// read a byte at a time, its state kept for the next push.
    #[allow(clippy::too_many_lines)] // one state machine: its states read best together
    fn read(&mut self, b: &[u8], out: &mut Out) {
        let n = b.len();
        let mut st = self.st;
        let mut i = self.pos;
        // Leaves the loop at a fault at byte `$at`.
        macro_rules! fault {
            ($at:expr) => {{
                self.st = St::Fault;
                self.fault_at = Some($at);
                return;
            }};
        }
        while i < n {
            let c = b[i];
            match st {
                St::Fault => return,
                St::Str { name } => {
                    // To the next byte that is not plain text (eight at a time, then the tail).
                    let mut j = tree::skip_plain(b, i);
                    while j < n && !matches!(b[j], b'"' | b'\\' | 0..=0x1f) {
                        j += 1;
                    }
                    if j > i {
                        i = j;
                        continue;
                    }
                    match c {
                        b'"' => {
                            let start = self.token_start;
                            if name {
                                if !self.name_done(b, start, i) {
                                    self.st = st;
                                    self.pos = i + 1;
                                    return;
                                }
                                st = St::Colon;
                            } else {
                                self.tok(Tok::Str(off(start), off(i), self.escaped));
                                self.value_done(b, i + 1, out);
                                st = St::After;
                            }
                        }
                        b'\\' => {
                            self.escaped = true;
                            st = St::Esc { name };
                        }
                        0..=0x1f => fault!(i),
                        _ => {}
                    }
                }
                St::Esc { name } => match c {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => st = St::Str { name },
                    b'u' => st = St::Hex { name, n: 0, v: 0, hi: 0 },
                    _ => fault!(i),
                },
                St::Hex { name, n, v, hi } => {
                    let Some(d) = char::from(c).to_digit(16) else { fault!(i) };
                    let v = v * 16 + d;
                    if n < 3 {
                        st = St::Hex { name, n: n + 1, v, hi };
                    } else if hi != 0 {
                        if !(0xDC00..=0xDFFF).contains(&v) {
                            fault!(i);
                        }
                        st = St::Str { name };
                    } else {
                        match v {
                            0xD800..=0xDBFF => st = St::Low { name, hi: v, backslash: false },
                            0xDC00..=0xDFFF => fault!(i),
                            _ => st = St::Str { name },
                        }
                    }
                }
                St::Low { name, hi, backslash } => match (backslash, c) {
                    (false, b'\\') => st = St::Low { name, hi, backslash: true },
                    (true, b'u') => st = St::Hex { name, n: 0, v: 0, hi },
                    _ => fault!(i),
                },
                St::Number(num) => {
                    let next = match (num, c) {
                        (Num::Minus, b'0') => Some(Num::Zero),
                        (Num::Minus, b'1'..=b'9') | (Num::Int, b'0'..=b'9') => Some(Num::Int),
                        (Num::Zero | Num::Int, b'.') => Some(Num::Dot),
                        (Num::Dot | Num::Frac, b'0'..=b'9') => Some(Num::Frac),
                        (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Some(Num::E),
                        (Num::E, b'+' | b'-') => Some(Num::ESign),
                        (Num::E | Num::ESign | Num::Exp, b'0'..=b'9') => Some(Num::Exp),
                        _ => None,
                    };
                    if let Some(num) = next {
                        st = St::Number(num);
                    } else if matches!(num, Num::Zero | Num::Int | Num::Frac | Num::Exp) {
                        // The literal ends before `c`, which is read again after it.
                        let start = self.token_start;
                        if !finite(&b[start..i]) {
                            fault!(i);
                        }
                        self.tok(Tok::Num(off(start), off(i)));
                        self.value_done(b, i, out);
                        st = St::After;
                        continue;
                    } else {
                        fault!(i);
                    }
                }
                St::Literal { word, at } => {
                    if word.get(usize::from(at)) != Some(&c) {
                        fault!(i);
                    }
                    if usize::from(at) + 1 == word.len() {
                        self.tok(literal_tok(word));
                        self.value_done(b, i + 1, out);
                        st = St::After;
                    } else {
                        st = St::Literal { word, at: at + 1 };
                    }
                }
                _ if matches!(c, b' ' | b'\t' | b'\n' | b'\r') => {
                    i = tree::skip_ws(b, i);
                    continue;
                }
                St::Value { close } => {
                    if close && c == b']' {
                        self.close(b, i, out);
                        st = St::After;
                    } else {
                        if self.frames.is_empty() && c != b'{' {
                            // Not an object: the rules read nothing of it (`finish` reads it again).
                            self.tape_ok = false;
                            self.keep = false;
                        }
                        self.value_start(i);
                        if c != b'{' {
                            self.not_a_block();
                        }
                        match c {
                            b'{' | b'[' => {
                                if self.frames.len() >= MAX_DEPTH {
                                    fault!(i);
                                }
                                let object = c == b'{';
                                let role = self.role_of(b, object);
                                let names_from = self.names.len();
                                let tok = if self.keep { self.tape.len() } else { NOT_KEPT };
                                self.tok(Tok::Open(object));
                                self.frames.push(Frame { object, role, start: i, count: 0, names_from, tok });
                                if object && self.frames.len() == 1 {
                                    self.plan_opened(out);
                                }
                                st = if object { St::NameOrEnd } else { St::Value { close: true } };
                            }
                            b'"' => {
                                // A whole plain string at once.
                                let start = i + 1;
                                let j = tree::skip_plain(b, start);
                                if b.get(j) == Some(&b'"') {
                                    self.tok(Tok::Str(off(start), off(j), false));
                                    self.value_done(b, j + 1, out);
                                    st = St::After;
                                    i = j + 1;
                                    continue;
                                }
                                self.token_start = start;
                                self.escaped = false;
                                st = St::Str { name: false };
                                i = j;
                                continue;
                            }
                            b't' | b'f' | b'n' => {
                                let word: &'static [u8] = match c {
                                    b't' => b"true",
                                    b'f' => b"false",
                                    _ => b"null",
                                };
                                if b[i..].starts_with(word) {
                                    self.tok(literal_tok(word));
                                    self.value_done(b, i + word.len(), out);
                                    st = St::After;
                                    i += word.len();
                                    continue;
                                }
                                st = St::Literal { word, at: 1 };
                            }
                            b'-' | b'0'..=b'9' => {
                                self.token_start = i;
                                // A whole number at once, when the chunk holds the byte after it.
                                if let Some(end) = number_end(b, i) {
                                    if !finite(&b[i..end]) {
                                        fault!(end);
                                    }
                                    self.tok(Tok::Num(off(i), off(end)));
                                    self.value_done(b, end, out);
                                    st = St::After;
                                    i = end;
                                    continue;
                                }
                                st = St::Number(match c {
                                    b'-' => Num::Minus,
                                    b'0' => Num::Zero,
                                    _ => Num::Int,
                                });
                            }
                            _ => fault!(i),
                        }
                    }
                }
                St::NameOrEnd | St::Name => match c {
                    b'"' => {
                        let start = i + 1;
                        let j = tree::skip_plain(b, start);
                        self.token_start = start;
                        self.escaped = false;
                        if b.get(j) == Some(&b'"') {
                            // A whole plain name at once.
                            if !self.name_done(b, start, j) {
                                self.st = st;
                                self.pos = j + 1;
                                return;
                            }
                            st = St::Colon;
                            i = j + 1;
                        } else {
                            st = St::Str { name: true };
                            i = j;
                        }
                        continue;
                    }
                    b'}' if st == St::NameOrEnd => {
                        self.close(b, i, out);
                        st = St::After;
                    }
                    _ => fault!(i),
                },
                St::Colon => {
                    if c != b':' {
                        fault!(i);
                    }
                    st = St::Value { close: false };
                }
                St::After => match (self.frames.last().map(|f| f.object), c) {
                    (Some(false), b',') => {
                        self.list_next(b, false, out);
                        st = St::Value { close: false };
                    }
                    (Some(true), b',') => st = St::Name,
                    (Some(false), b']') | (Some(true), b'}') => {
                        self.close(b, i, out);
                        st = St::After;
                    }
                    _ => fault!(i),
                },
            }
            i += 1;
        }
        self.st = st;
        self.pos = i;
    }

    /// A value starts at byte `at`: where a top-level member's value begins; an array counts it.
    #[inline]
    fn value_start(&mut self, at: usize) {
        match self.frames.len() {
            0 => {}
            1 => {
                if let Some(Member { value: start @ None, .. }) = &mut self.member {
                    *start = Some((at, self.tape.len()));
                }
            }
            _ => {
                if let Some(f) = self.frames.last_mut()
                    && !f.object
                {
                    f.count += 1;
                }
            }
        }
    }

    /// An element of the innermost container starts that is not an object: when that is a day's
    /// list, `finish` checks the list itself.
    fn not_a_block(&mut self) {
        if let Some(Frame { role: Role::List { known, .. }, .. }) = self.frames.last_mut() {
            *known = None;
        }
    }

    /// Closes the innermost container at its closer, byte `at`.
    fn close(&mut self, b: &[u8], at: usize, out: &mut Out) {
        if matches!(self.frames.last(), Some(Frame { role: Role::List { .. }, .. })) {
            self.list_next(b, true, out);
        }
        self.tok(Tok::Close);
        let frame = self.frames.pop();
        if let Some(f) = &frame {
            self.names.truncate(f.names_from);
            match &f.role {
                Role::Plan => self.plan_closed(out),
                Role::List { weekday, known: Some(known), .. } => {
                    let which = weekday.as_deref().and_then(crate::contract::weekday_index).unwrap_or(7);
                    self.days[which] = Some((**known).clone());
                }
                Role::Block => {
                    let toks = (f.tok != NOT_KEPT).then_some((f.tok, self.tape.len()));
                    self.block_closed(b, Span { bytes: (f.start, at + 1), toks }, out);
                }
                _ => {}
            }
        }
        self.value_done(b, at + 1, out);
    }

    /// A value ended just before byte `end`.
    #[inline]
    fn value_done(&mut self, b: &[u8], end: usize, out: &mut Out) {
        if self.frames.len() == 1
            && let Some(member) = self.member.take()
        {
            self.keep = self.tape_ok;
            if let (Some(k), Some((start, tok))) = (member.own, member.value) {
                let toks = self.keep.then_some((tok, self.tape.len()));
                self.member_done(b, k, Span { bytes: (start, end), toks }, out);
            }
        }
    }

    /// A member name ended at its closing quote, byte `end` (it started at `start`): a repeated
    /// name stops settling (returns `false`).
    fn name_done(&mut self, b: &[u8], start: usize, end: usize) -> bool {
        let name = if self.escaped {
            // The name is a whole JSON string the reader has checked: decoded by serde_json.
            std::str::from_utf8(&b[start - 1..=end])
                .ok()
                .and_then(|t| serde_json::from_str::<String>(t).ok())
                .map_or(Name::Raw(start, end), |s| Name::Decoded(s.into_bytes().into_boxed_slice()))
        } else {
            Name::Raw(start, end)
        };
        let Some(frame) = self.frames.last() else { return true };
        let bytes = name.bytes(b);
        if self.names[frame.names_from..].iter().any(|n| tree::same_bytes(n.bytes(b), bytes)) {
            self.repeated = true;
            self.stopped = true;
            return false;
        }
        if self.frames.len() == 1 {
            let own = OWN_MEMBERS.iter().position(|m| m.as_bytes() == bytes);
            self.member = Some(Member { own, value: None });
            // Only the members the rules read are kept (as `validate_text` builds only those).
            self.keep = self.tape_ok && PLAN_MEMBERS.iter().any(|m| m.as_bytes() == bytes);
        }
        self.tok(Tok::Key(off(start), off(end), self.escaped));
        self.names.push(name);
        true
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

    /// Top-level member [`OWN_MEMBERS`]`[k]` ended: its value is at `at`.
    fn member_done(&mut self, b: &[u8], k: usize, at: Span, out: &mut Out) {
        self.seen[k] = true;
        let Out { issues, arena } = out;
        arena.reset();
        // Only these are judged against the request (`member_issues`): the others need no view of it.
        let request = match OWN_MEMBERS[k] {
            "kind" | "requestId" | "request" => arena.alloc(Node::from_value(&self.request, 1, arena)),
            _ => &Node::Null,
        };
        if let Some(value) = self.node(b, at, arena) {
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

    /// The tree of the value at `at`: from its tokens when they were kept, else from its bytes.
    fn node<'a>(&self, b: &'a [u8], at: Span, arena: &'a Bump) -> Option<Node<'a>> {
        match at.toks {
            Some((from, to)) => {
                let text = std::str::from_utf8(&b[at.bytes.0..at.bytes.1]).ok()?;
                tree::from_tape(self.tape.get(from..to)?, text, at.bytes.0, arena)
            }
            None => tree::parse(std::str::from_utf8(&b[at.bytes.0..at.bytes.1]).ok()?, arena).ok(),
        }
    }

    /// The role of a container opening now (an object when `object`), from its parent's.
    fn role_of(&self, b: &[u8], object: bool) -> Role {
        let Some(parent) = self.frames.last() else { return if object { Role::Plan } else { Role::Other } };
        let name = self.names[parent.names_from..].last().map(|n| n.bytes(b));
        match (&parent.role, object, name) {
            (Role::Plan, true, Some(b"routine")) => Role::Routine,
            (Role::Routine, false, Some(b"blocks")) => {
                Role::List { weekday: None, day: StreamDay::default(), undecided: None, known: Some(Box::default()) }
            }
            (Role::Routine, true, Some(b"weekdays")) => Role::Weekdays,
            (Role::Weekdays, false, Some(n)) => {
                match std::str::from_utf8(n).ok().filter(|n| crate::contract::weekday_index(n).is_some()) {
                    Some(w) => Role::List {
                        weekday: Some(w.into()),
                        day: StreamDay::default(),
                        undecided: None,
                        known: Some(Box::default()),
                    },
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

    /// A block object of a day's list closed: it is at `at`.
    fn block_closed(&mut self, b: &[u8], at: Span, out: &mut Out) {
        let Out { issues: settled, arena } = out;
        arena.reset();
        let node = self.node(b, at, arena);
        let Some(Frame { role: Role::List { weekday, day, undecided, known }, count, .. }) = self.frames.last_mut()
        else {
            return;
        };
        let Some(node) = node else {
            *known = None;
            return;
        };
        let before = day.clone();
        let (issues, waits) = block_issues(arena, &self.parts, weekday.as_deref(), *count - 1, &node, None, day);
        let all: Vec<Issue> = issues.all().cloned().collect();
        if waits {
            *undecided = Some(Box::new(Waiting { index: *count - 1, at, before, settled: all.clone() }));
        } else if let Some(known) = known {
            known.add(&issues);
        }
        Self::routine_issues(self.routine, &mut self.pending, all, settled);
    }

    /// A day's list goes on (`,`) or ends (`]`, `last`): a block waiting to know whether it is
    /// the last element settles the rest of its issues.
    fn list_next(&mut self, b: &[u8], last: bool, out: &mut Out) {
        let Some(Frame { role: Role::List { undecided, .. }, .. }) = self.frames.last_mut() else { return };
        let Some(waiting) = undecided.take() else { return };
        let Waiting { index, at, mut before, settled } = *waiting;
        let Out { issues: into, arena } = out;
        arena.reset();
        let node = self.node(b, at, arena);
        let Some(Frame { role: Role::List { weekday, day, known, .. }, .. }) = self.frames.last_mut() else { return };
        let Some(node) = node else {
            *known = None;
            return;
        };
        let (issues, _) = block_issues(arena, &self.parts, weekday.as_deref(), index, &node, Some(last), &mut before);
        *day = before;
        if let Some(known) = known {
            known.add(&issues);
        }
        let new: Vec<Issue> = issues.all().filter(|x| !settled.contains(x)).cloned().collect();
        Self::routine_issues(self.routine, &mut self.pending, new, into);
    }
}

/// Byte offset `i` as a tape offset (tokens are kept only while the text's offsets fit in 32 bits).
#[inline]
fn off(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The token of literal `word`.
fn literal_tok(word: &[u8]) -> Tok {
    match word {
        b"true" => Tok::True,
        b"false" => Tok::False,
        _ => Tok::Null,
    }
}

/// Whether number literal `lit` (RFC 8259 grammar) is one the core's parser accepts (D12): one
/// with a fraction or an exponent must not overflow a double (the parser's own rule,
/// `json::overflows_f64`); an integer always is.
fn finite(lit: &[u8]) -> bool {
    !lit.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
        || std::str::from_utf8(lit).is_ok_and(|s| !crate::json::overflows_f64(s))
}

/// Where the number literal starting at `b[i]` (a `-` or a digit) ends, when it is whole in `b`
/// (the byte after it is there) and follows RFC 8259's grammar to its end; `None` otherwise (the
/// reader then reads it a byte at a time).
fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let n = b.len();
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < n && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    if b[i] == b'-' {
        i += 1;
    }
    let int_start = i;
    let int_len = digits(&mut i);
    if int_len == 0 || (int_len > 1 && b[int_start] == b'0') {
        return None;
    }
    if i < n && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i < n && matches!(b[i], b'e' | b'E') {
        i += 1;
        if i < n && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    (i < n).then_some(i)
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
