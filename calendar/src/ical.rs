//! Writing RFC 5545 content lines: text escaping (§3.3.11) and folding (§3.1).

use std::fmt::Write as _;

/// Escapes a TEXT value (RFC 5545 §3.3.11): `\` `;` `,` escaped, every line break (CRLF, CR, LF)
/// as `\n`, other control characters (which TEXT may not hold) as a space.
pub(crate) fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push('\t'),
            c if c.is_control() && (c as u32) < 0x80 => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The calendar text being written: content lines folded at 75 octets (RFC 5545 §3.1, never
/// inside a UTF-8 sequence), each ended by CRLF.
#[derive(Default)]
pub(crate) struct Writer {
    out: String,
}

impl Writer {
    /// Appends one content line (`NAME[;PARAMS]:VALUE`, already escaped), folded.
    pub(crate) fn line(&mut self, line: &str) {
        let mut width = 0;
        for c in line.chars() {
            let n = c.len_utf8();
            if width + n > 75 {
                self.out.push_str("\r\n ");
                width = 1;
            }
            self.out.push(c);
            width += n;
        }
        self.out.push_str("\r\n");
    }

    /// Appends `NAME:VALUE` with `value` escaped as TEXT.
    pub(crate) fn text(&mut self, name: &str, value: &str) {
        let mut l = String::with_capacity(name.len() + value.len() + 1);
        let _ = write!(l, "{name}:{}", escape_text(value));
        self.line(&l);
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_at_75_octets_without_splitting_characters() {
        let mut w = Writer::default();
        let long = format!("SUMMARY:{}", "é".repeat(60));
        w.line(&long);
        let text = w.finish();
        for l in text.split("\r\n").filter(|l| !l.is_empty()) {
            assert!(l.len() <= 75, "{l:?} is {} octets", l.len());
        }
        let unfolded = text.replace("\r\n ", "");
        assert_eq!(unfolded, format!("{long}\r\n"));
    }

    #[test]
    fn escapes_text() {
        let s = "a\\b;c,d\r\ne\nf";
        assert_eq!(escape_text(s), "a\\\\b\\;c\\,d\\ne\\nf");
    }
}
