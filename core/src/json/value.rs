//! The value helpers the rules share (validator.md §5–§7): deep equality, emptiness, blankness,
//! length in characters, the compact size of a value, and `HH:MM` times read and written.

use super::number::{is_zero, numbers_equal};
use crate::tree::Node;

/// Deep equality (validator.md §5.4, §7): objects by member set (order ignored), arrays by order,
/// numbers by exact value, strings exactly, `true` never equals `1`. Iterative.
pub(crate) fn deep_equal(a: &Node<'_>, b: &Node<'_>) -> bool {
    match (a, b) {
        // Two values that are not both containers: no walk (most calls compare two strings).
        // The same container (a PlanStream compares a request with itself): equal without a walk.
        (Node::Array(_), Node::Array(_)) | (Node::Object(_), Node::Object(_)) if std::ptr::eq(a, b) => return true,
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
    fn blank_follows_python_strip() {
        assert!(is_blank(" \t\u{a0}\u{3000}\u{2003}\u{1f}\u{1c}\u{85}"));
        assert!(!is_blank("\u{200b}"));
        assert!(!is_blank("\u{feff}"));
        assert!(!is_blank("\u{180e}"));
        assert!(!is_blank("a"));
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
