//! `--http`: serving the Streamable HTTP server component (`momentum-plan-mcp-http.wasm`, which
//! exports `wasi:http/incoming-handler`) over HTTP/1.1, one fresh instance per request (spec
//! `mcp-server.md`, "Streamable HTTP"; design notes `http-transport.md` §5 and §7 items 11–13).
//!
//! The guest does all of MCP (the endpoint `/mcp`, methods, eras, the `Host`/`Origin` allow-lists,
//! the bearer token, body limits); the runner only hosts it:
//!
//! - **Instances.** The component is compiled once (through the [`crate::cache`]), linked and
//!   pre-instantiated once ([`ProxyPre`]); each request gets its own [`Store`] and instance from
//!   wasmtime's pooling allocator, sized by [`PoolSizing`] from `--max-concurrency` and
//!   `--memory-mib`. Nothing survives a request but the plan store on disk.
//! - **What the guest gets** (the same grant as stdio, [`crate::run`]): no host environment
//!   except [`Setup::guest_env`] (`PLAN_STORE=/plans` with `--store`, `MCP_HTTP_BEARER_TOKEN`,
//!   `MCP_HTTP_ALLOWED_HOSTS`, `MCP_HTTP_ALLOWED_ORIGINS`); `--store DIR` read-write at `/plans`
//!   and no other file system; argv `momentum-plan-mcp-http` plus anything after `--`; stderr
//!   (its stdout goes to the runner's stderr too); no sockets (TCP, UDP and name lookup denied);
//!   outgoing `wasi:http` requests refused with `HTTP-request-denied` ([`DenyOutbound`]); linear
//!   memory capped at `--memory-mib` ([`MemoryCap`] plus the pool's `max_memory_size`). File
//!   operations run on the worker thread (`allow_blocking_current_thread`), as on stdio: the
//!   store is a local directory, and a hop to tokio's blocking pool per operation costs more.
//! - **Concurrency.** At most `--max-concurrency` requests run a guest at once (a semaphore whose
//!   permit is taken per request, after the request head arrived, and released when its instance
//!   is gone); later requests wait for a permit within their deadline, at most [`queue_limit`] of
//!   them (beyond that, or when the deadline passes first: `503` with `Retry-After: 1`). An idle
//!   keep-alive connection holds no permit.
//! - **Deadline** (`--request-timeout-ms`, default 10 s). The request head must arrive within it
//!   (hyper's `header_read_timeout`; the same bound closes idle keep-alive connections); then one
//!   deadline from the end of the head covers waiting for a permit, reading the body (the guest
//!   reads it through wasi streams) and the guest's work. Guest CPU is bounded by epoch
//!   interruption: a ticker thread advances the epoch every [`EPOCH_TICK`], a running guest yields
//!   to the executor at each tick (so a busy guest never starves the others) and traps at the
//!   deadline. A request cut off answers `408` (`Connection: close`) when its body had not fully
//!   arrived, else `503`.
//! - **Failures** never stop the server: a trap (a guest panic, the memory cap, the deadline)
//!   ends only its own request, answered `500` with a JSON-RPC error without id (code `-32603`,
//!   message `Internal error: …`, naming the memory cap when the guest hit it) and logged as one
//!   line on stderr.
//! - **Start and stop.** [`serve`] checks the component (it must instantiate), binds, prints
//!   exactly one line `momentum-plan-sandbox: listening on http://IP:PORT/mcp` on stderr, and
//!   serves until SIGINT or SIGTERM; it then stops accepting, lets open requests finish (at most
//!   one request timeout) and returns exit status 0.
//!
//! The command-line checks live here too: [`parse_listen_addr`], [`is_loopback`],
//! [`check_bind`] (a non-loopback address needs a bearer token), [`read_bearer_token`],
//! [`parse_allowed_host`], [`parse_allowed_origin`].

use std::convert::Infallible;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::future::{Future, poll_fn};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONNECTION, CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use hyper::server::conn::http1;
use hyper::{Request, Response, StatusCode};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use wasmtime::component::{Linker, ResourceTable};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store, UpdateDeadline};
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};
use wasmtime_wasi_http::io::TokioIo;
use wasmtime_wasi_http::p2::bindings::ProxyPre;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;
use wasmtime_wasi_http::p2::body::HyperOutgoingBody;
use wasmtime_wasi_http::{RequestOptions, WasiBody, WasiHttpCtx, WasiHttpCtxView, WasiHttpHooks, WasiHttpView};

use crate::cache;
use crate::exit;
use crate::run::{GUEST_STORE, MemoryCap, RunError, mib, one_line, open_store};

/// Environment variable of the runner that may hold the bearer token (when
/// `--bearer-token-file` is not given; an empty value counts as unset).
pub const TOKEN_ENV: &str = "MOMENTUM_PLAN_BEARER_TOKEN";
/// The guest's `argv[0]` in HTTP mode.
pub const GUEST_ARGV0: &str = "momentum-plan-mcp-http";
/// Guest variable carrying the bearer token (the guest answers `401` without it).
pub const GUEST_TOKEN_ENV: &str = "MCP_HTTP_BEARER_TOKEN";
/// Guest variable with the `--allow-host` names, comma-separated (the guest always adds the
/// loopback names `localhost`, `127.0.0.1`, `[::1]`).
pub const GUEST_HOSTS_ENV: &str = "MCP_HTTP_ALLOWED_HOSTS";
/// Guest variable with the `--allow-origin` origins, comma-separated (the guest always adds the
/// loopback origins).
pub const GUEST_ORIGINS_ENV: &str = "MCP_HTTP_ALLOWED_ORIGINS";
/// Period of the epoch ticker: the granularity of guest CPU time slices and of the deadline.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);
/// Core instances one component may create; a `wasm32-wasip2` Rust program has about four (the
/// program, the WASI adapter and two glue modules).
pub const CORE_INSTANCES_PER_COMPONENT: u32 = 16;
/// Linear memories one component may define (a Rust program has one).
pub const MEMORIES_PER_COMPONENT: u32 = 2;
/// Tables one component may define.
pub const TABLES_PER_COMPONENT: u32 = 8;
/// Guard region after each pooled linear memory, in bytes (wasmtime's default on 64-bit hosts).
pub const MEMORY_GUARD_BYTES: u64 = 32 << 20;
/// Bytes of each linear memory kept resident between instances (memset to zero instead of
/// returned to the kernel).
pub const KEEP_RESIDENT_BYTES: usize = 2 << 20;
/// Bytes of each table kept resident between instances.
pub const TABLE_KEEP_RESIDENT_BYTES: usize = 64 << 10;
/// JSON-RPC "Internal error", the code of every error answer the runner writes itself.
pub const INTERNAL_ERROR: i32 = -32603;
/// JSON-RPC "Invalid Request", for a request the runner cannot hand to the guest (no `Host`).
pub const INVALID_REQUEST: i32 = -32600;

/// `eprintln!` that never panics: a closed stderr must not take the server down with it (the
/// line is lost). Whoever reads the server's stderr must keep reading it (or point it at a
/// file): a full pipe blocks the writer, as for any process.
macro_rules! log {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

// ---------------------------------------------------------------------------------------------
// Command-line checks
// ---------------------------------------------------------------------------------------------

/// Parses the `--http` address. Accepted: `IP:PORT` (`127.0.0.1:8765`, `0.0.0.0:80`),
/// `[IPv6]:PORT` (`[::1]:8765`), `localhost:PORT` (any `*.localhost` name too, case-insensitive,
/// mapped to `127.0.0.1` without a DNS lookup) and a bare `PORT` (on `127.0.0.1`). Port 0 asks
/// the system for a free port. Other host names are refused: a name could resolve to anything.
///
/// `Err` is the message clap prints (exit [`exit::USAGE`]).
pub fn parse_listen_addr(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text
            .parse::<u16>()
            .map(|port| SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .map_err(|_| format!("port {text} is out of range (0-65535)"));
    }
    if let Some((host, port)) = text.rsplit_once(':')
        && is_localhost_name(host)
    {
        return port
            .parse::<u16>()
            .map(|port| SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .map_err(|_| format!("{port:?} is not a port (0-65535)"));
    }
    Err(format!("{text:?} is not IP:PORT, [IPv6]:PORT, localhost:PORT or PORT"))
}

/// `localhost`, `localhost.` and any `*.localhost` name (RFC 6761: always loopback), any case.
pub fn is_localhost_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// Whether `addr` is reachable from this machine only: `127.0.0.0/8`, `::1`, or an IPv4-mapped
/// `::ffff:127.x.y.z`. The unspecified addresses `0.0.0.0` and `::` (every interface) are not.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    match addr.ip() {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
    }
}

/// The refusal of spec "Streamable HTTP": a non-loopback `addr` needs a bearer token.
/// `Err` is the one-line message (exit [`exit::USAGE`]).
pub fn check_bind(addr: SocketAddr, has_token: bool) -> Result<(), String> {
    if has_token || is_loopback(&addr) {
        return Ok(());
    }
    Err(format!(
        "refusing to listen on {addr} without a bearer token: it is not a loopback address; \
         pass --bearer-token-file FILE (or set {TOKEN_ENV}), or bind 127.0.0.1"
    ))
}

/// The bearer token: the content of `file` (`--bearer-token-file`) with surrounding white
/// space trimmed, else `env` (the value of [`TOKEN_ENV`], trimmed; empty = unset), else `None`.
///
/// Errors (exit [`exit::USAGE`]): the file cannot be read or is not UTF-8, the file holds only
/// white space, the value is not UTF-8, or the token has a character outside visible ASCII
/// (`!`..`~`: no inner spaces or control characters, which could never match an
/// `Authorization` header).
pub fn read_bearer_token(file: Option<&Path>, env: Option<OsString>) -> Result<Option<String>, String> {
    let token = if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--bearer-token-file {}: cannot read it: {e}", path.display()))?;
        let token = text.trim();
        if token.is_empty() {
            return Err(format!("--bearer-token-file {}: the file is empty", path.display()));
        }
        token.to_string()
    } else {
        let Some(value) = env else { return Ok(None) };
        let value = value.into_string().map_err(|_| format!("{TOKEN_ENV} is not valid UTF-8"))?;
        let token = value.trim();
        if token.is_empty() {
            return Ok(None);
        }
        token.to_string()
    };
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        let from = file.map_or_else(|| TOKEN_ENV.to_string(), |p| format!("--bearer-token-file {}", p.display()));
        return Err(format!("{from}: the token must be one word of visible ASCII (no spaces or control characters)"));
    }
    Ok(Some(token))
}

/// Checks one `--allow-host` value: a host name or IP literal without port (`mcp.example.com`,
/// `10.0.0.5`, `[2001:db8::1]`), as the guest matches the request's `Host` without its port.
/// No commas, white space, `/` or `@`. Returns it unchanged.
pub fn parse_allowed_host(text: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("{text:?} is not a host name: {why}"));
    if text.is_empty() {
        return bad("empty");
    }
    if text.bytes().any(|b| !b.is_ascii_graphic() || matches!(b, b',' | b'/' | b'@' | b'?' | b'#')) {
        return bad("no commas, white space, '/', '@', '?' or '#'");
    }
    if let Some(inner) = text.strip_prefix('[') {
        return match inner.strip_suffix(']').map(str::parse::<Ipv6Addr>) {
            Some(Ok(_)) => Ok(text.to_string()),
            _ => bad("a bracketed name must be an IPv6 address, e.g. [2001:db8::1]"),
        };
    }
    if text.contains(':') {
        return bad("give it without a port (IPv6 in brackets)");
    }
    Ok(text.to_string())
}

/// Checks one `--allow-origin` value: `http://host[:port]` or `https://host[:port]` as a
/// browser sends it in `Origin` (no path, query, user info, commas or white space). Returns it
/// unchanged.
pub fn parse_allowed_origin(text: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("{text:?} is not an origin (scheme://host[:port]): {why}"));
    let Some((scheme, authority)) = text.split_once("://") else {
        return bad("no scheme");
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return bad("the scheme must be http or https");
    }
    if authority.is_empty() {
        return bad("no host");
    }
    if authority.bytes().any(|b| !b.is_ascii_graphic() || matches!(b, b',' | b'/' | b'@' | b'?' | b'#')) {
        return bad("no path, query, user info, commas or white space");
    }
    Ok(text.to_string())
}

/// At most this many requests wait for a permit at once for `max_concurrency` slots: 16 per
/// slot, at least 64. Requests beyond are answered `503` at once.
pub fn queue_limit(max_concurrency: u32) -> usize {
    usize::try_from(max_concurrency).unwrap_or(usize::MAX).saturating_mul(16).max(64)
}

// ---------------------------------------------------------------------------------------------
// Engine and pool
// ---------------------------------------------------------------------------------------------

/// How the pooling allocator is sized: one slot per concurrent request.
///
/// Every linear memory slot reserves `memory_reservation + memory_guard` bytes of address space
/// (not of RAM: pages are committed as the guest touches them): the reservation is twice the
/// memory cap rounded up to a power of two (128 MiB for the default 64 MiB cap), so it grows
/// with `--memory-mib` and `--max-concurrency` only, instead of wasmtime's 4 GiB per slot.
/// The cap itself is enforced by the store's limiter ([`MemoryCap`]), which sees every
/// request first and so can name the cap when a guest exceeds it; the pool's own limit
/// (`max_memory_size`, the whole reservation) only backs it up. The reservation is part of the
/// engine configuration and so of the compile-cache key; it changes only when the cap crosses
/// a power of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSizing {
    /// Component instances alive at once (= `--max-concurrency`).
    pub instances: u32,
    /// Core instances in the pool (`instances ×` [`CORE_INSTANCES_PER_COMPONENT`]).
    pub core_instances: u32,
    /// Linear memories in the pool (`instances ×` [`MEMORIES_PER_COMPONENT`]).
    pub memories: u32,
    /// Tables in the pool (`instances ×` [`TABLES_PER_COMPONENT`]).
    pub tables: u32,
    /// The memory cap (`--memory-mib`), in bytes, a multiple of 64 KiB: what [`MemoryCap`]
    /// allows one linear memory.
    pub cap: usize,
    /// The pool's limit of one linear memory, in bytes (= `memory_reservation`, above the cap,
    /// so that the limiter, not the pool, refuses a guest over the cap).
    pub max_memory_size: usize,
    /// Address space reserved per linear memory, in bytes: twice the cap rounded up to a power
    /// of two.
    pub memory_reservation: u64,
    /// Guard region after each linear memory, in bytes.
    pub memory_guard: u64,
}

impl PoolSizing {
    /// Sizes the pool for `max_concurrency` requests (at least 1) with `memory_bytes` of linear
    /// memory each (rounded up to whole 64 KiB pages, at least one page).
    pub fn new(max_concurrency: u32, memory_bytes: usize) -> Self {
        let n = max_concurrency.max(1);
        let cap = memory_bytes.max(1).div_ceil(1 << 16).saturating_mul(1 << 16);
        let reservation = u64::try_from(cap).unwrap_or(u64::MAX).next_power_of_two().saturating_mul(2);
        PoolSizing {
            instances: n,
            core_instances: n.saturating_mul(CORE_INSTANCES_PER_COMPONENT),
            memories: n.saturating_mul(MEMORIES_PER_COMPONENT),
            tables: n.saturating_mul(TABLES_PER_COMPONENT),
            cap,
            max_memory_size: usize::try_from(reservation).unwrap_or(usize::MAX),
            memory_reservation: reservation,
            memory_guard: MEMORY_GUARD_BYTES,
        }
    }

    /// Address space the linear-memory pool reserves, in bytes: `memories × (reservation + guard)`.
    pub fn reserved_bytes(&self) -> u64 {
        u64::from(self.memories).saturating_mul(self.memory_reservation.saturating_add(self.memory_guard))
    }

    /// wasmtime's pooling configuration for these sizes (async stacks: one per instance).
    pub fn pooling_config(&self) -> PoolingAllocationConfig {
        let mut p = PoolingAllocationConfig::new();
        p.total_component_instances(self.instances)
            .total_core_instances(self.core_instances)
            .total_memories(self.memories)
            .total_tables(self.tables)
            .total_stacks(self.instances)
            .max_core_instances_per_component(CORE_INSTANCES_PER_COMPONENT)
            .max_memories_per_component(MEMORIES_PER_COMPONENT)
            .max_tables_per_component(TABLES_PER_COMPONENT)
            .max_memory_size(self.max_memory_size)
            // Reset the low memory (the guest's stack and data: about 1.2 MiB for the server)
            // with memset instead of madvise, so that the next instance does not page-fault
            // it in again.
            .linear_memory_keep_resident(self.cap.min(KEEP_RESIDENT_BYTES))
            .table_keep_resident(TABLE_KEEP_RESIDENT_BYTES)
            // Reset only the pages an instance wrote (Linux 6.7+ `PAGEMAP_SCAN`; without it,
            // wasmtime memsets the whole keep-resident prefix on every reset).
            .pagemap_scan(wasmtime::Enabled::Auto);
        p
    }
}

/// The engine configuration of `--http` (part of the cache key): the stdio configuration
/// ([`crate::run::engine_config`]) plus epoch interruption, the pooling allocator sized by
/// `sizing`, and its memory reservation and guard.
pub fn engine_config(sizing: &PoolSizing) -> Config {
    let mut c = crate::run::engine_config();
    c.epoch_interruption(true);
    c.memory_reservation(sizing.memory_reservation);
    c.memory_guard_size(sizing.memory_guard);
    c.allocation_strategy(InstanceAllocationStrategy::Pooling(sizing.pooling_config()));
    c
}

// ---------------------------------------------------------------------------------------------
// Host state
// ---------------------------------------------------------------------------------------------

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
struct HttpHost {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
    limits: MemoryCap,
    hooks: DenyOutbound,
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

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// Everything [`serve`] needs, already resolved and checked by `main` (the `.wasm` found, the
/// token read, [`check_bind`] passed, the cache directory chosen): the guest as stdio runs it
/// ([`crate::run::Plan`]: the HTTP component, store, memory cap per instance, cache, arguments,
/// verbosity) plus what only HTTP has.
#[derive(Clone, PartialEq, Eq)]
pub struct Setup {
    /// The guest: `wasm` is the HTTP component, `memory_bytes` the cap of each instance.
    pub guest: crate::run::Plan,
    /// Address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// The bearer token, if any (never printed).
    pub token: Option<String>,
    /// `--allow-host` names, in order.
    pub allowed_hosts: Vec<String>,
    /// `--allow-origin` origins, in order.
    pub allowed_origins: Vec<String>,
    /// Requests running at once (≥ 1).
    pub max_concurrency: u32,
    /// Deadline of one request.
    pub request_timeout: Duration,
}

impl std::fmt::Debug for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setup")
            .field("guest", &self.guest)
            .field("addr", &self.addr)
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("max_concurrency", &self.max_concurrency)
            .field("request_timeout", &self.request_timeout)
            .finish()
    }
}

impl Setup {
    /// The guest's whole environment, in this order: `PLAN_STORE=/plans` (with a store),
    /// `MCP_HTTP_BEARER_TOKEN` (with a token), `MCP_HTTP_ALLOWED_HOSTS` and
    /// `MCP_HTTP_ALLOWED_ORIGINS` (the flags' values joined with commas, only when given; the
    /// guest adds the loopback defaults itself).
    pub fn guest_env(&self) -> Vec<(String, String)> {
        let mut env = Vec::new();
        if self.guest.store.is_some() {
            env.push(("PLAN_STORE".to_string(), GUEST_STORE.to_string()));
        }
        if let Some(token) = &self.token {
            env.push((GUEST_TOKEN_ENV.to_string(), token.clone()));
        }
        if !self.allowed_hosts.is_empty() {
            env.push((GUEST_HOSTS_ENV.to_string(), self.allowed_hosts.join(",")));
        }
        if !self.allowed_origins.is_empty() {
            env.push((GUEST_ORIGINS_ENV.to_string(), self.allowed_origins.join(",")));
        }
        env
    }
}

// ---------------------------------------------------------------------------------------------
// Serving
// ---------------------------------------------------------------------------------------------

/// Shared by every connection: the pre-instantiated component and the per-request grant.
struct Server {
    pre: ProxyPre<HttpHost>,
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    queue_limit: usize,
    timeout: Duration,
    store_dir: Option<PathBuf>,
    env: Vec<(String, String)>,
    args: Vec<String>,
    memory_bytes: usize,
    verbose: bool,
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
    fn new_store(&self, deadline: Instant) -> Result<Store<HttpHost>, String> {
        let mut b = WasiCtxBuilder::new();
        // File operations (the plan store, a local directory) run on the worker thread: a
        // hop to tokio's blocking pool per operation costs more than the operation.
        b.stdout(std::io::stderr())
            .inherit_stderr()
            .allow_blocking_current_thread(true)
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .arg(GUEST_ARGV0)
            .args(&self.args);
        for (k, v) in &self.env {
            b.env(k, v);
        }
        if let Some(dir) = &self.store_dir {
            b.preopened_dir(dir, GUEST_STORE, FsPerms::ReadWrite)
                .map_err(|e| format!("cannot open the plan store {}: {e:#}", dir.display()))?;
        }
        let host = HttpHost {
            wasi: b.build(),
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
            limits: MemoryCap::new(self.memory_bytes),
            hooks: DenyOutbound,
        };
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
    async fn handle(self: Arc<Self>, req: Request<Incoming>) -> Response<HyperOutgoingBody> {
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
            Ok(Err(e)) => {
                let mut r = error_response(
                    StatusCode::BAD_REQUEST,
                    INVALID_REQUEST,
                    &format!("Invalid Request: the request body could not be read: {}", one_line(&e.to_string())),
                );
                r.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
                return r;
            }
            Err(_elapsed) => {
                let mut r = error_response(
                    StatusCode::REQUEST_TIMEOUT,
                    INTERNAL_ERROR,
                    &format!(
                        "Request timeout: the request body did not arrive within --request-timeout-ms ({timeout_ms} ms)"
                    ),
                );
                r.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
                return r;
            }
        };
        let req = Request::from_parts(parts, Full::new(body));

        // 1. A slot: at once, else wait in the bounded queue until the deadline.
        let permit = if let Ok(p) = self.slots.clone().try_acquire_owned() {
            p
        } else {
            let Some(_waiting) = Waiting::enter(&self.waiting, self.queue_limit) else {
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
            let refused = store.data().limits.refused();
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

/// A place in the wait queue, released on drop (also when the client goes away while waiting).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    /// Takes a place if fewer than `limit` are taken.
    fn enter(count: &'a AtomicUsize, limit: usize) -> Option<Self> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < limit).then_some(n + 1))
            .ok()
            .map(|_| Waiting(count))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Most request-body bytes the runner reads and hands to the guest: one more than the server's
/// 4 MiB body limit (mcp-server.md "Streamable HTTP": "a body over 4 MiB is `413` (reading stops
/// there)"), so the guest sees that the body is over its limit and answers `413` after its
/// Host/Origin, path, method and token checks.
pub const BODY_LIMIT: usize = 4 * 1024 * 1024 + 1;

/// Reads `body` until its end or until more than `limit - 1` bytes have arrived, and returns at
/// most `limit` bytes (the rest of a longer body is never read; hyper closes that connection).
///
/// # Errors
/// The connection failed while the body was arriving.
async fn read_body(mut body: Incoming, limit: usize) -> Result<Bytes, hyper::Error> {
    let mut first: Option<Bytes> = None;
    let mut buf: Vec<u8> = Vec::new();
    while let Some(frame) = body.frame().await {
        let Ok(data) = frame?.into_data() else { continue };
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

/// `503` with `Retry-After: 1`.
fn busy(message: &str) -> Response<HyperOutgoingBody> {
    let mut r = error_response(StatusCode::SERVICE_UNAVAILABLE, INTERNAL_ERROR, message);
    r.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

/// hyper's timer (for `header_read_timeout`) on tokio's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioTimer;

/// A tokio sleep boxed so that it is `Unpin` and can be reset in place.
struct TokioSleep(Pin<Box<tokio::time::Sleep>>);

impl Future for TokioSleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.0.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for TokioSleep {}

impl hyper::rt::Timer for TokioTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(TokioSleep(Box::pin(tokio::time::sleep(duration))))
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(TokioSleep(Box::pin(tokio::time::sleep_until(deadline.into()))))
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>, new_deadline: Instant) {
        match sleep.as_mut().downcast_mut_pin::<TokioSleep>() {
            Some(s) => s.get_mut().0.as_mut().reset(new_deadline.into()),
            None => *sleep = self.sleep_until(new_deadline),
        }
    }
}

/// Serves one connection until the client closes it, hyper ends it (header timeout, protocol
/// error), or shutdown is signalled (then open requests finish and idle ones close).
async fn serve_connection(server: Arc<Server>, tcp: TcpStream, mut stop: watch::Receiver<bool>) {
    let timeout = server.timeout;
    let verbose = server.verbose;
    let service = hyper::service::service_fn(move |req| {
        let server = Arc::clone(&server);
        async move { Ok::<_, Infallible>(server.handle(req).await) }
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer).header_read_timeout(timeout).keep_alive(true);
    let mut conn = pin!(builder.serve_connection(TokioIo::new(tcp), service));
    let ended = {
        let mut stopped = pin!(stop.changed());
        poll_fn(|cx| {
            if let Poll::Ready(result) = conn.as_mut().poll(cx) {
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
        conn.as_mut().graceful_shutdown();
        conn.await
    };
    if let Err(e) = result
        && verbose
    {
        log!("momentum-plan-sandbox: connection closed: {e}");
    }
}

enum Event {
    Accepted(std::io::Result<(TcpStream, SocketAddr)>),
    Stop(&'static str),
}

/// Serves `setup` until SIGINT or SIGTERM. `Ok(0)` after a signal; `Err` when the store, the
/// `.wasm`, the pool or the address cannot be used (exit codes of [`RunError::exit_code`]:
/// 66 store, 65 unreadable `.wasm`, 67 not a proxy component, 69 the initial memory is above
/// the cap, 70 pool, runtime or listen failure). Prints the listening line once bound.
#[allow(clippy::too_many_lines)] // setup, bind and the accept loop, in order
pub fn serve(setup: &Setup) -> Result<i32, RunError> {
    let t0 = Instant::now();
    let say = |what: &str| {
        if setup.guest.verbose {
            log!("momentum-plan-sandbox: [{:>7.2} ms] {what}", t0.elapsed().as_secs_f64() * 1e3);
        }
    };
    let store_dir = setup.guest.store.as_deref().map(open_store).transpose()?;
    let wasm = setup.guest.wasm.bytes().map_err(|e| RunError::UnreadableWasm(setup.guest.wasm.clone(), e))?;
    say(&format!("read {} ({} bytes)", setup.guest.wasm, wasm.len()));

    let sizing = PoolSizing::new(setup.max_concurrency, setup.guest.memory_bytes);
    let reserved_gib = sizing.reserved_bytes() as f64 / f64::from(1u32 << 30);
    let engine = Engine::new(&engine_config(&sizing)).map_err(|e| {
        RunError::Internal(format!(
            "cannot reserve the instance pool ({reserved_gib:.1} GiB of address space for {} instances): {e:#}; \
             lower --max-concurrency or --memory-mib",
            sizing.instances
        ))
    })?;
    say(&format!(
        "pool: {} instances, {} memories capped at {} ({} reserved + {} guard each, {reserved_gib:.1} GiB of \
         address space)",
        sizing.instances,
        sizing.memories,
        mib(sizing.cap),
        mib(usize::try_from(sizing.memory_reservation).unwrap_or(usize::MAX)),
        mib(usize::try_from(sizing.memory_guard).unwrap_or(usize::MAX)),
    ));
    let (component, outcome) = cache::load(&engine, &wasm, setup.guest.cache_dir.as_deref())
        .map_err(|e| RunError::NotAProxy(setup.guest.wasm.clone(), one_line(&e.to_string())))?;
    say(&outcome.describe());

    let not_a_proxy = |e: wasmtime::Error| RunError::NotAProxy(setup.guest.wasm.clone(), one_line(&format!("{e:#}")));
    let mut linker: Linker<HttpHost> = Linker::new(&engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(|e| RunError::Internal(format!("{e:#}")))?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker)
        .map_err(|e| RunError::Internal(format!("{e:#}")))?;
    let pre = ProxyPre::new(linker.instantiate_pre(&component).map_err(not_a_proxy)?).map_err(not_a_proxy)?;
    say("linked");

    let server = Arc::new(Server {
        pre,
        slots: Arc::new(Semaphore::new(usize::try_from(sizing.instances).unwrap_or(usize::MAX))),
        waiting: AtomicUsize::new(0),
        queue_limit: queue_limit(sizing.instances),
        timeout: setup.request_timeout,
        store_dir,
        env: setup.guest_env(),
        args: setup.guest.guest_args.clone(),
        memory_bytes: setup.guest.memory_bytes,
        verbose: setup.guest.verbose,
    });

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| RunError::Internal(format!("cannot start the async runtime: {e}")))?;

    // One ticker for the whole server: the epoch is the guests' clock (time slices, deadline).
    let ticker = engine.weak();
    std::thread::Builder::new()
        .name("epoch-ticker".into())
        .spawn(move || {
            while let Some(engine) = ticker.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .map_err(|e| RunError::Internal(format!("cannot start the epoch ticker: {e}")))?;
    drop(engine);

    let result = runtime.block_on(async {
        // The component must instantiate (imports granted, pool limits, memory cap) before we
        // claim to be listening.
        let mut probe = server
            .new_store(Instant::now() + Duration::from_hours(1))
            .map_err(|why| RunError::BadStore(setup.guest.store.clone().unwrap_or_default(), why))?;
        if let Err(e) = server.pre.instantiate_async(&mut probe).await {
            if let Some(desired) = probe.data().limits.refused() {
                return Err(RunError::MemoryCap { cap: setup.guest.memory_bytes, desired });
            }
            return Err(not_a_proxy(e));
        }
        drop(probe);
        say("instantiated once (check)");

        let listener = TcpListener::bind(setup.addr).await.map_err(|e| RunError::Listen(setup.addr, e))?;
        let local = listener.local_addr().map_err(|e| RunError::Listen(setup.addr, e))?;
        let signal = |kind| {
            tokio::signal::unix::signal(kind).map_err(|e| RunError::Internal(format!("cannot handle signals: {e}")))
        };
        let mut sigint = signal(tokio::signal::unix::SignalKind::interrupt())?;
        let mut sigterm = signal(tokio::signal::unix::SignalKind::terminate())?;
        log!("momentum-plan-sandbox: listening on http://{local}/mcp");

        let (stop_tx, stop_rx) = watch::channel(false);
        let mut connections = tokio::task::JoinSet::new();
        let reason = loop {
            let event = poll_fn(|cx| {
                if sigint.poll_recv(cx).is_ready() {
                    return Poll::Ready(Event::Stop("SIGINT"));
                }
                if sigterm.poll_recv(cx).is_ready() {
                    return Poll::Ready(Event::Stop("SIGTERM"));
                }
                listener.poll_accept(cx).map(Event::Accepted)
            })
            .await;
            match event {
                Event::Stop(name) => break name,
                Event::Accepted(Ok((tcp, _peer))) => {
                    let _ = tcp.set_nodelay(true);
                    connections.spawn(serve_connection(Arc::clone(&server), tcp, stop_rx.clone()));
                    while connections.try_join_next().is_some() {}
                }
                Event::Accepted(Err(e)) => {
                    // Out of file descriptors and the like: not fatal, try again shortly.
                    log!("momentum-plan-sandbox: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        };
        drop(listener);
        say(&format!("{reason}: finishing {} open connection(s)", connections.len()));
        let _ = stop_tx.send(true);
        let drained = tokio::time::timeout(setup.request_timeout + Duration::from_secs(1), async {
            while connections.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            connections.abort_all();
        }
        say("stopped");
        Ok(exit::OK)
    });
    runtime.shutdown_timeout(Duration::from_millis(200));
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        let ok = |s: &str| parse_listen_addr(s).unwrap();
        assert_eq!(ok("127.0.0.1:8765"), "127.0.0.1:8765".parse().unwrap());
        assert_eq!(ok(" 0.0.0.0:80 "), "0.0.0.0:80".parse().unwrap());
        assert_eq!(ok("[::1]:0"), "[::1]:0".parse().unwrap());
        assert_eq!(ok("localhost:9"), "127.0.0.1:9".parse().unwrap());
        assert_eq!(ok("LocalHost.:9"), "127.0.0.1:9".parse().unwrap());
        assert_eq!(ok("mcp.localhost:10"), "127.0.0.1:10".parse().unwrap());
        assert_eq!(ok("8080"), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(ok("0"), "127.0.0.1:0".parse().unwrap());
        for bad in ["", "example.com:80", "localhost", "localhost:", "localhost:70000", "127.0.0.1", "::1", "70000"] {
            assert!(parse_listen_addr(bad).is_err(), "{bad:?} accepted");
        }
        assert!(parse_listen_addr("70000").unwrap_err().contains("out of range"));
    }

    #[test]
    fn loopback_addresses() {
        for lo in ["127.0.0.1:1", "127.255.0.9:1", "[::1]:1", "[::ffff:127.0.0.1]:1"] {
            assert!(is_loopback(&lo.parse().unwrap()), "{lo}");
        }
        for not in ["0.0.0.0:1", "[::]:1", "10.0.0.1:1", "192.168.1.2:1", "[2001:db8::1]:1", "[::ffff:10.0.0.1]:1"] {
            assert!(!is_loopback(&not.parse().unwrap()), "{not}");
        }
        assert!(is_loopback(&parse_listen_addr("localhost:1").unwrap()));
        for name in ["localhost", "LOCALHOST", "localhost.", "a.localhost", "x.y.localhost."] {
            assert!(is_localhost_name(name), "{name}");
        }
        for name in ["localhost.com", "mylocalhost", "", "127.0.0.1"] {
            assert!(!is_localhost_name(name), "{name}");
        }
    }

    #[test]
    fn non_loopback_needs_a_token() {
        let any: SocketAddr = "0.0.0.0:8765".parse().unwrap();
        let lo: SocketAddr = "127.0.0.1:8765".parse().unwrap();
        assert_eq!(check_bind(lo, false), Ok(()));
        assert_eq!(check_bind(lo, true), Ok(()));
        assert_eq!(check_bind(any, true), Ok(()));
        let e = check_bind(any, false).unwrap_err();
        assert!(!e.contains('\n'), "one line: {e}");
        assert!(e.contains("0.0.0.0:8765") && e.contains("--bearer-token-file") && e.contains(TOKEN_ENV), "{e}");
        assert!(e.contains("bind 127.0.0.1"), "{e}");
    }

    #[test]
    fn bearer_token_sources() {
        let dir = crate::testdir::tempdir();
        let file = dir.path().join("token");
        std::fs::write(&file, "  s3cr3t-token_x\n\n").unwrap();
        assert_eq!(read_bearer_token(Some(&file), None), Ok(Some("s3cr3t-token_x".into())));
        // The file wins over the environment variable.
        assert_eq!(read_bearer_token(Some(&file), Some("other".into())), Ok(Some("s3cr3t-token_x".into())));
        assert_eq!(read_bearer_token(None, Some(" from-env \n".into())), Ok(Some("from-env".into())));
        assert_eq!(read_bearer_token(None, Some("".into())), Ok(None));
        assert_eq!(read_bearer_token(None, Some("  ".into())), Ok(None));
        assert_eq!(read_bearer_token(None, None), Ok(None));

        std::fs::write(&file, " \n\t").unwrap();
        let e = read_bearer_token(Some(&file), None).unwrap_err();
        assert!(e.contains("--bearer-token-file") && e.contains("empty"), "{e}");
        std::fs::write(&file, "two words").unwrap();
        assert!(read_bearer_token(Some(&file), None).unwrap_err().contains("visible ASCII"));
        std::fs::write(&file, "t\u{7f}").unwrap();
        assert!(read_bearer_token(Some(&file), None).is_err());
        assert!(read_bearer_token(None, Some("é".into())).unwrap_err().contains(TOKEN_ENV));
        let missing = dir.path().join("missing");
        let e = read_bearer_token(Some(&missing), None).unwrap_err();
        assert!(e.contains("cannot read") && e.contains(&missing.display().to_string()), "{e}");
        assert!(read_bearer_token(Some(dir.path()), None).is_err(), "a directory is no token file");
    }

    #[test]
    fn allowed_hosts_and_origins() {
        for ok in ["mcp.example.com", "10.0.0.5", "[2001:db8::1]", "Example.COM"] {
            assert_eq!(parse_allowed_host(ok), Ok(ok.to_string()));
        }
        for bad in ["", "a,b", "a b", "host:443", "http://a", "[::1", "[nope]", "a/b", "u@h", "::1"] {
            assert!(parse_allowed_host(bad).is_err(), "{bad:?}");
        }
        for ok in ["https://app.example.com", "http://localhost:3000", "HTTPS://A.example", "http://[::1]:8080"] {
            assert_eq!(parse_allowed_origin(ok), Ok(ok.to_string()));
        }
        for bad in [
            "",
            "app.example.com",
            "ftp://a",
            "https://",
            "https://a/",
            "https://a/p",
            "https://a,https://b",
            "https://u@a",
            "https://a b",
        ] {
            assert!(parse_allowed_origin(bad).is_err(), "{bad:?}");
        }
    }

    fn setup() -> Setup {
        Setup {
            guest: crate::run::Plan {
                wasm: "/x/momentum-plan-mcp-http.wasm".into(),
                store: None,
                memory_bytes: 64 << 20,
                cache_dir: None,
                guest_args: vec![],
                verbose: false,
            },
            addr: "127.0.0.1:0".parse().unwrap(),
            token: None,
            allowed_hosts: vec![],
            allowed_origins: vec![],
            max_concurrency: 4,
            request_timeout: Duration::from_secs(10),
        }
    }

    #[test]
    fn guest_environment() {
        let s = setup();
        assert!(s.guest_env().is_empty(), "nothing at all by default");
        let s = Setup {
            guest: crate::run::Plan { store: Some("/plans-on-host".into()), ..setup().guest },
            token: Some("tok".into()),
            allowed_hosts: vec!["a.example".into(), "[2001:db8::1]".into()],
            allowed_origins: vec!["https://a.example".into(), "http://b.example:8080".into()],
            ..setup()
        };
        let env = s.guest_env();
        let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            pairs,
            vec![
                ("PLAN_STORE", "/plans"),
                ("MCP_HTTP_BEARER_TOKEN", "tok"),
                ("MCP_HTTP_ALLOWED_HOSTS", "a.example,[2001:db8::1]"),
                ("MCP_HTTP_ALLOWED_ORIGINS", "https://a.example,http://b.example:8080"),
            ]
        );
        assert!(!format!("{s:?}").contains("tok\""), "Debug hides the token: {s:?}");
    }

    #[test]
    fn pool_sizing_follows_concurrency_and_cap() {
        let p = PoolSizing::new(4, 64 << 20);
        assert_eq!(p.instances, 4);
        assert_eq!(p.core_instances, 4 * CORE_INSTANCES_PER_COMPONENT);
        assert_eq!(p.memories, 4 * MEMORIES_PER_COMPONENT);
        assert_eq!(p.tables, 4 * TABLES_PER_COMPONENT);
        assert_eq!(p.cap, 64 << 20);
        assert_eq!(p.memory_reservation, 128 << 20);
        assert_eq!(p.max_memory_size, 128 << 20, "the pool's limit is above the cap: the limiter refuses first");
        assert_eq!(p.reserved_bytes(), 8 * ((128 << 20) + MEMORY_GUARD_BYTES));
        assert!(p.reserved_bytes() < 2 << 30, "the default pool reserves well under wasmtime's 4 GiB per slot");

        // A cap that is not a power of two: reservation rounds up, the cap itself stays.
        let p = PoolSizing::new(2, 100 << 20);
        assert_eq!(p.cap, 100 << 20);
        assert_eq!(p.memory_reservation, 256 << 20);
        // A 1 MiB cap still leaves room for a program whose initial memory is above it, so the
        // limiter reports the cap instead of the pool failing the instantiation.
        assert_eq!(PoolSizing::new(1, 1 << 20).max_memory_size, 2 << 20);
        // Odd byte counts become whole pages; zero concurrency becomes one.
        let p = PoolSizing::new(0, 1);
        assert_eq!((p.instances, p.cap, p.memory_reservation), (1, 1 << 16, 2 << 16));
        // The largest cap and concurrency.
        let p = PoolSizing::new(1024, 4096 << 20);
        assert_eq!(p.memory_reservation, 8 << 30);
        assert_eq!(p.memories, 2048);
    }

    #[test]
    fn queue_is_bounded() {
        assert_eq!(queue_limit(1), 64);
        assert_eq!(queue_limit(4), 64);
        assert_eq!(queue_limit(8), 128);
    }

    #[test]
    fn http_engine_has_its_own_cache_key() {
        // Pooling, reservation and epochs are part of the precompile-compatibility hash: the
        // HTTP engine never loads an entry compiled for the stdio engine, nor for another cap
        // class.
        const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\x00\x01\x00";
        let stdio = Engine::new(&crate::run::engine_config()).unwrap();
        let small = Engine::new(&engine_config(&PoolSizing::new(2, 64 << 20))).unwrap();
        let same_class = Engine::new(&engine_config(&PoolSizing::new(3, 40 << 20))).unwrap();
        let big = Engine::new(&engine_config(&PoolSizing::new(2, 512 << 20))).unwrap();
        let k = |e: &Engine| cache::key(e, EMPTY_COMPONENT);
        assert_ne!(k(&stdio), k(&small));
        assert_ne!(k(&small), k(&big));
        assert_eq!(k(&small), k(&same_class), "concurrency and caps of one power of two share the entry");
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

    #[test]
    fn waiting_places_are_bounded_and_released() {
        let n = AtomicUsize::new(0);
        let a = Waiting::enter(&n, 2).unwrap();
        let b = Waiting::enter(&n, 2).unwrap();
        assert!(Waiting::enter(&n, 2).is_none());
        drop(a);
        let c = Waiting::enter(&n, 2).unwrap();
        drop((b, c));
        assert_eq!(n.load(Ordering::Relaxed), 0);
    }
}
