//! Helpers shared by the core's integration tests.
#![allow(dead_code, unused_imports, clippy::disallowed_methods, unreachable_pub)]

use momentum_plan::Verdict;

/// The repository root, `shared/` beside it, the shared vector files and the bundled examples:
/// the Rust tests' one kit.
pub use momentum_plan_testkit::{example, root, shared, vector_files};

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
