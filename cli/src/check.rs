//! `momentum-plan check`: the verdict on each plan, as code frames (rendered by
//! `annotate-snippets`, rustc's renderer), the core's verdict JSON, or GitHub annotations.

use crate::files::{is_stdin, plan_name, read_pair};
use crate::{Format, Outcome, fail};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use indicatif::{ProgressBar, ProgressStyle};
use momentum_plan::{Issue, SpanError, Verdict, validate_bytes, value_span};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::path::Path;

/// From this many plans on, a terminal shows a progress bar on stderr.
const PROGRESS_FROM: usize = 8;

/// A value spanning this many lines or more is marked by its first character only.
const TALL: usize = 12;

/// At most this many issues of one plan are shown as code frames or annotations (each is found
/// in the text by a pass over it); a line after them says how many more `--format json` lists.
const SHOWN: usize = 200;

/// Where an issue is in the plan's text, as far as it can be found.
struct Place {
    /// The bytes to underline (empty at the end of the text).
    bytes: Range<usize>,
    /// 1-based line and column in characters.
    line: usize,
    column: usize,
    /// 1-based line and column just after the value, when the issue names a value.
    end: Option<(usize, usize)>,
    /// The label under the marker.
    label: String,
}

/// Checks every plan and prints each verdict in `format`; the worst outcome of all plans.
///
/// `plans` are paths, or `-` (standard input, read once; `stdin_filename` names it). A plan that
/// cannot be read is reported in every format (stderr, a JSON record with `error`, a GitHub
/// annotation) and makes the outcome [`Outcome::Failed`]; the other plans are still checked.
pub(crate) fn run(
    plans: &[std::path::PathBuf],
    request: Option<&Path>,
    stdin_filename: Option<&Path>,
    format: Format,
) -> Outcome {
    if plans.iter().filter(|p| is_stdin(p)).count() > 1 {
        return fail("standard input (-) can be named once");
    }
    let progress = (plans.len() >= PROGRESS_FROM && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(plans.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let out = |f: &mut dyn FnMut()| match &progress {
        Some(bar) => bar.suspend(f),
        None => f(),
    };
    let (mut worst, mut valid, mut failed, mut errors, mut warnings) = (Outcome::Valid, 0usize, 0usize, 0usize, 0usize);
    for plan in plans {
        let name = plan_name(plan, stdin_filename);
        if let Some(bar) = &progress {
            bar.set_message(name.clone());
        }
        let pair = match read_pair(plan, request, stdin_filename) {
            Ok(p) => p,
            Err(e) => {
                out(&mut || not_read(&name, &e, format));
                worst = Outcome::Failed;
                failed += 1;
                continue;
            }
        };
        let verdict = validate_bytes(&pair.plan, &pair.request);
        out(&mut || match format {
            Format::Json => anstream::println!("{}", json_record(&name, Ok(&verdict))),
            Format::Github => print_github(&name, &pair.plan, &issues(&verdict)),
            Format::Text => print_frames(&mut anstream::stdout(), &name, &pair.plan, &issues(&verdict)),
        });
        if verdict.valid {
            valid += 1;
        } else {
            worst = worst.max(Outcome::Invalid);
        }
        errors += verdict.errors.len();
        warnings += verdict.warnings.len();
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if format == Format::Text {
        print_summary(&mut anstream::stdout(), plans.len() - failed, valid, failed, errors, warnings);
    }
    worst
}

/// A plan that could not be read, in every format: `momentum-plan: <why>` on stderr, and a JSON
/// record with `error` or a GitHub annotation on stdout.
pub(crate) fn not_read(name: &str, why: &str, format: Format) {
    fail(why);
    match format {
        Format::Json => anstream::println!("{}", json_record(name, Err(why))),
        Format::Github => anstream::println!("::error file={},title=momentum-plan::{}", property(name), data(why)),
        Format::Text => {}
    }
}

/// The text format's last line on `out`: `2 plans checked: 1 valid, 1 invalid; 3 errors, 0 warnings`.
pub(crate) fn print_summary(
    out: &mut dyn Write,
    checked: usize,
    valid: usize,
    failed: usize,
    errors: usize,
    warnings: usize,
) {
    let unread = if failed > 0 { format!(", {failed} not read") } else { String::new() };
    let _ = writeln!(
        out,
        "{} checked: {valid} valid, {} invalid{unread}; {}, {}",
        count(checked, "plan"),
        checked - valid,
        count(errors, "error"),
        count(warnings, "warning"),
    );
}

/// One `--format json` line: `{"file": name` followed by the members of the core's verdict JSON
/// (its bytes unchanged after the opening brace), or `{"file": name, "error": sentence}` for a
/// plan that could not be read.
pub(crate) fn json_record(name: &str, verdict: Result<&Verdict, &str>) -> String {
    let string = |s: &str| serde_json::Value::String(s.to_owned());
    match verdict {
        Ok(v) => {
            let verdict = v.to_json();
            format!("{{\"file\":{},{}", string(name), verdict.strip_prefix('{').unwrap_or(&verdict))
        }
        Err(e) => format!("{{\"file\":{},\"error\":{}}}", string(name), string(e)),
    }
}

/// `1 plan`, `3 errors`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The plan's text for display: the bytes when they are UTF-8, else with U+FFFD for the bad
/// bytes (the core's `json` issue points at the first of them).
fn display_text(plan: &[u8]) -> (Cow<'_, str>, Option<usize>) {
    match std::str::from_utf8(plan) {
        Ok(t) => (Cow::Borrowed(t), None),
        Err(e) => (String::from_utf8_lossy(plan), Some(e.valid_up_to())),
    }
}

/// Where `issue` is in `text`: the span of its value ([`value_span`]), the deepest value on its
/// path when the value is missing, the parse fault for text that is not JSON.
fn place(text: &str, bad_utf8: Option<usize>, issue: &Issue) -> Option<Place> {
    let one_char = |byte: usize| byte..text[byte..].chars().next().map_or(byte, |c| byte + c.len_utf8());
    if let Some(byte) = bad_utf8 {
        let (line, column) = momentum_plan::line_column(text, byte);
        return Some(Place { bytes: one_char(byte), line, column, end: None, label: "not UTF-8".to_owned() });
    }
    match value_span(text, &issue.path) {
        Ok(span) => Some(Place {
            // A value over many lines is marked at its opening, not drawn whole.
            bytes: if span.end.line - span.start.line < TALL { span.range() } else { one_char(span.start.byte) },
            line: span.start.line,
            column: span.start.column,
            end: Some((span.end.line, span.end.column)),
            label: issue.path.clone(),
        }),
        Err(SpanError::Missing { found, span }) => Some(Place {
            // The opening of the deepest value: a whole object would fill the screen.
            bytes: one_char(span.start.byte),
            line: span.start.line,
            column: span.start.column,
            end: None,
            label: format!("{} is missing in {found}", issue.path),
        }),
        Err(SpanError::NotJson(e)) => {
            let byte = byte_at(text, e.line, e.column);
            Some(Place { bytes: one_char(byte), line: e.line, column: e.column, end: None, label: e.reason.clone() })
        }
        Err(_) => None,
    }
}

/// The byte offset of 1-based `line` and character `column` in `text` (the end of the text when
/// past it): the inverse of `momentum_plan::line_column`, for a parse fault's position.
fn byte_at(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1) };
    text[start..].char_indices().nth(column.saturating_sub(1)).map_or(text.len(), |(i, _)| start + i)
}

/// A verdict's issues in the order `check` shows them: the errors, then the warnings.
pub(crate) fn issues(verdict: &Verdict) -> Vec<&Issue> {
    verdict.errors.iter().chain(&verdict.warnings).collect()
}

/// Code frames of `issues` (a verdict's on `plan`, or some of them) on `out` (stdout for `check`,
/// stderr for `calendar`, whose stdout is the calendar), each an error or a
/// warning as [`momentum_plan::IssueCode::is_warning`] says. Each frame is rendered from the lines
/// its value spans only (the renderer is given that excerpt and its first line number), so a frame
/// costs its own lines, not the whole text's (issue 27: a 50 MB plan).
pub(crate) fn print_frames(out: &mut dyn Write, name: &str, plan: &[u8], issues: &[&Issue]) {
    let (text, bad_utf8) = display_text(plan);
    let renderer = Renderer::styled();
    for issue in issues.iter().take(SHOWN) {
        let level = if issue.code.is_warning() { Level::WARNING } else { Level::ERROR };
        let title = level.primary_title(issue.message.as_str()).id(issue.code.as_str());
        let group = match place(&text, bad_utf8, issue) {
            Some(p) => {
                let (excerpt, bytes) = excerpt(&text, p.bytes);
                Group::with_title(title).element(
                    Snippet::source(excerpt)
                        .line_start(p.line)
                        .path(name)
                        .fold(true)
                        .annotation(AnnotationKind::Primary.span(bytes).label(p.label)),
                )
            }
            None => Group::with_title(title).element(Level::NOTE.message(format!("at {} in {name}", issue.path))),
        };
        let _ = writeln!(out, "{}\n", renderer.render(&[group]));
    }
    not_shown(out, name, issues.len());
}

/// The line after the first [`SHOWN`] of a plan's `all` issues, when it has more.
fn not_shown(out: &mut dyn Write, name: &str, all: usize) {
    if all > SHOWN {
        let more = all - SHOWN;
        let what = if more == 1 { "issue" } else { "issues" };
        let _ = writeln!(out, "... and {more} more {what} in {name} (--format json lists them all)\n");
    }
}

/// The whole lines of `text` that `bytes` touches, and `bytes` within them. A fault at the end of
/// the text (empty `bytes` there) is marked on a space after it, so the frame names the line and
/// column the core gives (after a final line break too).
fn excerpt(text: &str, bytes: Range<usize>) -> (Cow<'_, str>, Range<usize>) {
    if bytes.is_empty() {
        let start = text.rfind('\n').map_or(0, |i| i + 1);
        return (Cow::Owned(format!("{} ", &text[start..])), text.len() - start..text.len() - start + 1);
    }
    let start = text[..bytes.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[bytes.end..].find('\n').map_or(text.len(), |i| bytes.end + i);
    (Cow::Borrowed(&text[start..end]), bytes.start - start..bytes.end - start)
}

/// One GitHub workflow command per issue of `issues` (a verdict's on `plan`, or some of them):
/// `::error file=F,line=L,col=C,...,title=T::MESSAGE` (`::warning` for a warning).
pub(crate) fn print_github(name: &str, plan: &[u8], issues: &[&Issue]) {
    let (text, bad_utf8) = display_text(plan);
    for issue in issues.iter().take(SHOWN) {
        let command = if issue.code.is_warning() { "warning" } else { "error" };
        let mut props = format!("file={}", property(name));
        if let Some(p) = place(&text, bad_utf8, issue) {
            let _ = write!(props, ",line={},col={}", p.line, p.column);
            if let Some((line, column)) = p.end {
                let _ = write!(props, ",endLine={line},endColumn={column}");
            }
        }
        let title = property(&format!("momentum-plan {}", issue.code.as_str()));
        anstream::println!(
            "::{command} {props},title={title}::{}",
            data(&format!("{} ({})", issue.message, issue.path))
        );
    }
    not_shown(&mut anstream::stdout(), name, issues.len());
}

/// A workflow command's message, escaped as the GitHub runner reads it.
pub(crate) fn data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value, escaped as the GitHub runner reads it.
pub(crate) fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_at_inverts_line_column() {
        let text = "ab\né😀x\n\nz";
        for byte in (0..=text.len()).filter(|b| text.is_char_boundary(*b)) {
            let (line, column) = momentum_plan::line_column(text, byte);
            assert_eq!(byte_at(text, line, column), byte, "{byte}");
        }
        assert_eq!(byte_at(text, 9, 1), text.len());
        assert_eq!(byte_at(text, 1, 99), text.len());
    }

    #[test]
    fn workflow_commands_escape_what_the_runner_reads() {
        assert_eq!(data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(property("a: b, c%"), "a%3A b%2C c%25");
    }
}
