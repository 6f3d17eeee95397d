//! Reading plans and requests, writing files atomically, and the `repair` and `schema` commands.

use crate::{Outcome, fail};
use momentum_plan::{Applicability, Input, RepairOptions, SchemaError, SchemaVariant, Value, plan_schema};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A plan's bytes and the request it answers, read from disk or standard input.
pub(crate) struct Pair {
    pub(crate) plan: Vec<u8>,
    pub(crate) request: Value,
}

/// The `PLAN` operand that means standard input (POSIX utility convention).
pub(crate) const STDIN: &str = "-";

/// Whether `plan` is [`STDIN`].
pub(crate) fn is_stdin(plan: &Path) -> bool {
    plan.as_os_str() == STDIN
}

/// The name a plan is shown and recorded under: its path as given, or for [`STDIN`] the
/// `--stdin-filename` when one is given, else `-`.
pub(crate) fn plan_name(plan: &Path, stdin_filename: Option<&Path>) -> String {
    match stdin_filename {
        Some(name) if is_stdin(plan) => name.display().to_string(),
        _ => plan.display().to_string(),
    }
}

/// The request file of `plan`: `request` when given, else `x.request.json` beside `x.plan.json`.
///
/// # Errors
/// A sentence for a plan whose name does not end in `.plan.json` when no request is given.
pub(crate) fn request_path(plan: &Path, request: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(r) = request {
        return Ok(r.to_path_buf());
    }
    if is_stdin(plan) {
        return Err(
            "cannot tell which request standard input (-) answers: pass --request FILE, or --stdin-filename x.plan.json beside x.request.json"
                .to_owned(),
        );
    }
    let name = plan.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    match name.strip_suffix(".plan.json") {
        Some(stem) => Ok(plan.with_file_name(format!("{stem}.request.json"))),
        None => Err(format!(
            "cannot tell which request {} answers: name it x.plan.json beside x.request.json, or pass --request FILE",
            plan.display()
        )),
    }
}

/// Reads `plan` (all of standard input for [`STDIN`]) and its request (see [`request_path`]; for
/// standard input the request is found beside `stdin_filename` when `request` is not given).
///
/// # Errors
/// A sentence naming the file: it cannot be read, or the request is not strict JSON.
pub(crate) fn read_pair(plan: &Path, request: Option<&Path>, stdin_filename: Option<&Path>) -> Result<Pair, String> {
    let named = match stdin_filename {
        Some(name) if is_stdin(plan) => name,
        _ => plan,
    };
    let request_file = request_path(named, request)?;
    let plan = read_input(plan, "plan")?;
    Ok(Pair { plan, request: read_request(&request_file)? })
}

/// The bytes of `path`, or all of standard input for [`STDIN`]; `what` (`plan`, `calendar`, ...)
/// names it in the error.
///
/// # Errors
/// `cannot read the <what> <path>: <why>` (or `... from standard input: <why>`).
pub(crate) fn read_input(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    if is_stdin(path) {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|e| format!("cannot read the {what} from standard input: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read the {what} {}: {e}", path.display()))
    }
}

/// Reads a request file as strict JSON (validator.md D12).
///
/// # Errors
/// A sentence naming the file: it cannot be read, or it is not JSON (with line and column).
pub(crate) fn read_request(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read the request {}: {e}", path.display()))?;
    momentum_plan::parse_json_bytes(&bytes).map_err(|e| format!("the request {} is not JSON: {e}", path.display()))
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder, flushed to
/// disk, then renamed over `path`, so a reader sees the old file or the new one, never half of
/// one. An existing file keeps its permissions; a new one gets 0666 less the umask.
///
/// # Errors
/// A sentence naming the file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let why = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".momentum-plan-");
    // A new file gets the mode any program's new file gets (0666 less the umask), not the
    // temporary file's private 0600; an existing file keeps its own (below).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(dir).map_err(why)?;
    tmp.write_all(bytes).map_err(why)?;
    tmp.as_file().sync_all().map_err(why)?;
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file().set_permissions(meta.permissions()).map_err(why)?;
    }
    tmp.persist(path).map_err(|e| why(e.error))?;
    Ok(())
}

/// `momentum-plan repair`: the repaired plan's text (`Repair::plan`) on stdout or into `target`,
/// or the whole result's JSON with `json`; what was applied and what is left on stderr.
/// Invalid when the repaired plan is still invalid.
pub(crate) fn repair(
    plan: &Path,
    request: Option<&Path>,
    unsafe_fixes: bool,
    target: Option<&Path>,
    json: bool,
) -> Outcome {
    let pair = match read_pair(plan, request, None) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
    let repaired = match momentum_plan::repair(Input::Bytes(&pair.plan), Input::Value(&pair.request), &options) {
        Ok(r) => r,
        Err(e) => return fail(format!("the request is not JSON: {e}")),
    };
    let outcome = if repaired.verdict.valid { Outcome::Valid } else { Outcome::Invalid };
    if json {
        anstream::println!("{}", repaired.to_json());
        return outcome;
    }
    for f in &repaired.applied {
        // The fix's path is its issue's (validator.md §9), not always the value it edits (an overlap at
        // a block can be cleared by moving the block before it): say which issue it fixes.
        anstream::eprintln!("applied a fix for the {} issue at {}: {}", f.code.as_str(), f.path, f.description);
    }
    let errors = repaired.verdict.errors.len();
    let unsafe_offered = repaired.offered.iter().filter(|f| f.applicability == Applicability::Unsafe).count();
    let hint = if unsafe_offered > 0 {
        format!(" ({unsafe_offered} unsafe fixes offered: --unsafe applies them)")
    } else {
        String::new()
    };
    anstream::eprintln!("{} fixes applied; {errors} errors left{hint}", repaired.applied.len());
    match target {
        Some(path) => {
            // The core writes a changed plan without a final line break; a file gets one.
            let changed = !repaired.applied.is_empty();
            let mut text = repaired.plan.into_bytes();
            if changed && !text.ends_with(b"\n") {
                text.push(b'\n');
            }
            if let Err(e) = write_atomic(path, &text) {
                return fail(e);
            }
        }
        None if repaired.plan.ends_with('\n') => anstream::print!("{}", repaired.plan),
        None => anstream::println!("{}", repaired.plan),
    }
    outcome
}

/// `momentum-plan schema`: the plan schema's compact JSON (the core's bytes) on stdout; Invalid
/// with the reasons when the request is at fault.
pub(crate) fn schema(request: &Path, variant: SchemaVariant) -> Outcome {
    let request = match read_request(request) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    match plan_schema(&request, variant) {
        Ok(s) => {
            anstream::println!("{s}");
            Outcome::Valid
        }
        Err(e @ SchemaError::RequestAtFault(_)) => {
            anstream::eprintln!("momentum-plan: {e}");
            Outcome::Invalid
        }
        Err(e) => fail(e),
    }
}
