//! Build script: for wasm targets, drop the name section (function names for debugging) from
//! the `.wasm`, which is about a seventh of its size. Native builds are left as they are.

fn main() {
    println!("cargo:rerun-if-changed=src/build.rs");
    println!("cargo:rerun-if-env-changed=MOMENTUM_PLAN_MCP_KEEP_NAMES");
    let target = std::env::var("TARGET").unwrap_or_default();
    // MOMENTUM_PLAN_MCP_KEEP_NAMES=1 keeps the names, for size profiling.
    if target.starts_with("wasm32") && std::env::var_os("MOMENTUM_PLAN_MCP_KEEP_NAMES").is_none() {
        println!("cargo:rustc-link-arg-bins=--strip-all");
    }
}
