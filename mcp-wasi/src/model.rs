//! MCP message shapes (the `schema.ts` of each revision, as far as this server uses them):
//! typed serde structs for every params object it reads and every result it writes.
//!
//! Optional fields are `Option`s skipped when `None`: the server leaves out what the negotiated
//! revision does not know (mcp-server.md "Protocol eras").

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A protocol revision this server speaks, oldest first (so `<` means "older").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// `2024-11-05`: the first revision.
    V2024_11_05,
    /// `2025-03-26`: tool annotations, JSON-RPC batches.
    V2025_03_26,
    /// `2025-06-18`: titles, `outputSchema`, `structuredContent`, elicitation; no batches.
    V2025_06_18,
    /// `2025-11-25`: elicitation `mode`; the last handshake revision.
    V2025_11_25,
    /// `2026-07-28`: stateless, per-request `_meta`, `resultType`, `input_required`.
    V2026_07_28,
}

impl Version {
    /// The classic (handshake) revisions, oldest first.
    pub const CLASSIC: [Version; 4] =
        [Version::V2024_11_05, Version::V2025_03_26, Version::V2025_06_18, Version::V2025_11_25];

    /// The revision's version string.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Version::V2024_11_05 => "2024-11-05",
            Version::V2025_03_26 => "2025-03-26",
            Version::V2025_06_18 => "2025-06-18",
            Version::V2025_11_25 => "2025-11-25",
            Version::V2026_07_28 => "2026-07-28",
        }
    }

    /// The classic revision named `s`, if any (`2026-07-28` is not reached by handshake).
    #[must_use]
    pub fn classic(s: &str) -> Option<Version> {
        Version::CLASSIC.into_iter().find(|v| v.as_str() == s)
    }
}

/// An empty object `{}` (a capability with no options, an empty result).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub(crate) struct Empty {}

/// `Implementation`: the server's name and version (title from 2025-06-18).
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct Implementation {
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    pub version: &'static str,
}

/// `ServerCapabilities`: `tools`, `resources` (with a store) and `prompts`.
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct ServerCapabilities {
    pub tools: Empty,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Empty>,
    pub prompts: Empty,
}

/// `InitializeResult` (classic handshake).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeResult {
    pub protocol_version: &'static str,
    pub capabilities: ServerCapabilities,
    pub server_info: Implementation,
    pub instructions: &'static str,
}

/// `DiscoverResult` (2026-07-28 `server/discover`); caching hints are added by [`Modern`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiscoverResult {
    pub supported_versions: [&'static str; 1],
    pub capabilities: ServerCapabilities,
    pub instructions: &'static str,
}

/// `ToolAnnotations` (from 2025-03-26).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_excessive_bools)] // the four hints of MCP's `ToolAnnotations`, member for member
pub(crate) struct ToolAnnotations {
    pub title: &'static str,
    pub read_only_hint: bool,
    pub destructive_hint: bool,
    pub idempotent_hint: bool,
    pub open_world_hint: bool,
}

/// `Tool`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Tool {
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub input_schema: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// `_meta` (the MCP Apps link, `apps::link_tools`, for a client declaring the extension).
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// `ListToolsResult`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ListToolsResult {
    pub tools: Vec<Tool>,
}

/// `TextContent`: `{"type":"text","text":…}`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TextContent {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
}

impl TextContent {
    pub(crate) fn new(text: String) -> TextContent {
        TextContent { kind: "text", text }
    }
}

/// `EmbeddedResource`: `{"type":"resource","resource":{uri, mimeType, text}}` (a text resource
/// inside a tool result; every revision has it).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct EmbeddedResource {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub resource: TextResourceContents,
}

impl EmbeddedResource {
    pub(crate) fn new(resource: TextResourceContents) -> EmbeddedResource {
        EmbeddedResource { kind: "resource", resource }
    }
}

/// A tool result's `content`: its one text block, then an embedded resource when it has one
/// (`export_calendar`'s calendar). Written as the JSON array of those blocks.
#[derive(Debug, Clone)]
pub(crate) struct ToolContent {
    pub text: TextContent,
    pub resource: Option<EmbeddedResource>,
}

impl Serialize for ToolContent {
    fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::SerializeSeq as _;
        let mut seq = serializer.serialize_seq(Some(1 + usize::from(self.resource.is_some())))?;
        seq.serialize_element(&self.text)?;
        if let Some(r) = &self.resource {
            seq.serialize_element(r)?;
        }
        seq.end()
    }
}

/// `CallToolResult`: one text block (and an embedded resource, [`ToolContent`]),
/// `structuredContent` (from 2025-06-18, never on a tool error) and `isError`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallToolResult<'a, S: Serialize> {
    pub content: ToolContent,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<&'a S>,
    pub is_error: bool,
}

/// `Resource` (one saved plan).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub mime_type: &'static str,
}

/// `ListResourcesResult`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListResourcesResult {
    pub resources: Vec<Resource>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `ResourceTemplate`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourceTemplate {
    pub uri_template: &'static str,
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub mime_type: &'static str,
}

/// `ListResourceTemplatesResult`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListResourceTemplatesResult {
    pub resource_templates: Vec<ResourceTemplate>,
}

/// `TextResourceContents`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TextResourceContents {
    pub uri: String,
    pub mime_type: &'static str,
    pub text: String,
}

/// `ReadResourceResult`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ReadResourceResult {
    pub contents: Vec<TextResourceContents>,
}

/// `PromptArgument`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PromptArgument {
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub required: bool,
}

/// `Prompt`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Prompt {
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub arguments: Vec<PromptArgument>,
}

/// `ListPromptsResult`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ListPromptsResult {
    pub prompts: Vec<Prompt>,
}

/// `PromptMessage`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PromptMessage {
    pub role: &'static str,
    pub content: TextContent,
}

/// `GetPromptResult`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GetPromptResult {
    pub description: &'static str,
    pub messages: Vec<PromptMessage>,
}

/// `ElicitRequestFormParams` (`mode` from 2025-11-25).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ElicitParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    pub message: String,
    pub requested_schema: Value,
}

/// An embedded request of an `InputRequiredResult` (no `jsonrpc`, no `id`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct InputRequest {
    pub method: &'static str,
    pub params: ElicitParams,
}

/// The `inputRequests` map of the overwrite question: one key, `overwrite`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct OverwriteInputRequests {
    pub overwrite: InputRequest,
}

/// `InputRequiredResult` (2026-07-28) asking the overwrite question; no `requestState`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InputRequiredResult {
    pub result_type: &'static str,
    pub input_requests: OverwriteInputRequests,
    #[serde(rename = "_meta")]
    pub meta: ResultMeta,
}

/// Caching hints of a cacheable 2026-07-28 result.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CacheHints {
    pub ttl_ms: u64,
    pub cache_scope: &'static str,
}

impl CacheHints {
    /// Constant for the life of the process (discover, tools, prompts, templates).
    pub(crate) const PUBLIC: CacheHints = CacheHints { ttl_ms: 3_600_000, cache_scope: "public" };
    /// Changes with every save (resources/list, resources/read).
    pub(crate) const PRIVATE: CacheHints = CacheHints { ttl_ms: 0, cache_scope: "private" };
}

/// The `_meta` of every 2026-07-28 result.
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct ResultMeta {
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    pub server_info: Implementation,
}

/// A 2026-07-28 complete result: the era-neutral result with `resultType`, optional caching
/// hints and the `serverInfo` stamp.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Modern<'a, R: Serialize> {
    #[serde(flatten)]
    pub inner: &'a R,
    pub result_type: &'static str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheHints>,
    #[serde(rename = "_meta")]
    pub meta: ResultMeta,
}

/// `InitializeRequest` params (classic): `protocolVersion` (a string), `capabilities` and
/// `clientInfo` (objects) are required by the classic schema; other members are ignored.
#[derive(Debug, Clone)]
pub(crate) struct InitializeParams {
    /// The version the client asks for (any string; an unsupported one is answered with ours).
    pub protocol_version: String,
    /// The client's capabilities.
    pub capabilities: Map<String, Value>,
}

impl InitializeParams {
    /// Takes the params apart; `Err` names the first required member that is missing or of the
    /// wrong type (mcp-server.md "Stateless": such an `initialize` is -32602, not a handshake).
    pub(crate) fn from_map(mut params: Map<String, Value>) -> Result<InitializeParams, String> {
        let protocol_version = match params.remove("protocolVersion") {
            Some(Value::String(v)) => v,
            Some(_) => return Err("Invalid params: initialize protocolVersion must be a string".into()),
            None => return Err("Invalid params: initialize needs protocolVersion, capabilities and clientInfo (protocolVersion is missing)".into()),
        };
        let capabilities = match params.remove("capabilities") {
            Some(Value::Object(c)) => c,
            Some(_) => return Err("Invalid params: initialize capabilities must be an object".into()),
            None => return Err("Invalid params: initialize needs protocolVersion, capabilities and clientInfo (capabilities is missing)".into()),
        };
        match params.get("clientInfo") {
            Some(Value::Object(_)) => {}
            Some(_) => return Err("Invalid params: initialize clientInfo must be an object".into()),
            None => return Err(
                "Invalid params: initialize needs protocolVersion, capabilities and clientInfo (clientInfo is missing)"
                    .into(),
            ),
        }
        Ok(InitializeParams { protocol_version, capabilities })
    }
}

/// `PaginatedRequestParams`: `cursor` (a string; `null` reads as absent).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PaginatedParams {
    pub cursor: Option<String>,
}

/// `ReadResourceRequest` params.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ReadResourceParams {
    pub uri: String,
}

/// `GetPromptRequest` params (argument values are strings).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct GetPromptParams {
    pub name: String,
    #[serde(default)]
    pub arguments: Option<Map<String, Value>>,
}

/// `CancelledNotification` params.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct CancelledParams {
    pub request_id: Option<Value>,
}

/// `ElicitResult`: the client's answer (classic response, or 2026 `inputResponses` value).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ElicitResult {
    pub action: ElicitAction,
    #[serde(default)]
    pub content: Option<Map<String, Value>>,
}

/// `ElicitResult.action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}

/// `CallToolRequest` params. Read field by field (not through `serde`), so the plan inside
/// `arguments` is moved, never copied.
#[derive(Debug, Clone)]
pub(crate) struct CallToolParams {
    pub name: String,
    /// `arguments` (absent or `null`: `{}`).
    pub arguments: Map<String, Value>,
    /// 2026-07-28 `inputResponses` (the answers of a retry), when present and not `null`.
    pub input_responses: Option<Map<String, Value>>,
}

impl CallToolParams {
    /// Takes the params apart; `Err` names what does not fit `CallToolRequest` (-32602).
    pub(crate) fn from_map(mut params: Map<String, Value>) -> Result<CallToolParams, String> {
        let name = match params.remove("name") {
            Some(Value::String(s)) => s,
            Some(_) => return Err("Invalid params: tools/call name must be a string".into()),
            None => return Err("Invalid params: tools/call needs a tool name".into()),
        };
        // `arguments` and `inputResponses` are objects in `CallToolRequest`; anything else that is
        // present (a string, an array) does not fit the request (mcp-server.md "Catalog": -32602).
        let arguments = match params.remove("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m,
            Some(_) => return Err("Invalid params: tools/call arguments must be an object".into()),
        };
        let input_responses = match params.remove("inputResponses") {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m),
            Some(_) => return Err("Invalid params: tools/call inputResponses must be an object".into()),
        };
        Ok(CallToolParams { name, arguments, input_responses })
    }
}

/// Reads typed params from a params object; `Err` is the serde reason.
pub(crate) fn parse_params<T: for<'de> Deserialize<'de>>(params: Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(params)).map_err(|e| e.to_string())
}
