//! Build script: the canary guest's initial linear memory is [`INITIAL_MEMORY_BYTES`], so that
//! its addresses (`src/main.rs`) fall where the test wants them: one in the initial memory, two
//! in pages the guest grows itself, one of them inside the runner's kept-resident prefix.

/// The guest's initial linear memory, in bytes: 1 MiB of stack plus 256 KiB for the data and
/// the heap (a multiple of the 64 KiB page).
const INITIAL_MEMORY_BYTES: u32 = (1 << 20) + (256 << 10);

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("TARGET").unwrap_or_default().starts_with("wasm32") {
        println!("cargo:rustc-link-arg-bins=--initial-memory={INITIAL_MEMORY_BYTES}");
    }
}
