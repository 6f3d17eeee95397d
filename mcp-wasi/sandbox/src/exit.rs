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
/// `--store DIR` does not exist, is not a directory, or cannot be opened.
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

/// Every runner-owned code with its one-line meaning, in the order of the README table.
pub const TABLE: &[(i32, &str)] = &[
    (USAGE, "bad command line"),
    (NO_WASM, "the .wasm given is not a file, or it cannot be read"),
    (BAD_STORE, "--store is missing, not a directory, or cannot be opened"),
    (BAD_WASM, "the .wasm is not a runnable wasi:cli command component"),
    (TRAP, "the guest trapped (e.g. a panic)"),
    (MEMORY_CAP, "the guest hit the --memory-mib cap"),
    (INTERNAL, "other runner failure"),
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
}
