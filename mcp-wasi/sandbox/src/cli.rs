//! Command-line arguments of `momentum-plan-sandbox` (parsed with `clap`).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Parser;

/// Default guest memory cap, in MiB (spec `mcp-server.md`, "Sandbox and store": 64 MiB).
pub const DEFAULT_MEMORY_MIB: u32 = 64;
/// Largest accepted `--memory-mib`: a `wasm32` linear memory cannot exceed 4 GiB.
pub const MAX_MEMORY_MIB: u32 = 4096;

/// Runs the momentum-plan MCP server (`momentum-plan-mcp.wasm`) in a WebAssembly sandbox,
/// speaking MCP (JSON-RPC, one message per line) on stdin/stdout.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "momentum-plan-sandbox",
    version,
    after_help = "The .wasm is taken from --wasm, else $MOMENTUM_PLAN_MCP_WASM, else beside this \
                  executable, else the workspace's target/wasm32-wasip2/release/.\n\
                  Exit status: the guest's own (0 = normal end); runner failures 64-70 (see README)."
)]
pub struct Args {
    /// The server component to run (a wasm32-wasip2 `.wasm`). Overrides every other lookup.
    #[arg(long, value_name = "PATH")]
    pub wasm: Option<PathBuf>,

    /// Host directory granted to the server as its plan store, mounted read-write at `/plans`
    /// (and `PLAN_STORE=/plans` set). Must exist and be a directory. Without it the server is
    /// read-only and sees no file system at all.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,

    /// Cap on the guest's linear memory, in MiB (1 to 4096).
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_MEMORY_MIB,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_MEMORY_MIB)),
    )]
    pub memory_mib: u32,

    /// Directory of the compile cache. Default: `$XDG_CACHE_HOME/momentum-plan`, else
    /// `~/.cache/momentum-plan`.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Neither read nor write the compile cache: compile the `.wasm` in memory on every start.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,

    /// Print what the runner does (which `.wasm`, cache hit or miss, timings) on stderr.
    #[arg(short, long)]
    pub verbose: bool,

    /// Extra arguments passed to the guest (after `--`); the guest's argv[0] is
    /// `momentum-plan-mcp`.
    #[arg(last = true, value_name = "GUEST_ARGS")]
    pub guest_args: Vec<String>,
}

impl Args {
    /// Parses `argv` (including the program name). `Err` carries clap's error, whose
    /// `exit_code()` is 0 for `--help`/`--version`; `main` maps every other error to
    /// [`crate::exit::USAGE`].
    pub fn try_parse_from_args<I, T>(argv: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        Self::try_parse_from(argv)
    }

    /// The memory cap in bytes.
    pub fn memory_bytes(&self) -> usize {
        usize::try_from(u64::from(self.memory_mib) << 20).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from_args(std::iter::once("momentum-plan-sandbox").chain(args.iter().copied()))
    }

    #[test]
    fn clap_definition_is_consistent() {
        Args::command().debug_assert();
    }

    #[test]
    fn defaults() {
        let a = parse(&[]).unwrap();
        assert_eq!(a.wasm, None);
        assert_eq!(a.store, None);
        assert_eq!(a.memory_mib, 64);
        assert_eq!(a.memory_bytes(), 64 << 20);
        assert_eq!(a.cache_dir, None);
        assert!(!a.no_cache && !a.verbose);
        assert!(a.guest_args.is_empty());
    }

    #[test]
    fn every_flag() {
        let a = parse(&[
            "--wasm",
            "/x/s.wasm",
            "--store",
            "plans",
            "--memory-mib",
            "8",
            "--cache-dir",
            "/c",
            "-v",
            "--",
            "a",
            "--b",
        ])
        .unwrap();
        assert_eq!(a.wasm, Some(PathBuf::from("/x/s.wasm")));
        assert_eq!(a.store, Some(PathBuf::from("plans")));
        assert_eq!(a.memory_mib, 8);
        assert_eq!(a.memory_bytes(), 8 << 20);
        assert_eq!(a.cache_dir, Some(PathBuf::from("/c")));
        assert!(a.verbose);
        assert_eq!(a.guest_args, vec!["a".to_string(), "--b".to_string()]);
    }

    #[test]
    fn memory_bounds() {
        assert_eq!(parse(&["--memory-mib", "1"]).unwrap().memory_mib, 1);
        assert_eq!(parse(&["--memory-mib", "4096"]).unwrap().memory_bytes(), 4096 << 20);
        for bad in ["0", "4097", "-1", "lots", ""] {
            let e = parse(&["--memory-mib", bad]).unwrap_err();
            assert_ne!(e.exit_code(), 0, "{bad:?} accepted");
        }
    }

    #[test]
    fn bad_command_lines_are_errors() {
        assert_eq!(parse(&["--nope"]).unwrap_err().kind(), ErrorKind::UnknownArgument);
        assert_eq!(parse(&["stray"]).unwrap_err().kind(), ErrorKind::UnknownArgument);
        assert_eq!(parse(&["--no-cache", "--cache-dir", "/c"]).unwrap_err().kind(), ErrorKind::ArgumentConflict);
        assert!(parse(&["--store"]).is_err());
    }

    #[test]
    fn help_and_version_exit_zero() {
        let h = parse(&["--help"]).unwrap_err();
        assert_eq!(h.kind(), ErrorKind::DisplayHelp);
        assert_eq!(h.exit_code(), 0);
        assert!(h.to_string().contains("--memory-mib"));
        let v = parse(&["--version"]).unwrap_err();
        assert_eq!(v.kind(), ErrorKind::DisplayVersion);
        assert_eq!(v.exit_code(), 0);
    }
}
