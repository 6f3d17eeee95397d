// Every vector of shared/vectors through validatePlan: the plan as an object and as JSON text.
// Vectors a JS object cannot carry (README: a whole number written with a fraction or exponent,
// an integer beyond ±(2^53−1), a member name that is an array index) go as text, plan and
// request; they are found by scanning each line's raw text.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { basename } from 'node:path'
import kit from '../../js/testkit.cjs'

const require = createRequire(import.meta.url)
const { validatePlan } = require('../index.js')

const pairs = (issues) => issues.map((i) => [i.code, i.path])

/** Mismatch text for one run, or null when the verdict is what `expect` says. */
function mismatch(verdict, expect) {
  if (JSON.stringify(Object.keys(verdict)) !== '["valid","errors","warnings","checks"]') {
    return `verdict keys ${Object.keys(verdict)}`
  }
  for (const issue of [...verdict.errors, ...verdict.warnings]) {
    if (JSON.stringify(Object.keys(issue)) !== '["code","path","message"]') return `issue keys ${Object.keys(issue)}`
    if (typeof issue.message !== 'string' || issue.message.length === 0) return `empty message at ${issue.path}`
  }
  if (verdict.valid !== expect.valid) return `valid ${verdict.valid}, want ${expect.valid}`
  const checks = [
    ['errors', pairs(verdict.errors), pairs(expect.errors)],
    ['warnings', pairs(verdict.warnings), pairs(expect.warnings)],
    ['checks', verdict.checks, expect.checks],
  ]
  for (const [what, got, want] of checks) {
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      return `${what} ${JSON.stringify(got)}, want ${JSON.stringify(want)}`
    }
  }
  return null
}

const totals = { vectors: 0, objectPlans: 0, textOnly: 0, textPlans: 0, objectRuns: 0, textRuns: 0 }
const reasons = new Map()

for (const file of kit.vectorFiles()) {
  test(`vectors ${basename(file)}`, () => {
    const failures = []
    for (const v of kit.readVectors(file)) {
      totals.vectors++
      const { id, expect, planIsText } = v
      const run = (how, plan, request) => {
        let verdict
        try {
          verdict = validatePlan(plan, request)
        } catch (e) {
          failures.push(`${id} (${how}): threw ${e}`)
          return null
        }
        const bad = mismatch(verdict, expect)
        if (bad) failures.push(`${id} (${how}): ${bad}`)
        return verdict
      }
      if (!planIsText) totals.objectPlans++
      const why = v.why
      if (why !== null) {
        // JS cannot carry it as an object: plan and request go as text.
        reasons.set(why.split(' ')[0], (reasons.get(why.split(' ')[0]) ?? 0) + 1)
        if (!planIsText) totals.textOnly++
        else totals.textPlans++
        run('text, request as text', v.planText, v.requestText)
        totals.textRuns++
        continue
      }
      const request = v.request
      if (planIsText) {
        totals.textPlans++
        run('text', v.plan, request)
        totals.textRuns++
        continue
      }
      const asObject = run('object', v.plan, request)
      const asText = run('text', v.planText, request)
      totals.objectRuns++
      totals.textRuns++
      // The object way in must not change the verdict: messages included, it equals the text verdict.
      if (asObject && asText && JSON.stringify(asObject) !== JSON.stringify(asText)) {
        failures.push(`${id}: object verdict differs from text verdict`)
      }
    }
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} mismatches in ${file}`)
  })
}

test('vector counts', (t) => {
  t.diagnostic(
    `${totals.vectors} vectors: ${totals.objectPlans} object plans, of which ${totals.textOnly} sent as text ` +
      `(${[...reasons].map(([k, v]) => `${v} for a ${k}`).join(', ')}), ${totals.textPlans} text plans; ` +
      `${totals.objectRuns} object runs, ${totals.textRuns} text runs`,
  )
  assert.equal(totals.vectors, 5818)
  assert.equal(totals.objectPlans, 5549)
  assert.equal(totals.textOnly, 226)
  assert.equal(totals.objectRuns + totals.textOnly, totals.objectPlans)
})
