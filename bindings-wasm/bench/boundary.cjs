'use strict';
// `npm run bench:boundary`: the ways across the JS/wasm boundary, side by side in one run, on our
// plans (pkg/probe: the same crate built with the `boundary-probe` feature's extra exports).
//
// In:  validatePlan(object)  = js/convert.js writes JSON text (checks included) + core parses it
//      probeTextIn(JSON.stringify(object)) = plain JSON.stringify + core parses it (no checks)
//      probeSwbIn(object)    = serde-wasm-bindgen walks the object into a serde_json Value
// Out: validatePlan(text) (the packed verdict, Verdict::to_packed, split by js/convert.js) against
//      probeJsonOut(text) (verdict JSON + JSON.parse) and probeSwbOut(text) (serde-wasm-bindgen
//      serializer, json_compatible).

const probe = require('../pkg/probe/momentum_plan_wasm.js');
const { validatePlan } = require('../pkg/probe');
const { calm, large, largeBroken } = require('./plans.cjs');
const { measure, fmt } = require('./measure.cjs');

const out = ['| input | way | ops/s | µs/op | × fastest |', '|---|---|---:|---:|---:|'];
for (const input of [calm(), large(), largeBroken()]) {
  const plan = JSON.parse(input.planText);
  const request = JSON.parse(input.requestText);
  const requestText = input.requestText;
  const same = [validatePlan(plan, request), probe.probeTextIn(JSON.stringify(plan), requestText), probe.probeSwbIn(plan, requestText), probe.probeSwbOut(input.planText, requestText), probe.probeJsonOut(input.planText, requestText)].map((v) => JSON.stringify(v));
  if (new Set(same).size !== 1) throw new Error(`the ways disagree on ${input.name}`);
  const groups = [
    [
      ['in: js/convert.js text + core (validatePlan)', () => validatePlan(plan, request)],
      ['in: JSON.stringify + serde_json, no checks', () => probe.probeTextIn(JSON.stringify(plan), requestText)],
      ['in: serde-wasm-bindgen walk', () => probe.probeSwbIn(plan, requestText)],
    ],
    [
      ['out: packed verdict, split in JS (validatePlan, text in)', () => validatePlan(input.planText, requestText)],
      ['out: verdict JSON + JSON.parse', () => probe.probeJsonOut(input.planText, requestText)],
      ['out: serde-wasm-bindgen serializer', () => probe.probeSwbOut(input.planText, requestText)],
    ],
  ];
  for (const group of groups) {
    const results = group.map(([name, fn]) => ({ name, ...measure(fn) }));
    const best = Math.max(...results.map((r) => r.opsPerSec));
    for (const r of results) out.push(`| ${input.name} | ${r.name} | ${fmt(r.opsPerSec)} | ${fmt(r.usPerOp)} | ${(best / r.opsPerSec).toFixed(2)} |`);
  }
}
console.log(out.join('\n'));
