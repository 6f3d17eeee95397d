//! `momentum-plan-mcp-http`: the momentum-plan MCP server over Streamable HTTP
//! (mcp-server.md "Streamable HTTP"), a `wasm32-wasip2` component that exports
//! `wasi:http/incoming-handler`. Every request is served by [`momentum_plan_mcp::http::handle`]
//! with a fresh server: the component keeps nothing between requests, so any number of identical
//! instances can serve one deployment.
//!
//! Configuration comes only from the environment: `PLAN_STORE` (the store directory, default
//! `/plans`; read-only when it is not a granted directory), `MCP_HTTP_BEARER_TOKEN`,
//! `MCP_HTTP_ALLOWED_HOSTS` and `MCP_HTTP_ALLOWED_ORIGINS` (see [`momentum_plan_mcp::http`]).
//!
//! Run it with the project's runner (`momentum-plan-sandbox --http 127.0.0.1:8765 --store
//! ./plans`) or unchanged under `wasmtime serve -Scli --addr 127.0.0.1:8765 --dir ./plans::/plans
//! --env PLAN_STORE=/plans momentum-plan-mcp-http.wasm`.

// stdout is a protocol channel (the stdio transport; the HTTP component's response body) and
// stderr the log: every write goes through an explicit handle, never a print macro.
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[cfg(target_os = "wasi")]
mod component;

/// `wasi:cli/run` of the component (and the native build): it serves nothing, it says how.
fn main() -> std::process::ExitCode {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "momentum-plan-mcp-http serves MCP over HTTP (wasi:http/incoming-handler); it is not a command. \
         Serve it with `momentum-plan-sandbox --http` or `wasmtime serve -Scli momentum-plan-mcp-http.wasm`."
    );
    std::process::ExitCode::from(2)
}
