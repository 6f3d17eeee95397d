#!/usr/bin/env node
// momentum-planner: an MCP server that validates daily-momentum-ai-plan plans with the native
// binding, the example a Node team copies and the package's `momentum-planner` command
// (`npm install -g momentum-plan-node`). Built on the official TypeScript SDK, v1 line
// (`McpServer`, `StdioServerTransport`, `StreamableHTTPServerTransport`), with the tools of
// shared/spec/mcp-server.md:
//
//   get_plan_contract  the contract to draft against (validator.md §2)
//   validate_plan      the verdict on a plan (object or JSON text) for a request (validator.md §4)
//   repair_plan        the safe fixes applied and the plan checked again (validator.md §9)
//   save_plan          validates again and saves a valid plan as <requestId>.json in the store;
//                      asks the person (elicitation) before replacing a saved plan
//
// and the resource template plan://{planId} for the saved plans. To a client that declares the MCP
// Apps extension (io.modelcontextprotocol/ui with text/html;profile=mcp-app), validate_plan and
// repair_plan link the plan view ui://momentum-planner/plan-view, registered with the official
// @modelcontextprotocol/ext-apps server helpers (registerAppTool, registerAppResource, getUiCapability)
// and served with the same bytes as the WASI server (bindings-wasm/www/view/plan-view.html, copied
// into the package as plan-view.html by `npm run build`). For any other client the link and the
// view are taken away once it has initialized. The SDK fixes the capabilities before connecting,
// so this server declares `resources` to every client (the WASI server declares them only with a
// store or for a client offered the view). The store is `--store DIR` or
// the directory named by the environment variable PLAN_STORE; without either the server is
// read-only: no save_plan, no resources, and the instructions do not mention saving.
//
//   momentum-planner [--store DIR]              stdio (what an MCP host launches)
//   momentum-planner --http PORT [--store DIR]  Streamable HTTP on http://127.0.0.1:PORT/mcp
//   PLAN_STORE=./plans node examples/server.mjs the same, from a checkout
//
// Over HTTP each client session (`Mcp-Session-Id`) gets its own server instance, as the SDK's
// stateful mode wants (the overwrite question travels on the session); the listener binds
// 127.0.0.1 only and the SDK's DNS-rebinding protection accepts only local Host headers.
//
// Where the spec and the SDK differ, the SDK decides (e.g. an unknown tool or arguments that do
// not fit the input schema are tool errors, as the SDK makes them). Logs go to stderr only:
// stdout carries protocol messages and nothing else.
//
// The SDK, ext-apps and zod are the package's optional peer dependencies (the library needs none
// of them: `npm install momentum-plan-node` brings one package); they are imported once the
// command line is read, and when one is missing the server says in one line what to install and
// exits 2.
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import { join, resolve } from 'node:path'
import { randomBytes, randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { readFileSync } from 'node:fs'
import { validatePlan, repairPlan, planSchema, getPlanContract } from '../index.mjs'

const require = createRequire(import.meta.url)
const { version, peerDependencies } = require('../package.json')

/** The plan view (mcp-server.md "The plan view in the conversation"): one file, every server. */
const VIEW_URI = 'ui://momentum-planner/plan-view'
const VIEW_HTML = readFileSync(new URL('../plan-view.html', import.meta.url), 'utf8')
const VIEW_META = { ui: { prefersBorder: true } }

const USAGE = 'usage: momentum-planner [--http PORT] [--store DIR]'
/** The command line: --http PORT, --store DIR (default $PLAN_STORE), --help, --version. */
function commandLine() {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        http: { type: 'string' },
        store: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    }))
  } catch (e) {
    console.error(`momentum-planner: ${e.message}\n${USAGE}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(`${USAGE}\n  stdio by default; --http PORT serves http://127.0.0.1:PORT/mcp; the store is --store or $PLAN_STORE (none: read-only)`)
    process.exit(0)
  }
  if (values.version) {
    console.log(`momentum-planner ${version}`)
    process.exit(0)
  }
  const port = values.http === undefined ? null : Number(values.http)
  if (port !== null && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    console.error(`momentum-planner: --http ${values.http}: not a TCP port (1-65535)\n${USAGE}`)
    process.exit(2)
  }
  const store = values.store ?? process.env.PLAN_STORE
  return { port, store: store ? resolve(store) : null }
}

const { port: HTTP_PORT, store: STORE } = commandLine()

/**
 * The npm command that installs the server's peer dependencies (package.json peerDependencies,
 * each at the newest major its range allows): `npm install @modelcontextprotocol/sdk@^1.32.2 ...`.
 */
function peerInstallLine() {
  const specs = Object.entries(peerDependencies).map(([name, range]) => `${name}@${range.split('||').pop().trim()}`)
  return `npm install ${specs.join(' ')}`
}

/**
 * The server's peer dependencies, imported. When one is not installed: one line on stderr saying
 * what to install (`peerInstallLine`), exit code 2, no stack trace; any other failure is thrown.
 */
async function peers() {
  try {
    const [mcp, stdio, http, zod, apps] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/mcp.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('zod'),
      import('@modelcontextprotocol/ext-apps/server'),
    ])
    return { ...mcp, ...stdio, ...http, z: zod.z, ...apps }
  } catch (e) {
    const missing = Object.keys(peerDependencies).filter((name) => String(e?.message).includes(`'${name}'`))
    if (e?.code !== 'ERR_MODULE_NOT_FOUND' || missing.length === 0) throw e
    console.error(
      `momentum-planner: the MCP server needs ${missing.join(', ')} (optional peer dependencies of momentum-plan-node, ` +
        `which the library does not need); install them beside it: ${peerInstallLine()} (with -g when momentum-plan-node is global)`,
    )
    process.exit(2)
  }
}

const {
  McpServer,
  ResourceTemplate,
  StdioServerTransport,
  StreamableHTTPServerTransport,
  z,
  RESOURCE_MIME_TYPE,
  getUiCapability,
  registerAppResource,
  registerAppTool,
} = await peers()
/** A plan id that can safely be a file name (mcp-server.md, save_plan). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

const instructions = [
  'Plans answer a request from a person: call get_plan_contract before drafting a plan,',
  'then call validate_plan with the plan and the request after drafting, and fix every error it reports',
  STORE ? '(each names a JSON path and what to change); save the plan with save_plan only once it is valid.' : '(each names a JSON path and what to change).',
].join(' ')

// ---- schemas (zod, as the SDK wants them; the SDK turns them into JSON Schema) ----

const issue = z.object({
  code: z.string().describe('stable issue code, e.g. "overlap"'),
  path: z.string().describe('JSONPath into the plan, e.g. "$.routine.blocks[2].start"'),
  message: z.string().describe('what is wrong and what to change'),
})
const verdictShape = {
  valid: z.boolean().describe('true exactly when errors is empty'),
  errors: z.array(issue),
  warnings: z.array(issue),
  checks: z.array(z.string()).describe('the checks that ran, in order'),
}
const contractShape = {
  format: z.string(),
  contractVersion: z.number(),
  categories: z.array(z.object({ id: z.string(), means: z.string() })),
  weekdays: z.array(z.string()),
  limits: z.record(z.string(), z.number()),
  rules: z.array(z.string()),
}
const planArgs = {
  plan: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .describe('the plan: a JSON object, or its JSON text (text keeps number literals exactly as written)'),
  request: z.record(z.string(), z.unknown()).describe('the request the plan answers, as given'),
}
const saveShape = {
  saved: z.boolean(),
  planId: z.string(),
  uri: z.string(),
  warnings: z.array(issue),
}

const result = (value) => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
})
const toolError = (text) => ({ content: [{ type: 'text', text }], isError: true })

/** validatePlan, with a value JSON cannot hold (a TypeError/SyntaxError) as a tool error. */
function judge(plan, request) {
  try {
    return { verdict: validatePlan(plan, request) }
  } catch (e) {
    if (e instanceof TypeError || e instanceof SyntaxError) return { error: toolError(e.message) }
    throw e
  }
}

const fix = z.object({ code: z.string(), path: z.string(), applicability: z.string(), description: z.string() })
const repairShape = {
  plan: z.string().describe('the repaired plan as JSON text: continue from it'),
  patch: z.array(z.object({ op: z.string(), path: z.string() }).passthrough()).describe('RFC 6902 patch from your plan to it'),
  applied: z.array(fix),
  offered: z.array(fix),
  verdict: z.object(verdictShape),
  rounds: z.number(),
  stopped: z.string(),
  revealed: z.array(issue),
  requestAtFault: z.array(z.string()),
}

/** One server instance (stdio: the only one; HTTP: one per session). */
function createPlanner() {
  const server = new McpServer({ name: 'momentum-planner', version }, { instructions })

  // ---- tools ----

  server.registerTool(
    'get_plan_contract',
    {
      title: 'Get the plan contract',
      description:
        'Returns the daily-momentum-ai-plan contract: format, contractVersion, the nine categories, weekday ids, ' +
        'limits and the rules a plan must follow. Call it once before drafting a plan.',
      inputSchema: {},
      outputSchema: contractShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => result(getPlanContract()),
  )

  const validateTool = registerAppTool(
    server,
    'validate_plan',
    {
      title: 'Validate a plan',
      description:
        'Checks a drafted plan against the request it answers and returns the verdict: valid, errors and warnings ' +
        '(each with a code, a JSON path into the plan and a message saying what to change) and the checks that ran. ' +
        'Call it after drafting and after every fix; an invalid plan is a normal result, not an error.',
      inputSchema: planArgs,
      outputSchema: verdictShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: VIEW_URI } },
    },
    async ({ plan, request }) => {
      const { verdict, error } = judge(plan, request)
      return error ?? result(verdict)
    },
  )

  const repairTool = registerAppTool(
    server,
    'repair_plan',
    {
      title: 'Repair a plan',
      description:
        'Applies the safe fixes to a plan (how a value is written, values copied from the request), validates again and ' +
        'returns the repaired plan (as JSON text), the patch, the fixes applied and offered, and the new verdict. Call it ' +
        'with the same plan and request after validate_plan reported errors; fix what its verdict still reports.',
      inputSchema: { ...planArgs, unsafe: z.boolean().optional().describe('also the fixes that change meaning; only when the person agrees') },
      outputSchema: repairShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: VIEW_URI } },
    },
    async ({ plan, request, unsafe }) => {
      try {
        return result(repairPlan(plan, request, { unsafe: unsafe === true }))
      } catch (e) {
        if (e instanceof TypeError || e instanceof SyntaxError) return toolError(e.message)
        throw e
      }
    },
  )

  server.registerTool(
    'get_plan_schema',
    {
      title: "Get the plan's JSON Schema",
      description:
        "Returns the JSON Schema (2020-12) of the plan that answers a request. variant 'validation' accepts every plan " +
        "the validator accepts; 'strict' is the subset structured-output features accept (closed objects, every member " +
        "required), for a host that constrains the model's draft. What a schema cannot say (overlaps, commitments, " +
        "feasibility) is still validate_plan's.",
      inputSchema: {
        request: planArgs.request,
        variant: z.enum(['validation', 'strict']).optional().describe('"validation" (default) or "strict"'),
      },
      outputSchema: z.object({}).passthrough().describe('A JSON Schema (2020-12) of the plan that answers the request.'),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ request, variant }) => {
      try {
        return result(planSchema(request, variant ?? 'validation'))
      } catch (e) {
        // TypeError/SyntaxError: a request JSON cannot hold; Error: a request no plan can satisfy
        // (the core's words either way, as a tool error, mcp-server.md).
        if (e instanceof Error) return toolError(e.message)
        throw e
      }
    },
  )

  const view = registerAppResource(
    server,
    'plan-view',
    VIEW_URI,
    { title: 'Plan view', description: 'The day view of a plan, its problems and its fixes (MCP Apps).', _meta: VIEW_META },
    async () => ({ contents: [{ uri: VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: VIEW_HTML, _meta: VIEW_META }] }),
  )

  // Offered only to a client that declared the extension with the view's MIME type.
  server.server.oninitialized = () => {
    const ui = getUiCapability(server.server.getClientCapabilities())
    if (Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE)) return
    validateTool._meta = undefined
    repairTool._meta = undefined
    view.disable()
  }

  if (STORE) {
    server.registerTool(
      'save_plan',
      {
        title: 'Save a valid plan',
        description:
          'Validates the plan again and, when it is valid, saves it under its requestId (as plan://<requestId>). ' +
          'An invalid plan is refused with every error. If a plan with that id exists, the person is asked before it ' +
          'is replaced. Returns saved, planId, uri and warnings.',
        inputSchema: planArgs,
        outputSchema: saveShape,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async ({ plan, request }) => {
        const { verdict, error } = judge(plan, request)
        if (error) return error
        if (!verdict.valid) {
          return toolError(`Plan not saved.${verdict.errors.map((e) => ` | ${e.path}: ${e.message}`).join('')}`)
        }
        // A valid plan is a JSON object; its own key order is kept.
        const object = typeof plan === 'string' ? JSON.parse(plan) : plan
        const planId = object.requestId
        if (typeof planId !== 'string' || !SAFE_ID.test(planId)) {
          return toolError(
            `Plan not saved: its requestId ${JSON.stringify(planId)} cannot be a plan id ` +
              '(use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 128 characters).',
          )
        }
        const file = join(STORE, `${planId}.json`)
        const uri = `plan://${planId}`
        const notSaved = (why) => result({
          saved: false,
          planId,
          uri,
          warnings: [...verdict.warnings, { code: 'notSaved', path: '$', message: why }],
        })
        if (await exists(file)) {
          const answer = await askOverwrite(server, planId)
          if (answer !== true) return notSaved(answer)
        }
        const tmp = join(STORE, `.${planId}.${randomBytes(6).toString('hex')}.tmp`)
        try {
          await writeFile(tmp, `${JSON.stringify(object, null, 2)}\n`)
          await rename(tmp, file) // atomic: a crash never leaves a half-written plan
        } catch (e) {
          await rm(tmp, { force: true })
          return toolError(`Plan not saved: ${e.message}`)
        }
        return result({ saved: true, planId, uri, warnings: verdict.warnings })
      },
    )

    server.registerResource(
      'plan',
      new ResourceTemplate('plan://{planId}', {
        list: async () => ({
          resources: (await savedIds()).map((id) => ({
            uri: `plan://${id}`,
            name: id,
            title: `Saved plan ${id}`,
            mimeType: 'application/json',
          })),
        }),
      }),
      { title: 'Saved plan', description: 'A plan saved by save_plan, by its requestId.', mimeType: 'application/json' },
      async (uri, { planId }) => {
        if (typeof planId !== 'string' || !SAFE_ID.test(planId)) throw new Error(`Resource not found: ${uri.href}`)
        let text
        try {
          text = await readFile(join(STORE, `${planId}.json`), 'utf8')
        } catch {
          throw new Error(`Resource not found: ${uri.href}`)
        }
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] }
      },
    )
  }

  return server
}

async function exists(file) {
  try {
    await readFile(file)
    return true
  } catch {
    return false
  }
}

async function savedIds() {
  const names = await readdir(STORE)
  return names
    .filter((n) => n.endsWith('.json') && SAFE_ID.test(n.slice(0, -5)))
    .map((n) => n.slice(0, -5))
    .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1))
}

/** Asks the person whether to replace saved plan `planId`: true, or the reason it stays. */
async function askOverwrite(server, planId) {
  if (!server.server.getClientCapabilities()?.elicitation) {
    return `A plan with id ${planId} is already saved, and this client cannot be asked whether to replace it; it was left as it was.`
  }
  try {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: `A plan with id ${planId} is already saved. Replace it with this one?`,
      requestedSchema: {
        type: 'object',
        properties: { overwrite: { type: 'boolean', title: 'Replace the saved plan', default: false } },
        required: ['overwrite'],
      },
    })
    if (answer.action === 'accept' && answer.content?.overwrite === true) return true
    if (answer.action === 'accept') return `The person chose not to replace the saved plan ${planId}.`
    return `The person ${answer.action === 'decline' ? 'declined' : 'cancelled'} replacing the saved plan ${planId}.`
  } catch (e) {
    return `Asking whether to replace the saved plan ${planId} failed (${e.message}); it was left as it was.`
  }
}

/** Streamable HTTP on 127.0.0.1:port/mcp: a transport and a server per session. */
async function serveHttp(port) {
  const sessions = new Map()
  const local = [`127.0.0.1:${port}`, `localhost:${port}`]
  const http = createHttpServer(async (req, res) => {
    try {
      if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') {
        res.writeHead(404).end()
        return
      }
      const id = req.headers['mcp-session-id']
      let transport = typeof id === 'string' ? sessions.get(id) : undefined
      if (!transport) {
        if (id !== undefined || req.method !== 'POST') {
          res.writeHead(404, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }))
          return
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => sessions.set(sid, transport),
          enableDnsRebindingProtection: true,
          allowedHosts: local,
        })
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId)
        await createPlanner().connect(transport)
      }
      await transport.handleRequest(req, res)
    } catch (e) {
      console.error(`momentum-planner: ${e.stack ?? e}`)
      if (!res.headersSent) res.writeHead(500).end()
    }
  })
  await new Promise((ok, fail) => http.once('error', fail).listen(port, '127.0.0.1', ok))
  // On a signal: stop listening, end every open connection (an SDK client keeps its SSE stream
  // open, which would hold `close` forever) and exit.
  const stop = () => {
    http.close(() => process.exit(0))
    http.closeAllConnections()
  }
  process.once('SIGINT', stop).once('SIGTERM', stop)
  return http
}

// The store is created at start, as the sandboxed server does: missing parents as `mkdir -p`
// would, mode 0700 (the user's own plans; an existing folder keeps its mode). A store that cannot
// be created is one line and exit 1, not a stack trace.
if (STORE) {
  try {
    await mkdir(STORE, { recursive: true, mode: 0o700 })
  } catch (e) {
    console.error(`momentum-planner: cannot create the plan store ${STORE}: ${e.message}`)
    process.exit(1)
  }
}
const where = STORE ? `, store ${STORE}` : ' (read-only)'
if (HTTP_PORT === null) {
  await createPlanner().connect(new StdioServerTransport())
  console.error(`momentum-planner ${version}: serving on stdio${where}`)
} else {
  await serveHttp(HTTP_PORT)
  console.error(`momentum-planner ${version}: serving on http://127.0.0.1:${HTTP_PORT}/mcp${where}`)
}
