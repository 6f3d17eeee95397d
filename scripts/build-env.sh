# Sourced (`. scripts/build-env.sh`) by every project script that runs cargo: scripts/test, demo,
# package, each part's test.sh and bench script, benches/report (through scripts/test's env). They
# all build with the same settings, so none rebuilds what another built: cargo's fingerprints hold
# the compiler wrapper and the runner's build script reruns when MOMENTUM_PLAN_SANDBOX_WASM_DIR
# changes (issue 28).
#
# Sets, unless already set by an outer script (MOMENTUM_PLAN_BUILD_ENV):
# - PATH: the pinned prebuilt tools first (scripts/tools.sh: sccache, cargo-fuzz);
# - the compiler cache: RUSTC_WRAPPER=sccache, its cache in SCCACHE_DIR (default
#   ${XDG_CACHE_HOME:-~/.cache}/momentum-plan/sccache, shared by every clone on the machine,
#   SCCACHE_CACHE_SIZE default 20G), CARGO_INCREMENTAL=0 (incremental files are not cacheable;
#   no profile here uses them). MOMENTUM_PLAN_SCCACHE=0 turns the cache off; a RUSTC_WRAPPER
#   already set is kept. The sccache server starts here, its output detached from the caller's,
#   unless one is running (another clone's run shares it); MOMENTUM_PLAN_SCCACHE_STARTED=1 says
#   this call started it. It stops itself after 10 idle minutes (scripts/test stops the one it
#   started at its end, never another run's);
# - MOMENTUM_PLAN_SANDBOX_WASM_DIR: <target>/wasm32-wasip2/release, where the runner's build script
#   takes the server components from (mcp-wasi/sandbox/build.rs).
# Needs ROOT (the repository root) set by the sourcing script.
if [ -z "${MOMENTUM_PLAN_BUILD_ENV:-}" ]; then
  export MOMENTUM_PLAN_BUILD_ENV=1
  _mp_tools=$("$ROOT/scripts/tools.sh") || { echo "scripts/build-env.sh: the tools did not install" >&2; return 2; }
  export PATH="$_mp_tools:$PATH"
  unset _mp_tools
  if [ "${MOMENTUM_PLAN_SCCACHE:-1}" != 0 ] && [ -z "${RUSTC_WRAPPER:-}" ]; then
    export SCCACHE_DIR="${SCCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/momentum-plan/sccache}"
    export SCCACHE_CACHE_SIZE="${SCCACHE_CACHE_SIZE:-20G}"
    export RUSTC_WRAPPER=sccache CARGO_INCREMENTAL=0
    MOMENTUM_PLAN_SCCACHE_STARTED=
    if sccache --start-server >/dev/null 2>&1 </dev/null; then MOMENTUM_PLAN_SCCACHE_STARTED=1; fi
  fi
  export MOMENTUM_PLAN_SANDBOX_WASM_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-wasip2/release"
fi
