//! Streamable HTTP through the transport-free mapping `momentum_plan_mcp::http::handle`
//! (mcp-server.md "Streamable HTTP"): one test per row of the section: endpoint and methods,
//! 202s, the era from the header, the 2026-07-28 header ladder, the status table, Host/Origin,
//! the token, media types and size, and the stateless save across instances.

use crate::common::*;
use momentum_plan_mcp::http::{HttpConfig, HttpRequest, HttpResponse, MAX_BODY_BYTES, handle};
use momentum_plan_mcp::{DirStore, Store};
use serde_json::{Value, json};
use std::path::Path;

/// One HTTP exchange: builds a request from parts, serves it, parses the body (the goldens' classic
/// HTTP save too).
pub(crate) struct Call {
    method: &'static str,
    path: &'static str,
    authority: Option<String>,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
}

impl Call {
    /// A POST of `body` with JSON content type and the conformance suite's Accept.
    pub(crate) fn post(body: &Value) -> Call {
        Call::post_bytes(body.to_string().into_bytes())
    }

    fn post_bytes(body: Vec<u8>) -> Call {
        Call {
            method: "POST",
            path: "/mcp",
            authority: Some("127.0.0.1:8765".into()),
            headers: vec![
                ("Content-Type".into(), b"application/json".to_vec()),
                ("Accept".into(), b"application/json, text/event-stream".to_vec()),
            ],
            body,
        }
    }

    /// A 2026-07-28 POST: the header version, `Mcp-Method` and (for named methods) `Mcp-Name`
    /// taken from the message, as a conforming client sends them.
    fn modern(message: &Value) -> Call {
        let mut c = Call::post(message).header("MCP-Protocol-Version", "2026-07-28");
        let method = message["method"].as_str().unwrap_or_default().to_owned();
        c = c.header("Mcp-Method", &method);
        let name = match method.as_str() {
            "tools/call" | "prompts/get" => message["params"]["name"].as_str(),
            "resources/read" => message["params"]["uri"].as_str(),
            _ => None,
        };
        if let Some(name) = name {
            c = c.header("Mcp-Name", name);
        }
        c
    }

    pub(crate) fn header(mut self, name: &str, value: &str) -> Call {
        self.headers.push((name.to_owned(), value.as_bytes().to_vec()));
        self
    }

    fn without(mut self, name: &str) -> Call {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self
    }

    pub(crate) fn send(&self, store: Option<&Path>, config: &HttpConfig) -> Reply {
        let request = HttpRequest {
            method: self.method,
            path: self.path,
            authority: self.authority.as_deref(),
            headers: &self.headers,
            body: &self.body,
        };
        let store = store.map(|dir| Box::new(DirStore::open(dir).expect("store dir")) as Box<dyn Store>);
        Reply(handle(store, config, &request))
    }

    /// Served read-only with the default configuration.
    fn go(&self) -> Reply {
        self.send(None, &HttpConfig::default())
    }
}

pub(crate) struct Reply(HttpResponse);

impl Reply {
    fn status(&self) -> u16 {
        self.0.status
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.0.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        assert_eq!(self.header("content-type"), Some("application/json"), "{:?}", self.0);
        serde_json::from_slice(&self.0.body).unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.0))
    }

    fn error_code(&self) -> i64 {
        self.json()["error"]["code"].as_i64().unwrap_or_else(|| panic!("no error: {:?}", self.json()))
    }

    pub(crate) fn result(&self) -> Value {
        let v = self.json();
        assert_eq!(self.status(), 200, "{v}");
        assert!(v.get("error").is_none(), "{v}");
        v["result"].clone()
    }
}

fn modern_req(id: i64, method: &str, params: Value) -> Value {
    modern(id, method, params, json!({}))
}

#[test]
fn only_post_on_mcp_is_served() {
    for method in ["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"] {
        let mut c = Call::post(&req(1, "ping", json!({})));
        c.method = method;
        let r = c.go();
        assert_eq!(r.status(), 405, "{method}");
        assert_eq!(r.header("allow"), Some("POST"), "{method}");
        assert_eq!(r.json()["error"]["code"], -32600);
    }
    for path in ["/", "/mcp/", "/MCP", "/mcpx", "/other/mcp"] {
        let mut c = Call::post(&req(1, "ping", json!({})));
        c.path = path;
        assert_eq!(c.go().status(), 404, "{path}");
    }
    // A query is ignored; a session id is neither required nor minted.
    let mut c = Call::post(&req(1, "ping", json!({}))).header("Mcp-Session-Id", "abc");
    c.path = "/mcp?x=1";
    let r = c.go();
    assert_eq!(r.result(), json!({}));
    assert!(r.header("mcp-session-id").is_none());
}

#[test]
fn notifications_and_client_responses_get_202_and_no_body() {
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = json!({"jsonrpc": "2.0", "id": 5, "result": {}});
    for message in [&notification, &response] {
        for call in [Call::post(message), Call::modern(message)] {
            let r = call.go();
            assert_eq!(r.status(), 202, "{message}");
            assert!(r.0.body.is_empty());
        }
    }
    // A batch of notifications only (2025-03-26) is 202 too.
    let r = Call::post(&json!([notification])).go();
    assert_eq!(r.status(), 202);
}

#[test]
fn the_header_selects_the_era() {
    // Absent: classic 2025-03-26 (no outputSchema, batches served).
    let tools = Call::post(&req(1, "tools/list", json!({}))).go().result();
    assert!(tools["tools"][0].get("outputSchema").is_none());
    assert!(tools["tools"][0].get("annotations").is_some());
    assert_classic(&tools);
    let batch = Call::post(&json!([req(1, "ping", json!({})), req(2, "ping", json!({}))])).go();
    assert_eq!(batch.status(), 200);
    assert_eq!(
        batch.json(),
        json!([{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {}}])
    );
    // A classic version is that version.
    let tools = Call::post(&req(1, "tools/list", json!({}))).header("MCP-Protocol-Version", "2024-11-05").go().result();
    assert!(tools["tools"][0].get("annotations").is_none());
    let tools =
        Call::post(&req(1, "tools/list", json!({}))).header("MCP-Protocol-Version", " 2025-11-25 ").go().result();
    assert!(tools["tools"][0].get("outputSchema").is_some());
    let batch = Call::post(&json!([req(1, "ping", json!({}))])).header("MCP-Protocol-Version", "2025-06-18").go();
    assert_eq!((batch.status(), batch.error_code()), (400, -32600));
    // initialize still negotiates its own version.
    let init = Call::post(&req(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    ))
    .go()
    .result();
    assert_eq!(init["protocolVersion"], "2025-06-18");
    // 2026-07-28: stamps and hints.
    let tools = Call::modern(&modern_req(1, "tools/list", json!({}))).go().result();
    assert_modern_complete(&tools);
    assert_eq!(tools["cacheScope"], "public");
}

#[test]
fn an_unsupported_header_version_is_32022() {
    for (header, body_version) in [("v999", "v999"), ("v999", "2026-07-28"), ("2027-01-01", "2027-01-01")] {
        let mut message = modern_req(7, "server/discover", json!({}));
        message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!(body_version);
        let r = Call::modern(&message).without("MCP-Protocol-Version").header("MCP-Protocol-Version", header).go();
        assert_eq!(r.status(), 400);
        let v = r.json();
        assert_eq!(v["id"], 7, "the id is echoed");
        assert_eq!(v["error"]["code"], -32022);
        assert_eq!(v["error"]["data"], json!({"supported": ["2026-07-28"], "requested": header}));
    }
    // Also for a classic-looking body.
    let r = Call::post(&req(1, "ping", json!({}))).header("MCP-Protocol-Version", "1.0").go();
    assert_eq!((r.status(), r.error_code()), (400, -32022));
}

#[test]
fn header_and_body_must_agree_in_2026() {
    let call = modern_req(3, "tools/call", call("get_plan_contract", json!({})));
    let ok = Call::modern(&call).go();
    assert_eq!(ok.result()["isError"], false);
    let cases: Vec<(&str, Call)> = vec![
        ("Mcp-Method missing", Call::modern(&call).without("Mcp-Method")),
        ("Mcp-Method other", Call::modern(&call).without("Mcp-Method").header("Mcp-Method", "tools/list")),
        ("Mcp-Method case", Call::modern(&call).without("Mcp-Method").header("Mcp-Method", "TOOLS/CALL")),
        ("Mcp-Method twice", Call::modern(&call).header("Mcp-Method", "tools/call")),
        ("Mcp-Name missing", Call::modern(&call).without("Mcp-Name")),
        ("Mcp-Name other", Call::modern(&call).without("Mcp-Name").header("Mcp-Name", "validate_plan")),
        ("Mcp-Name bad base64", Call::modern(&call).without("Mcp-Name").header("Mcp-Name", "=?base64?***?=")),
        ("body version", {
            let mut m = call.clone();
            m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999");
            Call::modern(&m)
        }),
    ];
    for (what, c) in cases {
        let r = c.go();
        assert_eq!(r.status(), 400, "{what}");
        let v = r.json();
        assert_eq!(v["error"]["code"], -32020, "{what}: {v}");
        assert_eq!(v["id"], 3, "{what}");
    }
    // Accepted: white space around values, any case of the names, the base64 form.
    let spaced = Call::modern(&call)
        .without("Mcp-Method")
        .without("Mcp-Name")
        .header("mcp-method", "  tools/call\t")
        .header("MCP-NAME", " get_plan_contract ");
    assert_eq!(spaced.go().result()["isError"], false);
    let encoded = Call::modern(&call).without("Mcp-Name").header("Mcp-Name", "=?base64?Z2V0X3BsYW5fY29udHJhY3Q=?=");
    assert_eq!(encoded.go().result()["isError"], false);
    // Mcp-Name is checked against params.uri for resources/read and params.name for prompts/get.
    let read = modern_req(4, "resources/read", json!({"uri": "plan://x"}));
    let r = Call::modern(&read).without("Mcp-Name").header("Mcp-Name", "plan://y").go();
    assert_eq!(r.error_code(), -32020);
    let prompt = modern_req(5, "prompts/get", json!({"name": "draft_plan", "arguments": {"request_json": "{}"}}));
    assert!(Call::modern(&prompt).go().result()["messages"].is_array());
    let r = Call::modern(&prompt).without("Mcp-Name").go();
    assert_eq!(r.error_code(), -32020);
}

#[test]
fn the_meta_shape_comes_before_the_headers() {
    // No _meta, no version, no capabilities: -32602 and 400 (even with mismatched headers).
    let no_meta = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}});
    let no_caps = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    let no_version = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}});
    let caps_array = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": []}}});
    for message in [no_meta, no_caps, no_version, caps_array] {
        let r = Call::modern(&message).go();
        assert_eq!((r.status(), r.error_code()), (400, -32602), "{message}");
        let r = Call::modern(&message).without("Mcp-Method").go();
        assert_eq!(r.error_code(), -32602, "{message}");
    }
    // Without clientInfo it is served.
    let mut message = modern_req(2, "server/discover", json!({}));
    message["params"]["_meta"].as_object_mut().unwrap().remove("io.modelcontextprotocol/clientInfo");
    let d = Call::modern(&message).go().result();
    assert_eq!(d["supportedVersions"], json!(["2026-07-28"]));
}

#[test]
fn the_2026_status_table() {
    // -32601 → 404: initialize (no handshake on 2026-07-28 HTTP), and what has no 2026 form.
    let init = modern_req(
        1,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    for message in [
        init,
        modern_req(2, "ping", json!({})),
        modern_req(3, "logging/setLevel", json!({"level": "info"})),
        modern_req(4, "resources/subscribe", json!({"uri": "plan://x"})),
        modern_req(5, "resources/unsubscribe", json!({"uri": "plan://x"})),
        modern_req(6, "unknown/method", json!({})),
    ] {
        let r = Call::modern(&message).go();
        assert_eq!((r.status(), r.error_code()), (404, -32601), "{message}");
        assert_eq!(r.json()["id"], message["id"]);
    }
    // -32602 → 400: an unknown tool; a cursor never issued.
    let r = Call::modern(&modern_req(7, "tools/call", call("nope", json!({})))).go();
    assert_eq!((r.status(), r.error_code()), (400, -32602));
    let r = Call::modern(&modern_req(8, "tools/list", json!({"cursor": "zz"}))).go();
    assert_eq!((r.status(), r.error_code()), (400, -32602));
    // -32700, -32600 → 400; a batch is not a 2026 body.
    let r = Call::post_bytes(b"{not json".to_vec()).header("MCP-Protocol-Version", "2026-07-28").go();
    assert_eq!((r.status(), r.error_code()), (400, -32700));
    let r = Call::post(&json!({"id": 1, "method": "ping"})).header("MCP-Protocol-Version", "2026-07-28").go();
    assert_eq!((r.status(), r.error_code()), (400, -32600));
    let r =
        Call::post(&json!([modern_req(1, "tools/list", json!({}))])).header("MCP-Protocol-Version", "2026-07-28").go();
    assert_eq!((r.status(), r.error_code()), (400, -32600));
    // A tool error is a result: 200.
    let r = Call::modern(&modern_req(9, "tools/call", call("validate_plan", json!({})))).go();
    assert_eq!(r.result()["isError"], true);
}

#[test]
fn the_classic_status_table() {
    let r = Call::post_bytes(b"[1,".to_vec()).go();
    assert_eq!((r.status(), r.error_code()), (400, -32700));
    let r = Call::post(&json!({"jsonrpc": "1.0", "id": 1, "method": "ping"})).go();
    assert_eq!((r.status(), r.error_code()), (400, -32600));
    // Other JSON-RPC errors are 200.
    let r = Call::post(&req(1, "no/such", json!({}))).go();
    assert_eq!((r.status(), r.error_code()), (200, -32601));
    let r = Call::post(&req(2, "tools/call", call("nope", json!({})))).go();
    assert_eq!((r.status(), r.error_code()), (200, -32602));
    // A 2026 envelope under a classic (or absent) header: the header and body disagree.
    for header in [None, Some("2025-11-25")] {
        let mut c = Call::post(&modern_req(3, "tools/list", json!({})));
        if let Some(h) = header {
            c = c.header("MCP-Protocol-Version", h);
        }
        let r = c.go();
        assert_eq!((r.status(), r.error_code()), (400, -32020), "{header:?}");
        assert_eq!(r.json()["id"], 3);
    }
}

#[test]
fn host_and_origin_must_be_allowed() {
    let ping = req(1, "ping", json!({}));
    for host in ["evil.example.com", "evil.example.com:8765", "127.0.0.2:8765", "localhost.evil.com"] {
        let mut c = Call::post(&ping);
        c.authority = Some(host.into());
        assert_eq!(c.go().status(), 403, "{host}");
    }
    // Without an authority the Host header is used.
    let mut c = Call::post(&ping).header("Host", "evil.example.com");
    c.authority = None;
    assert_eq!(c.go().status(), 403);
    let mut c = Call::post(&ping).header("Host", "localhost:8765");
    c.authority = None;
    assert_eq!(c.go().result(), json!({}));
    let mut c = Call::post(&ping);
    c.authority = None;
    assert_eq!(c.go().status(), 403, "no host at all");
    for origin in ["http://evil.example.com", "null", "https://localhost.evil.com:443"] {
        assert_eq!(Call::post(&ping).header("Origin", origin).go().status(), 403, "{origin}");
    }
    for origin in ["http://localhost:6274", "http://127.0.0.1", "https://[::1]:1"] {
        assert_eq!(Call::post(&ping).header("Origin", origin).go().status(), 200, "{origin}");
    }
    // Configured names and origins.
    let config = HttpConfig::from_values(Some("planner.example.com"), Some("https://app.example.com"), None);
    let mut c = Call::post(&ping).header("Origin", "https://app.example.com");
    c.authority = Some("planner.example.com".into());
    assert_eq!(c.send(None, &config).status(), 200);
    let c = Call::post(&ping).header("Origin", "https://other.example.com");
    assert_eq!(c.send(None, &config).status(), 403);
    // 403 comes first, before the path and the method.
    let mut c = Call::post(&ping);
    c.authority = Some("evil.example.com".into());
    c.method = "GET";
    c.path = "/elsewhere";
    assert_eq!(c.go().status(), 403);
}

#[test]
fn the_bearer_token_is_required_when_configured() {
    let config = HttpConfig::from_values(None, None, Some("s3cret-token"));
    let ping = req(1, "ping", json!({}));
    let r = Call::post(&ping).send(None, &config);
    assert_eq!(r.status(), 401);
    assert_eq!(r.header("www-authenticate"), Some(r#"Bearer realm="momentum-plan""#));
    for wrong in ["Bearer s3cret-tokeN", "Bearer s3cret", "Bearer s3cret-token2", "Basic s3cret-token", "s3cret-token"]
    {
        let r = Call::post(&ping).header("Authorization", wrong).send(None, &config);
        assert_eq!(r.status(), 401, "{wrong}");
        assert!(r.header("www-authenticate").unwrap().starts_with("Bearer"), "{wrong}");
    }
    let r = Call::post(&ping).header("Authorization", "Bearer s3cret-token").send(None, &config);
    assert_eq!(r.result(), json!({}));
    let r = Call::post(&ping).header("authorization", "bearer s3cret-token").send(None, &config);
    assert_eq!(r.status(), 200, "the scheme is case-insensitive");
    // Without a configured token, none is needed (loopback default).
    assert_eq!(Call::post(&ping).go().status(), 200);
}

#[test]
fn media_types_and_size() {
    let ping = req(1, "ping", json!({}));
    for ct in ["text/plain", "application/x-www-form-urlencoded", ""] {
        let r = Call::post(&ping).without("Content-Type").header("Content-Type", ct).go();
        assert_eq!(r.status(), 415, "{ct:?}");
    }
    assert_eq!(Call::post(&ping).without("Content-Type").go().status(), 415, "no Content-Type");
    let r = Call::post(&ping).without("Content-Type").header("Content-Type", "application/json; charset=utf-8").go();
    assert_eq!(r.status(), 200);
    for accept in ["text/event-stream", "text/html", "application/json;q=0"] {
        let r = Call::post(&ping).without("Accept").header("Accept", accept).go();
        assert_eq!(r.status(), 406, "{accept}");
    }
    for accept in ["*/*", "application/*", "application/json"] {
        assert_eq!(Call::post(&ping).without("Accept").header("Accept", accept).go().status(), 200, "{accept}");
    }
    assert_eq!(Call::post(&ping).without("Accept").go().status(), 200, "no Accept");
    // 413 just over the limit; exactly the limit is read (and is not JSON here: 400).
    let r = Call::post_bytes(vec![b' '; MAX_BODY_BYTES + 1]).go();
    assert_eq!(r.status(), 413);
    let r = Call::post_bytes(vec![b' '; MAX_BODY_BYTES]).go();
    assert_eq!((r.status(), r.error_code()), (400, -32700));
}

#[test]
fn tools_over_http_give_the_core_verdict() {
    for (plan, request) in [calm(), broken()] {
        let expected = momentum_plan::validate(&plan, &request).to_json();
        let classic =
            Call::post(&req(1, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))))
                .header("MCP-Protocol-Version", "2025-11-25")
                .go()
                .result();
        assert_eq!(text(&classic), expected);
        let m = Call::modern(&modern_req(
            2,
            "tools/call",
            call("validate_plan", json!({"plan": plan, "request": request})),
        ))
        .go()
        .result();
        assert_eq!(text(&m), expected);
        assert_eq!(m["structuredContent"].to_string(), expected);
        assert_modern_complete(&m);
    }
}

/// The save of an existing plan: classic HTTP cannot ask; 2026-07-28 asks with
/// `input_required`, and the retry may reach another instance (here: another server over the
/// same directory, as two processes are).
#[test]
fn saving_over_http_is_stateless() {
    let store = TempDir::new("http-save");
    let config = HttpConfig::default();
    let (plan, request) = calm_with_id("http-1");
    let args = json!({"plan": plan, "request": request});
    let first = Call::post(&req(1, "tools/call", call("save_plan", args.clone())))
        .header("MCP-Protocol-Version", "2025-11-25")
        .send(Some(store.path()), &config)
        .result();
    assert_eq!(first["structuredContent"]["saved"], true, "{first}");
    let saved = std::fs::read(store.path().join("http-1.json")).unwrap();

    // Classic: the plan is left, and the warning names HTTP and 2026-07-28.
    let mut changed = plan.clone();
    changed["name"] = json!("Changed weekday");
    let args2 = json!({"plan": changed, "request": request});
    let elicit = json!({"elicitation": {}});
    let classic = Call::post(&req(2, "tools/call", call("save_plan", args2.clone())))
        .header("MCP-Protocol-Version", "2025-11-25")
        .send(Some(store.path()), &config)
        .result();
    let s = &classic["structuredContent"];
    assert_eq!(s["saved"], false);
    let warning = s["warnings"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(warning["code"], "notSaved");
    let message = warning["message"].as_str().unwrap();
    assert!(message.contains("HTTP") && message.contains("2026-07-28"), "{message}");
    assert_eq!(std::fs::read(store.path().join("http-1.json")).unwrap(), saved);

    // 2026-07-28 with elicitation: asked on instance A...
    let ask = modern(3, "tools/call", call("save_plan", args2.clone()), elicit.clone());
    let a = Call::modern(&ask).send(Some(store.path()), &config).result();
    assert_eq!(a["resultType"], "input_required", "{a}");
    assert_eq!(a["inputRequests"]["overwrite"]["method"], "elicitation/create");
    assert!(a.get("requestState").is_none());
    // ...declined on B: left as it was.
    let mut retry = ask.clone();
    retry["params"]["inputResponses"] = json!({"overwrite": {"action": "decline"}});
    let b = Call::modern(&retry).send(Some(store.path()), &config).result();
    assert_eq!(b["structuredContent"]["saved"], false);
    assert_eq!(std::fs::read(store.path().join("http-1.json")).unwrap(), saved);
    // ...accepted on B: replaced.
    retry["params"]["inputResponses"] = json!({"overwrite": {"action": "accept", "content": {"overwrite": true}}});
    let b = Call::modern(&retry).send(Some(store.path()), &config).result();
    assert_eq!(b["structuredContent"]["saved"], true, "{b}");
    let now: Value = serde_json::from_slice(&std::fs::read(store.path().join("http-1.json")).unwrap()).unwrap();
    assert_eq!(now["name"], "Changed weekday");
    // No temporary file is left behind.
    assert_eq!(store.entries(), vec!["http-1.json".to_owned()]);

    // The saved plan is listed and read over HTTP (2026: private, uncached hints).
    let list = Call::modern(&modern_req(4, "resources/list", json!({}))).send(Some(store.path()), &config).result();
    assert_eq!(list["resources"][0]["uri"], "plan://http-1");
    assert_eq!((list["cacheScope"].clone(), list["ttlMs"].clone()), (json!("private"), json!(0)));
    let read = Call::modern(&modern_req(5, "resources/read", json!({"uri": "plan://http-1"})))
        .send(Some(store.path()), &config)
        .result();
    assert_eq!(
        read["contents"][0]["text"].as_str().unwrap().as_bytes(),
        std::fs::read(store.path().join("http-1.json")).unwrap()
    );
    let missing =
        Call::modern(&modern_req(6, "resources/read", json!({"uri": "plan://nope"}))).send(Some(store.path()), &config);
    assert_eq!((missing.status(), missing.error_code()), (400, -32602));
    assert_eq!(missing.json()["error"]["data"], json!({"uri": "plan://nope"}));
}

#[test]
fn arbitrary_bodies_never_panic_and_get_json() {
    // A deterministic spread of awkward bodies: each gets a JSON answer or a 202, never a 5xx.
    let bodies: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"null".to_vec(),
        b"[]".to_vec(),
        b"\xff\xfe".to_vec(),
        b"\xEF\xBB\xBF{}".to_vec(),
        "[".repeat(600).into_bytes(),
        format!("{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}}", "9".repeat(5000)).into_bytes(),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#.to_vec(),
    ];
    for body in bodies {
        for version in [None, Some("2026-07-28"), Some("2025-06-18")] {
            let mut c = Call::post_bytes(body.clone());
            if let Some(v) = version {
                c = c.header("MCP-Protocol-Version", v).header("Mcp-Method", "ping");
            }
            let r = c.go();
            assert!(r.status() < 500, "{:?}", r.0);
            if r.status() != 202 {
                let _ = r.json();
            }
        }
    }
}
