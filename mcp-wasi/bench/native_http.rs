//! `native-http`: the HTTP server's handler compiled natively, behind the runner's own hyper
//! stack: the limit the sandbox is measured against (issue 30, item 1). Bench-only, never
//! shipped.
//!
//! ```text
//! native-http --http ADDR [--max-concurrency N] [--cache-dir DIR]
//! ```
//!
//! Serves `POST /mcp` and the rest exactly as `momentum-plan-mcp-http.wasm` does
//! ([`momentum_plan_mcp::http::handle`], read-only: no store; loopback only; no token), on a tokio
//! multi-threaded runtime with hyper's HTTP/1.1 server set up as `momentum-plan-sandbox --http`
//! sets it up (keep-alive, `header_read_timeout` 10 s, the body read whole before the handler
//! runs). What it leaves out is exactly the sandbox: no instance per request, no WASI, no
//! canonical-ABI copies. `--max-concurrency` and `--cache-dir` are accepted and ignored, so the
//! bench starts it like the runner. Prints `native-http: listening on http://IP:PORT/mcp` on
//! stderr once bound; runs until killed. Exit 2 on bad usage or when the address cannot be bound.
#![allow(clippy::print_stderr)]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::{Request, Response};
use momentum_plan_mcp::http::{self, HttpConfig, HttpRequest, MAX_BODY_BYTES};
use momentum_plan_sandbox::http::timer::TokioTimer;
use wasmtime_wasi_http::io::TokioIo;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr: Option<SocketAddr> =
        args.iter().position(|a| a == "--http").and_then(|i| args.get(i + 1)).and_then(|a| a.parse().ok());
    let Some(addr) = addr else {
        eprintln!("usage: native-http --http ADDR [--max-concurrency N] [--cache-dir DIR]");
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("native-http: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("native-http: cannot listen on {addr}: {e}");
                return ExitCode::from(2);
            }
        };
        let local = listener.local_addr().map_or_else(|_| addr.to_string(), |a| a.to_string());
        eprintln!("native-http: listening on http://{local}/mcp");
        loop {
            let Ok((tcp, _)) = listener.accept().await else { continue };
            let _ = tcp.set_nodelay(true);
            tokio::spawn(async move {
                let mut builder = http1::Builder::new();
                builder.timer(TokioTimer).header_read_timeout(Duration::from_secs(10)).keep_alive(true);
                let _ = builder.serve_connection(TokioIo::new(tcp), hyper::service::service_fn(serve)).await;
            });
        }
    })
}

/// One request: the body read whole (at most the handler's limit + 1 byte), then the handler.
async fn serve(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = req.into_parts();
    let mut bytes = body.collect().await.map(|b| b.to_bytes().to_vec()).unwrap_or_default();
    bytes.truncate(MAX_BODY_BYTES + 1);
    let headers: Vec<(String, Vec<u8>)> =
        parts.headers.iter().map(|(n, v)| (n.as_str().to_owned(), v.as_bytes().to_vec())).collect();
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let request = HttpRequest { method: parts.method.as_str(), path, authority: None, headers: &headers, body: &bytes };
    let answer = http::handle(None, &HttpConfig::default(), &request);
    let mut resp = Response::new(Full::new(Bytes::from(answer.body)));
    *resp.status_mut() = hyper::StatusCode::from_u16(answer.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in answer.headers {
        if let Ok(v) = hyper::header::HeaderValue::from_str(&value) {
            resp.headers_mut().append(name, v);
        }
    }
    Ok(resp)
}
