#!/usr/bin/env node
// `npm run build`: the WebAssembly package, from the Rust crate to pkg/web/ and pkg/node/.
//
//   1. cargo build --profile wasm --target wasm32-unknown-unknown (root Cargo.toml: fat LTO, one
//      codegen unit, panic = "abort"; no `strip`, which would drop the target_features section
//      wasm-bindgen reads), with opt-level "s" instead of the profile's "z" (measured 1.3-1.6x
//      faster for under 3 KB more), and 3 for the core crate (momentum-plan: the parser and the
//      rules), measured 1.2-1.4x faster again on validatePlan(text) for +70 KB (+16 KB gzipped;
//      README "Size", issue 12);
//   2. wasm-bindgen (the CLI must be the version Cargo.lock resolves) --target web and
//      --target nodejs, with --remove-name-section --remove-producers-section and
//      --experimental-reset-state-function (index.js re-instantiates the module after a trap);
//   3. wasm-opt -Oz from the npm `binaryen` package (never Debian's binaryen 108: it corrupts the
//      externref table of wasm-bindgen's output);
//   4. each output gets its copy of the converter shared with momentum-plan-node (js/convert.js at
//      the repository root, by js/emit.mjs: CommonJS in pkg/node/, an ES module in pkg/web/), its
//      index.js (the public API: the converter over the raw exports, behind the trap guard),
//      index.d.ts and a package.json naming its module type;
//   5. the page's assets: pkg/web/ -> www/vendor/momentum-plan-wasm/, ../examples -> www/examples/;
//   6. the MCP Apps plan view, www/view/plan-view.html (scripts/build-view.mjs).
//
// `--probe` instead builds the measurement-only exports (cargo feature `boundary-probe`) into
// pkg/probe/ (nodejs, with the same index.js) for `npm run bench:boundary`; the package outputs
// are left alone.

import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { emitConverter } from '../../js/emit.mjs';
import { buildView, VIEW_HTML } from './build-view.mjs';

const CRATE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(CRATE, '..');
const TARGET = resolve(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'));
const NAME = 'momentum_plan_wasm';
const probe = process.argv.includes('--probe');
/** The opt-level of the wasm build, and of the core crate in it (see the header). */
const OPT_LEVEL = 's';
const CORE_OPT_LEVEL = 3;

function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: CRATE, ...opts });
}

function runAsync(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  return new Promise((ok, fail) => {
    const p = spawn(cmd, args, { stdio: 'inherit', cwd: CRATE });
    p.on('error', fail);
    p.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`${cmd} exited with ${code}`))));
  });
}

/** The wasm-bindgen version Cargo.lock resolves. */
function lockedBindgenVersion() {
  const lock = readFileSync(join(ROOT, 'Cargo.lock'), 'utf8');
  const m = /\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/.exec(lock);
  if (!m) throw new Error('wasm-bindgen is not in Cargo.lock');
  return m[1];
}

/** The wasm-bindgen CLI: on PATH or in cargo's bin dir, and exactly the locked version. */
function bindgenCli() {
  const want = lockedBindgenVersion();
  const cargoHome = process.env.CARGO_HOME || join(process.env.HOME || '/root', '.cargo');
  for (const cmd of ['wasm-bindgen', join(cargoHome, 'bin', 'wasm-bindgen')]) {
    let out;
    try {
      out = execFileSync(cmd, ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      continue;
    }
    if (out === `wasm-bindgen ${want}`) return cmd;
    throw new Error(`${cmd} is "${out}", Cargo.lock wants ${want}: cargo install wasm-bindgen-cli --version ${want}`);
  }
  throw new Error(`wasm-bindgen not found: cargo install wasm-bindgen-cli --version ${want}`);
}

function wasmOpt() {
  const bin = join(CRATE, 'node_modules', '.bin', 'wasm-opt');
  if (!existsSync(bin)) throw new Error('npm binaryen is missing: run npm ci in bindings-wasm');
  return bin;
}

// -Oz, plus: Rust's stack sits below 1 MiB and its data above, so nothing lives in the low 1 KiB
// (--low-memory-unused lets loads and stores fold constant offsets); the target_features section
// was read by wasm-bindgen already.
const WASM_OPT_FLAGS = ['-Oz', '--low-memory-unused', '--strip-target-features'];

/** The raw wasm exports take externrefs; wasm-bindgen types them `any`: say `unknown`. */
function noAny(dir) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.d.ts'))) {
    const p = join(dir, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/(\w): any\b/g, '$1: unknown'));
  }
}

const TRAP_GUARD = `
/** Runs a wasm export; a trap (out of memory, or a Rust panic, which aborts) leaves the instance
 * unusable, so it is replaced by a fresh one before the error goes to the caller. */
function guarded(call) {
  try {
    return call();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      __wbg_reset_state();
      throw new Error(
        'momentum-plan-wasm: the validator stopped (' + e.message + '), most likely out of memory on a very ' +
          'large input; it has been restarted, so the next call works',
        { cause: e },
      );
    }
    throw e;
  }
}

/** \`call(first, second, extra)\` on the UTF-8 of the texts \`first\` and \`second\`, each written by
 * one native encodeInto into a buffer kept between calls (up to 1 MiB; a larger one is made per
 * call), as two views of it: how the raw exports taking bytes (validateUtf8, repairUtf8,
 * schemaUtf8, repairPlanFault, repairPlanTextFault) are called. wasm-bindgen's own string
 * crossing writes an ASCII text one charCodeAt at a time in JavaScript, which costs about as much
 * as JSON.parse of the text (README "Crossing the boundary"). A text the converter hands over as
 * a Uint8Array (the caller's bytes: a Buffer, a Uint8Array, an ArrayBuffer) is copied as it is. */
const encoder = new TextEncoder();
let utf8 = new Uint8Array(16384);
const sizeOf = (t) => (typeof t === 'string' ? t.length * 3 : t.length);
const put = (t, buf) => {
  if (typeof t === 'string') return encoder.encodeInto(t, buf).written;
  buf.set(t);
  return t.length;
};
function withUtf8(first, second, call, extra) {
  const need = sizeOf(first) + sizeOf(second);
  let buf = utf8;
  if (buf.length < need) {
    buf = new Uint8Array(need);
    if (need <= 1 << 20) utf8 = buf;
  }
  const a = put(first, buf);
  const b = put(second, buf.subarray(a));
  return call(buf.subarray(0, a), buf.subarray(a, a + b), extra);
}
const schemaOf = (request, _none, variant) => raw.schemaUtf8(request, variant);
const repairFaultOf = (request, _none, args) => raw.repairPlanFault(request, ...args);
const repairTextFaultOf = (request, _none, args) => raw.repairPlanTextFault(request, ...args);

/** The shared converter over the raw exports (its makeConverter documents the native side),
 * made on first use: in a browser the module is instantiated by init() after this file loads. */
let converter = null;
const makeIt = () => makeConverter({
  maxDepth: raw.maxDepth,
  renderPath: raw.renderPath,
  floatText: raw.floatText,
  faultText: raw.faultText,
  textFaultText: raw.textFaultText,
  checkNames: raw.checkNames,
  planFault: raw.planFault,
  planTextFault: raw.planTextFault,
  validate: (plan, request) => withUtf8(plan, request, raw.validateUtf8),
  repair: (plan, request, unsafe) => withUtf8(plan, request, raw.repairUtf8, unsafe),
  repairPlanFault: (request, ...args) => withUtf8(request, '', repairFaultOf, args),
  repairPlanTextFault: (request, ...args) => withUtf8(request, '', repairTextFaultOf, args),
  schema: (request, variant) => withUtf8(request, '', schemaOf, variant),
});

/**
 * Validates a plan against the request it answers (validator.md §5).
 * @param plan the plan object, or its JSON text
 * @param request the request object, or its JSON text
 * @returns the verdict {valid, errors, warnings, checks}, a plain object
 * @throws TypeError for values without a JSON form; SyntaxError for request text that is not JSON
 *   (both with .argument and .path; the texts are the core's); Error after a trap (the module is
 *   restarted)
 */
function validatePlan(plan, request) {
  return guarded(() => (converter ??= makeIt()).validatePlan(plan, request));
}

/**
 * Repairs a plan against the request it answers (validator.md §9): the safe fixes (and the unsafe
 * ones with { unsafe: true }) applied to a fixed point, then validated again.
 * @param plan the plan object, or its JSON text
 * @param request the request object, or its JSON text
 * @param options { unsafe?: boolean }
 * @returns the repair {plan, patch, applied, offered, verdict, rounds, stopped, revealed,
 *   requestAtFault}, a plain object
 * @throws as validatePlan; TypeError for bad options
 */
function repairPlan(plan, request, options) {
  return guarded(() => (converter ??= makeIt()).repairPlan(plan, request, options));
}

/**
 * The JSON Schema (2020-12) of the plan that answers the request (validator.md §9).
 * @param request the request object, or its JSON text
 * @param variant 'validation' (default) or 'strict'
 * @returns the schema, a plain object
 * @throws TypeError/SyntaxError for the request as validatePlan; TypeError for a variant that is
 *   not a string, RangeError for an unknown one; Error for a request no plan can satisfy
 */
function planSchema(request, variant) {
  return guarded(() => (converter ??= makeIt()).planSchema(request, variant));
}

/** The plan contract (validator.md §2), a fresh plain object. */
function getPlanContract() {
  return guarded(() => raw.getPlanContract());
}

/** A JSONPath from member names (strings) and array indices (numbers), rendered by the core's
 * rules (validator.md §4, D7): ['routine', 'blocks', 0] -> '$.routine.blocks[0]'. */
function renderPath(segments) {
  return guarded(() => raw.renderPath(segments));
}

/** Where the value a verdict's path names is in the plan's JSON text (momentum_plan::value_span,
 * validator.md §4, §7): {start, end, missing, found}, each end {line, column, offset} with offset
 * in UTF-16 code units (textarea.setSelectionRange(start.offset, end.offset)); null for text that
 * is not JSON; TypeError for a path that is not a JSONPath. */
function valueSpan(text, path) {
  if (typeof text !== 'string' || typeof path !== 'string') throw new TypeError('valueSpan takes the plan text and a JSONPath, both strings');
  return guarded(() => raw.valueSpan(text, path));
}
`;

const TYPE_NAMES =
  'Verdict, Issue, IssueCode, CheckName, CategoryId, Weekday, Category, Limits, Contract, Repair, Fix, Applicability, ' +
  'RepairStop, PatchOperation, JsonValue, SchemaVariant, PlanSchema, RepairOptions, ValueSpan, TextPosition';

/** The public functions' declarations (the raw exports are the converter's native side). */
const API_DTS = `import type { Verdict, Contract, Repair, RepairOptions, PlanSchema, SchemaVariant, ValueSpan } from './${NAME}.js';
/**
 * JSON text as a plan or request argument (validator.md §3, §7): a string, or its UTF-8 bytes (a
 * Uint8Array, a Node Buffer, an ArrayBuffer or another view of bytes, from any realm), which the
 * core reads as text: bytes that are not UTF-8 are the plan's \`json\` verdict, the request's
 * SyntaxError. A typed array inside a plan or request is no text (a TypeError).
 */
export type JsonText = string | ArrayBuffer | Uint8Array | Uint8ClampedArray | Int8Array | DataView;
/**
 * Validates a plan against the request it answers (validator.md §5).
 * @param plan the plan object, or its JSON text (JsonText: a string or UTF-8 bytes)
 * @param request the request object, or its JSON text (JsonText)
 * @returns the verdict, a plain object equal to the core's verdict JSON
 * @throws TypeError for a value without a JSON form (a request nested too deep or holding a lone
 *   surrogate too); SyntaxError for request text that is not JSON. Both carry \`argument\`
 *   ('plan' | 'request') and \`path\` (a JSONPath).
 */
export function validatePlan(plan: object | JsonText, request: object | JsonText): Verdict;
/**
 * Repairs a plan against the request it answers (validator.md §9): the validator's safe fixes
 * (and its unsafe ones with \`{ unsafe: true }\`; placeholders never) applied to a fixed point.
 * @param plan the plan object, or its JSON text
 * @param request the request object, or its JSON text
 * @returns the repair, a plain object equal to the core's Repair JSON
 * @throws as validatePlan; TypeError for options that are not an object or a non-boolean \`unsafe\`
 */
export function repairPlan(plan: object | JsonText, request: object | JsonText, options?: RepairOptions): Repair;
/**
 * The JSON Schema (2020-12) of the plan that answers the request (validator.md §9).
 * @param request the request object, or its JSON text
 * @param variant 'validation' (default) or 'strict'
 * @throws TypeError/SyntaxError for the request as validatePlan; TypeError for a variant that is
 *   not a string; RangeError for an unknown variant; Error for a request no plan can satisfy
 *   (\`argument\` 'request')
 */
export function planSchema(request: object | JsonText, variant?: SchemaVariant): PlanSchema;
/** The plan contract (validator.md §2), a fresh plain object. */
export function getPlanContract(): Contract;
/** A JSONPath rendered by the core's rules (validator.md §4, D7): ['routine', 'blocks', 0] -> '$.routine.blocks[0]'. */
export function renderPath(segments: ReadonlyArray<string | number>): string;
/**
 * Where the value that \`path\` (a verdict's JSONPath) names is in the plan's JSON \`text\`
 * (validator.md §4, §7): offsets in UTF-16 code units, for \`setSelectionRange\`. When the path
 * leads to no value, \`missing\` is true and the span is the deepest value's on it (\`found\`).
 * @returns the span, or null when the text is not JSON
 * @throws TypeError for a path that is not a JSONPath, or arguments that are not strings
 */
export function valueSpan(text: string, path: string): ValueSpan | null;
`;

function writeWeb(dir) {
  writeFileSync(
    join(dir, 'index.js'),
    `// momentum-plan-wasm for browsers and bundlers (ES module). Call \`await init()\` (or
// \`initSync({ module })\`) once, then validatePlan / getPlanContract.
import init, { initSync, __wbg_reset_state } from './${NAME}.js';
import * as raw from './${NAME}.js';
import { makeConverter } from './convert.js';
${TRAP_GUARD}
export default init;
export { initSync, validatePlan, repairPlan, planSchema, getPlanContract, renderPath, valueSpan };
`,
  );
  writeFileSync(
    join(dir, 'index.d.ts'),
    `export { default, initSync } from './${NAME}.js';
export type { ${TYPE_NAMES}, InitInput, InitOutput, SyncInitInput } from './${NAME}.js';
${API_DTS}`,
  );
  emitConverter(join(dir, 'convert.js'), 'module');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
}

function writeNode(dir) {
  writeFileSync(
    join(dir, 'index.js'),
    `'use strict';
// momentum-plan-wasm for Node (CommonJS): require('momentum-plan-wasm') -> { validatePlan, repairPlan, planSchema, getPlanContract, renderPath, valueSpan }.
const raw = require('./${NAME}.js');
const { __wbg_reset_state } = raw;
const { makeConverter } = require('./convert.js');
${TRAP_GUARD}
module.exports = { validatePlan, repairPlan, planSchema, getPlanContract, renderPath, valueSpan };
`,
  );
  writeFileSync(
    join(dir, 'index.d.ts'),
    `export type { ${TYPE_NAMES} } from './${NAME}.js';
${API_DTS}`,
  );
  emitConverter(join(dir, 'convert.js'), 'commonjs');
  writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
}

/** The page's assets: the web package and the repository's examples, with their list. */
function pageAssets() {
  const www = join(CRATE, 'www');
  const vendor = join(www, 'vendor', 'momentum-plan-wasm');
  rmSync(vendor, { recursive: true, force: true });
  mkdirSync(dirname(vendor), { recursive: true });
  cpSync(join(CRATE, 'pkg', 'web'), vendor, { recursive: true });
  const src = join(ROOT, 'examples');
  const dst = join(www, 'examples');
  rmSync(dst, { recursive: true, force: true });
  mkdirSync(dst, { recursive: true });
  const list = [];
  for (const f of readdirSync(src).sort()) {
    const m = /^(.*)\.plan\.json$/.exec(f);
    if (!m || !existsSync(join(src, `${m[1]}.request.json`))) continue;
    cpSync(join(src, f), join(dst, f));
    cpSync(join(src, `${m[1]}.request.json`), join(dst, `${m[1]}.request.json`));
    list.push({ id: m[1], plan: f, request: `${m[1]}.request.json` });
  }
  writeFileSync(join(dst, 'examples.json'), `${JSON.stringify(list, null, 2)}\n`);
}

function sizes(wasm) {
  const raw = readFileSync(wasm);
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
}

async function main() {
  const cli = bindgenCli();
  const cargoArgs = ['build', '-p', 'momentum-plan-wasm', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm'];
  cargoArgs.push('--config', `profile.wasm.opt-level=${JSON.stringify(OPT_LEVEL)}`);
  cargoArgs.push('--config', `profile.wasm.package.momentum-plan.opt-level=${JSON.stringify(CORE_OPT_LEVEL)}`);
  if (probe) cargoArgs.push('--features', 'boundary-probe');
  run('cargo', cargoArgs, { cwd: ROOT });
  const input = join(TARGET, 'wasm32-unknown-unknown', 'wasm', `${NAME}.wasm`);
  const flags = ['--remove-name-section', '--remove-producers-section', '--experimental-reset-state-function'];
  const outs = probe ? [['nodejs', 'probe']] : [['web', 'web'], ['nodejs', 'node']];
  for (const [target, dir] of outs) {
    const out = join(CRATE, 'pkg', dir);
    rmSync(out, { recursive: true, force: true });
    run(cli, ['--target', target, '--out-dir', out, ...flags, input]);
  }
  const opt = wasmOpt();
  await Promise.all(
    outs.map(([, dir]) => {
      const w = join(CRATE, 'pkg', dir, `${NAME}_bg.wasm`);
      return runAsync(opt, WASM_OPT_FLAGS.concat([w, '-o', w]));
    }),
  );
  for (const [target, dir] of outs) {
    const out = join(CRATE, 'pkg', dir);
    noAny(out);
    if (target === 'web') writeWeb(out);
    else writeNode(out);
    const s = sizes(join(out, `${NAME}_bg.wasm`));
    console.log(`pkg/${dir}/${NAME}_bg.wasm: ${s.raw} bytes, ${s.gzip} gzipped (-9)`);
  }
  if (!probe) {
    pageAssets();
    // the MCP Apps plan view: the same renderer (www/dayview.js) in one HTML document
    writeFileSync(VIEW_HTML, await buildView());
  }
}

main().catch((e) => {
  console.error(`build failed: ${e.message}`);
  process.exit(1);
});
