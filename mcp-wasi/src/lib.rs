//! # momentum-plan-mcp
//!
//! The momentum-plan MCP tool server (`shared/spec/mcp-server.md`): the validator of the
//! `momentum-plan` crate served over MCP, on stdio as the `wasm32-wasip2` command
//! `momentum-plan-mcp.wasm`, and over Streamable HTTP as the component
//! `momentum-plan-mcp-http.wasm` (crate `momentum-plan-mcp-http`). This library holds the whole
//! protocol; the stdio binary (`main.rs`) is a thin shell around [`stdio::serve`], the HTTP
//! component a thin shell around [`http::handle`].
//!
//! - Both protocol eras on one stream: the classic handshake (`2024-11-05`, `2025-03-26`,
//!   `2025-06-18`, `2025-11-25`) and the stateless `2026-07-28` revision (`server/discover`,
//!   per-request `_meta`, `resultType`, caching hints, `input_required`).
//! - Tools `get_plan_contract`, `validate_plan`, `repair_plan`, `get_plan_schema`,
//!   `export_calendar`, `import_commitments`, `save_plan` (with a store); resource template
//!   `plan://{planId}` and `resources/list`/`resources/read` (with a store); prompt `draft_plan`.
//! - Every verdict comes from [`momentum_plan::validate`], every repair from
//!   [`momentum_plan::repair`], every plan schema from [`momentum_plan::plan_schema`], every
//!   calendar and commitment import from `momentum_plan_calendar`; no rule is written here.
//!
//! ```
//! use momentum_plan_mcp::Server;
//! let mut server = Server::new(None);
//! let out = server.handle_line(
//!     br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"get_plan_contract"}}"#,
//! );
//! assert_eq!(out.len(), 1);
//! assert!(out[0].starts_with(r#"{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text""#));
//! ```
//!
//! The API other code relies on (tests, fuzzing, the sandbox's end-to-end tests):
//! [`Server::new`], [`Server::handle_line`] (any bytes, never panics),
//! [`Server::oversized_line`], [`stdio::serve`], [`http::handle`], the [`Store`] trait and
//! [`DirStore`].

// stdout is a protocol channel (the stdio transport; the HTTP component's response body) and
// stderr the log: every write goes through an explicit handle, never a print macro.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod apps;
mod arguments;
mod catalog;
pub mod http;
mod model;
pub mod rpc;
mod server;
pub mod stdio;
pub mod store;

pub use apps::{UI_EXTENSION, VIEW_HTML, VIEW_MIME, VIEW_URI};
pub use catalog::{
    DRAFT_PLAN, EXPORT_CALENDAR, GET_PLAN_CONTRACT, GET_PLAN_SCHEMA, IMPORT_COMMITMENTS, JSON_MIME, PLAN_URI_PREFIX,
    PLAN_URI_TEMPLATE, REPAIR_PLAN, REQUEST_JSON, SAVE_PLAN, SERVER_NAME, SERVER_TITLE, SERVER_VERSION, VALIDATE_PLAN,
};
pub use model::Version;
pub use server::{CLIENT_CAPABILITIES_KEY, MAX_PENDING_QUESTIONS, PAGE_SIZE, PROTOCOL_VERSION_KEY, Server};
pub use store::{DirStore, Store};

/// Longest line served, in bytes (without its `\n` and an optional `\r` before it): 4 MiB.
/// A longer line is answered `-32600` and skipped.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;
