//! The validator's own JSON tree and its strict, iterative parser (validator.md D12, §7, §8): the
//! hot path of `validate_text`.
//!
//! The tree lives in an arena ([`Bump`], one allocation per call in the usual case) and borrows
//! from the text: strings and number literals are slices of it (a string is copied into the arena
//! only when it holds an escape); arrays are slices of nodes and objects slices of members, in
//! document order. Every node is `Copy` and nothing in the tree needs dropping: freeing the arena
//! frees the tree. Compared with building a `serde_json::Value` (an `IndexMap`, a hash and an
//! owned `String` per member) this does a fraction of the work. Parsing never recurses, so depth
//! is bounded by [`MAX_DEPTH`] alone.

use crate::json::{JsonError, MAX_DEPTH};
use bumpalo::Bump;
use serde_json::Value;
use std::collections::BTreeMap;

/// A JSON value borrowed from plan text (or from a `serde_json::Value`) and from an arena.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    /// A number literal exactly as written (RFC 8259 grammar, finite).
    Number(&'a str),
    String(&'a str),
    Array(&'a [Node<'a>]),
    Object(Members<'a>),
}

/// An object's members in document order, names unique (a duplicate name keeps the first
/// position and the last value, validator.md §7).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Members<'a>(&'a [(&'a str, Node<'a>)]);

impl<'a> Members<'a> {
    /// The value of member `key`.
    #[inline]
    pub(crate) fn get(&self, key: &str) -> Option<&'a Node<'a>> {
        self.0.iter().find(|(k, _)| same_str(k, key)).map(|(_, v)| v)
    }

    /// `m` copied into `arena` as they are: for members whose names are known to be distinct.
    pub(crate) fn distinct(arena: &'a Bump, m: &[(&'a str, Node<'a>)]) -> Members<'a> {
        Members(arena.alloc_slice_copy(m))
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'a str, &'a Node<'a>)> + use<'a> {
        self.0.iter().map(|(k, v)| (*k, v))
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An arena sized for the tree of `text_len` bytes of JSON text: one allocation covers a typical
/// plan (about one node per 12 bytes of text); the arena grows by itself when it does not.
pub(crate) fn arena_for(text_len: usize) -> Bump {
    Bump::with_capacity((text_len * 2).clamp(512, 64 * 1024))
}

/// Whether `a` and `b` are the same text: `a == b` without a call to `memcmp` for the short
/// names and values plans are made of (up to 16 bytes: two overlapping loads from each, as
/// [`has_special`] reads; longer ones compare as slices).
#[inline]
pub(crate) fn same_str(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_str`] of bytes.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// Whether two names of `m` are equal (no allocation for the small objects plans are made of).
fn has_duplicate_names(m: &[(&str, Node<'_>)]) -> bool {
    if m.len() <= 16 {
        (1..m.len()).any(|j| m[..j].iter().any(|(k, _)| same_str(k, m[j].0)))
    } else {
        let mut seen = std::collections::BTreeSet::new();
        !m.iter().all(|(k, _)| seen.insert(*k))
    }
}

/// The members `m` of a closed object, copied into `arena` with unique names (validator.md §7).
pub(crate) fn close_members<'a>(arena: &'a Bump, m: &[(&'a str, Node<'a>)]) -> Members<'a> {
    if has_duplicate_names(m) { Members(arena.alloc_slice_copy(&dedup(m))) } else { Members::distinct(arena, m) }
}

/// `m` with unique names: the last value wins, at the first name's position (validator.md §7).
fn dedup<'a>(m: &[(&'a str, Node<'a>)]) -> Vec<(&'a str, Node<'a>)> {
    let mut out: Vec<(&'a str, Node<'a>)> = Vec::with_capacity(m.len());
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for &(k, v) in m {
        if let Some(&i) = first.get(k) {
            out[i].1 = v;
        } else {
            first.insert(k, out.len());
            out.push((k, v));
        }
    }
    out
}

impl<'a> Node<'a> {
    /// The string, when this is a string.
    pub(crate) fn as_str(&self) -> Option<&'a str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The member `key` of an object (`None` for anything else).
    pub(crate) fn get(&self, key: &str) -> Option<&'a Node<'a>> {
        match self {
            Node::Object(m) => m.get(key),
            _ => None,
        }
    }

    /// A view of a `serde_json::Value` at nesting level `depth` (the root is 1), its containers
    /// in `arena`, strings and number literals borrowed. Containers below [`MAX_DEPTH`] levels
    /// read as `null`, so the recursion is bounded whatever the caller built (plans are
    /// depth-checked before, so this only ever cuts an absurdly deep request).
    pub(crate) fn from_value(v: &'a Value, depth: usize, arena: &'a Bump) -> Node<'a> {
        match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.as_str()),
            Value::String(s) => Node::String(s),
            _ if depth > MAX_DEPTH => Node::Null,
            Value::Array(a) => {
                Node::Array(arena.alloc_slice_fill_iter(a.iter().map(|x| Node::from_value(x, depth + 1, arena))))
            }
            Value::Object(m) => Node::Object(Members(
                arena.alloc_slice_fill_iter(m.iter().map(|(k, v)| (k.as_str(), Node::from_value(v, depth + 1, arena)))),
            )),
        }
    }

    /// The same value as a `serde_json::Value` (numbers keep their literal).
    pub(crate) fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => n.parse::<serde_json::Number>().map_or(Value::Null, Value::Number),
            Node::String(s) => Value::String(s.to_owned()),
            Node::Array(a) => Value::Array(a.iter().map(|n| n.into_value()).collect()),
            Node::Object(m) => Value::Object(m.0.iter().map(|(k, v)| ((*k).to_owned(), v.into_value())).collect()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The parser

/// The index of the first `"`, `\\` or control character at or after `i`, found eight bytes at a
/// time (SWAR); when fewer than eight bytes are left before it, the index where they start (the
/// caller looks at those byte by byte).
#[inline(always)]
#[allow(clippy::inline_always)] // deliberate: the parser's string scan and `string_size`, inlined into each
pub(crate) fn skip_plain(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let found = special_bytes(u64::from_le_bytes(word));
        if found != 0 {
            // The lowest flagged byte is exact (a borrow only flags bytes above a true match).
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The high bit of each byte of `x` (eight bytes, little-endian) that is `"`, `\\` or below
/// 0x20, and possibly of bytes above such a byte (a borrow); zero exactly when none is.
#[inline]
pub(crate) fn special_bytes(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = x ^ (ONES * u64::from(b'"'));
    let slash = x ^ (ONES * u64::from(b'\\'));
    // A byte is zero (or below 0x20) exactly when subtracting leaves its high bit set where the
    // byte itself had none.
    let special =
        (quote.wrapping_sub(ONES) & !quote) | (slash.wrapping_sub(ONES) & !slash) | (x.wrapping_sub(ONES * 0x20) & !x);
    special & HIGH
}

/// Whether `b` holds a `"`, `\\` or control character (a byte JSON text must escape): eight
/// bytes at a time, the last word read overlapping the one before (no byte-by-byte tail, no
/// copy); a string shorter than eight bytes is read as two overlapping halves, or padded with
/// spaces.
#[inline]
pub(crate) fn has_special(b: &[u8]) -> bool {
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |at: usize| u64::from(u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4])));
    let x = match n {
        0 => return false,
        1..=3 => {
            const SPACES: u64 = 0x2020_2020_2020_2020;
            // First, middle and last byte; the other five bytes spaces.
            u64::from(b[0]) | (u64::from(b[n / 2]) << 8) | (u64::from(b[n - 1]) << 16) | (SPACES << 24)
        }
        4..=7 => half(0) | (half(n - 4) << 32),
        _ => {
            if skip_plain(b, 0) + 8 <= n {
                return true;
            }
            word(n - 8)
        }
    };
    special_bytes(x) != 0
}

/// The index of the first byte at or after `i` that is not JSON whitespace; runs of spaces
/// (pretty-printed indentation) are read eight bytes at a time. The parser's and
/// [`crate::PlanStream`]'s one whitespace scan.
#[inline]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    while let Some(&c) = b.get(i) {
        match c {
            b' ' => {
                if let Some(chunk) = b.get(i..i + 8) {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(chunk);
                    // Low bytes first: the zero bytes at the bottom are the leading spaces.
                    let x = u64::from_le_bytes(word) ^ SPACES;
                    i += if x == 0 { 8 } else { (x.trailing_zeros() / 8) as usize };
                } else {
                    i += 1;
                }
            }
            b'\t' | b'\n' | b'\r' => i += 1,
            _ => break,
        }
    }
    i
}

/// One token of JSON text a [`crate::PlanStream`] has read and checked (validator.md §10): what
/// it keeps so that no byte is read twice. Offsets are bytes of the stream's text (strings: the
/// bytes between the quotes; `escaped` when they hold a `\\` escape, decoded when built).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `{` (`true`) or `[`.
    Open(bool),
    /// `}` or `]`.
    Close,
    Key(u32, u32, bool),
    Str(u32, u32, bool),
    Num(u32, u32),
    Null,
    True,
    False,
}

/// The tree of `toks` (the tokens of whole values of a text, read and checked by a
/// [`crate::PlanStream`]: the last one is returned; `None` for none), in `arena`: the tree
/// [`parse`] builds from the same text. `text` is the part of the text from byte `base` on that
/// holds the tokens. Objects are taken to have distinct member names (a stream stops building at
/// a repeated one). Its working stacks live in the arena too (nothing else is allocated).
pub(crate) fn from_tape<'a>(toks: &[Tok], text: &'a str, base: usize, arena: &'a Bump) -> Option<Node<'a>> {
    use bumpalo::collections::Vec as ArenaVec;
    let mut stack: ArenaVec<'a, Frame<'a>> = ArenaVec::with_capacity_in(8, arena);
    let mut items: ArenaVec<'a, Node<'a>> = ArenaVec::with_capacity_in(16, arena);
    let mut members: ArenaVec<'a, (&'a str, Node<'a>)> = ArenaVec::with_capacity_in(16, arena);
    let slice = |a: u32, b: u32| tape_slice(text, base, a, b);
    // A string's text: its bytes, or (rare: escapes are few in plans) decoded by the parser.
    let string = |a: u32, b: u32, escaped: bool| -> &'a str {
        if escaped { unescape(slice(a - 1, b + 1), arena) } else { slice(a, b) }
    };
    let mut last = None;
    for &t in toks {
        let value = match t {
            Tok::Open(object) => {
                stack.push(if object { Frame::Object(members.len(), "") } else { Frame::Array(items.len()) });
                continue;
            }
            Tok::Key(a, b, e) => {
                if let Some(Frame::Object(_, key)) = stack.last_mut() {
                    *key = string(a, b, e);
                }
                continue;
            }
            Tok::Close => match stack.pop() {
                Some(Frame::Array(start)) => {
                    let v = Node::Array(arena.alloc_slice_copy(&items[start..]));
                    items.truncate(start);
                    v
                }
                Some(Frame::Object(start, _)) => {
                    let v = Node::Object(Members::distinct(arena, &members[start..]));
                    members.truncate(start);
                    v
                }
                None => continue,
            },
            Tok::Str(a, b, e) => Node::String(string(a, b, e)),
            Tok::Num(a, b) => Node::Number(slice(a, b)),
            Tok::Null => Node::Null,
            Tok::True => Node::Bool(true),
            Tok::False => Node::Bool(false),
        };
        match stack.last() {
            Some(Frame::Array(_)) => items.push(value),
            Some(Frame::Object(_, key)) => members.push((*key, value)),
            None => last = Some(value),
        }
    }
    last
}

/// How many elements a day list of a plan's `routine` may have before [`parse_plan`] hands it to
/// its [`DayLists`] one element at a time (the contract allows 40 blocks a day, so only a plan far
/// over the limit goes that way; memory, issue 27 item 7).
pub(crate) const LONG_LIST: usize = 64;

/// What [`parse_plan`] gives the elements of a long day list of the plan's `routine`: the
/// validator checks each block as it is read and keeps only its issues (validator.md §5.5–5.7).
pub(crate) trait DayLists {
    /// Lists `which` (0–6: `routine.weekdays.mon` … `sun`, 7: `routine.blocks`) are read anew: a
    /// repeated member's last value counts (§7), so what an earlier one gave is forgotten.
    fn forget(&mut self, which: std::ops::Range<usize>);
    /// Element `index` of list `which`, its tree `node` (in `arena`, freed after the call);
    /// `last`: whether it is the list's last element.
    fn element<'t>(&mut self, which: usize, index: usize, node: &'t Node<'t>, arena: &'t Bump, last: bool);
}

/// Bytes `a..b` of a text of which `text` holds the part from byte `base` on.
#[inline(always)]
#[allow(clippy::inline_always)] // deliberate: once per string and number of a stream's tape
fn tape_slice(text: &str, base: usize, a: u32, b: u32) -> &str {
    text.get(a as usize - base..b as usize - base).unwrap_or("")
}

/// The text of the JSON string `quoted` (quotes included, checked already), decoded in `arena`.
#[inline(never)]
fn unescape<'a>(quoted: &'a str, arena: &'a Bump) -> &'a str {
    match parse(quoted, arena) {
        Ok(Node::String(s)) => s,
        _ => "",
    }
}

/// An open container: where its values start on the parser's value stacks.
enum Frame<'a> {
    Array(usize),
    /// The start on the member stack, and the name of the member whose value is being read.
    Object(usize, &'a str),
}

/// The parser's working memory, kept between parses of one call (the request and the plan) so
/// the second parse allocates nothing for it.
pub(crate) struct Scratch<'a> {
    /// Values of the open arrays, innermost last (one stack for all, so no allocation per array).
    items: Vec<Node<'a>>,
    /// Members of the open objects, innermost last.
    members: Vec<(&'a str, Node<'a>)>,
    /// The open containers, innermost last.
    frames: Vec<Frame<'a>>,
    /// A string with escapes, before it is copied into the arena.
    unescaped: String,
}

impl Scratch<'_> {
    /// Room for a plan's usual nesting and widths, so a parse rarely grows a vector.
    pub(crate) fn new() -> Self {
        Scratch {
            items: Vec::with_capacity(16),
            members: Vec::with_capacity(32),
            frames: Vec::with_capacity(16),
            unescaped: String::new(),
        }
    }
}

struct Parser<'a, 's> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    arena: &'a Bump,
    s: &'s mut Scratch<'a>,
    /// Containers open around the value being read that are not on its own stack (the plan
    /// object, while [`parse_plan`] reads a member's value): counted against [`MAX_DEPTH`].
    base: usize,
}

/// Parses `text` as exactly one strict JSON value (RFC 8259; D12) into a tree in `arena`: no
/// byte order mark, no `NaN` or `Infinity`, no number overflowing to infinity, no lone surrogate
/// escape, no raw control character in a string, at most [`MAX_DEPTH`] levels. Iterative: no
/// recursion at all. A duplicate member name keeps its first position and its last value (§7).
///
/// # Errors
/// A [`JsonError`] with the reason and the 1-based line and character column of the fault.
pub(crate) fn parse<'a>(text: &'a str, arena: &'a Bump) -> Result<Node<'a>, JsonError> {
    parse_with(text, arena, &mut Scratch::new())
}

/// [`parse`] with the working memory of an earlier parse.
///
/// # Errors
/// As [`parse`].
pub(crate) fn parse_with<'a>(text: &'a str, arena: &'a Bump, scratch: &mut Scratch<'a>) -> Result<Node<'a>, JsonError> {
    let mut p = Parser::start(text, arena, scratch)?;
    let v = p.document::<true>()?;
    p.end()?;
    Ok(v)
}

/// Checks `text` exactly as [`parse_with`] judges it, building nothing (memory: the open
/// containers' frames and one decoded string at a time, whatever the text).
///
/// # Errors
/// As [`parse_with`].
pub(crate) fn check(text: &str) -> Result<(), JsonError> {
    let arena = Bump::new();
    let mut scratch = Scratch::new();
    let mut p = Parser::start(text, &arena, &mut scratch)?;
    p.document::<false>()?;
    p.end()
}

/// How many bytes of a value's compact JSON a message quotes before it stops writing
/// (`quote::quote`): a value read only to be quoted needs no more of its tree than that.
pub(crate) const QUOTE_BYTES: usize = 240;

/// Parses plan text exactly as [`parse_with`] judges it (the same errors, at the same
/// positions), building only what the rules read (issue 27 item 7: memory linear in the text with
/// a small factor, whatever its shape):
/// - a plan object keeps only its members named in `read` (the last value of a repeated name;
///   validator.md §7), in full; every other member is checked, not built;
/// - any other value keeps only the part its `type` message can quote (the first
///   [`QUOTE_BYTES`] bytes of its compact JSON; validator.md §5.1), after the whole text is checked.
///
/// - with `lists`, a day list of the plan's `routine` (`routine.blocks`, `routine.weekdays.<day>`)
///   longer than [`LONG_LIST`] elements is handed to `lists` one element at a time, each element's
///   tree freed after its call, and left in the tree as an empty array (what the rules need of it
///   the [`DayLists`] keeps): a plan with a million blocks costs the memory of one.
///
/// So the result is the tree the rules need, not the document: only for `validate_text`'s plan.
///
/// # Errors
/// As [`parse_with`].
pub(crate) fn parse_plan<'a>(
    text: &'a str,
    arena: &'a Bump,
    scratch: &mut Scratch<'a>,
    read: &[&str],
    mut lists: Option<&mut dyn DayLists>,
) -> Result<Node<'a>, JsonError> {
    let mut p = Parser::start(text, arena, scratch)?;
    p.ws();
    if p.b.get(p.i) == Some(&b'{') {
        let v = p.plan_object(read, &mut lists)?;
        p.end()?;
        return Ok(v);
    }
    // Not an object: check it all first (the errors of the full parse), then read its quotable
    // prefix from the start.
    p.document::<false>()?;
    p.end()?;
    p.i = 0;
    Ok(p.prefix(0))
}

impl<'a, 's> Parser<'a, 's> {
    /// A parser at the start of `text`, its working memory emptied; a byte order mark is the
    /// error it begins with (§7).
    fn start(text: &'a str, arena: &'a Bump, s: &'s mut Scratch<'a>) -> Result<Self, JsonError> {
        if text.starts_with('\u{feff}') {
            return Err(JsonError::at(text, 0, "a byte order mark (U+FEFF) before the JSON text is not allowed"));
        }
        s.items.clear();
        s.members.clear();
        s.frames.clear();
        Ok(Parser { text, b: text.as_bytes(), i: 0, arena, s, base: 0 })
    }
}

impl<'a> Parser<'a, '_> {
    #[cold]
    #[inline(never)]
    fn err(&self, reason: &str) -> JsonError {
        JsonError::at(self.text, self.i, reason)
    }

    /// Skips whitespace. Most calls find none (compact text, or between a value and its `,`), so
    /// that case is one comparison here; the rest is out of line.
    #[inline(always)]
    #[allow(clippy::inline_always)] // deliberate: a hot path of the parser, its fast case inlined into every caller
    fn ws(&mut self) {
        if let Some(&c) = self.b.get(self.i)
            && c > b' '
        {
            return;
        }
        self.ws_run();
    }

    /// Skips a run of whitespace ([`skip_ws`]).
    fn ws_run(&mut self) {
        self.i = skip_ws(self.b, self.i);
    }

    /// The value at `self.i` (after any whitespace). `BUILD`: whether it is built; without,
    /// the text is only checked (every error the same, nothing allocated but the open
    /// containers' frames) and the result is `null`.
    fn document<const BUILD: bool>(&mut self) -> Result<Node<'a>, JsonError> {
        let mut stack = std::mem::take(&mut self.s.frames);
        let value = self.values::<BUILD>(&mut stack);
        stack.clear();
        self.s.frames = stack;
        value
    }

    /// Only whitespace after the value, or the error the full parse gives.
    fn end(&mut self) -> Result<(), JsonError> {
        self.ws();
        if self.i < self.b.len() {
            return Err(self.err("unexpected characters after the JSON value"));
        }
        Ok(())
    }

    /// The plan object at `self.i` (its `{`), keeping only the members named in `read`, read the
    /// way [`Parser::values`] reads an object (the same errors at the same positions).
    fn plan_object(&mut self, read: &[&str], lists: &mut Option<&mut dyn DayLists>) -> Result<Node<'a>, JsonError> {
        self.i += 1;
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(Node::Object(Members::default()));
        }
        let mut kept: Vec<(&'a str, Node<'a>)> = Vec::with_capacity(read.len());
        loop {
            let key = self.key::<true>()?;
            // The member's value is one level inside the plan.
            self.base = 1;
            let wanted = read.iter().any(|n| same_str(n, key));
            let value = match lists.as_deref_mut() {
                Some(lists) if same_str(key, "routine") => self.routine_value(lists),
                _ if wanted => self.document::<true>(),
                _ => self.document::<false>(),
            };
            self.base = 0;
            let value = value?;
            if wanted {
                match kept.iter_mut().find(|(k, _)| same_str(k, key)) {
                    Some(slot) => slot.1 = value,
                    None => kept.push((key, value)),
                }
            }
            if !self.object_goes_on()? {
                return Ok(Node::Object(Members::distinct(self.arena, &kept)));
            }
        }
    }

    /// After an object's member: `,` and any white space (returns `true`) or `}` (`false`), read
    /// past, as [`Parser::values`] reads them (after any white space).
    fn object_goes_on(&mut self) -> Result<bool, JsonError> {
        self.ws();
        match self.b.get(self.i) {
            Some(b',') => {
                self.i += 1;
                self.ws();
                Ok(true)
            }
            Some(b'}') => {
                self.i += 1;
                Ok(false)
            }
            _ => Err(self.err("expected ',' or '}' in an object")),
        }
    }

    /// After an array's element: `,` (returns `true`) or `]` (`false`), read past, as
    /// [`Parser::values`] reads them (after any white space).
    fn array_goes_on(&mut self) -> Result<bool, JsonError> {
        self.ws();
        let goes_on = match self.b.get(self.i) {
            Some(b',') => true,
            Some(b']') => false,
            _ => return Err(self.err("expected ',' or ']' in an array")),
        };
        self.i += 1;
        Ok(goes_on)
    }

    /// The plan's `routine` value at `self.i` (one level inside the plan), read as
    /// [`Parser::document`] reads it (the same errors at the same positions), its day lists read by
    /// [`Parser::day_list`]. A repeated `routine` counts last (§7): `lists` forgets the earlier one.
    fn routine_value(&mut self, lists: &mut dyn DayLists) -> Result<Node<'a>, JsonError> {
        lists.forget(0..8);
        self.object_with(|p, key| {
            if same_str(key, "blocks") {
                p.day_list(7, lists)
            } else if same_str(key, "weekdays") {
                lists.forget(0..7);
                p.object_with(|p, day| match crate::contract::weekday_index(day) {
                    Some(d) => p.day_list(d, lists),
                    None => p.document::<true>(),
                })
            } else {
                p.document::<true>()
            }
        })
    }

    /// At a value (after any white space): a container opened by `open` is read past its opener
    /// (`Some(false)`), or past its closer `close` when it is empty (`Some(true)`), as
    /// [`Parser::values`] reads it; any other value is left unread (`None`).
    fn open_container(&mut self, open: u8, close: u8) -> Result<Option<bool>, JsonError> {
        self.ws();
        if self.b.get(self.i) != Some(&open) {
            return Ok(None);
        }
        self.room_for_one_more(0)?;
        self.i += 1;
        self.ws();
        let empty = self.b.get(self.i) == Some(&close);
        if empty {
            self.i += 1;
        }
        Ok(Some(empty))
    }

    /// The object at `self.i` (after any white space), each member's value read by `value` (at
    /// `self.i`, one level deeper), as [`Parser::values`] reads an object; any other value as
    /// [`Parser::document`] reads it.
    fn object_with(
        &mut self,
        mut value: impl FnMut(&mut Self, &'a str) -> Result<Node<'a>, JsonError>,
    ) -> Result<Node<'a>, JsonError> {
        match self.open_container(b'{', b'}')? {
            None => return self.document::<true>(),
            Some(true) => return Ok(Node::Object(Members::default())),
            Some(false) => {}
        }
        // The members read so far wait on the parser's member stack, as `values` keeps them.
        let start = self.s.members.len();
        let result = loop {
            let key = match self.key::<true>() {
                Ok(key) => key,
                Err(e) => break Err(e),
            };
            self.base += 1;
            let v = value(self, key);
            self.base -= 1;
            match v {
                Ok(v) => self.s.members.push((key, v)),
                Err(e) => break Err(e),
            }
            match self.object_goes_on() {
                Ok(true) => {}
                Ok(false) => break Ok(Node::Object(close_members(self.arena, &self.s.members[start..]))),
                Err(e) => break Err(e),
            }
        };
        self.s.members.truncate(start);
        result
    }

    /// Day list `which` (0–6: `routine.weekdays.mon` … `sun`, 7: `routine.blocks`) at `self.i`,
    /// read as [`Parser::document`] reads it (the same errors at the same positions): built whole
    /// up to [`LONG_LIST`] elements; a longer one goes to `lists` an element at a time (the ones
    /// built so far first), each element's tree in its own arena, freed after the call, and is
    /// left here as an empty array. A value that is not an array is read as `document` reads it.
    fn day_list(&mut self, which: usize, lists: &mut dyn DayLists) -> Result<Node<'a>, JsonError> {
        lists.forget(which..which + 1);
        match self.open_container(b'[', b']')? {
            None => return self.document::<true>(),
            Some(true) => return Ok(Node::Array(&[])),
            Some(false) => {}
        }
        // The elements built so far wait on the parser's value stack, as `values` keeps them.
        let start = self.s.items.len();
        let mut count = 0;
        self.base += 1;
        let result = loop {
            if count == LONG_LIST {
                for (i, node) in self.s.items[start..].iter().enumerate() {
                    lists.element(which, i, node, self.arena, false);
                }
                self.s.items.truncate(start);
            }
            if count < LONG_LIST {
                let node = match self.document::<true>() {
                    Ok(node) => node,
                    Err(e) => break Err(e),
                };
                let last = match self.array_goes_on() {
                    Ok(goes_on) => !goes_on,
                    Err(e) => break Err(e),
                };
                self.s.items.push(node);
                count += 1;
                if last {
                    let list = Node::Array(self.arena.alloc_slice_copy(&self.s.items[start..]));
                    self.s.items.truncate(start);
                    break Ok(list);
                }
            } else {
                // An arena and stacks of its own, freed after the element (nothing is kept).
                let (arena, mut scratch) = (Bump::new(), Scratch::new());
                let mut p =
                    Parser { text: self.text, b: self.b, i: self.i, arena: &arena, s: &mut scratch, base: self.base };
                let node = p.document::<true>();
                self.i = p.i;
                let node = match node {
                    Ok(node) => node,
                    Err(e) => break Err(e),
                };
                let last = match self.array_goes_on() {
                    Ok(goes_on) => !goes_on,
                    Err(e) => break Err(e),
                };
                lists.element(which, count, &node, &arena, last);
                count += 1;
                if last {
                    break Ok(Node::Array(&[]));
                }
            }
        };
        self.base -= 1;
        self.s.items.truncate(start);
        result
    }

    /// The value at `self.i` in text already checked whole, written from byte `start` of its
    /// compact JSON (a lower bound): only what `quote::quote` can write of it, the first
    /// [`QUOTE_BYTES`] bytes, is built. A member or element is left out only when the output
    /// before its comma already exceeds that (every value is at least one byte, every member
    /// its quoted name, `:` and one byte), so the quote of the result is the quote of the whole
    /// value; a repeated name keeps its first position and its last value (§7). Recursion is
    /// bounded by the quoted bytes (each level starts at least one byte later).
    fn prefix(&mut self, start: usize) -> Node<'a> {
        self.ws();
        let b = self.b;
        // A container that starts past the quoted bytes is never written: its type is kept, its
        // content skipped (the root starts at 0, so its own emptiness is always kept).
        if start > QUOTE_BYTES && matches!(b.get(self.i), Some(b'[' | b'{')) {
            let array = b.get(self.i) == Some(&b'[');
            self.skip();
            return if array { Node::Array(&[]) } else { Node::Object(Members::default()) };
        }
        match b.get(self.i) {
            Some(b'[') => {
                self.i += 1;
                self.ws();
                if b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Node::Array(&[]);
                }
                let mut items: Vec<Node<'a>> = Vec::new();
                let mut at = start + 1;
                loop {
                    // `at` is the least the output holds before this element, its comma included.
                    if items.is_empty() || at - 1 <= QUOTE_BYTES {
                        let item = self.prefix(at);
                        items.push(item);
                    } else {
                        self.skip();
                    }
                    at += 2;
                    self.ws();
                    if b.get(self.i) == Some(&b',') {
                        self.i += 1;
                    } else {
                        self.i += 1;
                        return Node::Array(self.arena.alloc_slice_copy(&items));
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                self.ws();
                if b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Node::Object(Members::default());
                }
                // Kept members, each with the least output before its value.
                let mut members: Vec<(&'a str, Node<'a>, usize)> = Vec::new();
                let mut at = start + 1;
                loop {
                    let key = self.key::<true>().unwrap_or_default();
                    if let Some(slot) = members.iter().position(|(k, _, _)| same_str(k, key)) {
                        let value = self.prefix(members[slot].2);
                        members[slot].1 = value;
                    } else if members.is_empty() || at - 1 <= QUOTE_BYTES {
                        let value_at = at + crate::json::string_size(key) + 1;
                        let value = self.prefix(value_at);
                        members.push((key, value, value_at));
                        at = value_at + 2;
                    } else {
                        self.skip();
                    }
                    self.ws();
                    if b.get(self.i) == Some(&b',') {
                        self.i += 1;
                        self.ws();
                    } else {
                        self.i += 1;
                        let kept: Vec<(&'a str, Node<'a>)> = members.iter().map(|&(k, v, _)| (k, v)).collect();
                        return Node::Object(Members::distinct(self.arena, &kept));
                    }
                }
            }
            // A scalar: read as the full parse reads it (the text is known to be JSON).
            _ => self.document::<true>().unwrap_or(Node::Null),
        }
    }

    /// Skips the value at `self.i` in text already checked whole.
    fn skip(&mut self) {
        let _ = self.document::<false>();
    }

    /// The value at `self.i`, containers opened on `stack` (built when `BUILD`, else only checked).
    fn values<const BUILD: bool>(&mut self, stack: &mut Vec<Frame<'a>>) -> Result<Node<'a>, JsonError> {
        'value: loop {
            self.ws();
            // Read one value, or open a container and go round for its first value.
            let mut value = match self.b.get(self.i) {
                None => return Err(self.err("unexpected end of text, a value was expected")),
                Some(b'{') => {
                    self.room_for_one_more(stack.len())?;
                    self.i += 1;
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        Node::Object(Members::default())
                    } else {
                        let key = self.key::<BUILD>()?;
                        stack.push(Frame::Object(self.s.members.len(), key));
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.room_for_one_more(stack.len())?;
                    self.i += 1;
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        self.i += 1;
                        Node::Array(&[])
                    } else {
                        stack.push(Frame::Array(self.s.items.len()));
                        continue 'value;
                    }
                }
                Some(b'"') => Node::String(self.string::<BUILD>()?),
                Some(b't') => self.literal("true", Node::Bool(true))?,
                Some(b'f') => self.literal("false", Node::Bool(false))?,
                Some(b'n') => self.literal("null", Node::Null)?,
                Some(b'-' | b'0'..=b'9') => Node::Number(self.number()?),
                Some(_) => return Err(self.err("expected a JSON value")),
            };
            // Attach the finished value to its container; close containers as they end.
            loop {
                let Some(top) = stack.last_mut() else { return Ok(value) };
                self.ws();
                let next = self.b.get(self.i).copied();
                match top {
                    Frame::Array(start) => {
                        if BUILD {
                            self.s.items.push(value);
                        }
                        match next {
                            Some(b',') => {
                                self.i += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.i += 1;
                                let start = *start;
                                stack.pop();
                                if BUILD {
                                    value = Node::Array(self.arena.alloc_slice_copy(&self.s.items[start..]));
                                    self.s.items.truncate(start);
                                }
                            }
                            _ => return Err(self.err("expected ',' or ']' in an array")),
                        }
                    }
                    Frame::Object(start, key) => {
                        if BUILD {
                            self.s.members.push((*key, value));
                        }
                        match next {
                            Some(b',') => {
                                self.i += 1;
                                self.ws();
                                *key = self.key::<BUILD>()?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.i += 1;
                                let start = *start;
                                stack.pop();
                                if BUILD {
                                    value = Node::Object(close_members(self.arena, &self.s.members[start..]));
                                    self.s.members.truncate(start);
                                }
                            }
                            _ => return Err(self.err("expected ',' or '}' in an object")),
                        }
                    }
                }
            }
        }
    }

    /// Whether a container may open inside `open` open ones (at most [`MAX_DEPTH`] levels, §7).
    fn room_for_one_more(&self, open: usize) -> Result<(), JsonError> {
        if open + self.base >= MAX_DEPTH {
            return Err(JsonError::too_deep_at(self.text, self.i));
        }
        Ok(())
    }

    /// A member name and its `:`.
    #[inline(always)]
    #[allow(clippy::inline_always)] // deliberate: a hot path of the parser, its fast case inlined into every caller
    fn key<const BUILD: bool>(&mut self) -> Result<&'a str, JsonError> {
        if self.b.get(self.i) != Some(&b'"') {
            return Err(self.err("expected a member name in double quotes"));
        }
        let k = self.string::<BUILD>()?;
        self.ws();
        if self.b.get(self.i) != Some(&b':') {
            return Err(self.err("expected ':' after a member name"));
        }
        self.i += 1;
        // The one space of `"name": value` (pretty-printed text), without a call.
        if self.b.get(self.i) == Some(&b' ') {
            self.i += 1;
        }
        Ok(k)
    }

    fn literal(&mut self, word: &str, v: Node<'a>) -> Result<Node<'a>, JsonError> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("expected a JSON value (true, false and null are lower-case; NaN and Infinity are not JSON)"))
        }
    }

    fn number(&mut self) -> Result<&'a str, JsonError> {
        let start = self.i;
        let b = self.b;
        let digits = |i: &mut usize| {
            let s = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i - s
        };
        let mut i = self.i;
        if b[i] == b'-' {
            i += 1;
        }
        let int_start = i;
        let int_len = digits(&mut i);
        if int_len == 0 {
            self.i = i;
            return Err(self.err("a number needs digits"));
        }
        if int_len > 1 && b[int_start] == b'0' {
            self.i = int_start + 1;
            return Err(self.err("a number cannot start with 0 (leading zeros are not JSON)"));
        }
        let mut exotic = int_len > 300;
        if b.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                self.i = i;
                return Err(self.err("a number needs digits after its decimal point"));
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            exotic = true;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                self.i = i;
                return Err(self.err("a number needs digits in its exponent"));
            }
        }
        let lit = &self.text[start..i];
        let fraction = i > int_start + int_len;
        if exotic && fraction && crate::json::overflows_f64(lit) {
            return Err(JsonError::number_overflow_at(self.text, start, lit));
        }
        self.i = i;
        Ok(lit)
    }

    /// A string starting at the opening quote at `self.i`: the common case (no escape, no
    /// control character) inline, the rest out of line.
    #[inline(always)]
    #[allow(clippy::inline_always)] // deliberate: a hot path of the parser, its fast case inlined into every caller
    fn string<const BUILD: bool>(&mut self) -> Result<&'a str, JsonError> {
        let start = self.i + 1;
        let end = skip_plain(self.b, start);
        if self.b.get(end) == Some(&b'"') {
            self.i = end + 1;
            return Ok(&self.text[start..end]);
        }
        self.i = end;
        self.string_rest::<BUILD>(start)
    }

    /// The rest of a string that started at `start` (after its quote), `self.i` being the first
    /// byte not known to be plain: escapes are decoded into the arena (when `BUILD`; else the
    /// string is only checked and read as `""`).
    #[inline(never)]
    fn string_rest<const BUILD: bool>(&mut self, start: usize) -> Result<&'a str, JsonError> {
        let b = self.b;
        while let Some(&c) = b.get(self.i) {
            match c {
                b'"' => {
                    let s = &self.text[start..self.i];
                    self.i += 1;
                    return Ok(s);
                }
                b'\\' => break,
                0..=0x1f => return Err(self.err("a control character must be escaped in a string")),
                _ => self.i = skip_plain(b, self.i + 1),
            }
        }
        let mut out = std::mem::take(&mut self.s.unescaped);
        out.clear();
        out.push_str(&self.text[start..self.i]);
        loop {
            let seg = self.i;
            self.i = skip_plain(b, self.i);
            while let Some(&c) = b.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[seg..self.i]);
            match b.get(self.i) {
                None => return Err(self.err("unexpected end of text inside a string")),
                Some(b'"') => {
                    self.i += 1;
                    let s = if BUILD { self.arena.alloc_str(&out) } else { "" };
                    self.s.unescaped = out;
                    return Ok(s);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(&e) = b.get(self.i) else {
                        return Err(self.err("unexpected end of text inside a string"));
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let at = self.i - 2;
                            let hi = self.hex4()?;
                            let c = match hi {
                                0xD800..=0xDBFF => {
                                    if b.get(self.i) == Some(&b'\\') && b.get(self.i + 1) == Some(&b'u') {
                                        self.i += 2;
                                        let lo = self.hex4()?;
                                        if !(0xDC00..=0xDFFF).contains(&lo) {
                                            return Err(JsonError::lone_surrogate_escape_at(self.text, at));
                                        }
                                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                    } else {
                                        return Err(JsonError::lone_surrogate_escape_at(self.text, at));
                                    }
                                }
                                0xDC00..=0xDFFF => {
                                    return Err(JsonError::lone_surrogate_escape_at(self.text, at));
                                }
                                c => c,
                            };
                            match char::from_u32(c) {
                                Some(ch) => out.push(ch),
                                None => return Err(self.err("invalid \\u escape")),
                            }
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("invalid escape in a string"));
                        }
                    }
                }
                Some(_) => return Err(self.err("a control character must be escaped in a string")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.b.get(self.i) {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.err("a \\u escape needs four hex digits")),
            };
            v = v * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    /// The tree of `t` as a `Value` (its arena freed).
    fn parse(t: &str) -> Result<Value, JsonError> {
        let arena = Bump::new();
        super::parse(t, &arena).map(Node::into_value)
    }

    fn ok(t: &str) -> Value {
        parse(t).unwrap_or_else(|e| panic!("{t}: {e}"))
    }

    #[test]
    fn parses_what_serde_json_parses_the_same_way() {
        for t in [
            r#"{"a":[1,-0,2.5e-3,1E+2,"x\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"],"b":{},"c":[],"d":null,"e":true,"f":false}"#,
            " \t\n\r[ 1 , { \"k\" : \"v\" } ] ",
            "12345678901234567890123456789012345678901234567890",
            "\"é中😀\"",
        ] {
            assert_eq!(ok(t), serde_json::from_str::<Value>(t).unwrap(), "{t}");
        }
    }

    #[test]
    fn same_str_is_string_equality() {
        // Every length to 20, a difference at every position (each of two byte values), and
        // strings of different lengths sharing a prefix: the overlapping loads must miss nothing.
        for len in 0..=20 {
            let a: String = (0..len).map(|i| char::from(b"abcdefghijklmnopqrstuvwxyz"[i % 26])).collect();
            assert!(same_str(&a, &a.clone()), "{a:?}");
            for at in 0..len {
                for c in ['Z', 'é'] {
                    let mut b: Vec<char> = a.chars().collect();
                    b[at] = c;
                    let b: String = b.into_iter().collect();
                    assert_eq!(same_str(&a, &b), a == b, "{a:?} {b:?}");
                    assert_eq!(same_str(&b, &a), a == b, "{b:?} {a:?}");
                }
            }
            assert!(!same_str(&a, &format!("{a}a")), "{a:?} and one more byte");
            assert!(!same_str(&format!("{a}a"), &a));
        }
    }

    #[test]
    fn duplicate_names_keep_the_first_position_and_the_last_value() {
        assert_eq!(serde_json::to_string(&ok(r#"{"a":1,"b":2,"a":3}"#)).unwrap(), r#"{"a":3,"b":2}"#);
        let many = (0..40).fold(String::new(), |mut s, i| {
            let _ = write!(s, "\"k{}\":{i},", i % 20);
            s
        });
        let v = ok(&format!("{{{many}\"z\":0}}"));
        assert_eq!(v.as_object().unwrap().len(), 21);
        assert_eq!(v["k3"], serde_json::json!(23));
        assert_eq!(v.as_object().unwrap().keys().next().unwrap(), "k0");
    }

    #[test]
    fn rejects_what_rfc_8259_rejects() {
        for t in [
            "",
            " ",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "[01]",
            "[1.]",
            "[.5]",
            "[-]",
            "[1e]",
            "[+1]",
            "NaN",
            "[Infinity]",
            "[1e400]",
            "[-1e400]",
            "\"\\ud83d\"",
            "\"\\ude00\"",
            "\"\\ud83d\\u0041\"",
            "\"\\x\"",
            "\"a\tb\"",
            "\"abc",
            "{'a':1}",
            "[1] [2]",
            "{\"a\" 1}",
            "{1:2}",
            "[true false]",
            "tru",
            "nul",
            "\u{feff}[]",
            "[1]//c",
            "\"\\u12\"",
        ] {
            assert!(parse(t).is_err(), "{t:?} parsed");
        }
        let long_fraction = format!("[{}.5]", "9".repeat(400));
        assert!(parse(&long_fraction).is_err());
        let long_integer = format!("[{}]", "9".repeat(4000));
        assert!(parse(&long_integer).is_ok());
        assert!(parse("[1e-400]").is_ok());
    }

    #[test]
    fn depth_is_counted_without_recursion() {
        let at = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&at(MAX_DEPTH)).is_ok());
        let e = parse(&at(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!((e.line, e.column), (1, MAX_DEPTH + 1));
        assert!(parse(&"[".repeat(1_000_000)).is_err());
    }

    /// A random JSON-like text from `seed` (a linear congruential generator, so the cases are
    /// the same on every run): containers nested and wide, repeated member names, escapes,
    /// whitespace, long strings and numbers (even seeds; odd ones only short values, so the
    /// quote cuts inside wide containers); `mutate` breaks some of it (a byte changed, dropped
    /// or the text cut), for the error paths.
    fn random_text(seed: u64, mutate: bool) -> String {
        let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mut next = move |n: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            usize::try_from((x >> 33) % n).unwrap_or(0)
        };
        let mut out = String::new();
        // Open containers, innermost last: `true` for an object.
        let mut open: Vec<bool> = Vec::new();
        let mut first = true;
        let names = ["a", "b", "format", "kind", "request", r"x\\y", r"\u00e9", "é", "routine", "a"];
        let scalars =
            ["1", "-0", "2.5e3", "true", "false", "null", "\"\"", "\"ab\"", "\"q\\\"\\n\"", "12345678901234567890"];
        for step in 0..=next(400) {
            if step > 0 && open.is_empty() {
                break;
            }
            if !first {
                out.push(',');
            }
            if next(5) == 0 {
                out.push_str([" ", "\n  ", "\t"][next(3)]);
            }
            if open.last() == Some(&true) {
                out.push('"');
                out.push_str(names[next(names.len() as u64)]);
                out.push_str("\":");
            }
            first = false;
            match if step == 0 { next(4) } else { next(10) } {
                0..=2 if open.len() < 40 => {
                    let object = next(2) == 0;
                    out.push(if object { '{' } else { '[' });
                    open.push(object);
                    first = true;
                }
                3 if !open.is_empty() && seed.is_multiple_of(2) => {
                    out.push('1');
                    out.push_str(&"0".repeat(next(300)));
                }
                4 if seed.is_multiple_of(2) => {
                    out.push('"');
                    out.push_str(&"é".repeat(next(200)));
                    out.push('"');
                }
                _ => out.push_str(scalars[next(scalars.len() as u64)]),
            }
            if !first
                && next(3) == 0
                && let Some(object) = open.pop()
            {
                out.push(if object { '}' } else { ']' });
            }
        }
        while let Some(object) = open.pop() {
            out.push(if object { '}' } else { ']' });
        }
        if mutate && !out.is_empty() {
            let mut b = out.into_bytes();
            let at = next(b.len() as u64);
            match next(3) {
                0 => b[at] = b",:[]{}\"x 1"[next(10)],
                1 => {
                    b.remove(at);
                }
                _ => b.truncate(at),
            }
            out = String::from_utf8_lossy(&b).into_owned();
        }
        out
    }

    /// How many nodes `v` holds, itself included.
    fn nodes(v: &Node<'_>) -> usize {
        1 + match v {
            Node::Array(a) => a.iter().map(nodes).sum(),
            Node::Object(m) => m.iter().map(|(_, v)| nodes(v)).sum(),
            _ => 0,
        }
    }

    #[test]
    fn the_plan_parse_keeps_what_the_rules_read_and_judges_text_as_the_full_parse() {
        let read = ["a", "format", "request", r"x\y", "é"];
        // Wide containers of the smallest values, where the quote's end is tightest: every
        // width around the cut, nested, and repeated names whose last value is shorter.
        let mut edges = Vec::new();
        for n in 1..140 {
            let ones = vec!["1"; n].join(",");
            let members = (0..n).map(|i| format!("\"{}\":1", i % 40)).collect::<Vec<_>>().join(",");
            edges.push(format!("[{ones}]"));
            edges.push(format!("[[{ones}],[{ones}]]"));
            edges.push(format!("[{{\"a\":[{ones}],\"b\":[{ones}],\"a\":0}}]"));
            edges.push(format!("[{{{members}}}]"));
            edges.push(format!("[{{\"0\":[{ones}],{members},\"0\":[]}}]"));
            edges.push(format!("[{}{ones}{}]", "[".repeat(n), "]".repeat(n)));
        }
        for t in &edges {
            let (a1, a2) = (Bump::new(), Bump::new());
            let full = super::parse(t, &a1).unwrap_or(Node::Null);
            let lean = parse_plan(t, &a2, &mut Scratch::new(), &read, None).unwrap_or(Node::Object(Members::default()));
            assert_eq!(crate::quote::quote(&full), crate::quote::quote(&lean), "{t}");
        }
        let mut kinds = [0usize; 3];
        let mut pruned = 0;
        for seed in 0..4000u64 {
            let t = random_text(seed, seed % 3 == 0);
            let (a1, a2) = (Bump::new(), Bump::new());
            let full = super::parse(&t, &a1);
            let lean = parse_plan(&t, &a2, &mut Scratch::new(), &read, None);
            assert_eq!(check(&t), full.as_ref().map(|_| ()).map_err(Clone::clone), "{t}");
            match (&full, &lean) {
                (Err(f), Err(l)) => {
                    kinds[0] += 1;
                    assert_eq!(f, l, "{t}");
                }
                (Ok(Node::Object(f)), Ok(Node::Object(l))) => {
                    kinds[1] += 1;
                    let wanted: Vec<_> = f.iter().filter(|(k, _)| read.contains(k)).collect();
                    assert_eq!(l.iter().collect::<Vec<_>>(), wanted, "{t}");
                }
                (Ok(f), Ok(l)) => {
                    kinds[2] += 1;
                    assert_eq!(std::mem::discriminant(f), std::mem::discriminant(l), "{t}");
                    assert_eq!(crate::json::is_emptyish(f), crate::json::is_emptyish(l), "{t}");
                    assert_eq!(crate::quote::quote(f), crate::quote::quote(l), "{t}");
                    // Only the quoted part is kept: a bounded number of nodes, whatever the text.
                    assert!(nodes(l) <= 2 * QUOTE_BYTES, "{t}: {} nodes kept", nodes(l));
                    pruned += usize::from(nodes(l) < nodes(f));
                }
                _ => panic!("{t}: {full:?} but {lean:?}"),
            }
        }
        // Every kind of case was met often.
        assert!(kinds.iter().all(|&n| n > 400), "{kinds:?}");
        assert!(pruned > 100, "{pruned} of {} values were cut", kinds[2]);
    }

    #[test]
    fn errors_give_line_and_character_column() {
        let e = parse("{\n  \"é\": tru }").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
    }
}
