//! The start-up self-check of the pool's slot reset (issue 30, "Isolation stays proven"): before
//! `--http` serves anything, a probe module writes a canary into its linear memory, is dropped,
//! and is instantiated again; the second instance must read zeros where the first wrote.
//!
//! wasmtime's pooling allocator gives an instance of a module the slot that module last used (its
//! affinity, which keeps the copy-on-write image mapped), so the second instance runs in the
//! first one's slot and sees exactly what the reset left there. With `pagemap_scan` on, the reset
//! clears only the pages the kernel reports as written; if that ever misses a page, this check
//! sees the canary and [`super::serve`] starts again with `pagemap_scan` off (and says so), and
//! refuses to serve when even the plain reset fails.

use wasmtime::{Engine, Instance, Module, Store};

/// Where the probe writes its canary: 1 MiB + 4 KiB into its memory, inside the part of the slot
/// that is kept resident between instances and reset in place (not returned to the kernel).
pub const CANARY_ADDRESS: i32 = (1 << 20) + 4096;

/// The canary the probe writes (the word it stores after reading).
pub const CANARY: i32 = 42;

/// The probe: a core module with one 17-page memory (1.06 MiB) and one function
/// `probe(address: i32) -> i32` that returns the word at `address` and then stores [`CANARY`]
/// there. Written as bytes (the runner is built without wasmtime's text parser):
///
/// ```text
/// (module
///   (memory 17)
///   (func (export "probe") (param i32) (result i32) (local i32)
///     local.get 0  i32.load   local.set 1
///     local.get 0  i32.const 42  i32.store
///     local.get 1))
/// ```
const PROBE: &[u8] = &[
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
    0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type section: (i32) -> i32
    0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
    0x05, 0x03, 0x01, 0x00, 0x11, // memory section: one memory, 17 pages, no maximum
    0x07, 0x09, 0x01, 0x05, b'p', b'r', b'o', b'b', b'e', 0x00, 0x00, // export "probe" = func 0
    0x0a, 0x16, 0x01, 0x14, 0x01, 0x01, 0x7f, // code section: one body, one i32 local
    0x20, 0x00, 0x28, 0x02, 0x00, 0x21, 0x01, // local.get 0; i32.load; local.set 1
    0x20, 0x00, 0x41, 0x2a, 0x36, 0x02, 0x00, // local.get 0; i32.const 42; i32.store
    0x20, 0x01, 0x0b, // local.get 1; end
];

/// Runs the probe twice in `engine` (the `--http` engine, with its pool and epoch interruption)
/// and returns the word the second instance read at [`CANARY_ADDRESS`]: 0 when the reset is
/// clean, [`CANARY`] when the first instance's write survived it.
///
/// # Errors
/// The probe cannot be compiled, instantiated or called in this engine (its pool is full, its
/// memory is above the pool's limits), or the first instance did not read 0 (a slot that was
/// never used must be zero).
pub fn second_read(engine: &Engine) -> wasmtime::Result<i32> {
    let module = Module::new(engine, PROBE)?;
    let run = || -> wasmtime::Result<i32> {
        let mut store = Store::new(engine, ());
        store.set_epoch_deadline(u64::MAX / 2);
        let instance = Instance::new(&mut store, &module, &[])?;
        let probe = instance.get_typed_func::<i32, i32>(&mut store, "probe")?;
        probe.call(&mut store, CANARY_ADDRESS)
    };
    let first = run()?;
    if first != 0 {
        wasmtime::bail!("a fresh slot read {first:#x} at {CANARY_ADDRESS:#x}, not 0");
    }
    run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::pool::PoolSizing;

    #[test]
    fn the_pool_resets_a_slot_with_and_without_pagemap_scan() {
        for pagemap_scan in [true, false] {
            let sizing = PoolSizing { pagemap_scan, ..PoolSizing::new(2, 64 << 20) };
            let engine = Engine::new(&sizing.http_engine_config()).unwrap();
            assert_eq!(second_read(&engine).unwrap(), 0, "pagemap_scan {pagemap_scan}");
        }
    }

    #[test]
    fn the_probe_sees_its_own_canary_without_a_reset() {
        // The check can fail: in one instance, a second call reads the first call's canary.
        let engine = Engine::new(&PoolSizing::new(1, 64 << 20).http_engine_config()).unwrap();
        let module = Module::new(&engine, PROBE).unwrap();
        let mut store = Store::new(&engine, ());
        store.set_epoch_deadline(u64::MAX / 2);
        let instance = Instance::new(&mut store, &module, &[]).unwrap();
        let probe = instance.get_typed_func::<i32, i32>(&mut store, "probe").unwrap();
        assert_eq!(probe.call(&mut store, CANARY_ADDRESS).unwrap(), 0);
        assert_eq!(probe.call(&mut store, CANARY_ADDRESS).unwrap(), CANARY);
    }
}
