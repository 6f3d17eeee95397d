// The public API beyond the vectors: loading (CommonJS, ESM), the contract, every kind of JS value
// JSON cannot hold, numbers, lone surrogates, depth, bad request text and Rust panics.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import * as esm from '../index.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const require = createRequire(import.meta.url)
const { validatePlan, getPlanContract } = require('../index.js')
const native = require('../native.js')
/** The test addon: the same crate with the `test-exports` feature (validateText, panicForTest). */
const testAddon = require('./addon/momentum-plan-node.node')

const read = (name) => readFileSync(join(ROOT, 'examples', name), 'utf8')
const calmText = read('calm-weekday.plan.json')
const calm = () => JSON.parse(calmText)
const request = JSON.parse(read('calm-weekday.request.json'))
const calmVerdict = validatePlan(calmText, request)

test('loads from the repository root with require, and as ESM', async () => {
  const fromRoot = createRequire(join(ROOT, 'x.js'))('./bindings-node')
  assert.equal(typeof fromRoot.validatePlan, 'function')
  assert.equal(typeof fromRoot.getPlanContract, 'function')
  assert.equal(esm.validatePlan, validatePlan)
  assert.equal(esm.default.getPlanContract, getPlanContract)
  const self = await import('momentum-plan-node')
  assert.equal(self.validatePlan, validatePlan)
  assert.deepEqual(Object.keys(fromRoot).sort(), [
    'PlanStream',
    'commitmentsFromIcalendar',
    'getPlanContract',
    'isWarning',
    'planSchema',
    'planToIcalendar',
    'repairPlan',
    'streamPlan',
    'validatePlan',
  ])
  for (const name of ['repairPlan', 'planSchema', 'PlanStream', 'streamPlan', 'planToIcalendar', 'commitmentsFromIcalendar']) {
    assert.equal(esm[name], fromRoot[name], name)
    assert.equal(self[name], fromRoot[name], name)
  }
  assert.deepEqual(fromRoot.validatePlan(calm(), request), calmVerdict)
})

test('the calm example is valid; the broken one is not, with the core verdict JSON', () => {
  assert.equal(calmVerdict.valid, true)
  assert.deepEqual(calmVerdict.errors, [])
  assert.equal(calmVerdict.checks.length, 8)
  const broken = validatePlan(read('calm-weekday-broken.plan.json'), read('calm-weekday-broken.request.json'))
  assert.equal(broken.valid, false)
  assert.deepEqual(
    broken.errors.map((e) => e.code),
    ['overlap', 'category', 'commitment'].filter((c) => broken.errors.some((e) => e.code === c)),
  )
  assert.ok(broken.errors.length >= 3)
  // Byte for byte the core's verdict JSON (the addon's own Verdict::to_json).
  assert.equal(
    JSON.stringify(broken),
    testAddon.validateText(read('calm-weekday-broken.plan.json'), read('calm-weekday-broken.request.json')),
  )
})

test('the packed verdict reads back as the core verdict JSON, also when a path holds a NUL (JSON fallback)', () => {
  const requestText = JSON.stringify(request)
  const withKey = (key) => {
    const plan = calm()
    plan.routine.weekdays = { [key]: plan.routine.blocks }
    return JSON.stringify(plan)
  }
  const cases = [calmText, read('calm-weekday-broken.plan.json'), '{}', '[]', '{"a":', withKey('mon'), withKey('x\u0000y')]
  for (const text of cases) {
    const core = testAddon.validateText(text, requestText)
    assert.equal(JSON.stringify(validatePlan(text, request)), core, text.slice(0, 60))
  }
  // The NUL case really takes the fallback, and its path keeps the NUL.
  assert.equal(native.validate(withKey('x\u0000y'), requestText)[0], '{')
  assert.ok(validatePlan(withKey('x\u0000y'), request).errors.some((e) => e.path === "$.routine.weekdays['x\u0000y']"))
  assert.notEqual(native.validate(withKey('mon'), requestText)[0], '{')
  // Bad arguments to the native call are clear errors, never a crash.
  assert.throws(() => native.validate(1, requestText), (e) => /plan must be a string/.test(e.message))
  assert.throws(() => native.validate(calmText, {}), (e) => /request must be a string/.test(e.message))
  // Request text that is not JSON is `!` and the core's message (the converter throws a SyntaxError).
  assert.match(native.validate(calmText, '{"a":'), /^!request is not JSON: /)
})

test('the shipped addon holds no test- or bench-only export', () => {
  for (const name of ['validateText', 'benchCore', 'panicForTest', 'validateObjects', 'notJson']) {
    assert.equal(native[name], undefined, name)
    assert.ok(!readFileSync(require.resolve('../native.js'), 'utf8').includes(name), name)
  }
  assert.equal(typeof testAddon.benchCore, 'function')
})

test('getPlanContract: the contract, key order as specified, a fresh object each call', () => {
  const c = getPlanContract()
  assert.deepEqual(Object.keys(c), ['format', 'contractVersion', 'categories', 'weekdays', 'limits', 'rules'])
  assert.equal(JSON.stringify(c), native.planContract())
  assert.equal(c.format, 'daily-momentum-ai-plan')
  assert.equal(c.contractVersion, 1)
  assert.equal(c.limits.payloadBytes, 262144)
  assert.equal(c.rules.length, 8)
  c.rules.length = 0
  assert.equal(getPlanContract().rules.length, 8)
})

/** Asserts validatePlan throws a TypeError naming `path` for `plan` (and for the request). */
function assertTypeError(build, path, word) {
  const plan = calm()
  build(plan)
  assert.throws(
    () => validatePlan(plan, request),
    (e) => e instanceof TypeError && e.path === path && e.argument === 'plan' && e.message.includes(`plan at ${path} `) && e.message.includes(word),
  )
  const req = structuredClone(request)
  build(req)
  assert.throws(
    () => validatePlan(calmText, req),
    (e) => e instanceof TypeError && e.argument === 'request' && e.message.startsWith('request at $'),
  )
}

test('non-JSON values throw a TypeError naming the path', () => {
  assertTypeError((p) => (p.extra = () => 1), '$.extra', 'function')
  assertTypeError((p) => (p.extra = [1, Symbol('s')]), '$.extra[1]', 'symbol')
  assertTypeError((p) => (p.extra = { n: 10n }), '$.extra.n', 'BigInt')
  assertTypeError((p) => (p.extra = NaN), '$.extra', 'NaN')
  assertTypeError((p) => (p.extra = [Infinity]), '$.extra[0]', 'Infinity')
  assertTypeError((p) => (p.extra = { 'odd key': -Infinity }), "$.extra['odd key']", '-Infinity')
  assertTypeError((p) => (p.extra = [1, undefined, 3]), '$.extra[1]', 'inside an array')
  // eslint-disable-next-line no-sparse-arrays
  assertTypeError((p) => (p.extra = [1, , 3]), '$.extra[1]', 'inside an array')
  assertTypeError((p) => (p.extra = { toJSON: () => Symbol('x') }), '$.extra', 'symbol')
  assertTypeError(
    (p) => {
      p.extra = { a: {} }
      p.extra.a.back = p.extra
    },
    '$.extra.a.back',
    'a cycle',
  )
  assert.throws(() => validatePlan(undefined, request), (e) => e instanceof TypeError && e.path === '$')
  assert.throws(() => validatePlan(calm(), undefined), (e) => e instanceof TypeError && e.argument === 'request')
  assert.throws(() => validatePlan(() => 1, request), TypeError)
})

test('a cycle names where it closes and where it points', () => {
  const p = calm()
  p.routine.blocks[1].self = p.routine
  assert.throws(
    () => validatePlan(p, request),
    (e) => e instanceof TypeError && /at \$\.routine\.blocks\[1\]\.self refers back to \$\.routine /.test(e.message),
  )
})

test('members whose value is undefined are skipped, as JSON.stringify does', () => {
  const p = calm()
  p.extra = undefined
  p.routine.blocks[0].note = undefined
  assert.deepEqual(validatePlan(p, { ...request, extra: undefined }), calmVerdict)
  // A toJSON method is honoured (a Date becomes its ISO string), as JSON.stringify does.
  const q = calm()
  q.startDate = new Date(0)
  assert.deepEqual(validatePlan(q, request), validatePlan(JSON.stringify(q), request))
})

test('numbers: integral within ±(2^53−1) is an integer, anything else is not', () => {
  const withDuration = (d) => {
    const p = calm()
    p.routine.blocks[0].durationMin = d
    return p
  }
  const codes = (v) => v.errors.map((e) => `${e.code} ${e.path}`)
  assert.deepEqual(codes(validatePlan(withDuration(30.0), request)), [])
  assert.deepEqual(codes(validatePlan(withDuration(-0), request)).slice(0, 1), ['duration $.routine.blocks[0].durationMin'])
  for (const d of [30.5, 2 ** 53, -(2 ** 53), 1e21, 1e300, 2 ** 60]) {
    const v = validatePlan(withDuration(d), request)
    assert.equal(v.errors[0].code, 'duration', String(d))
    assert.equal(v.errors[0].path, '$.routine.blocks[0].durationMin')
    // The same as the text with the number written as a non-integer, message included.
    const text = native.floatText(d)
    assert.deepEqual(v, validatePlan(JSON.stringify(withDuration('X')).replace('"X"', text), request), String(d))
  }
  // 2^53 − 1 is still an integer (too large a duration, but an integer: the message says so).
  const max = validatePlan(withDuration(Number.MAX_SAFE_INTEGER), request)
  assert.deepEqual(max, validatePlan(JSON.stringify(withDuration(Number.MAX_SAFE_INTEGER)), request))
  // contractVersion is compared numerically: 1 passes, an unsafe integral float is not 1.
  const p = calm()
  p.contractVersion = 2 ** 53
  assert.equal(validatePlan(p, request).errors[0].code, 'contractVersion')
})

test('lone surrogates: a json verdict for the plan, an error for the request', () => {
  const inValue = calm()
  inValue.name = 'Calm \ud83d weekday'
  const v = validatePlan(inValue, request)
  assert.deepEqual(v.checks, ['json'])
  assert.deepEqual(v.errors.map((e) => [e.code, e.path]), [['json', '$']])
  assert.match(v.errors[0].message, /a lone surrogate \(U\+D83D\) in the string at \$\.name is not a character/)

  const inKey = calm()
  inKey['\udc00x'] = 1
  assert.deepEqual(validatePlan(inKey, request).checks, ['json'])

  const text = calmText.replace('"Calm weekday"', '"Calm \ud83d weekday"')
  const t = validatePlan(text, request)
  assert.deepEqual(t.errors.map((e) => [e.code, e.path]), [['json', '$']])
  assert.match(t.errors[0].message, /lone surrogate \(U\+D83D\) is not a character at line 6, column 17/)
  // Escaped in text, the core's own reader says so.
  assert.equal(validatePlan(calmText.replace('"Calm weekday"', '"Calm \\ud83d weekday"'), request).errors[0].code, 'json')

  assert.throws(() => validatePlan(calmText, { ...request, goal: 'x\udfff' }), TypeError)
  assert.throws(() => validatePlan(calmText, JSON.stringify(request).replace('"goal":"', '"goal":"\ud800')), SyntaxError)
})

test('depth: 512 levels are read, deeper is a json verdict, never a stack overflow', () => {
  const nest = (arrays) => {
    let v = 1
    for (let i = 0; i < arrays; i++) v = [v]
    return v
  }
  const at = (levels) => {
    const p = calm()
    p.extra = nest(levels - 1) // the plan object is level 1
    return p
  }
  assert.deepEqual(validatePlan(at(512), request), validatePlan(JSON.stringify(at(512)), request))
  assert.equal(validatePlan(at(512), request).valid, true)
  for (const levels of [513, 100000]) {
    const v = validatePlan(at(levels), request)
    assert.deepEqual(v.errors.map((e) => [e.code, e.path]), [['json', '$']])
    assert.match(v.errors[0].message, /nesting deeper than 512 levels/)
  }
  assert.equal(validatePlan(JSON.stringify(at(513)), request).errors[0].code, 'json')
  assert.throws(() => validatePlan(calmText, { ...request, extra: nest(600) }), TypeError)
})

test('plans that are not objects, and requests of every JSON type', () => {
  for (const plan of [null, 5, true, [1], '[1]', '', 'not json']) {
    const v = validatePlan(plan, request)
    assert.equal(v.valid, false)
    assert.deepEqual(v.checks, ['json'])
    assert.deepEqual(v.errors.map((e) => e.path), ['$'])
  }
  for (const req of [null, 5, 'null', '[]', []]) {
    const v = validatePlan(calm(), req)
    assert.equal(v.errors[0].code, 'requestInvalid')
  }
  assert.deepEqual(validatePlan(calm(), JSON.stringify(request)), calmVerdict)
  assert.throws(() => validatePlan(calm(), '{"requestId": '), (e) => e instanceof SyntaxError && /request is not JSON/.test(e.message))
  assert.throws(() => validatePlan(calm(), 'NaN'), SyntaxError)
})

test('a Rust panic becomes a JS Error and Node goes on', () => {
  assert.throws(() => testAddon.panicForTest(), (e) => e instanceof Error && /deliberate panic/.test(e.message))
  assert.deepEqual(validatePlan(calm(), request), calmVerdict)
})
