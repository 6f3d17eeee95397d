// The ES module build (pkg/web, what the page and bundlers load), run in Node with initSync:
// the same verdicts as the CommonJS build, and its snippet is the ES module original.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import init, { initSync, load, validatePlan, repairPlan, planSchema, getPlanContract, PlanStream } from '../pkg/web/index.js';

const require = createRequire(import.meta.url);
const node = require('../pkg/node');
const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const wasm = readFileSync(new URL('../pkg/web/momentum_plan_wasm_bg.wasm', import.meta.url));
const extras = readFileSync(new URL('../pkg/web/momentum_plan_wasm_extras_bg.wasm', import.meta.url));

test('pkg/web: initSync, then the same verdicts as pkg/node; load(), then the same repairs and schemas', async () => {
  initSync({ module: wasm });
  assert.equal(typeof init, 'function');
  // the second module is not loaded yet: what needs it says so, and the validator works meanwhile
  const notLoaded = (name) => (e) => e instanceof Error && e.message.startsWith(`momentum-plan-wasm: ${name} is in the package's second module, which is not loaded yet: call \`await load()\``);
  assert.throws(() => repairPlan('{}', '{}'), notLoaded('repairPlan'));
  assert.throws(() => planSchema('{}'), notLoaded('planSchema'));
  assert.throws(() => new PlanStream('{}'), notLoaded('PlanStream'));
  for (const f of readdirSync(examples).filter((n) => n.endsWith('.plan.json'))) {
    const plan = readFileSync(examples + f, 'utf8');
    const request = readFileSync(examples + f.replace('.plan.json', '.request.json'), 'utf8');
    assert.deepEqual(validatePlan(plan, request), node.validatePlan(plan, request), f);
    assert.deepEqual(validatePlan(JSON.parse(plan), JSON.parse(request)), node.validatePlan(plan, request), f);
  }
  assert.deepEqual(getPlanContract(), node.getPlanContract());
  await Promise.all([load({ module_or_path: extras }), load({ module_or_path: extras })]);
  // repair and schema: the same bytes as pkg/node (which test/repair.test.mjs holds to the core's)
  for (const f of readdirSync(examples).filter((n) => n.endsWith('.plan.json'))) {
    const plan = JSON.parse(readFileSync(examples + f, 'utf8'));
    const request = readFileSync(examples + f.replace('.plan.json', '.request.json'), 'utf8');
    plan.format = ' Daily-Momentum-AI-Plan';
    for (const options of [undefined, { unsafe: true }]) {
      assert.equal(JSON.stringify(repairPlan(plan, request, options)), JSON.stringify(node.repairPlan(plan, request, options)), f);
    }
    for (const variant of ['validation', 'strict']) {
      assert.equal(JSON.stringify(planSchema(request, variant)), JSON.stringify(node.planSchema(request, variant)), f);
    }
  }
  assert.throws(() => planSchema('{}', 'loose'), (e) => e instanceof RangeError && /unknown schema variant "loose"/.test(e.message));
  assert.throws(() => validatePlan({ a: NaN }, {}), /^TypeError: plan at \$\.a is NaN/);
});

test('the package resolves: require() gets pkg/node, import of /web gets pkg/web', async () => {
  assert.equal(require.resolve('momentum-plan-wasm'), require.resolve('../pkg/node/index.js'));
  const web = await import('momentum-plan-wasm/web');
  assert.equal(web.validatePlan, validatePlan);
});
