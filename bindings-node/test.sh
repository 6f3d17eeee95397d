#!/usr/bin/env bash
# Tests of the Node binding (bindings-node): installs the npm packages (npm ci, from the committed
# package-lock.json), builds the addon in release (napi-rs) and the test addon (feature test-exports), runs every node:test file (all
# vectors, the API, the example MCP server end to end, index.d.ts freshness, tsc), and the strict
# type-check of the usage file. Works from any cwd; quick when already installed and built.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export RUSTUP_AUTO_INSTALL="${RUSTUP_AUTO_INSTALL:-0}"
cd "$HERE"

if [ ! -d "$ROOT/../shared/vectors" ]; then
  echo "test.sh: shared material not found at $ROOT/../shared" >&2
  exit 1
fi

# Node >= 20 (String.prototype.isWellFormed, node:test). Debian's own nodejs is older, so it is
# not installed from here: the machine image provides Node.
if ! command -v node >/dev/null || ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
  echo "test.sh: Node.js >= 20 is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# npm packages, exactly as locked; skipped when node_modules is already from this lock.
"$ROOT/scripts/npm-ci.sh" "$HERE"

echo "== npm run build (release, CARGO_TARGET_DIR=$CARGO_TARGET_DIR)"
npm run build

# The test- and bench-only exports (cargo feature test-exports) go into a separate addon,
# test/addon/, never into the shipped one (test/api.test.mjs checks).
echo "== npm run build:test-addon"
npm run build:test-addon

# The core's repair/schema lines driver: the byte-for-byte reference of test/repair.test.mjs.
echo "== cargo build --release -p momentum-plan --example repair"
cargo build --release -p momentum-plan --example repair
# The calendar crate's lines driver: the reference of test/calendar.test.mjs (issue 32).
cargo build --release -p momentum-plan-calendar --example ics

echo "== tsc --noEmit --strict (test/types/usage.ts)"
npm run typecheck

echo "== npm test"
npm test
