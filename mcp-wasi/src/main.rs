//! `momentum-plan-mcp`: the MCP tool server on stdio (mcp-server.md). Build it for
//! `wasm32-wasip2` and run it in a sandbox that grants the store directory, e.g.
//! `wasmtime run --dir ./plans::/plans momentum-plan-mcp.wasm`.
//!
//! stdout carries protocol messages only; the log goes to stderr. End of input: exit 0.

// stdout is a protocol channel (the stdio transport; the HTTP component's response body) and
// stderr the log: every write goes through an explicit handle, never a print macro.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use momentum_plan_mcp::{DirStore, SERVER_NAME, SERVER_VERSION, Server, Store, stdio};
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let (dir, store) = DirStore::from_env();
    let mut stderr = io::stderr();
    let _ = match &store {
        Some(_) => writeln!(stderr, "{SERVER_NAME} {SERVER_VERSION}: plan store {}", dir.display()),
        None => writeln!(
            stderr,
            "{SERVER_NAME} {SERVER_VERSION}: no plan store at {} (not a granted directory): read-only",
            dir.display()
        ),
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
