//! The two protocol eras on one stream (mcp-server.md "Protocol eras on one stdio stream"): the
//! classic session settled by `initialize`, the 2026-07-28 envelope judged per request
//! (`server/discover`), and the era's stamps on every result.

use super::{Server, Transport};
use crate::apps;
use crate::catalog;
use crate::model::{
    CacheHints, DiscoverResult, Empty, InitializeParams, InitializeResult, Modern, ResultMeta, ServerCapabilities,
    Version,
};
use crate::rpc::{self, RpcError, UNSUPPORTED_PROTOCOL_VERSION};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// `_meta` key carrying a 2026-07-28 request's protocol version.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying a 2026-07-28 request's client capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// What the classic handshake settled (or the defaults before any `initialize`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Session {
    pub(super) version: Version,
    /// The client declared form elicitation in `initialize`.
    pub(super) elicitation: bool,
    /// The client declared the MCP Apps extension in `initialize` (`apps::declares_apps`).
    pub(super) apps: bool,
    pub(super) initialized: bool,
}

impl Session {
    /// How a request without the 2026-07-28 envelope is served: at the session's version, and
    /// asked the overwrite question only when the client declared elicitation and the version
    /// has it (from 2025-06-18).
    pub(super) fn ctx(self) -> Ctx {
        Ctx {
            version: self.version,
            elicitation: self.elicitation && self.version >= Version::V2025_06_18,
            apps: self.apps,
        }
    }
}

/// How one request is served: its revision and whether the overwrite question may be asked.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ctx {
    pub(super) version: Version,
    pub(super) elicitation: bool,
    /// The plan view is offered (`apps`).
    pub(super) apps: bool,
}

impl Ctx {
    /// Served under the stateless 2026-07-28 revision.
    pub(super) fn modern(self) -> bool {
        self.version == Version::V2026_07_28
    }

    /// Tool results carry `structuredContent` (from 2025-06-18).
    pub(super) fn structured(self) -> bool {
        self.version >= Version::V2025_06_18
    }
}

impl Server {
    /// `resources` with a store, or for a client offered the plan view (`apps`).
    fn capabilities(&self, apps: bool) -> ServerCapabilities {
        let resources = (self.store.is_some() || apps).then_some(Empty {});
        ServerCapabilities { tools: Empty {}, resources, prompts: Empty {} }
    }

    /// The classic handshake: echo a supported version, else answer `2025-11-25`. Params that
    /// do not fit `InitializeRequest` are `-32602`.
    pub(super) fn initialize(&mut self, id: &Value, params: Map<String, Value>) -> Result<String, RpcError> {
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

    /// `server/discover` (2026-07-28): the supported versions, capabilities and instructions,
    /// cacheable as public.
    pub(super) fn discover(&self, ctx: Ctx, id: &Value) -> String {
        respond(
            ctx,
            id,
            &DiscoverResult {
                supported_versions: [Version::V2026_07_28.as_str()],
                capabilities: self.capabilities(ctx.apps),
                instructions: catalog::instructions(self.store.is_some()),
            },
            Some(CacheHints::PUBLIC),
        )
    }
}

/// The answer to a `server/discover` without the 2026-07-28 envelope: `-32602`.
pub(super) fn discover_without_envelope() -> RpcError {
    RpcError::invalid_params(format!(
        "Invalid params: server/discover needs params._meta with \"{PROTOCOL_VERSION_KEY}\" and \"{CLIENT_CAPABILITIES_KEY}\""
    ))
}

/// Reads the 2026-07-28 envelope of a request: `Ok(None)` when there is none (classic),
/// `Ok(Some(ctx))` when it is valid, else `-32022` or `-32602` (mcp-server.md "Stateless").
pub(super) fn envelope(params: &Map<String, Value>) -> Result<Option<Ctx>, RpcError> {
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

/// A complete result line: in 2026-07-28 with `resultType`, the caching hints given and the
/// `serverInfo` stamp; in the classic era as is.
pub(super) fn respond<R: Serialize>(ctx: Ctx, id: &Value, result: &R, cache: Option<CacheHints>) -> String {
    if ctx.modern() {
        rpc::result_line(id, &Modern { inner: result, result_type: "complete", cache, meta: result_meta(ctx) })
    } else {
        rpc::result_line(id, result)
    }
}

/// The `_meta` stamp of a 2026-07-28 result that is not `complete` (`input_required`).
pub(super) fn result_meta(ctx: Ctx) -> ResultMeta {
    ResultMeta { server_info: catalog::implementation(ctx.version) }
}
