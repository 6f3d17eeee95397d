//! Support of the `stream_completion` target (issue 31, validator.md §10): a prefix of a JSON
//! plan text cut anywhere ([`cut`]), a generated completion of it that repeats no member name
//! ([`complete`]), and the assertions on a `PlanStream` fed the completed text in chunks
//! ([`check_stream`]).

use crate::{gen_key, gen_plan, gen_string, gen_value};
use arbitrary::{Result, Unstructured};
use momentum_plan::{Issue, PlanStream, Value, Verdict, validate_bytes};

/// An open container of the prefix: an object's member names so far (decoded), or an array.
#[derive(Debug, Clone)]
pub struct Open {
    /// `Some(names)` for an object, `None` for an array.
    pub names: Option<Vec<String>>,
}

/// What the prefix expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// A value; `close`: right after `[`, so `]` may come instead.
    Value {
        /// Whether `]` may come instead.
        close: bool,
    },
    /// Right after `{`: a member name or `}`.
    NameOrClose,
    /// After `,` in an object: a member name.
    Name,
    /// After a member name: `:`.
    Colon,
    /// After a value: `,` or the container's closer (nothing at the top).
    After,
    /// Inside a string that starts (its `"`) at byte `start`; `name`: a member name.
    InString {
        /// Whether the string is a member name.
        name: bool,
        /// Where its opening quote is.
        start: usize,
    },
}

/// The prefix of JSON text `t` cut at about byte `at`: the cut moves back to the start of a
/// number, a literal, an escape or a UTF-8 sequence it falls inside, so the prefix can always be
/// completed. Returns the cut, the open containers (outermost first) and what comes next.
pub fn cut(t: &str, at: usize) -> (usize, Vec<Open>, Next) {
    let b = t.as_bytes();
    let mut cut = at.min(b.len());
    while !t.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut next = Next::Value { close: false };
    let mut i = 0;
    while i < cut {
        let c = b[i];
        if let Next::InString { name, start } = next {
            match c {
                b'\\' => {
                    let len = if b.get(i + 1) == Some(&b'u') { 6 } else { 2 };
                    if i + len > cut {
                        return (i, stack, next);
                    }
                    i += len;
                }
                b'"' => {
                    if name {
                        let decoded: String = serde_json::from_str(&t[start..=i]).unwrap_or_default();
                        if let Some(Open { names: Some(names) }) = stack.last_mut() {
                            names.push(decoded);
                        }
                        next = Next::Colon;
                    } else {
                        next = Next::After;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
            continue;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            continue;
        }
        match (next, c) {
            (Next::Value { .. }, b'{') => {
                stack.push(Open { names: Some(Vec::new()) });
                next = Next::NameOrClose;
            }
            (Next::Value { .. }, b'[') => {
                stack.push(Open { names: None });
                next = Next::Value { close: true };
            }
            (Next::Value { .. }, b'"') => next = Next::InString { name: false, start: i },
            (Next::Value { close: true }, b']') | (Next::NameOrClose | Next::After, b'}') | (Next::After, b']') => {
                stack.pop();
                next = Next::After;
            }
            (Next::Value { .. }, _) => {
                // A number or a literal: taken whole, or not at all.
                let end = (i..b.len())
                    .find(|&j| !matches!(b[j], b'0'..=b'9' | b'a'..=b'z' | b'E' | b'+' | b'-' | b'.'))
                    .unwrap_or(b.len());
                if end > cut {
                    return (i, stack, next);
                }
                i = end;
                next = Next::After;
                continue;
            }
            (Next::NameOrClose | Next::Name, b'"') => next = Next::InString { name: true, start: i },
            (Next::Colon, b':') => next = Next::Value { close: false },
            (Next::After, b',') => {
                next = if matches!(stack.last(), Some(Open { names: Some(_) })) {
                    Next::Name
                } else {
                    Next::Value { close: false }
                };
            }
            // Not JSON (the caller passes JSON text): cut here.
            _ => return (i, stack, next),
        }
        i += 1;
    }
    (cut, stack, next)
}

/// `s` as the inside of a JSON string (no quotes).
fn escaped(s: &str) -> String {
    let q = serde_json::to_string(s).unwrap_or_default();
    q[1..q.len() - 1].to_owned()
}

/// A member name of the innermost object not among `names`, added to them.
fn fresh_key(names: &mut Vec<String>, mut key: String) -> String {
    let mut n = 0;
    while names.contains(&key) {
        n += 1;
        key.push_str(&n.to_string());
    }
    names.push(key.clone());
    key
}

/// Some white space, or none.
fn space(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    if u.ratio(1u8, 6)? {
        out.push_str(u.choose(&[" ", "\n  ", "\t", "\r\n"])?);
    }
    Ok(())
}

/// A generated value, compact JSON (its objects repeat no name: `serde_json::Map`).
fn value(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    let v = gen_value(u, 3)?;
    out.push_str(&serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned()));
    Ok(())
}

/// A member `"key": value` of the innermost object, its name new to it.
fn member(u: &mut Unstructured<'_>, names: &mut Vec<String>, out: &mut String) -> Result<()> {
    let key = gen_key(u)?;
    let key = fresh_key(names, key);
    out.push_str(&serde_json::to_string(&key).unwrap_or_default());
    out.push(':');
    space(u, out)?;
    value(u, out)
}

/// A completion of the prefix `t[..cut]` whose state is `stack` and `next` (from [`cut`]): the
/// rest of its string, name, member or value, then further members or elements and the closers
/// of every open container. No object of the result repeats a member name unless the prefix did.
pub fn complete(u: &mut Unstructured<'_>, t: &str, cut: usize, mut stack: Vec<Open>, next: Next) -> Result<String> {
    let mut out = String::new();
    let names_of = |stack: &mut Vec<Open>| -> Vec<String> {
        match stack.last_mut() {
            Some(Open { names: Some(n) }) => std::mem::take(n),
            _ => Vec::new(),
        }
    };
    match next {
        Next::InString { name: true, start } => {
            let so_far: String = serde_json::from_str(&format!("{}\"", &t[start..cut])).unwrap_or_default();
            let mut names = names_of(&mut stack);
            let mut rest = if u.ratio(1u8, 2)? { String::new() } else { gen_key(u)? };
            while names.contains(&format!("{so_far}{rest}")) {
                rest.push('_');
            }
            names.push(format!("{so_far}{rest}"));
            if let Some(Open { names: Some(n) }) = stack.last_mut() {
                *n = names;
            }
            out.push_str(&escaped(&rest));
            out.push_str("\":");
            value(u, &mut out)?;
        }
        Next::InString { name: false, .. } => {
            out.push_str(&escaped(&gen_string(u)?));
            out.push('"');
        }
        Next::Colon => {
            out.push(':');
            value(u, &mut out)?;
        }
        Next::Value { close } => {
            if stack.is_empty() {
                out.push_str(&serde_json::to_string(&gen_plan(u)?).unwrap_or_default());
            } else if close && u.ratio(1u8, 3)? {
                out.push(']');
                stack.pop();
            } else {
                value(u, &mut out)?;
            }
        }
        Next::NameOrClose | Next::Name => {
            if next == Next::NameOrClose && u.ratio(1u8, 3)? {
                out.push('}');
                stack.pop();
            } else {
                let mut names = names_of(&mut stack);
                member(u, &mut names, &mut out)?;
                if let Some(Open { names: Some(n) }) = stack.last_mut() {
                    *n = names;
                }
            }
        }
        Next::After => {}
    }
    // Every open container: maybe more members or elements, then its closer.
    while let Some(open) = stack.pop() {
        let more = u.int_in_range(0..=2u8)?;
        match open.names {
            Some(mut names) => {
                for _ in 0..more {
                    out.push(',');
                    space(u, &mut out)?;
                    member(u, &mut names, &mut out)?;
                }
                space(u, &mut out)?;
                out.push('}');
            }
            None => {
                for _ in 0..more {
                    out.push(',');
                    space(u, &mut out)?;
                    value(u, &mut out)?;
                }
                space(u, &mut out)?;
                out.push(']');
            }
        }
    }
    Ok(out)
}

/// Whether `issue` is in `verdict` (errors or warnings), code, path and message alike.
fn holds(verdict: &Verdict, issue: &Issue) -> bool {
    verdict.errors.iter().chain(&verdict.warnings).any(|i| i == issue)
}

/// Pushes `text` through a `PlanStream` for `request` in chunks ending at `ends` (then the rest),
/// and asserts validator.md §10: `finish` is byte-identical to `validate_bytes` of the text; a
/// settled `json` issue is the verdict's; when the text is JSON and no member name repeated,
/// every issue settled at any push is in the verdict (same code, path and message).
pub fn check_stream(text: &[u8], request: &Value, ends: &[usize]) {
    let want = validate_bytes(text, request);
    let mut s = PlanStream::new(request.clone());
    let mut settled: Vec<(usize, Issue)> = Vec::new();
    let mut at = 0;
    for &end in ends.iter().chain(std::iter::once(&text.len())) {
        let end = end.clamp(at, text.len());
        settled.extend(s.push(&text[at..end]).into_iter().map(|i| (end, i)));
        at = end;
    }
    let repeated = s.repeated_name();
    let got = s.finish();
    assert_eq!(got.to_json(), want.to_json(), "finish differs from validate_bytes");
    let not_json = want.errors.first().is_some_and(|i| i.code.as_str() == "json");
    for (end, issue) in &settled {
        if issue.code.as_str() == "json" || (!repeated && !not_json) {
            assert!(holds(&want, issue), "settled after {end} bytes: {issue:?}\nnot in the verdict {}", want.to_json());
        }
    }
}
