// Shared helpers for the JavaScript end-to-end tests of the sandboxed MCP server
// (ts_sdk.test.mjs, ts_sdk_http.test.mjs, apps_host.test.mjs, repair_checks.mjs): the JS mirror of
// sandbox_env.py, with the same environment variables and defaults.
//
// Paths (each overridable by an environment variable, which mcp-wasi/sandbox/test.sh sets):
//   MOMENTUM_PLAN_SANDBOX        the runner, default $TARGET/release/momentum-plan-sandbox;
//   MOMENTUM_PLAN_MCP_WASM       the stdio server, default $TARGET/wasm32-wasip2/release/momentum-plan-mcp.wasm;
//   MOMENTUM_PLAN_MCP_HTTP_WASM  the wasi:http server, default …/momentum-plan-mcp-http.wasm;
//   MOMENTUM_PLAN_VALIDATE       the core's line driver, default $TARGET/release/examples/validate;
//   MOMENTUM_PLAN_REPAIR         the core's repair and schema driver, default …/examples/repair;
//   MOMENTUM_PLAN_CORE_PROBE     the core probe, default $TARGET/release/examples/core-probe;
// where $TARGET is $CARGO_TARGET_DIR or <repo>/target. The workspace root and the examples come
// from the JavaScript test kit (js/testkit.cjs).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import kit from '../../js/testkit.cjs';
import { checkRepairAndSchema } from './repair_checks.mjs';

/** This folder, mcp-wasi/e2e (absolute). */
export const HERE = dirname(fileURLToPath(import.meta.url));
/** The workspace root (absolute). */
export const ROOT = kit.ROOT;
/** The bundled examples' folder. */
export const EXAMPLES = kit.EXAMPLES;
/** `{ plan, request }` of examples/<name>.{plan,request}.json, parsed. */
export const example = kit.example;

export const TARGET = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
export const RUNNER = process.env.MOMENTUM_PLAN_SANDBOX || join(TARGET, 'release', 'momentum-plan-sandbox');
export const WASM =
  process.env.MOMENTUM_PLAN_MCP_WASM || join(TARGET, 'wasm32-wasip2', 'release', 'momentum-plan-mcp.wasm');
export const HTTP_WASM =
  process.env.MOMENTUM_PLAN_MCP_HTTP_WASM || join(TARGET, 'wasm32-wasip2', 'release', 'momentum-plan-mcp-http.wasm');
export const VALIDATE = process.env.MOMENTUM_PLAN_VALIDATE || join(TARGET, 'release', 'examples', 'validate');
export const REPAIR = process.env.MOMENTUM_PLAN_REPAIR || join(TARGET, 'release', 'examples', 'repair');
export const CORE_PROBE = process.env.MOMENTUM_PLAN_CORE_PROBE || join(TARGET, 'release', 'examples', 'core-probe');
/** The catalog's tool names, in order (`save_plan` last: only with a store). */
export const TOOLS = JSON.parse(readFileSync(join(kit.ROOT, 'schemas', 'mcp-catalog.json'), 'utf8')).tools.map((t) => t.name);
export const ICS = process.env.MOMENTUM_PLAN_ICS || join(TARGET, 'release', 'examples', 'ics');

/** The calendar crate's answer (its `ics` driver) for one `{export: …}` or `{import: …}` object. */
export function coreCalendar(input) {
  const out = spawnSync(ICS, [], { input: JSON.stringify(input) + '\n' });
  assert.equal(out.status, 0, String(out.stderr));
  return JSON.parse(String(out.stdout));
}

/**
 * A scratch folder under the system temp dir (`<prefix>XXXXXX`), removed when the process exits:
 * `{ scratch, cacheDir, newStore(name) }`; `newStore` makes `<scratch>/<name>/plans` and returns it.
 */
export function makeScratch(prefix) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
  const newStore = (name) => {
    const dir = join(scratch, name, 'plans');
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  return { scratch, cacheDir: join(scratch, 'cache'), newStore };
}

/** The core's verdict for one pair (the examples hold no number JSON.parse would change). */
export function coreVerdict(plan, request) {
  const out = spawnSync(VALIDATE, ['--lines'], { input: JSON.stringify({ plan, request }) + '\n' });
  assert.equal(out.status, 0, String(out.stderr));
  return JSON.parse(String(out.stdout));
}

/** The core's contract (`core-probe contract`), parsed. */
export function coreContract() {
  const out = spawnSync(CORE_PROBE, ['contract']);
  assert.equal(out.status, 0, String(out.stderr));
  return JSON.parse(String(out.stdout));
}

/** A tool result's structuredContent, after asserting it is a success with one text block that
 * holds the same JSON. */
export function structured(result) {
  assert.equal(result.isError, false, JSON.stringify(result.content));
  assert.equal(result.content.length, 1);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return result.structuredContent;
}

/**
 * What a session with a store checks over either transport before the overwrite (the examples
 * `calm` and `broken`, the store empty): a tool error for missing arguments, repair_plan and
 * get_plan_schema (repair_checks.mjs), the refusal of the broken plan (`Plan not saved.` and each
 * of the core's errors, nothing written), then the first save of the calm plan (its result, one
 * file). Returns the plan id.
 */
export async function checkRefusalAndFirstSave(client, store, calm, broken) {
  const calmVerdict = coreVerdict(calm.plan, calm.request);
  const brokenVerdict = coreVerdict(broken.plan, broken.request);
  // A tool error (bad arguments) carries one text block only, and the SDK accepts it.
  const bad = await client.callTool({ name: 'validate_plan', arguments: { plan: calm.plan } });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /request/);

  await checkRepairAndSchema(client, calm, broken);

  const refused = await client.callTool({ name: 'save_plan', arguments: broken });
  assert.equal(refused.isError, true);
  assert.equal(refused.content.length, 1);
  assert.ok(refused.content[0].text.startsWith('Plan not saved.'));
  for (const e of brokenVerdict.errors) assert.ok(refused.content[0].text.includes(` | ${e.path}: ${e.message}`));
  assert.deepEqual(readdirSync(store), []);

  const id = calm.request.requestId;
  const saved = structured(await client.callTool({ name: 'save_plan', arguments: calm }));
  assert.deepEqual(saved, { saved: true, planId: id, uri: `plan://${id}`, warnings: calmVerdict.warnings });
  assert.deepEqual(readdirSync(store), [`${id}.json`]);
  return id;
}
