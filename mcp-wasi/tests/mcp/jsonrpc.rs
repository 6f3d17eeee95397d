//! JSON-RPC hygiene on raw lines (mcp-server.md "JSON-RPC hygiene"): ids, parse errors, invalid
//! requests, notifications, stray responses, line endings, BOM, blank and oversized lines,
//! batches, invalid UTF-8, deep nesting and arbitrary bytes.

use crate::common::*;
use momentum_plan_mcp::{MAX_LINE_BYTES, Server, stdio};
use serde_json::{Value, json};

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const PONG: &str = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;

#[test]
fn ids_are_echoed_exactly() {
    let mut h = Harness::read_only();
    for id in [
        "0",
        "-1",
        "\"\"",
        "\"abc\"",
        "\"server-discover-probe-1\"",
        "123456789012345678901234567890",
        "9007199254740993",
    ] {
        let out = h.raw(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#).as_bytes());
        assert_eq!(out, vec![format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)]);
    }
    // Member order does not matter (the TypeScript SDK puts jsonrpc last).
    let out = h.raw(br#"{"method":"ping","jsonrpc":"2.0","id":0}"#);
    assert_eq!(out, vec![r#"{"jsonrpc":"2.0","id":0,"result":{}}"#.to_owned()]);
}

#[test]
fn lines_that_are_not_json_get_parse_error_with_null_id() {
    let mut h = Harness::read_only();
    for line in [
        &b"garbage"[..],
        b"{",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,",
        b"[1,]",
        b"{} {}",
        b"\"\\ud800\"",
        b"NaN",
        b"{\"a\":1}x",
        b"\xff\xfe",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xc3\x28\"}",
    ] {
        let out = h.send_bytes(line);
        assert_eq!(out.len(), 1, "{line:?}");
        assert_eq!(out[0]["id"], Value::Null, "{line:?}");
        assert_eq!(out[0]["error"]["code"], -32700, "{line:?}");
        assert!(out[0]["error"]["message"].as_str().unwrap().starts_with("Parse error"));
    }
    // The stream goes on.
    assert_eq!(h.raw(PING.as_bytes()), vec![PONG.to_owned()]);
}

#[test]
fn json_that_is_not_a_message_gets_invalid_request() {
    let mut h = Harness::read_only();
    let cases: Vec<(&str, Value)> = vec![
        ("1", Value::Null),
        ("\"ping\"", Value::Null),
        ("null", Value::Null),
        ("true", Value::Null),
        ("{}", Value::Null),
        (r#"{"jsonrpc":"2.0","id":5}"#, json!(5)),
        (r#"{"jsonrpc":"2.0","id":"x","foo":1}"#, json!("x")),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, Value::Null),
        (r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#, Value::Null),
        (r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, Value::Null),
        (r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, Value::Null),
        (r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, Value::Null),
        (r#"{"jsonrpc":"2.0","id":true}"#, Value::Null),
        (r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#, json!(3)),
        (r#"{"id":4,"method":"ping"}"#, json!(4)),
        (r#"{"jsonrpc":"2.0","id":6,"method":7}"#, json!(6)),
        (r#"{"jsonrpc":"2.0","method":null}"#, Value::Null),
    ];
    for (line, id) in cases {
        let out = h.send(line);
        assert_eq!(out.len(), 1, "{line}");
        assert_eq!(out[0]["id"], id, "{line}");
        assert_eq!(out[0]["error"]["code"], -32600, "{line}");
        assert!(out[0]["error"]["message"].as_str().unwrap().starts_with("Invalid Request"));
    }
}

#[test]
fn params_that_are_not_an_object_are_invalid_params() {
    let mut h = Harness::read_only();
    for params in ["[]", "[1]", "1", "\"x\"", "true"] {
        let out = h.send(&format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{params}}}"#));
        assert_eq!(out[0]["error"]["code"], -32602, "{params}");
        assert_eq!(out[0]["id"], 2);
    }
    // null params are absent params.
    let out = h.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping","params":null}"#);
    assert_eq!(out[0]["result"], json!({}));
}

#[test]
fn notifications_are_never_answered() {
    let mut h = Harness::with_store();
    for line in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}}"#,
        r#"{"jsonrpc":"2.0","method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}}"#,
        r#"{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2024-11-05"}}"#,
        r#"{"jsonrpc":"2.0","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999"}}}"#,
    ] {
        assert!(h.send(line).is_empty(), "{line}");
    }
    // An initialize notification did not start a session.
    assert_eq!(h.server.negotiated_version(), None);
}

#[test]
fn responses_without_a_pending_request_are_ignored() {
    let mut h = Harness::with_store();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"overwrite":true}}}"#,
        r#"{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        r#"{"jsonrpc":"2.0","result":5}"#,
    ] {
        assert!(h.send(line).is_empty(), "{line}");
    }
}

#[test]
fn crlf_bom_and_blank_lines_never_break_the_stream() {
    let mut h = Harness::read_only();
    assert_eq!(h.raw(format!("{PING}\r\n").as_bytes()), vec![PONG.to_owned()]);
    assert_eq!(h.raw(format!("{PING}\r").as_bytes()), vec![PONG.to_owned()]);
    assert_eq!(h.raw(format!("{PING}\n").as_bytes()), vec![PONG.to_owned()]);
    assert_eq!(h.raw(format!("\u{feff}{PING}").as_bytes()), vec![PONG.to_owned()]);
    assert_eq!(h.raw(format!("\u{feff}{PING}\r\n").as_bytes()), vec![PONG.to_owned()]);
    assert_eq!(h.raw(format!("  \t{PING}  ").as_bytes()), vec![PONG.to_owned()]);
    for blank in [&b""[..], b"\n", b"\r\n", b"   ", b"\t \t", b"\r", b"\xEF\xBB\xBF", b"\xEF\xBB\xBF\r\n"] {
        assert!(h.raw(blank).is_empty(), "{blank:?}");
    }
}

#[test]
fn an_oversized_line_is_answered_and_skipped() {
    let mut h = Harness::read_only();
    // Exactly at the limit is served (leading white space is JSON white space)...
    let mut line = vec![b' '; MAX_LINE_BYTES - PING.len()];
    line.extend_from_slice(PING.as_bytes());
    assert_eq!(line.len(), MAX_LINE_BYTES);
    assert_eq!(h.raw(&line), vec![PONG.to_owned()]);
    // ...one byte more is not; the answer carries the request's id, so the client waiting for
    // it is not left waiting.
    line.insert(0, b' ');
    let out = h.send(std::str::from_utf8(&line).unwrap());
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["id"], 1);
    assert_eq!(out[0]["error"]["code"], -32600);
    assert_eq!(h.raw(PING.as_bytes()), vec![PONG.to_owned()]);
    // No id to read: `id: null`. A notification: no answer at all.
    let mut garbage = vec![b'x'; MAX_LINE_BYTES + 1];
    assert_eq!(h.send(std::str::from_utf8(&garbage).unwrap())[0]["id"], Value::Null);
    garbage.splice(..0, br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":""#.iter().copied());
    garbage.extend_from_slice(b"\"}}");
    assert!(h.raw(&garbage).is_empty());
    assert_eq!(h.raw(PING.as_bytes()), vec![PONG.to_owned()]);
}

/// The TypeScript SDK's member order (`method`, `params`, `jsonrpc`, `id`): a `tools/call` of
/// 5 MB whose id comes after everything the limit lets the reader keep.
fn ts_sdk_call(id: u64, plan_bytes: usize) -> Vec<u8> {
    let mut line = br#"{"method":"tools/call","params":{"name":"validate_plan","arguments":{"plan":""#.to_vec();
    line.extend(std::iter::repeat_n(b'a', plan_bytes));
    line.extend_from_slice(format!(r#"","request":{{"id":1}}}}}},"jsonrpc":"2.0","id":{id}}}"#).as_bytes());
    line
}

#[test]
fn stdio_serve_answers_an_oversized_call_with_its_id_wherever_it_sits() {
    let mut input = ts_sdk_call(7, 5_000_000);
    input.push(b'\n');
    // Python SDK order, the id first, and an escaped quote and a nested "id" on the way.
    input.extend_from_slice(br#"{"jsonrpc":"2.0","id":"py-8","method":"tools/call","params":{"id":0,"x":"\""#);
    input.extend(std::iter::repeat_n(b'b', MAX_LINE_BYTES));
    input.extend_from_slice(b"\"}}\r\n");
    // An oversized notification is not answered; the next request is.
    input.extend_from_slice(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":""#);
    input.extend(std::iter::repeat_n(b'c', MAX_LINE_BYTES));
    input.extend_from_slice(b"\"}}\n");
    input.extend_from_slice(PING.as_bytes());
    input.push(b'\n');
    // The last line, cut by end of input before its id: `id: null`.
    input.extend(ts_sdk_call(9, MAX_LINE_BYTES).iter().take(MAX_LINE_BYTES + 100));
    let mut output = Vec::new();
    stdio::serve(&mut Server::new(None), &input[..], &mut output).expect("serve");
    let text = String::from_utf8(output).expect("utf-8 output");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let ids: Vec<&Value> = lines.iter().map(|l| &l["id"]).collect();
    assert_eq!(ids, [&json!(7), &json!("py-8"), &json!(1), &Value::Null], "{text}");
    for i in [0, 1, 3] {
        assert_eq!(lines[i]["error"]["code"], -32600);
        assert_eq!(
            lines[i]["error"]["message"],
            format!("Invalid Request: the line is longer than {MAX_LINE_BYTES} bytes and was skipped")
        );
    }
    assert_eq!(lines[2], serde_json::from_str::<Value>(PONG).unwrap());
}

#[test]
fn stdio_serve_handles_huge_lines_crlf_and_a_last_line_without_newline() {
    let mut server = Server::new(None);
    let mut input = Vec::new();
    input.extend_from_slice(b"\xEF\xBB\xBF");
    input.extend_from_slice(PING.as_bytes());
    input.extend_from_slice(b"\r\n\n\r\n");
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.push(b'\n');
    input.extend_from_slice(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    input.push(b'\n');
    // A huge line of JSON that would be valid is skipped too.
    input.extend_from_slice(br#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":""#);
    input.extend(std::iter::repeat_n(b'a', MAX_LINE_BYTES));
    input.extend_from_slice(b"\"}}\n");
    input.extend_from_slice(b"garbage\n");
    input.extend_from_slice(br#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#); // no newline: EOF
    let mut output = Vec::new();
    stdio::serve(&mut server, &input[..], &mut output).expect("serve");
    let text = String::from_utf8(output).expect("utf-8 output");
    let lines: Vec<&str> = text.lines().collect();
    assert!(text.ends_with('\n'));
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[0], PONG);
    let oversized = |id: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"Invalid Request: the line is longer than {MAX_LINE_BYTES} bytes and was skipped"}}}}"#
        )
    };
    assert_eq!(lines[1], oversized("null"));
    assert_eq!(lines[2], r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    assert_eq!(lines[3], oversized("3"));
    assert!(lines[4].contains("-32700"));
    assert_eq!(lines[5], r#"{"jsonrpc":"2.0","id":4,"result":{}}"#);
}

#[test]
fn stdio_serve_reads_one_byte_at_a_time() {
    // A reader that hands out one byte per read: lines are still split correctly.
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((b, rest)), Some(slot)) => {
                    *slot = *b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }
    let input = format!("{PING}\n{PING}\r\n\n");
    let mut output = Vec::new();
    stdio::serve(&mut Server::new(None), Trickle(input.as_bytes()), &mut output).unwrap();
    assert_eq!(String::from_utf8(output).unwrap(), format!("{PONG}\n{PONG}\n"));
    // An oversized line fed a byte at a time still gives up its id (it sits past the limit).
    let mut input = ts_sdk_call(5, MAX_LINE_BYTES);
    input.extend_from_slice(format!("\n{PING}\n").as_bytes());
    let mut output = Vec::new();
    stdio::serve(&mut Server::new(None), Trickle(&input), &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with(r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"#), "{}", lines[0]);
    assert_eq!(lines[1], PONG);
}

#[test]
fn a_batch_is_served_only_under_2025_03_26() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"nope"}},{"jsonrpc":"2.0","id":3,"method":"nope"},5]"#;
    // Before initialize and under every other version: -32600.
    let mut h = Harness::read_only();
    let out = h.send(batch);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["id"], Value::Null);
    assert_eq!(out[0]["error"]["code"], -32600);
    for version in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut h = Harness::read_only();
        h.initialize(version, json!({}));
        let out = h.send(batch);
        assert_eq!(out[0]["error"]["code"], -32600, "{version}");
    }
    // Under 2025-03-26: one array line with a response per request, in order.
    let mut h = Harness::read_only();
    h.initialize("2025-03-26", json!({}));
    let out = h.send(batch);
    assert_eq!(out.len(), 1);
    let responses = out[0].as_array().expect("an array of responses");
    assert_eq!(responses.len(), 4);
    assert_eq!(responses[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(responses[1]["id"], "b");
    assert_eq!(responses[1]["error"]["message"], "Unknown tool: nope");
    assert_eq!(responses[2]["error"]["code"], -32601);
    assert_eq!(responses[3]["error"]["code"], -32600);
    // Only notifications: no line at all.
    assert!(h.send(r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#).is_empty());
    // An empty batch, a nested batch, initialize inside a batch.
    assert_eq!(h.send("[]")[0]["error"]["code"], -32600);
    let out = h.send(r#"[[{"jsonrpc":"2.0","id":1,"method":"ping"}],{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}]"#);
    let responses = out[0].as_array().unwrap();
    assert_eq!(responses[0]["error"]["code"], -32600);
    assert_eq!(responses[1]["id"], 2);
    assert_eq!(responses[1]["error"]["code"], -32600);
    assert_eq!(h.server.negotiated_version(), Some("2025-03-26"));
    // A tool call inside a batch works.
    let (plan, request) = calm();
    let line =
        json!([req(7, "tools/call", call("validate_plan", json!({"plan": plan, "request": request})))]).to_string();
    let out = h.send(&line);
    let r = &out[0][0]["result"];
    assert_eq!(text(r), momentum_plan::validate(&plan, &request).to_json());
    assert!(r.get("structuredContent").is_none(), "no structuredContent under 2025-03-26");
}

#[test]
fn deep_nesting_is_bounded() {
    let mut h = Harness::read_only();
    let (_, request) = calm();
    // A plan object 513 levels deep (one too deep) still reaches the validator: a json verdict.
    let depth = momentum_plan::MAX_DEPTH + 1;
    let plan = format!("{}{}", "{\"a\":".repeat(depth - 1) + "{", "}".repeat(depth));
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"validate_plan","arguments":{{"request":{request},"plan":{plan}}}}}}}"#
    );
    let out = h.send(&line);
    let r = &out[0]["result"];
    assert_eq!(r["structuredContent"]["errors"][0]["code"], "json", "{r}");
    // Far deeper lines are a parse error, not a crash.
    for deep in ["[".repeat(100_000), "{\"a\":".repeat(100_000), format!("{}1{}", "[".repeat(600), "]".repeat(600))] {
        let out = h.send(&deep);
        assert_eq!(out[0]["error"]["code"], -32700);
        assert_eq!(out[0]["id"], Value::Null);
    }
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A deterministic pseudo-random walk over bytes and fragments of real messages.
    let fragments: [&[u8]; 14] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b":",
        b",",
        b"\"jsonrpc\":\"2.0\"",
        b"\"id\":1",
        b"\"method\":\"tools/call\"",
        b"\"params\":{\"name\":\"save_plan\",\"arguments\":{}}",
        b"\xff",
        b"\\u0000",
        b"\"result\":{}",
    ];
    let mut h = Harness::with_store();
    h.initialize("2025-03-26", json!({}));
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20_000 {
        let mut line = Vec::new();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let n = (x % 12) as usize;
        for k in 0..n {
            let pick = ((x >> (k * 5)) % 20) as usize;
            if pick < fragments.len() {
                line.extend_from_slice(fragments[pick]);
            } else {
                #[allow(clippy::cast_possible_truncation)] // the low byte, on purpose
                line.push((x >> (k * 3)) as u8);
            }
        }
        for out in h.raw(&line) {
            momentum_plan::parse_json(&out).expect("every output line is JSON");
        }
    }
    assert!(h.store.as_ref().unwrap().entries().is_empty());
}

#[test]
fn lines_and_plan_texts_with_too_many_values_are_refused() {
    use momentum_plan_mcp::rpc::MAX_LINE_VALUES;
    let mut h = Harness::read_only();
    let (_, request) = calm();
    let zeros = |n: usize| format!("[{}]", vec!["0"; n].join(","));
    // A line over the cap: -32600 with id null; the stream goes on.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"validate_plan","arguments":{{"request":{request},"plan":{{"a":{}}}}}}}}}"#,
        zeros(MAX_LINE_VALUES)
    );
    let out = h.send(&line);
    assert_eq!(out[0]["id"], Value::Null);
    assert_eq!(out[0]["error"]["code"], -32600);
    assert_eq!(h.raw(PING.as_bytes()), vec![PONG.to_owned()]);
    // Under the cap it reaches the validator (a size error, from the core).
    let n = MAX_LINE_VALUES / 2;
    let plan = json!({"a": momentum_plan::parse_json(&zeros(n)).unwrap()});
    let r = h.result(&req(2, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(text(&r), momentum_plan::validate(&plan, &request).to_json());
    // Strings do not count: a long string of commas is one value.
    let plan = json!({"a": ",".repeat(MAX_LINE_VALUES * 2)});
    let r = h.result(&req(3, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(r["isError"], false);
    // Plan text over the cap is a tool error naming `plan`, in both tools.
    for tool in ["validate_plan", "save_plan"] {
        let mut h = Harness::with_store();
        let r =
            h.result(&req(4, "tools/call", call(tool, json!({"plan": zeros(MAX_LINE_VALUES), "request": request}))));
        assert_eq!(r["isError"], true);
        assert!(text(&r).contains("`plan` text holds more than"), "{}", text(&r));
    }
}
