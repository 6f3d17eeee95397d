#!/usr/bin/env bash
# Installs a folder's npm packages exactly as its package-lock.json locks them (`npm ci`), unless
# node_modules/ already holds that lock's install (node_modules/.package-lock.sha256, written
# after a successful `npm ci`). One place for every script that needs npm packages (issue 28).
# Usage: scripts/npm-ci.sh [--check] DIR...
#   --check  install nothing: exit 1, saying which, when a DIR's packages are not installed.
# Exit: 0 when every DIR is installed from its lock; npm's status when an install fails.
set -euo pipefail
CHECK=0
[ "${1:-}" = --check ] && { CHECK=1; shift; }
for dir in "$@"; do
  [ -f "$dir/package-lock.json" ] || { echo "scripts/npm-ci.sh: $dir/package-lock.json not found" >&2; exit 2; }
  sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  stamp="$dir/node_modules/.package-lock.sha256"
  if [ "$(cat "$stamp" 2>/dev/null || true)" != "$sum" ]; then
    [ "$CHECK" = 0 ] || { echo "npm packages of $dir are not installed (scripts/npm-ci.sh $dir)" >&2; exit 1; }
    echo "== npm ci ($dir)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
    echo "$sum" >"$stamp"
  fi
done
