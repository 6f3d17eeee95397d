//! `momentum-plan-sandbox`: runs `momentum-plan-mcp.wasm` in wasmtime with inherited stdio, or
//! with `--http` serves `momentum-plan-mcp-http.wasm` as Streamable HTTP.
//! See the library docs (`momentum_plan_sandbox`) and `README.md` for flags, lookup order,
//! cache and exit codes.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use momentum_plan_sandbox::cli::{Args, checks};
use momentum_plan_sandbox::{cache, exit, http, locate, run};

fn fail(code: i32, message: impl std::fmt::Display) -> i32 {
    eprintln!("momentum-plan-sandbox: error: {message}");
    code
}

fn cache_dir(args: &Args) -> Option<PathBuf> {
    if args.no_cache {
        None
    } else {
        cache::default_dir(args.cache_dir.as_deref(), std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
    }
}

fn show(path: Option<&std::path::Path>, none: &str) -> String {
    path.map_or(none.into(), |p| p.display().to_string())
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
    if let Some(addr) = args.http {
        return http_main(&args, addr);
    }
    let found = match locate::locate(&locate::Inputs::from_process(locate::STDIO, args.wasm.clone())) {
        Ok(f) => f,
        Err(e) => return fail(exit::NO_WASM, e),
    };
    let cache_dir = cache_dir(&args);
    if args.verbose {
        eprintln!(
            "momentum-plan-sandbox: wasm {} (from {}); store {}; memory cap {} MiB; cache {}",
            found.wasm,
            found.origin,
            show(args.store.as_deref(), "none (read-only)"),
            args.memory_mib,
            show(cache_dir.as_deref(), "off"),
        );
    }
    let guest = guest_run(args.clone(), found.wasm, cache_dir);
    match run::run(&guest) {
        Ok(code) => code,
        Err(e) => fail(e.exit_code(), e),
    }
}

/// The guest as both modes run it: the component chosen, the store, the memory cap, the cache, the
/// guest's arguments and verbosity, from the command line.
fn guest_run(args: Args, wasm: locate::Wasm, cache_dir: Option<PathBuf>) -> run::GuestRun {
    let memory_bytes = args.memory_bytes();
    run::GuestRun {
        wasm,
        store: args.store,
        memory_bytes,
        cache_dir,
        guest_args: args.guest_args,
        verbose: args.verbose,
    }
}

/// `--http ADDR`: check the command line (token, loopback rule), find the HTTP component, serve.
fn http_main(args: &Args, addr: SocketAddr) -> i32 {
    let token = match checks::read_bearer_token(args.bearer_token_file.as_deref(), std::env::var_os(checks::TOKEN_ENV))
    {
        Ok(t) => t,
        Err(e) => return fail(exit::USAGE, e),
    };
    if let Err(e) = checks::check_bind(addr, token.is_some()) {
        return fail(exit::USAGE, e);
    }
    let found = match locate::locate(&locate::Inputs::from_process(locate::HTTP, args.wasm.clone())) {
        Ok(f) => f,
        Err(e) => return fail(exit::NO_WASM, e),
    };
    let cache_dir = cache_dir(args);
    let setup = http::Setup {
        guest: guest_run(args.clone(), found.wasm, cache_dir),
        addr,
        token,
        allowed_hosts: args.allow_hosts.clone(),
        allowed_origins: args.allow_origins.clone(),
        max_concurrency: args.max_concurrency(),
        request_timeout: args.request_timeout(),
        max_connections: args.max_connections(),
    };
    if args.verbose {
        let extra = |list: &[String]| {
            if list.is_empty() { "loopback only".to_string() } else { format!("loopback and {}", list.join(",")) }
        };
        eprintln!(
            "momentum-plan-sandbox: http wasm {} (from {}); store {}; memory cap {} MiB; max concurrency {}; \
             max connections {}; request timeout {} ms; bearer token {}; hosts {}; origins {}; cache {}",
            setup.guest.wasm,
            found.origin,
            show(setup.guest.store.as_deref(), "none (read-only)"),
            args.memory_mib,
            setup.max_concurrency,
            setup.max_connections,
            setup.request_timeout.as_millis(),
            if setup.token.is_some() { "required" } else { "none" },
            extra(&setup.allowed_hosts),
            extra(&setup.allowed_origins),
            show(setup.guest.cache_dir.as_deref(), "off"),
        );
    }
    match http::serve(&setup) {
        Ok(code) => code,
        Err(e) => fail(e.exit_code(), e),
    }
}

fn main() -> ExitCode {
    let code = real_main();
    // Exit codes are 0..=255 on the platforms we run on; anything else reads as failure.
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
