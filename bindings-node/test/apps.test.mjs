// examples/server.mjs and the MCP Apps plan view (mcp-server.md "The plan view in the
// conversation"), through the official TypeScript SDK client over stdio: a client declaring the
// extension finds the view linked from validate_plan and repair_plan (read with the official
// ext-apps helper getToolUiResourceUri) and reads exactly the bytes the WASI server embeds
// (bindings-wasm/www/view/plan-view.html); a client that does not finds neither the link nor the
// view. repair_plan answers the core's repair.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { RESOURCE_MIME_TYPE, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge'

const require = createRequire(import.meta.url)
const { repairPlan } = require('../index.js')
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SERVER = fileURLToPath(new URL('../examples/server.mjs', import.meta.url))
const VIEW_URI = 'ui://momentum-planner/plan-view'
const VIEW_HTML = readFileSync(join(ROOT, 'bindings-wasm', 'www', 'view', 'plan-view.html'), 'utf8')
const read = (name) => JSON.parse(readFileSync(join(ROOT, 'examples', name), 'utf8'))

async function connect(capabilities) {
  const client = new Client({ name: 'momentum-plan-node-apps-test', version: '0.0.0' }, { capabilities })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'pipe' }))
  return client
}

test('a client declaring the extension sees the view linked and reads the same bytes as the WASI server', async () => {
  const client = await connect({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } })
  try {
    const { tools } = await client.listTools()
    const links = Object.fromEntries(tools.map((t) => [t.name, getToolUiResourceUri(t) ?? null]))
    assert.deepEqual(links, {
      get_plan_contract: null,
      validate_plan: VIEW_URI,
      repair_plan: VIEW_URI,
      get_plan_schema: null,
      export_calendar: null,
      import_commitments: null,
    })
    const { contents } = await client.readResource({ uri: VIEW_URI })
    assert.equal(contents.length, 1)
    assert.equal(contents[0].mimeType, 'text/html;profile=mcp-app')
    assert.equal(contents[0].text, VIEW_HTML)
    assert.deepEqual(contents[0]._meta, { ui: { prefersBorder: true } })
    // the view's Fix button calls repair_plan: the core's repair, text and structured alike
    const plan = read('calm-weekday.plan.json')
    const request = read('calm-weekday.request.json')
    plan.routine.blocks[0].start = '6:45'
    const res = await client.callTool({ name: 'repair_plan', arguments: { plan, request } })
    assert.equal(res.isError ?? false, false, JSON.stringify(res.content))
    assert.deepEqual(res.structuredContent, repairPlan(plan, request))
    assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent)
    assert.equal(res.structuredContent.verdict.valid, true)
  } finally {
    await client.close()
  }
})

test('a client without the extension sees neither the link nor the view', async () => {
  for (const capabilities of [{}, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } }]) {
    const client = await connect(capabilities)
    try {
      const { tools } = await client.listTools()
      for (const t of tools) assert.equal(t._meta, undefined, `${t.name}: ${JSON.stringify(t._meta)}`)
      const { resources } = await client.listResources()
      assert.deepEqual(resources.map((r) => r.uri), [])
      await assert.rejects(client.readResource({ uri: VIEW_URI }))
    } finally {
      await client.close()
    }
  }
})
