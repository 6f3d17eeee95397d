//! `momentum-plan-sandbox`: the native runner that hosts the momentum-plan MCP server
//! (`momentum-plan-mcp.wasm`, a `wasm32-wasip2` command component) inside wasmtime, and with
//! `--http` the Streamable HTTP server (`momentum-plan-mcp-http.wasm`, a `wasi:http` proxy
//! component, one instance per request: [`http`]).
//!
//! What the guest gets (spec `mcp-server.md`, "Sandbox and store"; one grant for both transports,
//! [`guest`]):
//! - stdin, stdout and stderr of this process: stdout carries only the guest's protocol
//!   messages (the runner itself writes only to stderr); stdin is read on the guest's own
//!   thread ([`stdin`]), which saves two thread wake-ups per request;
//! - no network (TCP/UDP and name lookup denied), no host environment, no arguments other
//!   than its own name (plus anything after `--` on the runner's command line);
//! - with `--store DIR` only: `DIR` preopened read-write at `/plans` and the single
//!   environment variable `PLAN_STORE=/plans`; without it, no file system at all, so the
//!   server runs read-only;
//! - linear memory capped at `--memory-mib` MiB (default 64): a `memory.grow` past the cap
//!   fails as the WebAssembly spec allows (returns -1), and if the guest then stops with a
//!   trap the runner reports the cap, not a generic trap.
//!
//! The compiled component is cached on disk ([`cache`]), so only the first start of a given
//! `.wasm` pays for compilation. Both components are built into the runner (`build.rs`), so one
//! file starts anywhere; `--wasm` or an environment variable runs another ([`locate`]). Every
//! failure maps to a distinct exit code ([`exit`]).
//!
//! Modules: [`cli`] (arguments and their checks), [`locate`] (the component: embedded or a file),
//! [`cache`] (compile cache), [`guest`] (the guest's grant, memory cap, engine configuration and
//! environment names), [`run`] (the stdio run, errors, exit status, the store), [`stdin`] (the
//! guest's stdin), [`http`] (`--http`: the HTTP server, its pool, deadline and concurrency
//! limit), [`exit`] (exit codes).

pub mod cache;
pub mod cli;
pub mod exit;
pub mod guest;
pub mod http;
pub mod locate;
pub mod run;
pub mod stdin;

/// Test helper: a temporary directory removed on drop (std only, so the test build needs no
/// extra crates that could change wasmtime's dependency features).
#[cfg(test)]
pub(crate) mod testdir {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static NEXT: AtomicUsize = AtomicUsize::new(0);

    /// A fresh, empty directory under the system temp dir.
    pub(crate) struct TempDir(PathBuf);

    impl TempDir {
        pub(crate) fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Creates the directory (panics on failure: tests only).
    pub(crate) fn tempdir() -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "mp-sandbox-test-{}-{}-{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
}
