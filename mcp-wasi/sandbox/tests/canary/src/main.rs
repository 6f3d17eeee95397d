//! `momentum-plan-sandbox-canary`: the test-only guest of the runner's isolation test (issue 30,
//! "Isolation stays proven"; `mcp-wasi/e2e/test_http_isolation.py`). A `wasm32-wasip2` component
//! that exports `wasi:http/incoming-handler`, as the HTTP server component does; built only by
//! `mcp-wasi/sandbox/test.sh`, never shipped or embedded.
//!
//! Every request, whatever its method, path or body, is answered `200` with one JSON object:
//! `{"pages":P,"words":[[ADDRESS,WORD],...]}`, where `P` is the linear memory's size in 64 KiB
//! pages when the handler started and each `WORD` the 32-bit little-endian word the handler read
//! at `ADDRESS` (a byte address, both numbers decimal), one pair per address of [`ADDRESSES`], in
//! that order. After reading, the handler writes [`canary`] of each address there. A fresh
//! instance must read zeros at every address: an instance that reads a canary sees what the
//! previous request in its pool slot left behind, and the runner's slot reset failed.
//!
//! The addresses lie where neither the allocator nor the data image ever writes (checked on every
//! request; a request whose check fails is answered `500` with the reason):
//! - in the initial memory, deep in the 1 MiB stack (wasm-ld's `--stack-first` puts the stack at
//!   0 and the data above it; the stack grows down from 1 MiB and never gets near 32 KiB here),
//!   inside the prefix the runner keeps resident between instances and resets in place;
//! - in pages the handler grows itself (the memory starts at 1.25 MiB, `build.rs`; nothing has
//!   grown it when the handler starts): one inside the kept-resident prefix (2 MiB,
//!   `KEEP_RESIDENT_BYTES` of `mcp-wasi/sandbox/src/http/pool.rs`), one far beyond it, which
//!   the reset gives back to the kernel.

// The guest writes only through explicit handles (the response body), as the HTTP component.
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[cfg(target_os = "wasi")]
mod guest;

/// The byte addresses the guest reads and then marks, in the answer's order: in the initial
/// memory's stack region (32 KiB), in a grown page inside the runner's 2 MiB kept-resident prefix
/// (1.75 MiB + 256), in a grown page beyond it (8 MiB + 256).
pub const ADDRESSES: [u32; 3] = [32 << 10, (7 << 18) + 256, (8 << 20) + 256];

/// The canary written at `ADDRESSES[index]`: `0xC0FFEE01` for the first, `0xC0FFEE02`, ...
pub const fn canary(index: u32) -> u32 {
    0xC0FF_EE00 + index + 1
}

/// `wasi:cli/run` of the component (and the native build): it serves nothing, it says so.
fn main() -> std::process::ExitCode {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "momentum-plan-sandbox-canary is the runner's test guest (wasi:http/incoming-handler); \
         serve it with `momentum-plan-sandbox --http --wasm momentum-plan-sandbox-canary.wasm`."
    );
    std::process::ExitCode::from(2)
}
