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
                // To the closing quote: the next quote or backslash found many bytes at a time
                // (`memchr2`; a string is most of a plan's bytes), an escape skipping the byte after it.
                i += 1;
                while let Some(k) = b.get(i..).and_then(|rest| memchr::memchr2(b'"', b'\\', rest)) {
                    if b[i + k] == b'"' {
                        i += k;
                        break;
                    }
                    i += k + 2;
                }
                if i < b.len() && b[i] != b'"' {
                    i = b.len(); // an unterminated string: nothing after it counts
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

/// Longest `id` value, in bytes of its JSON text, that [`IdScan`] keeps: an id longer than this
/// cannot be echoed, and its line is answered with `id: null`.
pub const MAX_SCANNED_ID_BYTES: usize = 1024;

/// Longest top-level member name, in bytes of its JSON text, that [`IdScan`] reads to compare
/// with `id` (`"\u0069\u0064"` is 12 bytes); a longer name is not `id`.
const MAX_SCANNED_KEY_BYTES: usize = 32;

/// What a line skipped for its length was, as far as [`IdScan`] could tell (mcp-server.md
/// "JSON-RPC hygiene": the answer carries the request's `id` whenever a top-level `id` member
/// can be read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// A top-level `id` member holding a valid id ([`is_valid_id`]), as [`serde_json`] reads it
    /// (the last one when the name repeats, as in a parsed line): answer with this id.
    Request(Value),
    /// A complete top-level object with a `method` member and no `id` member: a notification,
    /// never answered (JSON-RPC 2.0 §4.1).
    Notification,
    /// Anything else (no object, an `id` that is not a string or an integer or is longer than
    /// [`MAX_SCANNED_ID_BYTES`], a line that ended before its `id` did): answer with `id: null`.
    Unknown,
}

impl Skipped {
    /// The id to answer with: the request's, else `null`.
    #[must_use]
    pub fn id(&self) -> Value {
        match self {
            Skipped::Request(id) => id.clone(),
            Skipped::Notification | Skipped::Unknown => Value::Null,
        }
    }
}

/// Where [`IdScan`] is inside the top-level object, outside strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Before the first non-white-space byte of the line.
    Start,
    /// Expecting a member name (after `{` or `,`).
    Key,
    /// After a member name, expecting `:`.
    Colon,
    /// After `:`, expecting the member's value.
    Value,
    /// Inside a member's value (a scalar, or a nested array or object: depth above 1).
    InValue,
    /// After a member's value, expecting `,` or `}`.
    After,
    /// The top-level value is not an object, or it has closed: nothing more to read.
    Done,
}

/// Finds the top-level `id` member of one JSON-RPC line fed in pieces, without keeping the line:
/// the reader of an oversized line ([`crate::stdio::serve`]) feeds it every byte it skips, so
/// the line can be answered with its request's id (mcp-server.md "JSON-RPC hygiene"; JSON-RPC
/// 2.0 §5: the error response carries the request's id), wherever the member sits (the Python
/// SDK writes `id` second, the TypeScript SDK last, after `params`).
///
/// One pass, linear in the bytes fed; strings are skipped by search, not byte by byte; memory is
/// bounded: at most [`MAX_SCANNED_ID_BYTES`] of the id's text and 32 bytes of a member name.
/// Only members of the top-level object count: an `"id"` inside `params` is never taken. The
/// text need not be valid JSON; the scan tracks strings (with escapes) and bracket depth only.
///
/// ```
/// use momentum_plan_mcp::rpc::{IdScan, Skipped};
/// use serde_json::json;
/// let mut scan = IdScan::default();
/// scan.feed(br#"{"method":"tools/call","params":{"id":"not this","plan":""#);
/// scan.feed(br#"..."},"jsonrpc":"2.0","id":7}"#);
/// assert_eq!(scan.finish(), Skipped::Request(json!(7)));
/// ```
#[derive(Debug, Clone)]
#[allow(clippy::struct_excessive_bools)] // four independent facts of one scanner's state
pub struct IdScan {
    at: At,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The current top-level member name's text (between its quotes), while it is read.
    key: Vec<u8>,
    /// The current top-level member is `id`: its value's text goes to `value`.
    in_id: bool,
    /// The `id` value's JSON text read so far (bounded); `None` once it is too long.
    value: Option<Vec<u8>>,
    /// The outcome of the last complete `id` member: [`Skipped::Request`] or [`Skipped::Unknown`].
    id: Option<Skipped>,
    has_method: bool,
}

impl Default for IdScan {
    fn default() -> Self {
        IdScan {
            at: At::Start,
            depth: 0,
            in_string: false,
            escaped: false,
            key: Vec::new(),
            in_id: false,
            value: Some(Vec::new()),
            id: None,
            has_method: false,
        }
    }
}

impl IdScan {
    /// Scans a whole line at once: `IdScan::default()`, [`IdScan::feed`], [`IdScan::finish`].
    #[must_use]
    pub fn line(line: &[u8]) -> Skipped {
        let mut scan = IdScan::default();
        scan.feed(line);
        scan.finish()
    }

    /// Reads the next bytes of the line (the first piece may start with a UTF-8 BOM).
    pub fn feed(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() && self.at != At::Done {
            if self.in_string {
                i = self.string_bytes(bytes, i);
                continue;
            }
            let b = bytes[i];
            i += 1;
            if self.at == At::Start {
                match b {
                    b'{' => {
                        self.depth = 1;
                        self.at = At::Key;
                    }
                    // White space, or a UTF-8 BOM's bytes.
                    b' ' | b'\t' | b'\r' | b'\n' | 0xEF | 0xBB | 0xBF => {}
                    _ => self.at = At::Done,
                }
                continue;
            }
            self.structural(b);
        }
    }

    /// Bytes inside a string from `bytes[i]`: kept when they are a top-level member's name or
    /// the `id` value, else skipped up to the next quote or backslash. Returns the next index.
    fn string_bytes(&mut self, bytes: &[u8], mut i: usize) -> usize {
        let keep_key = self.depth == 1 && self.at == At::Key;
        let keep_value = self.in_id && self.depth == 1 && self.at == At::InValue;
        while i < bytes.len() {
            if self.escaped {
                self.escaped = false;
            } else {
                let Some(n) = bytes[i..].iter().position(|&b| b == b'"' || b == b'\\') else {
                    self.keep(keep_key, keep_value, &bytes[i..]);
                    return bytes.len();
                };
                self.keep(keep_key, keep_value, &bytes[i..i + n]);
                i += n;
                if bytes[i] == b'"' {
                    self.in_string = false;
                    if keep_key {
                        self.at = At::Colon;
                        self.in_id = is_id_name(&self.key);
                        self.has_method |= self.key == b"method";
                    } else if self.depth == 1 && self.at == At::InValue {
                        self.keep(false, keep_value, b"\"");
                        self.at = At::After;
                    }
                    return i + 1;
                }
                self.escaped = true;
            }
            self.keep(keep_key, keep_value, &bytes[i..=i]);
            i += 1;
        }
        i
    }

    fn keep(&mut self, key: bool, value: bool, bytes: &[u8]) {
        if key && self.key.len() <= MAX_SCANNED_KEY_BYTES {
            let room = MAX_SCANNED_KEY_BYTES + 1 - self.key.len();
            self.key.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
        if value && let Some(v) = &mut self.value {
            if v.len() + bytes.len() > MAX_SCANNED_ID_BYTES {
                self.value = None;
            } else {
                v.extend_from_slice(bytes);
            }
        }
    }

    /// One byte outside strings, after the line's opening `{`.
    fn structural(&mut self, b: u8) {
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 {
                    match self.at {
                        At::Key => self.key.clear(),
                        At::Value => {
                            self.at = At::InValue;
                            self.keep(false, self.in_id, b"\"");
                        }
                        At::After => self.value = None,
                        _ => {}
                    }
                }
            }
            b'{' | b'[' => {
                if self.depth == 1 {
                    self.at = At::InValue;
                    // An object or array is never a valid id.
                    self.value = None;
                }
                self.depth += 1;
            }
            b'}' | b']' => {
                self.depth -= 1;
                if self.depth == 0 {
                    self.end_id();
                    self.at = At::Done;
                } else if self.depth == 1 {
                    self.at = At::After;
                }
            }
            b':' if self.depth == 1 && self.at == At::Colon => self.at = At::Value,
            b',' if self.depth == 1 => {
                self.end_id();
                self.at = At::Key;
            }
            b' ' | b'\t' | b'\r' | b'\n' if self.depth == 1 && self.at == At::InValue => self.at = At::After,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ if self.depth == 1 => match self.at {
                At::Value | At::InValue => {
                    self.at = At::InValue;
                    self.keep(false, self.in_id, &[b]);
                }
                // Not JSON: the member's value is not read as an id.
                At::After => self.value = None,
                _ => {}
            },
            _ => {}
        }
    }

    /// The end of a top-level member (at its `,` or the object's `}`): when it was `id`, its
    /// outcome is recorded.
    fn end_id(&mut self) {
        if self.in_id {
            let id = self.value.take().and_then(|text| serde_json::from_slice::<Value>(&text).ok()).filter(is_valid_id);
            self.id = Some(id.map_or(Skipped::Unknown, Skipped::Request));
            self.in_id = false;
        }
        self.value = Some(Vec::new());
    }

    /// What the bytes fed so far were (a line cut short is judged by what was read).
    #[must_use]
    pub fn finish(self) -> Skipped {
        match self.id {
            Some(seen) => seen,
            None if self.at == At::Done && self.depth == 0 && self.has_method => Skipped::Notification,
            None => Skipped::Unknown,
        }
    }
}

/// Whether a member name's JSON text (between its quotes) reads as `id`, escapes decoded.
fn is_id_name(text: &[u8]) -> bool {
    if text == b"id" {
        return true;
    }
    if text.len() > MAX_SCANNED_KEY_BYTES || !text.contains(&b'\\') {
        return false;
    }
    let mut quoted = Vec::with_capacity(text.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(text);
    quoted.push(b'"');
    serde_json::from_slice::<String>(&quoted).is_ok_and(|name| name == "id")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// [`scan`] as it read strings a byte at a time before `memchr2`: the reference.
    fn scan_bytewise(b: &[u8], max_depth: usize, max_values: usize) -> Scan {
        let (mut depth, mut values, mut i) = (0usize, 1usize, 0);
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

    #[test]
    fn scan_agrees_with_the_bytewise_reading_on_every_short_text() {
        // Every text of up to 6 bytes over the bytes that matter (quote, backslash, brackets,
        // separators, other), at limits small enough that each outcome occurs.
        const ALPHABET: &[u8] = b"\"\\{}[],a";
        let mut text = Vec::new();
        let mut outcomes = std::collections::HashSet::new();
        for len in 0..=6u32 {
            for mut n in 0..ALPHABET.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(ALPHABET[n % ALPHABET.len()]);
                    n /= ALPHABET.len();
                }
                let got = super::scan(&text, 2, 4);
                assert_eq!(got, scan_bytewise(&text, 2, 4), "{:?}", String::from_utf8_lossy(&text));
                outcomes.insert(std::mem::discriminant(&got));
            }
        }
        assert_eq!(outcomes.len(), 3, "Fits, TooDeep and TooMany all occur");
    }

    fn request(id: Value) -> Skipped {
        Skipped::Request(id)
    }

    /// The scan of `line` whole, and fed in pieces of every size from 1 to 7 bytes: the same.
    fn scan(line: &[u8]) -> Skipped {
        let whole = IdScan::line(line);
        for size in 1..=7 {
            let mut s = IdScan::default();
            line.chunks(size).for_each(|c| s.feed(c));
            assert_eq!(s.finish(), whole, "pieces of {size} bytes: {}", String::from_utf8_lossy(line));
        }
        whole
    }

    #[test]
    fn the_id_as_number_or_string_before_or_after_the_other_members() {
        assert_eq!(scan(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), request(json!(1)));
        assert_eq!(scan(br#"{"id":"a-1","jsonrpc":"2.0","method":"ping"}"#), request(json!("a-1")));
        // The TypeScript SDK's order: method, params, jsonrpc, id.
        assert_eq!(
            scan(br#"{"method":"tools/call","params":{"name":"validate_plan","arguments":{"plan":"x"}},"jsonrpc":"2.0","id":42}"#),
            request(json!(42))
        );
        assert_eq!(scan(b"\xEF\xBB\xBF { \"id\" : -7 , \"method\" : \"ping\" }\r"), request(json!(-7)));
        assert_eq!(scan(br#"{"id":0}"#), request(json!(0)));
        assert_eq!(scan(br#"{"id":""}"#), request(json!("")));
        // Integers of any length are echoed exactly (arbitrary_precision).
        let big = IdScan::line(br#"{"id":123456789012345678901234567890,"method":"ping"}"#);
        assert_eq!(serde_json::to_string(&big.id()).unwrap(), "123456789012345678901234567890");
        // A repeated name: the last one, as serde_json reads the line.
        assert_eq!(scan(br#"{"id":1,"method":"ping","id":2}"#), request(json!(2)));
    }

    #[test]
    fn escaped_strings_are_read_whole() {
        assert_eq!(scan(br#"{"id":"a\"b\\c\u00e9","method":"ping"}"#), request(json!("a\"b\\c\u{e9}")));
        // An escaped member name that reads "id" is the id; a string value that holds `"id":`
        // is not a member.
        assert_eq!(scan(br#"{"\u0069d":5,"method":"ping"}"#), request(json!(5)));
        assert_eq!(scan(br#"{"method":"ping","note":"\",\"id\":9,\"x\":\"","id":3}"#), request(json!(3)));
        assert_eq!(scan(br#"{"method":"ping","note":"\\","id":4}"#), request(json!(4)));
        assert_eq!(scan(br#"{"idx":1,"i":2,"ID":3,"method":"ping"}"#), Skipped::Notification);
    }

    #[test]
    fn an_id_nested_in_params_is_never_taken() {
        assert_eq!(scan(br#"{"method":"tools/call","params":{"id":1,"arguments":{"id":"x"}}}"#), Skipped::Notification);
        assert_eq!(scan(br#"{"params":[{"id":1}],"method":"x","id":"top"}"#), request(json!("top")));
        assert_eq!(scan(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#), Skipped::Unknown, "a batch has no id");
        assert_eq!(scan(br#""{\"id\":1}""#), Skipped::Unknown);
        assert_eq!(scan(b"garbage {\"id\":1}"), Skipped::Unknown);
    }

    #[test]
    fn ids_that_are_not_ids_are_unknown() {
        for line in [
            &br#"{"id":null,"method":"ping"}"#[..],
            br#"{"id":1.5,"method":"ping"}"#,
            br#"{"id":1e3,"method":"ping"}"#,
            br#"{"id":true,"method":"ping"}"#,
            br#"{"id":[1],"method":"ping"}"#,
            br#"{"id":{"a":1},"method":"ping"}"#,
            br#"{"id":1 2,"method":"ping"}"#,
            br#"{"id" "x","method":"ping"}"#,
            br#"{"id":"\ud800","method":"ping"}"#,
            br#"{"id":"a" "b","method":"ping"}"#,
            br#"{"id":"a"x,"method":"ping"}"#,
        ] {
            assert_eq!(scan(line), Skipped::Unknown, "{}", String::from_utf8_lossy(line));
        }
        // A valid id then an invalid one under the same name: the last one counts, as parsed.
        assert_eq!(scan(br#"{"id":1,"id":null}"#), Skipped::Unknown);
    }

    #[test]
    fn an_id_beyond_the_part_read_or_too_long_is_unknown() {
        let line = br#"{"method":"tools/call","params":{"plan":"...."},"jsonrpc":"2.0","id":17}"#;
        assert_eq!(scan(line), request(json!(17)));
        // Cut anywhere before the id's value has ended (here: before the closing brace), the id
        // is not known.
        for cut in 0..line.len() - 1 {
            assert_eq!(IdScan::line(&line[..cut]), Skipped::Unknown, "cut at {cut}");
        }
        // A cut line after a complete string id still has it.
        assert_eq!(IdScan::line(br#"{"id":"s","method":"tools/call","params":{"#), request(json!("s")));
        // The longest id kept, and one byte more.
        let fits = "x".repeat(MAX_SCANNED_ID_BYTES - 2);
        assert_eq!(scan(format!(r#"{{"id":"{fits}","method":"m"}}"#).as_bytes()), request(json!(fits)));
        let long = "x".repeat(MAX_SCANNED_ID_BYTES - 1);
        assert_eq!(scan(format!(r#"{{"id":"{long}","method":"m"}}"#).as_bytes()), Skipped::Unknown);
    }

    #[test]
    fn notifications_only_when_the_object_is_complete() {
        assert_eq!(
            scan(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"id":1}}"#),
            Skipped::Notification
        );
        assert_eq!(scan(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"#), Skipped::Unknown);
        assert_eq!(scan(br#"{"jsonrpc":"2.0","params":{}}"#), Skipped::Unknown, "no method: not a notification");
        assert_eq!(scan(b""), Skipped::Unknown);
        assert_eq!(Skipped::Notification.id(), Value::Null);
        assert_eq!(Skipped::Unknown.id(), Value::Null);
        assert_eq!(request(json!("q")).id(), json!("q"));
    }

    #[test]
    fn the_scan_keeps_no_more_than_the_id_of_a_huge_line() {
        let mut s = IdScan::default();
        s.feed(br#"{"method":"tools/call","params":{"arguments":{"plan":""#);
        let chunk = vec![b'a'; 1 << 16];
        for _ in 0..80 {
            s.feed(&chunk); // 5 MiB inside one string
        }
        assert!(s.key.capacity() <= 64 && s.value.as_ref().map_or(0, Vec::capacity) <= 64);
        s.feed(br#""}},"jsonrpc":"2.0","id":"big"}"#);
        assert_eq!(s.finish(), request(json!("big")));
    }
}
