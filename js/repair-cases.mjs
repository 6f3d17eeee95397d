// The repair and schema checks of both JS packages (bindings-node/test/repair.test.mjs,
// bindings-wasm/test/repair.test.mjs): every shared vector through `repairPlan`, every distinct
// request through `planSchema`, compared with the core's own bytes from its lines driver
// (`target/release/examples/repair --lines` and `--schema --lines`, core/examples/repair.rs), and
// the bad inputs, compared with what `validatePlan` does with them. Nothing expected is copied
// here: the vectors are read at test time and the core says what must come out.
//
// Byte equality: `JSON.stringify(result)` must be the driver's line exactly wherever a JS object
// can carry that line (`JSON.stringify(JSON.parse(line)) === line`). Where it cannot (a patch
// `test` value or a schema `const` holding `30.0`, an integer beyond ±(2^53−1) or an
// array-index member name, which JSON.parse changes), the result must equal the driver's line
// read by JSON.parse; those lines are counted and printed, and the package's `plan` member (text)
// is exact in both cases.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The driver, built by `cargo build --release -p momentum-plan --example repair`. */
export function driverPath(targetDir) {
  return join(targetDir, 'release', 'examples', 'repair');
}

/** The driver's answer lines for `lines` (JSON Lines in), in order. */
export function runDriver(driver, lines, schema = false) {
  if (!existsSync(driver)) throw new Error(`${driver} is missing: cargo build --release -p momentum-plan --example repair`);
  const args = schema ? ['--schema', '--lines'] : ['--lines'];
  const r = spawnSync(driver, args, { input: `${lines.join('\n')}\n`, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`repair driver exited ${r.status}: ${r.stderr}`);
  const out = r.stdout.split('\n').filter((l) => l !== '');
  if (out.length !== lines.length) throw new Error(`repair driver: ${out.length} answers for ${lines.length} lines`);
  return out;
}

/** How a result compares with the driver's line: 'exact', 'parsed' (equal after JSON.parse of a
 * line JS cannot carry byte for byte), or null (different). */
export function sameAsCore(result, line) {
  const got = JSON.stringify(result);
  if (got === line) return 'exact';
  const parsed = JSON.stringify(JSON.parse(line));
  return parsed !== line && got === parsed ? 'parsed' : null;
}

/**
 * The inputs of one vector as a JS surface sends them, and the driver line for the same input.
 * `v`: `{ id, plan, request, planJson, requestJson, textOnly }` (the parsed plan and request; the
 * raw compact JSON of each member, non-ASCII raw; whether JS must send it as text, vectors README).
 * `mode`: 'given' (an object plan as an object unless text-only; a text plan as text) or 'text'.
 */
export function inputsOf(v, mode, unsafe) {
  const planIsText = typeof v.plan === 'string';
  const asText = planIsText || v.textOnly || mode === 'text';
  const plan = planIsText ? v.plan : asText ? v.planJson : v.plan;
  const request = v.textOnly ? v.requestJson : v.request;
  const planJson = planIsText ? v.planJson : asText ? JSON.stringify(v.planJson) : v.planJson;
  const line = `{"plan":${planJson},"request":${v.requestJson}${unsafe ? ',"unsafe":true' : ''}}`;
  return { plan, request, line };
}

/**
 * Runs `vectors` (one file's) through `repairPlan` at the safe level (all), the unsafe level (all)
 * and, for every `textEvery`-th object vector, with the plan as text; returns the failures (at
 * most 10 kept) and adds to `totals` ({calls, exact, parsed}).
 */
export function repairVectors({ repairPlan, driver, vectors, totals, textEvery = 7 }) {
  const runs = [];
  vectors.forEach((v, k) => {
    runs.push([v, 'given', false], [v, 'given', true]);
    if (typeof v.plan !== 'string' && !v.textOnly && k % textEvery === 0) runs.push([v, 'text', false]);
  });
  const inputs = runs.map(([v, mode, unsafe]) => inputsOf(v, mode, unsafe));
  const core = runDriver(driver, inputs.map((i) => i.line));
  const failures = [];
  inputs.forEach((input, k) => {
    const [v, mode, unsafe] = runs[k];
    const what = `${v.id} [${mode}${unsafe ? ', unsafe' : ''}]`;
    totals.calls += 1;
    let result;
    try {
      result = repairPlan(input.plan, input.request, unsafe ? { unsafe: true } : undefined);
    } catch (e) {
      failures.push(`${what}: threw ${e}`);
      return;
    }
    const same = sameAsCore(result, core[k]);
    if (same === null) {
      failures.push(`${what}: differs from the core\n  js:   ${JSON.stringify(result).slice(0, 600)}\n  core: ${core[k].slice(0, 600)}`);
    } else {
      totals[same] += 1;
    }
  });
  return failures.slice(0, 10);
}

/**
 * Every distinct request of `vectors` through `planSchema`, both variants (and the default), against
 * the driver: the schema, or for `{"error": …}` an `Error` with exactly that message (`argument`
 * 'request'). Returns the failures; adds to `totals` ({calls, exact, parsed, errors}).
 */
export function schemaRequests({ planSchema, driver, vectors, totals }) {
  const seen = new Map();
  for (const v of vectors) if (!seen.has(v.requestJson)) seen.set(v.requestJson, v);
  const runs = [];
  for (const [json, v] of seen) {
    // JS sends the request as text when an object cannot carry it exactly.
    const request = JSON.stringify(v.request) === json ? v.request : json;
    for (const variant of [undefined, 'validation', 'strict']) runs.push({ request, json, variant });
  }
  const lines = runs.map((r) => `{"request":${r.json}${r.variant ? `,"variant":"${r.variant}"` : ''}}`);
  const core = runDriver(driver, lines, true);
  const failures = [];
  runs.forEach((r, k) => {
    totals.calls += 1;
    const what = `request ${r.json.slice(0, 80)} [${r.variant ?? 'default'}]`;
    const expected = JSON.parse(core[k]);
    let schema;
    try {
      schema = planSchema(r.request, r.variant);
    } catch (e) {
      const ok =
        typeof expected.error === 'string' &&
        Object.keys(expected).length === 1 &&
        e.constructor === Error &&
        e.message === expected.error &&
        e.argument === 'request' &&
        e.path === '$';
      if (ok) totals.errors += 1;
      else failures.push(`${what}: threw ${e}; core: ${core[k].slice(0, 300)}`);
      return;
    }
    const same = sameAsCore(schema, core[k]);
    if (same === null || 'error' in expected) failures.push(`${what}: differs from the core: ${core[k].slice(0, 300)}`);
    else totals[same] += 1;
  });
  return failures.slice(0, 10);
}

/** An error as comparable data. */
function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    return { class: e.constructor.name, message: e.message, argument: e.argument, path: e.path, kind: e.kind };
  }
  return null;
}

const nest = (levels, leaf) => {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

/**
 * Bad input for repairPlan and planSchema, checked against what validatePlan does with the same
 * arguments (the same errors, or the same verdict inside the repair), and the schema's own errors
 * against the driver. `plan`, `request`: the calm-weekday example as objects. Each entry:
 * `[name, check()]`, where check throws (node:assert) on a mismatch.
 */
export function badInputCases({ validatePlan, repairPlan, planSchema, driver, plan, request, assert }) {
  const planText = JSON.stringify(plan);
  const requestText = JSON.stringify(request);
  /** repairPlan throws exactly what validatePlan throws for these arguments. */
  const sameError = (p, r) => {
    const want = errorOf(() => validatePlan(p, r));
    assert.ok(want, 'validatePlan throws');
    assert.deepEqual(errorOf(() => repairPlan(p, r)), want);
    assert.deepEqual(errorOf(() => repairPlan(p, r, { unsafe: true })), want);
  };
  /** repairPlan's verdict is validatePlan's, nothing applied; planSchema throws the request's error too. */
  const sameVerdict = (p, r, planOut) => {
    const repaired = repairPlan(p, r);
    assert.deepEqual(repaired.verdict, validatePlan(p, r));
    assert.deepEqual([repaired.patch, repaired.applied, repaired.offered, repaired.rounds], [[], [], [], 0]);
    if (planOut !== undefined) assert.equal(repaired.plan, planOut);
    return repaired;
  };
  const withPlan = (change) => {
    const p = structuredClone(plan);
    change(p);
    return p;
  };
  const schemaError = (r, variant) => {
    const line = `{"request":${typeof r === 'string' ? r : JSON.stringify(r)}${variant === undefined ? '' : `,"variant":${JSON.stringify(variant)}`}}`;
    return JSON.parse(runDriver(driver, [line], true)[0]).error;
  };
  return [
    ['values JSON cannot hold, in the plan: the errors of validatePlan', () => {
      for (const bad of [NaN, Infinity, () => 1, Symbol('s'), 10n, new Map()]) {
        sameError(withPlan((p) => (p.routine.blocks[0].durationMin = bad)), request);
        sameError(withPlan((p) => (p.routine.blocks = [bad])), request);
      }
      sameError(withPlan((p) => (p.routine.blocks = [undefined])), request);
      const cyclic = withPlan((p) => (p.routine.self = p.routine));
      sameError(cyclic, request);
      sameError(undefined, request);
    }],
    ['values JSON cannot hold, in the request: the errors of validatePlan, for planSchema too', () => {
      for (const bad of [NaN, () => 1, 10n, new Set(), nest(600, 1), { s: '\ud800' }]) {
        const r = { ...request, extra: bad };
        sameError(plan, r);
        assert.deepEqual(errorOf(() => planSchema(r)), errorOf(() => validatePlan(plan, r)));
      }
      for (const text of ['{"requestId": ', '{"a": "\ud800"}', '', 'nul']) {
        sameError(plan, text);
        assert.deepEqual(errorOf(() => planSchema(text)), errorOf(() => validatePlan(plan, text)));
        assert.deepEqual(errorOf(() => planSchema(text, 'strict')), errorOf(() => validatePlan(plan, text)));
      }
    }],
    ['a request that is not an object: the verdict of validatePlan, and the request at fault', () => {
      for (const r of [5, 'null', '[]', [], null, true, '"x"']) {
        const repaired = repairPlan(plan, r);
        if (repaired.applied.length === 0) assert.deepEqual(repaired.verdict, validatePlan(plan, r));
        else assert.deepEqual(repaired.verdict, validatePlan(repaired.plan, r));
        assert.ok(repaired.requestAtFault.length > 0, JSON.stringify(r));
        const e = errorOf(() => planSchema(r));
        assert.deepEqual(e, { class: 'Error', message: schemaError(r), argument: 'request', path: '$', kind: null });
      }
      const goal = { ...request, kind: 'daily' };
      assert.equal(errorOf(() => planSchema(goal, 'strict')).message, schemaError(goal, 'strict'));
    }],
    ['plans that are not objects, deep or huge: the verdict of validatePlan inside the repair', () => {
      for (const p of [5, null, true, [], 'null', '[1]', '{', '', 'NaN']) {
        const r = sameVerdict(p, request, typeof p === 'string' ? p : JSON.stringify(p));
        assert.equal(r.stopped, 'notAnObject');
      }
      for (const levels of [500, 600, 100000]) {
        const deep = withPlan((p) => (p.extra = nest(levels, 1)));
        sameVerdict(deep, request, levels < 512 ? undefined : '');
        const text = `${'['.repeat(levels)}${']'.repeat(levels)}`;
        sameVerdict(text, request, text);
      }
      sameVerdict(withPlan((p) => (p.name = 'a\udc00b')), request, '');
      sameVerdict(`{"name": "\ud83d"}`, request, '{"name": "\ufffd"}');
      const huge = withPlan((p) => (p.description = 'x'.repeat(300000)));
      const r = repairPlan(huge, request);
      assert.deepEqual(r.verdict, validatePlan(huge, request));
      assert.equal(r.plan, JSON.stringify(huge));
      assert.deepEqual(repairPlan(JSON.stringify(huge), requestText).verdict, validatePlan(JSON.stringify(huge), requestText));
    }],
    ['variants and options', () => {
      for (const variant of ['', 'Strict', 'loose', ' strict', 'x'.repeat(100)]) {
        const e = errorOf(() => planSchema(request, variant));
        assert.deepEqual(e, { class: 'RangeError', message: schemaError(request, variant), argument: undefined, path: undefined, kind: undefined });
      }
      for (const variant of [null, 1, {}, ['strict']]) assert.equal(errorOf(() => planSchema(request, variant)).class, 'TypeError');
      assert.deepEqual(planSchema(request, new String('strict')), planSchema(requestText, 'strict'));
      assert.deepEqual(planSchema(request), planSchema(request, 'validation'));
      for (const options of [1, 'unsafe', true]) assert.equal(errorOf(() => repairPlan(plan, request, options)).class, 'TypeError');
      for (const options of [{ unsafe: 1 }, { unsafe: 'yes' }, { unsafe: null }]) {
        assert.equal(errorOf(() => repairPlan(plan, request, options)).class, 'TypeError');
      }
      for (const options of [undefined, null, {}, { unsafe: false }, { other: 1 }]) {
        assert.deepEqual(repairPlan(planText, request, options), repairPlan(planText, request));
      }
    }],
    ['arguments are not modified, and results are fresh plain objects', () => {
      const p = withPlan((x) => (x.routine.blocks[0].start = '6:45'));
      const before = JSON.stringify(p);
      const a = repairPlan(p, request);
      assert.equal(JSON.stringify(p), before);
      assert.ok(a.applied.length > 0);
      const b = repairPlan(p, request);
      assert.notEqual(a, b);
      assert.deepEqual(a, b);
      assert.equal(Object.getPrototypeOf(a), Object.prototype);
      assert.equal(Object.getPrototypeOf(planSchema(request)), Object.prototype);
    }],
  ];
}
