//! `momentum-plan check --stream -` (validator.md §10) as a real process: issues are printed while
//! standard input is still open, and what it prints at the end agrees with `check` on the same
//! text. Expected values come from `check` (the same binary) and the core run on the same bytes,
//! never copied; plans come from the bundled examples and the shared vectors.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use momentum_plan::{PlanStream, Value, validate_bytes};
use momentum_plan_testkit as kit;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_momentum-plan"))
}

/// A request written to a temporary file (the CLI reads requests from files).
fn request_file(dir: &tempfile::TempDir, request: &Value) -> PathBuf {
    let path = dir.path().join("x.request.json");
    std::fs::write(&path, serde_json::to_vec(request).expect("serializable")).expect("written");
    path
}

/// The binary with `args`, its standard input and output piped, no colour.
fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs")
}

/// The broken example's text and request, and `check --stream - --format json` started on that
/// request (written into `dir`), its standard input and output taken.
struct Streaming {
    text: Vec<u8>,
    request: Value,
    req: PathBuf,
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
}

fn stream_broken_example(dir: &tempfile::TempDir) -> Streaming {
    let text = std::fs::read(kit::root().join("examples/calm-weekday-broken.plan.json")).expect("example");
    let request = kit::example("calm-weekday-broken.request.json");
    let req = request_file(dir, &request);
    let mut child = spawn(&["check", "--stream", "-", "--format", "json", "--request", req.to_str().expect("UTF-8")]);
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    Streaming { text, request, req, child, stdin, stdout }
}

/// `check` (with `--stream` or without) of `plan` on standard input, written all at once: exit
/// code and stdout.
fn run(stream: bool, request: &std::path::Path, plan: &[u8], format: &str) -> (i32, String) {
    let mut args = vec!["check", "-", "--request", request.to_str().expect("UTF-8 path"), "--format", format];
    if stream {
        args.push("--stream");
    }
    let mut child = spawn(&args);
    let mut stdin = child.stdin.take().expect("stdin");
    let plan = plan.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&plan);
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().expect("the writer ends");
    (out.status.code().expect("an exit code"), String::from_utf8(out.stdout).expect("UTF-8 stdout"))
}

#[test]
fn the_first_settled_issue_is_printed_before_the_input_ends() {
    let dir = tempfile::tempdir().expect("tempdir");
    let Streaming { text, request, req, mut child, mut stdin, stdout } = stream_broken_example(&dir);
    // Where the core settles the first issue: the shortest prefix whose push returns one.
    let mut s = PlanStream::new(request.clone());
    let at = (0..text.len()).find(|&i| !s.push(&text[i..=i]).is_empty()).expect("the example settles an issue") + 1;
    assert!(at < text.len(), "the first issue settles before the end ({at} of {} bytes)", text.len());
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("UTF-8 line")).is_err() {
                break;
            }
        }
    });
    stdin.write_all(&text[..at]).expect("first part written");
    stdin.flush().expect("flushed");
    // Not a timing goal: a bound so that a CLI that waits for the end fails instead of hanging.
    let first = rx.recv_timeout(Duration::from_mins(1)).expect("a line arrives while standard input is open");
    let record: Value = serde_json::from_str(&first).expect("a JSON line");
    let settled = &record["settled"];
    let verdict = validate_bytes(&text, &request);
    let in_verdict = verdict.errors.iter().chain(&verdict.warnings).any(|i| {
        settled["code"].as_str() == Some(i.code.as_str())
            && settled["path"].as_str() == Some(i.path.as_str())
            && settled["message"].as_str() == Some(i.message.as_str())
    });
    assert!(in_verdict, "the settled issue {first} is in the verdict {}", verdict.to_json());
    stdin.write_all(&text[at..]).expect("rest written");
    drop(stdin);
    let rest: Vec<String> = rx.iter().collect();
    reader.join().expect("reader ends");
    assert_eq!(child.wait().expect("ends").code(), Some(1), "invalid plan: exit 1 as check's");
    let last = rest.last().expect("the verdict record at the end");
    let (_, check_out) = run(false, &req, &text, "json");
    assert_eq!(last, check_out.trim_end(), "the last line is check's record");
}

/// `| head -n 1`: once standard output is closed, the next settled issue ends the run while
/// standard input is still open, so the writer upstream (a model) is stopped then, not at its end.
#[test]
fn a_closed_standard_output_stops_the_stream() {
    let dir = tempfile::tempdir().expect("tempdir");
    let Streaming { text, mut child, mut stdin, stdout, .. } = stream_broken_example(&dir);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        let _ = tx.send(first); // and the reading end is dropped here, as `head -n 1` exits
    });
    // The plan a byte at a time until the first line is out, then the rest, stdin left open.
    let mut at = 0;
    let first = loop {
        if let Ok(line) = rx.try_recv() {
            break line;
        }
        assert!(at < text.len(), "a line arrives before the plan ends");
        stdin.write_all(&text[at..=at]).expect("written");
        stdin.flush().expect("flushed");
        at += 1;
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(first.starts_with("{\"file\":\"-\",\"settled\":"), "{first}");
    let _ = stdin.write_all(&text[at..]); // the next settled issue meets the closed pipe
    // Not a timing goal: a bound so that a CLI that reads on until its input ends fails instead of
    // hanging (its standard input stays open until after this).
    let mut status = None;
    for _ in 0..600 {
        status = child.try_wait().expect("waitable");
        if status.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = status.expect("the CLI ended while its standard input was still open");
    assert_eq!(status.code(), Some(1), "a settled error: the plan is invalid, exit 1 as check's");
    drop(stdin);
}

#[test]
fn at_the_end_it_agrees_with_check_on_a_sample_of_the_vectors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let vectors = kit::vectors();
    // A deterministic sample (every 61st vector), both valid and invalid plans among them.
    let (mut valid, mut invalid) = (0, 0);
    for v in vectors.iter().step_by(61) {
        let plan = match &v["plan"] {
            Value::String(s) => s.clone().into_bytes(),
            other => serde_json::to_vec(other).expect("serializable"),
        };
        let req = request_file(&dir, &v["request"]);
        let id = v["id"].as_str().unwrap_or("?");
        let (code, check_json) = run(false, &req, &plan, "json");
        let (stream_code, stream_json) = run(true, &req, &plan, "json");
        assert_eq!(stream_code, code, "{id}: exit status as check's");
        let lines: Vec<&str> = stream_json.lines().collect();
        assert_eq!(lines.last().copied(), Some(check_json.trim_end()), "{id}: last line is check's record");
        // Every line before it is one settled issue, and the text format prints every issue of
        // the verdict once: the settled ones as they settle, the rest at the end.
        let verdict = validate_bytes(&plan, &v["request"]);
        let all = verdict.errors.len() + verdict.warnings.len();
        for line in &lines[..lines.len() - 1] {
            let record: Value = serde_json::from_str(line).expect("JSON line");
            assert!(record["settled"]["code"].is_string(), "{id}: {line}");
        }
        let (_, text) = run(true, &req, &plan, "text");
        let titles = text.lines().filter(|l| l.starts_with("error[") || l.starts_with("warning[")).count();
        assert_eq!(titles, all.min(200), "{id}: each issue printed once in text");
        if code == 0 { valid += 1 } else { invalid += 1 }
    }
    assert!(valid > 0 && invalid > 0, "the sample holds both ({valid} valid, {invalid} invalid)");
}

#[test]
fn stream_takes_one_plan_from_standard_input_only() {
    let example = kit::root().join("examples/calm-weekday.plan.json");
    for args in [vec!["check", "--stream", example.to_str().expect("UTF-8")], vec!["check", "--stream", "-", "-"]] {
        let out = Command::new(bin()).args(&args).stdin(Stdio::null()).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--stream") && err.contains("standard input"), "{args:?}: {err}");
    }
    let out = Command::new(bin())
        .args(["check", "--stream", "-", "--request", "/nonexistent/x.request.json"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the request"));
}
