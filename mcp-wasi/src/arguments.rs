//! Reading a message whose `tools/call` carries a plan (mcp-server.md "Tools", validator.md §5):
//! the `plan` and `request` arguments of `validate_plan` and `save_plan`, when they are JSON
//! objects, are kept as the JSON text they have in the message instead of being built as
//! `serde_json::Value`s, so the core reads each of them once, straight into its own tree
//! ([`momentum_plan::validate_value_text`]).
//!
//! The answer never changes: [`read_message`] gives the same [`Value`] as [`rpc::parse_line`]
//! except that each kept argument is an empty object in it (a placeholder of the right type, at
//! the argument's position), and [`ObjectArguments::verdict`] gives the verdict
//! [`momentum_plan::validate`] gives for the parsed values. Anything this reader does not take
//! on (a line that is not one object of objects down to `arguments`, another method or tool,
//! a `\u` escape `serde_json` would refuse, a duplicate name it cannot settle) is read by
//! [`rpc::parse_line`] itself, with its answers and errors.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::catalog::{SAVE_PLAN, VALIDATE_PLAN};
use crate::rpc::{self, RpcError};

/// The `plan` and `request` arguments kept as JSON text (objects only); `None` where the
/// argument is absent, not an object, or in a message that is not a `tools/call` of
/// `validate_plan` or `save_plan`.
#[derive(Debug, Default)]
pub(crate) struct ObjectArguments {
    plan: Option<Box<RawValue>>,
    request: Option<Box<RawValue>>,
}

impl ObjectArguments {
    /// The verdict on `plan` and `request` (the arguments as [`read_message`] left them in the
    /// message: placeholders where the text was kept): exactly `momentum_plan::validate` on the
    /// values the message holds.
    pub(crate) fn verdict(self, plan: Value, request: Value) -> momentum_plan::Verdict {
        if let (Some(p), Some(r)) = (&self.plan, &self.request)
            && let Ok(verdict) = momentum_plan::validate_value_text(p.get(), r.get())
        {
            return verdict;
        }
        let (plan, request) = self.values(plan, request);
        momentum_plan::validate(&plan, &request)
    }

    /// `plan` and `request` with every kept text read back into the value it stands for.
    pub(crate) fn values(self, plan: Value, request: Value) -> (Value, Value) {
        (value_or(self.plan, plan), value_or(self.request, request))
    }

    fn is_empty(&self) -> bool {
        self.plan.is_none() && self.request.is_none()
    }
}

fn value_or(raw: Option<Box<RawValue>>, otherwise: Value) -> Value {
    raw.and_then(|r| read_raw(&r).ok()).unwrap_or(otherwise)
}

/// The kept text read as [`rpc::parse_line`] reads it (the line's limits were checked already).
fn read_raw(raw: &RawValue) -> Result<Value, RpcError> {
    rpc::read_value(raw.get().as_bytes())
}

/// Reads one line as [`rpc::parse_line`] does, keeping the object `plan` and `request` of a
/// `tools/call` to `validate_plan` or `save_plan` as text (see the module doc).
///
/// # Errors
/// Exactly those of [`rpc::parse_line`].
pub(crate) fn read_message(line: &[u8]) -> Result<(Value, ObjectArguments), RpcError> {
    rpc::check_limits(line)?;
    if let Some(read) = std::str::from_utf8(line).ok().and_then(read_fast) {
        return Ok(read);
    }
    rpc::read_value(line).map(|v| (v, ObjectArguments::default()))
}

/// The fast reading, or `None` when the line is for [`rpc::read_value`].
fn read_fast(text: &str) -> Option<(Value, ObjectArguments)> {
    let mut de = serde_json::Deserializer::from_str(text);
    // The depth is bounded by `check_limits`, so the parser's recursion is too.
    de.disable_recursion_limit();
    let (mut message, kept) = Level::Message.deserialize(&mut de).ok()?;
    de.end().ok()?;
    if kept.is_empty() {
        return Some((message, kept));
    }
    let is_plan_call = message.get("method").and_then(Value::as_str) == Some("tools/call")
        && matches!(message.pointer("/params/name").and_then(Value::as_str), Some(VALIDATE_PLAN | SAVE_PLAN));
    if is_plan_call {
        return Some((message, kept));
    }
    // Another method or tool: the arguments go back into the message as values.
    let arguments = message.pointer_mut("/params/arguments")?.as_object_mut()?;
    for (name, raw) in [("plan", kept.plan), ("request", kept.request)] {
        if let Some(raw) = raw {
            *arguments.get_mut(name)? = read_raw(&raw).ok()?;
        }
    }
    Some((message, ObjectArguments::default()))
}

/// Where the reader is: the message object, its `params`, their `arguments`.
#[derive(Clone, Copy)]
enum Level {
    Message,
    Params,
    Arguments,
}

/// Why the fast reading gives up (the line then goes to [`rpc::read_value`]).
const GIVE_UP: &str = "not for the fast reading";

impl<'de> DeserializeSeed<'de> for Level {
    type Value = (Value, ObjectArguments);

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Level {
    type Value = (Value, ObjectArguments);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Map::new();
        let mut kept = ObjectArguments::default();
        while let Some(name) = map.next_key::<String>()? {
            // serde_json hands a number over (arbitrary_precision) as a map with a private name:
            // any name starting like that is left to serde_json itself.
            if name.starts_with("$serde_json::") {
                return Err(de::Error::custom(GIVE_UP));
            }
            let value = match (self, name.as_str()) {
                (Level::Message, "params") | (Level::Params, "arguments") => {
                    let inner = if matches!(self, Level::Message) { Level::Params } else { Level::Arguments };
                    let (value, inner_kept) = map.next_value_seed(inner)?;
                    // A repeated name: the last one counts, as in serde_json's own reading.
                    kept = inner_kept;
                    value
                }
                (Level::Arguments, "plan" | "request") => {
                    let raw: Box<RawValue> = map.next_value()?;
                    let is_plan = name == "plan";
                    let slot = if is_plan { &mut kept.plan } else { &mut kept.request };
                    if raw.get().starts_with('{') {
                        // serde_json's value reader refuses a lone surrogate escape; the raw
                        // reader does not look: check the few texts that have `\u` at all.
                        if raw.get().contains("\\u") && read_raw(&raw).is_err() {
                            return Err(de::Error::custom(GIVE_UP));
                        }
                        *slot = Some(raw);
                        Value::Object(Map::new())
                    } else {
                        *slot = None;
                        read_raw(&raw).map_err(|_| de::Error::custom(GIVE_UP))?
                    }
                }
                _ => map.next_value::<Value>()?,
            };
            members.insert(name, value);
        }
        Ok((Value::Object(members), kept))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message as `parse_line` reads it, and as `read_message` reads it with the kept texts
    /// read back.
    fn both(line: &str) -> (Result<Value, RpcError>, Result<Value, RpcError>) {
        let slow = rpc::parse_line(line.as_bytes());
        let fast = read_message(line.as_bytes()).map(|(mut message, kept)| {
            if let Some(args) = message.pointer_mut("/params/arguments").and_then(Value::as_object_mut) {
                let (plan, request) = kept.values(
                    args.get("plan").cloned().unwrap_or(Value::Null),
                    args.get("request").cloned().unwrap_or(Value::Null),
                );
                for (name, v) in [("plan", plan), ("request", request)] {
                    if let Some(slot) = args.get_mut(name) {
                        *slot = v;
                    }
                }
            }
            message
        });
        (slow, fast)
    }

    fn call(name: &str, arguments: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
        )
    }

    #[test]
    fn keeps_object_arguments_of_plan_tools_only() {
        let line = call(VALIDATE_PLAN, r#"{"plan": {"a": 1,  "b":[1.50, -0]}, "request": {"x":"y"}}"#);
        let (message, kept) = read_message(line.as_bytes()).unwrap();
        assert_eq!(kept.plan.as_ref().map(|r| r.get()), Some(r#"{"a": 1,  "b":[1.50, -0]}"#));
        assert_eq!(kept.request.as_ref().map(|r| r.get()), Some(r#"{"x":"y"}"#));
        assert_eq!(message.pointer("/params/arguments/plan"), Some(&Value::Object(Map::new())));
        // Another tool, another method: nothing kept, the message is parse_line's.
        for line in [
            call("get_plan_contract", r#"{"plan":{"a":1},"request":{}}"#),
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"validate_plan","arguments":{"plan":{"a":1}}}}"#.to_owned(),
        ] {
            let (message, kept) = read_message(line.as_bytes()).unwrap();
            assert!(kept.is_empty(), "{line}");
            assert_eq!(Ok(message), rpc::parse_line(line.as_bytes()), "{line}");
        }
    }

    #[test]
    fn reads_every_message_as_parse_line_does() {
        let lines = [
            call(VALIDATE_PLAN, r#"{"plan":{"a":1},"request":{}}"#),
            call(SAVE_PLAN, r#"{"plan":"{\"a\":1}","request":{"r":[]}}"#),
            // Repeated names: the last value, at the first position.
            call(VALIDATE_PLAN, r#"{"plan":{"a":1},"request":{},"plan":{"b":2}}"#),
            call(VALIDATE_PLAN, r#"{"plan":{"a":1},"request":{},"plan":"text"}"#),
            r#"{"params":{"arguments":{"plan":{"x":1}},"arguments":{"request":{}}},"method":"tools/call","jsonrpc":"2.0","id":2}"#
                .replace("\"arguments\":{\"request", "\"name\":\"validate_plan\",\"arguments\":{\"request"),
            // Escapes, lone surrogates (a parse error of the whole line), numbers as written.
            call(VALIDATE_PLAN, r#"{"plan":{"n\u00e9":"\ud83d\ude00"},"request":{}}"#),
            call(VALIDATE_PLAN, r#"{"plan":{"bad":"\ud800"},"request":{}}"#),
            call(VALIDATE_PLAN, r#"{"plan":{"big":1e400,"deep":[[[[]]]]},"request":{"n":12345678901234567890}}"#),
            // Not the shapes the fast reader takes.
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"validate_plan","arguments":7}}"#.to_owned(),
            r#"{"$serde_json::private::Number":"1"}"#.to_owned(),
            r"12".to_owned(),
            // Not JSON at all, or more than one value.
            call(VALIDATE_PLAN, r#"{"plan":{"a":1},"request":{}"#),
            format!("{} {{}}", call(VALIDATE_PLAN, r#"{"plan":{},"request":{}}"#)),
        ];
        for line in &lines {
            let (slow, fast) = both(line);
            assert_eq!(fast, slow, "{line}");
        }
        // Invalid UTF-8 inside a kept object.
        let mut bytes = call(VALIDATE_PLAN, r#"{"plan":{"a":"XX"},"request":{}}"#).into_bytes();
        let at = bytes.windows(2).position(|w| w == b"XX").unwrap();
        bytes[at] = 0xff;
        assert_eq!(read_message(&bytes).map(|(v, _)| v), rpc::parse_line(&bytes));
    }

    #[test]
    fn verdicts_equal_the_value_path() {
        let request = r#"{"requestId":"r1","kind":"routine","date":"2026-07-06"}"#;
        for plan in [
            r#"{"format":"daily-momentum-ai-plan","requestId":"r1"}"#,
            r#"{"format":"daily-momentum-ai-plan",   "requestId":"r1", "requestId":"r2"}"#,
            r#"{"n":1e400}"#,
            r#"{"s":"\ud800"}"#,
        ] {
            let line = call(VALIDATE_PLAN, &format!(r#"{{"plan":{plan},"request":{request}}}"#));
            let Ok((message, kept)) = read_message(line.as_bytes()) else {
                assert!(rpc::parse_line(line.as_bytes()).is_err(), "{plan}");
                continue;
            };
            let args = message.pointer("/params/arguments").unwrap();
            let verdict = kept.verdict(args["plan"].clone(), args["request"].clone());
            let value = rpc::parse_line(line.as_bytes()).unwrap();
            let expected = momentum_plan::validate(
                value.pointer("/params/arguments/plan").unwrap(),
                value.pointer("/params/arguments/request").unwrap(),
            );
            assert_eq!(verdict, expected, "{plan}");
        }
    }
}
