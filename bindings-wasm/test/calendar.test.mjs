// The calendar module (issue 32: momentum_plan_wasm_calendar, planToIcalendar and
// commitmentsFromIcalendar) through pkg/node against the calendar crate's own answers (its `ics`
// example, built by test.sh): the checks of js/calendar-cases.mjs, shared with momentum-plan-node
// (every shared vector exported byte for byte, the app-style import fixtures, the round trip, the
// documented errors). Then what is the wasm package's own: Node loads the module on the first
// call that needs it; pkg/web throws until loadCalendar() and then gives pkg/node's bytes; hostile
// input gives an answer or a clear error, never a trap (a trap is a defect, even though the
// instance would be restarted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calendarCases, STAMP } from '../../js/calendar-cases.mjs';
import { initSync, loadCalendar, planToIcalendar, commitmentsFromIcalendar } from '../pkg/web/index.js';

const require = createRequire(import.meta.url);
const node = require('../pkg/node');
const kit = require('../../js/testkit.cjs');
const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));

for (const [name, check] of calendarCases(node)) test(`pkg/node: ${name}`, check);

test('Node loads the calendar module on the first call that needs it, and loadCalendar() resolves', () => {
  // a fresh process: neither validating nor repairing requires the calendar's glue
  const probe = `
    const pkg = require(${JSON.stringify(join(PKG, 'node'))});
    const calendar = () => Object.keys(require.cache).filter((f) => f.endsWith('momentum_plan_wasm_calendar.js')).length;
    const out = { atStart: calendar() };
    pkg.validatePlan('{}', '{}');
    pkg.repairPlan('{}', '{}');
    out.afterRepair = calendar();
    out.skipped = pkg.commitmentsFromIcalendar('BEGIN:VCALENDAR\\r\\nEND:VCALENDAR\\r\\n', '2026-10-05', 'Europe/Zurich');
    out.afterImport = calendar();
    pkg.loadCalendar().then(() => { out.loadResolved = true; console.log(JSON.stringify(out)); });
  `;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { atStart: 0, afterRepair: 0, skipped: { commitments: [], skipped: [] }, afterImport: 1, loadResolved: true });
});

test('pkg/web: the calendar functions throw until loadCalendar(), then give pkg/node\'s bytes', async () => {
  initSync({ module: readFileSync(join(PKG, 'web', 'momentum_plan_wasm_bg.wasm')) });
  const notLoaded = (name) => (e) =>
    e instanceof Error &&
    e.message === `momentum-plan-wasm: ${name} is in the package's calendar module, which is not loaded yet: call \`await loadCalendar()\` once first (README "Three modules")`;
  const { plan, request } = kit.example('calm-weekday');
  assert.throws(() => planToIcalendar(plan, request, STAMP), notLoaded('planToIcalendar'));
  assert.throws(() => commitmentsFromIcalendar('', '2026-10-05', 'Europe/Zurich'), notLoaded('commitmentsFromIcalendar'));
  const bytes = readFileSync(join(PKG, 'web', 'momentum_plan_wasm_calendar_bg.wasm'));
  await Promise.all([loadCalendar({ module_or_path: bytes }), loadCalendar({ module_or_path: bytes })]);
  for (const id of ['calm-weekday', 'week-with-choir', 'first-5k', 'calm-weekday-broken']) {
    const ex = kit.example(id);
    const got = planToIcalendar(ex.plan, ex.request, STAMP);
    assert.deepEqual(got, node.planToIcalendar(ex.plan, ex.request, STAMP), id);
    assert.equal('text' in got, !id.endsWith('-broken'), id);
    if ('text' in got) {
      assert.deepEqual(commitmentsFromIcalendar(got.text, ex.request.startDate, ex.request.timezone), node.commitmentsFromIcalendar(got.text, ex.request.startDate, ex.request.timezone), id);
    }
  }
  assert.throws(() => planToIcalendar(plan, request, 'now'), (e) => e instanceof RangeError && e.argument === 'dtstamp');
});

/** Calendar text from lines, CRLF-ended. */
const ics = (...lines) => lines.map((l) => `${l}\r\n`).join('');
const event = (...props) => ['BEGIN:VEVENT', ...props, 'END:VEVENT'];

test('hostile input: an answer or a clear error, never a trap', () => {
  const { plan, request } = kit.example('calm-weekday');
  const imports = [
    ['binary noise', String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 7919) % 65536)).replace(/[\uD800-\uDFFF]/g, '?')],
    ['lone surrogates', `BEGIN:VCALENDAR\r\nSUMMARY:\uD800\uDFFF\uDC00\r\n`],
    ['one line of 4 MB', `BEGIN:VCALENDAR\r\nX-LONG:${'a'.repeat(4 << 20)}\r\nEND:VCALENDAR\r\n`],
    ['100,000 nested components', `${'BEGIN:VEVENT\r\n'.repeat(100000)}${'END:VEVENT\r\n'.repeat(100000)}`],
    ['an endless folded line', `BEGIN:VCALENDAR\r\nSUMMARY:x${'\r\n y'.repeat(200000)}\r\nEND:VCALENDAR\r\n`],
    ['50,000 events', `BEGIN:VCALENDAR\r\n${Array.from({ length: 50000 }, (_, i) => ics(...event(`UID:${i}`, 'DTSTART:20261005T090000Z', 'DTEND:20261005T100000Z'))).join('')}END:VCALENDAR\r\n`],
    ['a rule without end, every second', ics('BEGIN:VCALENDAR', ...event('UID:r', 'DTSTART:19000101T000000Z', 'DTEND:19000101T000001Z', 'RRULE:FREQ=SECONDLY'), 'END:VCALENDAR')],
    ['dates at the ends of time', ics('BEGIN:VCALENDAR', ...event('UID:d', 'DTSTART:99991231T235959Z', 'DTEND:00000101T000000Z', 'RRULE:FREQ=YEARLY;COUNT=4294967295;INTERVAL=0'), 'END:VCALENDAR')],
    ['a zone that is no zone', ics('BEGIN:VCALENDAR', ...event('UID:z', 'DTSTART;TZID=/../../etc/passwd:20261005T090000', 'DTEND;TZID=:20261005T100000'), 'END:VCALENDAR')],
  ];
  const exports = [
    ['a plan of 8 MB of text', JSON.stringify({ ...plan, name: 'x'.repeat(8 << 20) }), request, STAMP],
    // the plan echoes its request (plan.request), so both change
    ...[
      ['a request with a year far away', { startDate: '9999-12-31' }],
      ['a request in year 0', { startDate: '0000-01-01' }],
      ['a request in year -1', { startDate: '-0001-01-01' }],
      ['a zone path', { timezone: '../../../../etc/localtime' }],
      ['a zone name of 1 MB', { timezone: `Europe/${'Z'.repeat(1 << 20)}` }],
    ].map(([name, change]) => [name, { ...plan, request: { ...plan.request, ...change } }, { ...request, ...change }, STAMP]),
    ['a dtstamp at the end of time', plan, request, '99991231T235959Z'],
  ];
  const calls = [
    ...imports.map(([name, text]) => [name, () => node.commitmentsFromIcalendar(text, '2026-10-05', 'Europe/Zurich')]),
    ...['', '2026-02-30', '99999-01-01', '2026-10-05T00:00'].map((d) => [`startDate ${JSON.stringify(d)}`, () => node.commitmentsFromIcalendar('', d, 'Europe/Zurich')]),
    ...exports.map(([name, p, r, s]) => [name, () => node.planToIcalendar(p, r, s)]),
  ];
  const outcomes = {};
  for (const [name, call] of calls) {
    let outcome;
    try {
      const got = call();
      outcome = 'text' in got ? 'calendar' : 'commitments' in got ? 'commitments' : 'verdict';
    } catch (e) {
      // a trap is reported as the restart Error with the RuntimeError as its cause: a defect here
      assert.ok(!(e.cause instanceof WebAssembly.RuntimeError), `${name}: the module trapped (${e.cause?.message})`);
      assert.ok([Error, SyntaxError, RangeError].includes(e.constructor), `${name}: ${e}`);
      assert.ok(e.message.length > 10 && !/panicked|unreachable/.test(e.message), `${name}: ${e.message}`);
      outcome = e.constructor.name;
    }
    outcomes[name] = outcome;
  }
  console.log(`# ${JSON.stringify(outcomes)}`);
  // and the module still answers as before
  assert.ok(node.planToIcalendar(plan, request, STAMP).text.startsWith('BEGIN:VCALENDAR\r\n'));
});
