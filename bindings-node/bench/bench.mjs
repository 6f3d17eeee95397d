// `npm run bench`: ops/s of validatePlan for object and text input, beside JSON.parse of the same
// text, on the calm-weekday example and on a large plan (7 weekday lists x 40 blocks), in one run.
// The floor row is one native call that runs the core's validate_text_pair on the two texts and
// returns nothing of the verdict: the core plus the cheapest way across, what no binding beats.
//
// Options: --time=SECONDS per measurement (default 1), --rounds=N (default 5; the best round counts).
import { createRequire } from 'node:module'
import { example, largePlanText } from './plans.mjs'

const require = createRequire(import.meta.url)
const { validatePlan } = require('../index.js')
// benchCore is a test-only export: the test addon (`npm run build:test-addon`) has it.
const testAddon = require('../test/addon/momentum-plan-node.node')

const arg = (name, dflt) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`))
  return a ? Number(a.split('=')[1]) : dflt
}
const SECONDS = arg('time', 1)
const ROUNDS = arg('rounds', 5)

let sink = 0
/** Best-of-ROUNDS ops/s of fn. */
function measure(fn) {
  // Calibrate a batch size that takes ~20 ms, warm up for one round's time.
  let batch = 1
  for (;;) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink ^= fn() ? 1 : 0
    const ms = Number(process.hrtime.bigint() - t0) / 1e6
    if (ms > 20) break
    batch *= 2
  }
  let best = 0
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0
    const t0 = process.hrtime.bigint()
    let ns = 0n
    while (ns < BigInt(Math.round(SECONDS * 1e9 / ROUNDS))) {
      for (let i = 0; i < batch; i++) sink ^= fn() ? 1 : 0
      n += batch
      ns = process.hrtime.bigint() - t0
    }
    best = Math.max(best, n / (Number(ns) / 1e9))
  }
  return best
}

const request = JSON.parse(example('calm-weekday.request.json'))
const plans = [
  ['calm-weekday', example('calm-weekday.plan.json')],
  ['large (7 x 40 blocks)', largePlanText()],
]

const rows = []
for (const [name, text] of plans) {
  const object = JSON.parse(text)
  const bytes = Buffer.byteLength(text)
  const parse = measure(() => JSON.parse(text))
  const requestText = JSON.stringify(request)
  // The floor: one native call running validate_text_pair once, returning no verdict.
  const core = measure(() => testAddon.benchCore(text, requestText, 1) > 0)
  const cases = [
    ['JSON.parse(text) alone', parse],
    ['  floor: core validate_text_pair alone', core],
    ['validatePlan(text, request)', measure(() => validatePlan(text, request).valid)],
    ['validatePlan(object, request)', measure(() => validatePlan(object, request).valid)],
    ['  part: JSON.stringify(object)', measure(() => JSON.stringify(object))],
  ]
  for (const [what, ops] of cases) rows.push([`${name}, ${bytes} B`, what, ops, ops === parse ? 1 : parse / ops])
}

const fmt = (n) => Math.round(n).toLocaleString('en-US')
console.log(`node ${process.version}, ${SECONDS} s per case, best of ${ROUNDS} rounds\n`)
console.log('| plan | what | ops/s | time vs JSON.parse |')
console.log('|---|---|---:|---:|')
for (const [plan, what, ops, ratio] of rows) {
  console.log(`| ${plan} | ${what} | ${fmt(ops)} | ${ratio.toFixed(2)}x |`)
}
const goal = (plan, what, limit) => {
  const r = rows.find((x) => x[0].startsWith(plan) && x[1] === what)[3]
  return `${plan} ${what.split('(')[1].split(',')[0]}: ${r.toFixed(2)}x (goal <= ${limit}x) ${r <= limit ? 'met' : 'NOT met'}`
}
console.log()
for (const p of ['calm-weekday', 'large']) {
  console.log(goal(p, 'validatePlan(text, request)', 1.5))
  console.log(goal(p, 'validatePlan(object, request)', 2)) // issue 12
}
if (sink === 42) console.log('')
