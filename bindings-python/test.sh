#!/usr/bin/env bash
# Tests of the Python binding (bindings-python): builds the wheel in release, installs it into the
# project's venv with pip (as `pip install ./bindings-python` would), then runs
# every pytest test (the shared vectors both ways, repair and the plan schema on every vector, the
# input edge cases, the example MCP server end to end), `mypy --strict` on a usage file and on the MCP server (momentum_plan.planner), and `mypy.stubtest`.
# Works from any cwd; needs Rust, python3 (with venv) and the package index on a fresh machine.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
. "$ROOT/scripts/build-env.sh"   # the tools, the compiler cache, the components' directory: as every script
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
PY=$("$ROOT/scripts/venv.sh")
export PATH="$(dirname "$PY"):$PATH"  # the maturin build backend runs the venv's `maturin`

echo "== build and install the wheel (maturin, release)"
# --no-build-isolation: use the venv's pinned maturin instead of fetching one per build.
"$PY" -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps "$HERE"
"$PY" -c 'import momentum_plan; print("momentum_plan", momentum_plan.__version__, "from", momentum_plan.__file__)'

echo "== the core's line drivers (reference verdicts, repairs and schemas for the vector tests)"
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" -p momentum-plan --example validate --example repair

echo "== pytest"
cd "$HERE"
"$PY" -m pytest -p no:cacheprovider -q "$HERE/tests"

echo "== mypy --strict (usage file, example server) and stubtest"
MYPY_CACHE="$CARGO_TARGET_DIR/mypy-cache"
"$PY" -m mypy --strict --cache-dir "$MYPY_CACHE" "$HERE/tests/typing/usage.py" "$HERE/examples/momentum_planner.py" \
  "$HERE/python/momentum_plan/planner.py" "$HERE/python/momentum_plan/_planner_cli.py" \
  "$HERE/python/momentum_plan/_stdio.py"
"$PY" -m mypy.stubtest --ignore-unused-allowlist \
  --allowlist "$HERE/tests/typing/stubtest-allowlist.txt" momentum_plan
echo "== bindings-python: all tests passed"
