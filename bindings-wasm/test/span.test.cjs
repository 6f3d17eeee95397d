'use strict';
// valueSpan (momentum_plan::value_span through the binding): the place of the value a path names
// in the plan's text, with offsets in UTF-16 code units. Every expected span is found without the
// core (test/span-expect.cjs: a sentinel written in the value's place by JSON.stringify).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { valueSpan } = require('../pkg/node');
const { expectedSpan, segmentsOf, position } = require('./span-expect.cjs');

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const broken = fs.readFileSync(path.join(EXAMPLES, 'calm-weekday-broken.plan.json'), 'utf8');

/** Every path in `value` (members and elements, depth first), as `$...` strings. */
function pathsOf(value, prefix = '$') {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, `${prefix}[${i}]`)));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, `${prefix}.${k}`));
  return out;
}

test('every value of the broken example: the span found without the core', () => {
  const paths = pathsOf(JSON.parse(broken));
  assert.ok(paths.length > 30, `${paths.length} paths`);
  for (const p of paths) {
    const want = expectedSpan(broken, segmentsOf(p));
    assert.deepEqual(valueSpan(broken, p), { ...want, missing: false, found: p }, p);
  }
});

test('offsets are UTF-16 code units, columns characters: text outside the BMP and accented', () => {
  const plan = JSON.parse(broken);
  plan.name = '🏃‍♀️ Café run 𝄞';
  plan.routine.blocks[0].label = 'Ünïcødé 🎵🎵 label';
  const text = JSON.stringify(plan, null, 2);
  for (const p of ['$.name', '$.routine.blocks[0].label', '$.routine.blocks[0].start', '$.routine.blocks[1]', '$.routine']) {
    const span = valueSpan(text, p);
    assert.deepEqual(span, { ...expectedSpan(text, segmentsOf(p)), missing: false, found: p }, p);
    assert.deepEqual(JSON.parse(text.slice(span.start.offset, span.end.offset)), segmentsOf(p).reduce((v, s) => v[s], plan), p);
  }
});

test('on one line after characters of two UTF-16 units: the column counts characters, the offset units', () => {
  const text = '{"🎵🎵": 1, "b": [true, "é𝄞", 3]}';
  const cases = [
    ["$['🎵🎵']", text.indexOf(' 1,') + 1, text.indexOf(' 1,') + 2],
    ['$.b[1]', text.indexOf('"é'), text.indexOf('", 3') + 1],
    ['$.b[2]', text.indexOf('3'), text.indexOf('3') + 1],
    ['$.b', text.indexOf('['), text.indexOf(']') + 1],
  ];
  for (const [p, start, end] of cases) {
    const span = valueSpan(text, p);
    assert.deepEqual(span, { start: position(text, start), end: position(text, end), missing: false, found: p }, p);
    assert.ok(span.start.column < span.start.offset + 1, `${p}: ${span.start.column} characters, ${span.start.offset} units`);
  }
});

test('a path to no value: the deepest value on it, marked missing', () => {
  const plan = JSON.parse(broken);
  const n = plan.routine.blocks.length;
  for (const [p, found] of [
    [`$.routine.blocks[${n}]`, '$.routine.blocks'],
    ['$.routine.blocks[0].nothing.deeper', '$.routine.blocks[0]'],
    ['$.noSuchMember', '$'],
  ]) {
    assert.deepEqual(valueSpan(broken, p), { ...expectedSpan(broken, segmentsOf(found)), missing: true, found }, p);
  }
});

test('text that is not JSON has no spans; a path that is not a JSONPath is a TypeError', () => {
  assert.equal(valueSpan('{"routine": ', '$.routine'), null);
  assert.equal(valueSpan('', '$'), null);
  assert.throws(() => valueSpan(broken, 'routine.blocks'), TypeError);
  assert.throws(() => valueSpan(broken, '$.routine[x]'), TypeError);
  assert.throws(() => valueSpan(broken, 5), TypeError);
});
