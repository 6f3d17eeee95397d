//! The MCP server state machine: one line in, the lines to write out (mcp-server.md).
//!
//! This module is the dispatch: lines, batches, the JSON-RPC message kinds and the method table.
//! The rest follows the sections of `shared/spec/mcp-server.md`:
//!
//! - [`eras`]: "Protocol eras on one stdio stream" (the classic session, the 2026-07-28
//!   envelope, the era's stamps on every result);
//! - [`tools`]: "Catalog", the tools and their two answers (a tool result, or a [`tools::ToolError`]);
//! - [`save`]: "Catalog", `save_plan` and its overwrite question (elicitation);
//! - [`resources`]: "Catalog", the `plan://{planId}` resources;
//! - [`prompts`]: "Catalog", the `draft_plan` prompt.
//!
//! Both eras share one stream. A request whose `params._meta` carries
//! `io.modelcontextprotocol/protocolVersion` is served statelessly under 2026-07-28; everything
//! else is served under the classic session (the version `initialize` negotiated, `2025-11-25`
//! before any `initialize`).

mod eras;
mod prompts;
mod resources;
mod save;
mod tools;

use crate::MAX_LINE_BYTES;
use crate::arguments::{self, ObjectArguments};
use crate::model::{CancelledParams, Empty, PaginatedParams, Version, parse_params};
use crate::rpc::{self, INVALID_REQUEST, IdScan, Message, RpcError, Skipped};
use crate::store::Store;
use eras::Session;
use save::PendingSave;
use serde_json::{Map, Value};

pub use eras::{CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY};
pub use resources::PAGE_SIZE;
pub use save::MAX_PENDING_QUESTIONS;

/// How the server is reached: it decides only whether a classic-era client can be asked a
/// question (mcp-server.md "Streamable HTTP", "Elicitation").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// One stdio stream: a classic-era `elicitation/create` is sent on it and answered on it.
    Stdio,
    /// Stateless HTTP: one request, one response, no stream to ask a classic client on.
    Http,
}

/// The MCP server: feed it lines, write what it returns.
///
/// ```
/// use momentum_plan_mcp::Server;
/// let mut server = Server::new(None); // read-only: no store
/// let out = server.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
/// assert_eq!(out, vec![r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_owned()]);
/// ```
pub struct Server {
    store: Option<Box<dyn Store>>,
    transport: Transport,
    session: Session,
    next_question_id: u64,
    pending: Vec<PendingSave>,
    /// The plan and request of the message being handled, kept as text ([`arguments`]).
    kept: ObjectArguments,
}

// `kept` (the text of the plan and request being handled) is left out of the Debug form on purpose.
#[allow(clippy::missing_fields_in_debug)]
impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("store", &self.store.is_some())
            .field("session", &self.session)
            .field("pending", &self.pending.len())
            .finish()
    }
}

impl Server {
    /// A server over `store` (`None`: read-only, no `save_plan`, no resources).
    #[must_use]
    pub fn new(store: Option<Box<dyn Store>>) -> Server {
        Server {
            store,
            transport: Transport::Stdio,
            session: Session { version: Version::V2025_11_25, elicitation: false, apps: false, initialized: false },
            next_question_id: 0,
            pending: Vec::new(),
            kept: ObjectArguments::default(),
        }
    }

    /// A server for one stateless HTTP request (mcp-server.md "Streamable HTTP"): the classic
    /// session is taken as settled at `version` (the `MCP-Protocol-Version` header, 2025-03-26
    /// when absent), and no question is ever sent to a classic client.
    pub(crate) fn for_http(store: Option<Box<dyn Store>>, version: Version) -> Server {
        Server {
            store,
            transport: Transport::Http,
            session: Session { version, elicitation: false, apps: false, initialized: true },
            next_question_id: 0,
            pending: Vec::new(),
            kept: ObjectArguments::default(),
        }
    }

    /// Whether the server has a store (and so offers `save_plan` and the resources).
    #[must_use]
    pub fn has_store(&self) -> bool {
        self.store.is_some()
    }

    /// The version the last `initialize` negotiated, or `None` before any.
    #[must_use]
    pub fn negotiated_version(&self) -> Option<&'static str> {
        self.session.initialized.then_some(self.session.version.as_str())
    }

    /// How many `save_plan` calls wait for the answer to their overwrite question.
    #[must_use]
    pub fn pending_questions(&self) -> usize {
        self.pending.len()
    }

    /// Handles one line read from stdin (any bytes; its `\n`, a `\r` before it and a leading
    /// UTF-8 BOM are ignored) and returns the lines to write to stdout, in order, each without
    /// its `\n`: responses, and requests this server sends (`elicitation/create`).
    ///
    /// Never panics. A blank line returns nothing; a line over [`MAX_LINE_BYTES`] returns
    /// [`Server::oversized_line`]'s answer (its id found by [`IdScan`]); a line that is not JSON returns `-32700` with
    /// `id: null`.
    pub fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        let line = strip_line(line);
        if line.len() > MAX_LINE_BYTES {
            return self.oversized_line(&IdScan::line(line));
        }
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
            return Vec::new();
        }
        match arguments::read_message(line) {
            Ok((value, kept)) => self.handle_read(value, kept),
            Err(e) => vec![rpc::error_line(&Value::Null, &e)],
        }
    }

    /// [`Server::handle_value`] for a message read by [`arguments::read_message`], with the
    /// arguments it kept as text.
    pub(crate) fn handle_read(&mut self, value: Value, kept: ObjectArguments) -> Vec<String> {
        self.kept = kept;
        let out = self.handle_value(value);
        self.kept = ObjectArguments::default();
        out
    }

    /// Handles one parsed message (an object, or an array: a batch) as [`Server::handle_line`]
    /// does after reading it.
    pub(crate) fn handle_value(&mut self, value: Value) -> Vec<String> {
        let mut out = Vec::new();
        match value {
            Value::Array(items) => self.handle_batch(items, &mut out),
            other => {
                let mut sent = Vec::new();
                let response = self.handle_message(rpc::classify(other), &mut sent);
                out.extend(sent);
                out.extend(response);
            }
        }
        out
    }

    /// The answer to a line longer than [`MAX_LINE_BYTES`], which the reader skipped without
    /// keeping it, given what an [`IdScan`] of its bytes found (mcp-server.md "JSON-RPC
    /// hygiene"): `-32600` with the request's id ([`Skipped::Request`]), or with `id: null`
    /// when none could be read ([`Skipped::Unknown`]); nothing for a notification
    /// ([`Skipped::Notification`]: JSON-RPC never answers one).
    #[must_use]
    pub fn oversized_line(&self, skipped: &Skipped) -> Vec<String> {
        if *skipped == Skipped::Notification {
            return Vec::new();
        }
        vec![rpc::error_line(
            &skipped.id(),
            &RpcError::new(
                INVALID_REQUEST,
                format!("Invalid Request: the line is longer than {MAX_LINE_BYTES} bytes and was skipped"),
            ),
        )]
    }

    /// A JSON array line: served only under 2025-03-26 (one array of responses), else `-32600`.
    fn handle_batch(&mut self, items: Vec<Value>, out: &mut Vec<String>) {
        if !(self.session.initialized && self.session.version == Version::V2025_03_26) {
            out.push(rpc::error_line(
                &Value::Null,
                &RpcError::new(
                    INVALID_REQUEST,
                    "Invalid Request: batches are only accepted under protocol version 2025-03-26",
                ),
            ));
            return;
        }
        if items.is_empty() {
            out.push(rpc::error_line(
                &Value::Null,
                &RpcError::new(INVALID_REQUEST, "Invalid Request: the batch is empty"),
            ));
            return;
        }
        let mut responses = Vec::new();
        let mut sent = Vec::new();
        for item in items {
            let message = match item {
                Value::Array(_) => Message::Invalid {
                    id: Value::Null,
                    error: RpcError::new(INVALID_REQUEST, "Invalid Request: a batch may not hold a batch"),
                },
                other => rpc::classify(other),
            };
            if let Message::Request { id, method, .. } = &message
                && method == "initialize"
            {
                responses.push(rpc::error_line(
                    id,
                    &RpcError::new(INVALID_REQUEST, "Invalid Request: initialize may not be part of a batch"),
                ));
                continue;
            }
            responses.extend(self.handle_message(message, &mut sent));
        }
        out.extend(sent);
        if !responses.is_empty() {
            out.push(format!("[{}]", responses.join(",")));
        }
    }

    /// One classified message: its response line, if it gets one now; server requests go to
    /// `sent`.
    fn handle_message(&mut self, message: Message, sent: &mut Vec<String>) -> Option<String> {
        match message {
            Message::Invalid { id, error } => Some(rpc::error_line(&id, &error)),
            Message::Notification { method, params } => {
                self.notification(&method, params);
                None
            }
            Message::Response { id, outcome } => self.answer(&id, outcome),
            Message::Request { id, method, params } => match self.request(&id, &method, params, sent) {
                Ok(line) => line,
                Err(e) => Some(rpc::error_line(&id, &e)),
            },
        }
    }

    /// Notifications are never answered; `notifications/cancelled` drops a waiting save.
    fn notification(&mut self, method: &str, params: Map<String, Value>) {
        if method == "notifications/cancelled"
            && let Ok(p) = parse_params::<CancelledParams>(params)
            && let Some(request_id) = p.request_id
        {
            self.cancel_save(&request_id);
        }
    }

    /// One request: `Ok(Some(line))` its response, `Ok(None)` no response yet (waiting for the
    /// overwrite answer), `Err` an error response.
    fn request(
        &mut self,
        id: &Value,
        method: &str,
        params: Map<String, Value>,
        sent: &mut Vec<String>,
    ) -> Result<Option<String>, RpcError> {
        if method == "initialize" {
            return self.initialize(id, params).map(Some);
        }
        let ctx = match eras::envelope(&params)? {
            Some(ctx) => ctx,
            None => self.session.ctx(),
        };
        let modern = ctx.modern();
        let store = self.store.is_some();
        match method {
            "server/discover" if modern => Ok(Some(self.discover(ctx, id))),
            "server/discover" => Err(eras::discover_without_envelope()),
            "ping" if !modern => Ok(Some(rpc::result_line(id, &Empty {}))),
            "tools/list" => {
                no_cursor(params)?;
                Ok(Some(tools::list(ctx, id, store)))
            }
            "tools/call" => self.call_tool(ctx, id, params, sent),
            "prompts/list" => {
                no_cursor(params)?;
                Ok(Some(prompts::list(ctx, id)))
            }
            "prompts/get" => prompts::get(ctx, id, params, store).map(Some),
            "resources/templates/list" if store || ctx.apps => {
                no_cursor(params)?;
                Ok(Some(resources::list_templates(ctx, id, store)))
            }
            "resources/list" if store || ctx.apps => self.list_resources(ctx, id, params).map(Some),
            "resources/read" if store || ctx.apps => self.read_resource(ctx, id, params).map(Some),
            _ => Err(RpcError::method_not_found(method)),
        }
    }
}

/// Strips the line's `\n`, one `\r` before it, and a leading UTF-8 BOM.
fn strip_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

/// A list request of a single-page list: any cursor is one this server never issued.
fn no_cursor(params: Map<String, Value>) -> Result<(), RpcError> {
    let p: PaginatedParams =
        parse_params(params).map_err(|_| RpcError::invalid_params("Invalid params: cursor must be a string"))?;
    match p.cursor {
        None => Ok(()),
        Some(_) => Err(RpcError::invalid_params("Invalid cursor")),
    }
}
