// The calendar checks of both JS packages (bindings-node/test/calendar.test.mjs,
// bindings-wasm/test/calendar.test.mjs; issue 32): planToIcalendar and commitmentsFromIcalendar
// against the calendar crate's own answers (its `ics` example, JSON lines, built by each
// package's test.sh: `cargo build --release -p momentum-plan-calendar --example ics`): every
// shared vector exported, the calendar text byte for byte; an invalid plan's verdict is
// validatePlan's; the app-style fixtures (calendar/tests/fixtures) import to their .expected.json;
// bad input throws the documented errors. Nothing expected is copied here: the vectors and
// fixtures are read at test time and the crate says what must come out.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const kit = createRequire(import.meta.url)('./testkit.cjs');

/** The `DTSTAMP` every export here is made with. */
export const STAMP = '20261207T120000Z';
const TARGET = resolve(process.env.CARGO_TARGET_DIR || join(kit.ROOT, 'target'));
const FIXTURES = join(kit.ROOT, 'calendar', 'tests', 'fixtures');
const fixture = (name) => readFileSync(join(FIXTURES, name), 'utf8');

/** The crate's answer to each JSON line (objects as text, so numbers keep their literals). */
export function crate(lines) {
  const out = execFileSync(join(TARGET, 'release', 'examples', 'ics'), {
    input: lines.map((l) => l + '\n').join(''),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const answers = out.split('\n').slice(0, -1);
  assert.equal(answers.length, lines.length);
  return answers.map((a) => JSON.parse(a));
}

/**
 * The checks over a package's functions `{planToIcalendar, commitmentsFromIcalendar,
 * validatePlan}`, as `[name, check]` pairs for node:test.
 */
export function calendarCases({ planToIcalendar, commitmentsFromIcalendar, validatePlan }) {
  const everyVector = () => {
    const vectors = kit
      .vectorFiles()
      .flatMap((f) => kit.readVectors(f))
      .filter((v) => v.request !== null && typeof v.request === 'object' && !Array.isArray(v.request));
    const answers = crate(vectors.map((v) => `{"export":{"plan":${v.planJson},"request":${v.requestJson},"dtstamp":"${STAMP}"}}`));
    const kinds = {};
    vectors.forEach((v, i) => {
      const want = answers[i];
      const kind = want.kind ?? 'calendar';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      const [plan, request] = v.textOnly ? [v.planText, v.requestText] : [v.plan, v.request];
      if (kind === 'calendar') {
        const got = planToIcalendar(plan, request, STAMP);
        assert.equal(got.text, want.text, v.id);
        assert.deepEqual(got, want, v.id);
      } else if (kind === 'Invalid') {
        const got = planToIcalendar(plan, request, STAMP);
        assert.deepEqual(got, validatePlan(plan, request), v.id);
        assert.equal(got.valid, false, v.id);
      } else {
        assert.throws(
          () => planToIcalendar(plan, request, STAMP),
          (e) =>
            e.constructor === Error &&
            e.message === want.error &&
            e.argument === 'request' &&
            e.path === (kind === 'BadTimezone' ? '$.timezone' : '$.startDate'),
          v.id,
        );
      }
    });
    assert.ok(kinds.calendar > 10 && kinds.Invalid > 1000, JSON.stringify(kinds));
  };

  const fixtures = () => {
    for (const name of ['google', 'apple', 'outlook']) {
      const ics = fixture(`${name}.ics`);
      const expected = JSON.parse(fixture(`${name}.expected.json`));
      const got = commitmentsFromIcalendar(ics, '2026-10-05', 'Europe/Zurich');
      assert.deepEqual(got.commitments, expected.commitments, name);
      assert.deepEqual(got.skipped.map((s) => s.summary), expected.skipped.map((s) => s[0]), name);
      const [want] = crate([JSON.stringify({ import: { ics, startDate: '2026-10-05', timezone: 'Europe/Zurich' } })]);
      assert.deepEqual(got, want, name);
      assert.deepEqual(Object.keys(got.commitments[0]), ['label', 'days', 'start', 'end']);
    }
  };

  const roundTrip = () => {
    const plan = JSON.parse(kit.exampleText('calm-weekday.plan.json'));
    const bytes = new TextEncoder().encode(kit.exampleText('calm-weekday.plan.json'));
    const x = planToIcalendar(bytes, plan.request, STAMP);
    assert.ok('text' in x);
    assert.deepEqual(planToIcalendar(plan, JSON.stringify(plan.request), STAMP), x);
    assert.ok(x.text.includes('DTSTART;TZID=Europe/Zurich:20261005T090000\r\n'));
    const back = commitmentsFromIcalendar(x.text, '2026-10-05', 'Europe/Zurich');
    assert.deepEqual(
      back.commitments.map((c) => [c.label, c.start]),
      plan.routine.blocks.map((b) => [b.activity, b.start]),
    );
  };

  const badInput = () => {
    const plan = JSON.parse(kit.exampleText('calm-weekday.plan.json'));
    assert.throws(
      () => planToIcalendar(plan, plan.request, '2026-12-07'),
      (e) =>
        e instanceof RangeError &&
        e.argument === 'dtstamp' &&
        e.message === 'dtstamp "2026-12-07" is not a UTC date-time YYYYMMDDTHHMMSSZ (e.g. "20261207T120000Z")',
    );
    assert.throws(() => planToIcalendar(plan, plan.request, 20261207), (e) => e instanceof TypeError && e.message === 'dtstamp is a number; pass a string');
    // The request's and the plan's faults are validatePlan's.
    for (const [p, r] of [[plan, '{not json'], [plan, { x: 1n }], [{ x: () => 1 }, plan.request]]) {
      let want = null;
      try {
        validatePlan(p, r);
      } catch (e) {
        want = e;
      }
      assert.ok(want !== null);
      assert.throws(() => planToIcalendar(p, r, STAMP), (e) => e.constructor === want.constructor && e.message === want.message && e.path === want.path);
    }
    // A plan too deep for JSON text: the json verdict, as validatePlan gives it.
    let deep = 1;
    for (let i = 0; i < 600; i++) deep = [deep];
    assert.deepEqual(planToIcalendar(deep, plan.request, STAMP), validatePlan(deep, plan.request));
    assert.throws(
      () => commitmentsFromIcalendar('BEGIN:VCALENDAR\r\nnot a line\r\n', '2026-10-05', 'Europe/Zurich'),
      (e) => e instanceof SyntaxError && e.line === 2 && e.message.startsWith('the calendar file is malformed at line 2: '),
    );
    assert.throws(
      () => commitmentsFromIcalendar('', '2026-13-01', 'Europe/Zurich'),
      (e) => e instanceof RangeError && e.message === 'startDate "2026-13-01" is not a date YYYY-MM-DD',
    );
    assert.throws(() => commitmentsFromIcalendar('', '2026-10-05', 'Mars/Olympus'), RangeError);
    assert.throws(() => commitmentsFromIcalendar(null, '2026-10-05', 'Europe/Zurich'), (e) => e instanceof TypeError && e.message === 'ics is null; pass a string');
  };

  return [
    ['every vector exports as the calendar crate does', everyVector],
    ['the app-style fixtures import to their expected commitments, as the crate reads them', fixtures],
    ['the example plan round-trips: exported, imported for its week, its blocks come back', roundTrip],
    ['bad input throws the documented errors', badInput],
  ];
}
