#!/usr/bin/env bash
# The Node package as a stranger installs it (issue 27 items 8 and 10), from the packed tarball:
#   1. library use: `npm install ./momentum-plan-node-*.tgz` alone in a fresh project brings at
#      most 3 packages (npm ls --all), validatePlan works, and its momentum-planner bin, without the
#      server's optional peers, says in one line what to install (the `npm install ...` line the
#      package.json peerDependencies give) and exits 2, no stack trace;
#   2. the README's Claude Desktop line from dist/: with a fresh HOME and npm prefix,
#      `npm install -g ./momentum-plan-node-*.tgz` plus the peers, then `"command":
#      "<npm prefix -g>/bin/momentum-planner"` (by that full path, the prefix's bin not on PATH, as
#      a host launches it) answers an MCP initialize through the official TypeScript SDK client.
#   3. momentum-plan-wasm alone (WASM_TGZ, when given): at most 3 packages too.
# Usage: node_install.sh NODE_TGZ WORK APP [WASM_TGZ]   (APP: an npm project with
# @modelcontextprotocol/sdk, holding node_mcp_initialize.mjs; run by tests/package/run)
set -euo pipefail
NODE_TGZ=$1 WORK=$2 APP=$3 WASM_TGZ=${4:-}
die() { echo "tests/package (node_install.sh): $*" >&2; exit 1; }
export npm_config_update_notifier=false

alone() { # alone TGZ DIR: the tarball alone into a fresh npm project DIR (cd there); sets count
  mkdir "$2"
  cd "$2"
  printf '{ "name": "%s", "version": "0.0.0", "private": true }\n' "$(basename "$2")" > package.json
  npm install --no-audit --no-fund --loglevel=error --prefer-offline "$1"
  count=$(npm ls --all --parseable | tail -n +2 | wc -l)
  [ "$count" -le 3 ] || die "npm install of $(basename "$1") alone brought $count packages (at most 3): $(npm ls --all)"
}

alone "$NODE_TGZ" "$WORK/node-lib"
node -e "const { validatePlan } = require('momentum-plan-node'); if (typeof validatePlan('{}', {}).valid !== 'boolean') process.exit(1)"
echo "  ok  npm install of momentum-plan-node alone: $count package(s) (at most 3), validatePlan works"
PEERS=$(node -p "Object.entries(require('momentum-plan-node/package.json').peerDependencies).map(([n, r]) => n + '@' + r.split('||').pop().trim()).join(' ')")
set +e
out=$(node_modules/.bin/momentum-planner --store "$WORK/node-lib/plans" 2>&1 </dev/null)
code=$?
set -e
[ "$code" = 2 ] || die "momentum-planner without its peers: exit $code, expected 2: $out"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || die "momentum-planner without its peers: more than one line: $out"
case "$out" in
  "momentum-planner: "*": npm install $PEERS (with -g when momentum-plan-node is global)") ;;
  *) die "momentum-planner without its peers does not say: npm install $PEERS: $out" ;;
esac
echo "  ok  momentum-planner without its peers: exit 2 and one line: ...npm install $PEERS..."

# The README's line from dist/, on a machine that has never run the project: fresh HOME, fresh
# global prefix (nothing of this machine's npm config or cache is used but the package cache).
FRESH=$WORK/node-fresh-home
mkdir -p "$FRESH/home" "$FRESH/prefix"
cache=$(npm config get cache)
# shellcheck disable=SC2086 # PEERS is a list of package specs
HOME="$FRESH/home" npm_config_prefix="$FRESH/prefix" npm_config_cache="$cache" \
  npm install -g --no-audit --no-fund --loglevel=error --prefer-offline "$NODE_TGZ" $PEERS
GLOBAL_BIN="$(HOME="$FRESH/home" npm_config_prefix="$FRESH/prefix" npm prefix -g)/bin"
[ -x "$GLOBAL_BIN/momentum-planner" ] || die "npm install -g put no momentum-planner in \$(npm prefix -g)/bin ($GLOBAL_BIN)"
cd "$APP"
HOME="$FRESH/home" node node_mcp_initialize.mjs "$GLOBAL_BIN/momentum-planner" --store "$FRESH/home/plans"
[ -d "$FRESH/home/plans" ] || die "momentum-planner --store did not create the store folder"
echo "  ok  npm install -g ./$(basename "$NODE_TGZ") $PEERS with a fresh HOME and prefix: \"command\": \"\$(npm prefix -g)/bin/momentum-planner\" answers"
if [ -n "${WASM_TGZ:-}" ]; then
  alone "$WASM_TGZ" "$WORK/wasm-lib"
  echo "  ok  npm install of momentum-plan-wasm alone: $count package(s) (at most 3)"
fi
