// examples/server.mjs end to end: the official SDK's Client over stdio, the server spawned as a
// subprocess. Lists the tools, fetches the contract, validates a valid and a broken plan, saves
// (new, refused, replaced after asking, kept after a decline) and reads the saved plan back.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const require = createRequire(import.meta.url)
const { validatePlan, planSchema, getPlanContract, planToIcalendar, commitmentsFromIcalendar } = require('../index.js')
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SERVER = fileURLToPath(new URL('../examples/server.mjs', import.meta.url))
const read = (name) => readFileSync(join(ROOT, 'examples', name), 'utf8')

const calmText = read('calm-weekday.plan.json')
const calm = JSON.parse(calmText)
const calmRequest = JSON.parse(read('calm-weekday.request.json'))
const broken = JSON.parse(read('calm-weekday-broken.plan.json'))
const brokenRequest = JSON.parse(read('calm-weekday-broken.request.json'))

let store
let client
let nextAnswer = null
const asked = []

before(async () => {
  store = mkdtempSync(join(tmpdir(), 'momentum-plan-store-'))
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    env: { ...process.env, PLAN_STORE: store },
    stderr: 'pipe',
  })
  client = new Client({ name: 'momentum-plan-node-test', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params)
    return nextAnswer
  })
  await client.connect(transport)
})

after(async () => {
  await client?.close()
  if (store) rmSync(store, { recursive: true, force: true })
})

const call = (name, args) => client.callTool({ name, arguments: args })

/** The structured result, after checking the text block carries the same JSON. */
function structured(res) {
  assert.equal(res.isError ?? false, false, JSON.stringify(res.content))
  assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent)
  return res.structuredContent
}

const catalog = JSON.parse(readFileSync(join(ROOT, 'schemas', 'mcp-catalog.json'), 'utf8'))

test('initialize: server info and the catalog\'s instructions', () => {
  assert.equal(client.getServerVersion().name, 'momentum-planner')
  assert.equal(client.getInstructions(), catalog.instructions.withStore)
})

test('tools/list: the catalog\'s seven tools, texts, annotations and schemas', async () => {
  const { tools } = await client.listTools()
  assert.deepEqual(tools.map((t) => t.name), catalog.tools.map((t) => t.name))
  for (const [i, t] of tools.entries()) {
    const { name, title, description, annotations, inputSchema, outputSchema } = catalog.tools[i]
    assert.deepEqual({ ...t, _meta: undefined }, { name, title, description, inputSchema, outputSchema, annotations, _meta: undefined })
  }
})

test('prompts and resource templates: the catalog\'s', async () => {
  const { prompts } = await client.listPrompts()
  assert.deepEqual(prompts.map((p) => [p.name, p.title, p.description]), [[catalog.prompt.name, catalog.prompt.title, catalog.prompt.description]])
  const got = await client.getPrompt({ name: 'draft_plan', arguments: { request_json: '{"requestId":"r"}' } })
  assert.equal(got.messages[0].content.text, catalog.prompt.text.withStore.replace('{request_json}', '{"requestId":"r"}'))
  const { resourceTemplates } = await client.listResourceTemplates()
  assert.deepEqual(resourceTemplates, [catalog.resourceTemplate])
})

test('get_plan_schema: the core\'s schema of each variant; a request no plan can satisfy is a tool error', async () => {
  for (const variant of ['validation', 'strict']) {
    assert.deepEqual(structured(await call('get_plan_schema', { request: calmRequest, variant })), planSchema(calmRequest, variant))
  }
  assert.deepEqual(structured(await call('get_plan_schema', { request: calmRequest })), planSchema(calmRequest))
  const atFault = await call('get_plan_schema', { request: { requestId: 'r', kind: 'week' } })
  assert.equal(atFault.isError, true)
  assert.throws(() => planSchema({ requestId: 'r', kind: 'week' }), (e) => e.message === atFault.content[0].text)
})

test('get_plan_contract returns the contract', async () => {
  assert.deepEqual(structured(await call('get_plan_contract', {})), getPlanContract())
})

test('validate_plan: the valid calm plan, as object and as text', async () => {
  const want = validatePlan(calm, calmRequest)
  assert.equal(want.valid, true)
  assert.deepEqual(structured(await call('validate_plan', { plan: calm, request: calmRequest })), want)
  assert.deepEqual(structured(await call('validate_plan', { plan: calmText, request: calmRequest })), want)
})

test('validate_plan: the broken plan is a normal result with its errors', async () => {
  const got = structured(await call('validate_plan', { plan: broken, request: brokenRequest }))
  assert.equal(got.valid, false)
  assert.deepEqual(got, validatePlan(broken, brokenRequest))
  const codes = got.errors.map((e) => e.code)
  for (const c of ['overlap', 'category', 'commitment']) assert.ok(codes.includes(c), c)
})

test('arguments that do not fit are the catalog\'s tool error (the sandbox\'s text), not a protocol error', async () => {
  const e = JSON.parse(readFileSync(join(ROOT, 'schemas', 'mcp-catalog.json'), 'utf8')).argumentErrors
  const kind = (text, k) => text.replace('{kind}', k)
  for (const [tool, args, problems] of [
    ['validate_plan', { plan: calm }, [e.request.missing]],
    ['validate_plan', { plan: [1, 2], request: calmRequest }, [kind(e.plan.type, 'an array')]],
    ['validate_plan', { plan: null, request: [calmRequest] }, [kind(e.plan.type, 'null'), kind(e.request.type, 'an array')]],
    ['repair_plan', { plan: calm, request: calmRequest, unsafe: 'yes', why: 1 }, [
      kind(e.unsafe.type, 'a string'),
      `unexpected argument \`why\`: ${e.accepted.repair_plan}`,
    ]],
    ['get_plan_schema', { request: calmRequest, variant: 'Strict' }, ['`variant`: unknown schema variant "Strict"; use "validation" or "strict"']],
  ]) {
    const res = await call(tool, args)
    assert.equal(res.isError, true, tool)
    assert.equal(res.structuredContent, undefined)
    assert.deepEqual(res.content, [{ type: 'text', text: `Invalid arguments for ${tool}: ${problems.join('; ')}.` }])
  }
  const contract = await call('get_plan_contract', { x: 1 })
  assert.equal(contract.content[0].text, 'Invalid arguments for get_plan_contract: it takes no arguments (unexpected argument `x`); call it with {}.')
})

const STAMP = '20261207T120000Z'
const FIXTURES = join(ROOT, 'calendar', 'tests', 'fixtures')

/** An export's parts: structuredContent (also the text block's JSON) and the embedded resource. */
function calendarOf(res) {
  assert.equal(res.isError ?? false, false, JSON.stringify(res.content))
  assert.deepEqual(res.content.map((c) => c.type), ['text', 'resource'])
  assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent)
  return { structured: res.structuredContent, resource: res.content[1].resource }
}

test('export_calendar: the binding\'s calendar bytes as a text/calendar resource, object or text', async () => {
  const want = planToIcalendar(calm, calmRequest, STAMP)
  const uri = `calendar://${calm.requestId}.ics`
  for (const plan of [calm, calmText]) {
    const got = calendarOf(await call('export_calendar', { plan, request: calmRequest, dtstamp: STAMP }))
    assert.deepEqual(got, {
      structured: { uri, events: want.events, warnings: want.warnings },
      resource: { uri, mimeType: 'text/calendar', text: want.text },
    })
  }
  assert.ok(want.events > 0)
})

test('export_calendar without dtstamp: the server\'s clock, the same bytes otherwise', async () => {
  const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '')
  const before = stamp()
  const { resource } = calendarOf(await call('export_calendar', { plan: calm, request: calmRequest }))
  const after = stamp()
  const at = resource.text.indexOf('DTSTAMP:') + 'DTSTAMP:'.length
  const got = resource.text.slice(at, at + 16)
  assert.ok(before <= got && got <= after, `${before} <= ${got} <= ${after}`)
  assert.equal(resource.text, planToIcalendar(calm, calmRequest, got).text)
})

test('export_calendar: an invalid plan gets its verdict in a tool error; the crate\'s refusals in its words', async () => {
  const refused = await call('export_calendar', { plan: broken, request: brokenRequest })
  assert.equal(refused.isError, true)
  assert.equal(refused.structuredContent, undefined)
  assert.deepEqual(refused.content, [
    { type: 'text', text: catalog.calendar.planInvalid.replace('{verdict}', JSON.stringify(validatePlan(broken, brokenRequest))) },
  ])
  const noStart = { ...calmRequest }
  delete noStart.startDate
  const res = await call('export_calendar', { plan: { ...calm, request: noStart }, request: noStart, dtstamp: STAMP })
  assert.equal(res.isError, true)
  assert.match(res.content[0].text, /^the request has no startDate/)
  const bad = await call('export_calendar', { plan: calm, request: calmRequest, dtstamp: 'today' })
  assert.equal(bad.content[0].text, 'dtstamp "today" is not a UTC date-time YYYYMMDDTHHMMSSZ (e.g. "20261207T120000Z")')
})

test('import_commitments: each fixture as the binding reads it; bad input a clear tool error', async () => {
  for (const name of ['google', 'apple', 'outlook']) {
    const ics = readFileSync(join(FIXTURES, `${name}.ics`), 'utf8')
    const got = structured(await call('import_commitments', { calendar: ics, startDate: '2026-10-05', timezone: 'Europe/Zurich' }))
    assert.deepEqual(got, commitmentsFromIcalendar(ics, '2026-10-05', 'Europe/Zurich'), name)
    const expected = JSON.parse(readFileSync(join(FIXTURES, `${name}.expected.json`), 'utf8'))
    assert.deepEqual(got.commitments, expected.commitments, name)
  }
  const malformed = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026-10-05\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'
  const res = await call('import_commitments', { calendar: malformed, startDate: '2026-10-05', timezone: 'UTC' })
  assert.equal(res.isError, true)
  assert.match(res.content[0].text, /^the calendar file is malformed at line 3: /)
  const e = catalog.argumentErrors
  const args = await call('import_commitments', { calendar: 5, timezone: null, x: 1 })
  assert.equal(args.content[0].text, `Invalid arguments for import_commitments: ${[
    e.calendar.type.replace('{kind}', 'a number'),
    e.startDate.missing,
    e.timezone.type.replace('{kind}', 'null'),
    `unexpected argument \`x\`: ${e.accepted.import_commitments}`,
  ].join('; ')}.`)
  const stamp = await call('export_calendar', { plan: calm, request: calmRequest, dtstamp: 5 })
  assert.equal(stamp.content[0].text, `Invalid arguments for export_calendar: ${e.dtstamp.type.replace('{kind}', 'a number')}.`)
})

test('initialize: the catalog\'s name and title; no listChanged, as no list_changed is ever sent', () => {
  const catalog = JSON.parse(readFileSync(join(ROOT, 'schemas', 'mcp-catalog.json'), 'utf8'))
  const info = client.getServerVersion()
  assert.deepEqual([info.name, info.title], [catalog.server.name, catalog.server.title])
  const capabilities = client.getServerCapabilities()
  for (const kind of ['tools', 'resources', 'prompts']) assert.deepEqual(capabilities[kind], {}, kind)
})

test('save_plan: saves a valid plan, refuses a broken one', async () => {
  const saved = structured(await call('save_plan', { plan: calm, request: calmRequest }))
  assert.deepEqual(saved, {
    saved: true,
    planId: calm.requestId,
    uri: `plan://${calm.requestId}`,
    warnings: validatePlan(calm, calmRequest).warnings,
  })
  const file = join(store, `${calm.requestId}.json`)
  assert.ok(existsSync(file))
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), calm)
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8'))), Object.keys(calm))

  const refused = await call('save_plan', { plan: broken, request: brokenRequest })
  assert.equal(refused.isError, true)
  assert.equal(refused.content.length, 1)
  assert.match(refused.content[0].text, /^Plan not saved\. \| \$\.routine\.blocks\[\d\]/)
})

test('save_plan over a saved plan asks first: accept replaces, decline keeps', async () => {
  const other = { ...calm, name: 'Calm weekday, again' }
  nextAnswer = { action: 'accept', content: { overwrite: true } }
  const replaced = structured(await call('save_plan', { plan: JSON.stringify(other), request: calmRequest }))
  assert.equal(replaced.saved, true)
  assert.equal(asked.length, 1)
  assert.deepEqual(asked[0].requestedSchema.required, ['overwrite'])
  const file = join(store, `${calm.requestId}.json`)
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).name, 'Calm weekday, again')

  nextAnswer = { action: 'decline' }
  const kept = structured(await call('save_plan', { plan: calm, request: calmRequest }))
  assert.equal(kept.saved, false)
  assert.equal(asked.length, 2)
  const last = kept.warnings.at(-1)
  assert.deepEqual([last.code, last.path], ['notSaved', '$'])
  assert.match(last.message, /declined/)
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).name, 'Calm weekday, again')
})

test('the saved plan is a resource', async () => {
  const { resources } = await client.listResources()
  // As the sandboxed server lists a plan: no title or description (the template's).
  assert.deepEqual(resources, [{ uri: `plan://${calm.requestId}`, name: calm.requestId, mimeType: 'application/json' }])
  const { contents } = await client.readResource({ uri: `plan://${calm.requestId}` })
  assert.equal(JSON.parse(contents[0].text).requestId, calm.requestId)
})
