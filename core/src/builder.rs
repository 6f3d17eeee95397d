//! Building the core's tree straight from a host's values (validator.md §7, D12; issue 12 item 3):
//! a binding walks its own objects (a Python dict, a JavaScript object) once and tells a
//! [`TreeBuilder`] what it meets, value by value, as a streaming writer would be told. No JSON
//! text and no `serde_json::Value` is built in between; the builder bounds the compact size and
//! the depth as it goes, so the rules run on the result directly
//! ([`crate::validate_input`] with [`crate::Input::Tree`]).
//!
//! The tree lives in an [`Arena`] the caller owns (one allocation in the usual case). Strings
//! given to [`TreeBuilder::string`] are copied into it, so the host's objects need not outlive
//! the call; a caller that holds its strings for the arena's lifetime may lend them instead
//! ([`TreeBuilder::str`]).
//!
//! ```
//! use momentum_plan::{Arena, Input, TreeBuilder, validate_input};
//! let arena = Arena::new();
//! let mut b = TreeBuilder::new(&arena);
//! b.begin_object()?;
//! b.key("format");
//! b.string("daily-momentum-ai-plan");
//! b.key("contractVersion");
//! b.integer(1);
//! b.end_object();
//! let plan = b.finish().expect("one complete value");
//! assert_eq!(plan.size(), r#"{"format":"daily-momentum-ai-plan","contractVersion":1}"#.len());
//! let request = serde_json::json!({"requestId": "r1", "kind": "routine"});
//! let verdict = validate_input(Input::Tree(&plan), Input::Value(&request))?;
//! assert!(!verdict.valid);
//! # Ok::<(), momentum_plan::JsonError>(())
//! ```

use crate::json::{JsonError, MAX_DEPTH};
use crate::tree::{Members, Node, close_members};
use bumpalo::Bump;
use serde_json::Value;

/// The memory a [`Tree`] lives in. Create one per validation call; dropping it frees the tree.
#[derive(Debug, Default)]
pub struct Arena(pub(crate) Bump);

impl Arena {
    /// An empty arena (it allocates on first use).
    #[must_use]
    pub fn new() -> Arena {
        Arena(Bump::new())
    }

    /// An arena with room for about `bytes` bytes of tree (a plan of N bytes of compact JSON needs
    /// about 2N), so a typical plan costs one allocation.
    #[must_use]
    pub fn with_capacity(bytes: usize) -> Arena {
        Arena(Bump::with_capacity(bytes))
    }
}

/// A complete JSON value built by a [`TreeBuilder`]: the core's view of it, and a bound on the
/// size of its compact JSON (validator.md §7) counted while it was built.
#[derive(Debug, Clone, Copy)]
pub struct Tree<'a> {
    pub(crate) root: Node<'a>,
    /// The compact size in bytes were no string or member name to need an escape (every member
    /// counted, a repeated name too): at least the size, less any repeats.
    plain_size: usize,
    /// The UTF-8 bytes of every string and member name: an escape adds at most 5 bytes for each
    /// (a control character written `\u00XX`).
    string_bytes: usize,
}

impl Tree<'_> {
    /// The size in bytes of the value's compact JSON serialization (validator.md §7): what an
    /// object plan is measured by against the 262,144-byte limit. Measured by a walk of the tree
    /// (linear in its size, no text written).
    #[must_use]
    pub fn size(&self) -> usize {
        crate::json::size_of(&self.root)
    }

    /// [`Tree::size`] when it is over `limit` bytes, else `None`. The bound counted while building
    /// decides most trees without a walk: only one that may be over is measured (§5.2 shows the size
    /// of an oversized plan only).
    pub(crate) fn size_over(&self, limit: usize) -> Option<usize> {
        if self.plain_size.saturating_add(self.string_bytes.saturating_mul(5)) <= limit {
            return None;
        }
        let size = self.size();
        (size > limit).then_some(size)
    }

    /// The value as a `serde_json::Value` (numbers keep their literal), for tests and tools.
    #[must_use]
    pub fn to_value(&self) -> Value {
        self.root.into_value()
    }
}

/// An open container.
#[derive(Debug, Clone, Copy)]
enum Open<'a> {
    /// An array whose elements start at this index of `items`.
    Array(usize),
    /// An object whose members start at this index of `members`; the name of the member whose
    /// value comes next, once [`TreeBuilder::key`] gave it.
    Object(usize, Option<&'a str>),
}

/// Builds one JSON value into an [`Arena`], in document order, as a streaming JSON writer is
/// driven: scalars, `begin_*`/`end_*` around containers, [`TreeBuilder::key`] before each member
/// value. Iterative, so any host recursion is the host's; nesting beyond
/// [`MAX_DEPTH`] levels is refused at the container that would exceed it.
///
/// Misuse (a value in an object without a key, an `end_*` that does not match, a second root) is
/// never undefined behaviour and never a panic: [`TreeBuilder::finish`] then returns `None`.
#[derive(Debug)]
pub struct TreeBuilder<'a> {
    arena: &'a Bump,
    items: Vec<Node<'a>>,
    members: Vec<(&'a str, Node<'a>)>,
    open: Vec<Open<'a>>,
    root: Option<Node<'a>>,
    /// As [`Tree::plain_size`] and [`Tree::string_bytes`], so far.
    plain_size: usize,
    string_bytes: usize,
    misused: bool,
}

impl<'a> TreeBuilder<'a> {
    /// A builder writing into `arena`.
    #[must_use]
    pub fn new(arena: &'a Arena) -> TreeBuilder<'a> {
        TreeBuilder::over(&arena.0)
    }

    /// A builder writing into a bare bump arena (inside the crate).
    pub(crate) fn over(arena: &'a Bump) -> TreeBuilder<'a> {
        TreeBuilder {
            arena,
            items: Vec::with_capacity(16),
            members: Vec::with_capacity(32),
            open: Vec::with_capacity(16),
            root: None,
            plain_size: 0,
            string_bytes: 0,
            misused: false,
        }
    }

    /// The number of containers open now (0 at the top level): the level of the next container
    /// is `depth() + 1`.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.open.len()
    }

    /// Attaches a finished value to the open container (or makes it the root).
    #[inline]
    fn push(&mut self, node: Node<'a>) {
        match self.open.last_mut() {
            None if self.root.is_none() => self.root = Some(node),
            None => self.misused = true,
            Some(Open::Array(start)) => {
                self.plain_size += usize::from(self.items.len() > *start);
                self.items.push(node);
            }
            Some(Open::Object(start, key)) => match key.take() {
                Some(k) => {
                    self.plain_size += usize::from(self.members.len() > *start);
                    self.members.push((k, node));
                }
                None => self.misused = true,
            },
        }
    }

    /// `null`.
    #[inline]
    pub fn null(&mut self) {
        self.plain_size += 4;
        self.push(Node::Null);
    }

    /// `true` or `false`.
    #[inline]
    pub fn bool(&mut self, b: bool) {
        self.plain_size += if b { 4 } else { 5 };
        self.push(Node::Bool(b));
    }

    /// A string, copied into the arena. It must be text (a Rust `&str` cannot hold a lone
    /// surrogate: the host reports those itself, [`crate::HostFault::lone_surrogate`]).
    #[inline]
    pub fn string(&mut self, s: &str) {
        let s: &'a str = self.arena.alloc_str(s);
        self.str(s);
    }

    /// A string the caller lends for the arena's lifetime (no copy).
    #[inline]
    pub fn str(&mut self, s: &'a str) {
        // Quotes and the bytes; escapes are measured only if the bound says they may matter.
        self.plain_size += 2 + s.len();
        self.string_bytes += s.len();
        self.push(Node::String(s));
    }

    /// An integer (validator.md §7: a host integer is a JSON integer, exact).
    #[inline]
    pub fn integer(&mut self, i: i64) {
        // 0..=999 (most of a plan's numbers: minutes, versions) are slices of a static table.
        if let Some(text) = small_decimal(i) {
            self.number_literal(text);
            return;
        }
        let mut buf = [0u8; 20];
        let text: &'a str = self.arena.alloc_str(decimal(i, &mut buf));
        self.number_literal(text);
    }

    /// An integer of any size given as its decimal digits, with an optional leading `-` (a Python
    /// `int` beyond 64 bits). Text that is not such digits makes [`TreeBuilder::finish`] return
    /// `None`.
    pub fn integer_digits(&mut self, digits: &str) {
        let body = digits.strip_prefix('-').unwrap_or(digits);
        let well_formed =
            !body.is_empty() && body.bytes().all(|c| c.is_ascii_digit()) && (body == "0" || !body.starts_with('0'));
        if !well_formed {
            self.misused = true;
            return;
        }
        let text: &'a str = self.arena.alloc_str(digits);
        self.number_literal(text);
    }

    /// A host floating-point number, written in the core's form for in-memory floats
    /// ([`crate::float_text`]: never an integer, §7). Returns `false`, and adds nothing, when
    /// `f` is NaN or infinite: the host reports that itself ([`crate::HostFault::not_finite`]).
    pub fn float(&mut self, f: f64) -> bool {
        let Some(text) = crate::float_text(f) else { return false };
        let text: &'a str = self.arena.alloc_str(&text);
        self.number_literal(text);
        true
    }

    /// A number given as its JSON literal, kept exactly as written (validator.md §7: `30` is an
    /// integer, `30.0` and `1e3` are not; integers of any length are exact). For a host number
    /// type with its own decimal text. A literal that is not one JSON number (RFC 8259), or that
    /// overflows to infinity (`1e400`), makes [`TreeBuilder::finish`] return `None`.
    pub fn number(&mut self, literal: &str) {
        let scratch = Bump::new();
        match crate::tree::parse(literal, &scratch) {
            Ok(Node::Number(n)) if n.len() == literal.len() => {
                let text: &'a str = self.arena.alloc_str(literal);
                self.number_literal(text);
            }
            _ => self.misused = true,
        }
    }

    /// A number literal already known to follow the JSON grammar (from a parsed value).
    #[inline]
    pub(crate) fn number_literal(&mut self, text: &'a str) {
        self.plain_size += text.len();
        self.push(Node::Number(text));
    }

    /// Opens an array.
    ///
    /// # Errors
    /// [`JsonError::too_deep`] when it would be level [`MAX_DEPTH`]` + 1` (the top level is 1);
    /// nothing is opened then, and the caller stops (the plan gets the `json` verdict).
    pub fn begin_array(&mut self) -> Result<(), JsonError> {
        self.room()?;
        self.plain_size += 2;
        self.open.push(Open::Array(self.items.len()));
        Ok(())
    }

    /// Closes the innermost open container, which must be an array.
    pub fn end_array(&mut self) {
        match self.open.last() {
            Some(&Open::Array(start)) => {
                self.open.pop();
                let node = Node::Array(self.arena.alloc_slice_copy(&self.items[start..]));
                self.items.truncate(start);
                self.push(node);
            }
            _ => self.misused = true,
        }
    }

    /// Opens an object.
    ///
    /// # Errors
    /// As [`TreeBuilder::begin_array`].
    pub fn begin_object(&mut self) -> Result<(), JsonError> {
        self.room()?;
        self.plain_size += 2;
        self.open.push(Open::Object(self.members.len(), None));
        Ok(())
    }

    /// The name of the next member of the innermost open object, copied into the arena.
    #[inline]
    pub fn key(&mut self, name: &str) {
        let name: &'a str = self.arena.alloc_str(name);
        self.key_str(name);
    }

    /// As [`TreeBuilder::key`], the name lent for the arena's lifetime (no copy).
    #[inline]
    pub fn key_str(&mut self, name: &'a str) {
        match self.open.last_mut() {
            Some(Open::Object(_, key @ None)) => {
                self.plain_size += 3 + name.len();
                self.string_bytes += name.len();
                *key = Some(name);
            }
            _ => self.misused = true,
        }
    }

    /// Closes the innermost open container, which must be an object. A repeated name keeps its
    /// first position and its last value (validator.md §7).
    pub fn end_object(&mut self) {
        self.close_object(true);
    }

    /// As [`TreeBuilder::end_object`], for an object whose member names the host already knows
    /// to be distinct (a Python `dict` whose keys are all exact `str`s): the search for a repeated
    /// name is skipped. Given a repeated name anyway, the object keeps every member (a rule may
    /// read either value; the size counts all): a wrong verdict for that input, never a panic.
    pub fn end_object_distinct(&mut self) {
        self.close_object(false);
    }

    fn close_object(&mut self, dedup: bool) {
        match self.open.last() {
            Some(&Open::Object(start, None)) => {
                self.open.pop();
                let members = &self.members[start..];
                let node = Node::Object(if dedup {
                    close_members(self.arena, members)
                } else {
                    Members::distinct(self.arena, members)
                });
                self.members.truncate(start);
                self.push(node);
            }
            _ => self.misused = true,
        }
    }

    fn room(&self) -> Result<(), JsonError> {
        if self.open.len() >= MAX_DEPTH { Err(JsonError::too_deep()) } else { Ok(()) }
    }

    /// The value built, once exactly one complete value was given and every container closed;
    /// `None` after any misuse.
    #[must_use]
    pub fn finish(self) -> Option<Tree<'a>> {
        match (self.misused, self.open.is_empty(), self.root) {
            (false, true, Some(root)) => {
                Some(Tree { root, plain_size: self.plain_size, string_bytes: self.string_bytes })
            }
            _ => None,
        }
    }

    /// Imports a parsed `serde_json::Value` in one pass, strings and literals borrowed: the tree,
    /// the bound on the compact size and the checks of validator.md §7 and D12 together (at most
    /// [`MAX_DEPTH`] levels; no number with a fraction or exponent that overflows to infinity).
    /// The first fault in document order is reported.
    pub(crate) fn import(&mut self, v: &'a Value) -> Result<(), JsonError> {
        match v {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::String(s) => self.str(s),
            Value::Number(n) => {
                let s = n.as_str();
                if s.bytes().any(|c| matches!(c, b'.' | b'e' | b'E')) && crate::json::overflows_f64(s) {
                    return Err(JsonError::number_overflow(s));
                }
                self.number_literal(s);
            }
            Value::Array(a) => {
                self.begin_array()?;
                for x in a {
                    self.import(x)?;
                }
                self.end_array();
            }
            Value::Object(m) => {
                self.begin_object()?;
                for (k, x) in m {
                    self.key_str(k);
                    self.import(x)?;
                }
                self.end_object();
            }
        }
        Ok(())
    }
}

/// The ten decimal digits, by value.
const DIGITS: [u8; 10] = *b"0123456789";

/// `000`, `001`, … `999`: three digits for each of 0..=999, built at compile time.
const SMALL_DIGITS: [u8; 3000] = {
    let mut t = [0u8; 3000];
    let mut n = 0;
    while n < 1000 {
        t[3 * n] = DIGITS[n / 100];
        t[3 * n + 1] = DIGITS[n / 10 % 10];
        t[3 * n + 2] = DIGITS[n % 10];
        n += 1;
    }
    t
};

/// [`SMALL_DIGITS`] as text (checked at compile time: a static's initializer is evaluated then).
static SMALL_TEXT: &str = match std::str::from_utf8(&SMALL_DIGITS) {
    Ok(text) => text,
    Err(_) => panic!("SMALL_DIGITS holds only ASCII digits"),
};

/// The decimal text of `i` when it is in 0..=999, without leading zeros: a slice of [`SMALL_TEXT`].
fn small_decimal(i: i64) -> Option<&'static str> {
    let n = usize::try_from(i).ok().filter(|&n| n < 1000)?;
    let digits = if n >= 100 {
        3
    } else if n >= 10 {
        2
    } else {
        1
    };
    SMALL_TEXT.get(3 * n + 3 - digits..3 * n + 3)
}

/// The decimal text of `i`, written from the end of `buf` (20 bytes hold `i64::MIN`).
fn decimal(i: i64, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    let mut n = i.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    // Only ASCII digits and `-` were written.
    std::str::from_utf8(&buf[at..]).unwrap_or("0")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(f: impl FnOnce(&mut TreeBuilder<'_>)) -> Option<Value> {
        let arena = Arena::new();
        let mut b = TreeBuilder::new(&arena);
        f(&mut b);
        b.finish().map(|t| t.to_value())
    }

    #[test]
    fn size_over_measures_only_what_may_be_over() {
        let limit = 262_144;
        let one = |s: &str| {
            let arena = Arena::new();
            let mut b = TreeBuilder::new(&arena);
            b.begin_object().unwrap();
            b.key("k\u{1}");
            b.string(s);
            b.end_object();
            let t = b.finish().unwrap();
            let exact = serde_json::to_string(&t.to_value()).unwrap().len();
            assert_eq!(t.size(), exact);
            (t.size_over(limit), exact)
        };
        // Under the bound: never over.
        assert_eq!(one(&"\u{1}".repeat(1000)).0, None);
        // Plain bytes under the limit, escapes over it (each control character is 6 bytes).
        let (over, exact) = one(&"\u{1}".repeat(50_000));
        assert!(exact > limit);
        assert_eq!(over, Some(exact));
        // Over the bound, within the limit once measured: not over.
        let (over, exact) = one(&"a".repeat(60_000));
        assert!(exact <= limit);
        assert_eq!(over, None);
        // Over by plain bytes alone, by one byte.
        let n = limit - r#"{"k\u0001":""}"#.len() + 1;
        assert_eq!(one(&"a".repeat(n)), (Some(limit + 1), limit + 1));
    }

    #[test]
    fn builds_what_it_is_told_and_measures_it() {
        let text =
            r#"{"a":[1,-20,2.5,"x\"\n\u0001é",null,true,false],"b":{},"c":[],"d":123456789012345678901234567890}"#;
        let value: Value = crate::json::parse(text).unwrap_or_default();
        let arena = Arena::new();
        let mut b = TreeBuilder::new(&arena);
        b.import(&value).unwrap();
        let t = b.finish().unwrap();
        assert_eq!(t.size(), text.len());
        assert_eq!(t.to_value(), value);

        let by_hand = built(|b| {
            b.begin_object().unwrap();
            b.key("a");
            b.begin_array().unwrap();
            b.integer(1);
            b.integer(-20);
            assert!(b.float(2.5));
            b.string("x\"\n\u{1}é");
            b.null();
            b.bool(true);
            b.bool(false);
            b.end_array();
            b.key("b");
            b.begin_object().unwrap();
            b.end_object();
            b.key("c");
            b.begin_array().unwrap();
            b.end_array();
            b.key("d");
            b.integer_digits("123456789012345678901234567890");
            b.end_object();
        });
        assert_eq!(by_hand.as_ref(), Some(&value));
        let mut buf = [0u8; 20];
        for i in [0, 7, -7, 10, 1440, -1440, i64::MAX, i64::MIN, i64::MIN + 1] {
            assert_eq!(decimal(i, &mut buf), i.to_string());
        }
        for i in -2..=1001 {
            assert_eq!(small_decimal(i), (0..1000).contains(&i).then(|| i.to_string()).as_deref(), "{i}");
        }
    }

    #[test]
    // `TreeBuilder::end_array` in place of the closure is not general enough over the lifetimes.
    #[allow(clippy::redundant_closure_for_method_calls)]
    fn misuse_gives_none_never_a_panic() {
        assert_eq!(built(|_| {}), None);
        assert_eq!(built(|b| b.end_array()), None);
        assert_eq!(
            built(|b| {
                b.begin_object().unwrap();
                b.null();
                b.end_object();
            }),
            None
        );
        assert_eq!(
            built(|b| {
                b.null();
                b.null();
            }),
            None
        );
        assert_eq!(
            built(|b| {
                b.begin_array().unwrap();
                b.end_object();
            }),
            None
        );
        assert_eq!(built(|b| b.integer_digits("01")), None);
        assert_eq!(built(|b| b.integer_digits("-")), None);
        assert_eq!(built(|b| b.number("1e400")), None);
        assert_eq!(built(|b| b.number(" 1")), None);
        assert_eq!(built(|b| b.number("[1]")), None);
        assert_eq!(built(|b| b.number("1e3")), Some(serde_json::from_str::<Value>("1e3").unwrap_or_default()));
        assert!(!TreeBuilder::new(&Arena::new()).float(f64::NAN));
    }

    #[test]
    fn depth_is_bounded_and_repeated_names_keep_the_last_value() {
        let arena = Arena::new();
        let mut b = TreeBuilder::new(&arena);
        for _ in 0..MAX_DEPTH {
            b.begin_array().unwrap();
        }
        assert_eq!(b.begin_array().unwrap_err().kind, crate::JsonErrorKind::TooDeep);
        let v = built(|b| {
            b.begin_object().unwrap();
            b.key("a");
            b.integer(1);
            b.key("b");
            b.integer(2);
            b.key("a");
            b.integer(3);
            b.end_object();
        });
        assert_eq!(v, Some(serde_json::json!({"a": 3, "b": 2})));
    }

    #[test]
    fn distinct_names_skip_only_the_search() {
        let members = |b: &mut TreeBuilder<'_>| {
            b.begin_object().unwrap();
            b.key("a");
            b.integer(1);
            b.key("b");
            b.begin_array().unwrap();
            b.string("x");
            b.end_array();
        };
        let arena = Arena::new();
        let (mut checked, mut trusted) = (TreeBuilder::new(&arena), TreeBuilder::new(&arena));
        members(&mut checked);
        checked.end_object();
        members(&mut trusted);
        trusted.end_object_distinct();
        let (checked, trusted) = (checked.finish().unwrap(), trusted.finish().unwrap());
        assert_eq!(trusted.to_value(), checked.to_value());
        assert_eq!(trusted.size(), checked.size());
        assert_eq!(trusted.size(), r#"{"a":1,"b":["x"]}"#.len());
        // Misuse: a repeated name is kept twice (and measured twice).
        let mut b = TreeBuilder::new(&arena);
        b.begin_object().unwrap();
        b.key("a");
        b.integer(1);
        b.key("a");
        b.integer(2);
        b.end_object_distinct();
        let t = b.finish().unwrap();
        assert_eq!(t.size(), r#"{"a":1,"a":2}"#.len());
        assert_eq!(t.to_value(), serde_json::json!({"a": 2}), "serde_json keeps the last of two");
        assert!(matches!(t.root, Node::Object(m) if m.len() == 2));
    }
}
