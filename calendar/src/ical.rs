//! RFC 5545 content lines, both ways: writing (text escaping §3.3.11, folding §3.1) and reading
//! (unfolding §3.1, `name *(";" param) ":" value`, quoted parameter values §3.2).
//!
//! The reader is ours (see the README): small, never panics, linear in the text.

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

/// Reverses [`escape_text`] on a TEXT value read from a file: `\\ \; \, \n \N`; any other
/// backslash is kept as it is (lenient: such files exist).
pub(crate) fn unescape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(c @ ('\\' | ';' | ',' | ':' | '"')) => out.push(c),
            Some(c) => {
                out.push('\\');
                out.push(c);
            }
            None => out.push('\\'),
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

/// One logical content line read from a file.
#[derive(Debug, Clone)]
pub(crate) struct ContentLine {
    /// The 1-based line number of its first physical line.
    pub(crate) line: usize,
    /// The property name, upper-cased.
    pub(crate) name: String,
    /// The parameters in order: name upper-cased, values unquoted.
    pub(crate) params: Vec<(String, Vec<String>)>,
    /// The raw value (not unescaped).
    pub(crate) value: String,
}

impl ContentLine {
    /// The first value of parameter `name` (upper-case), if present.
    pub(crate) fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.first()).map(String::as_str)
    }
}

/// Why a file could not be read: what and on which line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineError {
    pub(crate) line: usize,
    pub(crate) message: String,
}

/// Unfolds `text` (CRLF or a bare LF; a line starting with a space or a tab continues the
/// previous one) and reads each logical line. Blank lines are skipped. At most `max_lines`
/// logical lines are read; the rest is an error (the caller's cap).
pub(crate) fn read_lines(text: &str, max_lines: usize) -> Result<Vec<ContentLine>, LineError> {
    let mut logical: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let number = i + 1;
        if let Some(rest) = raw.strip_prefix([' ', '\t']) {
            match logical.last_mut() {
                Some((_, l)) => l.push_str(rest),
                None => {
                    return Err(LineError {
                        line: number,
                        message: "a continuation line with no line before it".into(),
                    });
                }
            }
            continue;
        }
        if raw.is_empty() {
            continue;
        }
        if logical.len() >= max_lines {
            return Err(LineError { line: number, message: format!("more than {max_lines} content lines") });
        }
        logical.push((number, raw.to_owned()));
    }
    logical.into_iter().map(|(n, l)| parse_line(n, &l)).collect()
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// Reads `name *(";" param) ":" value` (RFC 5545 §3.1, §3.2).
fn parse_line(line: usize, text: &str) -> Result<ContentLine, LineError> {
    let err = |message: String| LineError { line, message };
    let name_end = text.find(|c: char| !is_name_char(c)).unwrap_or(text.len());
    let name = &text[..name_end];
    if name.is_empty() {
        return Err(err(format!("expected a property name at the start of {}", quote(text))));
    }
    let mut rest = &text[name_end..];
    let mut params = Vec::new();
    loop {
        match rest.chars().next() {
            Some(':') => break,
            Some(';') => {
                rest = &rest[1..];
                let pname_end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
                let pname = &rest[..pname_end];
                if pname.is_empty() || !rest[pname_end..].starts_with('=') {
                    return Err(err(format!("a parameter of {name} is not NAME=VALUE")));
                }
                rest = &rest[pname_end + 1..];
                let mut values = Vec::new();
                loop {
                    if let Some(q) = rest.strip_prefix('"') {
                        let Some(close) = q.find('"') else {
                            return Err(err(format!("an unclosed quoted value in parameter {pname} of {name}")));
                        };
                        values.push(q[..close].to_owned());
                        rest = &q[close + 1..];
                    } else {
                        let end = rest.find([',', ';', ':']).unwrap_or(rest.len());
                        values.push(rest[..end].to_owned());
                        rest = &rest[end..];
                    }
                    if let Some(r) = rest.strip_prefix(',') {
                        rest = r;
                    } else {
                        break;
                    }
                }
                params.push((pname.to_ascii_uppercase(), values));
            }
            _ => return Err(err(format!("expected ':' after the property name {name}"))),
        }
    }
    Ok(ContentLine { line, name: name.to_ascii_uppercase(), params, value: rest[1..].to_owned() })
}

/// A short quoted excerpt of `text` for an error message (at most 40 characters).
pub(crate) fn quote(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    let ellipsis = if short.len() < text.len() { "..." } else { "" };
    format!("\"{}{ellipsis}\"", short.escape_debug())
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
        assert_eq!(unescape_text(&escape_text(s)), "a\\b;c,d\ne\nf");
    }

    #[test]
    fn reads_params_quoted_values_and_folds() {
        let lines = read_lines("DTSTART;TZID=\"W. Europe: Standard\";X=a,b:2026\r\n 1005T090000\r\n", 10).unwrap();
        assert_eq!(lines.len(), 1);
        let l = &lines[0];
        assert_eq!(l.name, "DTSTART");
        assert_eq!(l.param("TZID"), Some("W. Europe: Standard"));
        assert_eq!(l.params[1].1, vec!["a".to_owned(), "b".to_owned()]);
        assert_eq!(l.value, "20261005T090000");
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let e = read_lines("BEGIN:VCALENDAR\r\nno colon here\r\n", 10).unwrap_err();
        assert_eq!(e.line, 2);
        let e = read_lines(" leading\r\n", 10).unwrap_err();
        assert_eq!(e.line, 1);
        let e = read_lines("A:1\nB;X=\"open:1\n", 10).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(read_lines("A:1\nB:2\nC:3\n", 2).is_err());
    }
}
