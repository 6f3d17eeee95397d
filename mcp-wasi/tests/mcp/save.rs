//! `save_plan`, the overwrite question in both eras, unsafe ids, atomic writes, and the
//! `plan://` resources (mcp-server.md `save_plan`, "Resource template").

use crate::common::*;
use momentum_plan_mcp::{DirStore, Server, Store};
use serde_json::{Value, json};
use std::fmt::Write as _;

pub(crate) const CALM_ID: &str = "req-2026-10-05-calm-weekday";

pub(crate) fn save_params() -> Value {
    let (plan, request) = calm();
    call("save_plan", json!({"plan": plan, "request": request}))
}

fn saved_text(h: &Harness, id: &str) -> String {
    std::fs::read_to_string(h.dir().join(format!("{id}.json"))).expect("saved file")
}

/// A harness whose store already holds the calm plan, as a marker text.
pub(crate) fn with_existing(marker: &str) -> Harness {
    let h = Harness::with_store();
    std::fs::write(h.dir().join(format!("{CALM_ID}.json")), marker).unwrap();
    h
}

#[test]
fn a_valid_plan_is_saved_as_pretty_json_in_its_own_key_order() {
    let mut h = Harness::with_store();
    h.initialize("2025-11-25", json!({}));
    let r = h.result(&req(1, "tools/call", save_params()));
    assert_eq!(r["isError"], false);
    let s = &r["structuredContent"];
    assert_eq!(s["saved"], true);
    assert_eq!(s["planId"], CALM_ID);
    assert_eq!(s["uri"], format!("plan://{CALM_ID}"));
    // The verdict's warnings (the overnight Sleep) and no notSaved.
    let (plan, request) = calm();
    let verdict = serde_json::to_value(momentum_plan::validate(&plan, &request)).unwrap();
    assert_eq!(s["warnings"], verdict["warnings"]);
    assert_eq!(text(&r), s.to_string());
    // The file: pretty JSON of the plan, same key order, nothing else in the store.
    let saved = saved_text(&h, CALM_ID);
    assert_eq!(saved, format!("{}\n", serde_json::to_string_pretty(&plan).unwrap()));
    let reread = momentum_plan::parse_json(&saved).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&reread), keys(&plan));
    assert_eq!(h.store.as_ref().unwrap().entries(), vec![format!("{CALM_ID}.json")]);
}

#[test]
fn a_plan_given_as_text_is_saved_as_its_object() {
    let mut h = Harness::with_store();
    let (plan, request) = calm();
    let r = h.result(&req(1, "tools/call", call("save_plan", json!({"plan": plan.to_string(), "request": request}))));
    assert_eq!(r["structuredContent"]["saved"], true);
    assert_eq!(saved_text(&h, CALM_ID), format!("{}\n", serde_json::to_string_pretty(&plan).unwrap()));
}

#[test]
fn an_invalid_plan_is_refused_with_every_error() {
    let mut h = Harness::with_store();
    let (plan, request) = broken();
    let verdict = momentum_plan::validate(&plan, &request);
    let r = h.result(&req(1, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(r["isError"], true);
    assert!(r.get("structuredContent").is_none());
    let mut expected = String::from("Plan not saved.");
    for e in &verdict.errors {
        let _ = write!(expected, " | {}: {}", e.path, e.message);
    }
    assert_eq!(text(&r), expected);
    assert_eq!(verdict.errors.len(), 3);
    assert!(h.store.as_ref().unwrap().entries().is_empty());
}

#[test]
fn unsafe_ids_are_refused_and_nothing_is_written_outside_the_store() {
    let outer = TempDir::new("outer");
    let store_dir = outer.path().join("store");
    std::fs::create_dir(&store_dir).unwrap();
    let store = DirStore::open(&store_dir).unwrap();
    let mut h = Harness { server: Server::new(Some(Box::new(store) as Box<dyn Store>)), store: None };
    let long = "a".repeat(200);
    let abs = format!("{}/abs", outer.path().display());
    let ids: Vec<&str> = vec![
        "../x",
        "/abs",
        abs.as_str(),
        "a/b",
        "",
        long.as_str(),
        ".",
        "..",
        ".hidden",
        "-x",
        "a\\b",
        "a b",
        "ü",
        "a:b",
        "x\u{0}",
    ];
    for id in &ids {
        let (plan, request) = calm_with_id(id);
        for m in [
            req(1, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))),
            modern(2, "tools/call", call("save_plan", json!({"plan": plan, "request": request})), json!({})),
        ] {
            let r = h.result(&m);
            assert_eq!(r["isError"], true, "{id:?}: {r}");
            assert!(r.get("structuredContent").is_none());
            assert!(text(&r).starts_with("Plan not saved"), "{id:?}: {}", text(&r));
        }
    }
    // Nothing anywhere: not in the store, not beside it.
    let mut names: Vec<String> =
        std::fs::read_dir(outer.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["store"]);
    assert_eq!(std::fs::read_dir(&store_dir).unwrap().count(), 0);
    // The longest safe id (128 characters) is accepted.
    let id = "A".repeat(128);
    let (plan, request) = calm_with_id(&id);
    let r = h.result(&req(3, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(r["structuredContent"]["saved"], true, "{r}");
    let (plan, request) = calm_with_id(&"A".repeat(129));
    let r = h.result(&req(4, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(r["isError"], true);
    assert!(text(&r).contains("cannot be used as a plan id"));
}

#[test]
fn saves_are_atomic_and_temporary_files_are_never_plans() {
    let mut h = Harness::with_store();
    // Leftovers of a crashed save and stray files.
    std::fs::write(h.dir().join(format!(".{CALM_ID}.json.1.tmp")), "{half").unwrap();
    std::fs::write(h.dir().join("notes.txt"), "x").unwrap();
    std::fs::write(h.dir().join(".hidden.json"), "{}").unwrap();
    std::fs::write(h.dir().join("a b.json"), "{}").unwrap();
    std::fs::create_dir(h.dir().join("dir.json")).unwrap();
    let r = h.result(&req(1, "tools/call", save_params()));
    assert_eq!(r["structuredContent"]["saved"], true);
    // The save's own temporary file is gone; the stale one was not reused or listed.
    let entries = h.store.as_ref().unwrap().entries();
    assert!(entries.iter().filter(|n| n.ends_with(".tmp")).count() == 1, "{entries:?}");
    let list = h.result(&req(2, "resources/list", json!({})));
    let uris: Vec<&str> = list["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, [format!("plan://{CALM_ID}")]);
    for uri in [format!("plan://.{CALM_ID}.json.1"), "plan://.hidden".to_owned(), "plan://dir".to_owned()] {
        let e = h.error(&req(3, "resources/read", json!({"uri": uri})));
        assert_eq!(e["code"], -32002, "{uri}");
    }
}

#[test]
fn overwrite_question_classic_accept() {
    let mut h = with_existing("old");
    h.initialize("2025-11-25", json!({"elicitation": {"form": {}, "url": {}}}));
    let out = h.send_value(&req(10, "tools/call", save_params()));
    assert_eq!(out.len(), 1, "only the question, no response yet: {out:?}");
    let q = &out[0];
    assert_eq!(q["method"], "elicitation/create");
    assert!(q["id"].is_u64());
    assert_eq!(q["params"]["mode"], "form");
    assert!(q["params"]["message"].as_str().unwrap().contains(CALM_ID));
    let schema = &q["params"]["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["overwrite"]));
    assert_eq!(schema["properties"].as_object().unwrap().len(), 1);
    assert_eq!(schema["properties"]["overwrite"]["type"], "boolean");
    assert_eq!(h.server.pending_questions(), 1);
    assert_eq!(saved_text(&h, CALM_ID), "old");
    // The answer completes the call.
    let answer =
        json!({"jsonrpc": "2.0", "id": q["id"], "result": {"action": "accept", "content": {"overwrite": true}}});
    let r = h.one(&answer);
    assert_eq!(r["id"], 10);
    let s = &r["result"]["structuredContent"];
    assert_eq!(s["saved"], true);
    assert!(s["warnings"].as_array().unwrap().iter().all(|w| w["code"] != "notSaved"));
    assert_ne!(saved_text(&h, CALM_ID), "old");
    assert_eq!(h.server.pending_questions(), 0);
    // A second answer with the same id is a stray response: ignored.
    h.none(&answer);
}

#[test]
fn overwrite_question_classic_refusals() {
    let answers: Vec<(Value, &str)> = vec![
        (json!({"result": {"action": "decline"}}), "declined"),
        (json!({"result": {"action": "cancel"}}), "cancelled"),
        (json!({"result": {"action": "accept", "content": {"overwrite": false}}}), "chose to keep"),
        (json!({"result": {"action": "accept", "content": {}}}), "did not confirm"),
        (json!({"result": {"action": "accept"}}), "did not confirm"),
        (json!({"result": {"action": "accept", "content": {"overwrite": "yes"}}}), "did not confirm"),
        (json!({"result": {"action": "maybe"}}), "could not be read"),
        (json!({"result": 5}), "could not be read"),
        (json!({"error": {"code": -32601, "message": "Method not found"}}), "-32601: Method not found"),
    ];
    for (answer, reason) in answers {
        let mut h = with_existing("old");
        h.initialize("2025-06-18", json!({"elicitation": {}}));
        let out = h.send_value(&req("s", "tools/call", save_params()));
        assert_eq!(out[0]["method"], "elicitation/create");
        // 2025-06-18 has no elicitation mode.
        assert!(out[0]["params"].get("mode").is_none());
        let mut message = answer.clone();
        message["jsonrpc"] = json!("2.0");
        message["id"] = out[0]["id"].clone();
        let r = h.one(&message);
        assert_eq!(r["id"], "s");
        let s = &r["result"]["structuredContent"];
        assert_eq!(s["saved"], false, "{answer}");
        let last = s["warnings"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["code"], "notSaved");
        assert_eq!(last["path"], "$");
        assert!(last["message"].as_str().unwrap().contains(reason), "{answer}: {last}");
        assert_eq!(saved_text(&h, CALM_ID), "old", "{answer}");
    }
}

#[test]
fn other_requests_are_served_while_the_question_waits() {
    let mut h = with_existing("old");
    h.initialize("2025-11-25", json!({"elicitation": {}}));
    let q1 = h.send_value(&req(1, "tools/call", save_params()))[0].clone();
    // Another save of another existing plan asks its own question, with its own id.
    let (plan2, request2) = calm_with_id("second");
    std::fs::write(h.dir().join("second.json"), "old2").unwrap();
    let q2 =
        h.send_value(&req(2, "tools/call", call("save_plan", json!({"plan": plan2, "request": request2}))))[0].clone();
    assert_eq!(q2["method"], "elicitation/create");
    assert_ne!(q1["id"], q2["id"]);
    // Meanwhile: ping, validate, resources, modern requests.
    assert_eq!(h.result(&req(3, "ping", json!({}))), json!({}));
    let (plan, request) = calm();
    let r = h.result(&req(4, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(r["structuredContent"]["valid"], true);
    h.result(&modern(5, "tools/list", json!({}), json!({})));
    assert_eq!(h.server.pending_questions(), 2);
    // Answers in the other order.
    let r2 = h.one(&json!({"jsonrpc": "2.0", "id": q2["id"], "result": {"action": "decline"}}));
    assert_eq!(r2["id"], 2);
    assert_eq!(r2["result"]["structuredContent"]["saved"], false);
    let r1 = h.one(
        &json!({"jsonrpc": "2.0", "id": q1["id"], "result": {"action": "accept", "content": {"overwrite": true}}}),
    );
    assert_eq!(r1["id"], 1);
    assert_eq!(r1["result"]["structuredContent"]["saved"], true);
    assert_eq!(saved_text(&h, "second"), "old2");
    assert_ne!(saved_text(&h, CALM_ID), "old");
}

#[test]
fn a_cancelled_call_gets_no_response_and_leaves_the_plan() {
    let mut h = with_existing("old");
    h.initialize("2025-11-25", json!({"elicitation": {}}));
    let q = h.send_value(&req("call-7", "tools/call", save_params()))[0].clone();
    // Cancelling another id does nothing.
    h.none(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}));
    assert_eq!(h.server.pending_questions(), 1);
    h.none(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "call-7", "reason": "user"}}));
    assert_eq!(h.server.pending_questions(), 0);
    // The late answer is ignored: no response, nothing written.
    h.none(&json!({"jsonrpc": "2.0", "id": q["id"], "result": {"action": "accept", "content": {"overwrite": true}}}));
    assert_eq!(saved_text(&h, CALM_ID), "old");
}

#[test]
fn without_elicitation_the_plan_is_left_with_a_warning() {
    // No capability declared; a version without elicitation even when declared; url-only.
    for (version, caps) in [
        ("2025-11-25", json!({})),
        ("2025-11-25", json!({"elicitation": {"url": {}}})),
        ("2025-03-26", json!({"elicitation": {}})),
        ("2024-11-05", json!({"elicitation": {}})),
    ] {
        let mut h = with_existing("old");
        h.initialize(version, caps.clone());
        let r = h.result(&req(1, "tools/call", save_params()));
        assert_eq!(r["isError"], false);
        let (saved, warnings) = if version >= "2025-06-18" {
            (r["structuredContent"]["saved"].clone(), r["structuredContent"]["warnings"].clone())
        } else {
            assert!(r.get("structuredContent").is_none());
            let t: Value = momentum_plan::parse_json(&text(&r)).unwrap();
            (t["saved"].clone(), t["warnings"].clone())
        };
        assert_eq!(saved, false, "{version} {caps}");
        let last = warnings.as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["code"], "notSaved");
        assert!(last["message"].as_str().unwrap().contains("elicitation"), "{last}");
        assert_eq!(saved_text(&h, CALM_ID), "old");
    }
}

#[test]
fn input_required_flow_accept_and_refusals() {
    let caps = json!({"elicitation": {"form": {}, "url": {}}});
    let mut h = with_existing("old");
    let r = h.result(&modern(1, "tools/call", save_params(), caps.clone()));
    assert_eq!(r["resultType"], "input_required");
    assert!(r.get("requestState").is_none());
    assert!(r.get("ttlMs").is_none());
    assert_eq!(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "momentum-planner");
    let ir = r["inputRequests"].as_object().unwrap();
    assert_eq!(ir.keys().collect::<Vec<_>>(), ["overwrite"]);
    assert_eq!(ir["overwrite"]["method"], "elicitation/create");
    assert!(ir["overwrite"].get("id").is_none() && ir["overwrite"].get("jsonrpc").is_none());
    assert_eq!(ir["overwrite"]["params"]["mode"], "form");
    assert_eq!(ir["overwrite"]["params"]["requestedSchema"]["required"], json!(["overwrite"]));
    assert_eq!(saved_text(&h, CALM_ID), "old");
    // The retry (new id) carries the answer.
    let mut retry = modern(2, "tools/call", save_params(), caps.clone());
    retry["params"]["inputResponses"] = json!({"overwrite": {"action": "accept", "content": {"overwrite": true}}});
    let r = h.result(&retry);
    assert_modern_complete(&r);
    assert_eq!(r["structuredContent"]["saved"], true);
    assert_ne!(saved_text(&h, CALM_ID), "old");

    for (answer, reason) in [
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "cancelled"),
        (json!({"action": "accept", "content": {"overwrite": false}}), "chose to keep"),
        (json!({"action": "accept", "content": {}}), "did not confirm"),
    ] {
        let mut h = with_existing("old");
        let mut retry = modern(3, "tools/call", save_params(), caps.clone());
        retry["params"]["inputResponses"] = json!({"overwrite": answer, "unrelated": {"x": 1}});
        let r = h.result(&retry);
        assert_modern_complete(&r);
        let s = &r["structuredContent"];
        assert_eq!(s["saved"], false);
        let last = s["warnings"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["code"], "notSaved");
        assert!(last["message"].as_str().unwrap().contains(reason), "{last}");
        assert_eq!(saved_text(&h, CALM_ID), "old");
    }
    // Malformed answers are invalid params.
    for responses in [json!([1]), json!({"overwrite": 5}), json!({"overwrite": {"action": "maybe"}})] {
        let mut h = with_existing("old");
        let mut retry = modern(4, "tools/call", save_params(), caps.clone());
        retry["params"]["inputResponses"] = responses.clone();
        assert_eq!(h.error(&retry)["code"], -32602, "{responses}");
        assert_eq!(saved_text(&h, CALM_ID), "old");
    }
    // Responses without the overwrite key ask again.
    let mut h = with_existing("old");
    let mut retry = modern(5, "tools/call", save_params(), caps);
    retry["params"]["inputResponses"] = json!({"other": {"action": "accept"}});
    assert_eq!(h.result(&retry)["resultType"], "input_required");
}

#[test]
fn modern_without_elicitation_leaves_the_plan() {
    let mut h = with_existing("old");
    for caps in [json!({}), json!({"elicitation": {"url": {}}}), json!({"sampling": {}})] {
        let r = h.result(&modern(1, "tools/call", save_params(), caps.clone()));
        assert_modern_complete(&r);
        assert_eq!(r["structuredContent"]["saved"], false, "{caps}");
        let last = r["structuredContent"]["warnings"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["code"], "notSaved");
        assert_eq!(saved_text(&h, CALM_ID), "old");
    }
    // No question is ever pending in the modern era.
    assert_eq!(h.server.pending_questions(), 0);
}

#[test]
fn resources_list_read_and_pagination() {
    let mut h = Harness::with_store();
    // 250 plans with ids in a shuffled order, plus a saved one through the tool.
    let mut ids: Vec<String> = (0..250).map(|i| format!("p{:03}", (i * 37) % 250)).collect();
    for id in &ids {
        std::fs::write(h.dir().join(format!("{id}.json")), format!("{{\"id\":\"{id}\"}}")).unwrap();
    }
    h.result(&req(0, "tools/call", save_params()));
    ids.push(CALM_ID.to_owned());
    ids.sort();
    for era in ["classic", "modern"] {
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let params = cursor.as_ref().map_or_else(|| json!({}), |c| json!({"cursor": c}));
            let m = if era == "classic" {
                req(1, "resources/list", params)
            } else {
                modern(1, "resources/list", params, json!({}))
            };
            let r = h.result(&m);
            pages += 1;
            let page = r["resources"].as_array().unwrap();
            assert!(page.len() <= 100);
            for res in page {
                let id = res["name"].as_str().unwrap().to_owned();
                assert_eq!(res["uri"], format!("plan://{id}"));
                assert_eq!(res["mimeType"], "application/json");
                seen.push(id);
            }
            match r.get("nextCursor") {
                Some(c) => cursor = Some(c.as_str().unwrap().to_owned()),
                None => break,
            }
        }
        assert_eq!(pages, 3, "{era}");
        assert_eq!(seen, ids, "{era}: all ids, sorted, once");
    }
    // Bad cursors.
    for bad in ["zz", "abc", "", "2f6574632f706173737764"] {
        assert_eq!(h.error(&req(2, "resources/list", json!({"cursor": bad})))["code"], -32602, "{bad}");
    }
    assert_eq!(h.error(&req(2, "resources/list", json!({"cursor": 1})))["code"], -32602);
    // Read in both eras.
    let r = h.result(&req(3, "resources/read", json!({"uri": "plan://p007"})));
    assert_eq!(
        r,
        json!({"contents": [{"uri": "plan://p007", "mimeType": "application/json", "text": "{\"id\":\"p007\"}"}]})
    );
    let r = h.result(&modern(4, "resources/read", json!({"uri": format!("plan://{CALM_ID}")}), json!({})));
    assert_modern_complete(&r);
    assert_eq!(r["contents"][0]["text"], saved_text(&h, CALM_ID));
    assert_eq!(r["cacheScope"], "private");
    assert_eq!(r["ttlMs"], 0);
}

#[test]
fn reading_a_missing_or_unsafe_plan_is_resource_not_found() {
    let mut h = Harness::with_store();
    std::fs::write(h.dir().parent().unwrap().join("outside.json"), "{}").ok();
    for uri in
        ["plan://missing", "plan://../outside", "plan:///etc/passwd", "plan://", "file:///etc/passwd", "plan://a/b", ""]
    {
        let e = h.error(&req(1, "resources/read", json!({"uri": uri})));
        assert_eq!(e, json!({"code": -32002, "message": "Resource not found", "data": {"uri": uri}}), "{uri}");
        let e = h.error(&modern(2, "resources/read", json!({"uri": uri}), json!({})));
        assert_eq!(e, json!({"code": -32602, "message": "Resource not found", "data": {"uri": uri}}), "{uri}");
    }
    std::fs::remove_file(h.dir().parent().unwrap().join("outside.json")).ok();
    for params in [json!({}), json!({"uri": 5})] {
        assert_eq!(h.error(&req(3, "resources/read", params))["code"], -32602);
    }
}

#[test]
fn too_many_waiting_questions_leave_the_plan() {
    let mut h = with_existing("old");
    h.initialize("2025-11-25", json!({"elicitation": {}}));
    for i in 0..momentum_plan_mcp::MAX_PENDING_QUESTIONS {
        let out = h.send_value(&req(i, "tools/call", save_params()));
        assert_eq!(out[0]["method"], "elicitation/create");
    }
    let r = h.result(&req("over", "tools/call", save_params()));
    assert_eq!(r["structuredContent"]["saved"], false);
    assert_eq!(saved_text(&h, CALM_ID), "old");
}
