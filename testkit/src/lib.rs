//! The Rust tests' one kit (issue 29): where the repository and `shared/` are, the shared vectors
//! and the bundled examples read exactly as the core reads JSON, and the goldens.
//!
//! Every Rust reader of the vectors and examples (the core's tests, the server's, the generator's,
//! the bench figures, the wasm binding's) takes them from here, so a reader cannot drift.
//!
//! Goldens ([`golden`]) are this project's blessed outputs: a test builds each text the model
//! reads, compares it with its file, and fails with a line diff when one changed. They are
//! blessed, and files no case names any more are removed, with `UPDATE_GOLDEN=1` (as insta's
//! `INSTA_UPDATE` with `--unreferenced delete`); without it a test never writes a file.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The repository root (the workspace): the parent of this crate's folder, whichever crate's
/// test asks.
///
/// # Panics
/// Never in a checkout: `testkit/` always has a parent folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("testkit/ has a parent").to_path_buf()
}

/// `shared/` beside the repository (the spec, the vectors, the notes): resolved from the
/// workspace root, never from the current directory.
///
/// # Panics
/// When the workspace is a file system root (it has no parent to hold `shared/`).
pub fn shared() -> PathBuf {
    root().parent().expect("the workspace has a parent").join("shared")
}

/// The shared vector files (`shared/vectors/*.jsonl`), sorted by name.
///
/// # Panics
/// When the folder cannot be read or holds no vector file (the message names the folder).
pub fn vector_files() -> Vec<PathBuf> {
    let dir = shared().join("vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (shared/ must sit beside the repository)", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vectors in {}", dir.display());
    files
}

/// Every shared vector, files in name order and lines in file order, each line read by the
/// core's strict reader ([`momentum_plan::parse_json`]: numbers as written, member order kept).
///
/// # Panics
/// When a file cannot be read, a line is not JSON, or there are fewer than 5,000 vectors (a
/// partial checkout of `shared/`).
pub fn vectors() -> Vec<Value> {
    let files = vector_files();
    let mut out = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push(
                momentum_plan::parse_json(line)
                    .unwrap_or_else(|e| panic!("a line of {} is not JSON: {e}", file.display())),
            );
        }
    }
    assert!(out.len() >= 5_000, "only {} vectors in {}", out.len(), shared().join("vectors").display());
    out
}

/// A bundled example (`examples/<name>`), read by the core's strict reader.
///
/// # Panics
/// When the file cannot be read or is not JSON.
pub fn example(name: &str) -> Value {
    let path = root().join("examples").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    momentum_plan::parse_json(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Goldens: one pretty JSON file per case, `<dir>/<name>.json`.
pub mod golden {
    use serde_json::Value;
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    use std::path::Path;

    /// Lines of context shown around a change, and most changed lines shown per side.
    const CONTEXT: usize = 3;
    const MOST: usize = 30;

    /// A golden's text: `value` as pretty JSON (two-space indentation) and a final newline.
    ///
    /// # Panics
    /// Never for a `serde_json::Value` (its serialization cannot fail).
    pub fn pretty(value: &Value) -> String {
        serde_json::to_string_pretty(value).expect("a Value is always JSON") + "\n"
    }

    /// Checks every case of `goldens` (name → text) against `<dir>/<name>.json`; the `.json`
    /// files of `dir` no case names are unreferenced. `what` says in the failure what a case is
    /// (`"the repair of a fix kind"`). Subfolders of `dir` are not looked at.
    ///
    /// With `UPDATE_GOLDEN` set, writes the cases whose file is missing or differs and removes the
    /// unreferenced files instead.
    ///
    /// # Panics
    /// Listing every case whose file is missing or differs (with a line diff) and every
    /// unreferenced file; or when `dir` cannot be read or written.
    pub fn check(dir: &Path, goldens: &BTreeMap<String, String>, what: &str) {
        let update = std::env::var_os("UPDATE_GOLDEN").is_some();
        if update {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        }
        let mut problems = Vec::new();
        for (name, text) in goldens {
            let path = dir.join(format!("{name}.json"));
            match std::fs::read_to_string(&path) {
                Ok(old) if old == *text => {}
                _ if update => {
                    std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                }
                Ok(old) => problems.push(format!(
                    "{name}: {what} changed; the diff from {} (- golden, + this run):\n{}",
                    path.display(),
                    diff(&old, text)
                )),
                Err(_) => problems.push(format!("{name}: no golden file {}", path.display())),
            }
        }
        for file in json_files(dir) {
            let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            if goldens.contains_key(name) {
                continue;
            }
            if update {
                std::fs::remove_file(&file).unwrap_or_else(|e| panic!("cannot remove {}: {e}", file.display()));
            } else {
                problems.push(format!("{name}: an unreferenced golden file {} (no case names it)", file.display()));
            }
        }
        assert!(
            problems.is_empty(),
            "{}\n\n{} golden(s) of {} failed. If the change is intended, bless with UPDATE_GOLDEN=1 and review \
             the diff of {}.",
            problems.join("\n\n"),
            problems.len(),
            dir.display(),
            dir.display()
        );
    }

    /// The `.json` files directly in `dir` (none when it does not exist), sorted.
    fn json_files(dir: &Path) -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"));
        files.sort();
        files
    }

    /// A line diff of `old` and `new`: the lines between their common start and common end,
    /// `-` old and `+` new, with [`CONTEXT`] lines around and line numbers; for one line changed
    /// into one line, also where in the line they first differ.
    fn diff(old: &str, new: &str) -> String {
        let a: Vec<&str> = old.lines().collect();
        let b: Vec<&str> = new.lines().collect();
        let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let end = a[start..].iter().rev().zip(b[start..].iter().rev()).take_while(|(x, y)| x == y).count();
        let (gone, came) = (&a[start..a.len() - end], &b[start..b.len() - end]);
        let mut out = String::new();
        let _ = writeln!(out, "@@ line {} @@", start + 1);
        for line in &a[start.saturating_sub(CONTEXT)..start] {
            let _ = writeln!(out, "  {line}");
        }
        for (sign, lines) in [('-', gone), ('+', came)] {
            for line in lines.iter().take(MOST) {
                let _ = writeln!(out, "{sign} {line}");
            }
            if lines.len() > MOST {
                let _ = writeln!(out, "{sign} ... ({} more lines)", lines.len() - MOST);
            }
        }
        for line in a[a.len() - end..].iter().take(CONTEXT) {
            let _ = writeln!(out, "  {line}");
        }
        if let ([x], [y]) = (gone, came) {
            let at = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
            let near = |s: &str| s.chars().skip(at.saturating_sub(20)).take(60).collect::<String>();
            let _ = writeln!(out, "first difference at character {}: {:?} became {:?}", at + 1, near(x), near(y));
        }
        out
    }
}
