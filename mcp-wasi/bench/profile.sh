#!/usr/bin/env bash
# Builds, in their own target directory (target/profiling, so the usual builds are left alone),
# the HTTP server component with its name section kept (MOMENTUM_PLAN_MCP_KEEP_NAMES=1) and the
# runner with the bench-only `profiling` feature (wasmtime's perf map), then runs profile.py:
# where the runner's CPU goes per request, by function (issue 30 item 2). Needs `perf` and `wrk`.
# Extra arguments go to profile.py (e.g. `--method GET` for the floor). A bench: it never fails on
# a number. The first build compiles wasmtime once more (minutes on two cores).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/scripts/build-env.sh"
export CARGO_TARGET_DIR=$ROOT/target/profiling
export CARGO_BUILD_BUILD_DIR=$CARGO_TARGET_DIR   # not the shared build directory: other features
cd "$ROOT"
MOMENTUM_PLAN_MCP_KEEP_NAMES=1 cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp-http -p momentum-plan-mcp
export MOMENTUM_PLAN_SANDBOX_WASM_DIR="$CARGO_TARGET_DIR/wasm32-wasip2/release"
cargo build --release -p momentum-plan-sandbox --bin momentum-plan-sandbox --features profiling
for tool in perf wrk; do
  command -v $tool >/dev/null || { echo "profile.sh: $tool is needed" >&2; exit 2; }
done
PY=$("$ROOT/scripts/venv.sh")
export MOMENTUM_PLAN_SANDBOX="$CARGO_TARGET_DIR/release/momentum-plan-sandbox"
export MOMENTUM_PLAN_MCP_HTTP_WASM="$CARGO_TARGET_DIR/wasm32-wasip2/release/momentum-plan-mcp-http.wasm"
export MOMENTUM_PLAN_PERFMAP=1
exec "$PY" "$ROOT/mcp-wasi/bench/profile.py" "$@"
