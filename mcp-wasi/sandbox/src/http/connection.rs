//! One TCP connection of `--http`: served by hyper until the client or the server ends it, with
//! the runner's own answers where hyper would only close (issue 30, "Hardening"):
//!
//! - **The request head** must arrive whole within `--request-timeout-ms`, counted from when the
//!   connection became ready to read it (hyper's `header_read_timeout`: one deadline for the whole
//!   head, never restarted by a byte that arrives). A head cut off half-way is answered `408`
//!   ([`HEAD_TIMEOUT`] wording, `Connection: close`) before the connection closes; an idle
//!   connection (no byte of a next request) is closed without an answer, so a keep-alive client
//!   never reads a `408` for a request it has not sent.
//! - **The connection cap** (`--max-connections`): one `Place` per open connection; a connection
//!   accepted beyond the cap is answered `503` with `Retry-After: 1` at once (`refuse`) and closed,
//!   while the served ones keep working.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use hyper::rt::Write as _;
use hyper::server::conn::http1;
use tokio::net::TcpStream;
use tokio::sync::watch;
use wasmtime_wasi_http::io::TokioIo;

use super::request::{INTERNAL_ERROR, Place, Server, json_error};
use super::timer::TokioTimer;

/// The message of the `408` for a request head that did not arrive within the deadline
/// (`{ms}`: `--request-timeout-ms`).
pub const HEAD_TIMEOUT: &str = "Request timeout: the request head did not arrive within --request-timeout-ms";

/// The message of the `503` for a connection beyond `--max-connections` (`{n}`: the cap).
pub const TOO_MANY_CONNECTIONS: &str = "Server busy: too many open connections (--max-connections";

/// A whole HTTP/1.1 answer written by the runner itself, outside hyper: `status` (e.g.
/// `"408 Request Timeout"`), `Content-Type: application/json`, `Connection: close`, the extra
/// header lines `extra` (each ending `\r\n`), and a [`json_error`] body with `message`.
fn raw_answer(status: &str, extra: &str, message: &str) -> Vec<u8> {
    let body = json_error(INTERNAL_ERROR, message);
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Answers a connection accepted beyond `--max-connections` (`cap`) with `503` and closes it,
/// without waiting: the answer is written only if the socket takes it at once (a fresh
/// connection's send buffer always does).
pub(super) fn refuse(tcp: &TcpStream, cap: usize) {
    let _ = tcp.try_write(&raw_answer(
        "503 Service Unavailable",
        "Retry-After: 1\r\n",
        &format!("{TOO_MANY_CONNECTIONS} {cap}); retry later"),
    ));
}

/// Serves one connection until the client closes it, hyper ends it (head deadline, protocol
/// error), or shutdown is signalled (then open requests finish and idle ones close). `place` is
/// the connection's place under `--max-connections`, given back when this returns.
pub(super) async fn serve(server: Arc<Server>, tcp: TcpStream, mut stop: watch::Receiver<bool>, place: Place) {
    let timeout = server.timeout;
    let verbose = server.verbose;
    let service = hyper::service::service_fn(move |req| {
        let server = Arc::clone(&server);
        async move { Ok::<_, std::convert::Infallible>(server.handle(req).await) }
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer).header_read_timeout(timeout).keep_alive(true);
    let mut conn = builder.serve_connection(TokioIo::new(tcp), service);
    let ended = {
        let mut stopped = pin!(stop.changed());
        poll_fn(|cx| {
            if let Poll::Ready(result) = Pin::new(&mut conn).poll(cx) {
                return Poll::Ready(Some(result));
            }
            if stopped.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            Poll::Pending
        })
        .await
    };
    let result = if let Some(result) = ended {
        result
    } else {
        Pin::new(&mut conn).graceful_shutdown();
        (&mut conn).await
    };
    if let Err(e) = result {
        if e.is_timeout() {
            // hyper gave up on the head: answer 408 if part of one had arrived.
            let parts = conn.into_parts();
            if !parts.read_buf.is_empty() {
                let mut io = parts.io;
                let answer =
                    raw_answer("408 Request Timeout", "", &format!("{HEAD_TIMEOUT} ({} ms)", timeout.as_millis()));
                let mut rest = &answer[..];
                let written = poll_fn(|cx| {
                    while !rest.is_empty() {
                        match Pin::new(&mut io).poll_write(cx, rest) {
                            Poll::Ready(Ok(n)) if n > 0 => rest = &rest[n..],
                            Poll::Ready(_) => return Poll::Ready(()),
                            Poll::Pending => return Poll::Pending,
                        }
                    }
                    Pin::new(&mut io).poll_shutdown(cx).map(|_| ())
                });
                let _ = tokio::time::timeout(Duration::from_secs(1), written).await;
            }
        }
        if verbose {
            log!("momentum-plan-sandbox: connection closed: {e}");
        }
    }
    drop(place);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_answers_are_whole_http_messages() {
        let a = String::from_utf8(raw_answer("408 Request Timeout", "", "Request timeout: x")).unwrap();
        let (head, body) = a.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 408 Request Timeout\r\n"), "{head}");
        assert!(head.contains("\r\nConnection: close"), "{head}");
        assert!(head.ends_with(&format!("Content-Length: {}", body.len())), "{head}");
        assert_eq!(body, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Request timeout: x"}}"#);
        let b = String::from_utf8(raw_answer("503 Service Unavailable", "Retry-After: 1\r\n", "m")).unwrap();
        assert!(b.contains("\r\nRetry-After: 1\r\nContent-Length: "), "{b}");
    }
}
