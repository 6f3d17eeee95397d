#!/usr/bin/env node
// `npm run build`: the WebAssembly package, from its Rust crates to pkg/web/ and pkg/node/.
//
// The package is three wasm modules (issue 32; MODULES below): the validator (the crate
// momentum-plan-wasm, bindings-wasm/src), which a page loads first and which stays within 150 KB;
// the extras (momentum-plan-wasm-extras, bindings-wasm/extras: repair, the plan schema,
// PlanStream) and the calendar (momentum-plan-wasm-calendar, bindings-wasm/calendar:
// planToIcalendar, commitmentsFromIcalendar, the tz data), which the entry (js/wasm/api.js) loads
// on first use. Each step below runs for each.
//
//   1. cargo build --profile wasm --target wasm32-unknown-unknown (root Cargo.toml: fat LTO, one
//      codegen unit, panic = "abort"; no `strip`, which would drop the target_features section
//      wasm-bindgen reads), with opt-level "s" instead of the profile's "z" (measured 1.3-1.6x
//      faster for under 3 KB more); the core crate (momentum-plan: the parser and the rules) at
//      each module's own level (MODULES): "s" in the validator, which must stay within 150 KB
//      (issue 32: 147,005 bytes; 176,542 at 3; "z" is 13 KB smaller but made validatePlan(text)
//      3-4x slower), 3 in the extras (issue 12: measured 1.2-1.4x faster than "s" on
//      validatePlan(text) for +70 KB; README "Size"), "s" in the calendar (one export validates
//      once: size before speed). One cargo run per module, since the core's level differs;
//   2. wasm-bindgen (the CLI must be the version Cargo.lock resolves) --target web and
//      --target nodejs, with --remove-name-section --remove-producers-section and
//      --experimental-reset-state-function (index.js re-instantiates the module after a trap);
//   3. wasm-opt -Oz from the npm `binaryen` package (never Debian's binaryen 108: it corrupts the
//      externref table of wasm-bindgen's output);
//   4. each output gets the package's JS from js/ at the repository root (writeEntry): its
//      index.js (js/wasm/web.js or js/wasm/node.cjs), api.js (js/wasm/api.js: the converter over
//      the raw exports, behind the trap guard), convert.js (js/convert.js, the converter shared
//      with momentum-plan-node) and calendar.js (js/calendar.js, the calendar functions shared
//      with it), each by js/emit.mjs as CommonJS in pkg/node/ and an ES module in pkg/web/; its
//      index.d.ts (js/wasm/node.d.ts or web.d.ts, js/wasm/functions.d.ts, js/calendar.d.ts, then
//      js/api.d.ts); and a package.json naming its module type;
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
import { emitConverter, emitModule } from '../../js/emit.mjs';
import { buildView, VIEW_HTML } from './build-view.mjs';

const CRATE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(CRATE, '..');
const TARGET = resolve(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'));
/** The package's wasm modules: [cargo package, output name, the core crate's opt-level, cargo
 * features]. The validator module builds the core with `lean` (core/Cargo.toml: a day list far over
 * the limit is read whole, not a block at a time; the same verdicts; about 10 KB less). The
 * first is the validator, loaded before the first verdict; the others are loaded on first use by
 * the entries (js/wasm/web.js, node.cjs: a loader each, made by their one `loader` function;
 * js/wasm/api.js's LAZY: which exports each holds and which functions need it). */
const MODULES = [
  ['momentum-plan-wasm', 'momentum_plan_wasm', '"s"', ['momentum-plan/lean']],
  ['momentum-plan-wasm-extras', 'momentum_plan_wasm_extras', '3', []],
  ['momentum-plan-wasm-calendar', 'momentum_plan_wasm_calendar', '"s"', []],
];
const probe = process.argv.includes('--probe');
/** The opt-level of the wasm build (see the header; the core crate's is in MODULES). */
const OPT_LEVEL = 's';

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

/** The raw wasm exports take externrefs; wasm-bindgen types them `any`: say `unknown`. Its
 * classes (the native PlanStream, which the package's own PlanStream wraps) declare
 * `[Symbol.dispose]`, a type of TypeScript's esnext library: not declared here, so that the
 * package's types check under the es2022 library (the method is still there). */
function noAny(dir) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.d.ts'))) {
    const p = join(dir, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/(\w): any\b/g, '$1: unknown').replace(/^ *\[Symbol\.dispose\]\(\): void;\n/gm, ''));
  }
}

/** The package's own sources (js/ at the repository root). */
const JS = join(ROOT, 'js');

/** `text` without its leading `//` comment lines and the blank line after them. */
const withoutHeader = (text) => text.replace(/^(\/\/.*\n)+\n?/, '');

/** index.d.ts of an output: the head (`node.d.ts` or `web.d.ts`: the types' re-exports), then
 * the wasm-only functions, the calendar's types and functions (js/calendar.d.ts, generated) and
 * the functions both JS packages export (js/api.d.ts, generated). */
function writeDts(dir, head) {
  const parts = [join(JS, 'wasm', head), join(JS, 'wasm', 'functions.d.ts'), join(JS, 'calendar.d.ts'), join(JS, 'api.d.ts')];
  const from = parts.map((p) => p.slice(ROOT.length + 1)).join(', ');
  const text = parts.map((p) => withoutHeader(readFileSync(p, 'utf8'))).join('');
  writeFileSync(join(dir, 'index.d.ts'), `// GENERATED by scripts/build.mjs from ${from}: do not edit.\n${text}`);
}

/** An output's entry (js/wasm/web.js or node.cjs as index.js; for Node also js/wasm/node.mjs as
 * index.mjs, with index.d.mts), its api.js, convert.js and calendar.js in its module format, its
 * index.d.ts and a package.json naming the format. */
function writeEntry(dir, format) {
  const web = format === 'module';
  cpSync(join(JS, 'wasm', web ? 'web.js' : 'node.cjs'), join(dir, 'index.js'));
  emitModule(join(JS, 'wasm', 'api.js'), join(dir, 'api.js'), format);
  emitConverter(join(dir, 'convert.js'), format);
  emitModule(join(JS, 'calendar.js'), join(dir, 'calendar.js'), format);
  writeDts(dir, web ? 'web.d.ts' : 'node.d.ts');
  if (!web) {
    // Node's ES module entry over the CommonJS one, with the web build's init() and initSync().
    cpSync(join(JS, 'wasm', 'node.mjs'), join(dir, 'index.mjs'));
    const tail = withoutHeader(readFileSync(join(JS, 'wasm', 'node-init.d.ts'), 'utf8'));
    writeFileSync(join(dir, 'index.d.mts'), readFileSync(join(dir, 'index.d.ts'), 'utf8') + tail);
  }
  writeFileSync(join(dir, 'package.json'), `{ "type": "${format}" }\n`);
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
  // --probe builds only the validator module (the probe's exports are in it).
  const modules = probe ? MODULES.slice(0, 1) : MODULES;
  for (const [pkg, , coreOptLevel, features] of modules) {
    const cargoArgs = ['build', '-p', pkg, '--target', 'wasm32-unknown-unknown', '--profile', 'wasm'];
    cargoArgs.push('--config', `profile.wasm.opt-level=${JSON.stringify(OPT_LEVEL)}`);
    cargoArgs.push('--config', `profile.wasm.package.momentum-plan.opt-level=${coreOptLevel}`);
    const wanted = probe ? [...features, 'boundary-probe'] : features;
    if (wanted.length) cargoArgs.push('--features', wanted.join(','));
    run('cargo', cargoArgs, { cwd: ROOT });
  }
  const flags = ['--remove-name-section', '--remove-producers-section', '--experimental-reset-state-function'];
  const outs = probe ? [['nodejs', 'probe']] : [['web', 'web'], ['nodejs', 'node']];
  for (const [target, dir] of outs) {
    const out = join(CRATE, 'pkg', dir);
    rmSync(out, { recursive: true, force: true });
    for (const [, name] of modules) {
      const input = join(TARGET, 'wasm32-unknown-unknown', 'wasm', `${name}.wasm`);
      run(cli, ['--target', target, '--out-dir', out, ...flags, input]);
    }
  }
  const opt = wasmOpt();
  await Promise.all(
    outs.flatMap(([, dir]) =>
      modules.map(([, name]) => {
        const w = join(CRATE, 'pkg', dir, `${name}_bg.wasm`);
        return runAsync(opt, WASM_OPT_FLAGS.concat([w, '-o', w]));
      }),
    ),
  );
  for (const [target, dir] of outs) {
    const out = join(CRATE, 'pkg', dir);
    noAny(out);
    writeEntry(out, target === 'web' ? 'module' : 'commonjs');
    for (const [, name] of modules) {
      const s = sizes(join(out, `${name}_bg.wasm`));
      console.log(`pkg/${dir}/${name}_bg.wasm: ${s.raw} bytes, ${s.gzip} gzipped (-9)`);
    }
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
