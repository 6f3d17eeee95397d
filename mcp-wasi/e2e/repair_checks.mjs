// repair_plan and get_plan_schema through the official TypeScript SDK client (validator.md §9),
// shared by ts_sdk.test.mjs (stdio) and ts_sdk_http.test.mjs (Streamable HTTP): the text blocks
// are byte for byte the core's line driver (`repair --lines`, `repair --schema --lines`), the
// structuredContent the same JSON (the SDK checks it against the tool's outputSchema), and
// arguments that do not fit are tool errors naming the argument.
// Paths: MOMENTUM_PLAN_REPAIR, default $CARGO_TARGET_DIR/release/examples/repair.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

import { REPAIR } from './sandbox_env.mjs';

function driver(args, line) {
  const out = spawnSync(REPAIR, args, { input: JSON.stringify(line) + '\n' });
  assert.equal(out.status, 0, String(out.stderr));
  return String(out.stdout).replace(/\n$/, '');
}

/** The core's repair of one pair, as compact JSON text (the examples hold no number JSON.parse would change). */
export function coreRepairText(plan, request, unsafe = false) {
  return driver(['--lines'], { plan, request, unsafe });
}

/** The core's plan schema as compact JSON text, or `{"error": <SchemaError's text>}`. */
export function coreSchemaText(request, variant = 'validation') {
  return driver(['--schema', '--lines'], { request, variant });
}

function textOf(result) {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  return result.content[0].text;
}

/** Calls both tools through `client`; `calm` and `broken` are the bundled examples {plan, request}. */
export async function checkRepairAndSchema(client, calm, broken) {
  const { tools } = await client.listTools();
  for (const name of ['repair_plan', 'get_plan_schema']) {
    const t = tools.find((x) => x.name === name);
    assert.ok(t && t.title && t.description && t.outputSchema, name);
    assert.equal(t.annotations.readOnlyHint, true, name);
    assert.equal(t.annotations.destructiveHint, false, name);
    assert.equal(t.annotations.openWorldHint, false, name);
  }

  // A plan with a time written 6:45: the safe fix makes it valid in one call.
  const fixable = structuredClone(calm.plan);
  fixable.routine.blocks[0].start = fixable.routine.blocks[0].start.replace(/^0/, '');
  const cases = [
    [{ plan: fixable, request: calm.request }, false],
    [{ plan: JSON.stringify(fixable, null, 2), request: calm.request }, false],
    [{ plan: broken.plan, request: broken.request }, false],
    [{ plan: broken.plan, request: broken.request, unsafe: true }, true],
    [{ plan: calm.plan, request: calm.request, unsafe: false }, false],
  ];
  for (const [args, unsafe] of cases) {
    const r = await client.callTool({ name: 'repair_plan', arguments: args });
    assert.equal(r.isError, false, textOf(r));
    const expected = coreRepairText(args.plan, args.request, unsafe);
    assert.equal(textOf(r), expected);
    assert.deepEqual(r.structuredContent, JSON.parse(expected));
  }
  const repaired = (await client.callTool({ name: 'repair_plan', arguments: { plan: fixable, request: calm.request } }))
    .structuredContent;
  assert.equal(repaired.verdict.valid, true);
  assert.ok(repaired.applied.length > 0);
  assert.deepEqual(JSON.parse(repaired.plan), calm.plan);
  const atFault = { ...calm.request, kind: 'weekly' };
  const r = await client.callTool({ name: 'repair_plan', arguments: { plan: calm.plan, request: atFault } });
  assert.equal(r.isError, false);
  assert.ok(r.structuredContent.requestAtFault.length > 0);

  for (const variant of [undefined, 'validation', 'strict']) {
    const args = variant ? { request: calm.request, variant } : { request: calm.request };
    const s = await client.callTool({ name: 'get_plan_schema', arguments: args });
    assert.equal(s.isError, false, textOf(s));
    const expected = coreSchemaText(calm.request, variant ?? 'validation');
    assert.equal(textOf(s), expected);
    assert.deepEqual(s.structuredContent, JSON.parse(expected));
  }
  const refused = await client.callTool({ name: 'get_plan_schema', arguments: { request: atFault } });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent, undefined);
  assert.equal(textOf(refused), JSON.parse(coreSchemaText(atFault)).error);

  const bad = [
    ['repair_plan', { request: calm.request }, '`plan` is missing'],
    ['repair_plan', { plan: calm.plan, request: calm.request, unsafe: 'yes' }, '`unsafe` must be a boolean'],
    ['get_plan_schema', { request: calm.request, variant: 'loose' }, 'unknown schema variant "loose"'],
    ['get_plan_schema', { request: [calm.request] }, '`request` must be a JSON object'],
  ];
  for (const [name, args, words] of bad) {
    const e = await client.callTool({ name, arguments: args });
    assert.equal(e.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.ok(textOf(e).includes(words) && textOf(e).includes(name), textOf(e));
  }
}
