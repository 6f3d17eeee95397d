//! Writes the contract's JSON (exactly `serde_json::to_string(momentum_plan::contract())`, the
//! `get_plan_contract` bytes) into `OUT_DIR/contract.json` at build time, so the wasm module ships
//! the text instead of the serializer code for it (README "Size").

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let json = serde_json::to_string(momentum_plan::contract())?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("contract.json");
    std::fs::write(out, json)?;
    println!("cargo::rerun-if-changed=build.rs");
    Ok(())
}
