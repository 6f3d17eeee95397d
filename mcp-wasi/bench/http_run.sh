#!/usr/bin/env bash
# Builds the HTTP server component (.wasm), the stdio one, the runner, the core probe and the
# native handler (native-http; release), makes sure the Python example server can run (the project
# venv, with the native `momentum_plan` module installed as bindings-python/test.sh does, if it is
# not there yet), that `wrk` is installed (apt-get, as root or through sudo) and that wasmtime-cli
# 48 is (`cargo install --locked` into ~/.cache/momentum-plan/wasmtime-cli-48, once: about 8 minutes
# on two cores; `wasmtime serve` is a row of the bench), then runs the Streamable HTTP bench
# (http_bench.py). Extra arguments go to http_bench.py, e.g. `--quick`, or `--readme` to record
# the table in mcp-wasi/README.md. A bench, not a test: it never fails on a number.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
TARGET=$CARGO_TARGET_DIR
cd "$ROOT"
cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp-http
cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp   # the stdio round trip, side by side
export MOMENTUM_PLAN_SANDBOX_WASM_DIR="$TARGET/wasm32-wasip2/release"   # the runner embeds these (sandbox build.rs)
cargo build --release -p momentum-plan-sandbox --bin momentum-plan-sandbox --example core-probe --example native-http
PY=$("$ROOT/scripts/venv.sh")
if ! "$PY" -c 'import momentum_plan' 2>/dev/null; then
  echo "http_run.sh: installing the Python binding into the venv (maturin, release)" >&2
  PATH="$(dirname "$PY"):$PATH" "$PY" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps "$ROOT/bindings-python" >&2
fi
if ! command -v wrk >/dev/null; then
  echo "http_run.sh: installing wrk (apt-get)" >&2
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get install -y wrk >&2 || { $SUDO apt-get update >&2 && $SUDO apt-get install -y wrk >&2; }
fi
# wasmtime-cli 48 (the newest that builds with the pinned rustc; ../shared/notes/toolchain.md), in its
# own root; its build in cargo's own temporary directory, not this checkout's target or the shared one.
WASMTIME_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/momentum-plan/wasmtime-cli-48"
if [ ! -x "$WASMTIME_ROOT/bin/wasmtime" ]; then
  echo "http_run.sh: installing wasmtime-cli 48 into $WASMTIME_ROOT (cargo install, once; about 8 minutes)" >&2
  env -u CARGO_TARGET_DIR -u CARGO_BUILD_BUILD_DIR \
    cargo install --locked wasmtime-cli --version '^48' --root "$WASMTIME_ROOT" >&2
fi
export MOMENTUM_PLAN_WASMTIME="$WASMTIME_ROOT/bin/wasmtime"
export MOMENTUM_PLAN_NATIVE_HTTP="$TARGET/release/examples/native-http"
export MOMENTUM_PLAN_SANDBOX="$TARGET/release/momentum-plan-sandbox"
export MOMENTUM_PLAN_MCP_WASM="$TARGET/wasm32-wasip2/release/momentum-plan-mcp.wasm"
export MOMENTUM_PLAN_MCP_HTTP_WASM="$TARGET/wasm32-wasip2/release/momentum-plan-mcp-http.wasm"
export MOMENTUM_PLAN_CORE_PROBE="$TARGET/release/examples/core-probe"
exec "$PY" "$ROOT/mcp-wasi/bench/http_bench.py" "$@"
