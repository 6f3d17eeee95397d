// `npm run bench`: ops/s of validatePlan for object and text input, beside JSON.parse of the same
// text, on the calm-weekday example and on a large plan (7 weekday lists x 40 blocks), in one run.
// The floor row is one native call that runs the core's validate_text_pair on the two texts and
// returns nothing of the verdict: the core plus the cheapest way across, what no binding beats.
//
// Every case runs in each round, one after another (side by side): the ratio to JSON.parse is
// taken within each round and the median over the rounds is shown, so a drift of the shared
// machine between cases does not enter it.
//
// Options: --time=SECONDS per case (default 1), --rounds=N (default 11).
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
const ROUNDS = arg('rounds', 11)

let sink = 0
/** A batch size for `fn` that takes about 10 ms. */
function calibrate(fn) {
  let batch = 1
  for (;;) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink ^= fn() ? 1 : 0
    if (Number(process.hrtime.bigint() - t0) / 1e6 > 10) return batch
    batch *= 2
  }
}

/** ops/s of `fn` over `ns` nanoseconds, in whole batches. */
function slice(fn, batch, ns) {
  let n = 0
  const t0 = process.hrtime.bigint()
  let spent = 0n
  while (spent < ns) {
    for (let i = 0; i < batch; i++) sink ^= fn() ? 1 : 0
    n += batch
    spent = process.hrtime.bigint() - t0
  }
  return n / (Number(spent) / 1e9)
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/**
 * Side by side: every case of `cases` ([what, fn], the first being JSON.parse) is timed in each
 * of ROUNDS rounds, one slice after another, so a drift of the shared machine hits all of a
 * round alike. Returns [what, best ops/s, median over the rounds of the case's time ÷ JSON.parse's
 * time in the same round].
 */
function sideBySide(cases) {
  const batches = cases.map(([, fn]) => calibrate(fn))
  const ns = BigInt(Math.round((SECONDS * 1e9) / ROUNDS))
  const ops = cases.map(() => [])
  for (let r = 0; r < ROUNDS; r++) cases.forEach(([, fn], k) => ops[k].push(slice(fn, batches[k], ns)))
  return cases.map(([what], k) => [what, Math.max(...ops[k]), median(ops[0].map((p, r) => p / ops[k][r]))])
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
  const requestText = JSON.stringify(request)
  const cases = sideBySide([
    ['JSON.parse(text) alone', () => JSON.parse(text)],
    // The floor: one native call running validate_text_pair once, returning no verdict.
    ['  floor: core validate_text_pair alone', () => testAddon.benchCore(text, requestText, 1) > 0],
    ['validatePlan(text, request)', () => validatePlan(text, request).valid],
    ['validatePlan(object, request)', () => validatePlan(object, request).valid],
    ['  part: JSON.stringify(object)', () => JSON.stringify(object)],
  ])
  for (const [what, best, ratio] of cases) rows.push([`${name}, ${bytes} B`, what, best, ratio])
}

const fmt = (n) => Math.round(n).toLocaleString('en-US')
console.log(`node ${process.version} (V8 ${process.versions.v8}), ${SECONDS} s per case in ${ROUNDS} rounds; ops/s: the best round; time vs JSON.parse: the median over the rounds of the ratio within a round\n`)
console.log('| plan | what | ops/s | time vs JSON.parse |')
console.log('|---|---|---:|---:|')
for (const [plan, what, ops, ratio] of rows) {
  console.log(`| ${plan} | ${what} | ${fmt(ops)} | ${ratio.toFixed(2)}x |`)
}
const goal = (plan, what, limit) => {
  const r = rows.find((x) => x[0].startsWith(plan) && x[1] === what)[3]
  return `node ${process.versions.node}, ${plan} ${what.split('(')[1].split(',')[0]}: ${r.toFixed(2)}x (goal <= ${limit}x) ${r <= limit ? 'met' : 'NOT met'}`
}
console.log()
for (const p of ['calm-weekday', 'large']) {
  console.log(goal(p, 'validatePlan(text, request)', 1.5))
  console.log(goal(p, 'validatePlan(object, request)', 2)) // issue 12
}
if (sink === 42) console.log('')
