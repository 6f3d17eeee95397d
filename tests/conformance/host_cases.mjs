// Host-object conformance cases (issue 12, item 4): JavaScript values that are not plain JSON data,
// each put in a realistic place of the bundled example (examples/calm-weekday.plan.json and its
// request), so that verdict messages matter. host_exec.mjs runs them through a package's
// validatePlan in Node or in Chromium; host_cases.py holds the Python equivalents under the same
// ids; host_conformance.py compares every surface and checks the expectations below.
//
// This module has no imports (it runs in Node and in a browser page). A few cases at the end are
// Python's own host values (noJs: why JS has no such value); they are checked against their
// expectation only. Each case:
//   id        stable id (host_cases.py uses the same ones)
//   where     the place in the plan or request
//   what      what the case is about
//   build(h)  -> {plan, request[, setup, teardown]}: the values handed to validatePlan(plan, request);
//             setup/teardown run around the call (e.g. defining BigInt.prototype.toJSON)
//   core(h)   optional -> {plan, request}: JSON *text* of the value the surface must see; the verdict
//             must then be byte-identical to the core's own (`validate --lines`) on that text
//   expect    what every surface must give (plain data):
//             {verdict: {valid, errors: [[code, path, substring?]], checks: 'json'|'all', noCodes}}
//             {error: {class, message, path, argument, kind}}  (message exact; kind: the core's
//             FaultKind name, which picks the Python class: see PYTHON_CLASS in host_conformance.py)
//   noPython  the reason the case has no Python equivalent (else host_cases.py must have one)
//   noJs      instead of build: the reason a Python-only case has no JavaScript value
//   pythonMessage  only where the core's text names the host's own type in the host's words
//             (FaultKind::Unsupported detail): the message Python must give instead.
//
// h (the harness, host_exec.mjs) gives: h.plan(), h.request() (fresh copies of the example);
// h.withPlan(edit), h.withRequest(edit), h.withBoth(edit) ({plan, request} of fresh copies, one or
// both edited in place by edit); h.example() and h.planText, h.requestText (the example's text);
// h.text(pair, {placeholder: literal}) and h.planTextWith(edit) (a pair as compact JSON text, any
// "placeholder" string written as the number literal, e.g. 9007199254740992.0); h.json(value,
// literals); h.Buffer (Node's Buffer; in Chromium the bundlers' Buffer shape, host_chromium.mjs);
// h.foreign (another realm's globals: Map, Number, JSON, Object, Uint8Array; vm.runInNewContext in
// Node, an iframe in Chromium); h.nest(n, leaf) (n nested arrays around leaf: nest(2, 0) is [[0]]).

export const BLOCK0 = '$.routine.blocks[0]';
export const MAX_DEPTH = 512;
export const PAYLOAD_BYTES = 262144;

const typeError = (argument, path, kind, message) => ({ error: { class: 'TypeError', argument, path, kind, message } });
/**
 * The core's host-fault message (core/src/host.rs, one grammar for every surface):
 * `<argument> at <path> <what>, which JSON cannot hold`, then ` (<why>)` when `why` is given.
 * Also the grammar of js/host-cases.mjs (the JS packages' unit tests).
 */
export const hostFault = (argument, path, what, why) =>
  `${argument} at ${path} ${what}, which JSON cannot hold${why ? ` (${why})` : ''}`;
const cannot = (argument, path, what) => hostFault(argument, path, `is ${what}`);
const duration = (lit) => ({
  verdict: { valid: false, errors: [['duration', `${BLOCK0}.durationMin`, `durationMin is ${lit}; it must be`]], checks: 'all' },
});
const VALID = { verdict: { valid: true, errors: [], checks: 'all' } };
const jsonVerdict = (substring) => ({ verdict: { valid: false, errors: [['json', '$', substring]], checks: 'json' } });
const tooDeepMessage = (argument, path) =>
  `${argument} at ${path} is nested deeper than ${MAX_DEPTH} levels, which JSON cannot hold here`;

/** The example plan with blocks[0].durationMin set to `v`. */
function withDuration(h, v) {
  return h.withPlan((plan) => {
    plan.routine.blocks[0].durationMin = v;
  });
}

/** The example plan's text with blocks[0].durationMin written as `literal`. */
function durationText(h, literal) {
  return h.text(withDuration(h, '@N@'), { '@N@': literal });
}

/**
 * The example plan with a `notes` member (`prefix`, then padding) so that its compact JSON, with
 * blocks[0].durationMin written as `literal` (the core's form), is exactly `bytes` long.
 */

/** Characters whose compact JSON form is an escape (2 or 6 bytes) or several UTF-8 bytes, and
 * some that are written raw (DEL, U+2028): §7 "only the escapes JSON requires". */
const ESCAPES = '"\\\b\f\n\r\t\u0001\u001f\u007f\u2028é😀'.repeat(1000);
function padded(h, v, literal, bytes, prefix = '') {
  const plan = h.plan();
  plan.routine.blocks[0].durationMin = '@N@';
  plan.notes = prefix;
  const size = new TextEncoder().encode(h.json(plan, { '@N@': literal })).length;
  plan.notes = prefix + 'x'.repeat(bytes - size);
  const text = h.json(plan, { '@N@': literal });
  plan.routine.blocks[0].durationMin = v;
  return { plan, text };
}

/** The example plan's compact text with routine.blocks 513 levels deep. */
const deepPlanText = (h) => h.planTextWith((plan) => {
  plan.routine.blocks = h.nest(MAX_DEPTH - 1, 0);
}).plan;

/** A name that is not ASCII, put into the plan text of the bytes cases (host_cases.py UTF8_NAME). */
export const UTF8_NAME = 'Café ☕ weekday';

/** The UTF-8 of `text`, a Uint8Array. */
const utf8 = (text) => new TextEncoder().encode(text);

/** `bytes` copied into the middle of a larger ArrayBuffer, as `view(buffer, offset, length)`. */
function inMiddle(bytes, view) {
  const buffer = new ArrayBuffer(bytes.length + 16);
  new Uint8Array(buffer).set(bytes, 7);
  return view(buffer, 7, bytes.length);
}

/** `[0]` repeated n times. */
const zeros = (n) => '[0]'.repeat(n);

export const CASES = [
  // ---- numbers (validator.md §7: an integral JS number within ±(2^53−1) is an integer; any other
  // finite number is written in the core's float form, momentum_plan::float_text)
  {
    id: 'num-2pow53',
    where: `${BLOCK0}.durationMin`,
    what: '2**53 is integral but beyond 2^53−1: written 9007199254740992.0, never 9.007199254740992e+15',
    build: (h) => withDuration(h, 2 ** 53),
    core: (h) => durationText(h, '9007199254740992.0'),
    expect: duration('9007199254740992.0'),
  },
  {
    id: 'num-neg2pow53',
    where: `${BLOCK0}.durationMin`,
    what: '−2**53: written -9007199254740992.0',
    build: (h) => withDuration(h, -(2 ** 53)),
    core: (h) => durationText(h, '-9007199254740992.0'),
    expect: duration('-9007199254740992.0'),
  },
  {
    id: 'num-maxsafe',
    where: `${BLOCK0}.durationMin`,
    what: '2**53−1 is still an integer: written 9007199254740991',
    build: (h) => withDuration(h, 2 ** 53 - 1),
    core: (h) => durationText(h, '9007199254740991'),
    expect: {
      verdict: {
        valid: false,
        errors: [['duration', `${BLOCK0}.durationMin`, 'durationMin is 9007199254740991; it must be'], ['commitment', BLOCK0]],
        checks: 'all',
      },
    },
  },
  {
    id: 'num-1e20',
    where: `${BLOCK0}.durationMin`,
    what: '1e20 (JS writes 100000000000000000000): the core form 1e+20',
    build: (h) => withDuration(h, 1e20),
    core: (h) => durationText(h, '1e+20'),
    expect: duration('1e+20'),
  },
  {
    id: 'num-1e21',
    where: `${BLOCK0}.durationMin`,
    what: '1e21 (JS writes 1e+21 too): 1e+21',
    build: (h) => withDuration(h, 1e21),
    core: (h) => durationText(h, '1e+21'),
    expect: duration('1e+21'),
  },
  {
    id: 'num-neg0',
    where: `${BLOCK0}.durationMin`,
    what: '−0 is the integer 0 (as JSON.stringify writes it), so the message says 0',
    build: (h) => withDuration(h, -0),
    core: (h) => durationText(h, '0'),
    expect: duration('0'),
  },
  {
    id: 'num-1e-6',
    where: `${BLOCK0}.durationMin`,
    what: '1e-6 (JS writes 0.000001, the core 1e-6): the core form',
    build: (h) => withDuration(h, 1e-6),
    core: (h) => durationText(h, '1e-6'),
    expect: duration('1e-6'),
  },
  {
    id: 'num-30.5',
    where: `${BLOCK0}.durationMin`,
    what: 'a plain fraction, 30.5',
    build: (h) => withDuration(h, 30.5),
    core: (h) => durationText(h, '30.5'),
    expect: duration('30.5'),
  },
  {
    id: 'num-2pow53-request',
    where: '$.requestVersion (request and the plan\'s echo)',
    what: 'a big integral number in the request and its echo: equal, so valid',
    build: (h) => h.withBoth((plan, request) => {
      plan.request.requestVersion = 2 ** 53;
      request.requestVersion = 2 ** 53;
    }),
    core: (h) => h.text(h.withBoth((plan, request) => {
      plan.request.requestVersion = '@N@';
      request.requestVersion = '@N@';
    }), { '@N@': '9007199254740992.0' }),
    expect: VALID,
  },
  {
    id: 'size-limit-2pow53',
    where: '$ (size), with 2**53 at durationMin',
    what: 'exactly 262,144 bytes when 2**53 is written 9007199254740992.0: no size error',
    build: (h) => ({ plan: padded(h, 2 ** 53, '9007199254740992.0', PAYLOAD_BYTES).plan, request: h.request() }),
    core: (h) => ({ plan: padded(h, 2 ** 53, '9007199254740992.0', PAYLOAD_BYTES).text, request: h.requestText }),
    expect: { verdict: { valid: false, errors: [['duration', `${BLOCK0}.durationMin`, '9007199254740992.0']], checks: 'all', noCodes: ['size'] } },
  },
  {
    id: 'size-over-2pow53',
    where: '$ (size), with 2**53 at durationMin',
    what: 'one byte more: a size error',
    build: (h) => ({ plan: padded(h, 2 ** 53, '9007199254740992.0', PAYLOAD_BYTES + 1).plan, request: h.request() }),
    core: (h) => ({ plan: padded(h, 2 ** 53, '9007199254740992.0', PAYLOAD_BYTES + 1).text, request: h.requestText }),
    expect: { verdict: { valid: false, errors: [['size', '$', '262145'], ['duration', `${BLOCK0}.durationMin`, '9007199254740992.0']], checks: 'all' } },
  },
  {
    id: 'size-limit-escapes',
    where: '$ (size), with $.notes full of escapes and multi-byte characters',
    what: 'exactly 262,144 bytes counted as compact JSON (\\", \\n, \\u0001 escaped; DEL, U+2028, é, 😀 raw UTF-8)',
    build: (h) => ({ plan: padded(h, 30, '30', PAYLOAD_BYTES, ESCAPES).plan, request: h.request() }),
    core: (h) => ({ plan: padded(h, 30, '30', PAYLOAD_BYTES, ESCAPES).text, request: h.requestText }),
    expect: VALID,
  },
  {
    id: 'size-over-escapes',
    where: '$ (size), with $.notes full of escapes and multi-byte characters',
    what: 'one byte more: a size error',
    build: (h) => ({ plan: padded(h, 30, '30', PAYLOAD_BYTES + 1, ESCAPES).plan, request: h.request() }),
    core: (h) => ({ plan: padded(h, 30, '30', PAYLOAD_BYTES + 1, ESCAPES).text, request: h.requestText }),
    expect: { verdict: { valid: false, errors: [['size', '$', '262145']], checks: 'all' } },
  },
  {
    id: 'size-limit-1e20',
    where: '$ (size), with 1e20 at durationMin',
    what: 'exactly 262,144 bytes when 1e20 is written 1e+20 (not 100000000000000000000): no size error',
    build: (h) => ({ plan: padded(h, 1e20, '1e+20', PAYLOAD_BYTES).plan, request: h.request() }),
    core: (h) => ({ plan: padded(h, 1e20, '1e+20', PAYLOAD_BYTES).text, request: h.requestText }),
    expect: { verdict: { valid: false, errors: [['duration', `${BLOCK0}.durationMin`, '1e+20']], checks: 'all', noCodes: ['size'] } },
  },

  // ---- objects JSON.stringify cannot see into: refused, from any realm
  {
    id: 'map-weekdays',
    where: '$.routine.weekdays',
    what: 'a Map where an object is expected',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = new Map([['mon', plan.routine.blocks]]);
    }),
    expect: typeError('plan', '$.routine.weekdays', 'unsupported', cannot('plan', '$.routine.weekdays', 'a Map')),
    noPython: 'Python has no Map: its mapping is dict, a JSON object (a Python set is the case set-days)',
  },
  {
    id: 'map-plan',
    where: '$ (the plan itself)',
    what: 'the whole plan as a Map (new Map(Object.entries(plan)))',
    build: (h) => ({ plan: new Map(Object.entries(h.plan())), request: h.request() }),
    expect: typeError('plan', '$', 'unsupported', cannot('plan', '$', 'a Map')),
    noPython: 'Python has no Map: its mapping is dict, a JSON object',
  },
  {
    id: 'map-cross-realm',
    where: '$.routine.weekdays',
    what: 'a Map from another realm (vm context / iframe): instanceof Map is false',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = new h.foreign.Map([['mon', plan.routine.blocks]]);
    }),
    expect: typeError('plan', '$.routine.weekdays', 'unsupported', cannot('plan', '$.routine.weekdays', 'a Map')),
    noPython: 'Python has no realms and no Map',
  },
  {
    id: 'map-proxy',
    where: '$.routine.weekdays',
    what: 'a Proxy around a Map',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = new Proxy(new Map(), {});
    }),
    expect: typeError('plan', '$.routine.weekdays', 'unsupported', cannot('plan', '$.routine.weekdays', 'a Map')),
    noPython: 'Python has no Proxy and no Map',
  },
  {
    id: 'map-subclass',
    where: '$.routine.weekdays',
    what: 'an instance of class Weekdays extends Map',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = new (class Weekdays extends Map {})([['mon', plan.routine.blocks]]);
    }),
    expect: typeError('plan', '$.routine.weekdays', 'unsupported', cannot('plan', '$.routine.weekdays', 'a Map')),
    noPython: 'Python has no Map',
  },
  {
    id: 'map-subclass-tag',
    where: '$.routine.weekdays',
    what: 'a Map subclass with its own Symbol.toStringTag (\'Weekdays\'): still a Map, never judged as {}',
    build: (h) => h.withPlan((plan) => {
      class Weekdays extends Map {
        get [Symbol.toStringTag]() {
          return 'Weekdays';
        }
      }
      plan.routine.weekdays = new Weekdays([['mon', plan.routine.blocks]]);
    }),
    expect: { error: { class: 'TypeError', argument: 'plan', path: '$.routine.weekdays', kind: 'unsupported' } },
    noPython: 'Python has no Map',
  },
  {
    id: 'set-days',
    where: '$.commitments[0].days (request)',
    what: 'a commitment\'s days as a Set (the plan\'s echo is plain)',
    build: (h) => h.withRequest((request) => {
      request.commitments[0].days = new Set(request.commitments[0].days);
    }),
    expect: typeError('request', '$.commitments[0].days', 'unsupported', cannot('request', '$.commitments[0].days', 'a Set')),
    pythonMessage: cannot('request', '$.commitments[0].days', 'a set'),
  },

  // ---- boxed values, Date, toJSON, BigInt (as JSON.stringify does)
  {
    id: 'boxed',
    where: `${BLOCK0}: durationMin, activity, essential`,
    what: 'new Number(30), new String("Walk"), Object(true): unboxed, so the example is valid',
    build: (h) => h.withPlan((plan) => {
      const b = plan.routine.blocks[0];
      b.durationMin = new Number(30);
      b.activity = new String('Walk');
      b.essential = Object(true);
    }),
    core: (h) => h.example(),
    expect: VALID,
  },
  {
    id: 'boxed-cross-realm',
    where: '$.routine.blocks[1].durationMin',
    what: 'a Number boxed in another realm (45): unboxed',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[1].durationMin = new h.foreign.Number(45);
    }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no realms and no boxed values',
  },
  {
    id: 'date-startdate',
    where: '$.startDate (request and the plan\'s echo)',
    what: 'a Date: its toJSON ISO text, 2026-10-05T00:00:00.000Z, is what is judged',
    build: (h) => h.withBoth((plan, request) => {
      plan.request.startDate = new Date(Date.UTC(2026, 9, 5));
      request.startDate = new Date(Date.UTC(2026, 9, 5));
    }),
    core: (h) => h.text(h.withBoth((plan, request) => {
      plan.request.startDate = '2026-10-05T00:00:00.000Z';
      request.startDate = '2026-10-05T00:00:00.000Z';
    })),
    expect: VALID, // startDate's form is not checked; the echo equals the request
    noPython: 'Python has no toJSON protocol: a datetime has no JSON form (json.dumps refuses it too)',
  },
  {
    id: 'tojson-undefined-member',
    where: '$.tagline',
    what: 'a member whose toJSON returns undefined is left out (JSON.stringify): tagline is missing',
    build: (h) => h.withPlan((plan) => {
      plan.tagline = { toJSON: () => undefined };
    }),
    core: (h) => h.planTextWith((plan) => {
      delete plan.tagline;
    }),
    expect: { verdict: { valid: false, errors: [['required', '$.tagline']], checks: 'all' } },
  },
  {
    id: 'tojson-undefined-element',
    where: '$.routine.blocks[2]',
    what: 'an array element whose toJSON returns undefined: a hole (JSON.stringify would write null)',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[2] = { toJSON: () => undefined };
    }),
    expect: typeError('plan', '$.routine.blocks[2]', 'hole',
      'plan at $.routine.blocks[2] is undefined (or a hole) inside an array, which JSON cannot hold'),
    noPython: 'Python has no toJSON and no undefined; None is null',
  },
  {
    id: 'tojson-key',
    where: `${BLOCK0}.durationMin`,
    what: 'toJSON gets the member name as its key: returns 30 only for "durationMin"',
    build: (h) => withDuration(h, { toJSON: (key) => (key === 'durationMin' ? 30 : -1) }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no toJSON protocol',
  },
  {
    id: 'bigint',
    where: `${BLOCK0}.durationMin`,
    what: '30n without BigInt.prototype.toJSON',
    build: (h) => withDuration(h, 30n),
    expect: typeError('plan', `${BLOCK0}.durationMin`, 'unsupported', cannot('plan', `${BLOCK0}.durationMin`, 'a BigInt (30n)')),
    noPython: 'a Python int is exact at any size and is JSON (the JS BigInt has no JSON form)',
  },
  {
    id: 'bigint-boxed',
    where: `${BLOCK0}.durationMin`,
    what: 'Object(30n): unboxed to the BigInt, then refused',
    build: (h) => withDuration(h, Object(30n)),
    expect: typeError('plan', `${BLOCK0}.durationMin`, 'unsupported', cannot('plan', `${BLOCK0}.durationMin`, 'a BigInt (30n)')),
    noPython: 'Python has no boxed values and no BigInt',
  },
  {
    id: 'bigint-tojson',
    where: `${BLOCK0}.durationMin`,
    what: '30n with the common BigInt.prototype.toJSON = function () { return this.toString() }: the string "30"',
    build: (h) => ({
      ...withDuration(h, 30n),
      setup: () => {
        // eslint-disable-next-line no-extend-native
        BigInt.prototype.toJSON = function () {
          return this.toString();
        };
      },
      teardown: () => {
        delete BigInt.prototype.toJSON;
      },
    }),
    core: (h) => {
      const { plan } = withDuration(h, '30');
      return { plan: h.json(plan), request: h.requestText };
    },
    expect: duration('"30"'),
  },

  // ---- lone surrogates (D12): in a plan the `json` verdict, in a request an error
  {
    id: 'surrogate-value',
    where: '$.name',
    what: 'a lone high surrogate in the plan\'s name',
    build: (h) => h.withPlan((plan) => {
      plan.name = 'Calm \uD83D weekday';
    }),
    expect: jsonVerdict('The plan is not valid JSON: a lone surrogate (U+D83D) in the string at $.name is not a character.'),
  },
  {
    id: 'surrogate-value-low',
    where: '$.routine.blocks[1].activity',
    what: 'a lone low surrogate in an activity',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[1].activity = 'Break\uDC00fast';
    }),
    expect: jsonVerdict('a lone surrogate (U+DC00) in the string at $.routine.blocks[1].activity is not a character'),
  },
  {
    id: 'surrogate-key',
    where: '$.routine.weekdays (a member name)',
    what: 'a weekday key holding a lone surrogate',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = { ['mo\uD800n']: plan.routine.blocks };
    }),
    expect: jsonVerdict('a lone surrogate (U+D800) in a member name at $.routine.weekdays['),
  },
  {
    id: 'surrogate-text',
    where: '$.name, in plan text',
    what: 'plan text (a string) holding a raw lone surrogate: line and column in characters',
    build: (h) => ({ plan: h.planText.replace('Calm weekday', 'Calm \uD83D weekday'), request: h.request() }),
    expect: jsonVerdict('The plan is not valid JSON: a lone surrogate (U+D83D) is not a character at line 6, column 17.'),
  },
  {
    id: 'surrogate-text-after-emoji',
    where: '$.name, in plan text',
    what: 'an emoji (a surrogate pair: one character) before the lone surrogate: column 19, not 20',
    build: (h) => ({ plan: h.planText.replace('Calm weekday', '😀 Calm \uD83D weekday'), request: h.request() }),
    expect: jsonVerdict('The plan is not valid JSON: a lone surrogate (U+D83D) is not a character at line 6, column 19.'),
  },
  {
    id: 'surrogate-text-escape',
    where: '$.name, in plan text',
    what: 'plan text with the escape \\ud83d (well-formed JS text): the core parser\'s json verdict',
    build: (h) => ({ plan: h.planText.replace('Calm weekday', 'Calm \\ud83d weekday'), request: h.request() }),
    core: (h) => ({ plan: h.planText.replace('Calm weekday', 'Calm \\ud83d weekday'), request: h.requestText }),
    expect: jsonVerdict('lone surrogate'),
  },
  {
    id: 'surrogate-request-value',
    where: '$.goal (request)',
    what: 'a lone surrogate in the request: an error, not a verdict',
    build: (h) => h.withRequest((request) => {
      request.goal = 'A calmer \uDE00 weekday';
    }),
    expect: typeError('request', '$.goal', 'loneSurrogate',
      'request at $.goal holds a lone surrogate (U+DE00), which JSON cannot hold (it is not a character)'),
  },
  {
    id: 'surrogate-request-key',
    where: '$.commitments[0] (request, a member name)',
    what: 'a member name with a lone surrogate in the request',
    build: (h) => h.withRequest((request) => {
      request.commitments[0]['la\uDBFFbel'] = 'Work';
    }),
    expect: { error: { class: 'TypeError', argument: 'request', kind: 'loneSurrogateInName' } },
  },
  {
    id: 'surrogate-request-text',
    where: '$.goal, in request text',
    what: 'request text holding a raw lone surrogate: SyntaxError (Python ValueError)',
    build: (h) => ({ plan: h.plan(), request: h.requestText.replace('A calmer', 'A \uD83D calmer') }),
    expect: { error: { class: 'SyntaxError', argument: 'request', path: '$',
      message: 'request is not JSON: a lone surrogate (U+D83D) is not a character at line 5, column 14' } },
  },

  // ---- cycles and shared objects
  {
    id: 'cycle-plan',
    where: '$.request.plan',
    what: 'the echoed request links back to the plan',
    build: (h) => h.withPlan((plan) => {
      plan.request.plan = plan;
    }),
    expect: typeError('plan', '$.request.plan', 'cycle', 'plan at $.request.plan refers back to $ (a cycle), which JSON cannot hold'),
  },
  {
    id: 'cycle-array',
    where: '$.routine.blocks[5]',
    what: 'the block list contains itself',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks.push(plan.routine.blocks);
    }),
    expect: typeError('plan', '$.routine.blocks[5]', 'cycle',
      'plan at $.routine.blocks[5] refers back to $.routine.blocks (a cycle), which JSON cannot hold'),
  },
  {
    id: 'cycle-request',
    where: '$.commitments[0].request (request)',
    what: 'a commitment links back to its request',
    build: (h) => h.withRequest((request) => {
      request.commitments[0].request = request;
    }),
    expect: typeError('request', '$.commitments[0].request', 'cycle',
      'request at $.commitments[0].request refers back to $ (a cycle), which JSON cannot hold'),
  },
  {
    id: 'shared-not-cycle',
    where: '$.routine.weekdays.mon',
    what: 'the same block list twice (blocks and weekdays.mon) is not a cycle',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = { mon: plan.routine.blocks };
    }),
    core: (h) => h.planTextWith((plan) => {
      plan.routine.weekdays = { mon: plan.routine.blocks };
    }),
    expect: VALID,
  },

  // ---- depth (§7: the plan object is level 1; 512 levels parse, 513 are `json`)
  {
    id: 'depth-plan-512',
    where: '$.routine.blocks (510 nested arrays, the outermost being blocks: level 512)',
    what: 'a plan 512 levels deep is judged',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks = h.nest(MAX_DEPTH - 2, 0);
    }),
    core: (h) => h.planTextWith((plan) => {
      plan.routine.blocks = h.nest(MAX_DEPTH - 2, 0);
    }),
    expect: { verdict: { valid: false, errors: [['type', '$.routine.blocks[0]']], checks: 'all' } },
  },
  {
    id: 'depth-plan-513',
    where: '$.routine.blocks (511 nested arrays: level 513)',
    what: 'a plan 513 levels deep is the json verdict',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks = h.nest(MAX_DEPTH - 1, 0);
    }),
    expect: jsonVerdict('The plan is not valid JSON: nesting deeper than 512 levels is not allowed.'),
  },
  {
    id: 'depth-plan-text-513',
    where: '$.routine.blocks, in plan text',
    what: 'plan text 513 levels deep: the parser\'s json verdict',
    build: (h) => ({ plan: deepPlanText(h), request: h.request() }),
    core: (h) => ({ plan: deepPlanText(h), request: h.requestText }),
    expect: jsonVerdict('nesting deeper than 512 levels is not allowed at line 1, column'),
  },
  {
    id: 'depth-plan-100k',
    where: '$.routine.blocks (100,000 nested arrays)',
    what: 'far too deep: the json verdict, never a stack overflow',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks = h.nest(100000, 0);
    }),
    expect: jsonVerdict('The plan is not valid JSON: nesting deeper than 512 levels is not allowed.'),
  },
  {
    id: 'depth-request-512',
    where: '$.commitments (request: 511 nested arrays, the outermost being commitments: level 512)',
    what: 'a request 512 levels deep is judged (its echo in the plan is the example\'s: request differs)',
    build: (h) => h.withRequest((request) => {
      request.commitments = h.nest(MAX_DEPTH - 1, 0);
    }),
    core: (h) => h.text(h.withRequest((request) => {
      request.commitments = h.nest(MAX_DEPTH - 1, 0);
    })),
    expect: { verdict: { valid: false, errors: [['requestInvalid', '$.request.commitments[0]'], ['request', '$.request']], checks: 'all' } },
  },
  {
    id: 'depth-request-513',
    where: '$.commitments (request: 512 nested arrays: level 513)',
    what: 'a request 513 levels deep is an error (TypeError; Python ValueError)',
    build: (h) => h.withRequest((request) => {
      request.commitments = h.nest(MAX_DEPTH, 0);
    }),
    expect: typeError('request', `$.commitments${zeros(MAX_DEPTH - 1)}`, 'tooDeep',
      tooDeepMessage('request', `$.commitments${zeros(MAX_DEPTH - 1)}`)),
  },
  {
    id: 'depth-request-100k',
    where: '$.commitments (request: 100,000 nested arrays)',
    what: 'a request far too deep: the same error as at 513 levels, never a stack overflow',
    build: (h) => h.withRequest((request) => {
      request.commitments = h.nest(100000, 0);
    }),
    expect: typeError('request', `$.commitments${zeros(MAX_DEPTH - 1)}`, 'tooDeep',
      tooDeepMessage('request', `$.commitments${zeros(MAX_DEPTH - 1)}`)),
  },
  {
    id: 'depth-request-text-513',
    where: '$.commitments, in request text',
    what: 'request text 513 levels deep: SyntaxError (Python ValueError)',
    build: (h) => ({ plan: h.plan(), request: h.text(h.withRequest((request) => {
      request.commitments = h.nest(MAX_DEPTH, 0);
    })).request }),
    expect: { error: { class: 'SyntaxError', argument: 'request', path: '$' } },
  },

  // ---- holes and undefined
  {
    id: 'hole',
    where: '$.routine.blocks[1]',
    what: 'a hole in the block list ([b0, , b2, …])',
    build: (h) => h.withPlan((plan) => {
      delete plan.routine.blocks[1];
    }),
    expect: typeError('plan', '$.routine.blocks[1]', 'hole',
      'plan at $.routine.blocks[1] is undefined (or a hole) inside an array, which JSON cannot hold'),
    noPython: 'Python lists have no holes; None is null',
  },
  {
    id: 'undefined-element',
    where: '$.routine.blocks[1]',
    what: 'undefined as a block',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[1] = undefined;
    }),
    expect: typeError('plan', '$.routine.blocks[1]', 'hole',
      'plan at $.routine.blocks[1] is undefined (or a hole) inside an array, which JSON cannot hold'),
    noPython: 'Python has no undefined; None is null',
  },
  {
    id: 'undefined-member',
    where: '$.tagline',
    what: 'a member that is undefined is left out: tagline is missing',
    build: (h) => h.withPlan((plan) => {
      plan.tagline = undefined;
    }),
    core: (h) => h.planTextWith((plan) => {
      delete plan.tagline;
    }),
    expect: { verdict: { valid: false, errors: [['required', '$.tagline']], checks: 'all' } },
  },
  {
    id: 'undefined-plan',
    where: '$ (the plan argument)',
    what: 'validatePlan(undefined, request)',
    build: (h) => ({ plan: undefined, request: h.request() }),
    expect: typeError('plan', '$', 'undefined', 'plan at $ is undefined, which JSON cannot hold'),
    noPython: 'Python has no undefined; None is null (a type verdict)',
  },

  // ---- getters, classes, Proxies
  {
    id: 'getter',
    where: `${BLOCK0}.durationMin`,
    what: 'an own enumerable getter is read',
    build: (h) => h.withPlan((plan) => {
      const b = plan.routine.blocks[0];
      delete b.durationMin;
      plan.routine.blocks[0] = { start: b.start, get durationMin() { return 30; }, activity: b.activity, category: b.category, essential: b.essential };
    }),
    core: (h) => h.example(),
    expect: VALID,
  },
  {
    id: 'getter-changes',
    where: `${BLOCK0}.durationMin`,
    what: 'a getter that answers 30, then NaN. Known limit of the fast path (js/convert.js): a plain object is read twice, once to check it and once by JSON.stringify, so a getter whose answer changes between reads is judged by its second answer, which JSON.stringify writes as null. Every JS surface gives the same verdict',
    build: (h) => h.withPlan((plan) => {
      let reads = 0;
      Object.defineProperty(plan.routine.blocks[0], 'durationMin', {
        enumerable: true,
        get: () => (reads++ === 0 ? 30 : NaN),
      });
    }),
    core: (h) => durationText(h, 'null'),
    expect: duration('null'),
    noPython: 'a dict has no getters',
  },
  {
    id: 'getter-inherited',
    where: `${BLOCK0}.durationMin`,
    what: 'a class instance whose durationMin is a prototype getter: not an own member, so missing',
    build: (h) => {
      class Block {
        constructor(b) {
          this.start = b.start;
          this.activity = b.activity;
          this.category = b.category;
          this.essential = b.essential;
        }
        get durationMin() {
          return 30;
        }
      }
      return h.withPlan((plan) => {
        plan.routine.blocks[0] = new Block(plan.routine.blocks[0]);
      });
    },
    core: (h) => h.planTextWith((plan) => {
      const b = plan.routine.blocks[0];
      plan.routine.blocks[0] = { start: b.start, activity: b.activity, category: b.category, essential: b.essential };
    }),
    expect: { verdict: { valid: false, errors: [['duration', `${BLOCK0}.durationMin`]], checks: 'all' } },
    noPython: 'Python objects are not dicts (refused); a dict has no getters',
  },
  {
    id: 'getter-throws',
    where: `${BLOCK0}.durationMin`,
    what: 'a getter that throws: the caller\'s own error passes through unchanged',
    build: (h) => h.withPlan((plan) => {
      Object.defineProperty(plan.routine.blocks[0], 'durationMin', {
        enumerable: true,
        get() {
          throw new RangeError('clock not set');
        },
      });
    }),
    expect: { error: { class: 'RangeError', message: 'clock not set', path: null, argument: null } },
    noPython: 'a dict has no getters',
  },
  {
    id: 'proxy-transparent',
    where: '$ (the plan)',
    what: 'the plan behind an empty Proxy',
    build: (h) => ({ plan: new Proxy(h.plan(), {}), request: h.request() }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no Proxy',
  },
  {
    id: 'proxy-get-trap',
    where: `${BLOCK0}.durationMin`,
    what: 'a block Proxy whose get trap answers 2**53 for durationMin',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[0] = new Proxy(plan.routine.blocks[0], {
        get: (t, k, r) => (k === 'durationMin' ? 2 ** 53 : Reflect.get(t, k, r)),
      });
    }),
    core: (h) => durationText(h, '9007199254740992.0'),
    expect: duration('9007199254740992.0'),
    noPython: 'Python has no Proxy',
  },
  {
    id: 'proxy-ownkeys',
    where: `${BLOCK0}.essential`,
    what: 'a block Proxy whose ownKeys trap hides essential',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[0] = new Proxy(plan.routine.blocks[0], {
        ownKeys: (t) => Reflect.ownKeys(t).filter((k) => k !== 'essential'),
      });
    }),
    core: (h) => h.planTextWith((plan) => {
      delete plan.routine.blocks[0].essential;
    }),
    expect: { verdict: { valid: false, errors: [['essential', `${BLOCK0}.essential`]], checks: 'all' } },
    noPython: 'Python has no Proxy',
  },
  {
    id: 'proxy-revoked',
    where: '$.routine',
    what: 'a revoked Proxy: the engine\'s own TypeError passes through (no .path)',
    build: (h) => h.withPlan((plan) => {
      const { proxy, revoke } = Proxy.revocable(plan.routine, {});
      revoke();
      plan.routine = proxy;
    }),
    expect: { error: { class: 'TypeError', path: null, argument: null } },
    noPython: 'Python has no Proxy',
  },
  {
    id: 'realm-plain',
    where: '$ (the plan)',
    what: 'the plan parsed by another realm\'s JSON.parse (foreign Object.prototype)',
    build: (h) => ({ plan: h.foreign.JSON.parse(h.planText), request: h.foreign.JSON.parse(h.requestText) }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no realms',
  },
  {
    id: 'null-prototype',
    where: BLOCK0,
    what: 'a block made by Object.create(null): written like a plain object',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[0] = Object.assign(Object.create(null), plan.routine.blocks[0]);
    }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no prototypes (a dict is a dict)',
  },
  {
    id: 'typed-array',
    where: '$.routine.weekdays.mon',
    what: 'a Uint8Array where a block list is expected',
    build: (h) => h.withPlan((plan) => {
      plan.routine.weekdays = { mon: new Uint8Array([1, 2]) };
    }),
    expect: typeError('plan', '$.routine.weekdays.mon', 'unsupported', cannot('plan', '$.routine.weekdays.mon', 'a Uint8Array')),
    noPython: 'Python has no typed arrays (bytes is its own type, named in Python\'s words)',
  },
  {
    id: 'class-instance',
    where: BLOCK0,
    what: 'a class instance with own members: written like a plain object',
    build: (h) => {
      class Block {
        constructor(b) {
          Object.assign(this, b);
        }
      }
      return h.withPlan((plan) => {
        plan.routine.blocks[0] = new Block(plan.routine.blocks[0]);
      });
    },
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python objects are not dicts',
  },

  // ---- NaN and infinities
  {
    id: 'nan',
    where: `${BLOCK0}.durationMin`,
    what: 'NaN',
    build: (h) => withDuration(h, NaN),
    expect: typeError('plan', `${BLOCK0}.durationMin`, 'notFinite',
      `plan at ${BLOCK0}.durationMin is NaN, which JSON cannot hold (JSON has no NaN or Infinity)`),
  },
  {
    id: 'infinity',
    where: `${BLOCK0}.durationMin`,
    what: 'Infinity',
    build: (h) => withDuration(h, Infinity),
    expect: typeError('plan', `${BLOCK0}.durationMin`, 'notFinite',
      `plan at ${BLOCK0}.durationMin is Infinity, which JSON cannot hold (JSON has no NaN or Infinity)`),
  },
  {
    id: 'neg-infinity-request',
    where: '$.requestVersion (request)',
    what: '-Infinity in the request',
    build: (h) => h.withRequest((request) => {
      request.requestVersion = -Infinity;
    }),
    expect: typeError('request', '$.requestVersion', 'notFinite',
      'request at $.requestVersion is -Infinity, which JSON cannot hold (JSON has no NaN or Infinity)'),
  },

  // ---- functions and symbols
  {
    id: 'function',
    where: `${BLOCK0}.activity`,
    what: 'a function as a value (JSON.stringify would drop the member silently)',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[0].activity = function walk() {};
    }),
    expect: typeError('plan', `${BLOCK0}.activity`, 'unsupported', cannot('plan', `${BLOCK0}.activity`, 'a function (walk)')),
    pythonMessage: cannot('plan', `${BLOCK0}.activity`, 'a function (walk)'),
  },
  {
    id: 'symbol',
    where: `${BLOCK0}.activity`,
    what: 'a symbol as a value',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[0].activity = Symbol('walk');
    }),
    expect: typeError('plan', `${BLOCK0}.activity`, 'unsupported', cannot('plan', `${BLOCK0}.activity`, 'a symbol (Symbol(walk))')),
    noPython: 'Python has no symbols',
  },
  {
    id: 'symbol-key',
    where: BLOCK0,
    what: 'a symbol-keyed member is not written',
    build: (h) => h.withPlan((plan) => {
      plan.routine.blocks[0][Symbol('id')] = 1;
    }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no symbols (a non-str key is refused: nonStringName)',
  },

  // ---- arguments that are not objects
  {
    id: 'boxed-string-plan',
    where: '$ (the plan argument)',
    what: 'the plan text as new String(text): a string plan is JSON text (validator.md §3), boxed or not',
    build: (h) => ({ plan: new String(h.planText), request: h.request() }),
    core: (h) => h.example(),
    expect: VALID,
  },
  {
    id: 'boxed-string-request',
    where: '$ (the request argument)',
    what: 'the request text as new String(text): JSON text, as a plain string request is',
    build: (h) => ({ plan: h.plan(), request: new String(h.requestText) }),
    core: (h) => h.example(),
    expect: VALID,
  },
  {
    id: 'null-plan',
    where: '$ (the plan argument)',
    what: 'null as the plan: the type verdict',
    build: (h) => ({ plan: null, request: h.request() }),
    core: (h) => ({ plan: 'null', request: h.requestText }),
    expect: { verdict: { valid: false, errors: [['type', '$', 'The plan is null (null)']], checks: 'json' } },
  },
  {
    id: 'number-plan',
    where: '$ (the plan argument)',
    what: '2**53 as the plan: the type verdict quotes 9007199254740992.0',
    build: (h) => ({ plan: 2 ** 53, request: h.request() }),
    core: (h) => ({ plan: '9007199254740992.0', request: h.requestText }),
    expect: { verdict: { valid: false, errors: [['type', '$', 'a number (9007199254740992.0)']], checks: 'json' } },
  },
  {
    id: 'tojson-plan',
    where: '$ (the plan argument)',
    what: 'a plan object whose toJSON gives the plan: its result is judged',
    build: (h) => ({ plan: { toJSON: () => h.plan() }, request: h.request() }),
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no toJSON protocol',
  },
  {
    id: 'null-request',
    where: '$ (the request argument)',
    what: 'null as the request: read as {}, with its issues',
    build: (h) => ({ plan: h.plan(), request: null }),
    core: (h) => ({ plan: h.planText, request: 'null' }),
    expect: null,
  },
  {
    id: 'undefined-request',
    where: '$ (the request argument)',
    what: 'validatePlan(plan, undefined)',
    build: (h) => ({ plan: h.plan(), request: undefined }),
    expect: typeError('request', '$', 'undefined', 'request at $ is undefined, which JSON cannot hold'),
    noPython: 'Python has no undefined; None is null (case null-request)',
  },

  // ---- text arguments
  {
    id: 'request-text-not-json',
    where: '$ (request text)',
    what: 'request text cut short: SyntaxError (Python ValueError), path $',
    build: (h) => ({ plan: h.plan(), request: '{"requestId": "req-2026-10-05-calm-weekday",' }),
    expect: { error: { class: 'SyntaxError', argument: 'request', path: '$' } },
  },
  {
    id: 'plan-text-not-json',
    where: '$ (plan text)',
    what: 'plan text cut short: the json verdict',
    build: (h) => ({ plan: h.planText.slice(0, 200), request: h.request() }),
    core: (h) => ({ plan: h.planText.slice(0, 200), request: h.requestText }),
    expect: jsonVerdict('The plan is not valid JSON:'),
  },

  // ---- JSON text as UTF-8 bytes (validator.md §3, §7): read by the core as text, on every surface
  // where the type exists (issue 27 item 5); host_cases.py has bytes, bytearray and memoryview
  {
    id: 'bytes-utf8',
    where: '$ (both arguments)',
    what: 'plan and request as Uint8Arrays of their UTF-8 (Python bytes), the plan\'s name not ASCII: judged as that text',
    build: (h) => ({ plan: utf8(h.planText.replace('Calm weekday', UTF8_NAME)), request: utf8(h.requestText) }),
    core: (h) => ({ plan: h.planText.replace('Calm weekday', UTF8_NAME), request: h.requestText }),
    expect: VALID,
  },
  {
    id: 'bytearray-utf8',
    where: '$ (both arguments)',
    what: 'plan and request as ArrayBuffers of their UTF-8 (Python bytearray: the raw, mutable bytes)',
    build: (h) => ({ plan: utf8(h.planText.replace('Calm weekday', UTF8_NAME)).buffer, request: utf8(h.requestText).buffer }),
    core: (h) => ({ plan: h.planText.replace('Calm weekday', UTF8_NAME), request: h.requestText }),
    expect: VALID,
  },
  {
    id: 'memoryview-utf8',
    where: '$ (both arguments)',
    what: 'plan as a Uint8Array and request as a DataView, each a view into the middle of a larger buffer (Python memoryview)',
    build: (h) => ({
      plan: inMiddle(utf8(h.planText.replace('Calm weekday', UTF8_NAME)), (b, at, n) => new Uint8Array(b, at, n)),
      request: inMiddle(utf8(h.requestText), (b, at, n) => new DataView(b, at, n)),
    }),
    core: (h) => ({ plan: h.planText.replace('Calm weekday', UTF8_NAME), request: h.requestText }),
    expect: VALID,
  },
  {
    id: 'bytes-not-utf8',
    where: '$.name, in plan bytes',
    what: 'plan bytes with 0xFF in the name (C\\xffalm): the core\'s json verdict, as for any text that is not UTF-8',
    build: (h) => {
      const bytes = utf8(h.planText);
      const at = h.planText.indexOf('Calm') + 1; // ASCII before it: the byte offset
      const out = new Uint8Array(bytes.length + 1);
      out.set(bytes.subarray(0, at));
      out[at] = 0xff;
      out.set(bytes.subarray(at), at + 1);
      return { plan: out, request: h.request() };
    },
    expect: jsonVerdict('The plan is not valid JSON: the text is not valid UTF-8 at line 6, column 13.'),
  },
  {
    id: 'buffer-utf8',
    where: '$ (both arguments)',
    what: 'plan and request as Node Buffers: their bytes, never their toJSON ({type: "Buffer", data: [...]}). In Chromium, which has no Buffer, the bundlers\' Buffer (the npm buffer package: a Uint8Array subclass with the same toJSON)',
    build: (h) => ({ plan: h.Buffer.from(h.planText.replace('Calm weekday', UTF8_NAME)), request: h.Buffer.from(h.requestText) }),
    core: (h) => ({ plan: h.planText.replace('Calm weekday', UTF8_NAME), request: h.requestText }),
    expect: VALID,
    noPython: 'Python has no Buffer: its bytes are the case bytes-utf8',
  },
  {
    id: 'bytes-cross-realm',
    where: '$ (the plan argument)',
    what: 'the plan as a Uint8Array from another realm (vm context / iframe)',
    build: (h) => {
      const bytes = utf8(h.planText);
      const plan = new h.foreign.Uint8Array(bytes.length);
      plan.set(bytes);
      return { plan, request: h.request() };
    },
    core: (h) => h.example(),
    expect: VALID,
    noPython: 'Python has no realms',
  },
  {
    id: 'bytes-inside-plan',
    where: '$.notes',
    what: 'a Uint8Array inside the plan is no text: only a whole argument is (refused, as Python refuses bytes inside a dict)',
    build: (h) => h.withPlan((plan) => {
      plan.notes = utf8('"a note"');
    }),
    expect: typeError('plan', '$.notes', 'unsupported', cannot('plan', '$.notes', 'a Uint8Array')),
    noPython: 'not paired yet: Python refuses bytes inside a dict in its own words (a bytes object)',
  },
  {
    id: 'wide-typed-array-plan',
    where: '$ (the plan argument)',
    what: 'a Uint16Array is not bytes of text: refused as a value',
    build: (h) => ({ plan: new Uint16Array(4), request: h.request() }),
    expect: typeError('plan', '$', 'unsupported', cannot('plan', '$', 'a Uint16Array')),
    noPython: 'Python has no typed arrays (a memoryview of another format is its own case)',
  },

  // ---- Python's Mapping types that are not dicts: objects, as a dict is
  {
    id: 'mapping-proxy',
    where: 'every object of the plan and request',
    what: 'every dict wrapped in types.MappingProxyType: read as an object',
    noJs: 'JS has no mapping protocol: every object is read by its own members (a Proxy: case proxy-transparent)',
    core: (h) => h.example(),
    expect: VALID,
  },
  {
    id: 'custom-mapping',
    where: 'every object of the plan and request',
    what: 'every dict wrapped in a collections.abc.Mapping subclass that is not a dict',
    noJs: 'JS has no mapping protocol (a class instance is read by its own members: case class-instance)',
    core: (h) => h.example(),
    expect: VALID,
  },

  // ---- Python's own host values (no JavaScript value is like them)
  {
    id: 'py-neg-zero-float',
    where: `${BLOCK0}.durationMin`,
    what: 'a Python float -0.0 is not an integer: written -0.0 (float_text)',
    noJs: 'a JS −0 is the integer 0 (case num-neg0)',
    core: (h) => durationText(h, '-0.0'),
    expect: duration('-0.0'),
  },
  {
    id: 'py-int-2pow64',
    where: `${BLOCK0}.durationMin`,
    what: 'a Python int is exact at any size: 18446744073709551616',
    noJs: 'a JS number cannot hold 2**64 exactly; a BigInt has no JSON form (case bigint)',
    core: (h) => durationText(h, '18446744073709551616'),
    expect: {
      verdict: {
        valid: false,
        errors: [['duration', `${BLOCK0}.durationMin`, 'durationMin is 18446744073709551616;'], ['commitment', BLOCK0]],
        checks: 'all',
      },
    },
  },
  {
    id: 'py-bool',
    where: `${BLOCK0}.durationMin`,
    what: 'True is JSON true, never the integer 1',
    noJs: 'a JS boolean is plainly JSON (no bool/int kinship)',
    core: (h) => durationText(h, 'true'),
    expect: duration('true'),
  },
  {
    id: 'py-tuple-ordereddict',
    where: '$ (an OrderedDict) and $.routine.blocks (a tuple)',
    what: 'dict subclasses are objects and tuples are arrays',
    noJs: 'JS has no tuples and no dict subclasses',
    core: (h) => h.example(),
    expect: VALID,
  },
  {
    id: 'py-int-key',
    where: '$.routine.weekdays',
    what: 'a member name that is an int (1)',
    noJs: 'JS member names are strings (or symbols: case symbol-key)',
    expect: typeError('plan', '$.routine.weekdays', 'nonStringName',
      'plan at $.routine.weekdays has a member name that is an int (1), which JSON cannot hold (member names are strings)'),
  },
  {
    id: 'py-decimal',
    where: `${BLOCK0}.durationMin`,
    what: 'a Decimal has no JSON form (json.dumps refuses it too)',
    noJs: 'JS has no Decimal',
    expect: typeError('plan', `${BLOCK0}.durationMin`, 'unsupported', cannot('plan', `${BLOCK0}.durationMin`, 'a decimal.Decimal')),
  },
];
