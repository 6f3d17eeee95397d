// repairPlan and planSchema (validator.md §9) through pkg/node against the core's own bytes: every
// shared vector at the safe and the unsafe level (a sample also with the plan as text), every
// distinct request with both schema variants, and the bad inputs; the checks are
// js/repair-cases.mjs, shared with momentum-plan-node. Vectors a JS object cannot carry go as
// text, plan and request (js/testkit.cjs finds them by scanning each raw line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { driverPath, repairVectors, schemaRequests, badInputCases } from '../../js/repair-cases.mjs';

const require = createRequire(import.meta.url);
const { validatePlan, repairPlan, planSchema } = require('../pkg/node');
const L = require('../../js/testkit.cjs');

const DRIVER = driverPath(resolve(process.env.CARGO_TARGET_DIR || join(L.ROOT, 'target')));

const totals = { calls: 0, exact: 0, parsed: 0 };
const schemaTotals = { calls: 0, exact: 0, parsed: 0, errors: 0 };
const all = [];

for (const file of L.vectorFiles()) {
  test(`repairPlan: ${basename(file)}`, () => {
    const vectors = L.readVectors(file);
    all.push(...vectors);
    assert.deepEqual(repairVectors({ repairPlan, driver: DRIVER, vectors, totals }), []);
  });
}

test('planSchema: every distinct request, both variants', () => {
  assert.deepEqual(schemaRequests({ planSchema, driver: DRIVER, vectors: all, totals: schemaTotals }), []);
  console.log(
    `# planSchema: ${schemaTotals.calls} calls: ${schemaTotals.exact} byte-identical, ${schemaTotals.parsed} equal after JSON.parse, ${schemaTotals.errors} the core's error`,
  );
  assert.ok(schemaTotals.exact > 0 && schemaTotals.errors > 0);
});

test('repairPlan counts', () => {
  console.log(
    `# repairPlan: ${totals.calls} calls: ${totals.exact} byte-identical to the core, ${totals.parsed} equal after JSON.parse (a number or key JS cannot carry)`,
  );
  assert.ok(all.length > L.VECTOR_FLOOR, 'all vector files were read');
  assert.equal(totals.exact + totals.parsed, totals.calls);
});

const { plan, request } = L.example('calm-weekday');
for (const [name, check] of badInputCases({ validatePlan, repairPlan, planSchema, driver: DRIVER, plan, request, assert })) {
  test(`bad input: ${name}`, check);
}
