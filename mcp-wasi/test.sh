#!/usr/bin/env bash
# Tests of the MCP server crate (native, release) and the wasm32-wasip2 build of the server.
# Usage: mcp-wasi/test.sh   (from any directory; honours CARGO_TARGET_DIR)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
cd "$ROOT"

if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-wasip2; then
  rustup target add wasm32-wasip2
fi

echo "== cargo test --release -p momentum-plan-mcp"
cargo test --release -p momentum-plan-mcp

echo "== cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp"
cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp
WASM="$TARGET_DIR/wasm32-wasip2/release/momentum-plan-mcp.wasm"
if [ ! -s "$WASM" ]; then
  echo "error: $WASM was not built" >&2
  exit 1
fi
echo "momentum-plan-mcp.wasm: $(wc -c < "$WASM") bytes ($WASM)"
