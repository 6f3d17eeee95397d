'use strict';
// The API of pkg/node: results, the contract, every kind of bad input, deep nesting, lone
// surrogates, numbers, and that the verdicts are the core's.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const wasm = require('../pkg/node');
const { validatePlan, getPlanContract } = wasm;
const L = require('../../js/testkit.cjs');

const EXAMPLES = L.EXAMPLES;
const TARGET = path.resolve(process.env.CARGO_TARGET_DIR || path.join(L.ROOT, 'target'));
const DRIVER = path.join(TARGET, 'release', 'examples', 'validate');

const text = (name) => fs.readFileSync(path.join(EXAMPLES, name), 'utf8');
const json = (name) => JSON.parse(text(name));
const calm = () => ({ plan: json('calm-weekday.plan.json'), request: json('calm-weekday.request.json') });

/** The core's verdict for plan/request JSON texts, through its line driver. */
function core(planText, requestText) {
  const line = `{"plan":${planText},"request":${requestText}}\n`;
  const r = spawnSync(DRIVER, ['--lines'], { input: line, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

const codes = (v) => v.errors.map((i) => `${i.code} ${i.path}`);

test('exports exactly validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load, planToIcalendar, commitmentsFromIcalendar and loadCalendar', () => {
  assert.deepEqual(Object.keys(wasm).sort(), [
    'PlanStream',
    'commitmentsFromIcalendar',
    'getPlanContract',
    'isWarning',
    'load',
    'loadCalendar',
    'planSchema',
    'planToIcalendar',
    'renderPath',
    'repairPlan',
    'streamPlan',
    'validatePlan',
    'valueSpan',
  ]);
  // isWarning is the core's rule, for a stream's settled issues (the stream tests check it on every vector)
  assert.equal(typeof wasm.isWarning('overnight'), 'boolean');
  assert.equal(wasm.isWarning('no such code'), false);
  assert.equal(wasm.renderPath(['routine', 'blocks', 0, "it's", 'a b']), "$.routine.blocks[0]['it\\'s']['a b']");
});

test('Node loads the second module on the first call that needs it, and load() resolves', () => {
  // a fresh process: the validator's glue is required with the package, the extras' only later
  const probe = `
    const pkg = require(${JSON.stringify(path.join(__dirname, '..', 'pkg', 'node'))});
    const extras = () => Object.keys(require.cache).filter((f) => f.endsWith('momentum_plan_wasm_extras.js')).length;
    const out = { atStart: extras() };
    pkg.validatePlan('{}', '{}');
    out.afterValidate = extras();
    out.repairApplied = pkg.repairPlan({ format: ' Daily-Momentum-AI-Plan' }, '{}').applied.map((f) => f.code);
    out.afterRepair = extras();
    pkg.load().then(() => { out.loadResolved = true; console.log(JSON.stringify(out)); });
  `;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { atStart: 0, afterValidate: 0, repairApplied: ['format', 'contractVersion', 'request'], afterRepair: 1, loadResolved: true });
});

test('every example: the verdict bytes are the core verdict, as object and as text', () => {
  const names = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.plan.json'));
  assert.equal(names.length, 4);
  for (const planName of names) {
    const requestName = planName.replace('.plan.json', '.request.json');
    const expected = core(JSON.stringify(text(planName)), text(requestName).trim().replace(/\n\s*/g, ''));
    const asText = validatePlan(text(planName), text(requestName));
    const asObject = validatePlan(json(planName), json(requestName));
    assert.equal(JSON.stringify(asText), expected, planName);
    // the object's size is its compact text, not the file's: only the size check may differ,
    // and these plans are far below the limit
    assert.equal(JSON.stringify(asObject), expected, planName);
  }
});

test('the broken example: three errors and a warning, in order', () => {
  const v = validatePlan(json('calm-weekday-broken.plan.json'), json('calm-weekday-broken.request.json'));
  assert.equal(v.valid, false);
  assert.deepEqual(codes(v), [
    'overlap $.routine.blocks[2]',
    'category $.routine.blocks[3].category',
    'commitment $.routine.blocks[1]',
  ]);
  assert.deepEqual(v.warnings.map((i) => `${i.code} ${i.path}`), ['overnight $.routine.blocks[4]']);
  assert.ok(v.errors.every((i) => i.message.length > 20));
});

test('results are plain objects and arrays in the core key order, fresh each call', () => {
  const { plan, request } = calm();
  const a = validatePlan(plan, request);
  const b = validatePlan(plan, request);
  assert.notEqual(a, b);
  assert.equal(Object.getPrototypeOf(a), Object.prototype);
  assert.ok(Array.isArray(a.errors) && Array.isArray(a.warnings) && Array.isArray(a.checks));
  assert.deepEqual(Object.keys(a), ['valid', 'errors', 'warnings', 'checks']);
  assert.deepEqual(Object.keys(a.warnings[0]), ['code', 'path', 'message']);
  assert.ok(!(a instanceof Map));
  a.errors.push('x'); // mutating one result does not touch the next
  assert.deepEqual(validatePlan(plan, request).errors, []);
});

test('getPlanContract: the contract, a fresh plain object each call', () => {
  const c = getPlanContract();
  assert.deepEqual(Object.keys(c), ['format', 'contractVersion', 'categories', 'weekdays', 'limits', 'rules']);
  assert.equal(c.format, 'daily-momentum-ai-plan');
  assert.equal(c.contractVersion, 1);
  assert.equal(c.categories.length, 9);
  assert.deepEqual(c.weekdays, ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
  assert.equal(c.limits.payloadBytes, 262144);
  assert.equal(c.rules.length, 8);
  c.categories.length = 0;
  assert.equal(getPlanContract().categories.length, 9);
  // the contract's format is the one plans must carry: a plan with it passes the envelope check
  const { plan, request } = calm();
  assert.equal(validatePlan({ ...plan, format: c.format }, request).valid, true);
});

test('non-JSON values throw a TypeError naming the path', () => {
  const cases = [
    [(p) => { p.routine.blocks[0].durationMin = NaN; }, /^plan at \$\.routine\.blocks\[0\]\.durationMin is NaN, which JSON cannot hold/],
    [(p) => { p.routine.blocks[0].durationMin = Infinity; }, /^plan at \$\.routine\.blocks\[0\]\.durationMin is Infinity/],
    [(p) => { p.routine.blocks[0].durationMin = -Infinity; }, /durationMin is -Infinity/],
    [(p) => { p.routine.blocks[1].essential = () => true; }, /^plan at \$\.routine\.blocks\[1\]\.essential is a function/],
    [(p) => { p.name = Symbol('x'); }, /^plan at \$\.name is a symbol/],
    [(p) => { p.contractVersion = 1n; }, /^plan at \$\.contractVersion is a BigInt \(1n\)/],
    [(p) => { p.contractVersion = Object(1n); }, /^plan at \$\.contractVersion is a BigInt \(1n\)/],
    [(p) => { p.routine.blocks.push(undefined); }, /^plan at \$\.routine\.blocks\[5\] is undefined/],
    [(p) => { p.routine.blocks.length = 7; }, /^plan at \$\.routine\.blocks\[5\] is undefined \(or a hole\)/],
    [(p) => { p.routine.blocks[0].self = p.routine; }, /^plan at \$\.routine\.blocks\[0\]\.self refers back to \$\.routine \(a cycle\)/],
    [(p) => { p.routine.weekdays = new Map(); }, /^plan at \$\.routine\.weekdays is a Map/],
    [(p) => { p['odd key'] = { x: new Set([1]) }; }, /^plan at \$\['odd key'\]\.x is a Set/],
    [(p) => { p["it's"] = [() => 1]; }, /^plan at \$\['it\\'s'\]\[0\] is a function/],
  ];
  for (const [mutate, message] of cases) {
    const { plan, request } = calm();
    mutate(plan);
    assert.throws(() => validatePlan(plan, request), (e) => e instanceof TypeError && message.test(e.message) && e.argument === 'plan' && e.message.startsWith(`plan at ${e.path} `), String(message));
  }
  assert.throws(() => validatePlan(undefined, calm().request), /^TypeError: plan at \$ is undefined/);
  assert.throws(() => validatePlan(() => 1, calm().request), /^TypeError: plan at \$ is a function/);
  assert.throws(() => validatePlan(1n, calm().request), /^TypeError: plan at \$ is a BigInt/);
  // the request too
  const { plan, request } = calm();
  request.commitments[0].end = NaN;
  assert.throws(() => validatePlan(plan, request), /^TypeError: request at \$\.commitments\[0\]\.end is NaN/);
  assert.throws(() => validatePlan(plan, undefined), /^TypeError: request at \$ is undefined/);
});

test('undefined members are skipped as JSON.stringify skips them; toJSON and boxes as JSON.stringify', () => {
  const { plan, request } = calm();
  const expected = JSON.stringify(validatePlan(plan, request));
  assert.equal(JSON.stringify(validatePlan({ ...plan, extra: undefined }, { ...request, note: undefined })), expected);
  const boxed = { ...plan, name: Object('Calm weekday'), contractVersion: Object(1) };
  assert.equal(JSON.stringify(validatePlan(boxed, request)), expected);
  const dated = { ...plan, createdAt: new Date(0) };
  assert.equal(validatePlan(dated, request).valid, true); // a Date is written as its ISO string
  const withToJson = { toJSON: () => plan };
  assert.equal(JSON.stringify(validatePlan(withToJson, request)), expected);
});

test('the arguments are not modified', () => {
  const { plan, request } = calm();
  const before = JSON.stringify([plan, request]);
  validatePlan(plan, request);
  assert.equal(JSON.stringify([plan, request]), before);
});

test('plans that are not objects get the core type verdict; text that is not JSON its json verdict', () => {
  const { request } = calm();
  for (const p of [42, null, true, [1, 2], '42', '[]', 'null']) {
    const v = validatePlan(p, request);
    assert.deepEqual(codes(v), ['type $'], JSON.stringify(p));
    assert.deepEqual(v.checks, ['json']);
  }
  for (const p of ['', '{', '{"a":1,}', '\ufeff{}', 'NaN', '{"a": 1e400}', '{} {}']) {
    const v = validatePlan(p, request);
    assert.deepEqual(codes(v), ['json $'], JSON.stringify(p));
    assert.match(v.errors[0].message, /line \d+, column \d+/);
  }
});

test('request text that is not JSON throws a SyntaxError; a non-object request is the core requestInvalid', () => {
  const { plan } = calm();
  assert.throws(() => validatePlan(plan, '{"requestId": '), (e) => e instanceof SyntaxError && /^request is not JSON: .* at line 1, column \d+$/.test(e.message));
  assert.throws(() => validatePlan(plan, '"\ud800"'), (e) => e instanceof SyntaxError && /lone surrogate/.test(e.message));
  const v = validatePlan(plan, '[]');
  assert.ok(codes(v).some((c) => c.startsWith('requestInvalid')));
  assert.ok(codes(validatePlan(plan, 7)).some((c) => c.startsWith('requestInvalid')));
});

test('nesting: 512 levels are JSON, 513 and 600 are the core json error, as text and as object', () => {
  const { request } = calm();
  const nestText = (levels) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
  const nestObject = (levels) => {
    const root = {};
    let cur = root;
    for (let i = 1; i < levels; i++) cur = cur.a = {};
    return root;
  };
  for (const levels of [512, 513, 600, 100000]) {
    const deep = levels > MAX_OK;
    for (const [how, plan] of [['text', nestText(levels)], ['object', nestObject(levels)]]) {
      const v = validatePlan(plan, request);
      if (deep) {
        assert.deepEqual(codes(v), ['json $'], `${levels} ${how}`);
        assert.match(v.errors[0].message, /nesting deeper than 512 levels/);
      } else {
        assert.ok(!codes(v).includes('json $'), `${levels} ${how}`);
        assert.deepEqual(v.checks.length, 8);
      }
    }
  }
  // arrays too, and deep values in the request are a TypeError for objects, SyntaxError for text
  assert.deepEqual(codes(validatePlan('['.repeat(600) + ']'.repeat(600), request)), ['json $']);
  assert.throws(() => validatePlan(calm().plan, nestObject(600)), /^TypeError: request at \$(\.a)+ is nested deeper than 512 levels/);
  assert.throws(() => validatePlan(calm().plan, nestText(600)), /^SyntaxError: request is not JSON: nesting deeper than 512/);
  // the module is fine afterwards
  assert.equal(validatePlan(calm().plan, request).valid, true);
});
const MAX_OK = 512;

test('lone surrogates: the core json verdict, in object strings, member names and raw text', () => {
  const { plan, request } = calm();
  const inName = validatePlan({ ...plan, name: 'Calm \ud83d' }, request);
  assert.deepEqual(codes(inName), ['json $']);
  assert.match(inName.errors[0].message, /lone surrogate \(U\+D83D\) in the string at \$\.name/);
  const inKey = validatePlan({ ...plan, ['x\udc00']: 1 }, request);
  assert.match(inKey.errors[0].message, /lone surrogate \(U\+DC00\) in a member name/);
  const raw = validatePlan('{\n  "name": "ab\udfff"}', request);
  assert.deepEqual(codes(raw), ['json $']);
  assert.match(raw.errors[0].message, /lone surrogate \(U\+DFFF\) is not a character at line 2, column 14/);
  const escaped = validatePlan('{"name": "\\ud83d"}', request);
  assert.deepEqual(codes(escaped), ['json $']);
  // a well-formed pair is fine, and counts as one character in columns
  assert.deepEqual(codes(validatePlan('{"a": "😀", "b": "\ud800', request)), ['json $']);
  assert.match(validatePlan('"😀\ud800"', request).errors[0].message, /column 3/);
  assert.equal(validatePlan({ ...plan, name: 'Calm 😀' }, request).valid, true);
  assert.throws(() => validatePlan(plan, { ...request, goal: '\ud800' }), /^TypeError: request at \$\.goal holds a lone surrogate \(U\+D800\)/);
});

test('numbers: JS integers are integers, other finite numbers are not (validator.md §7)', () => {
  const { plan, request } = calm();
  const block = (durationMin) => {
    const p = structuredClone(plan);
    p.routine.blocks[0].durationMin = durationMin;
    return codes(validatePlan(p, request));
  };
  assert.deepEqual(block(30), []);
  assert.deepEqual(block(30.0), []); // JavaScript cannot tell 30 from 30.0
  assert.deepEqual(block(-0), ['duration $.routine.blocks[0].durationMin']);
  assert.deepEqual(block(30.5), ['duration $.routine.blocks[0].durationMin']);
  assert.deepEqual(block(2 ** 53), ['duration $.routine.blocks[0].durationMin']);
  assert.deepEqual(block(1e21), ['duration $.routine.blocks[0].durationMin']);
  // as text, 30.0 is not an integer (the literal is kept)
  const t = JSON.stringify(plan).replace('"durationMin":30,', '"durationMin":30.0,');
  assert.deepEqual(codes(validatePlan(t, request)), ['duration $.routine.blocks[0].durationMin']);
  // contractVersion is compared numerically: 1.0 passes as text and as object
  assert.equal(validatePlan({ ...plan, contractVersion: 1.0 }, request).valid, true);
});

test('size: an object is measured as its compact JSON (262,144 bytes pass, one more does not)', () => {
  const { plan, request } = calm();
  const base = Buffer.byteLength(JSON.stringify({ ...plan, notes: '' }));
  const sized = (bytes) => validatePlan({ ...plan, notes: 'x'.repeat(bytes - base) }, request);
  assert.equal(sized(262144).valid, true);
  assert.deepEqual(codes(sized(262145)), ['size $']);
  const utf8 = { ...plan, notes: 'é'.repeat((262144 - base) / 2) };
  assert.equal(Buffer.byteLength(JSON.stringify(utf8)), 262144);
  assert.equal(validatePlan(utf8, request).valid, true);
});

test('text crossing as UTF-8: the kept buffer grows, a text too large for it gets its own, same verdicts as bytes passed as they are', () => {
  const raw = require('../pkg/node/momentum_plan_wasm.js');
  const { unpackVerdict } = require('../pkg/node/convert.js');
  const { plan, request } = calm();
  const requestText = JSON.stringify(request);
  const small = JSON.stringify(plan);
  const expectedSmall = validatePlan(small, requestText);
  assert.equal(expectedSmall.valid, true);
  // 100,000 'é' (200,000 bytes): within the 1 MiB the wrapper keeps; 400,000 (800,000 bytes): past it
  for (const n of [100000, 400000]) {
    const text = JSON.stringify({ ...plan, notes: 'é'.repeat(n) });
    const verdict = validatePlan(text, requestText);
    const viaBytes = unpackVerdict(raw.validate(Buffer.from(text), Buffer.from(requestText)), raw.checkNames());
    assert.deepEqual(verdict, viaBytes, `${n} characters: the kept buffer gives the verdict of the bytes themselves`);
    assert.deepEqual(codes(verdict), n === 400000 ? ['size $'] : []);
    // the buffer kept between calls still gives the small plan its verdict
    assert.deepEqual(validatePlan(small, requestText), expectedSmall);
  }
});

test('the package types: generated, precise, no any; a usage file type-checks under --strict', () => {
  for (const dir of ['node', 'web']) {
    const pkg = path.join(__dirname, '..', 'pkg', dir);
    for (const f of fs.readdirSync(pkg).filter((n) => n.endsWith('.d.ts'))) {
      const code = fs.readFileSync(path.join(pkg, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      assert.doesNotMatch(code, /\bany\b/, `${dir}/${f}: no any`);
    }
    const dts = fs.readFileSync(path.join(pkg, 'momentum_plan_wasm.d.ts'), 'utf8');
    const api = fs.readFileSync(path.join(pkg, 'index.d.ts'), 'utf8');
    assert.match(api, /export type JsonText = string \| ArrayBuffer \| Uint8Array \| Uint8ClampedArray \| Int8Array \| DataView\n/);
    assert.match(api, /export declare function validatePlan\(plan: object \| JsonText, request: object \| JsonText\): Verdict\n/);
    assert.match(api, /export declare function getPlanContract\(\): Contract\n/);
    // the functions both JS packages export, from the one generated file
    const shared = fs.readFileSync(path.join(__dirname, '..', '..', 'js', 'api.d.ts'), 'utf8').replace(/^(\/\/.*\n)+\n/, '');
    assert.ok(api.endsWith(shared), `${dir}/index.d.ts ends with js/api.d.ts`);
    assert.match(api, /export function renderPath\(segments: ReadonlyArray<string \| number>\): string;/);
    // the calendar's types and functions, from the one generated file both JS packages ship
    const calendar = fs.readFileSync(path.join(__dirname, '..', '..', 'js', 'calendar.d.ts'), 'utf8').replace(/^(\/\/.*\n)+\n/, '');
    assert.ok(api.includes(calendar), `${dir}/index.d.ts holds js/calendar.d.ts`);
    assert.match(api, /export function loadCalendar\(input\?: LoadInput\): Promise<void>;/);
    assert.match(dts, /export type IssueCode =\s*\| "json"\s*\| "type"\s*\| /);
  }
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
