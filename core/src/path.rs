//! JSONPath locations inside a plan, built from segments and rendered per validator.md §4 (D7).

use std::fmt;

/// One step of a [`JsonPath`]: an object member or an array index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment<'a> {
    /// A member name: rendered `.name` when it is an ASCII identifier, else `['name']`.
    Key(&'a str),
    /// An array index, rendered `[i]`.
    Index(usize),
}

/// A location in the plan, from its root `$` (validator.md §4).
///
/// Rendering: `.name` for names matching `[A-Za-z_][A-Za-z0-9_]*` (whole name, ASCII only),
/// `[3]` for indices, and `['...']` for any other name, with `\` and `'` escaped by a backslash
/// and nothing else escaped. Example: `$.routine.weekdays['Mon day'][0].start`.
///
/// The path is kept rendered, so [`JsonPath::as_str`] and cloning are cheap; extending a path
/// copies its text (paths are short).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JsonPath(String);

impl JsonPath {
    /// The root, `$`.
    #[must_use]
    pub fn root() -> JsonPath {
        JsonPath(String::from("$"))
    }

    /// This path extended by one segment.
    #[must_use]
    pub fn with(&self, seg: Segment<'_>) -> JsonPath {
        let mut s = String::with_capacity(self.0.len() + 16);
        s.push_str(&self.0);
        push_segment(&mut s, seg);
        JsonPath(s)
    }

    /// This path extended by a member name.
    #[must_use]
    pub fn key(&self, name: &str) -> JsonPath {
        self.with(Segment::Key(name))
    }

    /// This path extended by an array index.
    #[must_use]
    pub fn index(&self, i: usize) -> JsonPath {
        self.with(Segment::Index(i))
    }

    /// The path built from the root and `segments`, in order.
    #[must_use]
    pub fn from_segments<'a>(segments: impl IntoIterator<Item = Segment<'a>>) -> JsonPath {
        let mut s = String::from("$");
        for seg in segments {
            push_segment(&mut s, seg);
        }
        JsonPath(s)
    }

    /// The rendered path, e.g. `$.routine.blocks[2]`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The rendered path as an owned `String`.
    #[must_use]
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<JsonPath> for String {
    fn from(p: JsonPath) -> String {
        p.0
    }
}

/// A location being read by the validator: a chain of segments on the stack, rendered into a
/// path string (the same rules as [`JsonPath`]) only when an issue is recorded there, so visiting
/// a value allocates nothing.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Loc<'p> {
    /// `$`.
    Root,
    /// A member or an element of the parent location.
    Child(&'p Loc<'p>, Segment<'p>),
}

impl<'p> Loc<'p> {
    /// This location's member `name`.
    pub(crate) fn key(&'p self, name: &'p str) -> Loc<'p> {
        Loc::Child(self, Segment::Key(name))
    }

    /// This location's element `i`.
    pub(crate) fn index(&'p self, i: usize) -> Loc<'p> {
        Loc::Child(self, Segment::Index(i))
    }

    /// The last member name, for messages (`routine` for `$.routine`); `$` for the root or an index.
    pub(crate) fn tail(&self) -> &'p str {
        match self {
            Loc::Child(_, Segment::Key(name)) => name,
            _ => "$",
        }
    }

    /// The same location as an RFC 6901 JSON Pointer, e.g. `/routine/blocks/2` (the root is the empty string).
    pub(crate) fn pointer(&self) -> String {
        fn walk(l: &Loc<'_>, s: &mut String) {
            if let Loc::Child(parent, seg) = l {
                walk(parent, s);
                s.push('/');
                match seg {
                    Segment::Key(name) => s.push_str(&crate::fix::escape_pointer(name)),
                    Segment::Index(i) => s.push_str(&i.to_string()),
                }
            }
        }
        let mut s = String::with_capacity(32);
        walk(self, &mut s);
        s
    }

    /// The rendered path, e.g. `$.routine.blocks[2]` (validator.md §4, D7).
    pub(crate) fn render(&self) -> String {
        fn walk(l: &Loc<'_>, s: &mut String) {
            match l {
                Loc::Root => s.push('$'),
                Loc::Child(parent, seg) => {
                    walk(parent, s);
                    push_segment(s, *seg);
                }
            }
        }
        let mut s = String::with_capacity(32);
        walk(self, &mut s);
        s
    }
}

/// Whether `name` is written `.name` in a path: `[A-Za-z_][A-Za-z0-9_]*`, ASCII only (D7).
#[must_use]
pub(crate) fn is_identifier(name: &str) -> bool {
    let b = name.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    b[1..].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

fn push_segment(s: &mut String, seg: Segment<'_>) {
    match seg {
        Segment::Index(i) => {
            s.push('[');
            let mut digits = [0u8; 20];
            let mut n = i;
            let mut at = digits.len();
            loop {
                at -= 1;
                digits[at] = b"0123456789"[n % 10];
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            s.extend(digits[at..].iter().map(|&d| char::from(d)));
            s.push(']');
        }
        Segment::Key(name) if is_identifier(name) => {
            s.push('.');
            s.push_str(name);
        }
        Segment::Key(name) => {
            s.push_str("['");
            for ch in name.chars() {
                if ch == '\\' || ch == '\'' {
                    s.push('\\');
                }
                s.push(ch);
            }
            s.push_str("']");
        }
    }
}

/// One step of a path read back from its rendered text ([`parse`]): a member name (escapes
/// undone) or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// A member name.
    Key(String),
    /// An array index.
    Index(usize),
}

/// The steps of a rendered path (validator.md §4, D7), the inverse of [`JsonPath`]'s rendering:
/// `$`, then `.name` (an ASCII identifier), `[i]` (decimal, no leading zero) or `['...']` (any
/// name, `\\` and `\'` escaped, nothing else). A quoted name that is an identifier is accepted
/// too, though the renderer writes `.name`.
///
/// # Errors
/// The byte offset in `path` of the first character that does not fit.
pub(crate) fn parse(path: &str) -> Result<Vec<Step>, usize> {
    let b = path.as_bytes();
    if b.first() != Some(&b'$') {
        return Err(0);
    }
    let mut steps = Vec::new();
    let mut i = 1;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'.', _) => {
                let start = i + 1;
                let mut end = start;
                while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                    end += 1;
                }
                if !is_identifier(&path[start..end]) {
                    return Err(start);
                }
                steps.push(Step::Key(path[start..end].to_owned()));
                i = end;
            }
            (b'[', Some(b'\'')) => {
                let mut name = String::new();
                let mut chars = path[i + 2..].char_indices();
                let close = loop {
                    match chars.next() {
                        Some((at, '\\')) => match chars.next() {
                            Some((_, c @ ('\\' | '\''))) => name.push(c),
                            _ => return Err(i + 2 + at),
                        },
                        Some((at, '\'')) => break i + 2 + at,
                        Some((_, c)) => name.push(c),
                        None => return Err(b.len()),
                    }
                };
                if b.get(close + 1) != Some(&b']') {
                    return Err(close + 1);
                }
                steps.push(Step::Key(name));
                i = close + 2;
            }
            (b'[', _) => {
                let start = i + 1;
                let mut end = start;
                while end < b.len() && b[end].is_ascii_digit() {
                    end += 1;
                }
                let digits = &path[start..end];
                let leading_zero = digits.len() > 1 && digits.starts_with('0');
                let index = digits.parse::<usize>().map_err(|_| start).and_then(|n| {
                    if leading_zero || b.get(end) != Some(&b']') {
                        Err(if leading_zero { start } else { end })
                    } else {
                        Ok(n)
                    }
                })?;
                steps.push(Step::Index(index));
                i = end + 1;
            }
            _ => return Err(i),
        }
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_identifiers_indices_and_quoted_names() {
        let p = JsonPath::root().key("routine").key("weekdays").key("Mon day").index(0).key("start");
        assert_eq!(p.as_str(), "$.routine.weekdays['Mon day'][0].start");
        assert_eq!(JsonPath::root().key("_a9").as_str(), "$._a9");
        assert_eq!(JsonPath::root().key("9a").as_str(), "$['9a']");
        assert_eq!(JsonPath::root().key("").as_str(), "$['']");
        assert_eq!(JsonPath::root().key("it's\\").as_str(), r"$['it\'s\\']");
        assert_eq!(JsonPath::root().key("mön").as_str(), "$['mön']");
        assert_eq!(JsonPath::root().key("a\nb").as_str(), "$['a\nb']");
    }

    #[test]
    fn a_location_renders_like_the_path_it_names() {
        let root = Loc::Root;
        let (r, w) = (root.key("routine"), JsonPath::root().key("routine"));
        let (d, wd) = (r.key("weekdays"), w.key("weekdays"));
        let (m, wm) = (d.key("Mon day"), wd.key("Mon day"));
        let i = m.index(12);
        assert_eq!(i.render(), wm.index(12).as_str());
        assert_eq!(i.render(), "$.routine.weekdays['Mon day'][12]");
        assert_eq!(root.render(), "$");
        assert_eq!(i.pointer(), "/routine/weekdays/Mon day/12");
        assert_eq!(root.key("a/b~").pointer(), "/a~1b~0");
        assert_eq!(d.tail(), "weekdays");
        assert_eq!(i.tail(), "$");
    }

    #[test]
    fn from_segments_matches_builder() {
        let a = JsonPath::from_segments([Segment::Key("goal"), Segment::Key("days"), Segment::Index(3)]);
        assert_eq!(a, JsonPath::root().key("goal").key("days").index(3));
        assert_eq!(a.to_string(), "$.goal.days[3]");
    }

    #[test]
    fn parse_reads_back_every_rendering() {
        let p = JsonPath::root().key("routine").key("weekdays").key("Mon day").index(10).key("it's\\").key("a\nb");
        let steps = parse(p.as_str()).unwrap();
        let rebuilt = JsonPath::from_segments(steps.iter().map(|s| match s {
            Step::Key(k) => Segment::Key(k),
            Step::Index(i) => Segment::Index(*i),
        }));
        assert_eq!(rebuilt, p);
        assert_eq!(parse("$").unwrap(), vec![]);
        assert_eq!(parse("$['a']").unwrap(), vec![Step::Key("a".to_owned())]);
        assert_eq!(parse("$['mön'][0]").unwrap(), vec![Step::Key("mön".to_owned()), Step::Index(0)]);
    }

    #[test]
    fn parse_names_the_first_byte_that_does_not_fit() {
        for (path, at) in [
            ("", 0),
            ("routine", 0),
            ("$.", 2),
            ("$.9a", 2),
            ("$x", 1),
            ("$[01]", 2),
            ("$[]", 2),
            ("$[1", 3),
            ("$[-1]", 2),
            ("$[99999999999999999999999]", 2),
            ("$['a", 4),
            ("$['a'", 5),
            ("$['a\\n']", 4),
            ("$.a b", 3),
        ] {
            assert_eq!(parse(path), Err(at), "{path}");
        }
    }
}
