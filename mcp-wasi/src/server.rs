//! The MCP server state machine: one line in, the lines to write out (mcp-server.md).
//!
//! Both eras share one stream. A request whose `params._meta` carries
//! `io.modelcontextprotocol/protocolVersion` is served statelessly under 2026-07-28; everything
//! else is served under the classic session (the version `initialize` negotiated, `2025-11-25`
//! before any `initialize`).

use crate::MAX_LINE_BYTES;
use crate::apps;
use crate::catalog::{
    self, DRAFT_PLAN, GET_PLAN_CONTRACT, GET_PLAN_SCHEMA, JSON_MIME, PLAN_URI_PREFIX, REPAIR_PLAN, REQUEST_JSON,
    SAVE_PLAN, VALIDATE_PLAN,
};
use crate::model::{
    CacheHints, CallToolParams, CallToolResult, CancelledParams, DiscoverResult, ElicitAction, ElicitParams,
    ElicitResult, Empty, GetPromptParams, GetPromptResult, InitializeParams, InitializeResult, InputRequest,
    InputRequiredResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Modern,
    OverwriteInputRequests, PaginatedParams, PromptMessage, ReadResourceParams, ReadResourceResult, Resource,
    ResultMeta, ServerCapabilities, TextContent, TextResourceContents, Version, parse_params,
};
use crate::rpc::{
    self, INTERNAL_ERROR, INVALID_REQUEST, MAX_LINE_VALUES, Message, RESOURCE_NOT_FOUND, RpcError,
    UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::store::{self, Store};
use momentum_plan::{Input, Issue, IssueCode, RepairOptions, SchemaVariant, validate};

use crate::arguments::{self, ObjectArguments};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

/// `_meta` key carrying a 2026-07-28 request's protocol version.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying a 2026-07-28 request's client capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// Size of a `resources/list` page.
pub const PAGE_SIZE: usize = 100;
/// Most overwrite questions (`elicitation/create`) waiting for an answer at once; a save that
/// would ask one more leaves the saved plan as it is and says why.
pub const MAX_PENDING_QUESTIONS: usize = 16;

/// How the server is reached: it decides only whether a classic-era client can be asked a
/// question (mcp-server.md "Streamable HTTP", "Elicitation").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// One stdio stream: a classic-era `elicitation/create` is sent on it and answered on it.
    Stdio,
    /// Stateless HTTP: one request, one response, no stream to ask a classic client on.
    Http,
}

/// What the classic handshake settled (or the defaults before any `initialize`).
#[derive(Debug, Clone, Copy)]
struct Session {
    version: Version,
    /// The client declared form elicitation in `initialize`.
    elicitation: bool,
    /// The client declared the MCP Apps extension in `initialize` (`apps::declares_apps`).
    apps: bool,
    initialized: bool,
}

/// How one request is served: its revision and whether the overwrite question may be asked.
#[derive(Debug, Clone, Copy)]
struct Ctx {
    version: Version,
    elicitation: bool,
    /// The plan view is offered (`apps`).
    apps: bool,
}

impl Ctx {
    fn modern(self) -> bool {
        self.version == Version::V2026_07_28
    }

    fn structured(self) -> bool {
        self.version >= Version::V2025_06_18
    }
}

/// A `save_plan` call waiting for the answer to its `elicitation/create`.
#[derive(Debug)]
struct PendingSave {
    question_id: u64,
    call_id: Value,
    version: Version,
    plan_id: String,
    bytes: Vec<u8>,
    warnings: Vec<Issue>,
}

/// The result of `save_plan`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SaveResult<'a> {
    saved: bool,
    plan_id: &'a str,
    uri: String,
    warnings: Vec<Issue>,
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
    /// [`Server::oversized_line`]'s answer; a line that is not JSON returns `-32700` with
    /// `id: null`.
    pub fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        let line = strip_line(line);
        if line.len() > MAX_LINE_BYTES {
            return self.oversized_line();
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

    /// The answer to a line longer than [`MAX_LINE_BYTES`] (which the reader skipped without
    /// keeping it): `-32600` with `id: null`.
    #[must_use]
    pub fn oversized_line(&self) -> Vec<String> {
        vec![rpc::error_line(
            &Value::Null,
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
            self.pending.retain(|s| s.call_id != request_id);
        }
    }

    /// A response from the client: completes the save waiting for it, if any.
    fn answer(&mut self, id: &Value, outcome: Result<Value, Value>) -> Option<String> {
        let question_id = id.as_u64()?;
        let at = self.pending.iter().position(|s| s.question_id == question_id)?;
        let pending = self.pending.remove(at);
        let uri = plan_uri(&pending.plan_id);
        let refusal = match outcome {
            Err(error) => {
                let code = error.get("code").map(Value::to_string).unwrap_or_default();
                let message = error.get("message").and_then(Value::as_str).unwrap_or("no message");
                Some(format!(
                    "The question whether to replace {uri} could not be asked (the client answered with error {code}: {message}); the saved plan was left unchanged."
                ))
            }
            Ok(result) => match serde_json::from_value::<ElicitResult>(result) {
                Ok(answer) => refusal_of(&answer, &uri),
                Err(_) => Some(format!(
                    "The answer to the question whether to replace {uri} could not be read; the saved plan was left unchanged."
                )),
            },
        };
        let ctx = Ctx { version: pending.version, elicitation: true, apps: false };
        let line = self.finish_save(ctx, &pending.call_id, &pending.plan_id, &pending.bytes, pending.warnings, refusal);
        Some(line)
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
        let ctx = match envelope(&params)? {
            Some(ctx) => ctx,
            None => Ctx {
                version: self.session.version,
                elicitation: self.session.elicitation && self.session.version >= Version::V2025_06_18,
                apps: self.session.apps,
            },
        };
        let modern = ctx.modern();
        let store = self.store.is_some();
        match method {
            "server/discover" if modern => Ok(Some(respond(
                ctx,
                id,
                &DiscoverResult {
                    supported_versions: [Version::V2026_07_28.as_str()],
                    capabilities: self.capabilities(ctx.apps),
                    instructions: catalog::instructions(store),
                },
                Some(CacheHints::PUBLIC),
            ))),
            "server/discover" => Err(RpcError::invalid_params(format!(
                "Invalid params: server/discover needs params._meta with \"{PROTOCOL_VERSION_KEY}\" and \"{CLIENT_CAPABILITIES_KEY}\""
            ))),
            "ping" if !modern => Ok(Some(rpc::result_line(id, &Empty {}))),
            "tools/list" => {
                no_cursor(params)?;
                Ok(Some(respond(
                    ctx,
                    id,
                    &ListToolsResult { tools: apps::tools(ctx.apps, catalog::tools(ctx.version, store)) },
                    Some(CacheHints::PUBLIC),
                )))
            }
            "tools/call" => self.call_tool(ctx, id, params, sent),
            "prompts/list" => {
                no_cursor(params)?;
                Ok(Some(respond(
                    ctx,
                    id,
                    &ListPromptsResult { prompts: vec![catalog::draft_prompt(ctx.version)] },
                    Some(CacheHints::PUBLIC),
                )))
            }
            "prompts/get" => get_prompt(ctx, id, params, store).map(Some),
            "resources/templates/list" if store || ctx.apps => {
                no_cursor(params)?;
                let resource_templates = if store { vec![catalog::plan_template(ctx.version)] } else { Vec::new() };
                Ok(Some(respond(
                    ctx,
                    id,
                    &ListResourceTemplatesResult { resource_templates },
                    Some(CacheHints::PUBLIC),
                )))
            }
            "resources/list" if store || ctx.apps => self.list_resources(ctx, id, params).map(Some),
            "resources/read" if store || ctx.apps => self.read_resource(ctx, id, params).map(Some),
            _ => Err(RpcError::method_not_found(method)),
        }
    }

    /// `resources` with a store, or for a client offered the plan view (`apps`).
    fn capabilities(&self, apps: bool) -> ServerCapabilities {
        let resources = (self.store.is_some() || apps).then_some(Empty {});
        ServerCapabilities { tools: Empty {}, resources, prompts: Empty {} }
    }

    /// The classic handshake: echo a supported version, else answer `2025-11-25`. Params that
    /// do not fit `InitializeRequest` are `-32602`.
    fn initialize(&mut self, id: &Value, params: Map<String, Value>) -> Result<String, RpcError> {
        let p = InitializeParams::from_map(params).map_err(RpcError::invalid_params)?;
        let version = Version::classic(&p.protocol_version).unwrap_or(Version::V2025_11_25);
        let elicitation = declares_form_elicitation(&p.capabilities);
        // Over HTTP each request is served alone: the view could not be linked after this one.
        let apps = self.transport == Transport::Stdio && apps::declares_apps(&p.capabilities);
        self.session = Session { version, elicitation, apps, initialized: true };
        Ok(rpc::result_line(
            id,
            &InitializeResult {
                protocol_version: version.as_str(),
                capabilities: self.capabilities(self.session.apps),
                server_info: catalog::implementation(version),
                instructions: catalog::instructions(self.store.is_some()),
            },
        ))
    }

    fn call_tool(
        &mut self,
        ctx: Ctx,
        id: &Value,
        params: Map<String, Value>,
        sent: &mut Vec<String>,
    ) -> Result<Option<String>, RpcError> {
        let kept = std::mem::take(&mut self.kept);
        let p = CallToolParams::from_map(params).map_err(RpcError::invalid_params)?;
        match p.name.as_str() {
            GET_PLAN_CONTRACT => Ok(Some(match no_arguments(p.arguments) {
                Ok(()) => {
                    let contract = momentum_plan::contract();
                    let text = serde_json::to_string(contract).unwrap_or_default();
                    tool_result(ctx, id, contract, text)
                }
                Err(message) => tool_error(ctx, id, message),
            })),
            VALIDATE_PLAN => Ok(Some(match plan_arguments(VALIDATE_PLAN, p.arguments, &[]) {
                Ok((plan, request, _)) => {
                    let verdict = kept.verdict(plan, request);
                    let text = verdict.to_json();
                    tool_result(ctx, id, &verdict, text)
                }
                Err(message) => tool_error(ctx, id, message),
            })),
            REPAIR_PLAN => Ok(Some(match plan_arguments(REPAIR_PLAN, p.arguments, &[UNSAFE]) {
                Ok((plan, request, options)) => {
                    let (plan, request) = kept.values(plan, request);
                    repair_plan(ctx, id, &plan, &request, options.unsafe_fixes)
                }
                Err(message) => tool_error(ctx, id, message),
            })),
            GET_PLAN_SCHEMA => Ok(Some(match schema_arguments(p.arguments) {
                Ok((request, variant)) => match momentum_plan::plan_schema(&request, variant) {
                    Ok(schema) => {
                        let text = schema.to_string();
                        tool_result(ctx, id, &schema, text)
                    }
                    Err(e) => tool_error(ctx, id, e.to_string()),
                },
                Err(message) => tool_error(ctx, id, message),
            })),
            SAVE_PLAN if self.store.is_some() => match plan_arguments(SAVE_PLAN, p.arguments, &[]) {
                Ok((plan, request, _)) => {
                    let (plan, request) = kept.values(plan, request);
                    self.save_plan(ctx, id, &plan, &request, p.input_responses, sent)
                }
                Err(message) => Ok(Some(tool_error(ctx, id, message))),
            },
            other => Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
        }
    }

    /// `save_plan` (mcp-server.md): validate, check the id, write or ask first.
    fn save_plan(
        &mut self,
        ctx: Ctx,
        id: &Value,
        plan: &Value,
        request: &Value,
        input_responses: Option<Map<String, Value>>,
        sent: &mut Vec<String>,
    ) -> Result<Option<String>, RpcError> {
        let verdict = validate(plan, request);
        if !verdict.valid {
            let mut text = String::from("Plan not saved.");
            for e in &verdict.errors {
                text.push_str(" | ");
                text.push_str(&e.path);
                text.push_str(": ");
                text.push_str(&e.message);
            }
            return Ok(Some(tool_error(ctx, id, text)));
        }
        // A valid plan is an object, or text that the strict reader parses into one.
        let parsed;
        let object = match plan {
            Value::String(text) => match momentum_plan::json::parse(text) {
                Ok(v) => {
                    parsed = v;
                    &parsed
                }
                Err(e) => {
                    return Ok(Some(tool_error(ctx, id, format!("Plan not saved: its text could not be read ({e})."))));
                }
            },
            other => other,
        };
        let request_id = object.get("requestId");
        let plan_id = match request_id.and_then(Value::as_str) {
            Some(s) if store::is_safe_id(s) => s.to_owned(),
            _ => {
                let shown = request_id.map_or_else(|| "(none)".to_owned(), Value::to_string);
                return Ok(Some(tool_error(
                    ctx,
                    id,
                    format!(
                        "Plan not saved: its requestId {shown} cannot be used as a plan id. A plan id must be 1 to {} characters from A-Z, a-z, 0-9, '.', '_' and '-', starting with a letter or digit; nothing was written. Tell the user the plan cannot be saved under this requestId.",
                        store::MAX_ID_LEN
                    ),
                )));
            }
        };
        let mut bytes = match serde_json::to_vec_pretty(object) {
            Ok(b) => b,
            Err(e) => {
                return Ok(Some(tool_error(
                    ctx,
                    id,
                    format!("Plan not saved: it could not be written as JSON ({e})."),
                )));
            }
        };
        bytes.push(b'\n');
        let warnings = verdict.warnings;
        let Some(store) = self.store.as_ref() else {
            return Err(RpcError::invalid_params(format!("Unknown tool: {SAVE_PLAN}")));
        };
        let exists = match store.exists(&store::file_name(&plan_id)) {
            Ok(e) => e,
            Err(e) => {
                return Ok(Some(tool_error(
                    ctx,
                    id,
                    format!("Plan not saved: the plan store could not be read ({e})."),
                )));
            }
        };
        let uri = plan_uri(&plan_id);
        if !exists {
            return Ok(Some(self.finish_save(ctx, id, &plan_id, &bytes, warnings, None)));
        }
        if ctx.modern() {
            if let Some(mut responses) = input_responses
                && let Some(answer) = responses.remove("overwrite")
            {
                let answer = serde_json::from_value::<ElicitResult>(answer).map_err(|_| {
                    RpcError::invalid_params(
                        "Invalid params: inputResponses.overwrite must be an elicitation result {action, content}",
                    )
                })?;
                let refusal = refusal_of(&answer, &uri);
                return Ok(Some(self.finish_save(ctx, id, &plan_id, &bytes, warnings, refusal)));
            }
            if ctx.elicitation {
                let result = InputRequiredResult {
                    result_type: "input_required",
                    input_requests: OverwriteInputRequests {
                        overwrite: InputRequest {
                            method: "elicitation/create",
                            params: overwrite_question(ctx.version, &plan_id),
                        },
                    },
                    meta: ResultMeta { server_info: catalog::implementation(ctx.version) },
                };
                return Ok(Some(rpc::result_line(id, &result)));
            }
            let refusal = Some(no_capability(&uri));
            return Ok(Some(self.finish_save(ctx, id, &plan_id, &bytes, warnings, refusal)));
        }
        if self.transport == Transport::Http {
            let refusal = Some(classic_http_cannot_ask(&uri));
            return Ok(Some(self.finish_save(ctx, id, &plan_id, &bytes, warnings, refusal)));
        }
        if !ctx.elicitation {
            let refusal = Some(no_capability(&uri));
            return Ok(Some(self.finish_save(ctx, id, &plan_id, &bytes, warnings, refusal)));
        }
        if self.pending.len() >= MAX_PENDING_QUESTIONS {
            let refusal = Some(format!(
                "{uri} is already saved and {} questions to the user are still unanswered; the saved plan was left unchanged. Try again once they are answered.",
                self.pending.len()
            ));
            return Ok(Some(self.finish_save(ctx, id, &plan_id, &bytes, warnings, refusal)));
        }
        self.next_question_id += 1;
        let question_id = self.next_question_id;
        sent.push(rpc::request_line(question_id, "elicitation/create", &overwrite_question(ctx.version, &plan_id)));
        self.pending.push(PendingSave {
            question_id,
            call_id: id.clone(),
            version: ctx.version,
            plan_id,
            bytes,
            warnings,
        });
        Ok(None)
    }

    /// Writes the plan (when `refusal` is `None`) and returns the `save_plan` result line;
    /// otherwise leaves the saved plan and adds the `notSaved` warning with the reason.
    fn finish_save(
        &mut self,
        ctx: Ctx,
        id: &Value,
        plan_id: &str,
        bytes: &[u8],
        mut warnings: Vec<Issue>,
        refusal: Option<String>,
    ) -> String {
        let saved = match refusal {
            None => {
                let written = match self.store.as_mut() {
                    Some(store) => store.write_atomic(&store::file_name(plan_id), bytes),
                    None => Err(std::io::Error::other("the server has no plan store")),
                };
                if let Err(e) = written {
                    return tool_error(ctx, id, format!("Plan not saved: the plan store could not be written ({e})."));
                }
                true
            }
            Some(reason) => {
                warnings.push(Issue::new(IssueCode::NotSaved, "$", reason));
                false
            }
        };
        let result = SaveResult { saved, plan_id, uri: plan_uri(plan_id), warnings };
        let text = serde_json::to_string(&result).unwrap_or_default();
        tool_result(ctx, id, &result, text)
    }

    fn list_resources(&self, ctx: Ctx, id: &Value, params: Map<String, Value>) -> Result<String, RpcError> {
        let p: PaginatedParams =
            parse_params(params).map_err(|_| RpcError::invalid_params("Invalid params: cursor must be a string"))?;
        let after = match p.cursor {
            None => None,
            Some(c) => Some(store::decode_cursor(&c).ok_or_else(|| RpcError::invalid_params("Invalid cursor"))?),
        };
        let names = self.store.as_ref().map_or_else(|| Ok(Vec::new()), |s| s.file_names()).map_err(|e| {
            RpcError::new(INTERNAL_ERROR, format!("Internal error: the plan store could not be read: {e}"))
        })?;
        let mut ids: Vec<&str> = names
            .iter()
            .filter_map(|n| store::id_of_file_name(n))
            .filter(|id| after.as_deref().is_none_or(|a| *id > a))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let next_cursor = (ids.len() > PAGE_SIZE).then(|| store::encode_cursor(ids[PAGE_SIZE - 1]));
        ids.truncate(PAGE_SIZE);
        let resources = ids
            .into_iter()
            .map(|plan_id| Resource {
                uri: plan_uri(plan_id),
                name: plan_id.to_owned(),
                title: None,
                mime_type: JSON_MIME,
            })
            .collect();
        Ok(respond(ctx, id, &ListResourcesResult { resources, next_cursor }, Some(CacheHints::PRIVATE)))
    }

    fn read_resource(&self, ctx: Ctx, id: &Value, params: Map<String, Value>) -> Result<String, RpcError> {
        let p: ReadResourceParams = parse_params(params)
            .map_err(|_| RpcError::invalid_params("Invalid params: resources/read needs a string uri"))?;
        if ctx.apps && p.uri == apps::VIEW_URI {
            return Ok(respond(ctx, id, &apps::read_result(), Some(CacheHints::PRIVATE)));
        }
        let plan_id = p.uri.strip_prefix(PLAN_URI_PREFIX).filter(|i| store::is_safe_id(i));
        let bytes = match (plan_id, self.store.as_ref()) {
            (Some(plan_id), Some(store)) => store.read(&store::file_name(plan_id)).map_err(|e| {
                RpcError::new(INTERNAL_ERROR, format!("Internal error: the plan could not be read: {e}"))
            })?,
            _ => None,
        };
        let Some(bytes) = bytes else {
            let code = if ctx.modern() { rpc::INVALID_PARAMS } else { RESOURCE_NOT_FOUND };
            return Err(RpcError::with_data(code, "Resource not found", json!({ "uri": p.uri })));
        };
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(respond(
            ctx,
            id,
            &ReadResourceResult { contents: vec![TextResourceContents { uri: p.uri, mime_type: JSON_MIME, text }] },
            Some(CacheHints::PRIVATE),
        ))
    }
}

/// Strips the line's `\n`, one `\r` before it, and a leading UTF-8 BOM.
fn strip_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

/// Reads the 2026-07-28 envelope of a request: `Ok(None)` when there is none (classic),
/// `Ok(Some(ctx))` when it is valid, else `-32022` or `-32602` (mcp-server.md "Stateless").
fn envelope(params: &Map<String, Value>) -> Result<Option<Ctx>, RpcError> {
    let Some(Value::Object(meta)) = params.get("_meta") else {
        return Ok(None);
    };
    let Some(version) = meta.get(PROTOCOL_VERSION_KEY) else {
        return Ok(None);
    };
    match version {
        Value::String(v) if v == Version::V2026_07_28.as_str() => {}
        Value::String(v) => {
            return Err(RpcError::with_data(
                UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
                json!({"supported": [Version::V2026_07_28.as_str()], "requested": v}),
            ));
        }
        _ => {
            return Err(RpcError::invalid_params(format!(
                "Invalid params: _meta[\"{PROTOCOL_VERSION_KEY}\"] must be a string"
            )));
        }
    }
    match meta.get(CLIENT_CAPABILITIES_KEY) {
        Some(Value::Object(caps)) => Ok(Some(Ctx {
            version: Version::V2026_07_28,
            elicitation: declares_form_elicitation(caps),
            apps: apps::declares_apps(caps),
        })),
        Some(_) => Err(RpcError::invalid_params(format!(
            "Invalid params: _meta[\"{CLIENT_CAPABILITIES_KEY}\"] must be an object"
        ))),
        None => {
            Err(RpcError::invalid_params(format!("Invalid params: _meta[\"{CLIENT_CAPABILITIES_KEY}\"] is required")))
        }
    }
}

/// Whether client capabilities declare form elicitation: `elicitation` is an object that has
/// `form`, or has no `url` (`{}` means form only).
fn declares_form_elicitation(caps: &Map<String, Value>) -> bool {
    match caps.get("elicitation") {
        Some(Value::Object(e)) => e.contains_key("form") || !e.contains_key("url"),
        _ => false,
    }
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

/// A complete result line: in 2026-07-28 with `resultType`, the caching hints given and the
/// `serverInfo` stamp; in the classic era as is.
fn respond<R: Serialize>(ctx: Ctx, id: &Value, result: &R, cache: Option<CacheHints>) -> String {
    if ctx.modern() {
        rpc::result_line(
            id,
            &Modern {
                inner: result,
                result_type: "complete",
                cache,
                meta: ResultMeta { server_info: catalog::implementation(ctx.version) },
            },
        )
    } else {
        rpc::result_line(id, result)
    }
}

/// A successful tool result: `structuredContent` (from 2025-06-18) and the same JSON as text.
fn tool_result<S: Serialize>(ctx: Ctx, id: &Value, structured: &S, text: String) -> String {
    respond(
        ctx,
        id,
        &CallToolResult {
            content: [TextContent::new(text)],
            structured_content: ctx.structured().then_some(structured),
            is_error: false,
        },
        None,
    )
}

/// A tool error: one text block, `isError: true`, no `structuredContent`.
fn tool_error(ctx: Ctx, id: &Value, text: String) -> String {
    respond(
        ctx,
        id,
        &CallToolResult::<Empty> { content: [TextContent::new(text)], structured_content: None, is_error: true },
        None,
    )
}

/// What a JSON value is, for messages ("a number").
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn unexpected(args: &Map<String, Value>) -> String {
    let names: Vec<String> = args.keys().map(|k| format!("`{k}`")).collect();
    format!("unexpected argument{} {}", if names.len() == 1 { "" } else { "s" }, names.join(", "))
}

/// `get_plan_contract` takes no arguments.
fn no_arguments(arguments: Map<String, Value>) -> Result<(), String> {
    if arguments.is_empty() {
        return Ok(());
    }
    Err(format!(
        "Invalid arguments for {GET_PLAN_CONTRACT}: it takes no arguments ({}); call it with {{}}.",
        unexpected(&arguments)
    ))
}

/// The optional boolean argument of `repair_plan`.
const UNSAFE: &str = "unsafe";
/// The optional argument of `get_plan_schema`.
const VARIANT: &str = "variant";

/// What the optional arguments of a plan tool asked for (only `repair_plan` has any).
#[derive(Debug, Clone, Copy, Default)]
struct PlanOptions {
    unsafe_fixes: bool,
}

/// The `plan` and `request` arguments of `validate_plan`, `repair_plan` and `save_plan`, and
/// the optional ones `optional` names (`unsafe`: a boolean), or the tool error text naming every
/// argument that does not fit the input schema.
fn plan_arguments(
    tool: &str,
    mut args: Map<String, Value>,
    optional: &[&str],
) -> Result<(Value, Value, PlanOptions), String> {
    let plan = args.remove("plan");
    let request = args.remove("request");
    let mut problems = Vec::new();
    let mut options = PlanOptions::default();
    match &plan {
        None => problems
            .push("`plan` is missing: pass the plan as a JSON object, or its JSON text as one string".to_owned()),
        Some(Value::String(text)) if rpc::more_values_than(text.as_bytes(), MAX_LINE_VALUES) => {
            problems.push(format!(
                "the `plan` text holds more than {MAX_LINE_VALUES} JSON values, far over the contract's payload limit of {} bytes, so it was not read; send a plan within that limit",
                momentum_plan::LIMITS.payload_bytes
            ));
        }
        Some(Value::Object(_) | Value::String(_)) => {}
        Some(v) => problems.push(format!("`plan` must be a JSON object or a string of JSON text, not {}", kind(v))),
    }
    match &request {
        None => problems.push("`request` is missing: pass the request the plan answers, as a JSON object".to_owned()),
        Some(Value::Object(_)) => {}
        Some(v) => {
            problems.push(format!("`request` must be a JSON object (the request the plan answers), not {}", kind(v)))
        }
    }
    if optional.contains(&UNSAFE) {
        match args.remove(UNSAFE) {
            None => {}
            Some(Value::Bool(b)) => options.unsafe_fixes = b,
            Some(v) => problems.push(format!(
                "`unsafe` must be a boolean (true applies the fixes that change meaning too; leave it out for the safe ones only), not {}",
                kind(&v)
            )),
        }
    }
    if !args.is_empty() {
        let accepted = match optional {
            [] => "only `plan` and `request` are accepted".to_owned(),
            more => {
                let names: Vec<String> = more.iter().map(|n| format!("`{n}`")).collect();
                format!("only `plan`, `request` and {} are accepted", names.join(", "))
            }
        };
        problems.push(format!("{}: {accepted}", unexpected(&args)));
    }
    match (plan, request) {
        (Some(plan), Some(request)) if problems.is_empty() => Ok((plan, request, options)),
        _ => Err(format!("Invalid arguments for {tool}: {}.", problems.join("; "))),
    }
}

/// The `request` and `variant` arguments of `get_plan_schema` (`variant` defaults to
/// `validation`), or the tool error text naming every argument that does not fit.
fn schema_arguments(mut args: Map<String, Value>) -> Result<(Value, SchemaVariant), String> {
    let request = args.remove("request");
    let mut problems = Vec::new();
    match &request {
        None => {
            problems.push("`request` is missing: pass the request the plan must answer, as a JSON object".to_owned())
        }
        Some(Value::Object(_)) => {}
        Some(v) => problems
            .push(format!("`request` must be a JSON object (the request the plan must answer), not {}", kind(v))),
    }
    let variant = match args.remove(VARIANT) {
        None => Some(SchemaVariant::Validation),
        Some(Value::String(name)) => match SchemaVariant::from_name(&name) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(format!("`variant`: {e}"));
                None
            }
        },
        Some(v) => {
            problems.push(format!("`variant` must be a string, \"validation\" or \"strict\", not {}", kind(&v)));
            None
        }
    };
    if !args.is_empty() {
        problems.push(format!("{}: only `request` and `variant` are accepted", unexpected(&args)));
    }
    match (request, variant) {
        (Some(request), Some(variant)) if problems.is_empty() => Ok((request, variant)),
        _ => Err(format!("Invalid arguments for {GET_PLAN_SCHEMA}: {}.", problems.join("; "))),
    }
}

/// `repair_plan` (validator.md §9): the core's repair of `plan` (an object, or plan text as a
/// string, as the reference driver reads it) against `request`. The text block and
/// `structuredContent` are both [`momentum_plan::Repair::to_json`]'s bytes, the latter embedded
/// as raw JSON, never re-serialized. A request at fault is a normal result (its `requestAtFault`
/// says so).
fn repair_plan(ctx: Ctx, id: &Value, plan: &Value, request: &Value, unsafe_fixes: bool) -> String {
    let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
    let plan = match plan {
        Value::String(text) => Input::Text(text),
        other => Input::Value(other),
    };
    match momentum_plan::repair(plan, Input::Value(request), &options) {
        Ok(repair) => {
            let text = repair.to_json();
            match RawValue::from_string(text.clone()) {
                Ok(raw) => tool_result(ctx, id, &raw, text),
                Err(e) => tool_error(ctx, id, format!("The repair could not be written as JSON ({e}).")),
            }
        }
        // Only a request given as text can fail to read; here it is always a JSON object.
        Err(e) => {
            tool_error(ctx, id, format!("Invalid arguments for {REPAIR_PLAN}: `request` could not be read: {e}."))
        }
    }
}

fn plan_uri(plan_id: &str) -> String {
    format!("{PLAN_URI_PREFIX}{plan_id}")
}

/// The overwrite question (form mode, one required boolean `overwrite`; `mode` from 2025-11-25).
fn overwrite_question(version: Version, plan_id: &str) -> ElicitParams {
    ElicitParams {
        mode: (version >= Version::V2025_11_25).then_some("form"),
        message: format!("A plan with id \"{plan_id}\" is already saved. Replace it with the new version?"),
        requested_schema: json!({
            "type": "object",
            "properties": {
                "overwrite": {
                    "type": "boolean",
                    "title": "Replace the saved plan",
                    "description": format!("Yes replaces {} with the new version; no keeps the saved plan.", plan_uri(plan_id)),
                    "default": false
                }
            },
            "required": ["overwrite"]
        }),
    }
}

/// `None` when the answer confirms replacing the plan, else why it was left unchanged.
fn refusal_of(answer: &ElicitResult, uri: &str) -> Option<String> {
    match answer.action {
        ElicitAction::Accept => match answer.content.as_ref().and_then(|c| c.get("overwrite")) {
            Some(Value::Bool(true)) => None,
            Some(Value::Bool(false)) => {
                Some(format!("The user chose to keep the saved plan {uri}; it was left unchanged."))
            }
            _ => Some(format!("The answer did not confirm replacing {uri}; the saved plan was left unchanged.")),
        },
        ElicitAction::Decline => {
            Some(format!("The user declined to replace the saved plan {uri}; it was left unchanged."))
        }
        ElicitAction::Cancel => Some(format!(
            "The user cancelled the question whether to replace {uri}; the saved plan was left unchanged."
        )),
    }
}

fn classic_http_cannot_ask(uri: &str) -> String {
    format!(
        "{uri} is already saved, and over HTTP a client of a protocol version before 2026-07-28 cannot be asked whether to replace it (there is no stream to ask on); the saved plan was left unchanged. A client of the 2026-07-28 revision is asked, and its answer may reach any instance."
    )
}

fn no_capability(uri: &str) -> String {
    format!(
        "{uri} is already saved, and this client cannot ask the user whether to replace it (it did not declare the elicitation capability with form mode); the saved plan was left unchanged."
    )
}

/// `prompts/get`: the `draft_plan` prompt.
fn get_prompt(ctx: Ctx, id: &Value, params: Map<String, Value>, store: bool) -> Result<String, RpcError> {
    let p: GetPromptParams = parse_params(params)
        .map_err(|_| RpcError::invalid_params("Invalid params: prompts/get needs a string name"))?;
    if p.name != DRAFT_PLAN {
        return Err(RpcError::invalid_params(format!("Unknown prompt: {}", p.name)));
    }
    let request_json = match p.arguments.as_ref().and_then(|a| a.get(REQUEST_JSON)) {
        Some(Value::String(s)) => s,
        Some(_) => {
            return Err(RpcError::invalid_params(format!("Invalid argument: {REQUEST_JSON} must be a string")));
        }
        None => {
            return Err(RpcError::invalid_params(format!("Missing required argument: {REQUEST_JSON}")));
        }
    };
    Ok(respond(
        ctx,
        id,
        &GetPromptResult {
            description: "Draft, validate, fix and save a daily-momentum-ai-plan for a request.",
            messages: vec![PromptMessage {
                role: "user",
                content: TextContent::new(catalog::draft_prompt_text(request_json, store)),
            }],
        },
        None,
    ))
}
