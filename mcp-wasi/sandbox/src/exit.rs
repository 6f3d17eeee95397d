//! Exit codes of `momentum-plan-sandbox`.
//!
//! When the guest runs to its end, the runner exits with the guest's own status: 0 when the
//! server ended normally (EOF on stdin), 1 when its `run` export returned an error, or the
//! code the guest passed to `exit`. The runner's own failures use the block 64–70 below,
//! which the server never uses itself. Every failure also prints one line on stderr that
//! starts with `momentum-plan-sandbox: error:`.

/// The guest ended normally.
pub const OK: i32 = 0;
/// The command line could not be parsed (unknown flag, bad value). `--help` and
/// `--version` exit with 0.
pub const USAGE: i32 = 64;
/// The `.wasm` given by `--wasm` or the environment is not a file (see [`crate::locate`]),
/// or cannot be read.
pub const NO_WASM: i32 = 65;
/// `--store DIR` is not a directory (or a parent of it is a file), or it cannot be created
/// (when missing) or opened.
pub const BAD_STORE: i32 = 66;
/// The `.wasm` is not a WebAssembly component this runner can compile and run as a
/// `wasi:cli` command (corrupt file, core module, unknown imports).
pub const BAD_WASM: i32 = 67;
/// The guest stopped with a trap (a Rust panic in the guest ends this way, after the
/// guest has printed its panic message on stderr).
pub const TRAP: i32 = 68;
/// The guest needed more linear memory than `--memory-mib` allows and stopped.
pub const MEMORY_CAP: i32 = 69;
/// Any other failure of the runner itself (engine set-up, WASI set-up).
pub const INTERNAL: i32 = 70;

/// Every runner-owned code with its one-line meaning, in the order of the README table
/// (`README.md`, "Exit codes"); `--help` lists these lines.
pub const TABLE: &[(i32, &str)] = &[
    (USAGE, "bad command line (--http: also a non-loopback address without a token, a bad token file)"),
    (NO_WASM, "no .wasm found, or it cannot be read"),
    (BAD_STORE, "--store is not a directory, or cannot be created or opened"),
    (BAD_WASM, "the .wasm is not a runnable wasm32-wasip2 command component (--http: wasi:http proxy)"),
    (TRAP, "the server stopped with a trap (e.g. a panic)"),
    (MEMORY_CAP, "the server hit the --memory-mib cap"),
    (INTERNAL, "other runner failure (engine or WASI set-up; --http: listen address, pool)"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_outside_the_guests_range() {
        let mut seen: Vec<i32> = TABLE.iter().map(|(c, _)| *c).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), TABLE.len());
        assert!(seen.iter().all(|c| (64..=70).contains(c)));
        assert!(!seen.contains(&OK) && !seen.contains(&1));
    }

    /// The README's "Exit codes" section lists every code of [`TABLE`] as a row of its one table,
    /// and no runner code that is not in it.
    #[test]
    fn the_readme_lists_every_exit_code() {
        let readme = include_str!("../README.md");
        let section = readme.split("\n## Exit codes\n").nth(1).expect("README.md has a \"## Exit codes\" section");
        let section = section.split("\n## ").next().unwrap_or(section);
        let rows: Vec<i32> = section
            .lines()
            .filter_map(|l| l.strip_prefix("| ")?.split(" |").next()?.trim().parse().ok())
            .filter(|c| *c >= 64)
            .collect();
        let codes: Vec<i32> = TABLE.iter().map(|(c, _)| *c).collect();
        assert_eq!(rows, codes, "README.md \"Exit codes\" rows against exit.rs");
        assert!(section.contains("| 0 |"), "the normal end");
    }
}
