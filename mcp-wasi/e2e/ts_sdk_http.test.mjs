// The official TypeScript SDK client (@modelcontextprotocol/sdk, v1 line: classic handshake) over
// Streamable HTTP (StreamableHTTPClientTransport) against `momentum-plan-sandbox --http
// 127.0.0.1:0`: every tool, the refusal, a save, the overwrite that a classic HTTP client cannot
// be asked about (saved: false, notSaved naming 2026-07-28), resources and the prompt.
//
// The server is stateless (no Mcp-Session-Id), answers every POST with one JSON body and GET with
// 405, which the SDK takes as "no SSE stream". The SDK checks every structuredContent against the
// tool's outputSchema. Paths: see sandbox_env.py / http_env.py (same environment variables).
// Run (from mcp-wasi/e2e): node --test ts_sdk_http.test.mjs

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import {
  CORE_PROBE,
  EXAMPLES,
  HTTP_WASM,
  RUNNER,
  VALIDATE,
  coreContract,
  checkRefusalAndFirstSave,
  coreVerdict,
  example,
  makeScratch,
  structured,
} from './sandbox_env.mjs';

const TOOLS = [
  'get_plan_contract',
  'validate_plan',
  'repair_plan',
  'get_plan_schema',
  'export_calendar',
  'import_commitments',
  'save_plan',
];

const { cacheDir, newStore } = makeScratch('mp-ts-http-e2e-');

for (const p of [RUNNER, HTTP_WASM, VALIDATE, CORE_PROBE]) {
  assert.ok(existsSync(p), `missing build output: ${p}`);
}

const runners = [];
after(() => {
  for (const r of runners) if (r.exitCode === null) r.kill('SIGKILL');
});

/** Starts the runner on 127.0.0.1:0 and resolves with its URL (bounded: 60 s). */
function startServer(store) {
  const args = ['--http', '127.0.0.1:0', '--cache-dir', cacheDir];
  if (store) args.push('--store', store);
  const child = spawn(RUNNER, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MOMENTUM_PLAN_MCP_HTTP_WASM: HTTP_WASM },
  });
  runners.push(child);
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`runner did not report listening within 60 s:\n${stderr}`));
    }, 60_000);
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /^momentum-plan-sandbox: listening on (http:\/\/\S+\/mcp)$/m.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ url: m[1], child, stop: () => stopServer(child), stdout: () => stdout, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`runner exited ${code} before listening:\n${stderr}`));
    });
  });
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(t);
      res();
    });
    child.kill('SIGTERM');
  });
}

/** A connected client over HTTP; `answer` is the elicitation reply (null: no capability). */
async function connect(url, answer) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'momentum-plan-ts-http-e2e', version: '0.1.0' }, { capabilities });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return answer;
    });
  }
  await client.connect(transport);
  return { client, transport, asked };
}

test('classic HTTP session: every tool, refusal, save, overwrite not asked, resources, prompt', async () => {
  const store = newStore('full');
  const server = await startServer(store);
  const calm = example('calm-weekday');
  const broken = example('calm-weekday-broken');
  const calmVerdict = coreVerdict(calm.plan, calm.request);
  const brokenVerdict = coreVerdict(broken.plan, broken.request);
  const { client, transport, asked } = await connect(server.url, { action: 'accept', content: { overwrite: true } });
  try {
    assert.equal(transport.sessionId, undefined, 'a stateless server mints no Mcp-Session-Id');
    assert.equal(client.getServerVersion().name, 'momentum-planner');
    assert.ok(client.getServerCapabilities().resources, 'resources offered with a store');
    assert.match(client.getInstructions() ?? '', /save/i);
    await client.ping();

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS);
    for (const t of tools) {
      assert.ok(t.title && t.description && t.outputSchema, t.name);
      assert.equal(t.annotations.idempotentHint, true);
    }

    assert.deepEqual(structured(await client.callTool({ name: 'get_plan_contract', arguments: {} })), coreContract());
    assert.equal(calmVerdict.valid, true);
    assert.deepEqual(structured(await client.callTool({ name: 'validate_plan', arguments: calm })), calmVerdict);
    const b = structured(await client.callTool({ name: 'validate_plan', arguments: broken }));
    assert.deepEqual(b, brokenVerdict);
    assert.equal(b.valid, false);
    assert.ok(b.errors.length > 0);
    const asText = { plan: JSON.stringify(broken.plan), request: broken.request };
    assert.deepEqual(
      structured(await client.callTool({ name: 'validate_plan', arguments: asText })),
      coreVerdict(asText.plan, broken.request),
    );

    const id = await checkRefusalAndFirstSave(client, store, calm, broken);
    const file = join(store, `${id}.json`);
    const before = readFileSync(file, 'utf8');

    // Classic HTTP cannot ask (no stream): the plan is left, and the warning names 2026-07-28.
    const again = { plan: { ...calm.plan, tagline: 'Saved twice over HTTP.' }, request: calm.request };
    const r = structured(await client.callTool({ name: 'save_plan', arguments: again }));
    assert.equal(r.saved, false);
    const againVerdict = coreVerdict(again.plan, again.request);
    assert.deepEqual(r.warnings.slice(0, againVerdict.warnings.length), againVerdict.warnings);
    assert.equal(r.warnings.length, againVerdict.warnings.length + 1);
    const last = r.warnings.at(-1);
    assert.deepEqual(Object.keys(last), ['code', 'path', 'message']);
    assert.equal(last.code, 'notSaved');
    assert.equal(last.path, '$');
    assert.match(last.message, /2026-07-28/);
    assert.equal(asked.length, 0);
    assert.equal(readFileSync(file, 'utf8'), before);

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['plan://{planId}']);
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((x) => x.uri), [`plan://${id}`]);
    const read = await client.readResource({ uri: `plan://${id}` });
    assert.equal(read.contents[0].mimeType, 'application/json');
    assert.equal(read.contents[0].text, before);
    await assert.rejects(client.readResource({ uri: 'plan://never-saved' }), (e) => e.code === -32002);

    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['draft_plan']);
    const prompt = await client.getPrompt({ name: 'draft_plan', arguments: { request_json: JSON.stringify(calm.request) } });
    assert.equal(prompt.messages[0].role, 'user');
    assert.ok(prompt.messages[0].content.text.includes(JSON.stringify(calm.request)));
    await assert.rejects(client.getPrompt({ name: 'draft_plan', arguments: {} }), (e) => e.code === -32602);

    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool: no_such_tool/);
  } finally {
    await client.close();
    assert.equal(server.child.exitCode, null, `the runner died:\n${server.stderr()}`);
    await server.stop();
  }
  assert.equal(server.stdout(), '', 'the runner writes nothing to stdout');
});

test('classic HTTP, read-only runner: no save_plan, no resources', async () => {
  const server = await startServer(null);
  const { client } = await connect(server.url, null);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS.filter((n) => n !== 'save_plan'));
    assert.equal(client.getServerCapabilities().resources, undefined);
    const calm = example('calm-weekday');
    assert.deepEqual(
      structured(await client.callTool({ name: 'validate_plan', arguments: calm })),
      coreVerdict(calm.plan, calm.request),
    );
    await assert.rejects(client.callTool({ name: 'save_plan', arguments: calm }), /Unknown tool: save_plan/);
    await assert.rejects(client.listResources(), (e) => e.code === -32601);
  } finally {
    await client.close();
    await server.stop();
  }
});

test('two clients on one runner, concurrently: each gets its own answers', async () => {
  const store = newStore('two-clients');
  const server = await startServer(store);
  const a = await connect(server.url, null);
  const b = await connect(server.url, null);
  try {
    const names = ['calm-weekday', 'calm-weekday-broken', 'first-5k', 'week-with-choir'].filter((n) =>
      existsSync(join(EXAMPLES, `${n}.plan.json`)),
    );
    const calls = [];
    for (let i = 0; i < 40; i++) {
      const ex = example(names[i % names.length]);
      const c = i % 2 ? a.client : b.client;
      calls.push(
        c.callTool({ name: 'validate_plan', arguments: ex }).then((r) => ({ r, expected: coreVerdict(ex.plan, ex.request) })),
      );
    }
    for (const { r, expected } of await Promise.all(calls)) assert.deepEqual(structured(r), expected);
  } finally {
    await a.client.close();
    await b.client.close();
    await server.stop();
  }
});
