#!/usr/bin/env bash
# Creates the project-local virtualenv ./.venv (if missing) and installs scripts/requirements.txt
# into it (only when that file changed since the last install). Prints the venv's python path, or
# with --exec runs a command with the venv's bin/ first on PATH (its pinned maturin, zig as
# `python3 -m ziglang`, cargo-zigbuild: what bindings-node's `npm run build` links the addon with).
# Usage: PY=$(scripts/venv.sh)
#        scripts/venv.sh --exec COMMAND [ARG...]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
REQ="$ROOT/scripts/requirements.txt"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" >&2
fi
STAMP="$VENV/.requirements.sha256"
SUM=$(sha256sum "$REQ" | cut -d' ' -f1)
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$SUM" ]; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQ" >&2
  echo "$SUM" > "$STAMP"
fi
if [ "${1:-}" = --exec ]; then
  shift
  PATH="$VENV/bin:$PATH" exec "$@"
fi
echo "$VENV/bin/python"
