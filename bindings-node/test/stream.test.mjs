// PlanStream and streamPlan (validator.md §10) on every shared vector in seeded random chunkings,
// against validatePlan and the core's own PlanStream; the helper over an async generator and a
// ReadableStream; the errors. The checks are js/stream-cases.mjs, shared with momentum-plan-wasm.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { basename, join, resolve } from 'node:path'
import kit from '../../js/testkit.cjs'
import { seeded, streamCases, streamDriverPath, streamVectors } from '../../js/stream-cases.mjs'

const require = createRequire(import.meta.url)
const api = require('../index.js')

const DRIVER = streamDriverPath(resolve(process.env.CARGO_TARGET_DIR || join(kit.ROOT, 'target')))
const rand = seeded(31)
const totals = { runs: 0, pushes: 0, settled: 0, warnings: 0 }
let vectors = 0

for (const file of kit.vectorFiles()) {
  test(`PlanStream: ${basename(file)} in random chunkings`, () => {
    const list = kit.readVectors(file)
    vectors += list.length
    assert.deepEqual(streamVectors({ ...api, driver: DRIVER, vectors: list, rand, totals }), [])
  })
}

test('PlanStream counts', () => {
  console.log(`# PlanStream: ${vectors} vectors, ${totals.runs} runs, ${totals.pushes} pushes, ${totals.settled} issues settled while streaming`)
  assert.ok(vectors > kit.VECTOR_FLOOR, 'all vector files were read')
  assert.equal(totals.runs, 3 * vectors)
  assert.ok(totals.settled > 1000, 'issues settle while the plans stream')
  assert.ok(totals.warnings > 100, `${totals.warnings} warnings settle while the plans stream`)
})

const example = { text: kit.exampleText('calm-weekday-broken.plan.json'), request: kit.example('calm-weekday-broken').request }
for (const [name, check] of streamCases(api, example, assert)) test(name, check)
