//! `momentum-plan-sandbox`: runs `momentum-plan-mcp.wasm` in wasmtime with inherited stdio.
//! See the library docs (`momentum_plan_sandbox`) and `README.md` for flags, lookup order,
//! cache and exit codes.

use std::process::ExitCode;

use momentum_plan_sandbox::cli::Args;
use momentum_plan_sandbox::{cache, exit, locate, run};

fn fail(code: i32, message: impl std::fmt::Display) -> i32 {
    eprintln!("momentum-plan-sandbox: error: {message}");
    code
}

fn real_main() -> i32 {
    let args = match Args::try_parse_from_args(std::env::args_os()) {
        Ok(a) => a,
        Err(e) => {
            let code = if e.exit_code() == 0 { exit::OK } else { exit::USAGE };
            let _ = e.print();
            return code;
        }
    };
    let found = match locate::locate(&locate::Inputs::from_process(args.wasm.clone())) {
        Ok(f) => f,
        Err(e) => return fail(exit::NO_WASM, e),
    };
    let cache_dir = if args.no_cache {
        None
    } else {
        cache::default_dir(args.cache_dir.as_deref(), std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
    };
    if args.verbose {
        eprintln!(
            "momentum-plan-sandbox: wasm {} (from {}); store {}; memory cap {} MiB; cache {}",
            found.path.display(),
            found.origin,
            args.store.as_deref().map_or("none (read-only)".into(), |p| p.display().to_string()),
            args.memory_mib,
            cache_dir.as_deref().map_or("off".into(), |p: &std::path::Path| p.display().to_string()),
        );
    }
    let plan = run::Plan {
        wasm: found.path,
        store: args.store.clone(),
        memory_bytes: args.memory_bytes(),
        cache_dir,
        guest_args: args.guest_args.clone(),
        verbose: args.verbose,
    };
    match run::run(&plan) {
        Ok(code) => code,
        Err(e) => fail(e.exit_code(), e),
    }
}

fn main() -> ExitCode {
    let code = real_main();
    // Exit codes are 0..=255 on the platforms we run on; anything else reads as failure.
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
