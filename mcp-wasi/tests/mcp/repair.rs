//! `repair_plan` and `get_plan_schema` (validator.md §9, mcp-server.md "Catalog"): every shared
//! vector (`shared/vectors/*.jsonl`, read at test time) through `tools/call repair_plan` over
//! stdio lines (classic era) and over Streamable HTTP (`http::handle`, 2026-07-28), whose text
//! block and `structuredContent` are byte for byte `momentum_plan::repair(…).to_json()` (safe
//! fixes for every vector, unsafe ones for a sample); `get_plan_schema` for every distinct vector
//! request in both variants, equal to `momentum_plan::plan_schema`; the catalog entries; and bad
//! input (arguments that do not fit, a request at fault, deep and huge plans) as tool errors
//! that name the argument, never a panic or a protocol error.

use crate::common::*;
use momentum_plan::{Input, RepairOptions, SchemaVariant};
use momentum_plan_mcp::http::{HttpConfig, HttpRequest, handle};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The core's repair bytes for `plan` as the reference driver passes it (a string is plan text).
fn core_repair(plan: &Value, request: &Value, unsafe_fixes: bool) -> String {
    let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
    let plan = match plan {
        Value::String(t) => Input::Text(t),
        v => Input::Value(v),
    };
    momentum_plan::repair(plan, Input::Value(request), &options).expect("an object request is read").to_json()
}

/// A 2026-07-28 POST of `message` (a `tools/call` of `name`) to a read-only instance: status, body.
pub(crate) fn over_http(message: &Value, name: &str) -> (u16, Vec<u8>) {
    let body = message.to_string().into_bytes();
    let headers = [
        ("content-type".to_owned(), b"application/json".to_vec()),
        ("mcp-protocol-version".to_owned(), b"2026-07-28".to_vec()),
        ("mcp-method".to_owned(), b"tools/call".to_vec()),
        ("mcp-name".to_owned(), name.as_bytes().to_vec()),
    ];
    let request =
        HttpRequest { method: "POST", path: "/mcp", authority: Some("127.0.0.1:8765"), headers: &headers, body: &body };
    let response = handle(None, &HttpConfig::default(), &request);
    (response.status, response.body)
}

/// Why one answer line is not the successful tool result `expected` (bytes of the text block
/// and of `structuredContent`, the latter written into the line as it came from the core).
fn mismatch_ok(line: &[u8], expected: &str) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let response = match momentum_plan::parse_json(&text) {
        Ok(v) => v,
        Err(e) => return Some(format!("not JSON ({e})")),
    };
    let result = &response["result"];
    if result["isError"] != false {
        return Some(format!("isError: {result}"));
    }
    let block = result["content"][0]["text"].as_str().unwrap_or("");
    if block != expected {
        return Some(format!("text {block} != {expected}"));
    }
    if !text.contains(&format!("\"structuredContent\":{expected}")) {
        return Some(format!("structuredContent is not the core's bytes: {text}"));
    }
    None
}

#[test]
fn every_shared_vector_repairs_as_the_core_does_on_stdio_and_http() {
    let mut h = Harness::read_only();
    let caps = json!({});
    let mut mismatches = Vec::new();
    let (mut count, mut unsafe_count, mut changed) = (0usize, 0usize, 0usize);
    for (n, vector) in vectors().into_iter().enumerate() {
        let id = vector["id"].as_str().unwrap_or("?").to_owned();
        let (plan, request) = (&vector["plan"], &vector["request"]);
        // Safe fixes for every vector; unsafe ones too for every 8th.
        let levels: &[bool] = if n % 8 == 0 { &[false, true] } else { &[false] };
        for &unsafe_fixes in levels {
            let expected = core_repair(plan, request, unsafe_fixes);
            let mut arguments = json!({"plan": plan, "request": request});
            if unsafe_fixes {
                arguments["unsafe"] = json!(true);
                unsafe_count += 1;
            } else if n % 2 == 1 {
                arguments["unsafe"] = json!(false);
            }
            let classic = req(n, "tools/call", call("repair_plan", arguments.clone()));
            let out = h.raw(classic.to_string().as_bytes());
            match out.as_slice() {
                [line] => {
                    if let Some(why) = mismatch_ok(line.as_bytes(), &expected) {
                        mismatches.push(format!("{id} (stdio, unsafe {unsafe_fixes}): {why}"));
                    }
                }
                _ => mismatches.push(format!("{id}: {} lines", out.len())),
            }
            let message = modern(format!("m{n}"), "tools/call", call("repair_plan", arguments), caps.clone());
            let (status, body) = over_http(&message, "repair_plan");
            if status != 200 {
                mismatches.push(format!("{id} (HTTP): status {status}"));
            } else if let Some(why) = mismatch_ok(&body, &expected) {
                mismatches.push(format!("{id} (HTTP, unsafe {unsafe_fixes}): {why}"));
            }
            if !unsafe_fixes && expected.contains("\"applied\":[{") {
                changed += 1;
            }
        }
        count += 1;
    }
    assert!(
        mismatches.is_empty(),
        "{} of {count} vectors disagree; first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    assert!(changed > 100, "safe fixes were applied to only {changed} vectors");
    eprintln!(
        "{count} vectors repaired as the core does (and {unsafe_count} with unsafe fixes), on stdio and over HTTP"
    );
}

#[test]
fn every_distinct_vector_request_gets_the_core_schema_in_both_variants() {
    let mut requests = BTreeSet::new();
    for vector in vectors() {
        requests.insert(vector["request"].to_string());
    }
    let mut h = Harness::read_only();
    let mut mismatches = Vec::new();
    let (mut schemas, mut at_fault) = (0usize, 0usize);
    for (n, text) in requests.iter().enumerate() {
        let request = momentum_plan::parse_json(text).expect("request");
        let Value::Object(_) = request else {
            // A request that is not an object does not fit the input schema (tested below).
            continue;
        };
        for variant in SchemaVariant::ALL {
            let expected = momentum_plan::plan_schema(&request, variant);
            let mut arguments = json!({"request": request, "variant": variant.as_str()});
            let mut cases = vec![arguments.clone()];
            if variant == SchemaVariant::Validation {
                // `variant` defaults to "validation".
                arguments.as_object_mut().unwrap().shift_remove("variant");
                cases.push(arguments);
            }
            for arguments in cases {
                let classic = req(n, "tools/call", call("get_plan_schema", arguments.clone()));
                let message = modern(n, "tools/call", call("get_plan_schema", arguments.clone()), json!({}));
                let (status, body) = over_http(&message, "get_plan_schema");
                let lines = [h.raw(classic.to_string().as_bytes()).concat().into_bytes(), body];
                for (transport, line) in ["stdio", "HTTP"].iter().zip(lines) {
                    let why = match &expected {
                        Ok(schema) => mismatch_ok(&line, &schema.to_string()),
                        Err(e) => {
                            let r = momentum_plan::parse_json(&String::from_utf8_lossy(&line)).unwrap_or_default();
                            let r = &r["result"];
                            (r["isError"] != true
                                || r.get("structuredContent").is_some()
                                || r["content"] != json!([{"type": "text", "text": e.to_string()}]))
                            .then(|| format!("want the tool error {e:?}, got {r}"))
                        }
                    };
                    if let Some(why) = why {
                        mismatches.push(format!("{text} {} ({transport}): {why}", variant.as_str()));
                    }
                }
                assert_eq!(status, 200, "{text}");
            }
            match expected {
                Ok(_) => schemas += 1,
                Err(_) => at_fault += 1,
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} disagree; first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    assert!(schemas > 50 && at_fault > 0, "{schemas} schemas, {at_fault} requests at fault");
    eprintln!(
        "{} distinct requests, both variants: {schemas} schemas and {at_fault} request-at-fault errors, as the core",
        requests.len()
    );
}

#[test]
fn the_new_tools_are_in_the_catalog_with_their_schemas() {
    let mut h = Harness::read_only();
    let tools = h.result(&req(1, "tools/list", json!({})))["tools"].clone();
    let (repair, schema) = (&tools[2], &tools[3]);
    assert_eq!(repair["name"], "repair_plan");
    assert_eq!(schema["name"], "get_plan_schema");
    for tool in [repair, schema] {
        assert!(tool["title"].as_str().is_some_and(|t| !t.is_empty()), "{tool}");
        let a = &tool["annotations"];
        assert_eq!(
            (&a["readOnlyHint"], &a["destructiveHint"], &a["idempotentHint"], &a["openWorldHint"]),
            (&json!(true), &json!(false), &json!(true), &json!(false)),
            "{tool}"
        );
        assert_eq!(tool["outputSchema"]["type"], "object");
        assert!(!tool["outputSchema"].to_string().contains("$schema"), "{tool}");
    }
    // When to call them, in the words the model reads.
    let d = repair["description"].as_str().unwrap();
    for w in ["after validate_plan", "safe fixes", "`unsafe`", "requestAtFault", "offered"] {
        assert!(d.contains(w), "{w}: {d}");
    }
    let d = schema["description"].as_str().unwrap();
    for w in ["before drafting", "\"strict\"", "structured outputs", "validate_plan"] {
        assert!(d.contains(w), "{w}: {d}");
    }
    // The repair's output schema lists Repair::to_json's members, in its order, all required.
    let (plan, request) = broken();
    let bytes = core_repair(&plan, &request, false);
    let sample = momentum_plan::parse_json(&bytes).unwrap();
    let members: Vec<&String> = sample.as_object().unwrap().keys().collect();
    let required: Vec<String> =
        repair["outputSchema"]["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    assert_eq!(members, required.iter().collect::<Vec<_>>());
    let properties: Vec<&String> = repair["outputSchema"]["properties"].as_object().unwrap().keys().collect();
    assert_eq!(members, properties);
    let fix = &repair["outputSchema"]["properties"]["applied"]["items"];
    let applicabilities: Vec<&str> = momentum_plan::Applicability::ALL.iter().map(|a| a.as_str()).collect();
    assert_eq!(fix["properties"]["applicability"]["enum"], json!(applicabilities));
    let codes: Vec<Value> = momentum_plan::IssueCode::ALL.iter().map(|c| json!(c.as_str())).collect();
    assert_eq!(fix["properties"]["code"]["enum"], json!(codes));
    assert_eq!(repair["outputSchema"]["properties"]["offered"]["items"], *fix);
    assert_eq!(
        repair["outputSchema"]["properties"]["verdict"], tools[1]["outputSchema"],
        "the embedded verdict is validate_plan's"
    );
    assert_eq!(
        repair["outputSchema"]["properties"]["stopped"]["enum"],
        json!(momentum_plan::Stop::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>())
    );
    assert_eq!(repair["inputSchema"]["properties"]["unsafe"]["default"], false);
    assert_eq!(schema["inputSchema"]["properties"]["variant"]["default"], "validation");
    // The 2026-07-28 catalog carries the same entries.
    let modern_tools = h.result(&modern(2, "tools/list", json!({}), json!({})))["tools"].clone();
    assert_eq!(modern_tools, tools);
    // Below 2025-06-18: no title, no outputSchema, and the result is the text block alone.
    h.initialize("2025-03-26", json!({}));
    let old = h.result(&req(3, "tools/list", json!({})))["tools"].clone();
    assert!(old[2].get("outputSchema").is_none() && old[3].get("title").is_none());
    let r = h.result(&req(4, "tools/call", call("repair_plan", json!({"plan": plan, "request": request}))));
    assert!(r.get("structuredContent").is_none(), "{r}");
    assert_eq!(text(&r), bytes);
}

#[test]
fn instructions_and_prompt_say_validate_repair_fix() {
    for store in [false, true] {
        let mut h = if store { Harness::with_store() } else { Harness::read_only() };
        let init = h.initialize("2025-11-25", json!({}));
        let discover = h.result(&modern(1, "server/discover", json!({}), json!({})));
        assert_eq!(init["instructions"], discover["instructions"]);
        let instructions = init["instructions"].as_str().unwrap();
        let (v, r) = (instructions.find("validate_plan").unwrap(), instructions.find("call repair_plan").unwrap());
        assert!(v < r, "validate, then repair: {instructions}");
        assert!(instructions.contains("get_plan_schema"), "{instructions}");
        let p = h.result(&req(2, "prompts/get", json!({"name": "draft_plan", "arguments": {"request_json": "{}"}})));
        let t = p["messages"][0]["content"]["text"].as_str().unwrap();
        for w in ["get_plan_schema", "call repair_plan", "safe fixes", "Fix every error", "requestAtFault"] {
            assert!(t.contains(w), "{w}: {t}");
        }
        assert_eq!(t.contains("save_plan"), store, "{t}");
    }
}

#[test]
fn repair_plan_takes_text_plans_and_says_when_the_request_is_at_fault() {
    let (plan, request) = broken();
    let mut h = Harness::read_only();
    // Plan text: the core reads it as text (its formatting kept where nothing changed).
    let pretty = serde_json::to_string_pretty(&plan).unwrap();
    for given in [json!(pretty), json!(plan.to_string())] {
        let expected = core_repair(&given, &request, false);
        let r = h.result(&req(1, "tools/call", call("repair_plan", json!({"plan": given, "request": request}))));
        assert_eq!(text(&r), expected);
        assert_eq!(r["structuredContent"].to_string(), expected);
    }
    // A time written 6:45: the safe fix is applied, and the verdict inside is the repaired plan's.
    let (calm_plan, calm_request) = calm();
    let mut fixable = calm_plan.clone();
    fixable["routine"]["blocks"][0]["start"] = json!("6:45");
    let r = h.result(&req(2, "tools/call", call("repair_plan", json!({"plan": fixable, "request": calm_request}))));
    let s = &r["structuredContent"];
    assert!(!s["applied"].as_array().unwrap().is_empty(), "{s}");
    let repaired = momentum_plan::parse_json(s["plan"].as_str().unwrap()).unwrap();
    assert_eq!(repaired, calm_plan, "{s}");
    assert_eq!(s["verdict"].to_string(), momentum_plan::validate(&repaired, &calm_request).to_json());
    // In 2026-07-28 the same bytes, stamped as every complete result, with no caching hints.
    let m = modern(7, "tools/call", call("repair_plan", json!({"plan": fixable, "request": calm_request})), json!({}));
    let r = h.result(&m);
    assert_modern_complete(&r);
    assert!(r.get("ttlMs").is_none() && r.get("cacheScope").is_none(), "{r}");
    assert_eq!(text(&r), core_repair(&fixable, &calm_request, false));
    let m = modern(8, "tools/call", call("get_plan_schema", json!({"request": calm_request})), json!({}));
    let r = h.result(&m);
    assert_modern_complete(&r);
    assert_eq!(r["structuredContent"], momentum_plan::plan_schema(&calm_request, SchemaVariant::Validation).unwrap());
    // A request no plan can satisfy: a normal result whose requestAtFault says why.
    for bad in [json!({"requestId": "r", "kind": "weekly"}), json!({})] {
        let expected = core_repair(&plan, &bad, false);
        let r = h.result(&req(3, "tools/call", call("repair_plan", json!({"plan": plan, "request": bad}))));
        assert_eq!(r["isError"], false, "{r}");
        assert_eq!(text(&r), expected);
        assert!(!r["structuredContent"]["requestAtFault"].as_array().unwrap().is_empty(), "{r}");
        // get_plan_schema: a tool error whose text is SchemaError's.
        let e = momentum_plan::plan_schema(&bad, SchemaVariant::Validation).unwrap_err().to_string();
        for m in [
            req(4, "tools/call", call("get_plan_schema", json!({"request": bad}))),
            modern(5, "tools/call", call("get_plan_schema", json!({"request": bad, "variant": "strict"})), json!({})),
        ] {
            let r = h.result(&m);
            assert_eq!(r["isError"], true, "{r}");
            assert!(r.get("structuredContent").is_none());
            assert_eq!(text(&r), e);
        }
    }
}

#[test]
fn arguments_that_do_not_fit_are_tool_errors_naming_the_argument() {
    let (plan, request) = calm();
    let long = "v".repeat(1_000);
    let cases = [
        ("repair_plan", json!({"request": request}), vec!["`plan` is missing"]),
        ("repair_plan", json!({"plan": plan}), vec!["`request` is missing"]),
        (
            "repair_plan",
            json!({"plan": plan, "request": request, "unsafe": "yes"}),
            vec!["`unsafe` must be a boolean", "a string"],
        ),
        (
            "repair_plan",
            json!({"plan": plan, "request": request, "unsafe": 1}),
            vec!["`unsafe` must be a boolean", "a number"],
        ),
        (
            "repair_plan",
            json!({"plan": plan, "request": request, "unsafe": null}),
            vec!["`unsafe` must be a boolean", "null"],
        ),
        ("repair_plan", json!({"plan": plan, "request": "{}"}), vec!["`request` must be a JSON object", "a string"]),
        (
            "repair_plan",
            json!({"plan": plan, "request": [request]}),
            vec!["`request` must be a JSON object", "an array"],
        ),
        (
            "repair_plan",
            json!({"plan": 7, "request": request, "unsafe": "no"}),
            vec!["`plan` must be", "a number", "`unsafe`"],
        ),
        (
            "repair_plan",
            json!({"plan": plan, "request": request, "variant": "strict"}),
            vec!["unexpected argument `variant`", "`unsafe`"],
        ),
        ("get_plan_schema", json!({}), vec!["`request` is missing"]),
        ("get_plan_schema", json!({"request": 5}), vec!["`request` must be a JSON object", "a number"]),
        (
            "get_plan_schema",
            json!({"request": "{\"kind\":\"routine\"}"}),
            vec!["`request` must be a JSON object", "a string"],
        ),
        (
            "get_plan_schema",
            json!({"request": request, "variant": "loose"}),
            vec!["`variant`", "unknown schema variant \"loose\"", "\"validation\" or \"strict\""],
        ),
        (
            "get_plan_schema",
            json!({"request": request, "variant": "Strict"}),
            vec!["unknown schema variant \"Strict\""],
        ),
        ("get_plan_schema", json!({"request": request, "variant": 2}), vec!["`variant` must be a string", "a number"]),
        ("get_plan_schema", json!({"request": request, "variant": long}), vec!["`variant`", "unknown schema variant"]),
        (
            "get_plan_schema",
            json!({"request": [], "variant": null}),
            vec!["`request`", "an array", "`variant`", "null"],
        ),
        (
            "get_plan_schema",
            json!({"request": request, "plan": plan}),
            vec!["unexpected argument `plan`", "`request` and `variant`"],
        ),
    ];
    let mut h = Harness::read_only();
    for (n, (tool, args, words)) in cases.iter().enumerate() {
        for message in [
            req(n, "tools/call", call(tool, args.clone())),
            modern(n, "tools/call", call(tool, args.clone()), json!({})),
        ] {
            let r = h.result(&message);
            assert_eq!(r["isError"], true, "{tool} {args}");
            assert!(r.get("structuredContent").is_none(), "a tool error carries text only");
            let t = text(&r);
            assert!(t.starts_with(&format!("Invalid arguments for {tool}: ")), "{t}");
            assert!(t.len() < 600, "the message stays short: {t}");
            for w in words {
                assert!(t.contains(w), "{tool} {args}: {t:?} lacks {w:?}");
            }
        }
    }
    // Absent arguments read as {}.
    for (tool, word) in [("repair_plan", "`plan` is missing"), ("get_plan_schema", "`request` is missing")] {
        let r = h.result(&req(1, "tools/call", json!({"name": tool})));
        assert_eq!(r["isError"], true);
        assert!(text(&r).contains(word), "{r}");
    }
}

#[test]
fn deep_and_huge_plans_are_answered_and_never_panic() {
    let (calm_plan, request) = calm();
    let mut h = Harness::read_only();
    // Deep objects: within the line's depth limit the core decides (its own depth limit is 512);
    // beyond it the line is refused as any line is.
    for depth in [100usize, 511, 512, 513, 515] {
        let mut plan = json!(1);
        for _ in 0..depth {
            plan = json!({ "a": plan });
        }
        let expected = core_repair(&plan, &request, true);
        let r = h.result(&req(
            1,
            "tools/call",
            call("repair_plan", json!({"plan": plan, "request": request, "unsafe": true})),
        ));
        assert_eq!(text(&r), expected, "depth {depth}");
    }
    let deep = format!("{}{}", "[".repeat(600), "]".repeat(600));
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"repair_plan","arguments":{{"plan":{deep},"request":{request}}}}}}}"#
    );
    let out = h.send(&line);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["error"]["code"], -32700, "{}", out[0]);
    // Deep and huge plan *text*: the core's json verdict, or the tool error for too many values.
    for given in [
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        format!("{{\"a\":{}}}", "{\"a\":".repeat(600) + "1" + &"}".repeat(600)),
        "{\"a\":".repeat(3),
    ] {
        let expected = core_repair(&json!(given), &request, false);
        let r = h.result(&req(3, "tools/call", call("repair_plan", json!({"plan": given, "request": request}))));
        assert_eq!(r["isError"], false);
        assert_eq!(text(&r), expected);
    }
    let too_many = format!("[{}0]", "0,".repeat(300_000));
    let r = h.result(&req(4, "tools/call", call("repair_plan", json!({"plan": too_many, "request": request}))));
    assert_eq!(r["isError"], true);
    assert!(text(&r).contains("more than 262144 JSON values"), "{r}");
    // A plan over the payload limit (its blocks well written), and one with a safe fix in each of
    // 150 blocks: the core's answers. (The core's repair loop costs about the cube of the number
    // of fixes: 1,000 fixable blocks take seconds, so the sample stays small.)
    let good = json!({"start": "07:00", "durationMin": 30, "activity": "Walk", "category": "body", "essential": false});
    let fixable =
        json!({"start": "7:00", "durationMin": 30.0, "activity": "Walk", "category": "Body", "essential": false});
    for (block, count, over) in [(good, 4_000, true), (fixable, 150, false)] {
        let mut plan = calm_plan.clone();
        plan["routine"]["blocks"] = Value::Array(vec![block; count]);
        let text_len = plan.to_string().len();
        assert_eq!(text_len > momentum_plan::LIMITS.payload_bytes as usize, over, "{text_len}");
        let expected = core_repair(&plan, &request, false);
        let started = std::time::Instant::now();
        let r = h.result(&req(5, "tools/call", call("repair_plan", json!({"plan": plan, "request": request}))));
        eprintln!("repair_plan of a {text_len}-byte plan ({count} blocks): {:?}", started.elapsed());
        assert_eq!(text(&r), expected);
    }
    // get_plan_schema with a deep or huge request: the core's answer (a request at fault).
    let mut deep_request = request.clone();
    deep_request["notes"] = momentum_plan::parse_json(&format!("{}{}", "[".repeat(500), "]".repeat(500))).unwrap();
    let mut big_request = request.clone();
    big_request["notes"] = json!("x".repeat(1_000_000));
    for bad in [deep_request, big_request] {
        let r = h.result(&req(6, "tools/call", call("get_plan_schema", json!({"request": bad}))));
        match momentum_plan::plan_schema(&bad, SchemaVariant::Validation) {
            Ok(s) => assert_eq!(text(&r), s.to_string()),
            Err(e) => assert_eq!((r["isError"].clone(), text(&r)), (json!(true), e.to_string())),
        }
    }
}
