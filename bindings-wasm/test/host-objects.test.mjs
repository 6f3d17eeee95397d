// Host objects through the shared converter (js/convert.js): the cases of js/host-cases.mjs give
// what they pin, the same as momentum-plan-node when its addon is built, and the engine's number
// text is kept only where it is the core's float_text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { allCases, outcome, matches } from '../../js/host-cases.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const { validatePlan } = require('../pkg/node');
const raw = require('../pkg/node/momentum_plan_wasm.js');
const { engineWritesCoreNumber } = require('../pkg/node/convert.js');

const calmText = readFileSync(join(ROOT, 'examples', 'calm-weekday.plan.json'), 'utf8');
const request = JSON.parse(readFileSync(join(ROOT, 'examples', 'calm-weekday.request.json'), 'utf8'));
const NODE = join(ROOT, 'bindings-node');
const nodeBuilt = existsSync(join(NODE, 'convert.js')) && readdirSync(NODE).some((f) => f.endsWith('.node'));

test('every host-object case gives what it pins', () => {
  for (const [name, plan, req, want] of allCases(calmText, request)) {
    const got = outcome(validatePlan, plan, req);
    assert.ok(matches(got, want), `${name}: ${JSON.stringify(got).slice(0, 400)}`);
  }
});

test('BigInt.prototype.toJSON is honoured as JSON.stringify honours it', () => {
  const p = JSON.parse(calmText);
  p.routine.blocks[0].durationMin = 30n;
  assert.throws(() => validatePlan(p, request), (e) => e instanceof TypeError && e.path === '$.routine.blocks[0].durationMin');
  BigInt.prototype.toJSON = function () {
    return Number(this);
  };
  try {
    assert.deepEqual(validatePlan(p, request), validatePlan(calmText, request));
  } finally {
    delete BigInt.prototype.toJSON;
  }
});

test('the same verdict bytes or the same error as momentum-plan-node', { skip: !nodeBuilt && 'bindings-node is not built' }, () => {
  const node = require(NODE);
  for (const [name, plan, req] of allCases(calmText, request)) {
    assert.deepEqual(outcome(validatePlan, plan, req), outcome(node.validatePlan, plan, req), name);
  }
});

test("numbers: the engine's text is kept only where it is the core's float_text", () => {
  const xs = [1e20, 1e21, 2 ** 53, -(2 ** 53), -0, 0.1, 1 / 3, 5e-324, 1.7976931348623157e308, 1e-7];
  for (let e = -8; e <= 17; e++) for (const m of [1, 1.5, 9.999999999999999, 3.14159]) xs.push(m * 10 ** e, -m * 10 ** e);
  for (let x = 1e-6; x < 1.2e-5; x += 1.37e-7) xs.push(x);
  let seed = 54321;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 20000; i++) xs.push((rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20));
  for (const x of xs) {
    if (Number.isInteger(x)) continue;
    if (engineWritesCoreNumber(x)) assert.equal(JSON.stringify(x), raw.floatText(x), String(x));
    else assert.notEqual(JSON.stringify(x), raw.floatText(x), String(x));
  }
  assert.equal(raw.floatText(2 ** 53), '9007199254740992.0');
  assert.equal(raw.floatText(1e-6), '1e-6');
});
