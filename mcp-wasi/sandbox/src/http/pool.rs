//! The instance pool of `--http`: how wasmtime's pooling allocator is sized from
//! `--max-concurrency` and `--memory-mib` ([`PoolSizing`]), and the engine configuration that
//! holds it ([`PoolSizing::http_engine_config`]).

use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig};

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
/// The reservation per linear memory at which Cranelift drops the bounds check of every guest load
/// and store (a 32-bit memory: reservation + guard ≥ 4 GiB; wasmtime's default, kept by `wasmtime
/// serve` and Spin; `../shared/notes/http-floor.md` §1).
pub const WIDE_RESERVATION_BYTES: u64 = 4 << 30;

/// How the pooling allocator is sized: one slot per concurrent request.
///
/// Every linear memory slot reserves `memory_reservation + memory_guard` bytes of address space
/// (not of RAM: pages are committed as the guest touches them). [`PoolSizing::wide`], which
/// [`super::serve`] tries first, reserves [`WIDE_RESERVATION_BYTES`] (4 GiB) per memory, so the
/// guest's loads and stores carry no bounds check; where the address space does not allow it
/// (a 39-bit aarch64 host, an `RLIMIT_AS`), [`PoolSizing::new`] reserves twice the memory cap
/// rounded up to a power of two (128 MiB for the default 64 MiB cap), and every access is checked.
/// The cap itself is enforced by the store's limiter ([`crate::guest::MemoryCap`]), which sees
/// every request first and so can name the cap when a guest exceeds it; the pool's own limit
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
    /// The memory cap (`--memory-mib`), in bytes, a multiple of 64 KiB: what
    /// [`crate::guest::MemoryCap`] allows one linear memory.
    pub cap: usize,
    /// The pool's limit of one linear memory, in bytes (= `memory_reservation`, above the cap,
    /// so that the limiter, not the pool, refuses a guest over the cap).
    pub max_memory_size: usize,
    /// Address space reserved per linear memory, in bytes: twice the cap rounded up to a power
    /// of two.
    pub memory_reservation: u64,
    /// Guard region after each linear memory, in bytes.
    pub memory_guard: u64,
    /// Reset a slot by clearing only the pages the kernel reports written (Linux 6.7+
    /// `PAGEMAP_SCAN`, when available); `false` after a failed [`super::reset_check`].
    pub pagemap_scan: bool,
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
            pagemap_scan: true,
        }
    }

    /// [`PoolSizing::new`] with [`WIDE_RESERVATION_BYTES`] per memory (or more, for a cap that
    /// needs more): no bounds checks in the guest's code. The pool's limit is the reservation, so
    /// the limiter ([`crate::guest::MemoryCap`]) still refuses first.
    pub fn wide(max_concurrency: u32, memory_bytes: usize) -> Self {
        let small = PoolSizing::new(max_concurrency, memory_bytes);
        let reservation = small.memory_reservation.max(WIDE_RESERVATION_BYTES);
        PoolSizing {
            memory_reservation: reservation,
            max_memory_size: usize::try_from(reservation).unwrap_or(usize::MAX),
            ..small
        }
    }

    /// Whether the guest's code is compiled without bounds checks: reservation + guard reach
    /// 4 GiB (wasmtime's rule for a 32-bit memory).
    pub fn elides_bounds_checks(&self) -> bool {
        self.memory_reservation.saturating_add(self.memory_guard) >= WIDE_RESERVATION_BYTES
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
            // Reset only the pages an instance wrote (Linux 6.7+ `PAGEMAP_SCAN`; without it, or
            // with `pagemap_scan: false`, wasmtime memsets the whole keep-resident prefix).
            .pagemap_scan(if self.pagemap_scan { wasmtime::Enabled::Auto } else { wasmtime::Enabled::No });
        p
    }

    /// The engine configuration of `--http` (part of the cache key): the stdio configuration
    /// ([`crate::guest::engine_config`]) plus epoch interruption, the pooling allocator of these
    /// sizes, and its memory reservation and guard.
    pub fn http_engine_config(&self) -> Config {
        let mut c = crate::guest::engine_config();
        c.epoch_interruption(true);
        c.memory_reservation(self.memory_reservation);
        c.memory_guard_size(self.memory_guard);
        c.allocation_strategy(InstanceAllocationStrategy::Pooling(self.pooling_config()));
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache;
    use wasmtime::Engine;

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
    fn the_wide_pool_elides_bounds_checks_and_keeps_the_cap() {
        let w = PoolSizing::wide(4, 64 << 20);
        assert_eq!(w.memory_reservation, 4 << 30);
        assert_eq!(w.max_memory_size, 4 << 30);
        assert_eq!(w.cap, 64 << 20, "the limiter's cap is the flag's, whatever the reservation");
        assert_eq!((w.instances, w.memories, w.memory_guard), (4, 8, MEMORY_GUARD_BYTES));
        assert!(w.elides_bounds_checks());
        assert!(!PoolSizing::new(4, 64 << 20).elides_bounds_checks());
        // A cap whose small reservation is already above 4 GiB keeps it.
        assert_eq!(PoolSizing::wide(1, 4096 << 20).memory_reservation, 8 << 30);
        // The wide pool's engine can be made here (x86-64: 8 × 4 GiB of address space).
        Engine::new(&w.http_engine_config()).unwrap();
    }

    #[test]
    fn http_engine_has_its_own_cache_key() {
        // Pooling, reservation and epochs are part of the precompile-compatibility hash: the
        // HTTP engine never loads an entry compiled for the stdio engine, nor for another cap
        // class.
        const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\x00\x01\x00";
        let stdio = Engine::new(&crate::guest::engine_config()).unwrap();
        let small = Engine::new(&PoolSizing::new(2, 64 << 20).http_engine_config()).unwrap();
        let same_class = Engine::new(&PoolSizing::new(3, 40 << 20).http_engine_config()).unwrap();
        let big = Engine::new(&PoolSizing::new(2, 512 << 20).http_engine_config()).unwrap();
        let k = |e: &Engine| cache::key(e, EMPTY_COMPONENT);
        assert_ne!(k(&stdio), k(&small));
        assert_ne!(k(&small), k(&big));
        assert_eq!(k(&small), k(&same_class), "concurrency and caps of one power of two share the entry");
    }
}
