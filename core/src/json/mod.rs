//! JSON as the validator reads it (validator.md D12, §7): strict reading of text and bytes, the
//! errors that say why an input is not acceptable JSON, exact numbers, and the value helpers every
//! rule shares. One file per concern:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | [`parse`], [`parse_bytes`], [`MAX_DEPTH`]: strict text to a `serde_json::Value` |
//! | `error.rs` | [`JsonError`], [`JsonErrorKind`], one constructor per reason, [`line_column`] |
//! | `number.rs` | integers (exact, clamped), exact equality of number literals, zero |
//! | `value.rs` | deep equality, emptiness, blankness, length in characters, compact size, `HH:MM` |
//!
//! Text is parsed by the core's own strict, iterative parser (`tree.rs`) into the arena tree:
//! number literals are kept as written, so integers of any length are exact; members keep their
//! order, and a duplicate name keeps the first position with the last value; depth is bounded by
//! [`MAX_DEPTH`] without recursion. [`parse`] turns that tree into a `serde_json::Value` for
//! callers that need one (`arbitrary_precision`, `preserve_order`). Values quoted in messages are
//! written by `quote.rs`, beside `messages.rs`.

mod error;
mod number;
mod value;

pub(crate) use error::code_unit;
pub use error::{JsonError, JsonErrorKind, line_column};
pub(crate) use number::{integer, integer_in, numbers_equal, overflows_f64};
pub(crate) use value::{
    char_len, deep_equal, deep_equal_opt, hhmm, is_blank, is_blank_char, is_emptyish, parse_hhmm, size_of, string_size,
};

use crate::tree::Node;
use serde_json::Value;

/// The deepest nesting that parses: the plan object counts as level 1; 513 levels are a `json`
/// error (validator.md D12, §7).
pub const MAX_DEPTH: usize = 512;

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
        JsonError::invalid_utf8(std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
