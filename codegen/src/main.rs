//! `cargo run -p momentum-plan-codegen [-- --check]`: writes every generated file (see the
//! library's docs) under the workspace root, or with `--check` writes nothing and exits 1 naming
//! each file that is stale. Exit 2: a file cannot be written or a definition cannot be rendered.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = std::env::args().skip(1).any(|a| a == "--check");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new("."));
    let files = match momentum_plan_codegen::files() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("momentum-plan-codegen: {e}");
            return ExitCode::from(2);
        }
    };
    let mut stale = 0;
    for (path, text) in files {
        let full = root.join(path);
        let now = std::fs::read_to_string(&full).unwrap_or_default();
        if now == text {
            continue;
        }
        if check {
            eprintln!("stale: {path} (run `cargo run -p momentum-plan-codegen`)");
            stale += 1;
        } else if let Err(e) = std::fs::write(&full, text) {
            eprintln!("momentum-plan-codegen: cannot write {}: {e}", full.display());
            return ExitCode::from(2);
        } else {
            println!("wrote {path}");
        }
    }
    if stale > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
