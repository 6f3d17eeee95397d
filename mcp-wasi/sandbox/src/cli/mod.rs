//! Command-line arguments of `momentum-plan-sandbox` (parsed with `clap`).
//!
//! Without `--http` the runner serves MCP on stdin/stdout ([`crate::run`]); with `--http [ADDR]`
//! it serves Streamable HTTP ([`crate::http`]). The HTTP-only flags (`--bearer-token-file`,
//! `--allow-host`, `--allow-origin`, `--max-concurrency`, `--max-connections`,
//! `--request-timeout-ms`) are a usage
//! error without `--http`. The values' own checks are in [`checks`].

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

pub mod checks;

/// Default guest memory cap, in MiB (spec `mcp-server.md`, "Sandbox and store": 64 MiB).
pub const DEFAULT_MEMORY_MIB: u32 = 64;
/// Largest accepted `--memory-mib`: a `wasm32` linear memory cannot exceed 4 GiB.
pub const MAX_MEMORY_MIB: u32 = 4096;
/// `--http` without a value listens here (loopback only; spec `mcp-server.md`, "Streamable HTTP").
pub const DEFAULT_HTTP_ADDR: &str = "127.0.0.1:8765";
/// Default `--request-timeout-ms`: 10 seconds per request.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 10_000;
/// Largest accepted `--request-timeout-ms`: one hour.
pub const MAX_REQUEST_TIMEOUT_MS: u64 = 3_600_000;
/// Largest accepted `--max-concurrency` (each slot reserves virtual memory in the pool).
pub const MAX_CONCURRENCY: u32 = 1024;
/// Default `--max-connections`: nginx's `worker_connections` default, well under the usual soft
/// limit of 1,024 open files, so that accepting never runs out of descriptors.
pub const DEFAULT_MAX_CONNECTIONS: u32 = 512;
/// Largest accepted `--max-connections`.
pub const MAX_CONNECTIONS: u32 = 1_000_000;

/// Runs the momentum-plan MCP server (`momentum-plan-mcp.wasm`) in a WebAssembly sandbox,
/// speaking MCP (JSON-RPC, one message per line) on stdin/stdout; with `--http`, serves
/// `momentum-plan-mcp-http.wasm` as Streamable HTTP at `http://ADDR/mcp` instead.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "momentum-plan-sandbox",
    version,
    after_help = after_help()
)]
pub struct Args {
    /// The server component to run (a wasm32-wasip2 `.wasm`) instead of the embedded one.
    #[arg(long, value_name = "PATH")]
    pub wasm: Option<PathBuf>,

    /// Host directory granted to the server as its plan store, mounted read-write at `/plans`
    /// (and `PLAN_STORE=/plans` set). Created (mode 0700, with any missing parents) when it does
    /// not exist. Without it the server is read-only and sees no file system at all.
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

    /// Serve Streamable HTTP on ADDR (`IP:PORT`, `[IPv6]:PORT`, `localhost:PORT` or a bare
    /// `PORT` on 127.0.0.1; default 127.0.0.1:8765; port 0 picks a free port) instead of stdio,
    /// running `momentum-plan-mcp-http.wasm`, one instance per request. A non-loopback ADDR
    /// needs a bearer token.
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        default_missing_value = DEFAULT_HTTP_ADDR,
        value_parser = checks::parse_listen_addr,
    )]
    pub http: Option<SocketAddr>,

    /// With --http: require `Authorization: Bearer TOKEN`, TOKEN being this file's content
    /// with surrounding white space trimmed (must not be empty). Default: the environment
    /// variable MOMENTUM_PLAN_BEARER_TOKEN, else no token (loopback only).
    // This doc comment is clap's `--help` text, word for word: no backticks around the variable.
    #[allow(clippy::doc_markdown)]
    #[arg(long, value_name = "FILE", requires = "http")]
    pub bearer_token_file: Option<PathBuf>,

    /// With --http: also accept requests whose Host is NAME (matched without port; loopback
    /// names are always accepted). Repeatable.
    #[arg(long = "allow-host", value_name = "NAME", requires = "http", value_parser = checks::parse_allowed_host)]
    pub allow_hosts: Vec<String>,

    /// With --http: also accept requests from the browser origin ORIGIN (`scheme://host[:port]`;
    /// loopback origins are always accepted). Repeatable.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http", value_parser = checks::parse_allowed_origin)]
    pub allow_origins: Vec<String>,

    /// With --http: at most N requests run at once (one guest instance each); later ones wait
    /// for a slot within their deadline. Default: twice the available cores, at least 2.
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_CONCURRENCY)),
    )]
    pub max_concurrency: Option<u32>,

    /// With --http: at most N connections open at once; one more is answered 503 (Retry-After:
    /// 1) at once and closed, while the open ones keep being served. Default 512.
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_CONNECTIONS)),
    )]
    pub max_connections: Option<u32>,

    /// With --http: deadline of one request in milliseconds: the whole head must arrive within it
    /// (else 408), then its body and the guest's answer (waiting for a slot included) within it
    /// again. Default 10000.
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        value_parser = clap::value_parser!(u64).range(1..=MAX_REQUEST_TIMEOUT_MS),
    )]
    pub request_timeout_ms: Option<u64>,

    /// Extra arguments passed to the guest (after `--`); the guest's `argv[0]` is
    /// `momentum-plan-mcp`.
    #[arg(last = true, value_name = "GUEST_ARGS")]
    pub guest_args: Vec<String>,
}

/// The text after the flags in `--help`: where the component and the cache come from, the token's
/// variable, and every exit code of the runner with its meaning ([`crate::exit::TABLE`]), so the
/// list needs no README beside the binary (the sandbox README's "Exit codes" table holds the same
/// codes, checked by `exit::tests`).
fn after_help() -> String {
    use std::fmt::Write as _;
    let mut text = String::from(
        "The server component is --wasm, else $MOMENTUM_PLAN_MCP_WASM ($MOMENTUM_PLAN_MCP_HTTP_WASM with \
         --http), else the one built into this executable.\n\
         Compiled code is cached in --cache-dir, else $XDG_CACHE_HOME/momentum-plan, else ~/.cache/momentum-plan.\n\
         With --http the bearer token may also come from $MOMENTUM_PLAN_BEARER_TOKEN.\n\n\
         Exit status: the guest's own (0 = normal end; --http: 0 after SIGINT/SIGTERM; 1 = its run \
         failed), else the runner's own:",
    );
    for (code, meaning) in crate::exit::TABLE {
        let _ = write!(text, "\n  {code}  {meaning}");
    }
    text
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

    /// `--max-concurrency`, else [`default_concurrency`] of this machine's available cores.
    pub fn max_concurrency(&self) -> u32 {
        self.max_concurrency.unwrap_or_else(|| {
            default_concurrency(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        })
    }

    /// `--max-connections`, else [`DEFAULT_MAX_CONNECTIONS`].
    pub fn max_connections(&self) -> usize {
        usize::try_from(self.max_connections.unwrap_or(DEFAULT_MAX_CONNECTIONS)).unwrap_or(usize::MAX)
    }

    /// `--request-timeout-ms` (default [`DEFAULT_REQUEST_TIMEOUT_MS`]) as a duration.
    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms.unwrap_or(DEFAULT_REQUEST_TIMEOUT_MS))
    }
}

/// The default `--max-concurrency` for `cores` available cores: twice as many, at least 2,
/// at most [`MAX_CONCURRENCY`].
pub fn default_concurrency(cores: usize) -> u32 {
    u32::try_from(cores.saturating_mul(2)).unwrap_or(u32::MAX).clamp(2, MAX_CONCURRENCY)
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
        assert_eq!(a.http, None);
        assert_eq!(a.bearer_token_file, None);
        assert!(a.allow_hosts.is_empty() && a.allow_origins.is_empty());
        assert_eq!(a.request_timeout(), Duration::from_secs(10));
        assert!(a.max_concurrency() >= 2);
        assert_eq!(a.max_connections(), 512);
    }

    #[test]
    fn http_flag_value_is_optional() {
        let a = parse(&["--http"]).unwrap();
        assert_eq!(a.http, Some("127.0.0.1:8765".parse().unwrap()));
        let a = parse(&["--http", "--store", "p"]).unwrap();
        assert_eq!(a.http, Some("127.0.0.1:8765".parse().unwrap()));
        assert_eq!(a.store, Some(PathBuf::from("p")));
        assert_eq!(parse(&["--http", "0.0.0.0:80"]).unwrap().http, Some("0.0.0.0:80".parse().unwrap()));
        assert_eq!(parse(&["--http=[::1]:0"]).unwrap().http, Some("[::1]:0".parse().unwrap()));
        assert_eq!(parse(&["--http", "localhost:9"]).unwrap().http, Some("127.0.0.1:9".parse().unwrap()));
        assert_eq!(parse(&["--http", "9000"]).unwrap().http, Some("127.0.0.1:9000".parse().unwrap()));
        for bad in ["example.com:80", "127.0.0.1", "127.0.0.1:99999", "", "[::1]"] {
            let e = parse(&["--http", bad]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{bad:?} accepted");
        }
    }

    #[test]
    fn every_http_flag() {
        let a = parse(&[
            "--http",
            "127.0.0.1:0",
            "--bearer-token-file",
            "/t",
            "--allow-host",
            "mcp.example.com",
            "--allow-host",
            "[2001:db8::1]",
            "--allow-origin",
            "https://app.example.com",
            "--allow-origin",
            "http://localhost:3000",
            "--max-concurrency",
            "3",
            "--request-timeout-ms",
            "250",
            "--max-connections",
            "9",
        ])
        .unwrap();
        assert_eq!(a.max_connections(), 9);
        assert_eq!(a.bearer_token_file, Some(PathBuf::from("/t")));
        assert_eq!(a.allow_hosts, vec!["mcp.example.com".to_string(), "[2001:db8::1]".to_string()]);
        assert_eq!(a.allow_origins, vec!["https://app.example.com".to_string(), "http://localhost:3000".to_string()]);
        assert_eq!(a.max_concurrency(), 3);
        assert_eq!(a.request_timeout(), Duration::from_millis(250));
    }

    #[test]
    fn http_only_flags_need_http() {
        for args in [
            &["--bearer-token-file", "/t"][..],
            &["--allow-host", "a.example"],
            &["--allow-origin", "https://a.example"],
            &["--max-concurrency", "4"],
            &["--max-connections", "4"],
            &["--request-timeout-ms", "100"],
        ] {
            let e = parse(args).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::MissingRequiredArgument, "{args:?}");
        }
    }

    #[test]
    fn http_flag_bounds() {
        for bad in [
            &["--max-concurrency", "0"][..],
            &["--max-concurrency", "1025"],
            &["--request-timeout-ms", "0"],
            &["--max-connections", "0"],
            &["--max-connections", "1000001"],
        ] {
            let args: Vec<&str> = ["--http"].into_iter().chain(bad.iter().copied()).collect();
            assert!(parse(&args).is_err(), "{args:?} accepted");
        }
        for bad in ["", "a,b", "a b", "host:80", "http://a", "[::1"] {
            assert!(parse(&["--http", "--allow-host", bad]).is_err(), "host {bad:?} accepted");
        }
        for bad in ["", "app.example.com", "ftp://a", "https://a/path", "https://a,https://b", "https://"] {
            assert!(parse(&["--http", "--allow-origin", bad]).is_err(), "origin {bad:?} accepted");
        }
    }

    #[test]
    fn concurrency_default_is_twice_the_cores_at_least_two() {
        assert_eq!(default_concurrency(0), 2);
        assert_eq!(default_concurrency(1), 2);
        assert_eq!(default_concurrency(2), 4);
        assert_eq!(default_concurrency(16), 32);
        assert_eq!(default_concurrency(usize::MAX), MAX_CONCURRENCY);
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
        for (code, meaning) in crate::exit::TABLE {
            assert!(h.to_string().contains(&format!("\n  {code}  {meaning}\n")), "{code} not in --help:\n{h}");
        }
        let v = parse(&["--version"]).unwrap_err();
        assert_eq!(v.kind(), ErrorKind::DisplayVersion);
        assert_eq!(v.exit_code(), 0);
    }

    /// Every flag `--help` prints (long and short) is in the first column of a row of the
    /// README's "Flags" table (shipped as SANDBOX.md; `tests/package/run` checks the shipped
    /// binary against the shipped file the same way), so the table cannot drift from clap.
    #[test]
    fn the_readme_flag_table_has_every_flag_of_help() {
        let readme = include_str!("../../README.md");
        let section = readme.split("\n## Flags\n").nth(1).expect("README.md has a \"## Flags\" section");
        let section = section.split("\n## ").next().unwrap_or(section);
        let first_cells: Vec<&str> =
            section.lines().filter_map(|l| l.strip_prefix("| ")?.split(" | ").next()).collect();
        let help = parse(&["--help"]).unwrap_err().to_string();
        let options = help.split("\nOptions:\n").nth(1).expect("--help has an Options section");
        let flags: Vec<&str> = options
            .lines()
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.trim_start().strip_prefix('-').map(|_| l.trim_start()))
            .flat_map(|l| l.split("  ").next().unwrap_or(l).split([',', ' ']))
            .filter(|w| w.starts_with('-'))
            .collect();
        assert!(flags.contains(&"--max-connections") && flags.contains(&"-v"), "{flags:?}");
        for flag in flags {
            let cell = format!("`{flag}");
            assert!(
                first_cells.iter().any(|c| c.split(cell.as_str()).skip(1).any(|rest| rest.starts_with(['`', ' ']))),
                "{flag} (in --help) is not in README.md's \"Flags\" table"
            );
        }
    }
}
