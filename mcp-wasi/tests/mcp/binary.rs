//! The stdio binary (native build of `main.rs`): serves a session, survives garbage, writes
//! only protocol lines to stdout, logs to stderr, and exits 0 at end of input.

use crate::common::*;
use momentum_plan_mcp::{SERVER_NAME, SERVER_VERSION};
use std::io::Write;
use std::process::{Command, Stdio};

fn run(input: &[u8], store: Option<&std::path::Path>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_momentum-plan-mcp"));
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    match store {
        Some(dir) => cmd.env("PLAN_STORE", dir),
        None => cmd.env("PLAN_STORE", "/nonexistent/momentum-plan-mcp-test"),
    };
    let mut child = cmd.spawn().expect("spawn the server");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
        // Dropping stdin closes it: EOF.
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_session_over_stdio_with_a_store() {
    let dir = TempDir::new("bin");
    let (plan, request) = calm();
    let lines = [
        req(1, "initialize", serde_json::json!({"protocolVersion": "2025-11-25", "capabilities": {}})).to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        req(2, "tools/call", call("save_plan", serde_json::json!({"plan": plan, "request": request}))).to_string(),
        req(3, "resources/list", serde_json::json!({})).to_string(),
    ];
    let (code, stdout, stderr) = run(format!("{}\n", lines.join("\n")).as_bytes(), Some(dir.path()));
    assert_eq!(code, 0, "stderr: {stderr}");
    let out: Vec<serde_json::Value> = stdout.lines().map(|l| momentum_plan::parse_json(l).unwrap()).collect();
    assert_eq!(out.len(), 3, "{stdout}");
    assert_eq!(out[1]["result"]["structuredContent"]["saved"], true);
    assert_eq!(out[2]["result"]["resources"][0]["uri"], "plan://req-2026-10-05-calm-weekday");
    // One line, naming no path: a runner's host folder is not the guest's path (the runner names it).
    assert_eq!(stderr, format!("{SERVER_NAME} {SERVER_VERSION}: plan store granted: read-write\n"));
    assert_eq!(dir.entries(), ["req-2026-10-05-calm-weekday.json"]);
}

#[test]
fn garbage_then_eof_exits_zero() {
    let mut input = Vec::new();
    input.extend_from_slice(b"\xff\xfe\x00garbage\n\n\r\n{\"jsonrpc\":\"2.0\"\n[1,2,3]\n\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n");
    input.extend(std::iter::repeat_n(b'[', 5 * 1024 * 1024));
    input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}"); // no final newline
    let (code, stdout, stderr) = run(&input, None);
    assert_eq!(code, 0, "stderr: {stderr}");
    let out: Vec<serde_json::Value> =
        stdout.lines().map(|l| momentum_plan::parse_json(l).expect("only JSON on stdout")).collect();
    let codes: Vec<serde_json::Value> = out.iter().map(|o| o["error"]["code"].clone()).collect();
    assert_eq!(codes[0], -32700);
    assert_eq!(codes[1], -32700);
    assert_eq!(codes[2], -32600);
    assert_eq!(out[3]["result"], serde_json::json!({}));
    assert_eq!(codes[4], -32600, "the 5 MiB line");
    assert_eq!(out[5]["result"]["tools"].as_array().unwrap().len(), 6, "read-only: no save_plan");
    assert_eq!(out[6]["id"], 3);
    assert_eq!(out.len(), 7);
    // PLAN_STORE set by hand (as `wasmtime run --env` would) is named as it was set.
    assert_eq!(
        stderr,
        format!(
            "{SERVER_NAME} {SERVER_VERSION}: PLAN_STORE=/nonexistent/momentum-plan-mcp-test is not a granted directory: read-only (no save_plan)\n"
        )
    );
}

#[test]
fn empty_input_exits_zero_silently() {
    let (code, stdout, _) = run(b"", None);
    assert_eq!(code, 0);
    assert!(stdout.is_empty());
}
