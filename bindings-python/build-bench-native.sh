#!/usr/bin/env bash
# Builds the native module with the bench-only export `_walk` (cargo feature `bench-exports`; never
# in the wheel) for bench.py's floor row and its test, and prints the path of the built file,
# `$CARGO_TARGET_DIR/bench-native/_native.abi3.so` (load it as the top-level module `_native`).
# Built as maturin builds the wheel's (release, abi3, for the project venv's python), so cargo
# reuses that build's dependencies and recompiles this crate only.
# Usage: bindings-python/build-bench-native.sh   (from any directory)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
PY=$("$ROOT/scripts/venv.sh")
PYO3_PYTHON="$PY" PYO3_BUILD_EXTENSION_MODULE=1 \
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" -p momentum-plan-py --features bench-exports >&2
mkdir -p "$TARGET/bench-native"
# Copied (a new file, then renamed into place): the next wheel build rewrites the cargo artefact.
cp "$TARGET/release/libmomentum_plan_native.so" "$TARGET/bench-native/_native.abi3.so.tmp"
mv "$TARGET/bench-native/_native.abi3.so.tmp" "$TARGET/bench-native/_native.abi3.so"
echo "$TARGET/bench-native/_native.abi3.so"
