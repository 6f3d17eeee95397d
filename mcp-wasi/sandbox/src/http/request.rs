//! One request, from its head to its answer: the body read on the host, a slot in the bounded
//! queue ([`queue_limit`]), a fresh store with the guest's grant, the guest's answer or the
//! runner's own error answer ([`json_error`]).

use std::convert::Infallible;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONNECTION, CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use hyper::{Request, Response, StatusCode};
use tokio::sync::Semaphore;
use wasmtime::{Store, UpdateDeadline};
use wasmtime_wasi::WasiCtxBuilder;
use wasmtime_wasi_http::WasiHttpView;
use wasmtime_wasi_http::p2::bindings::ProxyPre;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;
use wasmtime_wasi_http::p2::body::HyperOutgoingBody;

use super::host::HttpHost;
use crate::guest::{Grant, HTTP_ARGV0, grant};
use crate::run::{RunError, one_line};

/// JSON-RPC "Internal error", the code of every error answer the runner writes itself.
pub const INTERNAL_ERROR: i32 = -32603;
/// JSON-RPC "Invalid Request", for a request the runner cannot hand to the guest (no `Host`).
pub const INVALID_REQUEST: i32 = -32600;

/// At most this many requests wait for a permit at once for `max_concurrency` slots: 16 per
/// slot, at least 64. Requests beyond are answered `503` at once.
pub fn queue_limit(max_concurrency: u32) -> usize {
    usize::try_from(max_concurrency).unwrap_or(usize::MAX).saturating_mul(16).max(64)
}

/// Shared by every connection: the pre-instantiated component and the per-request grant.
pub(super) struct Server {
    pub(super) pre: ProxyPre<HttpHost>,
    /// One permit per pool slot.
    pub(super) slots: Arc<Semaphore>,
    /// Requests waiting for a permit (each holds a [`Place`]), at most `queue_limit`.
    pub(super) waiting: Arc<AtomicUsize>,
    pub(super) queue_limit: usize,
    /// `--request-timeout-ms`.
    pub(super) timeout: Duration,
    /// The opened `--store`.
    pub(super) store_dir: Option<PathBuf>,
    /// The guest's variables after `PLAN_STORE` ([`super::Setup::guest_env`]).
    pub(super) env: Vec<(String, String)>,
    /// The guest's arguments after `argv[0]`.
    pub(super) args: Vec<String>,
    pub(super) memory_bytes: usize,
    pub(super) verbose: bool,
}

/// How a request that reached the guest ended without an answer from it.
enum Failure {
    /// The deadline passed (host wait or guest CPU).
    Timeout,
    /// A trap or another error; the message is the whole text after `Internal error: `.
    Error(String),
}

impl Server {
    /// A fresh store for one request whose deadline is `deadline`.
    pub(super) fn new_store(&self, deadline: Instant) -> Result<Store<HttpHost>, String> {
        let mut b = WasiCtxBuilder::new();
        // The guest's stdout is no protocol channel here: it goes to the runner's stderr.
        b.stdout(std::io::stderr()).inherit_stderr();
        let dir = self.store_dir.as_deref();
        // Only the store can fail.
        grant(&mut b, &Grant { argv0: HTTP_ARGV0, args: &self.args, store: dir, env: &self.env })
            .map_err(|e| format!("cannot open the plan store {}: {e:#}", dir.unwrap_or(Path::new("")).display()))?;
        let host = HttpHost::new(b.build(), self.memory_bytes);
        let mut store = Store::new(self.pre.engine(), host);
        store.limiter(|h| &mut h.limits);
        // Checked at every epoch tick: yield to the executor (other requests and connections
        // run; tokio's `yield_now` puts the task behind the others, a plain self-wake would not),
        // or stop the guest once the request's deadline has passed.
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |_| {
            Ok(if Instant::now() >= deadline {
                UpdateDeadline::Interrupt
            } else {
                UpdateDeadline::YieldCustom(1, Box::pin(tokio::task::yield_now()))
            })
        });
        Ok(store)
    }

    /// Classifies the error of an instantiation or `handle` call.
    fn failure(&self, e: &wasmtime::Error, refused: Option<usize>) -> Failure {
        if let Some(desired) = refused {
            return Failure::Error(RunError::MemoryCap { cap: self.memory_bytes, desired }.to_string());
        }
        match e.downcast_ref::<wasmtime::Trap>() {
            Some(wasmtime::Trap::Interrupt) => Failure::Timeout,
            Some(trap) => Failure::Error(RunError::Trap(one_line(&trap.to_string())).to_string()),
            None => Failure::Error(RunError::Trap(one_line(format!("{e:#}").lines().next().unwrap_or(""))).to_string()),
        }
    }

    /// The answer to one request (never an `Err`: failures are answered too).
    pub(super) async fn handle(self: Arc<Self>, req: Request<Incoming>) -> Response<HyperOutgoingBody> {
        let started = Instant::now();
        let line = self.verbose.then(|| format!("{} {}", req.method(), req.uri().path()));
        let resp = self.dispatch(req, started + self.timeout).await;
        if let Some(line) = line {
            log!(
                "momentum-plan-sandbox: {line} -> {} in {:.2} ms",
                resp.status().as_u16(),
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        resp
    }

    #[allow(clippy::too_many_lines)] // the numbered steps of one request, in order
    async fn dispatch(self: &Arc<Self>, req: Request<Incoming>, deadline: Instant) -> Response<HyperOutgoingBody> {
        let timeout_ms = self.timeout.as_millis();
        // 0. The body, read on the host before a slot is taken (at most BODY_LIMIT bytes: the
        //    guest answers 413 past its limit), so a client that sends its body slowly holds
        //    only its own connection and its own deadline, never an instance slot.
        let (parts, body) = req.into_parts();
        let body = match tokio::time::timeout_at(deadline.into(), read_body(body, BODY_LIMIT)).await {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(BodyError::Connection(e))) => {
                return closing(error_response(
                    StatusCode::BAD_REQUEST,
                    INVALID_REQUEST,
                    &format!("Invalid Request: the request body could not be read: {}", one_line(&e.to_string())),
                ));
            }
            Ok(Err(BodyError::TooSlow { bytes, elapsed })) => {
                return closing(error_response(
                    StatusCode::REQUEST_TIMEOUT,
                    INTERNAL_ERROR,
                    &format!(
                        "Request timeout: the request body arrived slower than {MIN_BODY_RATE} bytes a second \
                     ({bytes} bytes in {} ms)",
                        elapsed.as_millis()
                    ),
                ));
            }
            Err(_elapsed) => {
                return closing(error_response(
                    StatusCode::REQUEST_TIMEOUT,
                    INTERNAL_ERROR,
                    &format!(
                        "Request timeout: the request body did not arrive within --request-timeout-ms ({timeout_ms} ms)"
                    ),
                ));
            }
        };
        let req = Request::from_parts(parts, Full::new(body));

        // 1. A slot: at once, else wait in the bounded queue until the deadline.
        let permit = if let Ok(p) = self.slots.clone().try_acquire_owned() {
            p
        } else {
            let Some(_waiting) = Place::take(&self.waiting, self.queue_limit) else {
                return busy("Server busy: too many requests are waiting; retry later");
            };
            match tokio::time::timeout_at(deadline.into(), self.slots.clone().acquire_owned()).await {
                Ok(Ok(p)) => p,
                Ok(Err(_)) => return busy("Server busy: the server is shutting down"),
                Err(_) => {
                    return busy(&format!(
                        "Server busy: no instance became free within --request-timeout-ms ({timeout_ms} ms); \
                         retry later"
                    ));
                }
            }
        };

        // 2. The store and the request's resources.
        let mut store = match self.new_store(deadline) {
            Ok(s) => s,
            Err(why) => {
                log!("momentum-plan-sandbox: request failed: {why}");
                return error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    INTERNAL_ERROR,
                    &format!("Internal error: {why}"),
                );
            }
        };
        let guest_req = match store.data_mut().http().new_incoming_request(Scheme::Http, req) {
            Ok(r) => r,
            Err(e) => {
                let why = one_line(&format!("{e:#}"));
                return error_response(StatusCode::BAD_REQUEST, INVALID_REQUEST, &format!("Invalid Request: {why}"));
            }
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let out = match store.data_mut().http().new_response_outparam(tx) {
            Ok(o) => o,
            Err(e) => {
                let why = one_line(&format!("{e:#}"));
                return error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    INTERNAL_ERROR,
                    &format!("Internal error: {why}"),
                );
            }
        };

        // 3. The guest, in its own task: it may go on writing the body after answering.
        let server = Arc::clone(self);
        let task = tokio::spawn(async move {
            let result = tokio::time::timeout_at(deadline.into(), async {
                let proxy = server.pre.instantiate_async(&mut store).await?;
                proxy.wasi_http_incoming_handler().call_handle(&mut store, guest_req, out).await
            })
            .await;
            let (refused, grows) = (store.data().limits.refused(), store.data().limits.grows());
            // The pool slot is free once the store is gone; only then may another request take
            // the permit.
            drop(store);
            drop(permit);
            let failure = match result {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(server.failure(&e, refused)),
                Err(_elapsed) => Some(Failure::Timeout),
            };
            match &failure {
                Some(Failure::Error(why)) => log!("momentum-plan-sandbox: request failed: {why}"),
                Some(Failure::Timeout) => log!(
                    "momentum-plan-sandbox: request stopped at --request-timeout-ms ({} ms)",
                    server.timeout.as_millis()
                ),
                None => {}
            }
            if server.verbose {
                log!("momentum-plan-sandbox: instance ended after {grows} memory.grow(s)");
            }
            failure
        });

        // 4. The guest's answer, or why there is none.
        match rx.await {
            Ok(Ok(resp)) => resp,
            Ok(Err(code)) => error_response(
                StatusCode::INTERNAL_SERVER_ERROR,
                INTERNAL_ERROR,
                &format!("Internal error: the server answered with the error {code:?}"),
            ),
            Err(_) => match task.await {
                Ok(None) => error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    INTERNAL_ERROR,
                    "Internal error: the server returned without answering",
                ),
                Ok(Some(Failure::Error(why))) => {
                    error_response(StatusCode::INTERNAL_SERVER_ERROR, INTERNAL_ERROR, &format!("Internal error: {why}"))
                }
                Ok(Some(Failure::Timeout)) => error_response(
                    StatusCode::SERVICE_UNAVAILABLE,
                    INTERNAL_ERROR,
                    &format!(
                        "Request timeout: the server did not answer within --request-timeout-ms ({timeout_ms} ms)"
                    ),
                ),
                Err(join) => error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    INTERNAL_ERROR,
                    &format!("Internal error: the request task failed: {join}"),
                ),
            },
        }
    }
}

/// A counted place (in the wait queue, or among the open connections), released on drop: also
/// when the client goes away while it holds one.
pub(super) struct Place(Arc<AtomicUsize>);

impl Place {
    /// Takes a place if fewer than `limit` are taken.
    pub(super) fn take(count: &Arc<AtomicUsize>, limit: usize) -> Option<Self> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < limit).then_some(n + 1))
            .ok()
            .map(|_| Place(Arc::clone(count)))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Most request-body bytes the runner reads and hands to the guest: one more than the server's
/// 4 MiB body limit (mcp-server.md "Streamable HTTP": "a body over 4 MiB is `413` (reading stops
/// there)"), so the guest sees that the body is over its limit and answers `413` after its
/// Host/Origin, path, method and token checks.
pub const BODY_LIMIT: usize = 4 * 1024 * 1024 + 1;

/// The slowest a request body may arrive, in bytes per second: after a grace of
/// [`BODY_GRACE`] from the end of the head, a body may take one more second for each
/// `MIN_BODY_RATE` bytes received (Apache's `mod_reqtimeout` `MinRate`, whose default is also
/// 500); a body that falls behind is cut with `408` at once, before the request deadline.
pub const MIN_BODY_RATE: u64 = 500;

/// How long a body may take before [`MIN_BODY_RATE`] applies.
pub const BODY_GRACE: Duration = Duration::from_secs(2);

/// Why [`read_body`] gave up.
#[derive(Debug)]
enum BodyError {
    /// The connection failed while the body was arriving.
    Connection(hyper::Error),
    /// The body fell behind [`MIN_BODY_RATE`]: `bytes` had arrived after `elapsed`.
    TooSlow { bytes: usize, elapsed: Duration },
}

/// Reads `body` until its end or until more than `limit - 1` bytes have arrived, and returns at
/// most `limit` bytes (the rest of a longer body is never read; hyper closes that connection).
/// Each frame must arrive by [`BODY_GRACE`] plus one second per [`MIN_BODY_RATE`] bytes read so
/// far, counted from the call.
///
/// # Errors
/// [`BodyError::Connection`] when the connection failed, [`BodyError::TooSlow`] when the body
/// fell behind the floor rate.
async fn read_body(mut body: Incoming, limit: usize) -> Result<Bytes, BodyError> {
    let started = Instant::now();
    let mut first: Option<Bytes> = None;
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let len = first.as_ref().map_or(buf.len(), Bytes::len);
        let allowed = BODY_GRACE + Duration::from_millis(u64::try_from(len).unwrap_or(u64::MAX) * 1000 / MIN_BODY_RATE);
        let Ok(frame) = tokio::time::timeout_at((started + allowed).into(), body.frame()).await else {
            return Err(BodyError::TooSlow { bytes: len, elapsed: started.elapsed() });
        };
        let Some(frame) = frame else { break };
        let Ok(data) = frame.map_err(BodyError::Connection)?.into_data() else { continue };
        // The common case, one data frame: kept as it is, without a copy.
        if first.is_none() && buf.is_empty() {
            first = Some(data);
        } else {
            if let Some(f) = first.take() {
                buf.extend_from_slice(&f);
            }
            buf.extend_from_slice(&data);
        }
        let len = first.as_ref().map_or(buf.len(), Bytes::len);
        if len >= limit {
            break;
        }
    }
    let mut bytes = first.unwrap_or_else(|| Bytes::from(buf));
    bytes.truncate(limit);
    Ok(bytes)
}

/// `message` as a JSON-RPC error response without id:
/// `{"jsonrpc":"2.0","id":null,"error":{"code":CODE,"message":"MESSAGE"}}`.
pub fn json_error(code: i32, message: &str) -> String {
    let mut out = format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":""#);
    for c in message.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push_str("\"}}");
    out
}

/// A runner-written answer: `status`, `Content-Type: application/json`, [`json_error`] body.
fn error_response(status: StatusCode, code: i32, message: &str) -> Response<HyperOutgoingBody> {
    let body =
        Full::new(Bytes::from(json_error(code, message))).map_err(|never: Infallible| match never {}).boxed_unsync();
    let mut resp = Response::new(body);
    *resp.status_mut() = status;
    resp.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

/// `r` with `Connection: close` (hyper then closes the connection after it).
fn closing(mut r: Response<HyperOutgoingBody>) -> Response<HyperOutgoingBody> {
    r.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    r
}

/// `503` with `Retry-After: 1`.
fn busy(message: &str) -> Response<HyperOutgoingBody> {
    let mut r = error_response(StatusCode::SERVICE_UNAVAILABLE, INTERNAL_ERROR, message);
    r.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_is_bounded() {
        assert_eq!(queue_limit(1), 64);
        assert_eq!(queue_limit(4), 64);
        assert_eq!(queue_limit(8), 128);
    }

    #[test]
    fn json_errors_are_json() {
        let text = json_error(INTERNAL_ERROR, "Internal error: a \"quoted\" \\ path\nline\u{1}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["jsonrpc"], "2.0");
        assert!(v["id"].is_null());
        assert_eq!(v["error"]["code"], -32603);
        assert_eq!(v["error"]["message"], "Internal error: a \"quoted\" \\ path\nline\u{1}");
        assert_eq!(json_error(-32603, "x"), r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}}"#);
    }

    #[test]
    fn places_are_bounded_and_released() {
        let n = Arc::new(AtomicUsize::new(0));
        let a = Place::take(&n, 2).unwrap();
        let b = Place::take(&n, 2).unwrap();
        assert!(Place::take(&n, 2).is_none());
        drop(a);
        let c = Place::take(&n, 2).unwrap();
        drop((b, c));
        assert_eq!(n.load(Ordering::Relaxed), 0);
    }
}
