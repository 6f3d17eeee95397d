//! Helpers shared by the server's integration tests: a temporary store, a harness that feeds raw
//! lines to a [`Server`] and parses what comes back, message builders and the bundled examples.
#![allow(dead_code, unreachable_pub)]

use momentum_plan_mcp::{DirStore, Server, Store};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The repository root, every shared vector (files in name order, parsed exactly as the core's
/// drivers read them) and the bundled examples: the Rust tests' one kit.
pub use momentum_plan_testkit::{example, root, vectors};

/// Every tool, in catalog order (`save_plan` last: only with a store).
pub const TOOLS: [&str; 7] = [
    "get_plan_contract",
    "validate_plan",
    "repair_plan",
    "get_plan_schema",
    "export_calendar",
    "import_commitments",
    "save_plan",
];

/// The calm weekday plan and its request (valid).
pub fn calm() -> (Value, Value) {
    (example("calm-weekday.plan.json"), example("calm-weekday.request.json"))
}

/// The broken calm weekday plan and its request (three errors).
pub fn broken() -> (Value, Value) {
    (example("calm-weekday-broken.plan.json"), example("calm-weekday-broken.request.json"))
}

/// The calm plan and request with `requestId` set to `id` in the request, the plan and its echo.
pub fn calm_with_id(id: &str) -> (Value, Value) {
    let (mut plan, mut request) = calm();
    request["requestId"] = json!(id);
    plan["requestId"] = json!(id);
    plan["request"]["requestId"] = json!(id);
    (plan, request)
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh directory under the system's temp dir, removed (with its content) on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("momentum-plan-mcp-test-{tag}-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The names of the entries in the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("read temp dir")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8 name"))
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A server and (with a store) its directory.
pub struct Harness {
    pub server: Server,
    pub store: Option<TempDir>,
}

impl Harness {
    /// A server with a fresh temporary store.
    pub fn with_store() -> Harness {
        let dir = TempDir::new("store");
        let store = DirStore::open(dir.path()).expect("temp dir is a directory");
        Harness { server: Server::new(Some(Box::new(store) as Box<dyn Store>)), store: Some(dir) }
    }

    /// A read-only server (no store).
    pub fn read_only() -> Harness {
        Harness { server: Server::new(None), store: None }
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        self.store.as_ref().expect("harness has a store").path()
    }

    /// Feeds raw bytes as one line; returns the raw output lines.
    pub fn raw(&mut self, line: &[u8]) -> Vec<String> {
        let out = self.server.handle_line(line);
        for l in &out {
            assert!(!l.contains('\n'), "an output line holds a newline: {l}");
        }
        out
    }

    /// Feeds one line; returns the output lines parsed.
    pub fn send(&mut self, line: &str) -> Vec<Value> {
        self.raw(line.as_bytes())
            .iter()
            .map(|l| momentum_plan::parse_json(l).unwrap_or_else(|e| panic!("output is not JSON ({e}): {l}")))
            .collect()
    }

    /// Feeds raw bytes as one line; returns the output lines parsed.
    pub fn send_bytes(&mut self, line: &[u8]) -> Vec<Value> {
        self.raw(line)
            .iter()
            .map(|l| momentum_plan::parse_json(l).unwrap_or_else(|e| panic!("output is not JSON ({e}): {l}")))
            .collect()
    }

    /// Feeds a message value; returns the output lines parsed.
    pub fn send_value(&mut self, message: &Value) -> Vec<Value> {
        self.send(&message.to_string())
    }

    /// Feeds a message that must get exactly one line back, and returns it.
    pub fn one(&mut self, message: &Value) -> Value {
        let mut out = self.send_value(message);
        assert_eq!(out.len(), 1, "expected one line for {message}, got {out:?}");
        out.remove(0)
    }

    /// Feeds a message that must get no line back.
    pub fn none(&mut self, message: &Value) {
        let out = self.send_value(message);
        assert!(out.is_empty(), "expected no output for {message}, got {out:?}");
    }

    /// The result of a request that must succeed (panics on an error response).
    pub fn result(&mut self, message: &Value) -> Value {
        let response = self.one(message);
        assert_eq!(response["id"], message["id"], "id echoed");
        assert!(response.get("error").is_none(), "unexpected error for {message}: {response}");
        response["result"].clone()
    }

    /// The error of a request that must fail; returns the error object.
    pub fn error(&mut self, message: &Value) -> Value {
        let response = self.one(message);
        assert!(response.get("result").is_none(), "expected an error for {message}: {response}");
        response["error"].clone()
    }

    /// Runs the classic handshake at `version` with `capabilities`.
    pub fn initialize(&mut self, version: &str, capabilities: Value) -> Value {
        // Members set one by one, in this order, so `capabilities` moves in (json! would clone it).
        let mut params = json!({"protocolVersion": version});
        params["capabilities"] = capabilities;
        params["clientInfo"] = json!({"name": "test", "version": "0"});
        let result = self.result(&json!({
            "jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params
        }));
        self.none(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }
}

/// A classic request.
pub fn req(id: impl Into<Value>, method: &str, params: Value) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "id": id.into(), "method": method});
    message["params"] = params;
    message
}

/// The 2026-07-28 envelope with these client capabilities.
pub fn meta(capabilities: Value) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
    });
    meta["io.modelcontextprotocol/clientCapabilities"] = capabilities;
    meta
}

/// A 2026-07-28 request: `params` plus `_meta` with `capabilities`.
pub fn modern(id: impl Into<Value>, method: &str, params: Value, capabilities: Value) -> Value {
    let mut params = params;
    params["_meta"] = meta(capabilities);
    json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params})
}

/// `tools/call` params.
pub fn call(name: &str, arguments: Value) -> Value {
    let mut params = json!({"name": name});
    params["arguments"] = arguments;
    params
}

/// The text of a tool result's only content block (asserting there is exactly one).
pub fn text(result: &Value) -> String {
    let content = result["content"].as_array().expect("content array");
    assert_eq!(content.len(), 1, "one content block: {result}");
    assert_eq!(content[0]["type"], "text");
    content[0]["text"].as_str().expect("text").to_owned()
}

/// Asserts the 2026-07-28 stamps on a complete result: `resultType` and `serverInfo`.
pub fn assert_modern_complete(result: &Value) {
    assert_eq!(result["resultType"], "complete", "{result}");
    let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(info["name"], "momentum-planner", "{result}");
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"), "{result}");
}

/// Asserts a result carries no 2026-07-28 fields (classic era).
pub fn assert_classic(result: &Value) {
    for key in ["resultType", "ttlMs", "cacheScope", "_meta"] {
        assert!(result.get(key).is_none(), "classic result carries {key}: {result}");
    }
}
