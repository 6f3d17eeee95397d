//! `momentum-plan check --stream -`: a plan read from standard input as it arrives, each issue
//! printed as soon as it is settled (validator.md §10: no continuation of the text can remove
//! it), then, at the end of the input, what the verdict adds. The exit status is `check`'s.

use crate::check::{self, issues, json_record, not_read, print_frames, print_github, print_summary, property};
use crate::files::{is_stdin, plan_name, read_request, request_path};
use crate::{Format, Outcome, fail};
use annotate_snippets::{Group, Level, Renderer};
use momentum_plan::{Issue, PlanStream, validate_bytes};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

/// Bytes asked of one read of standard input: a read returns what has arrived, up to this.
const READ: usize = 64 * 1024;

/// Checks the plan on standard input (`plans` must be `-` alone) as it streams in, printing in
/// `format`:
/// - while it streams, each settled issue: `text`, the issue's title and where it is (`at PATH in
///   NAME, settled after N bytes`; the text is not yet whole, so no code frame); `json`, one line
///   `{"file": NAME, "settled": {"code","path","message"}}`; `github`, a workflow command without
///   a line (the text is not yet whole);
/// - at the end of the input, the verdict's issues not printed yet (`text`: code frames, then the
///   summary line; `github`: workflow commands with lines), or in `json` the verdict record exactly
///   as `check --format json` writes it.
///
/// A repeated member name stops settling (§10, §7): a note on stderr says so once.
///
/// # Outcomes
/// [`Outcome::Valid`] / [`Outcome::Invalid`] by the verdict; [`Outcome::Failed`] when the plans
/// are not `-` alone, the request cannot be found or read, or standard input fails.
pub(crate) fn run(plans: &[PathBuf], request: Option<&Path>, stdin_filename: Option<&Path>, format: Format) -> Outcome {
    let [plan] = plans else { return fail("--stream checks one plan, read from standard input: name it as -") };
    if !is_stdin(plan) {
        return fail("--stream reads the plan from standard input: name it as - (with --request or --stdin-filename)");
    }
    let name = plan_name(plan, stdin_filename);
    let request = match request_path(stdin_filename.unwrap_or(plan), request).and_then(|p| read_request(&p)) {
        Ok(r) => r,
        Err(e) => {
            not_read(&name, &e, format);
            return Outcome::Failed;
        }
    };
    let mut stream = PlanStream::new(request.clone());
    let mut printed: Vec<Issue> = Vec::new();
    let mut told = false;
    let mut chunk = vec![0u8; READ];
    let mut stdin = std::io::stdin().lock();
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                not_read(&name, &format!("cannot read the plan from standard input: {e}"), format);
                return Outcome::Failed;
            }
        };
        let settled = stream.push(&chunk[..n]);
        let mut gone = false;
        for issue in &settled {
            gone = gone || print_settled(&name, issue, stream.len(), format).is_err();
        }
        printed.extend(settled);
        if gone {
            // Whoever read standard output has stopped (`| head -n 1`, a host that has what it
            // needs): stop reading too, so the writer upstream (the model) gets its broken pipe
            // now, not when it ends. A settled error is final (§10): the plan is invalid.
            return if printed.iter().any(|i| !i.code.is_warning()) { Outcome::Invalid } else { Outcome::Failed };
        }
        if stream.repeated_name() && !told {
            told = true;
            anstream::eprintln!(
                "momentum-plan: note: a member name repeats in {name}, and a later value replaces an earlier one, \
                 so nothing more is settled before the end: only the verdict at the end counts (validator.md §10)"
            );
        }
    }
    // `finish` (§10) is `validate_bytes` of all the bytes; called here on them so the text stays
    // for the code frames.
    let verdict = validate_bytes(stream.bytes(), &request);
    let mut rest = issues(&verdict);
    for p in &printed {
        if let Some(i) = rest.iter().position(|r| *r == p) {
            rest.remove(i);
        }
    }
    match format {
        Format::Json => anstream::println!("{}", json_record(&name, Ok(&verdict))),
        Format::Github => print_github(&name, stream.bytes(), &rest),
        Format::Text => {
            print_frames(&mut anstream::stdout(), &name, stream.bytes(), &rest);
            print_summary(
                &mut anstream::stdout(),
                1,
                usize::from(verdict.valid),
                0,
                verdict.errors.len(),
                verdict.warnings.len(),
            );
        }
    }
    if verdict.valid { Outcome::Valid } else { Outcome::Invalid }
}

/// One issue as it settles, after `bytes` bytes of the plan (see [`run`]).
/// Errors: the write's, when standard output is closed (its reader has stopped).
fn print_settled(name: &str, issue: &Issue, bytes: usize, format: Format) -> std::io::Result<()> {
    let warning = issue.code.is_warning();
    let mut out = anstream::stdout();
    match format {
        Format::Json => {
            let issue = serde_json::to_string(issue).unwrap_or_default();
            writeln!(out, "{{\"file\":{},\"settled\":{issue}}}", serde_json::Value::String(name.to_owned()))?;
        }
        Format::Github => writeln!(
            out,
            "::{} file={},title={}::{}",
            if warning { "warning" } else { "error" },
            property(name),
            property(&format!("momentum-plan {}", issue.code.as_str())),
            check::data(&format!("{} ({})", issue.message, issue.path)),
        )?,
        Format::Text => {
            let level = if warning { Level::WARNING } else { Level::ERROR };
            let group = Group::with_title(level.primary_title(issue.message.as_str()).id(issue.code.as_str()))
                .element(Level::NOTE.message(format!("at {} in {name}, settled after {bytes} bytes", issue.path)));
            writeln!(out, "{}\n", Renderer::styled().render(&[group]))?;
        }
    }
    out.flush()
}
