// Host objects through the shared converter (js/convert.js): the cases of js/host-cases.mjs give
// what they pin, and the same verdict bytes or the same error as momentum-plan-wasm when its
// pkg/node is built. Also: the engine's number text is kept only where it is the core's.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { allCases, outcome, matches } from '../../js/host-cases.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const require = createRequire(import.meta.url)
const { validatePlan } = require('../index.js')
const native = require('../native.js')
const { engineWritesCoreNumber } = require('../convert.js')

const calmText = readFileSync(join(ROOT, 'examples', 'calm-weekday.plan.json'), 'utf8')
const request = JSON.parse(readFileSync(join(ROOT, 'examples', 'calm-weekday.request.json'), 'utf8'))
const WASM = join(ROOT, 'bindings-wasm', 'pkg', 'node', 'index.js')

test('every host-object case gives what it pins', () => {
  for (const [name, plan, req, want] of allCases(calmText, request)) {
    const got = outcome(validatePlan, plan, req)
    assert.ok(matches(got, want), `${name}: ${JSON.stringify(got).slice(0, 400)}`)
  }
})

test('BigInt.prototype.toJSON is honoured as JSON.stringify honours it', () => {
  const p = JSON.parse(calmText)
  p.routine.blocks[0].durationMin = 30n
  assert.throws(() => validatePlan(p, request), (e) => e instanceof TypeError && e.path === '$.routine.blocks[0].durationMin')
  BigInt.prototype.toJSON = function () {
    return Number(this)
  }
  try {
    assert.deepEqual(validatePlan(p, request), validatePlan(calmText, request))
  } finally {
    delete BigInt.prototype.toJSON
  }
})

test('the same verdict bytes or the same error as momentum-plan-wasm', { skip: !existsSync(WASM) && 'bindings-wasm/pkg/node is not built' }, () => {
  const wasm = require(WASM)
  for (const [name, plan, req] of allCases(calmText, request)) {
    assert.deepEqual(outcome(validatePlan, plan, req), outcome(wasm.validatePlan, plan, req), name)
  }
})

test("numbers: the engine's text is kept only where it is the core's float_text", () => {
  const xs = [1e20, 1e21, 2 ** 53, -(2 ** 53), -0, 0.1, 0.5, 1 / 3, 5e-324, 1.7976931348623157e308, 123456.789, 1e-7, 1.5e-7]
  for (let e = -8; e <= 17; e++) for (const m of [1, 1.5, 2.5, 9.999999999999999, 3.14159]) xs.push(m * 10 ** e, -m * 10 ** e)
  for (let x = 1e-6; x < 1.2e-5; x += 1.37e-7) xs.push(x)
  let seed = 12345
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const buf = new DataView(new ArrayBuffer(8))
  for (let i = 0; i < 20000; i++) {
    xs.push((rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20))
    buf.setUint32(0, rand() * 2 ** 32)
    buf.setUint32(4, rand() * 2 ** 32)
    const bits = buf.getFloat64(0)
    if (Number.isFinite(bits)) xs.push(bits)
  }
  let kept = 0
  for (const x of xs) {
    const core = native.floatText(x)
    if (Number.isInteger(x) && engineWritesCoreNumber(x)) {
      // A safe integer is written as an integer (the core reads an integer); −0 as 0.
      assert.equal(JSON.stringify(x), String(Object.is(x, -0) ? 0 : x))
      continue
    }
    if (engineWritesCoreNumber(x)) {
      kept++
      assert.equal(JSON.stringify(x), core, String(x))
    } else if (!Number.isInteger(x)) {
      // Outside the fast path only where the engine's text differs: [1e-6, 1e-5).
      assert.ok(Math.abs(x) >= 1e-6 && Math.abs(x) < 1e-5, String(x))
      assert.notEqual(JSON.stringify(x), core, String(x))
    }
  }
  assert.ok(kept > 10000, `${kept}`)
  assert.equal(native.floatText(2 ** 53), '9007199254740992.0')
  // Beyond 2^53 every number is integral: the core's form has an exponent or `.0`, never digits alone.
  for (const x of [1e20, 1e21, -(2 ** 60)]) assert.match(native.floatText(x), /[.e]/)
  assert.equal(native.floatText(1e-6), '1e-6')
})
