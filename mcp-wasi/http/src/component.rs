//! The `wasi:http/incoming-handler` export: read the request (the body up to one byte over the
//! limit), hand it to [`momentum_plan_mcp::http::handle`], write its response.

use std::io::{Read, Write};

use momentum_plan_mcp::http::{self, HttpConfig, HttpRequest, HttpResponse, MAX_BODY_BYTES};
use momentum_plan_mcp::{DirStore, Store};
use wasip2::http::types::{
    Fields, IncomingBody, IncomingRequest, Method, OutgoingBody, OutgoingResponse, ResponseOutparam,
};

struct Handler;

wasip2::http::proxy::export!(Handler);

impl wasip2::exports::http::incoming_handler::Guest for Handler {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        let response = match read_and_serve(&request) {
            Ok(r) => r,
            Err(why) => internal_error(&why),
        };
        send(out, &response);
    }
}

/// Reads `request` and serves it; `Err` only when the body stream cannot be read.
fn read_and_serve(request: &IncomingRequest) -> Result<HttpResponse, String> {
    let method = match request.method() {
        Method::Get => "GET".to_owned(),
        Method::Head => "HEAD".to_owned(),
        Method::Post => "POST".to_owned(),
        Method::Put => "PUT".to_owned(),
        Method::Delete => "DELETE".to_owned(),
        Method::Connect => "CONNECT".to_owned(),
        Method::Options => "OPTIONS".to_owned(),
        Method::Trace => "TRACE".to_owned(),
        Method::Patch => "PATCH".to_owned(),
        Method::Other(m) => m,
    };
    let path = request.path_with_query().unwrap_or_else(|| "/".to_owned());
    let authority = request.authority();
    let headers: Vec<(String, Vec<u8>)> = request.headers().entries();
    let body = if method == "POST" { read_body(request)? } else { Vec::new() };
    let config = HttpConfig::from_env();
    let (_, store) = DirStore::from_env();
    let request =
        HttpRequest { method: &method, path: &path, authority: authority.as_deref(), headers: &headers, body: &body };
    Ok(http::handle(store.map(|s| Box::new(s) as Box<dyn Store>), &config, &request))
}

/// The body, read up to [`MAX_BODY_BYTES`] + 1 bytes (reading stops there: that is `413`).
fn read_body(request: &IncomingRequest) -> Result<Vec<u8>, String> {
    let Ok(body) = request.consume() else {
        return Ok(Vec::new());
    };
    let mut bytes = Vec::new();
    {
        let mut stream = body.stream().map_err(|()| "the request body has no stream".to_owned())?;
        let limit = u64::try_from(MAX_BODY_BYTES).unwrap_or(u64::MAX) + 1;
        let mut reader = Read::by_ref(&mut stream).take(limit);
        reader.read_to_end(&mut bytes).map_err(|e| format!("the request body could not be read: {e}"))?;
    }
    if bytes.len() <= MAX_BODY_BYTES {
        // The whole body was read: release its trailers.
        let _ = IncomingBody::finish(body);
    }
    Ok(bytes)
}

fn internal_error(why: &str) -> HttpResponse {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32603,"message":"Internal error: {}"}}}}"#,
        why.replace(['"', '\\'], "'")
    );
    HttpResponse {
        status: 500,
        headers: vec![("content-type", "application/json".to_owned())],
        body: line.into_bytes(),
    }
}

/// Writes `response` to `out`. Failures after the status is sent cannot be reported to anyone.
fn send(out: ResponseOutparam, response: &HttpResponse) {
    let mut entries: Vec<(String, Vec<u8>)> =
        response.headers.iter().map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec())).collect();
    if !response.body.is_empty() {
        entries.push(("content-length".to_owned(), response.body.len().to_string().into_bytes()));
    }
    let Ok(fields) = Fields::from_list(&entries) else {
        return;
    };
    let outgoing = OutgoingResponse::new(fields);
    if outgoing.set_status_code(response.status).is_err() {
        return;
    }
    let Ok(body) = outgoing.body() else {
        return;
    };
    ResponseOutparam::set(out, Ok(outgoing));
    if let Ok(stream) = body.write() {
        let mut stream = stream;
        // `blocking_write_and_flush` takes at most 4096 bytes a call; `Write` loops for us.
        let _ = stream.write_all(&response.body);
        let _ = stream.flush();
    }
    let _ = OutgoingBody::finish(body, None);
}
