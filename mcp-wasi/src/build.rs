//! Build script: for wasm targets, drop the name section (function names for debugging) from
//! the `.wasm`, which is about a seventh of its size. Native builds are left as they are.

fn main() {
    println!("cargo:rerun-if-changed=src/build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.starts_with("wasm32") {
        println!("cargo:rustc-link-arg-bins=--strip-all");
    }
}
