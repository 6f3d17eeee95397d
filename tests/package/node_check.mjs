// Both npm packages loaded with import (ES modules), from the fresh npm project: the same
// verdicts as require() gives (node_check.cjs holds those to the core's bytes), and the wasm
// package's web build (exports "./web") runs in Node too after initSync; the wasm package's
// calendar module (issue 32: its third .wasm, in the tarball) exports the Node package's bytes,
// under Node and in the web build after loadCalendar().
// Usage: node node_check.mjs EXAMPLES_DIR
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import node, { validatePlan as nodeValidate, getPlanContract } from 'momentum-plan-node'
import { validatePlan as wasmValidate, planToIcalendar as wasmCalendar } from 'momentum-plan-wasm'
import { initSync, validatePlan as webValidate, loadCalendar, planToIcalendar as webCalendar } from 'momentum-plan-wasm/web'

const require = createRequire(import.meta.url)
const [examples] = process.argv.slice(2)
const plan = readFileSync(join(examples, 'calm-weekday-broken.plan.json'), 'utf8')
const request = readFileSync(join(examples, 'calm-weekday-broken.request.json'), 'utf8')
const reference = require('momentum-plan-node').validatePlan(plan, request)
assert.equal(reference.valid, false)
assert.equal(node.validatePlan, nodeValidate)
assert.deepEqual(nodeValidate(plan, request), reference)
assert.deepEqual(wasmValidate(plan, request), reference)
const wasmFile = join(require.resolve('momentum-plan-wasm/web'), '..', 'momentum_plan_wasm_bg.wasm')
initSync({ module: readFileSync(wasmFile) })
assert.deepEqual(webValidate(plan, request), reference)
assert.equal(getPlanContract().format, 'daily-momentum-ai-plan')
console.log('  ok  import of momentum-plan-node, momentum-plan-wasm and momentum-plan-wasm/web: the same verdicts')
const valid = readFileSync(join(examples, 'calm-weekday.plan.json'), 'utf8')
const validRequest = readFileSync(join(examples, 'calm-weekday.request.json'), 'utf8')
const stamp = '20261207T120000Z'
const calendar = node.planToIcalendar(valid, validRequest, stamp)
assert.ok(calendar.text.startsWith('BEGIN:VCALENDAR\r\n'))
assert.deepEqual(wasmCalendar(valid, validRequest, stamp), calendar)
await loadCalendar({ module_or_path: readFileSync(join(wasmFile, '..', 'momentum_plan_wasm_calendar_bg.wasm')) })
assert.deepEqual(webCalendar(valid, validRequest, stamp), calendar)
console.log(`  ok  the wasm package's calendar module (Node, and web after loadCalendar()): momentum-plan-node's ${calendar.text.length} bytes`)
