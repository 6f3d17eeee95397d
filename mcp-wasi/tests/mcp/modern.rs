//! The stateless 2026-07-28 era: `server/discover`, the per-request `_meta` envelope and its
//! errors, `resultType` and `serverInfo` on every result, caching hints, every tool, both eras
//! interleaved on one stream (mcp-server.md "Protocol eras").

use crate::common::*;
use serde_json::{Value, json};

#[test]
fn discover_answers_with_versions_capabilities_and_hints() {
    let mut h = Harness::with_store();
    let r = h.result(&modern("d", "server/discover", json!({}), json!({"elicitation": {"form": {}, "url": {}}})));
    assert_modern_complete(&r);
    assert_eq!(r["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(r["capabilities"], json!({"tools": {}, "resources": {}, "prompts": {}}));
    assert!(r["instructions"].as_str().unwrap().contains("save_plan"));
    assert_eq!(r["ttlMs"], 3_600_000);
    assert_eq!(r["cacheScope"], "public");

    let mut h = Harness::read_only();
    let r = h.result(&modern(1, "server/discover", json!({}), json!({})));
    assert_eq!(r["capabilities"], json!({"tools": {}, "prompts": {}}));
    assert!(!r["instructions"].as_str().unwrap().contains("save"));
}

#[test]
fn a_modern_request_may_come_first_and_classic_state_is_untouched() {
    let mut h = Harness::with_store();
    let r = h.result(&modern(0, "tools/list", json!({}), json!({})));
    assert_modern_complete(&r);
    assert_eq!(h.server.negotiated_version(), None);
    // The same process then serves a classic session.
    let init = h.initialize("2025-03-26", json!({}));
    assert_eq!(init["protocolVersion"], "2025-03-26");
    let classic = h.result(&req(1, "tools/list", json!({})));
    assert_classic(&classic);
    assert!(classic["tools"][0].get("outputSchema").is_none());
    // ...and modern requests still get the full 2026 catalog.
    let r = h.result(&modern(2, "tools/list", json!({}), json!({})));
    assert!(r["tools"][0].get("outputSchema").is_some());
    assert!(r["tools"][0].get("title").is_some());
    assert!(r["tools"][0].get("annotations").is_some());
}

#[test]
fn envelope_errors() {
    let mut h = Harness::with_store();
    // A string version other than 2026-07-28: -32022 with data, even a classic version.
    for requested in ["2025-11-25", "2099-01-01", ""] {
        let mut m = modern(1, "tools/list", json!({}), json!({}));
        m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!(requested);
        let e = h.error(&m);
        assert_eq!(
            e,
            json!({"code": -32022, "message": "Unsupported protocol version",
                   "data": {"supported": ["2026-07-28"], "requested": requested}})
        );
    }
    // -32022 is judged before the capabilities.
    let m = req(1, "server/discover", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "1.0"}}));
    assert_eq!(h.error(&m)["code"], -32022);
    // A version that is not a string: -32602.
    for version in [json!(20_260_728), Value::Null, json!(["2026-07-28"])] {
        let mut m = modern(1, "tools/list", json!({}), json!({}));
        m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = version.clone();
        assert_eq!(h.error(&m)["code"], -32602, "{version}");
    }
    // Missing or non-object capabilities: -32602.
    let mut m = modern(1, "server/discover", json!({}), json!({}));
    m["params"]["_meta"].as_object_mut().unwrap().remove("io.modelcontextprotocol/clientCapabilities");
    assert_eq!(h.error(&m)["code"], -32602);
    for caps in [json!([]), json!("elicitation"), Value::Null] {
        let m = modern(1, "tools/call", call("get_plan_contract", json!({})), caps.clone());
        assert_eq!(h.error(&m)["code"], -32602, "{caps}");
    }
    // clientInfo is optional.
    let mut m = modern(9, "tools/list", json!({}), json!({}));
    m["params"]["_meta"].as_object_mut().unwrap().remove("io.modelcontextprotocol/clientInfo");
    h.result(&m);
}

#[test]
fn removed_methods_get_method_not_found() {
    let mut h = Harness::with_store();
    for method in
        ["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "nope", "subscriptions/listen"]
    {
        let e = h.error(&modern(1, method, json!({"uri": "plan://x"}), json!({})));
        assert_eq!(e["code"], -32601, "{method}");
    }
}

#[test]
fn every_result_carries_result_type_server_info_and_the_right_hints() {
    type Hints = Option<(i64, &'static str)>;
    let mut h = Harness::with_store();
    let (plan, request) = calm();
    let caps = json!({});
    // (method, params, expected hints or None)
    let public = Some((3_600_000, "public"));
    let private = Some((0, "private"));
    let cases: Vec<(&str, Value, Hints)> = vec![
        ("server/discover", json!({}), public),
        ("tools/list", json!({}), public),
        ("prompts/list", json!({}), public),
        ("resources/templates/list", json!({}), public),
        ("resources/list", json!({}), private),
        ("tools/call", call("get_plan_contract", json!({})), None),
        ("tools/call", call("validate_plan", json!({"plan": plan, "request": request})), None),
        ("tools/call", call("save_plan", json!({"plan": plan, "request": request})), None),
        ("resources/read", json!({"uri": "plan://req-2026-10-05-calm-weekday"}), private),
        ("prompts/get", json!({"name": "draft_plan", "arguments": {"request_json": "{}"}}), None),
        ("tools/call", call("validate_plan", json!({"plan": 1})), None),
    ];
    for (i, (method, params, hints)) in cases.into_iter().enumerate() {
        let r = h.result(&modern(i, method, params, caps.clone()));
        assert_modern_complete(&r);
        if let Some((ttl, scope)) = hints {
            assert_eq!(r["ttlMs"], ttl, "{method}");
            assert_eq!(r["cacheScope"], scope, "{method}");
        } else {
            assert!(r.get("ttlMs").is_none(), "{method} {r}");
            assert!(r.get("cacheScope").is_none(), "{method} {r}");
        }
    }
}

#[test]
fn tools_work_in_the_modern_era() {
    let mut h = Harness::with_store();
    let caps = json!({"elicitation": {}});
    let r = h.result(&modern(1, "tools/call", call("get_plan_contract", json!({})), caps.clone()));
    let contract = serde_json::to_string(momentum_plan::contract()).unwrap();
    assert_eq!(text(&r), contract);
    assert_eq!(r["structuredContent"].to_string(), contract);
    assert_eq!(r["isError"], false);

    for (plan, request) in [calm(), broken()] {
        let expected = momentum_plan::validate(&plan, &request).to_json();
        let r = h.result(&modern(
            2,
            "tools/call",
            call("validate_plan", json!({"plan": plan, "request": request})),
            caps.clone(),
        ));
        assert_eq!(text(&r), expected);
        assert_eq!(r["structuredContent"].to_string(), expected);
        assert_eq!(r["isError"], false);
    }

    let (plan, request) = calm();
    let r =
        h.result(&modern(3, "tools/call", call("save_plan", json!({"plan": plan, "request": request})), caps.clone()));
    assert_eq!(r["isError"], false);
    assert_eq!(r["structuredContent"]["saved"], true);
    assert_eq!(r["structuredContent"]["uri"], "plan://req-2026-10-05-calm-weekday");
    assert_eq!(text(&r), r["structuredContent"].to_string());

    // Tool error: text only, resultType still there.
    let r = h.result(&modern(4, "tools/call", call("validate_plan", json!({"plan": plan})), caps.clone()));
    assert_eq!(r["isError"], true);
    assert!(r.get("structuredContent").is_none());
    assert!(text(&r).contains("`request` is missing"));

    let e = h.error(&modern(5, "tools/call", call("nope", json!({})), caps));
    assert_eq!(e, json!({"code": -32602, "message": "Unknown tool: nope"}));
}

#[test]
fn modern_prompt_and_its_errors() {
    let mut h = Harness::read_only();
    let r = h.result(&modern(1, "prompts/list", json!({}), json!({})));
    assert_eq!(r["prompts"][0]["name"], "draft_plan");
    assert!(r["prompts"][0].get("title").is_some());
    let r = h.result(&modern(
        2,
        "prompts/get",
        json!({"name": "draft_plan", "arguments": {"request_json": "{\"a\":1}"}}),
        json!({}),
    ));
    assert_modern_complete(&r);
    assert!(r["messages"][0]["content"]["text"].as_str().unwrap().ends_with("{\"a\":1}"));
    let e = h.error(&modern(3, "prompts/get", json!({"name": "draft_plan"}), json!({})));
    assert_eq!(e["code"], -32602);
}

#[test]
fn read_only_modern_has_no_store() {
    let mut h = Harness::read_only();
    let r = h.result(&modern(1, "tools/list", json!({}), json!({})));
    assert_eq!(r["tools"].as_array().unwrap().len(), 6, "no save_plan");
    for method in ["resources/list", "resources/read", "resources/templates/list"] {
        assert_eq!(h.error(&modern(1, method, json!({"uri": "plan://a"}), json!({})))["code"], -32601);
    }
    let (plan, request) = calm();
    let e = h.error(&modern(2, "tools/call", call("save_plan", json!({"plan": plan, "request": request})), json!({})));
    assert_eq!(e, json!({"code": -32602, "message": "Unknown tool: save_plan"}));
}

#[test]
fn progress_token_meta_alone_does_not_make_a_request_modern() {
    let mut h = Harness::with_store();
    let r = h.result(&req(1, "tools/list", json!({"_meta": {"progressToken": "t"}})));
    assert_classic(&r);
}
