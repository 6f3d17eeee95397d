//! [`JsonError`]: why text, or a host's in-memory value, is not acceptable JSON (validator.md
//! §5.1, §7, D12), with one constructor per reason that is not a grammar fault, so every reader
//! (the parser, the tree builder, each binding) words it the same way, and [`line_column`], the
//! one place a fault's position is counted. The grammar's own reasons (`expected ',' or ']' in an
//! array`, ...) stay with the parser (`tree.rs`).

use super::MAX_DEPTH;
use std::fmt;

/// Why text (or a host's in-memory value) is not acceptable JSON (validator.md §5.1, §7, D12).
///
/// The text a model reads is [`Display`](fmt::Display): `reason`, then ` at line L, column C` when
/// the fault has a position. [`Verdict::not_json`](crate::Verdict::not_json) puts it in the `json`
/// issue's message; the bindings put it in their exceptions for a request that is not JSON
/// ([`crate::Argument::not_json`]). Build in-memory faults with the constructors
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
    /// A grammar fault at byte `byte` of `text`: the parser's reasons (RFC 8259).
    pub(crate) fn at(text: &str, byte: usize, reason: impl Into<String>) -> JsonError {
        JsonError::kind_at(JsonErrorKind::Syntax, text, byte, reason)
    }

    fn kind_at(kind: JsonErrorKind, text: &str, byte: usize, reason: impl Into<String>) -> JsonError {
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

    /// [`JsonError::too_deep`] for text, at the bracket at byte `byte` of `text` that opens level
    /// [`MAX_DEPTH`]` + 1`.
    #[cold]
    #[inline(never)]
    pub(crate) fn too_deep_at(text: &str, byte: usize) -> JsonError {
        JsonError::kind_at(JsonErrorKind::TooDeep, text, byte, too_deep_reason())
    }

    /// The number literal `literal` (with a fraction or exponent) overflows to infinity (§7,
    /// `1e400`), in a value built in memory: `the number 1e400 is too large (it overflows to
    /// infinity)`, the literal cut to 40 characters.
    pub(crate) fn number_overflow(literal: &str) -> JsonError {
        JsonError::in_value(JsonErrorKind::NumberOverflow, number_overflow_reason(literal))
    }

    /// [`JsonError::number_overflow`] for text, the literal starting at byte `byte` of `text`.
    #[cold]
    #[inline(never)]
    pub(crate) fn number_overflow_at(text: &str, byte: usize, literal: &str) -> JsonError {
        JsonError::kind_at(JsonErrorKind::NumberOverflow, text, byte, number_overflow_reason(literal))
    }

    /// A `\u` escape of a lone surrogate (D12: `"\ud83d"`) at byte `byte` of `text`.
    #[cold]
    #[inline(never)]
    pub(crate) fn lone_surrogate_escape_at(text: &str, byte: usize) -> JsonError {
        JsonError::kind_at(JsonErrorKind::LoneSurrogate, text, byte, "a lone surrogate escape is not a character")
    }

    /// Bytes that are not UTF-8 (§5.1), the fault right after `valid` (the bytes before it, as text).
    pub(crate) fn invalid_utf8(valid: &str) -> JsonError {
        JsonError::kind_at(JsonErrorKind::InvalidUtf8, valid, valid.len(), "the text is not valid UTF-8")
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
fn too_deep_reason() -> String {
    format!("nesting deeper than {MAX_DEPTH} levels is not allowed")
}

/// The reason for a number literal that overflows to infinity, in one place.
fn number_overflow_reason(literal: &str) -> String {
    format!("the number {} is too large (it overflows to infinity)", crate::quote::clip(literal, 40))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_overflow_has_one_wording_in_values_and_in_text() {
        let text = "[1, 1e400]";
        let at = JsonError::number_overflow_at(text, 4, "1e400");
        let value = JsonError::number_overflow("1e400");
        assert_eq!(value.to_string(), "the number 1e400 is too large (it overflows to infinity)");
        assert_eq!(at.to_string(), format!("{value} at line 1, column 5"));
        assert_eq!((at.kind, value.kind), (JsonErrorKind::NumberOverflow, JsonErrorKind::NumberOverflow));
        let long = format!("1{}e400", "0".repeat(60));
        assert!(JsonError::number_overflow(&long).reason.contains(&format!("1{}…", "0".repeat(39))));
    }
}
