//! Build script: the server components the runner embeds (`src/embedded.rs`), so that one
//! binary starts anywhere (`cargo install --path mcp-wasi/sandbox`, or the release tarball).
//!
//! Where the two components (`momentum-plan-mcp.wasm`, stdio; `momentum-plan-mcp-http.wasm`,
//! Streamable HTTP) come from, first rule that applies:
//! 1. `MOMENTUM_PLAN_SANDBOX_WASM_DIR` set (not empty) and holding both files: those files.
//!    The project's scripts set it to `<target>/wasm32-wasip2/release` after their own
//!    `cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http`,
//!    so CI builds each component once.
//! 2. Otherwise the script builds them itself, with that same command, into a target directory
//!    inside `OUT_DIR` (kept between builds, so later builds are incremental), from the
//!    workspace this crate sits in. This needs the `wasm32-wasip2` target
//!    (`rustup target add wasm32-wasip2`). When rule 1's variable is set but a file is
//!    missing (a fresh machine linting before building), a warning says so and rule 2 applies.
//!
//! The paths of the chosen files reach the crate as `MOMENTUM_PLAN_SANDBOX_STDIO_WASM` and
//! `MOMENTUM_PLAN_SANDBOX_HTTP_WASM` (`include_bytes!`); `MOMENTUM_PLAN_SANDBOX_WASM_FROM`
//! says which rule chose them (`--verbose` prints it).

use std::path::{Path, PathBuf};
use std::process::Command;

const DIR_ENV: &str = "MOMENTUM_PLAN_SANDBOX_WASM_DIR";
/// (file name, cargo package, rustc-env variable given to the crate)
const COMPONENTS: [(&str, &str, &str); 2] = [
    ("momentum-plan-mcp.wasm", "momentum-plan-mcp", "MOMENTUM_PLAN_SANDBOX_STDIO_WASM"),
    ("momentum-plan-mcp-http.wasm", "momentum-plan-mcp-http", "MOMENTUM_PLAN_SANDBOX_HTTP_WASM"),
];
/// What the components are built from, relative to the workspace root (rule 2 reruns when
/// any of it changes; cargo scans directories recursively).
const SOURCES: [&str; 9] = [
    "Cargo.toml",
    "Cargo.lock",
    "core/Cargo.toml",
    "core/src",
    "mcp-wasi/Cargo.toml",
    "mcp-wasi/src",
    "mcp-wasi/http/Cargo.toml",
    "mcp-wasi/http/src",
    // the MCP Apps plan view, embedded by mcp-wasi/src/apps.rs
    "bindings-wasm/www/view/plan-view.html",
];
/// Environment of this script that must not leak into the nested cargo: it would change the
/// nested build's flags or target directory, or run clippy on the components.
const SCRUB: [&str; 9] = [
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET",
    "CARGO_ENCODED_RUSTFLAGS",
    "RUSTFLAGS",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
    "CLIPPY_ARGS",
    "__CLIPPY_INTERNAL_ARGS",
    "CARGO_PRIMARY_PACKAGE",
];

fn main() {
    if let Err(e) = run() {
        // A build script reports failure by exiting non-zero; cargo shows this text.
        eprintln!("error: momentum-plan-sandbox embeds its server components: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed={DIR_ENV}");
    let given = std::env::var_os(DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = &given {
        let files: Vec<PathBuf> = COMPONENTS.iter().map(|(file, ..)| dir.join(file)).collect();
        for f in &files {
            // A missing file would make cargo rerun this script on every build; that is wanted
            // (rule 1 applies as soon as the file appears).
            println!("cargo::rerun-if-changed={}", f.display());
        }
        if files.iter().all(|f| f.is_file()) {
            return emit(&files, &format!("{DIR_ENV}={}", dir.display()));
        }
        println!(
            "cargo::warning={DIR_ENV}={} lacks {}; building the components here instead",
            dir.display(),
            COMPONENTS.map(|c| c.0).join(" or ")
        );
    }
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let root = manifest_dir
        .ancestors()
        .nth(2)
        .filter(|r| r.join("mcp-wasi/Cargo.toml").is_file())
        .ok_or_else(|| {
            format!("not inside the momentum-plan workspace; set {DIR_ENV} to a directory holding the components")
        })?
        .to_path_buf();
    for s in SOURCES {
        println!("cargo::rerun-if-changed={}", root.join(s).display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let target_dir = out.join("wasm-target");
    build(&root, &target_dir)?;
    let release = target_dir.join("wasm32-wasip2").join("release");
    let files: Vec<PathBuf> = COMPONENTS.iter().map(|(file, ..)| release.join(file)).collect();
    emit(&files, "built by build.rs")
}

/// `cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http`
/// of the workspace at `root`, into `target_dir`.
fn build(root: &Path, target_dir: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["build", "--release", "--target", "wasm32-wasip2"])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir);
    for (_, package, _) in COMPONENTS {
        cmd.args(["-p", package]);
    }
    for var in SCRUB {
        cmd.env_remove(var);
    }
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http` failed \
             ({status}); if the target is missing: `rustup target add wasm32-wasip2`; or set {DIR_ENV} to a \
             directory holding momentum-plan-mcp.wasm and momentum-plan-mcp-http.wasm"
        ))
    }
}

fn emit(files: &[PathBuf], from: &str) -> Result<(), String> {
    for (f, (name, _, var)) in files.iter().zip(COMPONENTS) {
        if !f.is_file() {
            return Err(format!("{name} was not built at {}", f.display()));
        }
        println!("cargo::rustc-env={var}={}", f.display());
    }
    println!("cargo::rustc-env=MOMENTUM_PLAN_SANDBOX_WASM_FROM={from}");
    Ok(())
}
