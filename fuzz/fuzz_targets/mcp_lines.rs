//! Fuzz target `mcp_lines`: arbitrary bytes, split into lines as stdin would be, fed to the MCP
//! server library (`momentum_plan_mcp::Server::handle_line`), once read-only and once with an
//! in-memory plan store; then an `initialize` and a `tools/list` that must still be answered
//! correctly.
//!
//! Asserted: no panic; every output line is one compact JSON-RPC 2.0 object (a response with an
//! `id` and exactly one of `result`/`error`, or a server request with a `method`), with no raw
//! newline; a line that is not JSON is answered by exactly one `-32700` with `id: null`; a
//! `validate_plan` call answered with a result carries exactly the core's verdict JSON
//! (`momentum_plan::validate(plan, request).to_json()`), and a `repair_plan` call the core's
//! repair JSON (`momentum_plan::repair(…).to_json()`), also as `structuredContent` when present;
//! the closing handshake and tool list are right.
#![no_main]

use fuzz_support::mem_store::MemStore;
use libfuzzer_sys::fuzz_target;
use momentum_plan::Value;
use momentum_plan::{Input, RepairOptions};
use momentum_plan_mcp::{
    EXPORT_CALENDAR, GET_PLAN_CONTRACT, GET_PLAN_SCHEMA, IMPORT_COMMITMENTS, REPAIR_PLAN, SAVE_PLAN, SERVER_NAME,
    Server, VALIDATE_PLAN, rpc,
};

/// The line as the server reads it: without `\r` and a leading BOM.
fn stripped(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

/// Asserts the shape of one output line (an object, or the non-empty array answering a batch)
/// and returns it parsed.
fn check_output(line: &str) -> Value {
    assert!(!line.contains('\n'), "an output line holds a raw newline: {line}");
    let v = momentum_plan::parse_json(line).unwrap_or_else(|e| panic!("output line is not JSON ({e}): {line}"));
    match &v {
        Value::Array(items) => {
            assert!(!items.is_empty(), "an empty batch answer: {line}");
            for item in items {
                assert!(item.is_object(), "{line}");
                check_message(item.clone(), line);
            }
        }
        _ => check_message(v.clone(), line),
    }
    v
}

/// Asserts the shape of one JSON-RPC message sent by the server.
fn check_message(v: Value, line: &str) {
    let Value::Object(m) = v else { panic!("output line is not an object: {line}") };
    assert_eq!(m.get("jsonrpc"), Some(&Value::String("2.0".into())), "{line}");
    if m.contains_key("method") {
        // A request from the server (elicitation/create): it has its own id.
        assert!(m.get("id").is_some_and(rpc::is_valid_id), "{line}");
    } else {
        let id = m.get("id").unwrap_or_else(|| panic!("a response without id: {line}"));
        assert!(id.is_null() || rpc::is_valid_id(id), "bad id: {line}");
        assert!(m.contains_key("result") != m.contains_key("error"), "{line}");
        if let Some(e) = m.get("error") {
            assert!(e.get("code").and_then(Value::as_i64).is_some(), "{line}");
            assert!(e.get("message").and_then(Value::as_str).is_some_and(|s| !s.is_empty()), "{line}");
        }
    }
}

/// When `line` is a lone `validate_plan` call with fitting arguments, the core's verdict JSON;
/// when it is a `repair_plan` call with fitting arguments, the core's repair JSON.
fn expected_verdict(value: &Value) -> Option<String> {
    let m = value.as_object()?;
    if m.get("method")?.as_str()? != "tools/call" || !rpc::is_valid_id(m.get("id")?) {
        return None;
    }
    let params = m.get("params")?.as_object()?;
    let name = params.get("name")?.as_str()?;
    let args = params.get("arguments")?.as_object()?;
    let (plan, request) = (args.get("plan")?, args.get("request")?);
    if !(plan.is_object() || plan.is_string()) || !request.is_object() {
        return None;
    }
    match (name, args.len(), args.get("unsafe")) {
        (VALIDATE_PLAN, 2, _) => Some(momentum_plan::validate(plan, request).to_json()),
        (REPAIR_PLAN, 2, None) | (REPAIR_PLAN, 3, Some(Value::Bool(_))) => {
            let unsafe_fixes = args.get("unsafe") == Some(&Value::Bool(true));
            let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
            let plan = match plan {
                Value::String(t) => Input::Text(t),
                v => Input::Value(v),
            };
            momentum_plan::repair(plan, Input::Value(request), &options).ok().map(|r| r.to_json())
        }
        _ => None,
    }
}

fn run(server: &mut Server, data: &[u8]) {
    for line in data.split(|b| *b == b'\n') {
        let out = server.handle_line(line);
        let parsed: Vec<_> = out.iter().map(|l| check_output(l)).collect();
        let s = stripped(line);
        if s.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
            assert!(out.is_empty(), "a blank line was answered: {out:?}");
            continue;
        }
        match serde_json::from_slice::<Value>(s) {
            Err(e) if !e.to_string().starts_with("recursion limit") => {
                assert_eq!(out.len(), 1, "non-JSON line: {out:?}");
                assert_eq!(parsed[0]["error"]["code"], Value::from(rpc::PARSE_ERROR), "{out:?}");
                assert_eq!(parsed[0]["id"], Value::Null);
            }
            Err(_) => {}
            Ok(value) => {
                if let Some(verdict) = expected_verdict(&value) {
                    assert_eq!(out.len(), 1, "{out:?}");
                    if let Some(result) = parsed[0].get("result") {
                        assert_eq!(result["isError"], Value::Bool(false), "{out:?}");
                        assert_eq!(result["content"][0]["text"].as_str(), Some(verdict.as_str()));
                        if let Some(sc) = result.get("structuredContent") {
                            assert_eq!(serde_json::to_string(sc).ok().as_deref(), Some(verdict.as_str()));
                        }
                    }
                }
            }
        }
    }

    // The stream still works: a fresh handshake and the tool list.
    let out = server.handle_line(
        br#"{"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}"#,
    );
    assert_eq!(out.len(), 1, "initialize: {out:?}");
    let init = check_output(&out[0]);
    assert_eq!(init["id"], Value::from("fuzz-init"));
    let result = &init["result"];
    assert_eq!(result["protocolVersion"], Value::from("2025-11-25"), "{out:?}");
    assert_eq!(result["serverInfo"]["name"], Value::from(SERVER_NAME));
    assert!(result["capabilities"].get("tools").is_some());
    assert_eq!(result["capabilities"].get("resources").is_some(), server.has_store());
    assert!(server.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());

    let out = server.handle_line(br#"{"jsonrpc":"2.0","id":-7,"method":"tools/list"}"#);
    assert_eq!(out.len(), 1, "tools/list: {out:?}");
    let list = check_output(&out[0]);
    assert_eq!(list["id"], Value::from(-7));
    let tools = list["result"]["tools"].as_array().unwrap_or_else(|| panic!("no tools: {out:?}"));
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    let mut expected =
        vec![GET_PLAN_CONTRACT, VALIDATE_PLAN, REPAIR_PLAN, GET_PLAN_SCHEMA, EXPORT_CALENDAR, IMPORT_COMMITMENTS];
    if server.has_store() {
        expected.push(SAVE_PLAN);
    }
    assert_eq!(names, expected, "{out:?}");
    for t in tools {
        assert!(t.get("inputSchema").is_some() && t.get("outputSchema").is_some(), "{t}");
    }
}

fuzz_target!(|data: &[u8]| {
    run(&mut Server::new(None), data);
    run(&mut Server::new(Some(Box::new(MemStore::default()))), data);
});
