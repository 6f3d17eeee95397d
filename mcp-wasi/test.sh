#!/usr/bin/env bash
# Tests of the MCP protocol library (native, release: stdio and the HTTP mapping) and the
# wasm32-wasip2 builds of both components: the stdio server and the HTTP component.
# Usage: mcp-wasi/test.sh   (from any directory; honours CARGO_TARGET_DIR)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
cd "$ROOT"

if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-wasip2; then
  rustup target add wasm32-wasip2
fi

echo "== cargo test --release -p momentum-plan-mcp"
cargo test --release -p momentum-plan-mcp

echo "== cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http"
cargo build --release --target wasm32-wasip2 -p momentum-plan-mcp -p momentum-plan-mcp-http
# The component's own code is compiled only for wasi: lint it there too.
cargo clippy --release --target wasm32-wasip2 -p momentum-plan-mcp-http -- -D warnings
for name in momentum-plan-mcp momentum-plan-mcp-http; do
  WASM="$TARGET_DIR/wasm32-wasip2/release/$name.wasm"
  if [ ! -s "$WASM" ]; then
    echo "error: $WASM was not built" >&2
    exit 1
  fi
  echo "$name.wasm: $(wc -c < "$WASM") bytes ($WASM)"
done
