//! `--http`: serving the Streamable HTTP server component (`momentum-plan-mcp-http.wasm`, which
//! exports `wasi:http/incoming-handler`) over HTTP/1.1, one fresh instance per request (spec
//! `mcp-server.md`, "Streamable HTTP"; design notes `http-transport.md` §5 and §7 items 11–13).
//!
//! The guest does all of MCP (the endpoint `/mcp`, methods, eras, the `Host`/`Origin` allow-lists,
//! the bearer token, body limits); the runner only hosts it:
//!
//! - **Instances.** The component is compiled once (through the [`crate::cache`]), linked and
//!   pre-instantiated once ([`ProxyPre`]); each request gets its own [`Store`](wasmtime::Store) and instance from
//!   wasmtime's pooling allocator, sized by [`PoolSizing`] from `--max-concurrency` and
//!   `--memory-mib`. Nothing survives a request but the plan store on disk.
//! - **What the guest gets** (the grant of stdio, [`crate::guest::grant`]): no host environment
//!   except `PLAN_STORE=/plans` with `--store` and [`Setup::guest_env`] (`MCP_HTTP_BEARER_TOKEN`,
//!   `MCP_HTTP_ALLOWED_HOSTS`, `MCP_HTTP_ALLOWED_ORIGINS`); `--store DIR` read-write at `/plans`
//!   and no other file system; argv `momentum-plan-mcp-http` plus anything after `--`; stderr
//!   (its stdout goes to the runner's stderr too); no sockets (TCP, UDP and name lookup denied);
//!   outgoing `wasi:http` requests refused with `HTTP-request-denied`
//!   ([`host::DenyOutbound`]); linear memory capped at `--memory-mib`
//!   ([`crate::guest::MemoryCap`] plus the pool's `max_memory_size`). File operations run on the
//!   worker thread (`allow_blocking_current_thread`), as on stdio: the store is a local
//!   directory, and a hop to tokio's blocking pool per operation costs more.
//! - **Concurrency.** At most `--max-concurrency` requests run a guest at once (a semaphore whose
//!   permit is taken per request, after the request head arrived, and released when its instance
//!   is gone); later requests wait for a permit within their deadline, at most [`queue_limit`] of
//!   them (beyond that, or when the deadline passes first: `503` with `Retry-After: 1`). An idle
//!   keep-alive connection holds no permit.
//! - **Connections.** At most `--max-connections` (default 512) are open at once; one accepted
//!   beyond that is answered `503` with `Retry-After: 1` at once and closed, while the open ones
//!   keep being served ([`connection`]).
//! - **Deadline** (`--request-timeout-ms`, default 10 s). The whole request head must arrive within
//!   it (hyper's `header_read_timeout`, one deadline per head, not per byte; a head cut off half-way
//!   is answered `408`, an idle keep-alive connection is closed without one); then one deadline
//!   from the end of the head covers waiting for a permit, reading the body (which must also keep
//!   up with [`request::MIN_BODY_RATE`], else `408` at once) and the guest's work. Guest CPU is bounded by epoch
//!   interruption: a ticker thread advances the epoch every [`timer::EPOCH_TICK`], a running guest yields
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
//! Modules: [`connection`] (one connection: the head's `408`, the cap's `503`), [`pool`] (pool
//! sizing, engine configuration), [`reset_check`] (the start-up check that a reused slot reads
//! zeros), [`host`] (store data, outbound
//! denial), [`request`] (one request: body, queue, store, answer, the runner's error answers),
//! [`timer`] (hyper's timer, the epoch ticker); here, [`Setup`] and [`serve`] (bind, accept loop,
//! shutdown). The command-line checks are [`crate::cli::checks`].

use std::future::poll_fn;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use wasmtime::Engine;
use wasmtime::component::Linker;
use wasmtime_wasi_http::p2::bindings::ProxyPre;

use crate::cache;
use crate::exit;
use crate::guest::{ALLOWED_HOSTS_ENV, ALLOWED_ORIGINS_ENV, BEARER_TOKEN_ENV};
use crate::run::{GuestRun, RunError, mib, one_line, open_store};
use host::HttpHost;
use pool::{PoolSizing, WIDE_RESERVATION_BYTES};
use request::{Place, Server, queue_limit};

/// `eprintln!` that never panics: a closed stderr must not take the server down with it (the
/// line is lost). Whoever reads the server's stderr must keep reading it (or point it at a
/// file): a full pipe blocks the writer, as for any process.
macro_rules! log {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub mod connection;
pub mod host;
pub mod pool;
pub mod request;
pub mod reset_check;
pub mod timer;

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// Everything [`serve`] needs, already resolved and checked by `main` (the `.wasm` found, the
/// token read, [`crate::cli::checks::check_bind`] passed, the cache directory chosen): the guest
/// as stdio runs it ([`GuestRun`]: the HTTP component, store, memory cap per instance, cache,
/// arguments, verbosity) plus what only HTTP has.
#[derive(Clone, PartialEq, Eq)]
pub struct Setup {
    /// The guest: `wasm` is the HTTP component, `memory_bytes` the cap of each instance.
    pub guest: GuestRun,
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
    /// Connections open at once (≥ 1); one more is answered `503` and closed
    /// (`connection::refuse`).
    pub max_connections: usize,
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
            .field("max_connections", &self.max_connections)
            .finish()
    }
}

impl Setup {
    /// The guest's variables after `PLAN_STORE=/plans` (which [`crate::guest::grant`] sets with a
    /// store), in this order: `MCP_HTTP_BEARER_TOKEN` (with a token), `MCP_HTTP_ALLOWED_HOSTS`
    /// and `MCP_HTTP_ALLOWED_ORIGINS` (the flags' values joined with commas, only when given;
    /// the guest adds the loopback defaults itself).
    pub fn guest_env(&self) -> Vec<(String, String)> {
        let mut env = Vec::new();
        if let Some(token) = &self.token {
            env.push((BEARER_TOKEN_ENV.to_string(), token.clone()));
        }
        if !self.allowed_hosts.is_empty() {
            env.push((ALLOWED_HOSTS_ENV.to_string(), self.allowed_hosts.join(",")));
        }
        if !self.allowed_origins.is_empty() {
            env.push((ALLOWED_ORIGINS_ENV.to_string(), self.allowed_origins.join(",")));
        }
        env
    }
}

/// [`reset_check::second_read`] on `engine`: `(sizing, engine)` when a reused slot reads zeros;
/// else the same pool with `pagemap_scan` off, checked again (and a line on stderr saying so).
///
/// # Errors
/// [`RunError::Internal`] when the plain reset fails the check too: the runner then refuses to
/// serve, since one request could read another's memory.
fn checked_reset(sizing: PoolSizing, engine: Engine) -> Result<(PoolSizing, Engine), RunError> {
    let why = match reset_check::second_read(&engine) {
        Ok(0) => return Ok((sizing, engine)),
        Ok(word) => format!("a reused slot read {word:#x} where the previous instance wrote it"),
        Err(e) => one_line(&format!("{e:#}")),
    };
    let plain = PoolSizing { pagemap_scan: false, ..sizing };
    let engine = Engine::new(&plain.http_engine_config())
        .map_err(|e| RunError::Internal(format!("cannot make the instance pool again: {e:#}")))?;
    match reset_check::second_read(&engine) {
        Ok(0) => {
            log!(
                "momentum-plan-sandbox: the slot reset with pagemap_scan failed its check ({why}); pagemap_scan is off"
            );
            Ok((plain, engine))
        }
        other => Err(RunError::Internal(format!(
            "the instance pool's slot reset failed its check ({why}; without pagemap_scan: {}); refusing to serve, \
             since a request could read the previous one's memory",
            match other {
                Ok(word) => format!("read {word:#x}"),
                Err(e) => one_line(&format!("{e:#}")),
            }
        ))),
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

    // 4 GiB per memory (no bounds checks) when the address space allows it, else the small pool.
    let wide = PoolSizing::wide(setup.max_concurrency, setup.guest.memory_bytes);
    let (sizing, engine) = match Engine::new(&wide.http_engine_config()) {
        Ok(engine) => (wide, engine),
        Err(e) => {
            let sizing = PoolSizing::new(setup.max_concurrency, setup.guest.memory_bytes);
            let reserved_gib = sizing.reserved_bytes() as f64 / f64::from(1u32 << 30);
            let engine = Engine::new(&sizing.http_engine_config()).map_err(|e| {
                RunError::Internal(format!(
                    "cannot reserve the instance pool ({reserved_gib:.1} GiB of address space for {} instances): \
                     {e:#}; lower --max-concurrency or --memory-mib",
                    sizing.instances
                ))
            })?;
            log!(
                "momentum-plan-sandbox: {} GiB of address space per memory cannot be reserved ({}); \
                 using {} per memory instead, with bounds-checked guest memory (slower)",
                WIDE_RESERVATION_BYTES >> 30,
                one_line(&format!("{e:#}")),
                mib(usize::try_from(sizing.memory_reservation).unwrap_or(usize::MAX)),
            );
            (sizing, engine)
        }
    };
    let (sizing, engine) = checked_reset(sizing, engine)?;
    let reserved_gib = sizing.reserved_bytes() as f64 / f64::from(1u32 << 30);
    say(&format!(
        "pool: {} instances, {} memories capped at {} ({} reserved + {} guard each, {reserved_gib:.1} GiB of \
         address space; bounds checks {})",
        sizing.instances,
        sizing.memories,
        mib(sizing.cap),
        mib(usize::try_from(sizing.memory_reservation).unwrap_or(usize::MAX)),
        mib(usize::try_from(sizing.memory_guard).unwrap_or(usize::MAX)),
        if sizing.elides_bounds_checks() { "elided" } else { "on every access" },
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
        waiting: Arc::new(AtomicUsize::new(0)),
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
    timer::start_epoch_ticker(&engine)
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
        let open = Arc::new(AtomicUsize::new(0));
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
                Event::Accepted(Ok((tcp, peer))) => {
                    let _ = tcp.set_nodelay(true);
                    if let Some(place) = Place::take(&open, setup.max_connections) {
                        connections.spawn(connection::serve(Arc::clone(&server), tcp, stop_rx.clone(), place));
                    } else {
                        connection::refuse(&tcp, setup.max_connections);
                        if setup.guest.verbose {
                            log!(
                                "momentum-plan-sandbox: refused {peer}: --max-connections ({}) are open",
                                setup.max_connections
                            );
                        }
                    }
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
    use crate::guest::{Grant, HTTP_ARGV0};

    fn setup() -> Setup {
        Setup {
            guest: GuestRun {
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
            max_connections: 512,
        }
    }

    #[test]
    fn guest_environment() {
        let s = setup();
        assert!(s.guest_env().is_empty(), "nothing at all by default");
        let s = Setup {
            guest: GuestRun { store: Some("/plans-on-host".into()), ..setup().guest },
            token: Some("tok".into()),
            allowed_hosts: vec!["a.example".into(), "[2001:db8::1]".into()],
            allowed_origins: vec!["https://a.example".into(), "http://b.example:8080".into()],
            ..setup()
        };
        let env = s.guest_env();
        let grant = Grant { argv0: HTTP_ARGV0, args: &[], store: s.guest.store.as_deref(), env: &env };
        assert_eq!(
            grant.environment().collect::<Vec<_>>(),
            vec![
                ("PLAN_STORE", "/plans"),
                ("MCP_HTTP_BEARER_TOKEN", "tok"),
                ("MCP_HTTP_ALLOWED_HOSTS", "a.example,[2001:db8::1]"),
                ("MCP_HTTP_ALLOWED_ORIGINS", "https://a.example,http://b.example:8080"),
            ]
        );
        assert!(!format!("{s:?}").contains("tok\""), "Debug hides the token: {s:?}");
    }
}
