//! Strict JSON reading (validator.md D12, §7) and the value helpers every rule shares: exact
//! numbers, deep equality, emptiness, blankness and compact size.
//!
//! Text is parsed by the core's own strict, iterative parser (`tree.rs`) into the arena tree:
//! number literals are kept as written, so integers of any length are exact; members keep their
//! order, and a duplicate name keeps the first position with the last value; depth is bounded by
//! [`MAX_DEPTH`] without recursion. [`parse`] turns that tree into a `serde_json::Value` for
//! callers that need one (`arbitrary_precision`, `preserve_order`).

use crate::tree::Node;
use serde_json::Value;
use std::fmt;

/// The deepest nesting that parses: the plan object counts as level 1; 513 levels are a `json`
/// error (validator.md D12, §7).
pub const MAX_DEPTH: usize = 512;

/// Why text (or a host's in-memory value) is not acceptable JSON (validator.md §5.1, §7, D12).
///
/// The text a model reads is [`Display`](fmt::Display): `reason`, then ` at line L, column C` when
/// the fault has a position. [`Verdict::not_json`](crate::Verdict::not_json) puts it in the `json`
/// issue's message; the bindings put it in their exceptions for a request that is not JSON
/// ([`crate::host::Argument::not_json`]). Build in-memory faults with the constructors
/// ([`JsonError::too_deep`], [`JsonError::lone_surrogate_in_value`],
/// [`JsonError::lone_surrogate_in_text`]) so every surface words them the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What kind of fault: lets a binding pick its exception class without reading `reason`.
    pub kind: JsonErrorKind,
    /// What is wrong, in English, e.g. `expected ',' or ']' in an array`.
    pub reason: String,
    /// 1-based line of the fault (0 when the fault has no position, e.g. an in-memory value).
    pub line: usize,
    /// 1-based column of the fault, in characters (0 when the fault has no position).
    pub column: usize,
}

/// The kind of a [`JsonError`] (validator.md D12, §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// Text that breaks the JSON grammar (RFC 8259), a byte order mark included.
    Syntax,
    /// More than [`MAX_DEPTH`] levels of nesting (§7).
    TooDeep,
    /// A lone surrogate: an escape in text (`"\\ud83d"`), or a code unit in a host string (D12).
    LoneSurrogate,
    /// A number with a fraction or exponent that overflows to infinity (`1e400`, §7).
    NumberOverflow,
    /// Bytes that are not UTF-8 (§5.1).
    InvalidUtf8,
}

impl JsonError {
    pub(crate) fn at(text: &str, byte: usize, reason: impl Into<String>) -> JsonError {
        JsonError::kind_at(JsonErrorKind::Syntax, text, byte, reason)
    }

    pub(crate) fn kind_at(kind: JsonErrorKind, text: &str, byte: usize, reason: impl Into<String>) -> JsonError {
        let (line, column) = line_column(text, byte);
        JsonError { kind, reason: reason.into(), line, column }
    }

    /// A fault of kind `kind` in a value built in memory (no line or column); `reason` is the text.
    /// Prefer the named constructors, which hold the project's one wording.
    #[must_use]
    pub fn in_value(kind: JsonErrorKind, reason: impl Into<String>) -> JsonError {
        JsonError { kind, reason: reason.into(), line: 0, column: 0 }
    }

    /// A value nested deeper than [`MAX_DEPTH`] levels, the outermost being level 1 (§7): the
    /// reason is `nesting deeper than 512 levels is not allowed`, the text the core's own parser
    /// gives (without a position).
    #[must_use]
    pub fn too_deep() -> JsonError {
        JsonError::in_value(JsonErrorKind::TooDeep, too_deep_reason())
    }

    /// A lone surrogate (the UTF-16 code unit `unit`, `0xD800..=0xDFFF`) in a host string at the
    /// JSONPath `path` (rendered by [`crate::JsonPath`]); `in_name` when the string is a member
    /// name, whose path is then the member's (D12). The reason reads
    /// `a lone surrogate (U+D83D) in the string at $.name is not a character`.
    #[must_use]
    pub fn lone_surrogate_in_value(unit: u16, path: &str, in_name: bool) -> JsonError {
        let what = if in_name { "a member name" } else { "the string" };
        JsonError::in_value(
            JsonErrorKind::LoneSurrogate,
            format!("a lone surrogate ({}) in {what} at {path} is not a character", code_unit(unit)),
        )
    }

    /// A lone surrogate (the code unit `unit`) in a host string that is JSON *text*, right after
    /// `before` (the text before it, which holds no lone surrogate): line and column in characters
    /// are counted here, once for every binding (§7: a surrogate pair is one character).
    #[must_use]
    pub fn lone_surrogate_in_text(unit: u16, before: &str) -> JsonError {
        JsonError::kind_at(
            JsonErrorKind::LoneSurrogate,
            before,
            before.len(),
            format!("a lone surrogate ({}) is not a character", code_unit(unit)),
        )
    }
}

/// `U+D83D`: a UTF-16 code unit as messages write it.
pub(crate) fn code_unit(unit: u16) -> String {
    format!("U+{unit:04X}")
}

/// The reason for nesting over [`MAX_DEPTH`], in one place.
pub(crate) fn too_deep_reason() -> String {
    format!("nesting deeper than {MAX_DEPTH} levels is not allowed")
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "{} at line {}, column {}", self.reason, self.line, self.column)
        }
    }
}

impl std::error::Error for JsonError {}

/// 1-based line and character column of byte offset `byte` in `text` (validator.md §7: a `json`
/// message gives the line and column in characters). The one place every surface counts them;
/// an offset inside a character counts from that character's start, one past the end is the
/// position after the last character.
#[must_use]
pub fn line_column(text: &str, byte: usize) -> (usize, usize) {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &text[..byte];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}

/// Parses plan or request text as strict JSON (RFC 8259, validator.md D12): no byte order mark,
/// no `NaN`/`Infinity`, no number that overflows to infinity, no lone surrogate, at most
/// [`MAX_DEPTH`] levels of nesting.
///
/// Input: UTF-8 text. Output: the value, numbers kept as written (exact).
///
/// # Errors
/// A [`JsonError`] with the reason and the 1-based line and character column of the fault.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let arena = crate::tree::arena_for(text.len());
    crate::tree::parse(text, &arena).map(Node::into_value)
}

/// Checks that `text` is strict JSON, as [`parse`] reads it, without building a value (no
/// tree: memory independent of the text's size).
///
/// # Errors
/// As [`parse`].
pub(crate) fn check_text(text: &str) -> Result<(), JsonError> {
    crate::tree::check(text)
}

/// Parses bytes that should be UTF-8 JSON text; invalid UTF-8 is a [`JsonError`] at its
/// position. Otherwise as [`parse`].
///
/// # Errors
/// As [`parse`], plus invalid UTF-8.
pub fn parse_bytes(bytes: &[u8]) -> Result<Value, JsonError> {
    utf8_text(bytes).and_then(parse)
}

/// `bytes` as text, or the `json` fault of invalid UTF-8 at its line and column (§5.1).
pub(crate) fn utf8_text(bytes: &[u8]) -> Result<&str, JsonError> {
    std::str::from_utf8(bytes).map_err(|e| {
        // The bytes before the fault are valid UTF-8 by construction.
        let text = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        JsonError::kind_at(JsonErrorKind::InvalidUtf8, text, text.len(), "the text is not valid UTF-8")
    })
}

/// Checks a parsed or in-memory value: at most [`MAX_DEPTH`] levels (the value itself is level
/// 1), and every number finite (`1e400` overflows; validator.md D12, §7). Iterative.
///
/// # Errors
/// A [`JsonError`] without position naming the fault.
pub fn check_numbers_and_depth(value: &Value) -> Result<(), JsonError> {
    checked_compact_size(value).map(|_| ())
}

/// [`check_numbers_and_depth`] and [`compact_size`] in one walk (validator.md §7, D12): the size
/// in bytes of the value's compact JSON, or the first fault the check meets. Iterative.
///
/// # Errors
/// A [`JsonError`] without position naming the fault, as [`check_numbers_and_depth`].
pub(crate) fn checked_compact_size(value: &Value) -> Result<usize, JsonError> {
    walk_value(value, true)
}

/// The one walk behind [`compact_size`] and [`checked_compact_size`]: the compact size of
/// `value`; with `check`, the first fault of [`check_numbers_and_depth`] instead (never an
/// error without `check`). Iterative, any depth.
fn walk_value(value: &Value, check: bool) -> Result<usize, JsonError> {
    let mut total = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((v, depth)) = stack.pop() {
        total += match v {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::String(s) => string_size(s),
            Value::Array(a) => {
                if check && depth > MAX_DEPTH {
                    return Err(JsonError::too_deep());
                }
                stack.extend(a.iter().map(|x| (x, depth + 1)));
                2 + a.len().saturating_sub(1)
            }
            Value::Object(m) => {
                if check && depth > MAX_DEPTH {
                    return Err(JsonError::too_deep());
                }
                stack.extend(m.values().map(|x| (x, depth + 1)));
                2 + m.len().saturating_sub(1) + m.keys().map(|k| string_size(k) + 1).sum::<usize>()
            }
            Value::Number(n) => {
                let s = n.as_str();
                if check
                    && s.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'))
                    && !s.parse::<f64>().is_ok_and(f64::is_finite)
                {
                    return Err(JsonError::in_value(
                        JsonErrorKind::NumberOverflow,
                        format!("the number {} is too large (it overflows to infinity)", clip(s, 40)),
                    ));
                }
                s.len()
            }
        };
    }
    Ok(total)
}

/// `s` cut to at most `max` characters, with `…` when cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// A value quoted as JSON for a message, cut to about 60 characters (of the first
/// [`crate::tree::QUOTE_BYTES`] bytes of its compact JSON: all a quote ever reads of a value).
pub(crate) fn quote(v: &Node<'_>) -> String {
    let mut out = String::with_capacity(32);
    write_compact(v, &mut out, crate::tree::QUOTE_BYTES);
    // At most 60 bytes is at most 60 characters: nothing to cut.
    if out.len() <= 60 { out } else { clip(&out, 60) }
}

/// A value or its absence quoted for a message.
pub(crate) fn quote_opt(v: Option<&Node<'_>>) -> String {
    v.map_or_else(|| "nothing (absent)".to_owned(), quote)
}

/// Appends the compact JSON of `v` to `out`, stopping once `out` is longer than `limit` bytes.
fn write_compact(v: &Node<'_>, out: &mut String, limit: usize) {
    if out.len() > limit {
        return;
    }
    match v {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => out.push_str(n),
        Node::String(s) => write_string(s, out),
        Node::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(x, out, limit);
                if out.len() > limit {
                    return;
                }
            }
            out.push(']');
        }
        Node::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(k, out);
                out.push(':');
                write_compact(x, out, limit);
                if out.len() > limit {
                    return;
                }
            }
            out.push('}');
        }
    }
}

/// `s` as a JSON string, escaped exactly as `serde_json` writes it (the verdict's bytes must not
/// depend on the writer): `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other control characters as
/// `\u00xx` (lower-case hex), everything else as is. Runs of plain bytes are copied whole.
pub(crate) fn write_string(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push('"');
    let mut start = 0;
    loop {
        // The next byte to escape: eight bytes at a time (the parser's scan; same byte set), then
        // the last few one by one.
        let mut i = crate::tree::skip_plain(b, start);
        while b.get(i).is_some_and(|&c| c >= 0x20 && c != b'"' && c != b'\\') {
            i += 1;
        }
        // Escaped bytes are ASCII, so both ends of the plain run are character boundaries.
        out.push_str(&s[start..i]);
        let Some(&c) = b.get(i) else { break };
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(c >> 4)]));
                out.push(char::from(HEX[usize::from(c & 0xf)]));
            }
        }
        start = i + 1;
    }
    out.push('"');
}

// ---------------------------------------------------------------------------------------------
// Numbers (validator.md §7): integers are literals without fraction or exponent; comparison is by
// exact value.

/// The value of an integer literal (written without fraction or exponent: `30.0` and `1e3` are
/// not integers), clamped to ±10^15 (far outside any minute count, so
/// comparisons with times stay exact); `None` when `v` is not an integer (booleans are not
/// numbers: D2).
pub(crate) fn integer(v: &Node<'_>) -> Option<i64> {
    const CLAMP: i64 = 1_000_000_000_000_000;
    let Node::Number(s) = v else { return None };
    let b = s.as_bytes();
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    // One pass: after its sign, a JSON number is digits up to a `.`, `e` or `E` if it has one
    // (an exponent's sign comes after the `e`), so the first non-digit makes it a non-integer.
    // The magnitude stops growing once it passes CLAMP (below it, ×10 + 9 cannot overflow).
    let mut mag: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        if mag <= CLAMP {
            mag = mag * 10 + i64::from(c - b'0');
        }
    }
    let mag = mag.min(CLAMP);
    Some(if neg { -mag } else { mag })
}

/// `v` as an integer in `lo..=hi`, else `None`.
pub(crate) fn integer_in(v: &Node<'_>, lo: i64, hi: i64) -> Option<i64> {
    integer(v).filter(|n| (lo..=hi).contains(n))
}

/// A number literal reduced to sign, significant digits and exponent, so that equal values have
/// equal forms: value = 0.`digits` × 10^`exponent` (`1`, `1.0`, `10e-1`, `0.1e1`; `-0` and `0`).
#[derive(PartialEq, Eq)]
struct Decimal {
    negative: bool,
    /// Significant digits, no leading or trailing zeros (empty for zero).
    digits: String,
    exponent: i128,
}

fn decimal(s: &str) -> Decimal {
    let (negative, rest) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, ""),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let exp: i128 = {
        let (eneg, edigits) = match exp.as_bytes().first() {
            Some(b'-') => (true, &exp[1..]),
            Some(b'+') => (false, &exp[1..]),
            _ => (false, exp),
        };
        let edigits = edigits.trim_start_matches('0');
        let m: i128 = if edigits.len() > 30 { 10i128.pow(30) } else { edigits.parse().unwrap_or(0) };
        if eneg { -m } else { m }
    };
    let all: String = int.chars().chain(frac.chars()).collect();
    let trimmed = all.trim_start_matches('0');
    let point = int.len() as i128 - (all.len() - trimmed.len()) as i128;
    let digits = trimmed.trim_end_matches('0');
    if digits.is_empty() {
        return Decimal { negative: false, digits: String::new(), exponent: 0 };
    }
    Decimal { negative, digits: digits.to_owned(), exponent: exp.saturating_add(point) }
}

/// Exact numeric equality of two number literals (`1` equals `1.0`; no rounding through floats).
pub(crate) fn numbers_equal(a: &str, b: &str) -> bool {
    a == b || decimal(a) == decimal(b)
}

/// Whether a number literal equals zero (`0`, `-0`, `0.0`, `0e5`).
pub(crate) fn is_zero(n: &str) -> bool {
    !n.split(['e', 'E']).next().unwrap_or("").bytes().any(|c| matches!(c, b'1'..=b'9'))
}

/// Deep equality (validator.md §5.4, §7): objects by member set (order ignored), arrays by order,
/// numbers by exact value, strings exactly, `true` never equals `1`. Iterative.
pub(crate) fn deep_equal(a: &Node<'_>, b: &Node<'_>) -> bool {
    match (a, b) {
        // Two values that are not both containers: no walk (most calls compare two strings).
        (Node::Array(_), Node::Array(_)) | (Node::Object(_), Node::Object(_)) => {}
        (Node::Number(x), Node::Number(y)) => return numbers_equal(x, y),
        _ => return a == b,
    }
    // Room for a request's pending pairs (about 20 for an echoed request), so the walk allocates
    // once instead of growing the stack twice.
    let mut stack: Vec<(&Node<'_>, &Node<'_>)> = Vec::with_capacity(32);
    stack.push((a, b));
    while let Some((a, b)) = stack.pop() {
        let same = match (a, b) {
            (Node::Null, Node::Null) => true,
            (Node::Bool(x), Node::Bool(y)) => x == y,
            (Node::Number(x), Node::Number(y)) => numbers_equal(x, y),
            (Node::String(x), Node::String(y)) => crate::tree::same_str(x, y),
            (Node::Array(x), Node::Array(y)) if x.len() == y.len() => {
                stack.extend(x.iter().zip(y.iter()));
                true
            }
            (Node::Object(x), Node::Object(y)) if x.len() == y.len() => {
                if x.iter().zip(y.iter()).all(|((a, _), (b, _))| crate::tree::same_str(a, b)) {
                    // Same members in the same order (the usual echo): no lookups.
                    stack.extend(x.iter().zip(y.iter()).map(|((_, a), (_, b))| (a, b)));
                    true
                } else {
                    let mut all = true;
                    for (k, xv) in x.iter() {
                        if let Some(yv) = y.get(k) {
                            stack.push((xv, yv));
                        } else {
                            all = false;
                            break;
                        }
                    }
                    all
                }
            }
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

/// Deep equality where an absent value counts as `null` (validator.md §7).
pub(crate) fn deep_equal_opt(a: Option<&Node<'_>>, b: Option<&Node<'_>>) -> bool {
    const NULL: Node<'static> = Node::Null;
    deep_equal(a.unwrap_or(&NULL), b.unwrap_or(&NULL))
}

/// Whether a value is "empty-ish" as the reference reads it (validator.md D1, §7): `null`,
/// `false`, any number equal to zero, `""`, `[]`, `{}`.
pub(crate) fn is_emptyish(v: &Node<'_>) -> bool {
    match v {
        Node::Null => true,
        Node::Bool(b) => !b,
        Node::Number(n) => is_zero(n),
        Node::String(s) => s.is_empty(),
        Node::Array(a) => a.is_empty(),
        Node::Object(m) => m.is_empty(),
    }
}

/// Whether `s` is blank: empty once white space is removed as Python's `str.strip()` defines it
/// (Unicode `White_Space` plus U+001C..U+001F; validator.md §6).
pub(crate) fn is_blank(s: &str) -> bool {
    s.chars().all(is_blank_char)
}

/// Whether `c` is white space to "blank" (validator.md §6): the one definition, also behind the
/// plan schema's non-blank pattern (§9).
pub(crate) fn is_blank_char(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Length in Unicode scalar values (validator.md §6).
pub(crate) fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Size in bytes of the compact serialization of a JSON value (validator.md §7): what the `size`
/// check measures for a plan given as an object.
/// Iterative, any depth.
#[must_use]
pub fn compact_size(v: &Value) -> usize {
    walk_value(v, false).unwrap_or_default()
}

/// Size in bytes of the compact serialization of `v` (validator.md §7): members in order,
/// separators `,` and `:`, non-ASCII raw, only the escapes JSON requires, numbers as written.
/// Iterative; no text is built.
pub(crate) fn size_of(v: &Node<'_>) -> usize {
    let mut total = 0usize;
    let mut stack: Vec<&Node<'_>> = vec![v];
    while let Some(v) = stack.pop() {
        total += match v {
            Node::Null | Node::Bool(true) => 4,
            Node::Bool(false) => 5,
            Node::Number(n) => n.len(),
            Node::String(s) => string_size(s),
            Node::Array(a) => {
                stack.extend(a.iter());
                2 + a.len().saturating_sub(1)
            }
            Node::Object(m) => {
                stack.extend(m.iter().map(|(_, v)| v));
                2 + m.len().saturating_sub(1) + m.iter().map(|(k, _)| string_size(k) + 1).sum::<usize>()
            }
        };
    }
    total
}

/// Bytes of a JSON string literal with only the required escapes.
pub(crate) fn string_size(s: &str) -> usize {
    let b = s.as_bytes();
    // Most strings need no escape: one word-at-a-time scan says so (`tree::has_special`); only a
    // string that needs one is counted byte by byte.
    if !crate::tree::has_special(b) {
        return 2 + b.len();
    }
    2 + b.len()
        + b.iter()
            .map(|&c| match c {
                b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t' => 1,
                0..=0x1f => 5,
                _ => 0,
            })
            .sum::<usize>()
}

/// Parses `HH:MM` (exactly five characters: two ASCII digits, `:`, two ASCII digits; D11) into
/// minutes after midnight, `00:00`..=`23:59` (or up to `24:00` when `allow_24` is true).
pub(crate) fn parse_hhmm(v: &Node<'_>, allow_24: bool) -> Option<u32> {
    let Node::String(s) = v else { return None };
    let b = s.as_bytes();
    if b.len() != 5 || b[2] != b':' || ![b[0], b[1], b[3], b[4]].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let h = u32::from(b[0] - b'0') * 10 + u32::from(b[1] - b'0');
    let m = u32::from(b[3] - b'0') * 10 + u32::from(b[4] - b'0');
    match (h, m) {
        (0..=23, 0..=59) => Some(h * 60 + m),
        (24, 0) if allow_24 => Some(1440),
        _ => None,
    }
}

/// Minutes after midnight as `HH:MM` (24:00 and later are written past 24, e.g. `25:30`).
pub(crate) fn hhmm(minutes: i64) -> String {
    match u8::try_from(minutes.div_euclid(60)) {
        // Two-digit hours (every time of day, and a day and a bit after it): written directly.
        Ok(h) if h < 100 => {
            #[allow(clippy::cast_possible_truncation)] // rem_euclid(60) is in 0..=59
            let m = minutes.rem_euclid(60) as u8;
            [b'0' + h / 10, b'0' + h % 10, b':', b'0' + m / 10, b'0' + m % 10].iter().map(|&c| char::from(c)).collect()
        }
        _ => format!("{:02}:{:02}", minutes.div_euclid(60), minutes.rem_euclid(60)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_hh_mm() {
        for m in [0, 5, 59, 60, 61, 599, 1439, 1440, 1500, 5999, 6000, 59_999, -1, -61, 1_000_000_000_000_000] {
            assert_eq!(hhmm(m), format!("{:02}:{:02}", m.div_euclid(60), m.rem_euclid(60)), "{m}");
        }
    }

    #[test]
    fn numbers_compare_by_exact_value() {
        let eq = |a: &str, b: &str| numbers_equal(a, b);
        assert!(eq("1", "1.0"));
        assert!(eq("1", "10e-1"));
        assert!(eq("1", "0.1e1"));
        assert!(eq("100", "1e2"));
        assert!(eq("0", "-0"));
        assert!(eq("0", "0.000e5"));
        assert!(eq("120", "120.00"));
        assert!(eq("0.5", "5e-1"));
        assert!(!eq("9007199254740993", "9007199254740992.0"));
        assert!(!eq("1", "-1"));
        assert!(!eq("1", "2"));
        assert!(!eq("12", "1.2"));
        assert!(!eq("0.01", "0.1"));
        assert!(eq("0.01", "1e-2"));
        assert!(eq("123456789012345678901234567890", "1.2345678901234567890123456789e29"));
    }

    #[test]
    fn integers_are_literals_without_fraction_or_exponent() {
        let arena = bumpalo::Bump::new();
        let v = |s: &'static str| crate::tree::parse(s, &arena).unwrap();
        assert_eq!(integer(&v("30")), Some(30));
        assert_eq!(integer(&v("-0")), Some(0));
        assert_eq!(integer(&v("30.0")), None);
        assert_eq!(integer(&v("1e3")), None);
        assert_eq!(integer(&v("true")), None);
        assert_eq!(integer(&v("100000000000000000000")), Some(1_000_000_000_000_000));
        assert_eq!(integer(&v("-100000000000000000000")), Some(-1_000_000_000_000_000));
        // around the clamp: 10^15 ± 1, 16 and 17 digits, leading zeros are not JSON
        assert_eq!(integer(&v("999999999999999")), Some(999_999_999_999_999));
        assert_eq!(integer(&v("1000000000000001")), Some(1_000_000_000_000_000));
        assert_eq!(integer(&v("-9999999999999999")), Some(-1_000_000_000_000_000));
        assert_eq!(integer(&v("99999999999999999999999999999999999999999")), Some(1_000_000_000_000_000));
        assert_eq!(integer(&v("1440")), Some(1440));
        assert_eq!(integer(&v("-1E5")), None);
        assert_eq!(integer(&v("0.5")), None);
    }

    #[test]
    fn blank_follows_python_strip() {
        assert!(is_blank(" \t\u{a0}\u{3000}\u{2003}\u{1f}\u{1c}\u{85}"));
        assert!(!is_blank("\u{200b}"));
        assert!(!is_blank("\u{feff}"));
        assert!(!is_blank("\u{180e}"));
        assert!(!is_blank("a"));
    }

    #[test]
    fn strict_text() {
        assert!(parse("\u{feff}{}").is_err());
        assert!(parse("[NaN]").is_err());
        assert!(parse("[1e400]").is_err());
        assert!(parse("[1e-400]").is_ok());
        assert!(parse("[\"\\ud83d\"]").is_err());
        assert!(parse("[\"\\ud83d\\ude00\"]").is_ok());
        let ok = "[".repeat(512) + &"]".repeat(512);
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(513) + &"]".repeat(513);
        let e = parse(&deep).unwrap_err();
        assert_eq!((e.line, e.column), (1, 513));
    }

    #[test]
    fn error_columns_count_characters() {
        let e = parse("[\"é\", x]").unwrap_err();
        assert_eq!((e.line, e.column), (1, 7));
        let e = parse("{\"a\":\n  tru}").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn string_size_is_the_length_of_the_serialized_string() {
        // Every length up to three words, each byte value (as a char where it is one) at every
        // position in a plain ASCII, a multi-byte and a space-padded string: the word-at-a-time
        // scan, its padded tail and the byte count must agree with serde_json's writer.
        let specials: Vec<char> = (0u8..0x80).map(char::from).chain(['é', '€', '😀', '\u{7f}', '\u{a0}']).collect();
        for len in 0..24 {
            for base in ['a', 'é', ' '] {
                let plain: String = std::iter::repeat_n(base, len).collect();
                assert_eq!(string_size(&plain), serde_json::to_string(&plain).unwrap().len(), "{plain:?}");
                for at in 0..len {
                    for &c in &specials {
                        let mut t: Vec<char> = plain.chars().collect();
                        t[at] = c;
                        let t: String = t.into_iter().collect();
                        assert_eq!(string_size(&t), serde_json::to_string(&t).unwrap().len(), "{t:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn compact_size_matches_serialization() {
        for t in [r#"{"a":[1,2.5,"x\"\n\u0001é"],"b":{"c":null,"d":true,"e":false},"f":[],"g":{}}"#, "[]", "\"\""] {
            let arena = bumpalo::Bump::new();
            let v = crate::tree::parse(t, &arena).unwrap();
            assert_eq!(size_of(&v), serde_json::to_string(&parse(t).unwrap()).unwrap().len(), "{t}");
            let mut out = String::new();
            write_compact(&v, &mut out, usize::MAX);
            assert_eq!(out, serde_json::to_string(&parse(t).unwrap()).unwrap());
            let value = parse(t).unwrap();
            assert_eq!(checked_compact_size(&value), Ok(out.len()), "{t}");
            assert_eq!(compact_size(&value), out.len(), "{t}");
        }
        // The checking walk reports the fault the checker always reported.
        let deep: Value = (0..MAX_DEPTH).fold(Value::Null, |v, _| Value::Array(vec![v]));
        assert_eq!(checked_compact_size(&deep), Ok(2 * MAX_DEPTH + 4), "512 brackets around null");
        let deeper = Value::Array(vec![deep]);
        assert_eq!(checked_compact_size(&deeper).unwrap_err(), check_numbers_and_depth(&deeper).unwrap_err());
        assert!(checked_compact_size(&deeper).unwrap_err().reason.contains("deeper than 512"));
        let two: Value = serde_json::from_str(r#"{"a":1e400,"b":[2e400]}"#).unwrap();
        assert_eq!(checked_compact_size(&two).unwrap_err(), check_numbers_and_depth(&two).unwrap_err());
    }

    #[test]
    fn hhmm_is_exactly_five_ascii_characters() {
        let s = |x: &'static str| Node::String(x);
        assert_eq!(parse_hhmm(&s("00:00"), false), Some(0));
        assert_eq!(parse_hhmm(&s("23:59"), false), Some(1439));
        assert_eq!(parse_hhmm(&s("24:00"), false), None);
        assert_eq!(parse_hhmm(&s("24:00"), true), Some(1440));
        assert_eq!(parse_hhmm(&s("24:01"), true), None);
        assert_eq!(parse_hhmm(&s("07:00\n"), false), None);
        assert_eq!(parse_hhmm(&s("7:00"), false), None);
        assert_eq!(parse_hhmm(&s("０７:００"), false), None);
        assert_eq!(parse_hhmm(&s("07:60"), false), None);
    }
}
