// Every vector of shared/vectors through validatePlan: the plan as an object and as JSON text.
// Vectors a JS object cannot carry (README: a whole number written with a fraction or exponent,
// an integer beyond ±(2^53−1), a member name that is an array index) go as text, plan and
// request; they are found by scanning each line's raw text.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { rawMembers, needsText, compactText } from './raw-json.mjs'

const require = createRequire(import.meta.url)
const { validatePlan } = require('../index.js')

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VECTORS = join(ROOT, '..', 'shared', 'vectors')
const files = readdirSync(VECTORS).filter((f) => f.endsWith('.jsonl')).sort()

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

for (const file of files) {
  test(`vectors ${file}`, () => {
    const failures = []
    const lines = readFileSync(join(VECTORS, file), 'utf8').split('\n')
    for (const line of lines) {
      if (line.trim() === '') continue
      totals.vectors++
      const raw = rawMembers(line)
      const id = JSON.parse(raw.id)
      const expect = JSON.parse(raw.expect)
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
      const planIsText = raw.plan.startsWith('"')
      if (!planIsText) totals.objectPlans++
      const why = needsText(raw.plan) ?? needsText(raw.request)
      if (why !== null) {
        // JS cannot carry it as an object: plan and request go as text.
        reasons.set(why.split(' ')[0], (reasons.get(why.split(' ')[0]) ?? 0) + 1)
        if (!planIsText) totals.textOnly++
        else totals.textPlans++
        const plan = planIsText ? JSON.parse(raw.plan) : compactText(raw.plan)
        run('text, request as text', plan, compactText(raw.request))
        totals.textRuns++
        continue
      }
      const request = JSON.parse(raw.request)
      if (planIsText) {
        totals.textPlans++
        run('text', JSON.parse(raw.plan), request)
        totals.textRuns++
        continue
      }
      const asObject = run('object', JSON.parse(raw.plan), request)
      const asText = run('text', compactText(raw.plan), request)
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
