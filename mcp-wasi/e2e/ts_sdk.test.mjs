// (2) The official TypeScript SDK client (@modelcontextprotocol/sdk, v1 line: classic handshake)
// against the sandboxed server over stdio: list and call every tool, the refusal, the overwrite
// question (accepted and declined), the resource and the prompt.
//
// The SDK checks every structuredContent against the tool's outputSchema, so these calls also
// check the declared schemas. Paths: see sandbox_env.py (same environment variables).
// Run: node --test ts_sdk.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import {
  ROOT,
  RUNNER,
  TOOLS,
  WASM,
  checkRefusalAndFirstSave,
  coreCalendar,
  coreContract,
  coreVerdict,
  example,
  makeScratch,
  structured,
} from './sandbox_env.mjs';

const { cacheDir, newStore } = makeScratch('mp-ts-e2e-');

/** A connected client; `answer` is the elicitation reply (null: no elicitation capability). */
async function connect(store, answer) {
  const args = ['--wasm', WASM, '--cache-dir', cacheDir];
  if (store) args.push('--store', store);
  const transport = new StdioClientTransport({ command: RUNNER, args, stderr: 'inherit' });
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'momentum-plan-ts-e2e', version: '0.1.0' }, { capabilities });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return answer;
    });
  }
  await client.connect(transport);
  return { client, asked };
}

test('classic session: every tool, refusal, save, overwrite accepted, resource, prompt', async () => {
  const store = newStore('full');
  const calm = example('calm-weekday');
  const broken = example('calm-weekday-broken');
  const calmVerdict = coreVerdict(calm.plan, calm.request);
  const brokenVerdict = coreVerdict(broken.plan, broken.request);
  const { client, asked } = await connect(store, { action: 'accept', content: { overwrite: true } });
  try {
    assert.deepEqual(client.getServerVersion().name, 'momentum-planner');
    assert.ok(client.getServerCapabilities().resources, 'resources offered with a store');
    assert.match(client.getInstructions() ?? '', /save/i);

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS);
    for (const t of tools) {
      assert.ok(t.title && t.description && t.outputSchema, t.name);
      assert.equal(t.annotations.idempotentHint, true);
    }

    assert.deepEqual(structured(await client.callTool({ name: 'get_plan_contract', arguments: {} })), coreContract());
    assert.deepEqual(structured(await client.callTool({ name: 'validate_plan', arguments: calm })), calmVerdict);
    const b = structured(await client.callTool({ name: 'validate_plan', arguments: broken }));
    assert.deepEqual(b, brokenVerdict);
    assert.equal(b.valid, false);
    assert.equal(b.errors.length, 3);

    // Bad arguments, repair and schema, the refusal and the first save (sandbox_env.mjs).
    const id = await checkRefusalAndFirstSave(client, store, calm, broken);
    assert.equal(asked.length, 0);

    const again = { plan: { ...calm.plan, tagline: 'Saved twice.' }, request: calm.request };
    assert.equal(structured(await client.callTool({ name: 'save_plan', arguments: again })).saved, true);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].requestedSchema.properties.overwrite.type, 'boolean');
    assert.deepEqual(JSON.parse(readFileSync(join(store, `${id}.json`), 'utf8')), again.plan);

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['plan://{planId}']);
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), [`plan://${id}`]);
    const read = await client.readResource({ uri: `plan://${id}` });
    assert.equal(read.contents[0].mimeType, 'application/json');
    assert.deepEqual(JSON.parse(read.contents[0].text), again.plan);

    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['draft_plan']);
    const prompt = await client.getPrompt({ name: 'draft_plan', arguments: { request_json: JSON.stringify(calm.request) } });
    assert.equal(prompt.messages[0].role, 'user');
    assert.ok(prompt.messages[0].content.text.includes(JSON.stringify(calm.request)));

    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool: no_such_tool/);
  } finally {
    await client.close();
  }
});

for (const [label, answer] of [
  ['declined', { action: 'decline' }],
  ['cancelled', { action: 'cancel' }],
  ['accepted with false', { action: 'accept', content: { overwrite: false } }],
  ['no elicitation capability', null],
]) {
  test(`overwrite ${label}: the saved plan is left`, async () => {
    const store = newStore(label.replaceAll(' ', '-'));
    const calm = example('calm-weekday');
    const { client, asked } = await connect(store, answer);
    try {
      assert.equal(structured(await client.callTool({ name: 'save_plan', arguments: calm })).saved, true);
      const file = join(store, `${calm.request.requestId}.json`);
      const before = readFileSync(file, 'utf8');
      const r = structured(
        await client.callTool({ name: 'save_plan', arguments: { plan: { ...calm.plan, name: 'Other' }, request: calm.request } }),
      );
      assert.equal(r.saved, false);
      const last = r.warnings.at(-1);
      assert.deepEqual(Object.keys(last), ['code', 'path', 'message']);
      assert.equal(last.code, 'notSaved');
      assert.equal(last.path, '$');
      assert.equal(asked.length, answer ? 1 : 0);
      assert.equal(readFileSync(file, 'utf8'), before);
    } finally {
      await client.close();
    }
  });
}

test('read-only run: no save_plan, no resources', async () => {
  const { client } = await connect(null, null);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS.filter((n) => n !== 'save_plan'));
    assert.equal(client.getServerCapabilities().resources, undefined);
    const calm = example('calm-weekday');
    assert.equal(structured(await client.callTool({ name: 'validate_plan', arguments: calm })).valid, true);
    await assert.rejects(client.callTool({ name: 'save_plan', arguments: calm }), /Unknown tool: save_plan/);
  } finally {
    await client.close();
  }
});

// A call over the 4 MiB line limit (issue 27): the SDK writes the id last, after 5 MB of params;
// the server must still answer with that id (mcp-server.md "JSON-RPC hygiene": -32600), or the
// client waits forever. The 10 s request timeout is only the hang guard: a timeout rejects with
// -32001, not -32600. The same client is then served normally.
test('a 5 MB tools/call gets its -32600 answer at once, and the session goes on', async () => {
  const { client } = await connect(null, null);
  try {
    const calm = example('calm-weekday');
    const huge = { plan: JSON.stringify({ ...calm.plan, description: 'x'.repeat(5_000_000) }), request: calm.request };
    const t0 = Date.now();
    await assert.rejects(client.callTool({ name: 'validate_plan', arguments: huge }, undefined, { timeout: 10_000 }), (e) => {
      assert.equal(e.code, -32600, String(e));
      assert.match(e.message, /the line is longer than 4194304 bytes and was skipped/);
      return true;
    });
    const seconds = (Date.now() - t0) / 1000;
    assert.ok(seconds < 10, `answered after ${seconds} s`);
    assert.deepEqual(structured(await client.callTool({ name: 'validate_plan', arguments: calm })), coreVerdict(calm.plan, calm.request));
  } finally {
    await client.close();
  }
});

test('calendar tools: the crate\'s calendar as a text/calendar resource, a fixture\'s week, bad input a tool error', async () => {
  const { client } = await connect(null, null);
  try {
    const calm = example('calm-weekday');
    const broken = example('calm-weekday-broken');
    const STAMP = '20261207T120000Z';
    const want = coreCalendar({ export: { plan: calm.plan, request: calm.request, dtstamp: STAMP } });
    // The SDK checks structuredContent against export_calendar's outputSchema.
    const r = await client.callTool({ name: 'export_calendar', arguments: { ...calm, dtstamp: STAMP } });
    assert.equal(r.isError, false, JSON.stringify(r.content));
    const uri = `calendar://${calm.request.requestId}.ics`;
    assert.deepEqual(r.structuredContent, { uri, events: want.events, warnings: want.warnings });
    assert.deepEqual(r.content[1], { type: 'resource', resource: { uri, mimeType: 'text/calendar', text: want.text } });
    assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
    const ics = readFileSync(join(ROOT, 'calendar', 'tests', 'fixtures', 'outlook.ics'), 'utf8');
    const week = { calendar: ics, startDate: '2026-10-05', timezone: 'Europe/Zurich' };
    const got = structured(await client.callTool({ name: 'import_commitments', arguments: week }));
    assert.deepEqual(got, coreCalendar({ import: { ics, startDate: week.startDate, timezone: week.timezone } }));
    // Bad input: a tool error (one text block, no structuredContent the SDK would check).
    const invalid = await client.callTool({ name: 'export_calendar', arguments: broken });
    assert.equal(invalid.isError, true);
    assert.match(invalid.content[0].text, /^No calendar was made: the plan is not valid/);
    const malformed = await client.callTool({ name: 'import_commitments', arguments: { ...week, calendar: 'BEGIN:VCALENDAR\r\nno colon\r\nEND:VCALENDAR\r\n' } });
    assert.equal(malformed.isError, true);
    assert.match(malformed.content[0].text, /^the calendar file is malformed at line 2: /);
  } finally {
    await client.close();
  }
});
