// The momentum-planner command line (examples/server.mjs, the package's bin): --help and
// --version, usage errors (exit 2 with the usage line), and --http serving Streamable HTTP on
// 127.0.0.1 with a session per client (the SDK's Client over StreamableHTTPClientTransport).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { request } from 'node:http'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const SERVER = fileURLToPath(new URL('../examples/server.mjs', import.meta.url))
const { version, bin } = createRequire(import.meta.url)('../package.json')
/** The catalog's tool names, in order (the server lists them all with a store). */
const CATALOG_TOOLS = createRequire(import.meta.url)('../mcp-catalog.json').tools.map((t) => t.name)
const run = (...args) => spawnSync(process.execPath, [SERVER, ...args], { encoding: 'utf8', timeout: 30000 })

test('the bin is examples/server.mjs; --help and --version exit 0', () => {
  assert.deepEqual(bin, { 'momentum-planner': 'examples/server.mjs' })
  const help = run('--help')
  assert.equal(help.status, 0)
  assert.match(help.stdout, /^usage: momentum-planner \[--http PORT\] \[--store DIR\]/)
  assert.equal(run('--version').stdout, `momentum-planner ${version}\n`)
})

test('usage errors exit 2 and name the problem', () => {
  for (const [args, message] of [
    [['--bogus'], /Unknown option '--bogus'/],
    [['--http', '0'], /--http 0: not a TCP port \(1-65535\)/],
    [['--http', 'eighty'], /--http eighty: not a TCP port/],
    [['--http', '70000'], /--http 70000: not a TCP port/],
  ]) {
    const r = run(...args)
    assert.equal(r.status, 2, `${args}: ${r.stderr}`)
    assert.match(r.stderr, message)
    assert.match(r.stderr, /usage: momentum-planner/)
    assert.equal(r.stdout, '')
  }
})

test('the store is created at start with mode 0700, its missing parents as mkdir -p; an existing one keeps its mode; one that cannot be made is one line, exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'momentum-plan-store-start-'))
  try {
    // stdio with stdin closed at once: the server makes the store, then ends with its input.
    // A umask that leaves group and other bits, so the default mode differs from 0700.
    const start = (store) =>
      spawnSync('/bin/sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, SERVER, '--store', store], {
        encoding: 'utf8',
        input: '',
        timeout: 30000,
      })
    const fresh = join(dir, 'home', 'user', 'plans')
    const r = start(fresh)
    assert.equal(statSync(fresh).mode & 0o777, 0o700, r.stderr)
    // The parents it made have the default mode (0777 less the umask 022), as mkdir -p makes them.
    assert.equal(statSync(join(dir, 'home')).mode & 0o777, 0o755)
    assert.equal(statSync(join(dir, 'home', 'user')).mode & 0o777, 0o755)
    const existing = join(dir, 'shared')
    mkdirSync(existing)
    chmodSync(existing, 0o755)
    start(existing)
    assert.equal(statSync(existing).mode & 0o777, 0o755)
    writeFileSync(join(dir, 'a-file'), 'x')
    const bad = start(join(dir, 'a-file', 'plans'))
    assert.equal(bad.status, 1, bad.stderr)
    const lines = bad.stderr.trimEnd().split('\n')
    assert.equal(lines.length, 1, bad.stderr)
    assert.ok(lines[0].startsWith(`momentum-planner: cannot create the plan store ${join(dir, 'a-file', 'plans')}: `), lines[0])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

const freePort = () =>
  new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => ok(port))
    })
  })

test('--http PORT: Streamable HTTP on 127.0.0.1, a session per client, local Host only', async () => {
  const store = mkdtempSync(join(tmpdir(), 'momentum-plan-http-'))
  const port = await freePort()
  const child = spawn(process.execPath, [SERVER, '--http', String(port), '--store', store], { stdio: ['ignore', 'ignore', 'pipe'] })
  const clients = []
  try {
    await new Promise((ok, fail) => {
      let err = ''
      child.stderr.on('data', (d) => {
        err += d
        if (err.includes('serving on http://127.0.0.1:')) ok()
      })
      child.on('exit', (code) => fail(new Error(`exited ${code}: ${err}`)))
    })
    const url = new URL(`http://127.0.0.1:${port}/mcp`)
    clients.push(new Client({ name: 'a', version: '0' }), new Client({ name: 'b', version: '0' }))
    const transports = clients.map(() => new StreamableHTTPClientTransport(url))
    for (const [i, c] of clients.entries()) await c.connect(transports[i])
    assert.notEqual(transports[0].sessionId, transports[1].sessionId)
    for (const c of clients) {
      const { tools } = await c.listTools()
      assert.deepEqual(tools.map((t) => t.name), CATALOG_TOOLS)
    }
    const r = await clients[0].callTool({ name: 'validate_plan', arguments: { plan: '{}', request: {} } })
    assert.equal(r.structuredContent.valid, false)
    for (const c of clients) await c.close()
    // Unknown session, wrong path, a foreign Host header.
    const post = (path, headers) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    assert.equal((await post('/mcp', { 'mcp-session-id': 'nope' })).status, 404)
    assert.equal((await post('/other', {})).status, 404)
    // A foreign Host header (DNS rebinding): refused by the SDK's protection before any session.
    const status = await new Promise((ok, fail) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res) => ok(res.statusCode),
      )
      req.on('error', fail)
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }))
    })
    assert.equal(status, 403)
  } finally {
    // Also when an assertion failed above: the clients' streams must not keep this file alive.
    await Promise.allSettled(clients.map((c) => c.close()))
    const exited = new Promise((ok) => (child.exitCode !== null ? ok() : child.once('exit', ok)))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
    rmSync(store, { recursive: true, force: true })
  }
})
