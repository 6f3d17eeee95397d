#!/usr/bin/env bash
# The WebAssembly binding's tests, from a fresh machine or a warm one:
#   - installs what it needs (idempotent, quick when present): the wasm32-unknown-unknown target,
#     wasm-bindgen-cli at exactly the version Cargo.lock resolves, the npm packages (npm ci with the
#     committed package-lock.json: binaryen for wasm-opt, playwright-core, typescript), Debian's
#     chromium for the page test;
#   - builds: the package (npm run build: pkg/web, pkg/node, the page's assets), the core's line
#     drivers (validate and repair) and the calendar crate's (ics): the byte-for-byte references,
#     in release;
#   - runs: the native side's unit tests (momentum-plan-js: bytes and texts alike on every vector) and
#     every node:test file (all vectors, the API, the ES module build, trap recovery, the size
#     budget, the page in headless Chromium).
# Works from any directory. Honours CARGO_TARGET_DIR (default: <repo>/target).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
# cargo install's folder (wasm-bindgen) after what PATH holds, so scripts/test's cargo shim stays first
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
cd "$ROOT"

step() { printf '\n== %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root for: $*" >&2; return 1
  fi
}

step "toolchain"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
WBG="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [ -z "$WBG" ]; then echo "wasm-bindgen is not in Cargo.lock" >&2; exit 1; fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WBG" ]; then
  # Not --locked: the CLI's own lockfile pins a crate the registry here does not serve.
  cargo install wasm-bindgen-cli --version "$WBG"
fi
wasm-bindgen --version

step "npm packages"
"$ROOT/scripts/npm-ci.sh" "$HERE"

step "chromium"
if [ ! -x /usr/bin/chromium ]; then
  as_root apt-get update
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y chromium
fi
/usr/bin/chromium --version

step "build"
(cd "$HERE" && npm run --silent build)
cargo build --release -p momentum-plan --example validate --example repair
cargo build --release -p momentum-plan-calendar --example ics

step "native unit tests"
cargo test --release -p momentum-plan-js

step "node tests"
cd "$HERE"
node --test --test-concurrency=1 test/*.test.cjs test/*.test.mjs
