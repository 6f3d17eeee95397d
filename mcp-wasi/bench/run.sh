#!/usr/bin/env bash
# Builds the server (.wasm), the runner and the core probe (release), then runs the bench
# (bench.py). Extra arguments go to bench.py, e.g. `--readme` to record the table in
# mcp-wasi/README.md. A bench, not a test: it never fails on a number.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
cd "$ROOT"
cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http
export MOMENTUM_PLAN_SANDBOX_WASM_DIR="$TARGET/wasm32-wasip2/release"   # the runner embeds these (sandbox build.rs)
cargo build --release -p momentum-plan-mcp   # the same server natively: shows what the sandbox adds
cargo build --release -p momentum-plan-sandbox --bin momentum-plan-sandbox --example core-probe
PY=$("$ROOT/scripts/venv.sh")
export MOMENTUM_PLAN_SANDBOX="$TARGET/release/momentum-plan-sandbox"
export MOMENTUM_PLAN_MCP_WASM="$TARGET/wasm32-wasip2/release/momentum-plan-mcp.wasm"
export MOMENTUM_PLAN_CORE_PROBE="$TARGET/release/examples/core-probe"
exec "$PY" "$ROOT/mcp-wasi/bench/bench.py" "$@"
