//! The JSON-RPC 2.0 layer (mcp-server.md "JSON-RPC hygiene"): reading one stdio line into a
//! classified message, and writing responses, errors and server requests as compact lines.
//!
//! Nothing here knows MCP methods; it only knows the envelope: `jsonrpc`, `id`, `method`,
//! `params`, `result`, `error`.

use serde::Serialize;
use serde_json::{Map, Value};

/// JSON-RPC "Parse error": the line is not JSON (answered with `id: null`).
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC "Invalid Request": JSON that is not a request, notification or response; a batch
/// outside 2025-03-26; a line over [`crate::MAX_LINE_BYTES`].
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC "Method not found": an unknown method, or one this server does not offer here.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC "Invalid params": malformed params, unknown tool or prompt, bad cursor, bad `_meta`.
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC "Internal error": the store failed in a way the request could not foresee.
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP (classic era) "Resource not found".
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// MCP 2026-07-28 `UnsupportedProtocolVersionError`.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// Deepest nesting accepted in one line: the plan may be [`momentum_plan::MAX_DEPTH`] levels deep
/// and sits at level 4 of a `tools/call` message (message, `params`, `arguments`, plan), so a
/// plan one level too deep still reaches the validator and gets its `json` verdict. Deeper lines
/// are a parse error (this bounds the parser's recursion, so the stack cannot overflow).
pub const MAX_LINE_DEPTH: usize = momentum_plan::MAX_DEPTH + 8;

/// A JSON-RPC error object: `{code, message, data?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RpcError {
    /// The error code (the constants of this module).
    pub code: i64,
    /// One sentence saying what is wrong.
    pub message: String,
    /// Extra detail (`{uri}`, `{supported, requested}`), when there is any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    /// An error without data.
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into(), data: None }
    }

    /// An error with data.
    pub fn with_data(code: i64, message: impl Into<String>, data: Value) -> RpcError {
        RpcError { code, message: message.into(), data: Some(data) }
    }

    /// `-32601 Method not found` naming the method.
    pub fn method_not_found(method: &str) -> RpcError {
        RpcError::with_data(METHOD_NOT_FOUND, "Method not found", Value::String(method.to_owned()))
    }

    /// `-32602` with a message saying which parameter is wrong.
    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(INVALID_PARAMS, message)
    }
}

/// One message read from a line, classified (mcp-server.md "JSON-RPC hygiene").
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: answered exactly once (or never, when cancelled while it waits).
    Request {
        /// The id, a string or an integer, echoed exactly.
        id: Value,
        /// The method name.
        method: String,
        /// The params (absent or `null` params are `{}`).
        params: Map<String, Value>,
    },
    /// A notification: never answered.
    Notification {
        /// The method name.
        method: String,
        /// The params when they are an object, else `{}`.
        params: Map<String, Value>,
    },
    /// A response to a request this server sent (`result` or `error`, no `method`).
    Response {
        /// The id as sent back.
        id: Value,
        /// `Ok(result)` or `Err(error object)`.
        outcome: Result<Value, Value>,
    },
    /// Anything else: answered with this error and this id (`null` when none could be read).
    Invalid {
        /// The id to answer with.
        id: Value,
        /// The error to answer with.
        error: RpcError,
    },
}

/// Whether `id` is a valid request id: a string, or an integer written without fraction or
/// exponent (of any length; it is echoed exactly as written).
#[must_use]
pub fn is_valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(n) => {
            let s = n.to_string();
            let digits = s.strip_prefix('-').unwrap_or(&s);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

/// Most JSON values (counting member names) one line may hold: as many as the contract's payload
/// limit has bytes, twice what any plan within that limit can hold. It bounds the memory one
/// message can take once parsed (about 50 bytes per value in wasm32), so a line under
/// [`crate::MAX_LINE_BYTES`] cannot exhaust a 64 MiB sandbox.
pub const MAX_LINE_VALUES: usize = momentum_plan::LIMITS.payload_bytes as usize;

/// Reads one line (without its line ending) as JSON: invalid UTF-8, text that is not exactly one
/// JSON value, or nesting deeper than [`MAX_LINE_DEPTH`] is a `-32700` error; more than
/// [`MAX_LINE_VALUES`] values is a `-32600` error (answered with `id: null`, as it is not read).
///
/// # Errors
/// The [`RpcError`] to answer with `id: null`.
pub fn parse_line(line: &[u8]) -> Result<Value, RpcError> {
    check_limits(line)?;
    read_value(line)
}

/// The limits of [`parse_line`] checked without parsing: nesting deeper than [`MAX_LINE_DEPTH`]
/// (`-32700`), more than [`MAX_LINE_VALUES`] values (`-32600`).
///
/// # Errors
/// The [`RpcError`] to answer with `id: null`.
pub(crate) fn check_limits(line: &[u8]) -> Result<(), RpcError> {
    match scan(line, MAX_LINE_DEPTH, MAX_LINE_VALUES) {
        Scan::TooDeep(at) => Err(RpcError::new(
            PARSE_ERROR,
            format!("Parse error: nesting deeper than {MAX_LINE_DEPTH} levels (at byte {at}) is not accepted"),
        )),
        Scan::TooMany => Err(RpcError::new(
            INVALID_REQUEST,
            format!("Invalid Request: the message holds more than {MAX_LINE_VALUES} JSON values and was not read"),
        )),
        Scan::Fits => Ok(()),
    }
}

/// `line` read as one JSON value by `serde_json`, its recursion limit off (callers have checked
/// [`check_limits`], which bounds the depth). Errors are `-32700` naming `serde_json`'s reason.
pub(crate) fn read_value(line: &[u8]) -> Result<Value, RpcError> {
    let mut de = serde_json::Deserializer::from_slice(line);
    // The depth is bounded by `check_limits`, so the parser's recursion is too.
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de).and_then(|v: Value| {
        de.end()?;
        Ok(v)
    });
    value.map_err(|e| RpcError::new(PARSE_ERROR, format!("Parse error: {e}")))
}

/// Whether JSON text (valid or not) holds more than `max` values, counting member names: the
/// count is 1 plus every `[`, `{`, `,` and `:` outside strings, an upper bound of the values.
/// Strings are skipped, so this is linear and allocates nothing.
#[must_use]
pub fn more_values_than(text: &[u8], max: usize) -> bool {
    matches!(scan(text, usize::MAX, max), Scan::TooMany)
}

/// What [`scan`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// Within both limits.
    Fits,
    /// A bracket at this byte offset opens a level deeper than allowed.
    TooDeep(usize),
    /// More values than allowed.
    TooMany,
}

/// One pass over JSON text (valid or not), skipping strings: the depth of brackets, and an upper
/// bound of the values it holds (1 + every `[`, `{`, `,` and `:` outside strings).
fn scan(b: &[u8], max_depth: usize, max_values: usize) -> Scan {
    let mut depth = 0usize;
    let mut values = 1usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return Scan::TooDeep(i);
                }
                values += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' | b':' => values += 1,
            _ => {}
        }
        if values > max_values {
            return Scan::TooMany;
        }
        i += 1;
    }
    Scan::Fits
}

/// Classifies one JSON value that is not a batch (mcp-server.md "JSON-RPC hygiene").
#[must_use]
pub fn classify(value: Value) -> Message {
    let Value::Object(mut m) = value else {
        return invalid(Value::Null, "Invalid Request: a message must be a JSON object");
    };
    let id = m.remove("id");
    let usable_id = id.clone().filter(is_valid_id).unwrap_or(Value::Null);
    if let Some(method) = m.remove("method") {
        if id.as_ref().is_some_and(|v| !is_valid_id(v)) {
            return invalid(Value::Null, "Invalid Request: id must be a string or an integer");
        }
        if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return invalid(usable_id, "Invalid Request: jsonrpc must be \"2.0\"");
        }
        let Value::String(method) = method else {
            return invalid(usable_id, "Invalid Request: method must be a string");
        };
        let params = match m.remove("params") {
            None | Some(Value::Null) => Ok(Map::new()),
            Some(Value::Object(p)) => Ok(p),
            Some(_) => Err(()),
        };
        return match (id, params) {
            (Some(id), Ok(params)) => Message::Request { id, method, params },
            (Some(id), Err(())) => {
                Message::Invalid { id, error: RpcError::invalid_params("Invalid params: params must be an object") }
            }
            (None, params) => Message::Notification { method, params: params.unwrap_or_default() },
        };
    }
    if m.contains_key("result") || m.contains_key("error") {
        let outcome = match (m.remove("result"), m.remove("error")) {
            (Some(result), None) => Ok(result),
            (_, Some(error)) => Err(error),
            (None, None) => Err(Value::Null),
        };
        return Message::Response { id: id.unwrap_or(Value::Null), outcome };
    }
    invalid(usable_id, "Invalid Request: not a request, notification or response")
}

fn invalid(id: Value, message: &str) -> Message {
    Message::Invalid { id, error: RpcError::new(INVALID_REQUEST, message) }
}

#[derive(Serialize)]
struct ResultLine<'a, R: Serialize> {
    jsonrpc: &'static str,
    id: &'a Value,
    result: &'a R,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    error: &'a RpcError,
}

#[derive(Serialize)]
struct RequestLine<'a, P: Serialize> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a P,
}

/// The compact line `{"jsonrpc":"2.0","id":…,"result":…}`.
#[must_use]
pub fn result_line<R: Serialize>(id: &Value, result: &R) -> String {
    serde_json::to_string(&ResultLine { jsonrpc: "2.0", id, result }).unwrap_or_else(|e| {
        error_line(id, &RpcError::new(INTERNAL_ERROR, format!("Internal error: the result could not be written: {e}")))
    })
}

/// The compact line `{"jsonrpc":"2.0","id":…,"error":{…}}`.
#[must_use]
pub fn error_line(id: &Value, error: &RpcError) -> String {
    serde_json::to_string(&ErrorLine { jsonrpc: "2.0", id, error })
        // Only strings, integers and plain values: this cannot fail.
        .unwrap_or_default()
}

/// The compact line of a request this server sends (`elicitation/create`), with its own id.
#[must_use]
pub fn request_line<P: Serialize>(id: u64, method: &str, params: &P) -> String {
    serde_json::to_string(&RequestLine { jsonrpc: "2.0", id, method, params }).unwrap_or_default()
}
