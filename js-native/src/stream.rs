//! [`Stream`]: the core's [`momentum_plan::PlanStream`] (validator.md §10) for the JS packages,
//! one type under the JS name `PlanStream` in both shims (a napi class, a wasm-bindgen class).
//! Thin: it reads the request, hands each chunk's bytes to the core, and encodes what the core
//! answers as the other functions do ([`Answer`], [`Verdict::to_packed`]).

use crate::{Answer, Text};
use momentum_plan::{Issue, PlanStream, Verdict};

/// A plan validated as it arrives (validator.md §10): made from a request text, then
/// [`Stream::push`] any number of times, then [`Stream::finish`] once.
pub struct Stream {
    /// The core's stream (`None` once it has given its verdict), or the error of a request that
    /// is not JSON.
    inner: Result<Option<PlanStream>, Answer>,
}

impl Stream {
    /// A stream validating a plan against `request` (JSON text, or its UTF-8 bytes: read as
    /// `schema` and Python's `PlanStream` read it; a non-object request is `requestInvalid` in
    /// the verdict, D1). A request that is not JSON makes a stream whose
    /// [`Stream::request_error`] (and every answer) is that [`Answer::RequestNotJson`].
    pub fn new(request: Text<'_>) -> Stream {
        let parsed = match request {
            Text::Str(t) => momentum_plan::parse_json(t),
            Text::Bytes(b) => momentum_plan::parse_json_bytes(b),
        };
        Stream { inner: parsed.map(|r| Some(PlanStream::new(r))).map_err(|e| Answer::request_not_json(&e)) }
    }

    /// `""` for a stream made from a request that is JSON, else the encoded
    /// [`Answer::RequestNotJson`], which the converter throws as `validatePlan` does.
    pub fn request_error(&self) -> String {
        self.inner.as_ref().err().map_or_else(String::new, |e| e.clone().encode())
    }

    /// Reads the next bytes of the plan's UTF-8 text (split anywhere: inside a UTF-8 sequence,
    /// an escape, a number) and answers the issues that became settled with them
    /// ([`PlanStream::push`]) as [`Answer::Packed`]: `""` for none, else a packed verdict whose
    /// errors are the issues in the order they settled (its other fields mean nothing), which the
    /// converter's `unpackVerdict` reads. After [`Stream::finish`]: [`Answer::StreamSpent`].
    pub fn push(&mut self, chunk: &[u8]) -> Answer {
        match &mut self.inner {
            Ok(Some(s)) => Answer::Packed(pack_issues(s.push(chunk))),
            Ok(None) => Answer::StreamSpent(PlanStream::FINISHED.to_owned()),
            Err(e) => e.clone(),
        }
    }

    /// The verdict on every byte pushed ([`PlanStream::finish`]: exactly `validate` of the
    /// bytes) as [`Answer::Packed`]; the stream is then spent, and a second call answers
    /// [`Answer::StreamSpent`].
    pub fn finish(&mut self) -> Answer {
        match self.inner.as_mut().map(Option::take) {
            Ok(Some(s)) => Answer::Packed(s.finish().to_packed()),
            Ok(None) => Answer::StreamSpent(PlanStream::FINISHED.to_owned()),
            Err(e) => e.clone(),
        }
    }

    /// Whether a member name has repeated: nothing settles from then on and only `finish` counts
    /// ([`PlanStream::repeated_name`], validator.md §10, §7). False after `finish`.
    pub fn repeated_name(&self) -> bool {
        matches!(&self.inner, Ok(Some(s)) if s.repeated_name())
    }

    /// How many bytes have been pushed (0 after `finish`).
    pub fn len(&self) -> usize {
        match &self.inner {
            Ok(Some(s)) => s.len(),
            _ => 0,
        }
    }

    /// Whether no byte has been pushed (or the stream is spent).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Settled issues packed for the converter: `""` for none (most pushes), else
/// [`Verdict::to_packed`] of a verdict holding them as its errors.
fn pack_issues(issues: Vec<Issue>) -> String {
    if issues.is_empty() {
        return String::new();
    }
    Verdict { valid: false, errors: issues, warnings: Vec::new(), checks: Vec::new() }.to_packed()
}
