//! A store that fails: every failure is a clear tool error or `-32603`, never a panic, and a
//! failed write leaves nothing behind (mcp-server.md `save_plan`).

use crate::common::*;
use momentum_plan_mcp::{DirStore, Server, Store};
use serde_json::json;
use std::io;

/// Which operation fails.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Fail {
    List,
    Read,
    Exists,
    Write,
}

/// A store over a real directory whose one operation fails.
struct FailingStore {
    inner: DirStore,
    fail: Fail,
}

fn broken(op: &str) -> io::Error {
    io::Error::other(format!("simulated {op} failure"))
}

impl Store for FailingStore {
    fn file_names(&self) -> io::Result<Vec<String>> {
        if self.fail == Fail::List { Err(broken("list")) } else { self.inner.file_names() }
    }
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        if self.fail == Fail::Read { Err(broken("read")) } else { self.inner.read(name) }
    }
    fn exists(&self, name: &str) -> io::Result<bool> {
        if self.fail == Fail::Exists { Err(broken("exists")) } else { self.inner.exists(name) }
    }
    fn write_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        if self.fail == Fail::Write { Err(broken("write")) } else { self.inner.write_atomic(name, bytes) }
    }
}

pub(crate) fn harness(fail: Fail) -> Harness {
    let dir = TempDir::new("failing");
    let inner = DirStore::open(dir.path()).expect("dir");
    Harness { server: Server::new(Some(Box::new(FailingStore { inner, fail }) as Box<dyn Store>)), store: Some(dir) }
}

fn save(h: &mut Harness) -> serde_json::Value {
    let (plan, request) = calm();
    h.result(&req(1, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))))
}

#[test]
fn a_failed_write_is_a_tool_error_and_leaves_nothing() {
    let mut h = harness(Fail::Write);
    let r = save(&mut h);
    assert_eq!(r["isError"], true);
    assert!(r.get("structuredContent").is_none());
    let t = text(&r);
    assert!(t.starts_with("Plan not saved: the plan store could not be written"), "{t}");
    assert!(t.contains("simulated write failure"), "{t}");
    assert!(h.store.as_ref().unwrap().entries().is_empty());
    // The failure after an accepted overwrite question is reported the same way.
    std::fs::write(h.dir().join("req-2026-10-05-calm-weekday.json"), "old").unwrap();
    h.initialize("2025-11-25", json!({"elicitation": {}}));
    let (plan, request) = calm();
    let q =
        h.send_value(&req(2, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))))[0].clone();
    let r = h
        .one(&json!({"jsonrpc": "2.0", "id": q["id"], "result": {"action": "accept", "content": {"overwrite": true}}}));
    assert_eq!(r["result"]["isError"], true);
    assert_eq!(std::fs::read_to_string(h.dir().join("req-2026-10-05-calm-weekday.json")).unwrap(), "old");
}

#[test]
fn a_store_that_cannot_be_inspected_refuses_the_save() {
    let mut h = harness(Fail::Exists);
    let r = save(&mut h);
    assert_eq!(r["isError"], true);
    assert!(text(&r).contains("simulated exists failure"));
}

#[test]
fn list_and_read_failures_are_internal_errors() {
    let mut h = harness(Fail::List);
    let e = h.error(&req(1, "resources/list", json!({})));
    assert_eq!(e["code"], -32603);
    assert!(e["message"].as_str().unwrap().contains("simulated list failure"));
    let mut h = harness(Fail::Read);
    let e = h.error(&req(1, "resources/read", json!({"uri": "plan://abc"})));
    assert_eq!(e["code"], -32603);
    let e = h.error(&modern(2, "resources/read", json!({"uri": "plan://abc"}), json!({})));
    assert_eq!(e["code"], -32603);
}

#[test]
fn dir_store_opens_only_directories() {
    use momentum_plan_mcp::store::is_safe_id;
    let dir = TempDir::new("open");
    assert!(DirStore::open(dir.path()).is_some());
    assert!(DirStore::open(dir.path().join("missing")).is_none());
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert!(DirStore::open(&file).is_none());
    // Safe ids, exactly the spec's pattern.
    for ok in ["a", "A", "0", "a.b", "a_b", "a-b", "a..b", "z.", &"x".repeat(128)] {
        assert!(is_safe_id(ok), "{ok}");
    }
    for bad in ["", ".", "..", ".a", "_a", "-a", "a/b", "a\\b", "a b", "ä", "a\u{0}", &"x".repeat(129)] {
        assert!(!is_safe_id(bad), "{bad:?}");
    }
}
