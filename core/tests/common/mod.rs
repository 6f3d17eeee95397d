//! Helpers shared by the core's integration tests.
#![allow(dead_code, clippy::disallowed_methods, unreachable_pub)]

use momentum_plan::{Value, Verdict};
use std::path::PathBuf;

/// The repository root (the workspace), from this crate's manifest directory.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("core/ has a parent").to_path_buf()
}

/// `shared/` beside the repository (validator.md, vectors, examples): resolved from the workspace
/// root, never from the current directory.
pub fn shared() -> PathBuf {
    root().parent().expect("the workspace has a parent").join("shared")
}

/// The shared vector files (`shared/vectors/*.jsonl`), sorted; at least one, or a panic naming
/// the folder.
pub fn vector_files() -> Vec<PathBuf> {
    let dir = shared().join("vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vectors in {}", dir.display());
    files
}

/// A bundled example, parsed exactly.
pub fn example(name: &str) -> Value {
    let text = std::fs::read_to_string(root().join("examples").join(name)).expect("example readable");
    momentum_plan::parse_json(&text).expect("example is JSON")
}

/// The (code, path) pairs of a verdict's errors.
pub fn errors(v: &Verdict) -> Vec<(String, String)> {
    v.errors.iter().map(|i| (i.code.as_str().to_owned(), i.path.clone())).collect()
}

/// The (code, path) pairs of a verdict's warnings.
pub fn warnings(v: &Verdict) -> Vec<(String, String)> {
    v.warnings.iter().map(|i| (i.code.as_str().to_owned(), i.path.clone())).collect()
}

/// Owned (code, path) pairs from string pairs.
pub fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(c, p)| ((*c).to_owned(), (*p).to_owned())).collect()
}
