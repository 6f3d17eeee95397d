'use strict';
// `npm run bench`: ops/s of validatePlan through wasm in Node, object and text input, beside
// JSON.parse of the same text and the napi binding (../bindings-node, when it is built), all in
// one run, side by side (bench/measure.cjs's sideBySide: every case in each round; ops/s the
// median over the rounds, the ratio the median of the ratios within a round). Prints a Markdown table (the README records one); `npm run bench` then runs
// bench/chromium.mjs, the wasm rows again in headless Chromium. The two `part:` rows split the
// text case (measure.cjs's textParts).

const { validatePlan } = require('../pkg/node');
const raw = require('../pkg/node/momentum_plan_wasm.js');
const { calm, large } = require('./plans.cjs');
const { sideBySide, table, textParts } = require('./measure.cjs');

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
