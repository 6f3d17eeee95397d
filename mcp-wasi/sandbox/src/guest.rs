//! What the guest gets on both transports (spec `mcp-server.md`, "Sandbox and store"): the WASI
//! grant ([`grant`]), the memory cap ([`MemoryCap`]), the engine configuration both engines start
//! from ([`engine_config`]), and the names the guest reads (its `argv[0]`, its environment).
//!
//! Only the standard streams differ between the transports and are set by the caller: on stdio
//! the process's own ([`crate::run`]), with `--http` stderr only ([`crate::http`]).

use std::path::Path;

use wasmtime::{Config, ResourceLimiter};
use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

/// Guest path of the plan store (spec `mcp-server.md`, "Sandbox and store").
pub const GUEST_STORE: &str = "/plans";
/// Guest variable naming the plan store ([`GUEST_STORE`]), set only when a store is granted.
pub const PLAN_STORE_ENV: &str = "PLAN_STORE";
/// Guest variable carrying the bearer token (`--http`; the guest answers `401` without it).
pub const BEARER_TOKEN_ENV: &str = "MCP_HTTP_BEARER_TOKEN";
/// Guest variable with the `--allow-host` names, comma-separated (the guest always adds the
/// loopback names `localhost`, `127.0.0.1`, `[::1]`).
pub const ALLOWED_HOSTS_ENV: &str = "MCP_HTTP_ALLOWED_HOSTS";
/// Guest variable with the `--allow-origin` origins, comma-separated (the guest always adds the
/// loopback origins).
pub const ALLOWED_ORIGINS_ENV: &str = "MCP_HTTP_ALLOWED_ORIGINS";

/// The stdio guest's `argv[0]`: its package's name. The two differ because they are two
/// components; each sees its own name.
pub const STDIO_ARGV0: &str = crate::locate::STDIO.package;
/// The HTTP guest's `argv[0]` (`--http`): its package's name.
pub const HTTP_ARGV0: &str = crate::locate::HTTP.package;

/// The parts of the grant that vary by run: arguments, store and extra environment.
#[derive(Debug, Clone, Copy)]
pub struct Grant<'a> {
    /// `argv[0]`: [`STDIO_ARGV0`] or [`HTTP_ARGV0`].
    pub argv0: &'a str,
    /// Arguments after `argv[0]` (the runner's after `--`).
    pub args: &'a [String],
    /// Host directory (already opened, [`crate::run::open_store`]) mounted read-write at
    /// [`GUEST_STORE`], if any.
    pub store: Option<&'a Path>,
    /// Variables after [`PLAN_STORE_ENV`], in order.
    pub env: &'a [(String, String)],
}

impl Grant<'_> {
    /// The guest's whole environment, in order: `PLAN_STORE=/plans` (with a store only), then
    /// [`Grant::env`]. Nothing of the host's.
    pub fn environment(&self) -> impl Iterator<Item = (&str, &str)> {
        let store = self.store.map(|_| (PLAN_STORE_ENV, GUEST_STORE));
        store.into_iter().chain(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }
}

/// Grants the guest what `grant` describes and nothing else: no TCP, UDP or name lookup; the
/// arguments; the store at [`GUEST_STORE`] read-write, the only file system; the environment of
/// [`Grant::environment`]. File operations run on the guest's own thread
/// (`allow_blocking_current_thread`): the store is a local directory, and a hop to another
/// thread per operation costs more than the operation.
///
/// # Errors
/// The store directory cannot be opened (the caller names it).
pub fn grant(b: &mut WasiCtxBuilder, grant: &Grant<'_>) -> wasmtime::Result<()> {
    b.allow_blocking_current_thread(true)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false)
        .arg(grant.argv0)
        .args(grant.args);
    if let Some(dir) = grant.store {
        b.preopened_dir(dir, GUEST_STORE, FsPerms::ReadWrite)?;
    }
    for (k, v) in grant.environment() {
        b.env(k, v);
    }
    Ok(())
}

/// The engine configuration of stdio (part of the cache key), which `--http` extends
/// ([`crate::http::pool::PoolSizing::http_engine_config`]): wasmtime's defaults for the enabled
/// features; components on; Cranelift optimising for speed. In a build with the bench-only
/// `profiling` feature, `MOMENTUM_PLAN_PERFMAP=1` adds wasmtime's perf map (issue 30 item 2).
pub fn engine_config() -> Config {
    let mut c = Config::new();
    c.wasm_component_model(true);
    c.cranelift_opt_level(wasmtime::OptLevel::Speed);
    #[cfg(feature = "profiling")]
    if std::env::var_os("MOMENTUM_PLAN_PERFMAP").is_some_and(|v| v == "1") {
        c.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    c
}

/// Caps the guest's linear memories at `cap` bytes, remembers a refused growth, and counts the
/// `memory.grow`s past a memory's initial size.
#[derive(Debug)]
pub struct MemoryCap {
    cap: usize,
    refused: Option<usize>,
    grows: u32,
}

impl MemoryCap {
    /// A limiter allowing at most `cap` bytes per linear memory.
    pub fn new(cap: usize) -> Self {
        MemoryCap { cap, refused: None, grows: 0 }
    }
    /// How many `memory.grow`s were allowed after instantiation (a memory's first sizing, from
    /// 0 bytes, is not counted). Each costs an `mprotect` now and another at the slot's reset.
    pub fn grows(&self) -> u32 {
        self.grows
    }
    /// The largest size a refused `memory.grow` (or initial size) asked for, if any.
    pub fn refused(&self) -> Option<usize> {
        self.refused
    }
}

impl ResourceLimiter for MemoryCap {
    fn memory_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.cap {
            // Refused the spec's way (`memory.grow` returns -1); remembered so that the trap
            // the guest's allocator raises next is reported as the cap, not as a bug.
            self.refused = Some(self.refused.map_or(desired, |d| d.max(desired)));
            return Ok(false);
        }
        let allowed = maximum.is_none_or(|m| desired <= m);
        if allowed && current > 0 {
            self.grows = self.grows.saturating_add(1);
        }
        Ok(allowed)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(maximum.is_none_or(|m| desired <= m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_names_are_the_guests() {
        // The runner sets what the guest crate reads: a rename on either side fails here.
        use momentum_plan_mcp::{http, store};
        assert_eq!(PLAN_STORE_ENV, store::PLAN_STORE_ENV);
        assert_eq!(GUEST_STORE, store::DEFAULT_PLAN_STORE);
        assert_eq!(BEARER_TOKEN_ENV, http::BEARER_TOKEN_ENV);
        assert_eq!(ALLOWED_HOSTS_ENV, http::ALLOWED_HOSTS_ENV);
        assert_eq!(ALLOWED_ORIGINS_ENV, http::ALLOWED_ORIGINS_ENV);
        assert_eq!((STDIO_ARGV0, HTTP_ARGV0), ("momentum-plan-mcp", "momentum-plan-mcp-http"));
    }

    #[test]
    fn environment_is_the_store_then_the_rest() {
        let extra = vec![("A".to_string(), "1".to_string())];
        let g = Grant { argv0: STDIO_ARGV0, args: &[], store: None, env: &[] };
        assert_eq!(g.environment().count(), 0, "nothing at all by default");
        let g = Grant { store: Some(Path::new("/host/plans")), env: &extra, ..g };
        assert_eq!(g.environment().collect::<Vec<_>>(), vec![("PLAN_STORE", "/plans"), ("A", "1")]);
    }

    #[test]
    fn memory_cap_refuses_and_remembers() {
        let mut cap = MemoryCap::new(1 << 20);
        assert!(cap.memory_growing(0, 1 << 20, None).unwrap());
        assert!(cap.memory_growing(0, 1 << 16, Some(1 << 17)).unwrap());
        assert!(!cap.memory_growing(0, 1 << 18, Some(1 << 17)).unwrap());
        assert_eq!(cap.refused(), None, "the module's own maximum is not the cap");
        assert!(!cap.memory_growing(1 << 20, 3 << 20, None).unwrap());
        assert!(!cap.memory_growing(1 << 20, 2 << 20, None).unwrap());
        assert_eq!(cap.refused(), Some(3 << 20));
        assert_eq!(cap.grows(), 0, "sizings from 0 and refusals are not grows");
        assert!(cap.memory_growing(1 << 16, 1 << 17, None).unwrap());
        assert_eq!(cap.grows(), 1);
    }
}
