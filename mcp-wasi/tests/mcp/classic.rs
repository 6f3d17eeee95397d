//! The classic (handshake) era: negotiation for every version, capabilities and instructions,
//! version-gated features, every tool, tool errors versus protocol errors, the prompt, requests
//! before `initialize` (mcp-server.md "Protocol eras", "Catalog").

use crate::common::*;
use serde_json::{Value, json};

const CLASSIC: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

#[test]
fn initialize_echoes_every_classic_version() {
    for version in CLASSIC {
        let mut h = Harness::with_store();
        let r = h.initialize(version, json!({}));
        assert_eq!(r["protocolVersion"], version);
        assert_eq!(r["serverInfo"]["name"], "momentum-planner");
        assert_eq!(r["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        // `title` on Implementation exists from 2025-06-18.
        assert_eq!(r["serverInfo"].get("title").is_some(), version >= "2025-06-18", "{version}");
        assert_eq!(r["capabilities"], json!({"tools": {}, "resources": {}, "prompts": {}}));
        let instructions = r["instructions"].as_str().expect("instructions");
        for word in ["get_plan_contract", "validate_plan", "repair_plan", "get_plan_schema", "save_plan"] {
            assert!(instructions.contains(word), "{instructions}");
        }
        assert_classic(&r);
        assert_eq!(h.server.negotiated_version(), Some(version));
    }
}

#[test]
fn initialize_counter_offers_2025_11_25_for_other_versions() {
    for offered in ["2026-07-28", "1999-01-01", "2024-10-07", ""] {
        let mut h = Harness::with_store();
        let r = h.initialize(offered, json!({}));
        assert_eq!(r["protocolVersion"], "2025-11-25", "offered {offered}");
    }
}

#[test]
fn initialize_without_the_classic_parameters_is_invalid_params() {
    // mcp-server.md "Stateless": protocolVersion (string), capabilities and clientInfo
    // (objects) are required; without them it is -32602, not a handshake.
    let info = json!({"name": "test", "version": "0"});
    let cases = [
        (json!(null), "protocolVersion is missing"),
        (json!({}), "protocolVersion is missing"),
        (json!({"capabilities": {}, "clientInfo": info}), "protocolVersion is missing"),
        (json!({"protocolVersion": 5, "capabilities": {}, "clientInfo": info}), "protocolVersion must be a string"),
        (json!({"protocolVersion": "2025-11-25", "clientInfo": info}), "capabilities is missing"),
        (
            json!({"protocolVersion": "2025-11-25", "capabilities": [], "clientInfo": info}),
            "capabilities must be an object",
        ),
        (json!({"protocolVersion": "2025-11-25", "capabilities": {}}), "clientInfo is missing"),
        (
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": "me"}),
            "clientInfo must be an object",
        ),
    ];
    for (params, words) in cases {
        let mut h = Harness::read_only();
        let mut message = json!({"jsonrpc": "2.0", "id": 3, "method": "initialize"});
        if !params.is_null() {
            message["params"] = params.clone();
        }
        let e = h.error(&message);
        assert_eq!(e["code"], -32602, "{params}");
        assert!(e["message"].as_str().unwrap().contains(words), "{params}: {e}");
        // Nothing was negotiated: the session stays at its default.
        assert_eq!(h.server.negotiated_version(), None, "{params}");
    }
    // The same with the 2026-07-28 envelope.
    let mut h = Harness::read_only();
    let e = h.error(&modern(1, "initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}}), json!({})));
    assert_eq!(e["code"], -32602);
}

#[test]
fn initialize_with_the_modern_envelope_is_still_a_handshake() {
    let mut h = Harness::with_store();
    let r = h.result(&modern(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        json!({}),
    ));
    assert_eq!(r["protocolVersion"], "2025-06-18");
    assert_classic(&r);
}

#[test]
fn read_only_mode_offers_no_store() {
    let mut h = Harness::read_only();
    let r = h.initialize("2025-11-25", json!({"elicitation": {}}));
    assert_eq!(r["capabilities"], json!({"tools": {}, "prompts": {}}));
    let instructions = r["instructions"].as_str().expect("instructions");
    assert!(!instructions.contains("save"), "{instructions}");
    assert!(!instructions.contains("plan://"), "{instructions}");
    let tools = h.result(&req(2, "tools/list", json!({})));
    let names: Vec<&str> = tools["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOLS[..6], "every tool but save_plan");
    for word in ["repair_plan", "get_plan_schema", "requestAtFault"] {
        assert!(instructions.contains(word), "{instructions}");
    }
    let (plan, request) = calm();
    let e = h.error(&req(3, "tools/call", call("save_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(e, json!({"code": -32602, "message": "Unknown tool: save_plan"}));
    for method in ["resources/list", "resources/templates/list", "resources/read"] {
        let e = h.error(&req(4, method, json!({"uri": "plan://x"})));
        assert_eq!(e["code"], -32601, "{method}");
    }
    // The prompt does not mention saving with save_plan either.
    let p = h.result(&req(5, "prompts/get", json!({"name": "draft_plan", "arguments": {"request_json": "{}"}})));
    let t = p["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(!t.contains("save_plan"), "{t}");
}

#[test]
fn ping_answers_an_empty_result() {
    let mut h = Harness::read_only();
    assert_eq!(h.result(&req("p", "ping", json!({}))), json!({}));
    h.initialize("2025-03-26", json!({}));
    assert_eq!(h.result(&json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})), json!({}));
}

#[test]
fn tools_list_is_gated_by_version() {
    for version in CLASSIC {
        let mut h = Harness::with_store();
        h.initialize(version, json!({}));
        // No params at all, as the TypeScript SDK sends it.
        let r = h.result(&json!({"method": "tools/list", "jsonrpc": "2.0", "id": 1}));
        assert_classic(&r);
        let tools = r["tools"].as_array().expect("tools");
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, TOOLS);
        for tool in tools {
            assert!(tool["description"].as_str().unwrap().len() > 80, "{tool}");
            assert_eq!(tool["inputSchema"]["type"], "object");
            assert_eq!(tool.get("annotations").is_some(), version >= "2025-03-26", "{version} {tool}");
            assert_eq!(tool.get("title").is_some(), version >= "2025-06-18", "{version} {tool}");
            assert_eq!(tool.get("outputSchema").is_some(), version >= "2025-06-18", "{version} {tool}");
            if let Some(schema) = tool.get("outputSchema") {
                assert_eq!(schema["type"], "object");
                assert!(!schema.to_string().contains("$schema"), "no $schema: {schema}");
            }
        }
        if version >= "2025-03-26" {
            let a = |i: usize| tools[i]["annotations"].clone();
            for i in [0, 1, 2, 3, 4, 5] {
                assert_eq!(a(i)["readOnlyHint"], true);
                assert_eq!(a(i)["idempotentHint"], true);
                assert_eq!(a(i)["openWorldHint"], false);
            }
            assert_eq!(a(6)["readOnlyHint"], false);
            assert_eq!(a(6)["destructiveHint"], false);
            assert_eq!(a(6)["idempotentHint"], true);
            assert_eq!(a(6)["openWorldHint"], false);
        }
        assert_eq!(tools[0]["inputSchema"], json!({"type": "object", "additionalProperties": false}));
        assert_eq!(tools[1]["inputSchema"]["required"], json!(["plan", "request"]));
        assert_eq!(tools[1]["inputSchema"]["additionalProperties"], false);
        assert_eq!(tools[1]["inputSchema"], tools[6]["inputSchema"]);
        // repair_plan: validate_plan's arguments and an optional boolean `unsafe`.
        let mut repair_input = tools[2]["inputSchema"].clone();
        assert_eq!(repair_input["properties"]["unsafe"]["type"], "boolean");
        repair_input["properties"].as_object_mut().unwrap().shift_remove("unsafe");
        assert_eq!(repair_input, tools[1]["inputSchema"]);
        // get_plan_schema: `request` required, `variant` one of the core's names.
        assert_eq!(tools[3]["inputSchema"]["required"], json!(["request"]));
        assert_eq!(tools[3]["inputSchema"]["additionalProperties"], false);
        assert_eq!(tools[3]["inputSchema"]["properties"]["variant"]["enum"], json!(["validation", "strict"]));
        // export_calendar: validate_plan's arguments and an optional string `dtstamp`.
        let mut export_input = tools[4]["inputSchema"].clone();
        assert_eq!(export_input["properties"]["dtstamp"]["type"], "string");
        export_input["properties"].as_object_mut().unwrap().shift_remove("dtstamp");
        assert_eq!(export_input, tools[1]["inputSchema"]);
        // import_commitments: three required strings.
        assert_eq!(tools[5]["inputSchema"]["required"], json!(["calendar", "startDate", "timezone"]));
        assert_eq!(tools[5]["inputSchema"]["additionalProperties"], false);
    }
}

#[test]
fn output_schemas_describe_the_results() {
    let mut h = Harness::with_store();
    let tools = h.result(&req(1, "tools/list", json!({})))["tools"].clone();
    // The verdict schema's code enum is the core's registry.
    let codes: Vec<Value> = momentum_plan::IssueCode::ALL.iter().map(|c| json!(c.as_str())).collect();
    assert_eq!(tools[1]["outputSchema"]["properties"]["errors"]["items"]["properties"]["code"]["enum"], json!(codes));
    assert_eq!(tools[1]["outputSchema"]["required"], json!(["valid", "errors", "warnings", "checks"]));
    assert_eq!(tools[6]["outputSchema"]["required"], json!(["saved", "planId", "uri", "warnings"]));
    assert_eq!(tools[4]["outputSchema"]["required"], json!(["uri", "events", "warnings"]));
    assert_eq!(tools[5]["outputSchema"]["required"], json!(["commitments", "skipped"]));
    // Every key of the contract is described, and every limit.
    let contract = serde_json::to_value(momentum_plan::contract()).unwrap();
    let schema = &tools[0]["outputSchema"];
    for key in contract.as_object().unwrap().keys() {
        assert!(schema["properties"].get(key).is_some(), "contract key {key} described");
    }
    for key in contract["limits"].as_object().unwrap().keys() {
        assert_eq!(schema["properties"]["limits"]["properties"][key], json!({"type": "integer"}));
    }
}

#[test]
fn requests_before_initialize_are_served_as_2025_11_25() {
    let mut h = Harness::with_store();
    let tools = h.result(&req(1, "tools/list", json!({})));
    assert!(tools["tools"][0].get("title").is_some());
    assert!(tools["tools"][0].get("outputSchema").is_some());
    let (plan, request) = calm();
    let r = h.result(&req(2, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))));
    assert_eq!(r["structuredContent"]["valid"], true);
    assert_classic(&r);
    assert_eq!(h.server.negotiated_version(), None);
}

#[test]
fn get_plan_contract_returns_the_core_contract() {
    for version in CLASSIC {
        let mut h = Harness::read_only();
        h.initialize(version, json!({}));
        for args in [None, Some(json!({})), Some(Value::Null)] {
            let mut params = json!({"name": "get_plan_contract"});
            if let Some(a) = args {
                params["arguments"] = a;
            }
            let r = h.result(&req(1, "tools/call", params));
            assert_eq!(r["isError"], false);
            let expected = serde_json::to_string(momentum_plan::contract()).unwrap();
            assert_eq!(text(&r), expected);
            if version >= "2025-06-18" {
                assert_eq!(r["structuredContent"].to_string(), expected);
            } else {
                assert!(r.get("structuredContent").is_none(), "{version}");
            }
        }
    }
}

#[test]
fn get_plan_contract_refuses_arguments_as_a_tool_error() {
    let mut h = Harness::read_only();
    let r = h.result(&req(1, "tools/call", call("get_plan_contract", json!({"x": 1}))));
    assert_eq!(r["isError"], true);
    assert!(r.get("structuredContent").is_none());
    assert!(text(&r).contains("get_plan_contract") && text(&r).contains("`x`"), "{r}");
}

#[test]
fn arguments_or_input_responses_that_are_not_objects_are_invalid_params() {
    // mcp-server.md "Catalog": they do not fit CallToolRequest, so -32602 (not a tool error).
    let (plan, request) = calm();
    for tool in ["get_plan_contract", "validate_plan", "repair_plan", "get_plan_schema", "save_plan", "nope"] {
        for args in [json!([1]), json!("{}"), json!(5), json!(true), json!([plan, request])] {
            let mut h = Harness::with_store();
            let e = h.error(&req(1, "tools/call", call(tool, args.clone())));
            assert_eq!(e["code"], -32602, "{tool} {args}");
            assert_eq!(e["message"], "Invalid params: tools/call arguments must be an object", "{tool} {args}");
            assert!(h.store.as_ref().unwrap().entries().is_empty(), "nothing written");
        }
        for responses in [json!([]), json!("accept"), json!(1)] {
            let mut h = Harness::with_store();
            let e = h.error(&req(
                2,
                "tools/call",
                json!({"name": tool, "arguments": {"plan": plan, "request": request}, "inputResponses": responses}),
            ));
            assert_eq!(e["code"], -32602, "{tool} {responses}");
            assert!(e["message"].as_str().unwrap().contains("inputResponses must be an object"), "{e}");
        }
    }
    // `null` reads as absent, for both.
    let mut h = Harness::read_only();
    let r = h.result(&req(
        3,
        "tools/call",
        json!({"name": "get_plan_contract", "arguments": null, "inputResponses": null}),
    ));
    assert_eq!(r["isError"], false);
}

#[test]
fn validate_plan_gives_the_core_verdict_in_every_version() {
    for version in CLASSIC {
        let mut h = Harness::read_only();
        h.initialize(version, json!({}));
        for (plan, request) in [calm(), broken()] {
            let expected = momentum_plan::validate(&plan, &request).to_json();
            // As an object, and as JSON text.
            for given in [plan.clone(), json!(plan.to_string())] {
                let r =
                    h.result(&req(1, "tools/call", call("validate_plan", json!({"plan": given, "request": request}))));
                assert_eq!(r["isError"], false, "an invalid plan is not a tool error");
                assert_eq!(text(&r), expected);
                if version >= "2025-06-18" {
                    assert_eq!(r["structuredContent"].to_string(), expected);
                } else {
                    assert!(r.get("structuredContent").is_none());
                }
            }
        }
    }
    // The broken example has exactly the three errors the README shows.
    let (plan, request) = broken();
    let mut h = Harness::read_only();
    let r = h.result(&req(1, "tools/call", call("validate_plan", json!({"plan": plan, "request": request}))));
    let codes: Vec<&str> =
        r["structuredContent"]["errors"].as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap()).collect();
    assert_eq!(codes.len(), 3, "{codes:?}");
    assert_eq!(r["structuredContent"]["valid"], false);
}

#[test]
fn argument_errors_are_tool_errors_naming_the_argument() {
    let (plan, request) = calm();
    let cases = [
        (json!({"request": request}), vec!["`plan` is missing"]),
        (json!({"plan": plan}), vec!["`request` is missing"]),
        (json!({}), vec!["`plan` is missing", "`request` is missing"]),
        (json!({"plan": 5, "request": request}), vec!["`plan` must be", "a number"]),
        (json!({"plan": plan, "request": 5}), vec!["`request` must be a JSON object", "a number"]),
        (json!({"plan": plan, "request": "{}"}), vec!["`request` must be a JSON object", "a string"]),
        (json!({"plan": [], "request": null}), vec!["`plan` must be", "an array", "`request`", "null"]),
        (json!({"plan": plan, "request": request, "extra": 1}), vec!["unexpected argument `extra`"]),
    ];
    for tool in ["validate_plan", "repair_plan", "save_plan"] {
        for (args, words) in &cases {
            let mut h = Harness::with_store();
            let r = h.result(&req(1, "tools/call", call(tool, args.clone())));
            assert_eq!(r["isError"], true, "{tool} {args}");
            assert!(r.get("structuredContent").is_none(), "a tool error carries text only");
            let t = text(&r);
            assert!(t.contains(tool), "{t}");
            for w in words {
                assert!(t.contains(w), "{tool} {args}: {t:?} lacks {w:?}");
            }
            assert!(h.store.as_ref().unwrap().entries().is_empty(), "nothing written");
        }
        // Absent arguments read as {}.
        let mut h = Harness::with_store();
        let r = h.result(&req(2, "tools/call", json!({"name": tool})));
        assert_eq!(r["isError"], true);
        assert!(text(&r).contains("`plan` is missing"));
    }
}

#[test]
fn unknown_tools_and_malformed_calls_are_protocol_errors() {
    let mut h = Harness::with_store();
    let e = h.error(&req(1, "tools/call", call("nope", json!({}))));
    assert_eq!(e, json!({"code": -32602, "message": "Unknown tool: nope"}));
    let e = h.error(&req(2, "tools/call", json!({"arguments": {}})));
    assert_eq!(e["code"], -32602);
    let e = h.error(&req(3, "tools/call", json!({"name": 7})));
    assert_eq!(e["code"], -32602);
}

#[test]
fn unknown_and_unoffered_methods_get_method_not_found() {
    let mut h = Harness::with_store();
    for method in ["nope", "logging/setLevel", "resources/subscribe", "completion/complete", "sampling/createMessage"] {
        let e = h.error(&req(1, method, json!({})));
        assert_eq!(e["code"], -32601, "{method}");
        assert_eq!(e["message"], "Method not found");
    }
}

#[test]
fn server_discover_without_the_envelope_is_invalid_params() {
    let mut h = Harness::with_store();
    for params in [json!({}), json!({"_meta": {}}), json!({"_meta": {"progressToken": 1}})] {
        let e = h.error(&req(1, "server/discover", params));
        assert_eq!(e["code"], -32602);
    }
    let e = h.error(&json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"}));
    assert_eq!(e["code"], -32602);
}

#[test]
fn list_requests_refuse_a_cursor_never_issued() {
    let mut h = Harness::with_store();
    for method in ["tools/list", "prompts/list", "resources/templates/list"] {
        let e = h.error(&req(1, method, json!({"cursor": "abc"})));
        assert_eq!(e, json!({"code": -32602, "message": "Invalid cursor"}), "{method}");
        let e = h.error(&req(1, method, json!({"cursor": 5})));
        assert_eq!(e["code"], -32602, "{method}");
        h.result(&req(1, method, json!({"cursor": null})));
    }
}

#[test]
fn the_prompt_is_gated_by_version_and_needs_its_argument() {
    for version in CLASSIC {
        let mut h = Harness::with_store();
        h.initialize(version, json!({}));
        let r = h.result(&req(1, "prompts/list", json!({})));
        assert_classic(&r);
        let prompts = r["prompts"].as_array().unwrap();
        assert_eq!(prompts.len(), 1);
        assert_eq!(prompts[0]["name"], "draft_plan");
        assert_eq!(prompts[0]["arguments"][0]["name"], "request_json");
        assert_eq!(prompts[0]["arguments"][0]["required"], true);
        assert_eq!(prompts[0].get("title").is_some(), version >= "2025-06-18");
    }
    let mut h = Harness::with_store();
    let request = r#"{"requestId":"r-1","kind":"routine"}"#;
    let r = h.result(&req(1, "prompts/get", json!({"name": "draft_plan", "arguments": {"request_json": request}})));
    let messages = r["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    let t = messages[0]["content"]["text"].as_str().unwrap();
    for word in ["get_plan_contract", "get_plan_schema", "validate_plan", "repair_plan", "save_plan", "Fix every error"]
    {
        assert!(t.contains(word), "{t}");
    }
    assert!(t.ends_with(request), "the request follows the instructions: {t}");
    for (params, message) in [
        (json!({"name": "draft_plan"}), "Missing required argument: request_json"),
        (json!({"name": "draft_plan", "arguments": {}}), "Missing required argument: request_json"),
        (
            json!({"name": "draft_plan", "arguments": {"request_json": 5}}),
            "Invalid argument: request_json must be a string",
        ),
        (json!({"name": "other", "arguments": {"request_json": "{}"}}), "Unknown prompt: other"),
    ] {
        let e = h.error(&req(2, "prompts/get", params));
        assert_eq!(e, json!({"code": -32602, "message": message}));
    }
}

#[test]
fn resource_templates_are_listed_with_a_store() {
    for version in CLASSIC {
        let mut h = Harness::with_store();
        h.initialize(version, json!({}));
        let r = h.result(&req(1, "resources/templates/list", json!({})));
        let t = &r["resourceTemplates"];
        assert_eq!(t.as_array().unwrap().len(), 1);
        assert_eq!(t[0]["uriTemplate"], "plan://{planId}");
        assert_eq!(t[0]["name"], "plan");
        assert_eq!(t[0]["mimeType"], "application/json");
        assert_eq!(t[0].get("title").is_some(), version >= "2025-06-18");
    }
}

#[test]
fn reinitializing_changes_the_session() {
    let mut h = Harness::with_store();
    h.initialize("2024-11-05", json!({}));
    let r = h.result(&req(1, "tools/list", json!({})));
    assert!(r["tools"][0].get("annotations").is_none());
    h.initialize("2025-11-25", json!({}));
    let r = h.result(&req(2, "tools/list", json!({})));
    assert!(r["tools"][0].get("annotations").is_some());
}
