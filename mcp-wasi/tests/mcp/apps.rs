//! The plan view in the conversation (mcp-server.md "The plan view in the conversation (MCP
//! Apps)"), on stdio lines and over HTTP, in both eras: offered only to a client declaring the
//! extension with the HTML profile (`tools/list` links it from `validate_plan` and `repair_plan`,
//! `resources/read` serves it, also without a store); to any other client the catalog is byte for
//! byte what it was; tool results' text stays the whole answer.

use crate::common::*;
use momentum_plan_mcp::http::{HttpConfig, HttpRequest, handle};
use momentum_plan_mcp::{DirStore, Store, UI_EXTENSION, VIEW_HTML, VIEW_MIME, VIEW_URI};
use serde_json::{Value, json};

/// Client capabilities declaring the extension with the view's MIME type.
fn apps_caps() -> Value {
    json!({"extensions": {UI_EXTENSION: {"mimeTypes": [VIEW_MIME]}}})
}

/// Capabilities that do not declare it (the shapes a client might send instead).
fn other_caps() -> Vec<Value> {
    vec![
        json!({}),
        json!({"elicitation": {}}),
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": ["text/html"]}}}),
        json!({"extensions": {UI_EXTENSION: {}}}),
        json!({"extensions": {"io.example/other": {"mimeTypes": [VIEW_MIME]}}}),
    ]
}

/// The `_meta.ui.resourceUri` of each tool in a `tools/list` result, by name.
fn links(result: &Value) -> Vec<(String, Option<String>)> {
    result["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (t["name"].as_str().expect("name").to_owned(), t["_meta"]["ui"]["resourceUri"].as_str().map(str::to_owned))
        })
        .collect()
}

fn assert_linked(result: &Value) {
    for (name, uri) in links(result) {
        let want = (name == "validate_plan" || name == "repair_plan").then(|| VIEW_URI.to_owned());
        assert_eq!(uri, want, "{name}");
    }
    for t in result["tools"].as_array().expect("tools") {
        if t.get("_meta").is_some() {
            assert_eq!(t["_meta"], json!({"ui": {"resourceUri": VIEW_URI}}), "{t}");
        }
    }
}

fn assert_not_linked(result: &Value) {
    for t in result["tools"].as_array().expect("tools") {
        assert!(t.get("_meta").is_none(), "{t}");
    }
}

/// A `resources/read` result of the view: its URI, MIME type, the HTML and `prefersBorder`.
fn assert_view(result: &Value) {
    let contents = result["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1, "{result}");
    assert_eq!(contents[0]["uri"], VIEW_URI);
    assert_eq!(contents[0]["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(contents[0]["text"].as_str(), Some(VIEW_HTML));
    assert_eq!(contents[0]["_meta"], json!({"ui": {"prefersBorder": true}}));
}

fn read_view(id: &str) -> Value {
    req(id, "resources/read", json!({"uri": VIEW_URI}))
}

#[test]
fn classic_clients_declaring_the_extension_get_the_view_in_every_version() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        for mut h in [Harness::read_only(), Harness::with_store()] {
            let store = h.store.is_some();
            let init = h.initialize(version, apps_caps());
            assert_eq!(init["capabilities"]["resources"], json!({}), "{version}: resources declared: {init}");
            assert_linked(&h.result(&req(1, "tools/list", json!({}))));
            assert_view(&h.result(&read_view("v")));
            // Only the view: another ui:// URI, or a plan that is not there, is not found.
            let e = h.error(&req(2, "resources/read", json!({"uri": "ui://momentum-planner/other"})));
            assert_eq!(e["code"], -32002, "{e}");
            assert_eq!(e["data"]["uri"], "ui://momentum-planner/other");
            // The view is not listed (the spec allows leaving UI-only resources out); without a
            // store the lists are empty, with one they are the store's.
            assert_eq!(h.result(&req(3, "resources/list", json!({})))["resources"], json!([]));
            let templates = h.result(&req(4, "resources/templates/list", json!({})));
            let uris: Vec<&str> = templates["resourceTemplates"]
                .as_array()
                .expect("templates")
                .iter()
                .filter_map(|t| t["uriTemplate"].as_str())
                .collect();
            assert_eq!(uris, if store { vec!["plan://{planId}"] } else { Vec::<&str>::new() }, "{version}");
        }
    }
}

#[test]
fn classic_clients_without_it_see_the_catalog_unchanged() {
    for version in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        // The reference: a client that declares nothing at all.
        let mut reference = Harness::read_only();
        reference.initialize(version, json!({}));
        let tools = reference.raw(req(1, "tools/list", json!({})).to_string().as_bytes());
        for caps in other_caps() {
            for read_only in [true, false] {
                let mut h = if read_only { Harness::read_only() } else { Harness::with_store() };
                let init = h.initialize(version, caps.clone());
                assert_eq!(init["capabilities"].get("resources").is_some(), !read_only, "{caps}: {init}");
                let out = h.raw(req(1, "tools/list", json!({})).to_string().as_bytes());
                if read_only {
                    assert_eq!(out, tools, "{version} {caps}: tools/list byte for byte");
                }
                assert_not_linked(&h.result(&req(2, "tools/list", json!({}))));
                let e = h.error(&read_view("v"));
                if read_only {
                    assert_eq!(e["code"], -32601, "{caps}: {e}");
                } else {
                    assert_eq!(e["code"], -32002, "{caps}: {e}");
                    assert_eq!(e["data"]["uri"], VIEW_URI);
                }
            }
        }
    }
}

#[test]
fn modern_requests_are_judged_by_their_own_capabilities() {
    for mut h in [Harness::read_only(), Harness::with_store()] {
        let store = h.store.is_some();
        // One process, requests of both kinds interleaved: each is served by its own capabilities.
        for round in 0..2 {
            let discover = h.result(&modern(round, "server/discover", json!({}), apps_caps()));
            assert_eq!(discover["capabilities"]["resources"], json!({}), "{discover}");
            let listed = h.result(&modern(10 + round, "tools/list", json!({}), apps_caps()));
            assert_modern_complete(&listed);
            assert_linked(&listed);
            let read = h.result(&modern(20 + round, "resources/read", json!({"uri": VIEW_URI}), apps_caps()));
            assert_modern_complete(&read);
            assert_eq!(read["cacheScope"], "private");
            assert_view(&read);
            let e = h.error(&modern(30 + round, "resources/read", json!({"uri": "ui://x/y"}), apps_caps()));
            assert_eq!(e["code"], -32602, "{e}");
            for caps in other_caps() {
                let discover = h.result(&modern(40, "server/discover", json!({}), caps.clone()));
                assert_eq!(discover["capabilities"].get("resources").is_some(), store, "{caps}: {discover}");
                assert_not_linked(&h.result(&modern(41, "tools/list", json!({}), caps.clone())));
                let e = h.error(&modern(42, "resources/read", json!({"uri": VIEW_URI}), caps.clone()));
                assert_eq!(e["code"], if store { -32602 } else { -32601 }, "{caps}: {e}");
            }
            // A classic request in between knows nothing of the extension.
            assert_not_linked(&h.result(&req(50, "tools/list", json!({}))));
        }
    }
}

#[test]
fn the_text_content_stays_the_whole_answer() {
    let (plan, request) = broken();
    for name in ["validate_plan", "repair_plan"] {
        let arguments = json!({"plan": plan, "request": request});
        let mut plain = Harness::read_only();
        plain.initialize("2025-11-25", json!({}));
        let mut with_view = Harness::read_only();
        with_view.initialize("2025-11-25", apps_caps());
        let a = plain.raw(req(1, "tools/call", call(name, arguments.clone())).to_string().as_bytes());
        let b = with_view.raw(req(1, "tools/call", call(name, arguments.clone())).to_string().as_bytes());
        assert_eq!(a, b, "{name}: the same result bytes with and without the view");
        let result = with_view.result(&req(2, "tools/call", call(name, arguments)));
        let text: Value = serde_json::from_str(&text(&result)).expect("text is JSON");
        assert_eq!(text, result["structuredContent"], "{name}: the text is the whole structured answer");
    }
}

#[test]
fn the_html_references_no_external_origin() {
    let lower = VIEW_HTML.to_ascii_lowercase();
    for needle in ["http://", "https://", "src=", "href=", "fetch(", "<link", "@import", "import(", "//cdn"] {
        assert!(!lower.contains(needle), "the view holds {needle:?}");
    }
    assert!(!lower.contains("url(//") && !lower.contains("url(\"//") && !lower.contains("url('//"));
    assert_eq!(lower.matches("<script").count(), 1, "one inline script");
    assert!(lower.starts_with("<!doctype html>"));
}

/// One HTTP exchange through `http::handle`: a POST of `message` with `version` in the header
/// (and, for 2026-07-28, the `Mcp-Method`/`Mcp-Name` headers taken from the body).
fn http(store: Option<&TempDir>, version: &str, message: &Value) -> (u16, Value) {
    let mut headers: Vec<(String, Vec<u8>)> = vec![
        ("Content-Type".into(), b"application/json".to_vec()),
        ("Accept".into(), b"application/json, text/event-stream".to_vec()),
        ("MCP-Protocol-Version".into(), version.as_bytes().to_vec()),
    ];
    if version == "2026-07-28" {
        let method = message["method"].as_str().unwrap_or_default();
        headers.push(("Mcp-Method".into(), method.as_bytes().to_vec()));
        let name = match method {
            "tools/call" => message["params"]["name"].as_str(),
            "resources/read" => message["params"]["uri"].as_str(),
            _ => None,
        };
        if let Some(name) = name {
            headers.push(("Mcp-Name".into(), name.as_bytes().to_vec()));
        }
    }
    let body = message.to_string().into_bytes();
    let request =
        HttpRequest { method: "POST", path: "/mcp", authority: Some("127.0.0.1:8765"), headers: &headers, body: &body };
    let store = store.map(|d| Box::new(DirStore::open(d.path()).expect("store")) as Box<dyn Store>);
    let response = handle(store, &HttpConfig::default(), &request);
    let value = serde_json::from_slice(&response.body).unwrap_or(Value::Null);
    (response.status, value)
}

#[test]
fn over_http_2026_requests_declaring_the_extension_get_the_view() {
    for store in [None, Some(TempDir::new("apps-http"))] {
        let s = store.as_ref();
        let (status, listed) = http(s, "2026-07-28", &modern(1, "tools/list", json!({}), apps_caps()));
        assert_eq!(status, 200, "{listed}");
        assert_linked(&listed["result"]);
        let (status, read) = http(s, "2026-07-28", &modern(2, "resources/read", json!({"uri": VIEW_URI}), apps_caps()));
        assert_eq!(status, 200, "{read}");
        assert_view(&read["result"]);
        for caps in other_caps() {
            let (_, listed) = http(s, "2026-07-28", &modern(3, "tools/list", json!({}), caps.clone()));
            assert_not_linked(&listed["result"]);
            let (status, e) =
                http(s, "2026-07-28", &modern(4, "resources/read", json!({"uri": VIEW_URI}), caps.clone()));
            let want = if s.is_some() { (400, -32602) } else { (404, -32601) };
            assert_eq!((status, e["error"]["code"].as_i64().unwrap_or(0)), want, "{caps}: {e}");
        }
    }
}

#[test]
fn over_classic_http_nothing_is_offered() {
    // Each classic HTTP request is served alone; the handshake's capabilities are not sent again,
    // so the view is never linked there and the initialize result does not promise resources.
    let (_, init) = http(
        None,
        "2025-11-25",
        &req(
            "i",
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": apps_caps(), "clientInfo": {"name": "t", "version": "0"}}),
        ),
    );
    assert!(init["result"]["capabilities"].get("resources").is_none(), "{init}");
    let (_, listed) = http(None, "2025-11-25", &req(1, "tools/list", json!({})));
    assert_not_linked(&listed["result"]);
    let (_, e) = http(None, "2025-11-25", &read_view("r"));
    assert_eq!(e["error"]["code"], -32601, "{e}");
}
