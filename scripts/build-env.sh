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
# - CARGO_BUILD_BUILD_DIR: cargo's intermediate artefacts (dependencies' rlibs, build scripts'
#   output, fingerprints) in ${MOMENTUM_PLAN_BUILD_DIR:-${XDG_CACHE_HOME:-~/.cache}/momentum-plan/build},
#   shared by every clone on the machine, so a second clone compiles only the workspace's own
#   crates (sccache cannot help there: it caches no build script, proc-macro or binary, and its
#   keys hold paths inside the clone). Final artefacts (binaries, examples, .wasm, docs, criterion's reports) stay in the
#   clone's target/. Two rules keep it correct:
#   - one run at a time: this call takes `flock -n` on build/.lock, held by the sourcing script
#     and its children; when another run holds it, this one builds in its own target/ as before
#     (MOMENTUM_PLAN_BUILD_SHARED=0 says so);
#   - a crate of this workspace has the same file names in every clone (cargo hashes its path
#     relative to the workspace root) and cargo judges it fresh by mtimes alone, so when the last
#     clone to use the directory (build/.owner) was another one, every file of this checkout
#     (git ls-files, tracked and untracked) is touched first: each workspace crate then rebuilds
#     once, from this clone's sources. A run in the same clone touches nothing.
#   MOMENTUM_PLAN_SHARED_BUILD=0, a CARGO_BUILD_BUILD_DIR already set, no flock or no git checkout:
#   cargo's default (target/);
# - MOMENTUM_PLAN_SANDBOX_WASM_DIR: <target>/wasm32-wasip2/release, where the runner's build script
#   takes the server components from (mcp-wasi/sandbox/build.rs).
# Needs ROOT (the repository root) set by the sourcing script.
if [ -z "${MOMENTUM_PLAN_BUILD_ENV:-}" ]; then
  export MOMENTUM_PLAN_BUILD_ENV=1
  _mp_tools=$("$(dirname "${BASH_SOURCE[0]}")/tools.sh") || { echo "scripts/build-env.sh: the tools did not install" >&2; return 2; }
  export PATH="$_mp_tools:$PATH"
  unset _mp_tools
  if [ "${MOMENTUM_PLAN_SCCACHE:-1}" != 0 ] && [ -z "${RUSTC_WRAPPER:-}" ]; then
    export SCCACHE_DIR="${SCCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/momentum-plan/sccache}"
    export SCCACHE_CACHE_SIZE="${SCCACHE_CACHE_SIZE:-20G}"
    export RUSTC_WRAPPER=sccache CARGO_INCREMENTAL=0
    MOMENTUM_PLAN_SCCACHE_STARTED=
    if sccache --start-server >/dev/null 2>&1 </dev/null; then MOMENTUM_PLAN_SCCACHE_STARTED=1; fi
  fi
  # After the sccache server's start, so that the server (which outlives the run) never holds the lock.
  MOMENTUM_PLAN_BUILD_SHARED=0
  if [ "${MOMENTUM_PLAN_SHARED_BUILD:-1}" != 0 ] && [ -z "${CARGO_BUILD_BUILD_DIR:-}" ] \
    && command -v flock >/dev/null && git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    _mp_build="${MOMENTUM_PLAN_BUILD_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/momentum-plan/build}"
    if mkdir -p "$_mp_build" && exec {MOMENTUM_PLAN_BUILD_LOCK}>>"$_mp_build/.lock"; then
      if flock -n "$MOMENTUM_PLAN_BUILD_LOCK"; then
        _mp_root=$(cd "$ROOT" && pwd -P)
        if [ "$(cat "$_mp_build/.owner" 2>/dev/null)" != "$_mp_root" ]; then
          git -C "$_mp_root" ls-files -z --cached --others --exclude-standard \
            | (cd "$_mp_root" && xargs -0 -r touch -c -h --)
          printf '%s\n' "$_mp_root" >"$_mp_build/.owner.tmp" && mv "$_mp_build/.owner.tmp" "$_mp_build/.owner"
        fi
        export CARGO_BUILD_BUILD_DIR="$_mp_build"
        MOMENTUM_PLAN_BUILD_SHARED=1
        unset _mp_root
      else
        exec {MOMENTUM_PLAN_BUILD_LOCK}>&-
        echo "scripts/build-env.sh: another run holds $_mp_build; this one builds in its own target/" >&2
      fi
    fi
    unset _mp_build
  fi
  export MOMENTUM_PLAN_BUILD_SHARED
  export MOMENTUM_PLAN_SANDBOX_WASM_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-wasip2/release"
fi
