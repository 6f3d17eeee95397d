//! Values quoted in messages (validator.md §7 "Messages"): a value as compact JSON, cut to about
//! 60 characters, and JSON strings escaped exactly as `serde_json` writes them (the verdict's
//! bytes, [`crate::Verdict::to_json`]). The messages themselves are in [`crate::messages`].

use crate::tree::Node;

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

/// `s` as JSON text: a JSON string, escaped exactly as `serde_json` writes it (the verdict's writer),
/// for a binding that writes a string into JSON of its own (`momentum-plan-js`'s `valueSpan`)
/// without `serde_json`'s writer, which would cost the wasm validator module 3.7 KB (issue 32).
pub fn json_string(s: &str) -> String {
    let mut out = String::new();
    write_string(s, &mut out);
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_string_is_serde_json_s_string() {
        for s in [
            "",
            "$.routine.blocks[0]",
            "$['it\\'s']['a \"b\"']",
            "tab\there\nline\r\u{8}\u{c}\u{1}\u{1f}\u{7f}",
            "é 🎉 \u{2028}",
        ] {
            assert_eq!(json_string(s), serde_json::to_string(s).unwrap_or_default(), "{s:?}");
        }
    }

    #[test]
    fn write_compact_writes_what_serde_json_writes_and_size_of_measures() {
        for t in [r#"{"a":[1,2.5,"x\"\n\u0001é"],"b":{"c":null,"d":true,"e":false},"f":[],"g":{}}"#, "[]", "\"\""] {
            let arena = bumpalo::Bump::new();
            let v = crate::tree::parse(t, &arena).unwrap();
            let mut out = String::new();
            write_compact(&v, &mut out, usize::MAX);
            assert_eq!(out, serde_json::to_string(&crate::json::parse(t).unwrap()).unwrap());
            assert_eq!(crate::json::size_of(&v), out.len(), "{t}");
        }
    }
}
