// An MCP initialize through the official TypeScript SDK client over stdio, against a server
// command: the server must answer with its name and list validate_plan among its tools.
// Usage (from an npm project that has @modelcontextprotocol/sdk): node node_mcp_initialize.mjs COMMAND [ARG...]
import assert from 'node:assert/strict'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const [command, ...args] = process.argv.slice(2)
const client = new Client({ name: 'momentum-plan-package-test', version: '0.0.0' })
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' }))
try {
  assert.equal(client.getServerVersion()?.name, 'momentum-planner')
  const { tools } = await client.listTools()
  assert.ok(tools.some((t) => t.name === 'validate_plan'), JSON.stringify(tools.map((t) => t.name)))
} finally {
  await client.close()
}
console.log(`  ok  ${command}: MCP initialize and tools/list through the official TypeScript SDK client`)
