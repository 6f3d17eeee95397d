//! Every shared vector (`shared/vectors/*.jsonl`) through `validate_plan`, in both eras: the
//! plan passed as given (object or text), the verdict bytes in `structuredContent` and in the
//! text block equal to the core's `validate(plan, request).to_json()` of the same input; and the
//! same 2026-07-28 call over Streamable HTTP (`http::handle`), whose body equals the stdio line.

use crate::common::*;
use momentum_plan_mcp::http::{HttpConfig, HttpRequest, handle};
use serde_json::{Value, json};

#[test]
fn every_shared_vector_gives_the_core_verdict() {
    let mut h = Harness::read_only();
    let caps = json!({});
    let mut count = 0usize;
    let mut mismatches = Vec::new();
    for vector in vectors() {
        let id = vector["id"].as_str().unwrap_or("?").to_owned();
        let plan = vector["plan"].clone();
        let request = vector["request"].clone();
        let expected = momentum_plan::validate(&plan, &request).to_json();
        // The core agrees with the vector's expectation (codes, paths, checks).
        let got: Value = momentum_plan::parse_json(&expected).unwrap();
        let pairs = |v: &Value| -> Vec<(Value, Value)> {
            v.as_array().unwrap().iter().map(|i| (i["code"].clone(), i["path"].clone())).collect()
        };
        let exp = &vector["expect"];
        if got["valid"] != exp["valid"]
            || pairs(&got["errors"]) != pairs(&exp["errors"])
            || pairs(&got["warnings"]) != pairs(&exp["warnings"])
            || got["checks"] != exp["checks"]
        {
            mismatches.push(format!("{id}: the core disagrees with the vector"));
        }
        let arguments = json!({"plan": plan, "request": request});
        let n = count;
        let messages = [
            req(n, "tools/call", call("validate_plan", arguments.clone())),
            modern(format!("m{n}"), "tools/call", call("validate_plan", arguments), caps.clone()),
        ];
        for (i, message) in messages.into_iter().enumerate() {
            let out = h.raw(message.to_string().as_bytes());
            if i == 1 && out.len() == 1 {
                let body = message.to_string().into_bytes();
                let headers = [
                    ("content-type".to_owned(), b"application/json".to_vec()),
                    ("mcp-protocol-version".to_owned(), b"2026-07-28".to_vec()),
                    ("mcp-method".to_owned(), b"tools/call".to_vec()),
                    ("mcp-name".to_owned(), b"validate_plan".to_vec()),
                ];
                let request = HttpRequest {
                    method: "POST",
                    path: "/mcp",
                    authority: Some("127.0.0.1:8765"),
                    headers: &headers,
                    body: &body,
                };
                let response = handle(None, &HttpConfig::default(), &request);
                if response.status != 200 || response.body != out[0].as_bytes() {
                    mismatches.push(format!(
                        "{id}: over HTTP {} {}",
                        response.status,
                        String::from_utf8_lossy(&response.body)
                    ));
                }
            }
            if out.len() != 1 {
                mismatches.push(format!("{id}: {} lines", out.len()));
                continue;
            }
            let response = momentum_plan::parse_json(&out[0]).expect("response is JSON");
            let result = &response["result"];
            let structured = result["structuredContent"].to_string();
            let text = result["content"][0]["text"].as_str().unwrap_or("");
            if result["isError"] != false || structured != expected || text != expected {
                mismatches.push(format!("{id}: got {structured} / {text}, want {expected}"));
            }
        }
        count += 1;
    }
    assert!(count >= 5_000, "only {count} vectors read");
    assert!(
        mismatches.is_empty(),
        "{} of {count} vectors disagree; first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    eprintln!("{count} vectors agree in both eras, and over HTTP");
}
