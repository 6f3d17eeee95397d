// Host-object cases of the shared converter (js/convert.js), for the tests of both JS packages
// (bindings-node/test/host-objects.test.mjs, bindings-wasm/test/host-objects.test.mjs). Each case
// changes a copy of the calm-weekday plan (or request) and pins what must come out: the verdict's
// first error, or the exact error (class, message, .path, .argument). Each package's test checks
// itself against these, and, when the other package is built, that both give the same verdict
// bytes or the same error.

import vm from 'node:vm';

import { hostFault } from '../tests/conformance/host_cases.mjs';

const BLOCK = '$.routine.blocks[0].durationMin';
const duration = (v) => (p) => {
  p.routine.blocks[0].durationMin = v;
};
const durationIs = (text) => ({ code: 'duration', path: BLOCK, message: `durationMin is ${text};` });
const typeError = (argument, path, what, why) => ({
  error: { class: 'TypeError', message: hostFault(argument, path, what, why), path, argument },
});
const nest = (levels) => {
  let v = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

/** `[name, change(plan), expected]`: expected is `{ first }` (the verdict's first error: code,
 * path and the start of its message), `{ valid: true }`, or `{ error }`. */
export const PLAN_CASES = [
  ['2^53', duration(2 ** 53), { first: durationIs('9007199254740992.0') }],
  ['-2^53', duration(-(2 ** 53)), { first: { code: 'duration', path: BLOCK } }],
  ['2^53 - 1 is an integer', duration(2 ** 53 - 1), { first: { code: 'duration', path: BLOCK } }],
  ['1e20', duration(1e20), { first: { code: 'duration', path: BLOCK } }],
  ['1e21', duration(1e21), { first: { code: 'duration', path: BLOCK } }],
  ['-0 is the integer 0', duration(-0), { first: durationIs('0') }],
  ['30.0 is the integer 30', duration(30.0), { valid: true }],
  ['1e-6', duration(1e-6), { first: { code: 'duration', path: BLOCK } }],
  ['Map', (p) => (p.routine.weekdays = new Map()), typeError('plan', '$.routine.weekdays', 'is a Map')],
  ['Set', (p) => (p.extra = new Set([1])), typeError('plan', '$.extra', 'is a Set')],
  ['WeakMap', (p) => (p.extra = [new WeakMap()]), typeError('plan', '$.extra[0]', 'is a WeakMap')],
  ['Map from another realm', (p) => (p.extra = vm.runInNewContext('new Map()')), typeError('plan', '$.extra', 'is a Map')],
  ['RegExp', (p) => (p.extra = /x/), typeError('plan', '$.extra', 'is a RegExp')],
  ['Uint8Array', (p) => (p.extra = new Uint8Array(2)), typeError('plan', '$.extra', 'is a Uint8Array')],
  [
    'boxed values are unwrapped',
    (p) => {
      p.name = new String(p.name);
      p.routine.blocks[0].durationMin = new Number(p.routine.blocks[0].durationMin);
      p.extra = [Object(true), vm.runInNewContext('new Number(2)')];
    },
    { valid: true },
  ],
  ['a boxed 2^53', duration(new Number(2 ** 53)), { first: durationIs('9007199254740992.0') }],
  ['Date (toJSON)', (p) => (p.extra = new Date(0)), { valid: true }],
  ['a class instance is its members', (p) => (p.extra = new (class Point { constructor() { this.x = 1; } })()), { valid: true }],
  ['toJSON returning undefined skips the member', (p) => (p.extra = { toJSON: () => undefined }), { valid: true }],
  ['toJSON gets the key', (p) => (p.routine.blocks[0].durationMin = { toJSON: (k) => (k === 'durationMin' ? 2 ** 53 : 0) }), { first: durationIs('9007199254740992.0') }],
  ['BigInt', (p) => (p.extra = { n: 10n }), typeError('plan', '$.extra.n', 'is a BigInt (10n)')],
  ['function', (p) => (p.extra = function named() {}), typeError('plan', '$.extra', 'is a function (named)')],
  ['symbol', (p) => (p.extra = [Symbol('s')]), typeError('plan', '$.extra[0]', 'is a symbol (Symbol(s))')],
  ['NaN', duration(NaN), typeError('plan', BLOCK, 'is NaN', 'JSON has no NaN or Infinity')],
  ['-Infinity', (p) => (p.extra = { 'odd key': -Infinity }), typeError('plan', "$.extra['odd key']", 'is -Infinity', 'JSON has no NaN or Infinity')],
  ['a lone surrogate in a value', (p) => (p.name = 'Calm \ud83d day'), { first: { code: 'json', path: '$', message: 'The plan is not valid JSON: a lone surrogate (U+D83D) in the string at $.name is not a character.' } }],
  ['a lone surrogate in a member name', (p) => (p.extra = { '\udc00': 1 }), { first: { code: 'json', path: '$', message: 'The plan is not valid JSON: a lone surrogate (U+DC00) in a member name at' } }],
  [
    'a cycle',
    (p) => {
      p.extra = { a: {} };
      p.extra.a.back = p.extra;
    },
    typeError('plan', '$.extra.a.back', 'refers back to $.extra (a cycle)'),
  ],
  ['depth 512', (p) => (p.extra = nest(511)), { valid: true }],
  ['depth 513', (p) => (p.extra = nest(512)), { first: { code: 'json', path: '$', message: 'The plan is not valid JSON: nesting deeper than 512 levels is not allowed.' } }],
  // eslint-disable-next-line no-sparse-arrays
  ['a hole', (p) => (p.extra = [1, , 3]), typeError('plan', '$.extra[1]', 'is undefined (or a hole) inside an array')],
  ['undefined in an array', (p) => (p.extra = [undefined]), typeError('plan', '$.extra[0]', 'is undefined (or a hole) inside an array')],
  ['a getter', (p) => Object.defineProperty(p.routine.blocks[0], 'durationMin', { get: () => 2 ** 53, enumerable: true }), { first: durationIs('9007199254740992.0') }],
  ['a Proxy', (p) => (p.routine.blocks[0] = new Proxy(p.routine.blocks[0], {})), { valid: true }],
  ['a Proxy of a Map', (p) => (p.extra = new Proxy(new Map(), {})), typeError('plan', '$.extra', 'is a Map')],
];

/** Requests: the same faults are errors, never verdicts. */
export const REQUEST_CASES = [
  ['a lone surrogate in a request value', (r) => (r.goal = 'x\udfff'), typeError('request', '$.goal', 'holds a lone surrogate (U+DFFF)', 'it is not a character')],
  ['a request nested too deep', (r) => (r.extra = nest(600)), { error: { class: 'TypeError', path: `$.extra${'[0]'.repeat(511)}`, argument: 'request' } }],
  ['a Map in the request', (r) => (r.extra = new Map()), typeError('request', '$.extra', 'is a Map')],
];

/** Whole arguments: `[name, plan, request, expected]` (a string is JSON text; `calm` and
 * `request` stand for the calm-weekday plan and request objects). */
export const ARGUMENT_CASES = [
  ['plan undefined', undefined, 'request', typeError('plan', '$', 'is undefined')],
  ['request undefined', 'calm', undefined, typeError('request', '$', 'is undefined')],
  ['plan text with a lone surrogate', '{\n  "name": "\ud83d"}', 'request', { first: { code: 'json', path: '$', message: 'The plan is not valid JSON: a lone surrogate (U+D83D) is not a character at line 2, column 12.' } }],
  ['request text with a lone surrogate', 'calm', '{"goal": "é\ud800"}', { error: { class: 'SyntaxError', message: 'request is not JSON: a lone surrogate (U+D800) is not a character at line 1, column 12', path: '$', argument: 'request' } }],
  ['request text that is not JSON', 'calm', '{"requestId": ', { error: { class: 'SyntaxError', path: '$', argument: 'request' } }],
];

/** What `validatePlan` gave: the verdict's JSON text, or the error's class, message, path, argument. */
export function outcome(validatePlan, plan, request) {
  try {
    return { verdict: JSON.stringify(validatePlan(plan, request)) };
  } catch (e) {
    return { error: { class: e.constructor.name, message: e.message, path: e.path, argument: e.argument } };
  }
}

/** Whether `got` (an outcome) is what `want` pins; a message in `first` is a prefix, in `error` exact. */
export function matches(got, want) {
  if (want.error) {
    if (!got.error) return false;
    return Object.entries(want.error).every(([k, v]) => got.error[k] === v);
  }
  if (!got.verdict) return false;
  const v = JSON.parse(got.verdict);
  if (want.valid) return v.valid === true;
  const e = v.errors[0];
  const w = want.first;
  return !!e && e.code === w.code && e.path === w.path && (w.message === undefined || e.message.startsWith(w.message));
}

/** Every case as `[name, plan, request]`, given the calm plan text and request object. */
export function allCases(calmText, request) {
  const out = [];
  for (const [name, change, want] of PLAN_CASES) {
    const p = JSON.parse(calmText);
    change(p);
    out.push([`plan: ${name}`, p, request, want]);
  }
  for (const [name, change, want] of REQUEST_CASES) {
    const r = structuredClone(request);
    change(r);
    out.push([`request: ${name}`, JSON.parse(calmText), r, want]);
  }
  for (const [name, plan, req, want] of ARGUMENT_CASES) {
    out.push([name, plan === 'calm' ? JSON.parse(calmText) : plan, req === 'request' ? request : req, want]);
  }
  return out;
}

/**
 * The same JSON text as bytes in every form the packages read as UTF-8 (js/convert.js
 * argumentOf): `[name, value]` for a Node Buffer (where there is one), a Uint8Array, an
 * ArrayBuffer, a view into the middle of a larger buffer, a DataView, an Int8Array, a
 * Uint8ClampedArray and a Uint8Array from another realm (vm).
 */
export function byteForms(text) {
  const bytes = new TextEncoder().encode(text);
  const middle = new ArrayBuffer(bytes.length + 10);
  new Uint8Array(middle).set(bytes, 5);
  const foreign = vm.runInNewContext(`new Uint8Array(${bytes.length})`);
  foreign.set(bytes);
  const forms = [
    ['Uint8Array', bytes],
    ['ArrayBuffer', bytes.slice().buffer],
    ['a Uint8Array view into a larger buffer', new Uint8Array(middle, 5, bytes.length)],
    ['DataView', new DataView(middle, 5, bytes.length)],
    ['Int8Array', new Int8Array(bytes.slice().buffer)],
    ['Uint8ClampedArray', new Uint8ClampedArray(bytes.slice().buffer)],
    ['a Uint8Array from another realm', foreign],
  ];
  if (typeof Buffer === 'function') forms.unshift(['Buffer', Buffer.from(text)]);
  return forms;
}

/** Bytes that are not UTF-8: the calm plan's text with 0xFF in its name, and a request cut short by
 * one (`{` then 0xFF). */
export function notUtf8(calmText) {
  const bytes = new TextEncoder().encode(calmText);
  const at = calmText.indexOf('Calm') + 1;
  const plan = new Uint8Array(bytes.length + 1);
  plan.set(bytes.subarray(0, at));
  plan[at] = 0xff;
  plan.set(bytes.subarray(at), at + 1);
  return { plan, request: new Uint8Array([0x7b, 0xff]) };
}

/**
 * The calm plan with `history`, an array of 100 objects (copies of its blocks), and, when
 * `cyclic`, a last member `self` that refers back to the plan: the worst place for a cycle, after
 * everything else (issue 27 item 4: the converter used to unroll it to MAX_DEPTH, 5 s).
 */
export function hundredPlan(calmText, cyclic) {
  const plan = JSON.parse(calmText);
  const blocks = plan.routine.blocks;
  plan.history = Array.from({ length: 100 }, (_, i) => ({ ...structuredClone(blocks[i % blocks.length]), day: i }));
  if (cyclic) plan.self = plan;
  return plan;
}

/**
 * Nanoseconds per call of `convertCyclic()` and of `convertAcyclic()`, measured side by side:
 * `rounds` rounds, each timing `n` calls of one then `n` of the other, after `warmup` such rounds.
 * `{cyclic, acyclic, ratio}`: the medians of each, and the median of the rounds' ratios.
 */
export function sideBySide(convertCyclic, convertAcyclic, { rounds = 21, n = 50, warmup = 20 } = {}) {
  const time = (f) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    return Number(process.hrtime.bigint() - t0) / n;
  };
  // until both are compiled by the optimising tier: the first rounds of the cyclic one measure
  // about 2x before its walk is (a fresh process, Node 20)
  for (let w = 0; w < warmup; w++) {
    time(convertCyclic);
    time(convertAcyclic);
  }
  const c = [];
  const a = [];
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    c.push(time(convertCyclic));
    a.push(time(convertAcyclic));
    ratios.push(c[r] / a[r]);
  }
  // The median of each round's ratio: a burst of load from another process (it doubles a
  // round's time on a shared machine) moves a few rounds, not the median.
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  return { cyclic: median(c), acyclic: median(a), ratio: median(ratios) };
}

/** `toJsonText` of a converter over a package's native side (`makeConverter` and its exports),
 * with only what a conversion needs: to time a conversion alone. */
export function conversionOnly(makeConverter, native) {
  const needs = ['maxDepth', 'renderPath', 'floatText', 'faultText', 'textFaultText', 'checkNames'];
  return makeConverter(Object.fromEntries(needs.map((k) => [k, native[k]]))).toJsonText;
}
