//! Build script: for wasm targets, drop the name section (function names for debugging) from
//! the `.wasm`, which is about a seventh of its size, and start the linear memory at
//! [`INITIAL_MEMORY_BYTES`]. Native builds are left as they are.

/// The component's initial linear memory, in bytes (a multiple of the 64 KiB page).
const INITIAL_MEMORY_BYTES: u32 = 2 << 20;

fn main() {
    println!("cargo:rerun-if-changed=src/build.rs");
    println!("cargo:rerun-if-env-changed=MOMENTUM_PLAN_MCP_KEEP_NAMES");
    let target = std::env::var("TARGET").unwrap_or_default();
    // MOMENTUM_PLAN_MCP_KEEP_NAMES=1 keeps the names, for size profiling.
    if target.starts_with("wasm32") && std::env::var_os("MOMENTUM_PLAN_MCP_KEEP_NAMES").is_none() {
        println!("cargo:rustc-link-arg-bins=--strip-all");
    }
    if target.starts_with("wasm32") {
        // 2 MiB of initial linear memory (the 1 MiB stack, the data, and the heap a request
        // needs), so that no request grows the memory: each `memory.grow` is an `mprotect` and
        // another at the pool slot's reset (issue 30; the runner keeps 2 MiB resident per slot,
        // `KEEP_RESIDENT_BYTES`). The pages a request never touches cost nothing.
        println!("cargo:rustc-link-arg-bins=--initial-memory={INITIAL_MEMORY_BYTES}");
    }
}
