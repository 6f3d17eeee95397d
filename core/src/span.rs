//! Where a value is in the plan's text: the span of the value a verdict's JSONPath names
//! (validator.md §4 paths, §7 line and column in characters), for code frames in a terminal and
//! highlights in an editor.
//!
//! ```
//! use momentum_plan::value_span;
//! let text = "{\n  \"routine\": {\"blocks\": [1, \"09:00\"]}\n}";
//! let span = value_span(text, "$.routine.blocks[1]").unwrap();
//! assert_eq!(&text[span.range()], "\"09:00\"");
//! assert_eq!((span.start.line, span.start.column), (2, 29));
//! assert_eq!((span.end.line, span.end.column), (2, 36));
//! ```

use crate::json::{JsonError, line_column};
use crate::path::{self, Step};
use std::fmt;
use std::ops::Range;

/// A place in text: a byte offset and its 1-based line and column, the column counted in
/// characters (Unicode scalar values) as [`line_column`] counts it (validator.md §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte offset from the start of the text (a character boundary).
    pub byte: usize,
    /// 1-based line (lines end at `\n`).
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
}

impl Position {
    fn at(text: &str, byte: usize) -> Position {
        let (line, column) = line_column(text, byte);
        Position { byte, line, column }
    }
}

/// The text of one JSON value: from its first character to just after its last (`"` of a string,
/// `}` or `]` of a container, the last digit of a number), whitespace around it excluded.
/// `end` is exclusive: the position right after the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// Where the value starts.
    pub start: Position,
    /// Just after the value's last character.
    pub end: Position,
}

impl Span {
    fn new(text: &str, bytes: Range<usize>) -> Span {
        Span { start: Position::at(text, bytes.start), end: Position::at(text, bytes.end) }
    }

    /// The byte range of the value, `start.byte..end.byte`, to slice the text with.
    #[must_use]
    pub fn range(&self) -> Range<usize> {
        self.start.byte..self.end.byte
    }
}

/// Why [`value_span`] found no span for a path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpanError {
    /// The path is not a JSONPath as validator.md §4 renders them; `at` is the byte offset in the
    /// path of the first character that does not fit.
    Path {
        /// Byte offset in the path.
        at: usize,
    },
    /// The text is not strict JSON: the core's own parse error, with its line and column (the
    /// fault a `json` issue at `$` reports, §5.1, D12).
    NotJson(JsonError),
    /// The path leads to no value, e.g. a `required` issue for a missing member, an index past
    /// an array's end, or a step into a string. `found` is the longest prefix of the path that
    /// names a value (rendered as §4 renders paths, at least `$`) and `span` is that value's span,
    /// the place to point at instead.
    Missing {
        /// The deepest existing value's path.
        found: String,
        /// The deepest existing value's span.
        span: Span,
    },
}

impl fmt::Display for SpanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpanError::Path { at } => write!(f, "not a JSONPath: unexpected character at byte {at}"),
            SpanError::NotJson(e) => write!(f, "the text is not JSON: {e}"),
            SpanError::Missing { found, .. } => write!(f, "no value at this path; the deepest value on it is {found}"),
        }
    }
}

impl std::error::Error for SpanError {}

/// The span of the value that `path` names in the JSON `text` (validator.md §4 paths): what a code
/// frame underlines for an issue of the verdict on this text.
///
/// Input: plan text (UTF-8, read strictly as the validator reads it: §7, D12) and a path rendered
/// as the verdict renders them (`$.routine.blocks[2].start`, `$.routine.weekdays['Mon day']`).
/// Output: the value's [`Span`], bytes and line/column in characters. A duplicate member name
/// names its last value, as the validator reads it (§7). Cost: one strict parse of the text,
/// then a scan up to the value; nothing is kept.
///
/// # Errors
/// [`SpanError::Path`] for a path that is not one, [`SpanError::NotJson`] for text that is not
/// JSON, [`SpanError::Missing`] (with the span of the deepest value on the path) for a path that
/// leads to no value.
pub fn value_span(text: &str, path: &str) -> Result<Span, SpanError> {
    let steps = path::parse(path).map_err(|at| SpanError::Path { at })?;
    crate::json::check_text(text).map_err(SpanError::NotJson)?;
    let b = text.as_bytes();
    let mut start = skip_ws(b, 0);
    let mut found = crate::JsonPath::root();
    for step in &steps {
        let next = match step {
            Step::Key(name) => member(text, start, name),
            Step::Index(i) => element(b, start, *i),
        };
        if let Some(at) = next {
            start = at;
            found = match step {
                Step::Key(name) => found.key(name),
                Step::Index(i) => found.index(*i),
            };
        } else {
            let span = Span::new(text, start..value_end(b, start));
            return Err(SpanError::Missing { found: found.into_string(), span });
        }
    }
    Ok(Span::new(text, start..value_end(b, start)))
}

/// The offset of the first non-whitespace byte at or after `i` (RFC 8259 whitespace).
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Just after the string whose opening quote is at `i`.
fn string_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// Just after the value that starts at `i` (the text is valid JSON: a container is closed by its
/// matching bracket, counted without recursion).
fn value_end(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = i;
            while b.get(j).is_some_and(|c| !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                j += 1;
            }
            j
        }
    }
}

/// The start of the value of member `name` of the object at `i` (its last value when the name is
/// repeated, §7), or `None` when `i` is not an object or has no such member.
fn member(text: &str, i: usize, name: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.get(i) != Some(&b'{') {
        return None;
    }
    let mut found = None;
    let mut j = skip_ws(b, i + 1);
    while b.get(j) == Some(&b'"') {
        let key_end = string_end(b, j);
        let raw = text.get(j + 1..key_end - 1)?;
        let same = if raw.contains('\\') {
            // Escapes in a name: decoded by serde_json (the text is strict JSON, so this succeeds).
            // decoded by the core's own reader (serde's deserializer would weigh on the wasm)
            crate::json::parse(text.get(j..key_end)?).ok()?.as_str() == Some(name)
        } else {
            raw == name
        };
        let value = skip_ws(b, skip_ws(b, key_end) + 1);
        if same {
            found = Some(value);
        }
        j = skip_ws(b, value_end(b, value));
        if b.get(j) != Some(&b',') {
            break;
        }
        j = skip_ws(b, j + 1);
    }
    found
}

/// The start of element `index` of the array at `i`, or `None` when `i` is not an array or is
/// shorter.
fn element(b: &[u8], i: usize, index: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = skip_ws(b, i + 1);
    if b.get(j) == Some(&b']') {
        return None;
    }
    for _ in 0..index {
        j = skip_ws(b, value_end(b, j));
        if b.get(j) != Some(&b',') {
            return None;
        }
        j = skip_ws(b, j + 1);
    }
    Some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice<'t>(text: &'t str, path: &str) -> &'t str {
        &text[value_span(text, path).unwrap().range()]
    }

    #[test]
    fn finds_values_of_every_type_at_every_depth() {
        let text = " {\"a\": [true, null, -1.5e3, \"x\\\"]\", {\"b\": {}}, []], \"c\" :\t\"d\" } ";
        assert_eq!(slice(text, "$"), &text[1..text.len() - 1]);
        assert_eq!(slice(text, "$.a"), "[true, null, -1.5e3, \"x\\\"]\", {\"b\": {}}, []]");
        assert_eq!(slice(text, "$.a[0]"), "true");
        assert_eq!(slice(text, "$.a[1]"), "null");
        assert_eq!(slice(text, "$.a[2]"), "-1.5e3");
        assert_eq!(slice(text, "$.a[3]"), "\"x\\\"]\"");
        assert_eq!(slice(text, "$.a[4].b"), "{}");
        assert_eq!(slice(text, "$.a[5]"), "[]");
        assert_eq!(slice(text, "$.c"), "\"d\"");
    }

    #[test]
    fn names_are_compared_decoded_and_a_repeated_name_is_its_last_value() {
        let text = r#"{"Mon day": 1, "it's\\": 2, "\u00e9": 3, "k": 4, "k": [5]}"#;
        assert_eq!(slice(text, "$['Mon day']"), "1");
        assert_eq!(slice(text, r"$['it\'s\\']"), "2");
        assert_eq!(slice(text, "$['é']"), "3");
        assert_eq!(slice(text, "$.k"), "[5]");
    }

    #[test]
    fn columns_count_characters_and_end_is_just_after_the_value() {
        let text = "{\"é😀\": \"ü\",\n \"b\": 12}";
        let s = value_span(text, "$['é😀']").unwrap();
        assert_eq!((s.start.byte, s.start.line, s.start.column), (11, 1, 8));
        assert_eq!((s.end.byte, s.end.line, s.end.column), (15, 1, 11));
        let s = value_span(text, "$.b").unwrap();
        assert_eq!((s.start.line, s.start.column, s.end.column), (2, 7, 9));
    }

    #[test]
    fn a_missing_value_gives_the_deepest_value_on_the_path() {
        let text = r#"{"routine": {"blocks": [{"start": "x"}], "n": "s"}}"#;
        let missing = |path| match value_span(text, path) {
            Err(SpanError::Missing { found, span }) => (found, text[span.range()].to_owned()),
            other => panic!("{path}: {other:?}"),
        };
        assert_eq!(missing("$.goal"), ("$".to_owned(), text.to_owned()));
        assert_eq!(missing("$.routine.blocks[1]").0, "$.routine.blocks");
        assert_eq!(
            missing("$.routine.blocks[0].end"),
            ("$.routine.blocks[0]".to_owned(), r#"{"start": "x"}"#.to_owned())
        );
        assert_eq!(missing("$.routine.n.x"), ("$.routine.n".to_owned(), "\"s\"".to_owned()));
        assert_eq!(missing("$.routine.n[0]").0, "$.routine.n");
        assert_eq!(missing("$.routine.blocks.x").0, "$.routine.blocks");
        assert_eq!(
            value_span("[]", "$[0]").unwrap_err().to_string(),
            "no value at this path; the deepest value on it is $"
        );
    }

    #[test]
    fn text_that_is_not_json_and_paths_that_are_not_paths_are_errors() {
        let e = value_span("{\"a\": [1,]}", "$.a").unwrap_err();
        assert_eq!(e, SpanError::NotJson(crate::json::parse("{\"a\": [1,]}").unwrap_err()));
        assert!(e.to_string().starts_with("the text is not JSON: "), "{e}");
        assert!(matches!(value_span("\u{feff}{}", "$"), Err(SpanError::NotJson(_))));
        assert_eq!(value_span("{}", "$.a.").unwrap_err(), SpanError::Path { at: 4 });
        assert_eq!(value_span("{}", "a").unwrap_err().to_string(), "not a JSONPath: unexpected character at byte 0");
    }

    #[test]
    fn deep_nesting_is_scanned_without_recursion() {
        let text = format!("{}{}", "[".repeat(512), "]".repeat(512));
        let path = format!("${}", "[0]".repeat(511));
        assert_eq!(slice(&text, &path), "[]");
    }
}
