//! `save_plan` (mcp-server.md "Catalog", `save_plan`; "Streamable HTTP", "Elicitation"):
//! validate again, take the id from `requestId`, write atomically, and ask before replacing a
//! saved plan (a classic `elicitation/create` sent on the stream, or a 2026-07-28
//! `input_required` round trip).

use super::eras::{Ctx, result_meta};
use super::resources::plan_uri;
use super::tools::{CallError, ToolError, ToolResult, plan_arguments, render};
use super::{Server, Transport};
use crate::arguments::ObjectArguments;
use crate::catalog::{SAVE_PLAN, catalog as texts, fill};
use crate::model::{
    ElicitAction, ElicitParams, ElicitResult, InputRequest, InputRequiredResult, OverwriteInputRequests, Version,
};
use crate::rpc::{self, RpcError};
use crate::store;
use momentum_plan::{Issue, IssueCode, validate};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// Most overwrite questions (`elicitation/create`) waiting for an answer at once; a save that
/// would ask one more leaves the saved plan as it is and says why.
pub const MAX_PENDING_QUESTIONS: usize = 16;

/// A `save_plan` call waiting for the answer to its `elicitation/create`.
#[derive(Debug)]
pub(super) struct PendingSave {
    question_id: u64,
    call_id: Value,
    version: Version,
    plan_id: String,
    bytes: Vec<u8>,
    warnings: Vec<Issue>,
}

/// The result of `save_plan`: `{saved, planId, uri, warnings}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SaveResult {
    saved: bool,
    plan_id: String,
    uri: String,
    warnings: Vec<Issue>,
}

/// Where a `save_plan` call stands once served.
#[derive(Debug)]
pub(super) enum SaveStep {
    /// Its result: saved, or left as it was with the `notSaved` warning saying why.
    Done(ToolResult<SaveResult>),
    /// 2026-07-28: the overwrite question, as the call's `input_required` result.
    InputRequired(InputRequiredResult),
    /// Classic: the overwrite question was sent; its answer completes the call ([`Server::answer`]).
    Asked,
}

/// A valid plan ready to be written: its id, its bytes (pretty JSON and `\n`) and the
/// verdict's warnings.
struct Prepared {
    plan_id: String,
    bytes: Vec<u8>,
    warnings: Vec<Issue>,
}

impl Server {
    /// `save_plan` with its `arguments` (`plan` and `request`, as for `validate_plan`, read
    /// from the text `kept` holds when the line gave them as objects): validate, check the id,
    /// then write, or ask first when the id is saved. Arguments that do not fit and refusals
    /// are a [`ToolError`]; an `inputResponses.overwrite` that is not an elicitation result is
    /// `-32602`.
    pub(super) fn save_plan(
        &mut self,
        ctx: Ctx,
        id: &Value,
        kept: ObjectArguments,
        arguments: Map<String, Value>,
        input_responses: Option<Map<String, Value>>,
        sent: &mut Vec<String>,
    ) -> Result<SaveStep, CallError> {
        let (plan, request, _) = plan_arguments(SAVE_PLAN, arguments, &[])?;
        let (plan, request) = kept.values(plan, request);
        let Prepared { plan_id, bytes, warnings } = prepare(&plan, &request)?;
        let Some(store) = self.store.as_ref() else {
            return Err(RpcError::invalid_params(format!("Unknown tool: {SAVE_PLAN}")).into());
        };
        let exists = store
            .exists(&store::file_name(&plan_id))
            .map_err(|e| ToolError(fill(&texts().refusals.store_unreadable, &[("error", &e.to_string())])))?;
        let uri = plan_uri(&plan_id);
        let refusal = if !exists {
            None
        } else if ctx.modern() {
            if let Some(mut responses) = input_responses
                && let Some(answer) = responses.remove("overwrite")
            {
                let answer = serde_json::from_value::<ElicitResult>(answer).map_err(|_| {
                    RpcError::invalid_params(
                        "Invalid params: inputResponses.overwrite must be an elicitation result {action, content}",
                    )
                })?;
                refusal_of(&answer, &uri)
            } else if ctx.elicitation {
                return Ok(SaveStep::InputRequired(InputRequiredResult {
                    result_type: "input_required",
                    input_requests: OverwriteInputRequests {
                        overwrite: InputRequest {
                            method: "elicitation/create",
                            params: overwrite_question(ctx.version, &plan_id),
                        },
                    },
                    meta: result_meta(ctx),
                }));
            } else {
                Some(no_capability(&uri))
            }
        } else if self.transport == Transport::Http {
            Some(classic_http_cannot_ask(&uri))
        } else if !ctx.elicitation {
            Some(no_capability(&uri))
        } else if self.pending.len() >= MAX_PENDING_QUESTIONS {
            Some(fill(
                &texts().not_saved.too_many_questions,
                &[("uri", &uri), ("count", &self.pending.len().to_string())],
            ))
        } else {
            self.next_question_id += 1;
            let question_id = self.next_question_id;
            sent.push(rpc::request_line(question_id, "elicitation/create", &overwrite_question(ctx.version, &plan_id)));
            self.pending.push(PendingSave {
                question_id,
                call_id: id.clone(),
                version: ctx.version,
                plan_id,
                bytes,
                warnings,
            });
            return Ok(SaveStep::Asked);
        };
        Ok(SaveStep::Done(self.finish_save(plan_id, &bytes, warnings, refusal)?))
    }

    /// A response from the client: completes the save waiting for it, if any (its result line).
    pub(super) fn answer(&mut self, id: &Value, outcome: Result<Value, Value>) -> Option<String> {
        let question_id = id.as_u64()?;
        let at = self.pending.iter().position(|s| s.question_id == question_id)?;
        let pending = self.pending.remove(at);
        let uri = plan_uri(&pending.plan_id);
        let refusal = match outcome {
            Err(error) => {
                let code = error.get("code").map(Value::to_string).unwrap_or_default();
                let message = error.get("message").and_then(Value::as_str).unwrap_or("no message");
                Some(fill(&texts().not_saved.ask_failed, &[("uri", &uri), ("code", &code), ("message", message)]))
            }
            Ok(result) => match serde_json::from_value::<ElicitResult>(result) {
                Ok(answer) => refusal_of(&answer, &uri),
                Err(_) => Some(fill(&texts().not_saved.answer_unreadable, &[("uri", &uri)])),
            },
        };
        let ctx = Ctx { version: pending.version, elicitation: true, apps: false };
        let outcome = self.finish_save(pending.plan_id, &pending.bytes, pending.warnings, refusal);
        Some(render(ctx, &pending.call_id, outcome))
    }

    /// `notifications/cancelled` for a save waiting for its answer: drops it (it gets no
    /// response, and the plan is left as it was).
    pub(super) fn cancel_save(&mut self, call_id: &Value) {
        self.pending.retain(|s| s.call_id != *call_id);
    }

    /// Writes the plan (when `refusal` is `None`) and returns the `save_plan` result;
    /// otherwise leaves the saved plan and adds the `notSaved` warning with the reason. A
    /// failed write is a tool error.
    fn finish_save(
        &mut self,
        plan_id: String,
        bytes: &[u8],
        mut warnings: Vec<Issue>,
        refusal: Option<String>,
    ) -> Result<ToolResult<SaveResult>, ToolError> {
        let saved = match refusal {
            None => {
                let written = match self.store.as_mut() {
                    Some(store) => store.write_atomic(&store::file_name(&plan_id), bytes),
                    None => Err(std::io::Error::other("the server has no plan store")),
                };
                written
                    .map_err(|e| ToolError(fill(&texts().refusals.store_unwritable, &[("error", &e.to_string())])))?;
                true
            }
            Some(reason) => {
                warnings.push(Issue::new(IssueCode::NotSaved, "$", reason));
                false
            }
        };
        let uri = plan_uri(&plan_id);
        Ok(ToolResult::json(SaveResult { saved, plan_id, uri, warnings }))
    }
}

/// Validates the plan again and prepares it for the store, or the tool error refusing it: an
/// invalid plan (`Plan not saved.` and ` | <path>: <message>` per error), text that cannot be
/// read, a `requestId` that is not a safe id, or a plan that cannot be written as JSON.
fn prepare(plan: &Value, request: &Value) -> Result<Prepared, ToolError> {
    let verdict = validate(plan, request);
    if !verdict.valid {
        let refusals = &texts().refusals;
        let mut text = refusals.plan_invalid.clone();
        for e in &verdict.errors {
            text.push_str(&fill(&refusals.plan_invalid_error, &[("path", &e.path), ("message", &e.message)]));
        }
        return Err(ToolError(text));
    }
    // A valid plan is an object, or text that the strict reader parses into one.
    let parsed;
    let object = match plan {
        Value::String(text) => {
            parsed = momentum_plan::parse_json(text)
                .map_err(|e| ToolError(fill(&texts().refusals.plan_unreadable, &[("error", &e.to_string())])))?;
            &parsed
        }
        other => other,
    };
    let request_id = object.get("requestId");
    let plan_id = match request_id.and_then(Value::as_str) {
        Some(s) if store::is_safe_id(s) => s.to_owned(),
        _ => {
            let shown = request_id.map_or_else(|| "(none)".to_owned(), Value::to_string);
            return Err(ToolError(fill(&texts().refusals.plan_id_unsafe, &[("id", &shown)])));
        }
    };
    let mut bytes = serde_json::to_vec_pretty(object)
        .map_err(|e| ToolError(fill(&texts().refusals.plan_not_json, &[("error", &e.to_string())])))?;
    bytes.push(b'\n');
    Ok(Prepared { plan_id, bytes, warnings: verdict.warnings })
}

/// The overwrite question (form mode, one required boolean `overwrite`; `mode` from 2025-11-25).
fn overwrite_question(version: Version, plan_id: &str) -> ElicitParams {
    let question = &texts().overwrite_question;
    let uri = plan_uri(plan_id);
    ElicitParams {
        mode: (version >= Version::V2025_11_25).then_some("form"),
        message: fill(&question.message, &[("id", plan_id)]),
        requested_schema: json!({
            "type": "object",
            "properties": {
                "overwrite": {
                    "type": "boolean",
                    "title": question.title,
                    "description": fill(&question.description, &[("uri", &uri)]),
                    "default": false
                }
            },
            "required": ["overwrite"]
        }),
    }
}

/// `None` when the answer confirms replacing the plan, else why it was left unchanged.
fn refusal_of(answer: &ElicitResult, uri: &str) -> Option<String> {
    let not_saved = &texts().not_saved;
    let template = match answer.action {
        ElicitAction::Accept => match answer.content.as_ref().and_then(|c| c.get("overwrite")) {
            Some(Value::Bool(true)) => return None,
            Some(Value::Bool(false)) => &not_saved.kept,
            _ => &not_saved.not_confirmed,
        },
        ElicitAction::Decline => &not_saved.declined,
        ElicitAction::Cancel => &not_saved.cancelled,
    };
    Some(fill(template, &[("uri", uri)]))
}

/// Why a classic-era HTTP client's save left the saved plan (no stream to ask on).
fn classic_http_cannot_ask(uri: &str) -> String {
    fill(&texts().not_saved.classic_http, &[("uri", uri)])
}

/// Why a save left the saved plan when the client did not declare form elicitation.
fn no_capability(uri: &str) -> String {
    fill(&texts().not_saved.no_capability, &[("uri", uri)])
}
