//! `momentum-plan-mcp`: the MCP tool server on stdio (mcp-server.md). Build it for
//! `wasm32-wasip2` and run it in a sandbox that grants the store directory, e.g.
//! `wasmtime run --dir ./plans::/plans momentum-plan-mcp.wasm`.
//!
//! stdout carries protocol messages only; the log goes to stderr. End of input: exit 0.

// stdout is a protocol channel (the stdio transport; the HTTP component's response body) and
// stderr the log: every write goes through an explicit handle, never a print macro.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use momentum_plan_mcp::store::PLAN_STORE_ENV;
use momentum_plan_mcp::{DirStore, SERVER_NAME, SERVER_VERSION, Server, Store, stdio};
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let (dir, store) = DirStore::from_env();
    // The line names no guest path the user never gave: a runner maps the host folder the user
    // chose to the guest's `/plans` (momentum-plan-sandbox's own first line names that folder), so
    // only a `PLAN_STORE` set by hand that is not a granted directory is named, as it was set.
    let set_by_hand = std::env::var_os(PLAN_STORE_ENV).is_some_and(|v| !v.is_empty());
    let mut stderr = io::stderr();
    let _ = match (&store, set_by_hand) {
        (Some(_), _) => writeln!(stderr, "{SERVER_NAME} {SERVER_VERSION}: plan store granted: read-write"),
        (None, true) => writeln!(
            stderr,
            "{SERVER_NAME} {SERVER_VERSION}: {PLAN_STORE_ENV}={} is not a granted directory: read-only (no save_plan)",
            dir.display()
        ),
        (None, false) => {
            writeln!(stderr, "{SERVER_NAME} {SERVER_VERSION}: no plan store granted: read-only (no save_plan)")
        }
    };
    let mut server = Server::new(store.map(|s| Box::new(s) as Box<dyn Store>));
    match stdio::serve(&mut server, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // The client closed our stdout: nobody is left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(stderr, "{SERVER_NAME}: stdio failed: {e}");
            ExitCode::FAILURE
        }
    }
}
