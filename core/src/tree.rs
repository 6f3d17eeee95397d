//! The validator's own JSON tree and its strict, iterative parser (validator.md D12, §7, §8): the
//! hot path of `validate_text`.
//!
//! Strings and number literals are borrowed from the text (a string is copied only when it holds
//! an escape); objects are member lists in document order. Compared with building a
//! `serde_json::Value` (an `IndexMap`, a hash and an owned `String` per member), this does a third
//! of the work. Parsing never recurses, so depth is bounded by [`MAX_DEPTH`] alone.

use crate::json::{JsonError, MAX_DEPTH};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A JSON value borrowed from plan text (or from a `serde_json::Value`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    /// A number literal exactly as written (RFC 8259 grammar, finite).
    Number(&'a str),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Members<'a>),
}

/// An object's members in document order, names unique (a duplicate name keeps the first
/// position and the last value, validator.md §7).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Members<'a>(Vec<(Cow<'a, str>, Node<'a>)>);

impl<'a> Members<'a> {
    /// The value of member `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Node<'a>)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Makes names unique: the last value wins, at the first name's position.
    fn dedup(&mut self) {
        let n = self.0.len();
        if n < 2 {
            return;
        }
        let mut keep = vec![true; n];
        let mut moves: Vec<(usize, usize)> = Vec::new(); // (first position, later duplicate)
        if n <= 16 {
            for j in 1..n {
                if let Some(i) = (0..j).find(|&i| keep[i] && self.0[i].0 == self.0[j].0) {
                    keep[j] = false;
                    moves.push((i, j));
                }
            }
        } else {
            let mut first: BTreeMap<&str, usize> = BTreeMap::new();
            for (j, (k, _)) in self.0.iter().enumerate() {
                match first.get(k.as_ref()) {
                    Some(&i) => {
                        keep[j] = false;
                        moves.push((i, j));
                    }
                    None => {
                        first.insert(k.as_ref(), j);
                    }
                }
            }
        }
        if moves.is_empty() {
            return;
        }
        for (i, j) in moves {
            let v = std::mem::replace(&mut self.0[j].1, Node::Null);
            self.0[i].1 = v;
        }
        let mut idx = 0;
        self.0.retain(|_| {
            idx += 1;
            keep[idx - 1]
        });
    }
}

impl<'a> Node<'a> {
    /// The string, when this is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The member `key` of an object (`None` for anything else).
    pub(crate) fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(m) => m.get(key),
            _ => None,
        }
    }

    /// A view of a `serde_json::Value` at nesting level `depth` (the root is 1): strings and number
    /// literals borrowed. Containers below [`MAX_DEPTH`] levels read as `null`, so the recursion
    /// is bounded whatever the caller built (plans are depth-checked before, so this only ever
    /// cuts an absurdly deep request).
    pub(crate) fn from_value(v: &'a Value, depth: usize) -> Node<'a> {
        match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.as_str()),
            Value::String(s) => Node::String(Cow::Borrowed(s)),
            _ if depth > MAX_DEPTH => Node::Null,
            Value::Array(a) => Node::Array(a.iter().map(|x| Node::from_value(x, depth + 1)).collect()),
            Value::Object(m) => Node::Object(Members(
                m.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), Node::from_value(v, depth + 1))).collect(),
            )),
        }
    }

    /// The same value as a `serde_json::Value` (numbers keep their literal).
    pub(crate) fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => n.parse::<serde_json::Number>().map_or(Value::Null, Value::Number),
            Node::String(s) => Value::String(s.into_owned()),
            Node::Array(a) => Value::Array(a.into_iter().map(Node::into_value).collect()),
            Node::Object(m) => Value::Object(m.0.into_iter().map(|(k, v)| (k.into_owned(), v.into_value())).collect()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The parser

/// The first index at or after `i` that is not inside a run of whole 8-byte words free of `"`,
/// `\\` and control characters (SWAR: one word at a time; the caller looks at the rest byte by
/// byte).
#[inline]
fn skip_plain(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let quote = x ^ (ONES * u64::from(b'"'));
        let slash = x ^ (ONES * u64::from(b'\\'));
        // A byte is zero (or below 0x20) exactly when subtracting leaves its high bit set where the
        // byte itself had none.
        let special = (quote.wrapping_sub(ONES) & !quote)
            | (slash.wrapping_sub(ONES) & !slash)
            | (x.wrapping_sub(ONES * 0x20) & !x);
        if special & HIGH != 0 {
            break;
        }
        i += 8;
    }
    i
}

enum Frame<'a> {
    Array(Vec<Node<'a>>),
    Object(Vec<(Cow<'a, str>, Node<'a>)>, Cow<'a, str>),
}

struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

/// Parses `text` as exactly one strict JSON value (RFC 8259; D12): no byte order mark, no `NaN`
/// or `Infinity`, no number overflowing to infinity, no lone surrogate escape, no raw control
/// character in a string, at most [`MAX_DEPTH`] levels. Iterative: no recursion at all.
///
/// # Errors
/// A [`JsonError`] with the reason and the 1-based line and character column of the fault.
pub(crate) fn parse(text: &str) -> Result<Node<'_>, JsonError> {
    if text.starts_with('\u{feff}') {
        return Err(JsonError::at(text, 0, "a byte order mark (U+FEFF) before the JSON text is not allowed"));
    }
    let mut p = Parser { text, b: text.as_bytes(), i: 0 };
    let v = p.document()?;
    p.ws();
    if p.i < p.b.len() {
        return Err(p.err("unexpected characters after the JSON value"));
    }
    Ok(v)
}

impl<'a> Parser<'a> {
    fn err(&self, reason: &str) -> JsonError {
        JsonError::at(self.text, self.i, reason)
    }

    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn document(&mut self) -> Result<Node<'a>, JsonError> {
        let mut stack: Vec<Frame<'a>> = Vec::new();
        'value: loop {
            self.ws();
            // Read one value, or open a container and go round for its first value.
            let mut value = match self.b.get(self.i) {
                None => return Err(self.err("unexpected end of text, a value was expected")),
                Some(b'{') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.err(&format!("nesting deeper than {MAX_DEPTH} levels is not allowed")));
                    }
                    self.i += 1;
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        Node::Object(Members::default())
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Object(Vec::with_capacity(8), key));
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.err(&format!("nesting deeper than {MAX_DEPTH} levels is not allowed")));
                    }
                    self.i += 1;
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        self.i += 1;
                        Node::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array(Vec::with_capacity(8)));
                        continue 'value;
                    }
                }
                Some(b'"') => Node::String(self.string()?),
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
                    Frame::Array(items) => {
                        items.push(value);
                        match next {
                            Some(b',') => {
                                self.i += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.i += 1;
                                let Some(Frame::Array(items)) = stack.pop() else { unreachable!() };
                                value = Node::Array(items);
                            }
                            _ => return Err(self.err("expected ',' or ']' in an array")),
                        }
                    }
                    Frame::Object(members, key) => {
                        members.push((std::mem::take(key), value));
                        match next {
                            Some(b',') => {
                                self.i += 1;
                                self.ws();
                                *key = self.key()?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.i += 1;
                                let Some(Frame::Object(members, _)) = stack.pop() else { unreachable!() };
                                let mut m = Members(members);
                                m.dedup();
                                value = Node::Object(m);
                            }
                            _ => return Err(self.err("expected ',' or '}' in an object")),
                        }
                    }
                }
            }
        }
    }

    /// A member name and its `:`.
    fn key(&mut self) -> Result<Cow<'a, str>, JsonError> {
        if self.b.get(self.i) != Some(&b'"') {
            return Err(self.err("expected a member name in double quotes"));
        }
        let k = self.string()?;
        self.ws();
        if self.b.get(self.i) != Some(&b':') {
            return Err(self.err("expected ':' after a member name"));
        }
        self.i += 1;
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
        if exotic && fraction && !lit.parse::<f64>().is_ok_and(f64::is_finite) {
            self.i = start;
            return Err(self.err("number out of range (it overflows to infinity)"));
        }
        self.i = i;
        Ok(lit)
    }

    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.i += 1; // the opening quote
        let start = self.i;
        let b = self.b;
        // Fast path: no escape. Skip eight plain bytes at a time (no quote, backslash or control
        // character), then look closer.
        self.i = skip_plain(b, self.i);
        while let Some(&c) = b.get(self.i) {
            match c {
                b'"' => {
                    let s = &self.text[start..self.i];
                    self.i += 1;
                    return Ok(Cow::Borrowed(s));
                }
                b'\\' => break,
                0..=0x1f => return Err(self.err("a control character must be escaped in a string")),
                _ => self.i = skip_plain(b, self.i + 1),
            }
        }
        let mut out = String::with_capacity(self.i - start + 16);
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
                    return Ok(Cow::Owned(out));
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
                                            self.i = at;
                                            return Err(self.err("a lone surrogate escape is not a character"));
                                        }
                                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                    } else {
                                        self.i = at;
                                        return Err(self.err("a lone surrogate escape is not a character"));
                                    }
                                }
                                0xDC00..=0xDFFF => {
                                    self.i = at;
                                    return Err(self.err("a lone surrogate escape is not a character"));
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

    fn ok(t: &str) -> Value {
        parse(t).unwrap_or_else(|e| panic!("{t}: {e}")).into_value()
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
    fn duplicate_names_keep_the_first_position_and_the_last_value() {
        assert_eq!(serde_json::to_string(&ok(r#"{"a":1,"b":2,"a":3}"#)).unwrap(), r#"{"a":3,"b":2}"#);
        let many: String = (0..40).map(|i| format!("\"k{}\":{i},", i % 20)).collect();
        let v = ok(&format!("{{{}\"z\":0}}", many));
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

    #[test]
    fn errors_give_line_and_character_column() {
        let e = parse("{\n  \"é\": tru }").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
    }
}
