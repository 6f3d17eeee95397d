//! Fuzz target `http_requests`: arbitrary bytes read as an HTTP/1.1 request head and body
//! (`METHOD PATH` line, `Name: value` lines up to an empty line, then the body), served by the
//! transport-free Streamable HTTP mapping (`momentum_plan_mcp::http::handle`), once read-only and
//! once with an in-memory store, with and without a bearer token configured.
//!
//! Asserted: no panic; the status is one the mapping documents (200, 202, 400, 401, 403, 404,
//! 405, 406, 413, 415), never a 5xx; `202` exactly when the body is empty; every other body is
//! one JSON-RPC 2.0 response (or an array of them) with `Content-Type: application/json`; `405`
//! carries `Allow: POST`, `401` carries `WWW-Authenticate: Bearer …`; with a token configured,
//! a request without it never reaches the server (`401`, or an earlier `403`/`404`/`405`).
#![no_main]

use fuzz_support::mem_store::MemStore;
use libfuzzer_sys::fuzz_target;
use momentum_plan::Value;
use momentum_plan_mcp::Store;
use momentum_plan_mcp::http::{HttpConfig, HttpRequest, HttpResponse, handle};

/// The parts of a request read leniently from `data`.
struct Parts {
    method: String,
    path: String,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
}

fn parts(data: &[u8]) -> Parts {
    let (head, body) = match data.windows(2).position(|w| w == b"\n\n") {
        Some(i) => (&data[..i], data[i + 2..].to_vec()),
        None => (data, Vec::new()),
    };
    let mut lines = head.split(|b| *b == b'\n');
    let first = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    let mut words = first.split(' ');
    let method = words.next().unwrap_or("POST").to_owned();
    let path = words.next().unwrap_or("/mcp").to_owned();
    let headers = lines
        .filter_map(|l| {
            let colon = l.iter().position(|b| *b == b':')?;
            let name = String::from_utf8_lossy(&l[..colon]).into_owned();
            let value = l[colon + 1..].strip_prefix(b" ").unwrap_or(&l[colon + 1..]).to_vec();
            Some((name, value))
        })
        .collect();
    Parts { method, path, headers, body }
}

fn check(response: &HttpResponse, token_configured: bool, sent_token: bool) {
    let status = response.status;
    assert!(
        matches!(status, 200 | 202 | 400 | 401 | 403 | 404 | 405 | 406 | 413 | 415),
        "unexpected status {status}: {response:?}"
    );
    let header = |name: &str| response.headers.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str());
    assert_eq!(status == 202, response.body.is_empty(), "{response:?}");
    if status == 202 {
        return;
    }
    assert_eq!(header("content-type"), Some("application/json"), "{response:?}");
    let text = std::str::from_utf8(&response.body).expect("the body is UTF-8");
    let v = momentum_plan::parse_json(text).unwrap_or_else(|e| panic!("body is not JSON ({e}): {text}"));
    let messages = match &v {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    for m in &messages {
        assert_eq!(m["jsonrpc"], "2.0", "{text}");
        assert!(m.get("id").is_some(), "{text}");
        assert!(m.get("result").is_some() != m.get("error").is_some(), "{text}");
    }
    if status == 405 {
        assert_eq!(header("allow"), Some("POST"));
    }
    if status == 401 {
        assert!(header("www-authenticate").is_some_and(|w| w.starts_with("Bearer")), "{response:?}");
    }
    if token_configured && !sent_token {
        assert!(matches!(status, 400 | 401 | 403 | 404 | 405), "served without the token: {response:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let p = parts(data);
    let request = HttpRequest { method: &p.method, path: &p.path, authority: None, headers: &p.headers, body: &p.body };
    let open = HttpConfig::default();
    check(&handle(None, &open, &request), false, false);
    let store: Box<dyn Store> = Box::new(MemStore::default());
    check(&handle(Some(store), &open, &request), false, false);
    let guarded = HttpConfig::from_values(None, None, Some("fuzz-token"));
    let sent = p
        .headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("authorization") && v.windows(10).any(|w| w == b"fuzz-token"));
    check(&handle(None, &guarded, &request), true, sent);
});
