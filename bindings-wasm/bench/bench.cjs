'use strict';
// `npm run bench`: ops/s of validatePlan through wasm in Node, object and text input, beside
// JSON.parse of the same text and the napi binding (../bindings-node, when it is built), all in
// one run, side by side (bench/measure.cjs's sideBySide: every case in each round; ops/s the
// median over the rounds, the ratio the median of the ratios within a round). Prints a Markdown table (the README records one); `npm run bench` then runs
// bench/chromium.mjs, the wasm rows again in headless Chromium. The two `part:` rows split the
// text case (measure.cjs's textParts). First it prints the "wasm modules" table: each module's
// size, raw and gzip -9, beside its budget (test/budgets.cjs, issue 32); `node bench/bench.cjs
// --sizes` prints only that table (no timing: a quick check that the script runs).

const { validatePlan } = require('../pkg/node');
const raw = require('../pkg/node/momentum_plan_wasm.js');
const { calm, large } = require('./plans.cjs');
const { sideBySide, table, textParts } = require('./measure.cjs');

// The package's wasm modules (issue 32): what a page fetches first, and what it fetches on first use.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const BUDGETS = require('../test/budgets.cjs');
const MODULES = [
  ['momentum_plan_wasm_bg', 'the validator: validatePlan, getPlanContract, renderPath, valueSpan', 'with init()'],
  ['momentum_plan_wasm_extras_bg', 'the extras: repairPlan, planSchema, PlanStream', 'on first use (load())'],
  ['momentum_plan_wasm_calendar_bg', 'the calendar: planToIcalendar, commitmentsFromIcalendar, the tz database', 'on first use (loadCalendar())'],
];
if (Object.keys(BUDGETS).sort().join() !== MODULES.map(([name]) => name).sort().join()) {
  throw new Error('bench/bench.cjs: MODULES must list every module of test/budgets.cjs');
}
const sizeRows = MODULES.map(([name, holds, loaded]) => {
  const file = `${name}.wasm`;
  const budget = BUDGETS[name];
  const bytes = fs.readFileSync(path.join(__dirname, '..', 'pkg', 'web', file));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  return `| \`${file}\` | ${holds} | ${loaded} | ${bytes.length.toLocaleString('en-US')} | ${gz.toLocaleString('en-US')} | ${budget.toLocaleString('en-US')} |`;
});
console.log('The wasm modules (pkg/web; pkg/node holds the same bytes):\n');
console.log('| module | holds | loaded | bytes | gzip -9 | budget (bytes) |\n|---|---|---|---:|---:|---:|');
console.log(`${sizeRows.join('\n')}\n`);
if (process.argv.includes('--sizes')) process.exit(0);

let napi = null;
try {
  napi = require('../../bindings-node');
  napi.validatePlan(calm().planText, calm().requestText);
} catch (e) {
  console.log(`(napi binding not built: ${String(e.message).split('\n')[0]}; its rows are skipped)`);
  napi = null;
}

const rows = [];
for (const input of [calm(), large()]) {
  const plan = JSON.parse(input.planText);
  const request = JSON.parse(input.requestText);
  const verdict = validatePlan(input.planText, input.requestText);
  if (napi) {
    const other = napi.validatePlan(input.planText, input.requestText);
    if (JSON.stringify(other) !== JSON.stringify(verdict)) throw new Error(`napi and wasm disagree on ${input.name}`);
  }
  const bytes = Buffer.byteLength(input.planText);
  const cases = [
    ['JSON.parse(plan text) alone', () => JSON.parse(input.planText)],
    ['wasm validatePlan(text, text)', () => validatePlan(input.planText, input.requestText)],
    ...textParts(input.planText, input.requestText, raw.validate),
    ['wasm validatePlan(object, object)', () => validatePlan(plan, request)],
  ];
  if (napi) {
    cases.push(['napi validatePlan(text, text)', () => napi.validatePlan(input.planText, input.requestText)]);
    cases.push(['napi validatePlan(object, object)', () => napi.validatePlan(plan, request)]);
  }
  for (const r of sideBySide(cases)) rows.push({ input: `${input.name}, ${bytes} B, valid: ${verdict.valid}`, ...r });
}
console.log(`In Node ${process.version} (pkg/node):\n`);
console.log(table(rows));

