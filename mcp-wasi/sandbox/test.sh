#!/usr/bin/env bash
# Tests of momentum-plan-sandbox (the wasmtime runner) and the end-to-end tests of the WASI MCP
# server through it (mcp-wasi/e2e: Python SDK client in both eras, TypeScript SDK client, read-only
# run, unsafe ids, memory cap, runner errors, compile cache, the READMEs' host lines on a fresh HOME,
# a 5 MB call through both SDK clients, all shared vectors through validate_plan
# and a sample through repair_plan and get_plan_schema), and over
# Streamable HTTP (`--http`): the official conformance suite (two versions), the Python SDK client
# in both modes, the TypeScript SDK client, two runners on one store, bad input and slow clients,
# and isolation between requests on one pool slot (the test-only canary guest,
# mcp-wasi/sandbox/tests/canary); and the MCP Apps plan view in headless Chromium through the
# official ext-apps host bridge.
#
# Builds in release: both server components (.wasm, wasm32-wasip2) and the canary guest, the runner, the core probe and the core's
# line drivers (validate, repair); installs the venv (scripts/venv.sh) and the npm packages (npm ci); then runs the
# runner's own tests (cargo test) and every e2e test. Works from any cwd; exit non-zero on any
# failure. Honours CARGO_TARGET_DIR.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
E2E="$ROOT/mcp-wasi/e2e"
cd "$ROOT"
T0=$(date +%s)
stamp() { echo "== [$(( $(date +%s) - T0 )) s] $*"; }

# --- tools -----------------------------------------------------------------------------------
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; then
  rustup target add wasm32-wasip2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  stamp "installing node and npm (Debian)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi

# --- builds (release) ------------------------------------------------------------------------
stamp "building the servers (.wasm: stdio and HTTP) and the test-only canary guest"
cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http -p momentum-plan-sandbox-canary
export MOMENTUM_PLAN_SANDBOX_WASM_DIR="$TARGET/wasm32-wasip2/release"   # the runner embeds these (sandbox build.rs)
stamp "building the runner and the core probe (the first wasmtime build takes minutes)"
cargo build --release -p momentum-plan-sandbox --bin momentum-plan-sandbox --example core-probe
cargo build --release -p momentum-plan --example validate --example repair
cargo build --release -p momentum-plan-calendar --example ics   # the calendar tools' reference (issue 32)

export MOMENTUM_PLAN_SANDBOX="$TARGET/release/momentum-plan-sandbox"
export MOMENTUM_PLAN_MCP_WASM="$TARGET/wasm32-wasip2/release/momentum-plan-mcp.wasm"
export MOMENTUM_PLAN_MCP_HTTP_WASM="$TARGET/wasm32-wasip2/release/momentum-plan-mcp-http.wasm"
export MOMENTUM_PLAN_SANDBOX_CANARY_WASM="$TARGET/wasm32-wasip2/release/momentum-plan-sandbox-canary.wasm"
export MOMENTUM_PLAN_CORE_PROBE="$TARGET/release/examples/core-probe"
export MOMENTUM_PLAN_VALIDATE="$TARGET/release/examples/validate"
export MOMENTUM_PLAN_REPAIR="$TARGET/release/examples/repair"
export MOMENTUM_PLAN_ICS="$TARGET/release/examples/ics"

# --- packages ------------------------------------------------------------------------------------
PY=$("$ROOT/scripts/venv.sh")
"$ROOT/scripts/npm-ci.sh" "$E2E"

# --- tests ---------------------------------------------------------------------------------------
status=0
stamp "runner unit tests: cargo test --release -p momentum-plan-sandbox"
cargo test --release -p momentum-plan-sandbox || status=1

stamp "e2e: pytest (Python SDK client, read-only, unsafe ids, runner, vectors; HTTP: conformance, SDK, scale, faults)"
"$PY" -m pytest "$E2E" -q -p no:cacheprovider || status=1

stamp "e2e: node --test (TypeScript SDK client, stdio and Streamable HTTP; the plan view in a real host)"
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  stamp "installing chromium (Debian) for the plan view's host test"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
(cd "$E2E" && node --test ts_sdk.test.mjs ts_sdk_http.test.mjs apps_host.test.mjs) || status=1

stamp "done (status $status)"
exit $status
