//! The store data of one request (`HttpHost`, private to [`crate::http`]) and its `wasi:http`
//! hooks ([`DenyOutbound`]).

use std::future::Future;

use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{RequestOptions, WasiBody, WasiHttpCtx, WasiHttpCtxView, WasiHttpHooks, WasiHttpView};

use crate::guest::MemoryCap;

type OutgoingIo = Box<dyn Future<Output = wasmtime_wasi_http::Result<()>> + Send>;
type OutgoingResult = wasmtime_wasi_http::Result<(hyper::Response<WasiBody>, OutgoingIo)>;

/// The `wasi:http` hooks of every request: every outgoing request (`wasi:http/outgoing-handler`)
/// fails with `HTTP-request-denied` before anything is sent; the rest is wasmtime's default.
#[derive(Debug, Clone, Copy, Default)]
pub struct DenyOutbound;

impl WasiHttpHooks for DenyOutbound {
    fn send_request(
        &mut self,
        _request: hyper::Request<WasiBody>,
        _options: Option<RequestOptions>,
        _fut: OutgoingIo,
    ) -> Box<dyn Future<Output = OutgoingResult> + Send> {
        let denied: OutgoingResult = Err(wasmtime_wasi_http::Error::HttpRequestDenied);
        Box::new(std::future::ready(denied))
    }
}

/// Per-request store data: WASI and `wasi:http` contexts, their resource table, the memory cap.
pub(super) struct HttpHost {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
    pub(super) limits: MemoryCap,
    hooks: DenyOutbound,
}

impl HttpHost {
    /// The data of a fresh store: `wasi` (the guest's grant), linear memory capped at `memory_bytes`.
    pub(super) fn new(wasi: WasiCtx, memory_bytes: usize) -> Self {
        HttpHost {
            wasi,
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
            limits: MemoryCap::new(memory_bytes),
            hooks: DenyOutbound,
        }
    }
}

impl WasiView for HttpHost {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for HttpHost {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { ctx: &mut self.http, table: &mut self.table, hooks: &mut self.hooks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http_body_util::BodyExt;
    use std::convert::Infallible;

    #[test]
    fn outbound_requests_are_denied() {
        let mut hooks = DenyOutbound;
        let req = hyper::Request::new(
            http_body_util::Empty::<Bytes>::new().map_err(|never: Infallible| match never {}).boxed_unsync(),
        );
        let fut = hooks.send_request(req, None, Box::new(async { Ok(()) }));
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let result = rt.block_on(Box::into_pin(fut));
        assert!(matches!(result, Err(wasmtime_wasi_http::Error::HttpRequestDenied)));
    }
}
