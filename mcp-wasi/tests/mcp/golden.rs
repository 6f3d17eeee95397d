//! Goldens of the texts the model and the user read from the server (issue 29): `tools/list`,
//! the instructions, the prompt and the resource template, every refusal (a tool error, a
//! `notSaved` reason, a `-32602` a tool call or prompt gets) and every overwrite question
//! (elicitation), each the whole result or message as this server sends it, in
//! `mcp-wasi/tests/golden/<name>.json`. Blessed as the core's goldens are, with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --release -p momentum-plan-mcp --test mcp golden
//! ```
//!
//! and reviewed as a diff (`momentum_plan_testkit::golden`: a changed text, a missing golden and
//! a golden no case names any more each fail). The plans and requests are the bundled examples
//! and the shared vectors, read at test time. Classic-era cases run at 2025-11-25 (2025-06-18
//! for its question without `mode`); 2026-07-28 results are pinned without their `_meta` stamps
//! (the server's name and version, pinned by the era tests).

use crate::common::*;
use crate::http::Call;
use crate::save::{CALM_ID, save_params, with_existing};
use crate::store_errors::{Fail, harness};
use momentum_plan::SchemaVariant;
use momentum_plan_mcp::http::HttpConfig;
use momentum_plan_testkit::golden;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The classic revision most cases run at.
const CLASSIC: &str = "2025-11-25";

/// A client that declares form elicitation.
fn asks() -> Value {
    json!({"elicitation": {"form": {}}})
}

/// A harness with a store, initialized at `version` with `capabilities`.
fn initialized(mut h: Harness, version: &str, capabilities: Value) -> Harness {
    h.initialize(version, capabilities);
    h
}

/// The result of `tools/call` of `tool` with `arguments`, classic era, on a fresh server with a
/// store.
fn tool_result(tool: &str, arguments: Value) -> Value {
    let mut h = initialized(Harness::with_store(), CLASSIC, json!({}));
    h.result(&req(1, "tools/call", call(tool, arguments)))
}

/// A 2026-07-28 response with its result's `_meta` stamps taken out.
fn unstamped(mut response: Value) -> Value {
    if let Some(o) = response.get_mut("result").and_then(Value::as_object_mut) {
        o.remove("_meta");
    }
    response
}

/// The overwrite question a classic save of an existing plan sends at `version`.
fn classic_question(version: &str) -> Value {
    let mut h = initialized(with_existing("old"), version, asks());
    let out = h.send_value(&req("save", "tools/call", save_params()));
    assert_eq!(out.len(), 1, "one question and no response: {out:?}");
    out[0].clone()
}

/// The result a classic save of an existing plan gets once the client answers its question with
/// `answer` (`{"result": ...}` or `{"error": ...}`).
fn answered(answer: Value) -> Value {
    let mut h = initialized(with_existing("old"), CLASSIC, asks());
    let question = h.send_value(&req("save", "tools/call", save_params())).remove(0);
    let mut message = answer;
    message["jsonrpc"] = json!("2.0");
    message["id"] = question["id"].clone();
    let response = h.one(&message);
    assert_eq!(response["id"], "save", "{response}");
    response["result"].clone()
}

/// The result a classic Streamable HTTP client (a 2025-11-25 header) gets for a save of an
/// existing plan: it cannot be asked over stateless HTTP, so the plan is left (`notSaved`).
fn classic_http_save() -> Value {
    let h = with_existing("old");
    Call::post(&req(1, "tools/call", save_params()))
        .header("MCP-Protocol-Version", CLASSIC)
        .send(Some(h.dir()), &HttpConfig::default())
        .result()
}

/// A 2026-07-28 save of an existing plan with `inputResponses` (none: the first call).
fn modern_save(capabilities: Value, input_responses: Option<Value>) -> Value {
    let mut h = with_existing("old");
    let mut message = modern(1, "tools/call", save_params(), capabilities);
    if let Some(responses) = input_responses {
        message["params"]["inputResponses"] = responses;
    }
    unstamped(h.one(&message))
}

/// The calm example's request without a `requestId`, and its plan without one either (valid).
fn calm_without_id() -> (Value, Value) {
    let (mut plan, mut request) = calm();
    for o in [&mut plan, &mut request] {
        o.as_object_mut().expect("an object").remove("requestId");
    }
    plan["request"] = request.clone();
    (plan, request)
}

/// The first shared vector's request for which no plan schema can be made (no plan can satisfy
/// it): its `get_plan_schema` refusal.
fn request_no_plan_satisfies() -> Value {
    momentum_plan_testkit::vectors()
        .into_iter()
        .map(|v| v["request"].clone())
        .find(|r| r.is_object() && momentum_plan::plan_schema(r, SchemaVariant::Validation).is_err())
        .expect("a shared vector's request no plan can satisfy")
}

/// Every case: its name and what the server sent.
#[allow(clippy::too_many_lines)] // one list of cases
fn cases() -> BTreeMap<&'static str, Value> {
    let (plan, request) = calm();
    let (broken_plan, broken_request) = broken();
    let mut cases = BTreeMap::new();

    // The catalog: what the model reads before any call.
    let mut h = Harness::with_store();
    let store = h.initialize(CLASSIC, json!({}));
    let mut read_only = Harness::read_only();
    let no_store = read_only.initialize(CLASSIC, json!({}));
    cases.insert("instructions", json!({"store": store["instructions"], "readOnly": no_store["instructions"]}));
    cases.insert("tools-list", h.result(&req(1, "tools/list", json!({}))));
    cases.insert("tools-list-read-only", read_only.result(&req(1, "tools/list", json!({}))));
    cases.insert("resources-templates-list", h.result(&req(2, "resources/templates/list", json!({}))));
    cases.insert("prompts-list", h.result(&req(3, "prompts/list", json!({}))));
    let get = json!({"name": "draft_plan", "arguments": {"request_json": "{\"requestId\":\"r\"}"}});
    cases.insert(
        "prompts-get",
        json!({"store": h.result(&req(4, "prompts/get", get.clone())), "readOnly": read_only.result(&req(4, "prompts/get", get))}),
    );

    // Tool errors: the arguments do not fit, or the tool refuses.
    cases.insert("refusal-contract-arguments", tool_result("get_plan_contract", json!({"x": 1})));
    cases.insert("refusal-plan-arguments-missing", tool_result("validate_plan", json!({})));
    cases.insert("refusal-plan-arguments-types", tool_result("validate_plan", json!({"plan": 5, "request": []})));
    cases.insert(
        "refusal-plan-arguments-unexpected",
        tool_result("validate_plan", json!({"plan": plan, "request": request, "extra": 1, "more": 2})),
    );
    cases.insert(
        "refusal-repair-arguments",
        tool_result("repair_plan", json!({"plan": plan, "request": request, "unsafe": "yes", "extra": 1})),
    );
    cases.insert(
        "refusal-schema-arguments",
        tool_result("get_plan_schema", json!({"request": 5, "variant": 7, "extra": 1})),
    );
    cases.insert(
        "refusal-schema-variant",
        tool_result("get_plan_schema", json!({"request": request, "variant": "loose"})),
    );
    cases.insert(
        "refusal-schema-request-at-fault",
        tool_result("get_plan_schema", json!({"request": request_no_plan_satisfies()})),
    );
    // The calendar tools (issue 32): arguments that do not fit, an invalid plan (its verdict),
    // a request without a start date, a file that cannot be read (the crate's words, its line).
    cases.insert(
        "refusal-export-arguments",
        tool_result("export_calendar", json!({"plan": 5, "request": request, "dtstamp": true, "at": "now"})),
    );
    cases.insert(
        "refusal-export-invalid",
        tool_result(
            "export_calendar",
            json!({"plan": broken_plan, "request": broken_request, "dtstamp": "20261207T120000Z"}),
        ),
    );
    let (mut no_start_plan, mut no_start) = (plan.clone(), request.clone());
    no_start.as_object_mut().expect("an object").remove("startDate");
    no_start_plan["request"] = no_start.clone();
    cases.insert(
        "refusal-export-no-start-date",
        tool_result(
            "export_calendar",
            json!({"plan": no_start_plan, "request": no_start, "dtstamp": "20261207T120000Z"}),
        ),
    );
    cases.insert("refusal-import-arguments", tool_result("import_commitments", json!({"calendar": [], "timezone": 1})));
    cases.insert(
        "refusal-import-malformed",
        tool_result(
            "import_commitments",
            json!({"calendar": "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", "startDate": "2026-10-05", "timezone": "Europe/Zurich"}),
        ),
    );
    cases.insert(
        "refusal-save-invalid",
        tool_result("save_plan", json!({"plan": broken_plan, "request": broken_request})),
    );
    let (unsafe_plan, unsafe_request) = calm_with_id("../x");
    cases.insert(
        "refusal-save-unsafe-id",
        tool_result("save_plan", json!({"plan": unsafe_plan, "request": unsafe_request})),
    );
    let (no_id_plan, no_id_request) = calm_without_id();
    cases.insert("refusal-save-no-id", tool_result("save_plan", json!({"plan": no_id_plan, "request": no_id_request})));
    for (name, fail) in
        [("refusal-save-store-unreadable", Fail::Exists), ("refusal-save-store-unwritable", Fail::Write)]
    {
        let mut h = harness(fail);
        cases.insert(name, h.result(&req(1, "tools/call", save_params())));
    }

    // The plan left as it was: the `notSaved` reasons.
    cases.insert("not-saved-declined", answered(json!({"result": {"action": "decline"}})));
    cases.insert("not-saved-cancelled", answered(json!({"result": {"action": "cancel"}})));
    cases.insert("not-saved-kept", answered(json!({"result": {"action": "accept", "content": {"overwrite": false}}})));
    cases.insert("not-saved-unconfirmed", answered(json!({"result": {"action": "accept", "content": {}}})));
    cases.insert("not-saved-unreadable-answer", answered(json!({"result": {"action": "maybe"}})));
    cases.insert("not-saved-error-answer", answered(json!({"error": {"code": -32601, "message": "Method not found"}})));
    let mut h = initialized(with_existing("old"), CLASSIC, json!({}));
    cases.insert("not-saved-no-elicitation", h.result(&req(1, "tools/call", save_params())));
    let mut h = initialized(with_existing("old"), CLASSIC, asks());
    for i in 0..momentum_plan_mcp::MAX_PENDING_QUESTIONS {
        h.send_value(&req(i, "tools/call", save_params()));
    }
    cases.insert("not-saved-questions-waiting", h.result(&req("over", "tools/call", save_params())));
    cases.insert("not-saved-classic-http", classic_http_save());
    cases.insert("not-saved-modern-no-elicitation", modern_save(json!({}), None));
    cases.insert("not-saved-modern-declined", modern_save(asks(), Some(json!({"overwrite": {"action": "decline"}}))));
    cases.insert("refusal-modern-answer-unreadable", modern_save(asks(), Some(json!({"overwrite": 5}))));

    // The overwrite question, in each era.
    cases.insert("elicitation-2025-06-18", classic_question("2025-06-18"));
    cases.insert("elicitation-2025-11-25", classic_question(CLASSIC));
    cases.insert("elicitation-2026-07-28", modern_save(asks(), None));

    // The JSON-RPC errors a call or a prompt gets.
    let mut h = initialized(Harness::read_only(), CLASSIC, json!({}));
    let errors = json!({
        "unknownTool": h.error(&req(1, "tools/call", call("save_plan", json!({})))),
        "unknownPrompt": h.error(&req(2, "prompts/get", json!({"name": "other"}))),
        "promptWithoutName": h.error(&req(3, "prompts/get", json!({}))),
        "promptArgumentMissing": h.error(&req(4, "prompts/get", json!({"name": "draft_plan"}))),
        "promptArgumentNotString": h.error(&req(5, "prompts/get", json!({"name": "draft_plan", "arguments": {"request_json": 5}}))),
        "resourceNotFound": initialized(Harness::with_store(), CLASSIC, json!({}))
            .error(&req(6, "resources/read", json!({"uri": format!("plan://{CALM_ID}")}))),
    });
    cases.insert("refusal-rpc-errors", errors);
    cases
}

#[test]
fn every_text_the_model_reads_from_the_server_has_its_golden() {
    let goldens: BTreeMap<String, String> =
        cases().into_iter().map(|(name, value)| (name.to_owned(), golden::pretty(&value))).collect();
    golden::check(&root().join("mcp-wasi/tests/golden"), &goldens, "what the server sends");
}
