//! Running the guest on stdio: the run, its errors and exit status, the plan store (the grant
//! itself is [`crate::guest`]).

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use wasmtime::component::{Linker, ResourceTable};
use wasmtime::{Engine, Store};
use wasmtime_wasi::p2::bindings::sync::Command;
use wasmtime_wasi::{I32Exit, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use crate::cache;
use crate::exit;
use crate::guest::{GUEST_STORE, Grant, MemoryCap, STDIO_ARGV0, engine_config, grant};
use crate::locate::Wasm;
use crate::stdin::DirectStdin;

/// Everything [`run`] needs, already resolved (the component chosen, the cache directory chosen).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestRun {
    /// The component: a file, or the copy built into the runner.
    pub wasm: Wasm,
    /// Host directory to mount read-write at [`crate::guest::GUEST_STORE`], if any.
    pub store: Option<PathBuf>,
    /// Linear-memory cap in bytes.
    pub memory_bytes: usize,
    /// Compile-cache directory, `None` = compile in memory.
    pub cache_dir: Option<PathBuf>,
    /// Extra guest arguments (after `argv[0]`).
    pub guest_args: Vec<String>,
    /// Report steps and timings on stderr.
    pub verbose: bool,
}

/// Why a run failed before or while the guest ran. [`RunError::exit_code`] gives the
/// process exit code, `Display` the one-line message.
#[derive(Debug)]
pub enum RunError {
    /// The `.wasm` could not be read.
    UnreadableWasm(Wasm, std::io::Error),
    /// `--store` is unusable.
    BadStore(PathBuf, String),
    /// The `.wasm` does not compile, or does not link as a `wasi:cli` command.
    BadWasm(Wasm, String),
    /// The guest trapped.
    Trap(String),
    /// The guest asked for more memory than the cap.
    MemoryCap {
        /// The cap, in bytes.
        cap: usize,
        /// The size the guest asked for, in bytes.
        desired: usize,
    },
    /// Engine or WASI set-up failed.
    Internal(String),
    /// `--http` only: a command line that parses but cannot be served (a non-loopback address
    /// without a bearer token, an unusable token file). The text is the whole message.
    Usage(String),
    /// `--http` only: the `.wasm` does not compile, or is not a `wasi:http` proxy component
    /// (does not export `wasi:http/incoming-handler`, or imports what the runner does not grant).
    NotAProxy(Wasm, String),
    /// `--http` only: the address cannot be listened on (in use, not local, no permission).
    Listen(std::net::SocketAddr, std::io::Error),
}

impl RunError {
    /// The process exit code for this error (see [`crate::exit`]).
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::UnreadableWasm(..) => exit::NO_WASM,
            RunError::BadStore(..) => exit::BAD_STORE,
            RunError::BadWasm(..) | RunError::NotAProxy(..) => exit::BAD_WASM,
            RunError::Trap(_) => exit::TRAP,
            RunError::MemoryCap { .. } => exit::MEMORY_CAP,
            RunError::Internal(_) | RunError::Listen(..) => exit::INTERNAL,
            RunError::Usage(_) => exit::USAGE,
        }
    }
}

pub(crate) fn mib(bytes: usize) -> String {
    let m = bytes as f64 / (1024.0 * 1024.0);
    if bytes.is_multiple_of(1 << 20) { format!("{m:.0} MiB") } else { format!("{m:.1} MiB") }
}

/// Folds a multi-line error text (wasmtime's parse errors span lines) into one line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::UnreadableWasm(w, e) => write!(f, "cannot read {w}: {e}"),
            RunError::BadStore(p, why) => write!(f, "--store {}: {why}", p.display()),
            RunError::BadWasm(w, why) => {
                write!(f, "{w} is not a runnable wasm32-wasip2 command component: {why}")
            }
            RunError::Trap(why) => write!(f, "the server stopped with a trap: {why}"),
            RunError::MemoryCap { cap, desired } => write!(
                f,
                "the server ran out of memory: it needed {} but --memory-mib caps it at {}; \
                 raise --memory-mib",
                mib(*desired),
                mib(*cap)
            ),
            RunError::Internal(why) => write!(f, "sandbox set-up failed: {why}"),
            RunError::Usage(why) => f.write_str(why),
            RunError::NotAProxy(w, why) => {
                write!(f, "{w} is not a runnable wasi:http proxy component: {why}")
            }
            RunError::Listen(addr, e) => write!(f, "cannot listen on {addr}: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Per-store host state: the WASI context, its resource table and the memory limiter.
struct Host {
    ctx: WasiCtx,
    table: ResourceTable,
    limits: MemoryCap,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.ctx, table: &mut self.table }
    }
}

/// Mode of a store directory the runner creates: owner only (spec `mcp-server.md`, "Sandbox
/// and store").
pub const STORE_MODE: u32 = 0o700;

/// Makes `--store DIR` ready and returns it canonicalised (spec `mcp-server.md`, "Sandbox and
/// store"). An existing directory is used as it is, its mode untouched. A missing one is created
/// as `mkdir -p` would: missing parents with the default mode (the umask's), `DIR` itself with
/// mode [`STORE_MODE`] (set exactly, whatever the umask). One created meanwhile by another process
/// is used as it is.
///
/// # Errors
/// [`RunError::BadStore`] (exit 66): `DIR`, or a parent of it, exists and is not a directory;
/// `DIR` cannot be created (no permission, read-only file system) or inspected.
pub fn open_store(dir: &Path) -> Result<PathBuf, RunError> {
    let bad = |why: String| RunError::BadStore(dir.to_path_buf(), why);
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(bad("not a directory".into())),
        // A parent that is a file reads as `NotADirectory`.
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
            if let Some(file) = dir.ancestors().skip(1).find(|a| a.exists() && !a.is_dir()) {
                return Err(bad(format!("cannot create it: {} is not a directory", file.display())));
            }
            create_store(dir).map_err(|e| bad(format!("cannot create it: {e}")))?;
        }
        Err(e) => return Err(bad(e.to_string())),
    }
    std::fs::canonicalize(dir).map_err(|e| bad(e.to_string()))
}

/// Creates the missing store `dir`: its parents as `create_dir_all` does, `dir` with
/// [`STORE_MODE`].
fn create_store(dir: &Path) -> std::io::Result<()> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, STORE_MODE);
    match builder.create(dir) {
        Ok(()) => {
            // The umask may have cleared bits of the mode asked for.
            #[cfg(unix)]
            std::fs::set_permissions(dir, std::os::unix::fs::PermissionsExt::from_mode(STORE_MODE))?;
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// The WASI context: the process's stdio (stdin read directly, see [`crate::stdin`]) and the
/// [`grant`] with argv `momentum-plan-mcp + guest_args` and no variable but the store's.
fn wasi_ctx(store: Option<&Path>, guest_args: &[String]) -> Result<WasiCtx, RunError> {
    let mut b = WasiCtxBuilder::new();
    b.stdin(DirectStdin::host()).inherit_stdout().inherit_stderr();
    // Only the store can fail.
    grant(&mut b, &Grant { argv0: STDIO_ARGV0, args: guest_args, store, env: &[] })
        .map_err(|e| RunError::BadStore(store.map(Path::to_path_buf).unwrap_or_default(), format!("{e:#}")))?;
    Ok(b.build())
}

/// The runner's first stderr line in stdio mode (always printed, issue 29 finding 10): the host
/// folder granted as the store (the only line naming it: the guest's own line names no path, so
/// the user never sees the guest path [`GUEST_STORE`] as if it were theirs), or that there is none. `store`: the canonical host path from
/// [`open_store`]. Rule: mcp-server.md "Sandbox and store".
pub fn store_line(store: Option<&Path>) -> String {
    match store {
        Some(dir) => {
            format!("momentum-plan-sandbox: plan store {} (the server sees it as {GUEST_STORE})", dir.display())
        }
        None => "momentum-plan-sandbox: no --store given: the server is read-only (no save_plan)".to_string(),
    }
}

/// Runs the guest to its end. `Ok(code)` is the guest's exit status (0 normal end, 1 when
/// `run` returned an error, else the code it exited with).
pub fn run(guest: &GuestRun) -> Result<i32, RunError> {
    let t0 = Instant::now();
    let say = |what: &str| {
        if guest.verbose {
            eprintln!("momentum-plan-sandbox: [{:>7.2} ms] {what}", t0.elapsed().as_secs_f64() * 1e3);
        }
    };
    let store_dir = guest.store.as_deref().map(open_store).transpose()?;
    // Never a panic on a closed stderr: the session goes on without its log.
    let _ = writeln!(std::io::stderr(), "{}", store_line(store_dir.as_deref()));
    let wasm = guest.wasm.bytes().map_err(|e| RunError::UnreadableWasm(guest.wasm.clone(), e))?;
    say(&format!("read {} ({} bytes)", guest.wasm, wasm.len()));

    let engine = Engine::new(&engine_config()).map_err(|e| RunError::Internal(format!("{e:#}")))?;
    let (component, outcome) = cache::load(&engine, &wasm, guest.cache_dir.as_deref())
        .map_err(|e| RunError::BadWasm(guest.wasm.clone(), one_line(&e.to_string())))?;
    say(&outcome.describe());

    let mut linker: Linker<Host> = Linker::new(&engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(|e| RunError::Internal(format!("{e:#}")))?;
    let host = Host {
        ctx: wasi_ctx(store_dir.as_deref(), &guest.guest_args)?,
        table: ResourceTable::new(),
        limits: MemoryCap::new(guest.memory_bytes),
    };
    let mut store = Store::new(&engine, host);
    store.limiter(|h| &mut h.limits);

    let command = match Command::instantiate(&mut store, &component, &linker) {
        Ok(c) => c,
        Err(e) => {
            if let Some(desired) = store.data().limits.refused() {
                return Err(RunError::MemoryCap { cap: guest.memory_bytes, desired });
            }
            return Err(RunError::BadWasm(guest.wasm.clone(), one_line(&format!("{e:#}"))));
        }
    };
    say("instantiated; running");
    let result = command.wasi_cli_run().call_run(&mut store);
    say("guest finished");
    match result {
        Ok(Ok(())) => Ok(exit::OK),
        Ok(Err(())) => Ok(1),
        Err(e) => {
            if let Some(I32Exit(code)) = e.downcast_ref::<I32Exit>() {
                return Ok(*code);
            }
            if let Some(desired) = store.data().limits.refused() {
                return Err(RunError::MemoryCap { cap: guest.memory_bytes, desired });
            }
            match e.downcast_ref::<wasmtime::Trap>() {
                Some(trap) => Err(RunError::Trap(one_line(&trap.to_string()))),
                None => Err(RunError::Trap(one_line(format!("{e:#}").lines().next().unwrap_or("")))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(path).unwrap().permissions()) & 0o777
    }

    #[test]
    fn an_existing_store_is_used_as_it_is() {
        let dir = crate::testdir::tempdir();
        #[cfg(unix)]
        std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        assert_eq!(open_store(dir.path()).unwrap(), std::fs::canonicalize(dir.path()).unwrap());
        #[cfg(unix)]
        assert_eq!(mode(dir.path()), 0o755, "an existing store's mode is untouched");
    }

    #[test]
    fn a_missing_store_is_created_with_its_parents() {
        let dir = crate::testdir::tempdir();
        let store = dir.path().join("home").join("you").join("plans");
        assert_eq!(open_store(&store).unwrap(), std::fs::canonicalize(&store).unwrap());
        assert!(store.is_dir());
        assert_eq!(std::fs::read_dir(&store).unwrap().count(), 0);
        #[cfg(unix)]
        {
            assert_eq!(mode(&store), STORE_MODE);
            assert_ne!(mode(&dir.path().join("home")), 0, "parents get the default mode");
        }
        assert_eq!(open_store(Path::new("")).unwrap_err().exit_code(), exit::BAD_STORE, "an empty path is no store");
    }

    #[test]
    fn a_store_that_cannot_be_a_directory_keeps_its_error() {
        let dir = crate::testdir::tempdir();
        let file = dir.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        let e = open_store(&file).unwrap_err();
        assert_eq!(e.exit_code(), exit::BAD_STORE);
        assert_eq!(e.to_string(), format!("--store {}: not a directory", file.display()));
        let under_file = file.join("plans");
        let e = open_store(&under_file).unwrap_err();
        assert_eq!(e.exit_code(), exit::BAD_STORE);
        assert_eq!(
            e.to_string(),
            format!("--store {}: cannot create it: {} is not a directory", under_file.display(), file.display())
        );
        #[cfg(unix)]
        {
            // A parent without write permission (meaningless as root, who may write anyway).
            let locked = dir.path().join("locked");
            std::fs::create_dir(&locked).unwrap();
            std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o500)).unwrap();
            let inside = locked.join("plans");
            if std::fs::create_dir(locked.join("probe")).is_err() {
                let e = open_store(&inside).unwrap_err();
                assert_eq!(e.exit_code(), exit::BAD_STORE);
                assert!(e.to_string().contains("cannot create it: Permission denied"), "{e}");
                assert!(!inside.exists());
            }
            std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
        }
    }

    #[test]
    fn one_line_folds_whitespace() {
        assert_eq!(one_line("a\n  b\t[\n 0x0,\n]"), "a b [ 0x0, ]");
        assert_eq!(one_line(""), "");
    }

    #[test]
    fn messages_and_codes() {
        let e = RunError::MemoryCap { cap: 4 << 20, desired: (4 << 20) + (1 << 19) };
        assert_eq!(e.exit_code(), exit::MEMORY_CAP);
        assert!(e.to_string().contains("4.5 MiB") && e.to_string().contains("caps it at 4 MiB"));
        assert_eq!(RunError::Trap("x".into()).exit_code(), exit::TRAP);
        assert_eq!(RunError::BadWasm("a".into(), "b".into()).exit_code(), exit::BAD_WASM);
        assert_eq!(RunError::Internal("x".into()).exit_code(), exit::INTERNAL);
        let io = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert_eq!(RunError::UnreadableWasm("a".into(), io).exit_code(), exit::NO_WASM);
        assert_eq!(RunError::Usage("u".into()).exit_code(), exit::USAGE);
        assert_eq!(RunError::Usage("u".into()).to_string(), "u");
        assert_eq!(RunError::NotAProxy("a".into(), "b".into()).exit_code(), exit::BAD_WASM);
        assert!(RunError::NotAProxy("a".into(), "b".into()).to_string().contains("wasi:http proxy"));
        let io = std::io::Error::from(std::io::ErrorKind::AddrInUse);
        let e = RunError::Listen("127.0.0.1:1".parse().unwrap(), io);
        assert_eq!(e.exit_code(), exit::INTERNAL);
        assert!(e.to_string().starts_with("cannot listen on 127.0.0.1:1: "), "{e}");
    }
}
