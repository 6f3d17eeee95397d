// The "Import a plan" page (www/) in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core), served by scripts/serve.mjs on 127.0.0.1: the broken example shows its three
// errors and highlights their blocks, the valid one says it is ready to import, a pasted plan
// that is not JSON says so; "Stream it" shows issues as they settle while the plan streams in.
// The first verdict comes with only the validator's .wasm fetched; the second module's comes with
// the first invalid plan's fixes, once, or with "Stream it" pressed first (a page of its own);
// the calendar module's with the first click of "Add to calendar", whose download is the same
// bytes as planToIcalendar of the plan, with its daylight-saving warnings beside the button
// (issue 32).
// Screenshots go to test-output/ at the repository root.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createRequire } from 'node:module';
import { serve } from '../scripts/serve.mjs';

const require = createRequire(import.meta.url);
const wasmNode = require('../pkg/node');
const { expectedSpan, segmentsOf } = require('./span-expect.cjs');

const HERE = fileURLToPath(new URL('.', import.meta.url));
const WWW = join(HERE, '..', 'www');
const OUT = join(HERE, '..', '..', 'test-output');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

let server;
let browser;
let page;
let profile;
const pageErrors = [];
/** The file name of every .wasm the page has requested, in order. */
const wasmRequests = [];

before(async () => {
  assert.ok(existsSync(join(WWW, 'vendor', 'momentum-plan-wasm', 'index.js')), 'run npm run build first');
  mkdirSync(OUT, { recursive: true });
  server = await serve(WWW, 0);
  profile = mkdtempSync(join(tmpdir(), 'momentum-chromium-'));
  // a fresh profile directory (playwright passes it as --user-data-dir)
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1360, height: 1000 },
    deviceScaleFactor: 1,
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm')) wasmRequests.push(name);
  });
  // offline: anything not from our own server fails the test
  await page.route('**/*', (route) => (route.request().url().startsWith(server.url) ? route.continue() : route.abort()));
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function loadExample(id) {
  await page.click(`.chip[data-example="${id}"]`);
  await page.waitForFunction((want) => document.querySelector(`.chip[data-example="${want}"]`)?.getAttribute('aria-pressed') === 'true', id);
  await page.waitForFunction(() => ['valid', 'invalid', 'unreadable'].includes(document.getElementById('verdict').dataset.state));
}

test('the four examples are one click away', async () => {
  const ids = await page.$$eval('.chip', (chips) => chips.map((c) => c.dataset.example));
  assert.deepEqual(ids.sort(), ['calm-weekday', 'calm-weekday-broken', 'first-5k', 'week-with-choir']);
});

test('the first verdict needs only the validator module; the fixes of an invalid plan fetch the second, once', async () => {
  assert.deepEqual(wasmRequests, ['momentum_plan_wasm_bg.wasm'], 'loaded: the validator only');
  await loadExample('calm-weekday');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'valid');
  assert.deepEqual(wasmRequests, ['momentum_plan_wasm_bg.wasm'], 'a valid verdict: still the validator only');
  await loadExample('calm-weekday-broken');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'invalid');
  // an invalid plan's safe fixes come from the second module: the page loads it after the verdict
  await page.waitForSelector('body[data-extras="true"]');
  assert.deepEqual(wasmRequests, ['momentum_plan_wasm_bg.wasm', 'momentum_plan_wasm_extras_bg.wasm']);
  await loadExample('calm-weekday');
  await loadExample('calm-weekday-broken');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'invalid');
  assert.equal(wasmRequests.length, 2, 'fetched once');
});

test('the broken example: three errors with path and message, their blocks highlighted', async () => {
  await loadExample('calm-weekday-broken');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'invalid');
  assert.match(await page.textContent('#verdict-title'), /3 problems to fix/);
  assert.equal(await page.isDisabled('#import'), true);
  const errors = await page.$$eval('#errors .issue', (items) =>
    items.map((li) => ({ code: li.dataset.code, path: li.dataset.path, message: li.querySelector('.msg').textContent, target: li.dataset.target })),
  );
  assert.deepEqual(
    errors.map((e) => `${e.code} ${e.path}`),
    ['overlap $.routine.blocks[2]', 'category $.routine.blocks[3].category', 'commitment $.routine.blocks[1]'],
  );
  for (const e of errors) assert.ok(e.message.length > 20, e.message);
  // the list shows the path and the message as text
  const text = await page.textContent('#errors');
  assert.ok(text.includes('$.routine.blocks[3].category') && text.includes('food'));
  // each error's block is highlighted in the day view, with the error's number
  const highlighted = await page.$$eval('.block.has-error', (blocks) =>
    blocks.map((b) => ({ path: b.dataset.path, badges: [...b.querySelectorAll('.badges i')].map((i) => i.textContent), label: b.querySelector('b').textContent })),
  );
  assert.deepEqual(
    highlighted.map((b) => b.path).sort(),
    ['$.routine.blocks[1]', '$.routine.blocks[2]', '$.routine.blocks[3]'],
  );
  const byPath = Object.fromEntries(highlighted.map((b) => [b.path, b]));
  assert.deepEqual(byPath['$.routine.blocks[2]'].badges, ['1']);
  assert.deepEqual(byPath['$.routine.blocks[3]'].badges, ['2']);
  assert.deepEqual(byPath['$.routine.blocks[1]'].badges, ['3']);
  assert.equal(byPath['$.routine.blocks[1]'].label, 'Breakfast');
  for (const b of highlighted) assert.ok(await page.isVisible(`.block[data-path="${b.path}"]`));
  // the warning is listed apart, and its block marked
  assert.deepEqual(await page.$$eval('#warnings .issue', (items) => items.map((li) => `${li.dataset.code} ${li.dataset.path}`)), ['overnight $.routine.blocks[4]']);
  assert.equal(await page.$eval('.block[data-path="$.routine.blocks[4]"]', (b) => b.classList.contains('has-warning')), true);
  // hovering an error lights its block up
  await page.hover('#errors .issue[data-code="commitment"]');
  assert.equal(await page.$eval('.block[data-path="$.routine.blocks[1]"]', (b) => b.classList.contains('is-hot')), true);
  await page.mouse.move(5, 5);
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(OUT, 'wasm-page-broken.png'), fullPage: true });
});

test('clicking an issue or its path selects the value it names in the plan field', async () => {
  await loadExample('calm-weekday-broken');
  const text = await page.inputValue('#plan');
  const plan = JSON.parse(text);
  const issues = await page.$$eval('#errors .issue, #warnings .issue', (items) => items.map((li) => li.dataset.path));
  assert.equal(issues.length, 4);
  for (const [i, path] of issues.entries()) {
    // the path chip for some, the message for the others: both are the issue
    const where = i % 2 === 0 ? '.where code:last-child' : '.msg';
    await page.click(`.issue[data-path="${path}"] ${where}`);
    const got = await page.$eval('#plan', (f) => ({ start: f.selectionStart, end: f.selectionEnd, focused: document.activeElement === f, selected: f.dataset.selected }));
    // found without the core: JSON.stringify of the plan with a sentinel in the value's place
    const want = expectedSpan(text, segmentsOf(path));
    assert.deepEqual([got.start, got.end], [want.start.offset, want.end.offset], path);
    const value = segmentsOf(path).reduce((v, s) => v[s], plan);
    assert.deepEqual(JSON.parse(text.slice(got.start, got.end)), value, path);
    assert.equal(got.focused, true, path);
    assert.equal(got.selected, path);
  }
  // the selection is in view: the field scrolled to the last issue's line
  const scroll = await page.$eval('#plan', (f) => ({ top: f.scrollTop, height: f.clientHeight, lineHeight: parseFloat(getComputedStyle(f).lineHeight) }));
  const line = expectedSpan(text, segmentsOf(issues.at(-1))).start.line;
  const y = (line - 1) * scroll.lineHeight;
  assert.ok(y >= scroll.top && y < scroll.top + scroll.height, `line ${line} at ${y}px, field shows ${scroll.top}..${scroll.top + scroll.height}`);
  await page.screenshot({ path: join(OUT, 'wasm-page-selected.png'), fullPage: false });
});

test('the valid example says it is valid and can be imported', async () => {
  await loadExample('calm-weekday');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'valid');
  assert.equal(await page.textContent('#verdict-title'), 'Ready to import');
  assert.equal(await page.isEnabled('#import'), true);
  assert.equal(await page.isHidden('#errors-card'), true);
  assert.equal(await page.$$eval('.block.has-error', (b) => b.length), 0);
  assert.equal(await page.$$eval('.block', (b) => b.length) >= 5, true);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-valid.png'), fullPage: true });
  await page.click('#import');
  assert.match(await page.textContent('#toast'), /imported/);
});

test('weekday lists and goal days are drawn too', async () => {
  await loadExample('week-with-choir');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'valid');
  const heads = await page.$$eval('.col-head[data-path]', (h) => h.map((x) => x.dataset.path));
  assert.deepEqual(heads, ['$.routine.blocks', '$.routine.weekdays.wed', '$.routine.weekdays.sat', '$.routine.weekdays.sun']);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-weekdays.png'), fullPage: true });
  await loadExample('first-5k');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'valid');
  assert.equal(await page.$$eval('.day', (d) => d.length), 3);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-goal.png'), fullPage: true });
});

test('typed text is checked as it is typed: a plan that is not JSON says where', async () => {
  await loadExample('calm-weekday');
  await page.fill('#plan', '{"format": "daily-momentum-ai-plan",');
  await page.waitForFunction(() => document.getElementById('verdict').dataset.state === 'unreadable');
  const items = await page.$$eval('#errors .issue', (li) => li.map((x) => `${x.dataset.code} ${x.dataset.path} ${x.querySelector('.msg').textContent}`));
  assert.equal(items.length, 1);
  assert.match(items[0], /^json \$ .*line 1, column \d+/);
  await page.fill('#request', '{"requestId": ');
  await page.waitForFunction(() => !document.getElementById('request-error').hidden);
  assert.match(await page.textContent('#request-error'), /The request is not JSON/);
});

test('"Fix what is safe to fix": each fix with its value before and after, applied in one click, checked again', async () => {
  await loadExample('calm-weekday');
  const requestText = await page.inputValue('#request');
  const plan = JSON.parse(await page.inputValue('#plan'));
  // three mistakes with a safe fix: the format's case, an unpadded time, a number written as a string
  plan.format = 'Daily-Momentum-AI-Plan';
  plan.routine.blocks[0].start = '6:45';
  plan.routine.blocks[2].durationMin = String(plan.routine.blocks[2].durationMin);
  const planText = JSON.stringify(plan, null, 2);
  await page.fill('#plan', planText);
  await page.waitForFunction(() => !document.getElementById('fixes-card').hidden);
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'invalid');
  // what the page offers is what repairPlan gives for the same texts (the Node build of the package)
  const expected = wasmNode.repairPlan(planText, requestText);
  assert.equal(expected.applied.length, 3);
  assert.equal(expected.verdict.valid, true);
  const shown = await page.$$eval('#fixes .fix', (items) =>
    items.map((li) => ({
      code: li.dataset.code,
      path: li.dataset.path,
      description: li.querySelector('.desc').textContent,
      before: li.querySelector('.before').textContent,
      after: li.querySelector('.after').textContent,
    })),
  );
  assert.deepEqual(
    shown.map(({ code, path, description }) => ({ code, path, description })),
    expected.applied.map(({ code, path, description }) => ({ code, path, description })),
  );
  const byPath = Object.fromEntries(shown.map((f) => [f.path, f]));
  assert.deepEqual([byPath['$.format'].before, byPath['$.format'].after], ['"Daily-Momentum-AI-Plan"', '"daily-momentum-ai-plan"']);
  assert.deepEqual([byPath['$.routine.blocks[0].start'].before, byPath['$.routine.blocks[0].start'].after], ['"6:45"', '"06:45"']);
  const duration = byPath['$.routine.blocks[2].durationMin'];
  assert.deepEqual([duration.before, duration.after], [JSON.stringify(String(plan.routine.blocks[2].durationMin)), String(plan.routine.blocks[2].durationMin)]);
  assert.match(await page.textContent('#apply-fixes'), /Fix these 3/);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-fixes.png'), fullPage: true });

  await page.click('#apply-fixes');
  await page.waitForFunction(() => document.getElementById('verdict').dataset.state === 'valid');
  assert.equal(await page.inputValue('#plan'), expected.plan);
  assert.equal(await page.textContent('#verdict-title'), 'Ready to import');
  assert.equal(await page.$eval('#fixes-card', (c) => c.dataset.mode), 'applied');
  assert.match(await page.textContent('#fixes-title'), /Fixed 3 problems/);
  assert.equal(await page.textContent('#fix-result'), 'The plan is now ready to import.');
  assert.equal(await page.isHidden('#apply-fixes'), true);
  assert.equal(await page.isEnabled('#import'), true);
  await page.screenshot({ path: join(OUT, 'wasm-page-fixed.png'), fullPage: true });

  // typing again leaves the "fixed" state; a plan with nothing safe to fix offers nothing
  await loadExample('calm-weekday-broken');
  assert.equal(await page.isHidden('#fixes-card'), true);
});

test('"Stream it": issues appear as the plan streams in, the day view fills in, then the verdict', async () => {
  await loadExample('calm-weekday-broken');
  const text = await page.inputValue('#plan');
  const request = await page.inputValue('#request');
  const drawn = await page.$$eval('.block', (b) => b.length); // the whole plan's day view
  // what settles, and after how many bytes: the Node build of the package on the same text and chunks
  const stream = new wasmNode.PlanStream(request);
  const want = [];
  let first = null;
  for (let i = 0; i < text.length; i += 16) {
    const got = stream.push(text.slice(i, i + 16));
    if (got.length && first === null) first = stream.length;
    want.push(...got);
  }
  const verdict = stream.finish();
  assert.ok(want.length >= 3 && first < Buffer.byteLength(text) * 0.6, `${want.length} settled, the first after ${first} bytes`);
  // the page lists the settled errors first, numbered, then the warnings (the core's isWarning),
  // marked as a verdict's warnings are: the example's final overnight block settles one
  const ordered = (list) => [...list.filter((i) => !wasmNode.isWarning(i.code)), ...list.filter((i) => wasmNode.isWarning(i.code))];
  const notes = want.filter((i) => wasmNode.isWarning(i.code));
  assert.deepEqual(notes.map((i) => i.code), verdict.warnings.map((i) => i.code));
  assert.ok(notes.length >= 1, 'the example settles a warning while it streams');

  await page.click('#stream');
  // pause as soon as the first issue shows (in the page, in the same frame)
  await page.waitForFunction(() => {
    if (document.querySelectorAll('#settled .issue').length === 0) return false;
    if (document.body.dataset.streaming === 'true') document.getElementById('stream').click();
    return true;
  });
  assert.equal(await page.$eval('body', (b) => b.dataset.streaming), 'true', 'paused while streaming');
  assert.equal(await page.textContent('#stream'), 'Resume');
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'streaming');
  const partial = await page.inputValue('#plan');
  assert.ok(partial.length < text.length && text.startsWith(partial));
  const settled = await page.$$eval('#settled .issue', (li) => li.map((x) => ({ code: x.dataset.code, path: x.dataset.path, message: x.querySelector('.msg').textContent })));
  assert.deepEqual(settled, ordered(want.slice(0, settled.length)));
  assert.match(await page.textContent('#verdict-sub'), new RegExp(`^\\d+ of ${Buffer.byteLength(text)} bytes$`));
  // the day view holds the blocks whose text is whole so far, the settled one marked
  const blocks = await page.$$eval('.block', (b) => b.map((x) => x.dataset.path));
  assert.ok(blocks.length >= 2 && blocks.length < drawn, `${blocks.length} of ${drawn} blocks drawn`);
  assert.equal(await page.$eval(`.block[data-path="${want[0].path}"]`, (b) => b.classList.contains('has-error')), true);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-streaming.png'), fullPage: true });

  await page.click('#stream'); // resume
  await page.waitForFunction(() => document.body.dataset.streaming === undefined);
  assert.equal(await page.inputValue('#plan'), text);
  const all = await page.$$eval('#settled .issue', (li) => li.map((x) => ({ code: x.dataset.code, path: x.dataset.path, message: x.querySelector('.msg').textContent })));
  assert.deepEqual(all, ordered(want));
  const marks = await page.$$eval('#settled .issue .num', (n) => n.map((x) => x.textContent));
  assert.deepEqual(marks.slice(-notes.length), notes.map(() => '!'));
  assert.deepEqual(marks.slice(0, -notes.length), want.slice(0, want.length - notes.length).map((_, i) => String(i + 1)));
  assert.match(await page.textContent('#settled-sub'), new RegExp(`final after ${first} of ${Buffer.byteLength(text)} bytes`));
  // then the verdict, as for the pasted plan
  assert.equal(await page.$eval('#verdict', (v) => v.dataset.state), 'invalid');
  const errors = await page.$$eval('#errors .issue', (li) => li.map((x) => `${x.dataset.code} ${x.dataset.path}`));
  assert.deepEqual(errors, verdict.errors.map((e) => `${e.code} ${e.path}`));
  assert.equal(await page.$$eval('.block', (b) => b.length), drawn);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-streamed.png'), fullPage: true });
});

test('"Add to calendar": a valid plan downloads as <requestId>.ics, the bytes of planToIcalendar; the calendar module loads on the click, once', async () => {
  await loadExample('calm-weekday');
  assert.equal(await page.isVisible('#add-calendar'), true);
  assert.ok(!wasmRequests.includes('momentum_plan_wasm_calendar_bg.wasm'), 'not fetched before the click');
  const planText = await page.inputValue('#plan');
  const requestText = await page.inputValue('#request');
  const { requestId } = JSON.parse(requestText);
  const click = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#add-calendar')]);
    await page.waitForSelector('#calendar-note:not([hidden])');
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  };
  const before = Date.now();
  const got = await click();
  assert.equal(got.name, `${requestId}.ics`);
  // the page stamps the file with this device's clock; the rest is the package's bytes for that stamp
  const stamp = /\r\nDTSTAMP:(\d{8}T\d{6}Z)\r\n/.exec(got.text)[1];
  const when = Date.parse(stamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
  assert.ok(when >= before - 2000 && when <= Date.now() + 1000, `DTSTAMP ${stamp} is now`);
  const want = wasmNode.planToIcalendar(planText, requestText, stamp);
  assert.equal(got.text, want.text);
  assert.deepEqual(want.warnings, []);
  assert.equal(await page.$eval('#calendar-note', (n) => n.dataset.kind), 'done');
  assert.match(await page.textContent('#calendar-title'), new RegExp(`Downloaded ${requestId}\\.ics`));
  assert.equal(wasmRequests.filter((n) => n === 'momentum_plan_wasm_calendar_bg.wasm').length, 1);
  assert.equal(await page.$eval('body', (b) => b.dataset.calendar), 'true');

  // a block at 02:30 in Zurich: its start does not exist on the spring change and exists twice on
  // the autumn one (within a year of startDate); the warnings are the package's, beside the button
  const plan = JSON.parse(planText);
  plan.routine.blocks.unshift({ ...plan.routine.blocks[0], activity: 'Night feed', start: '02:30', durationMin: 20 });
  plan.routine.blocks.find((b) => b.activity === 'Sleep').durationMin = 240; // 22:00 to 02:00
  const nightText = JSON.stringify(plan, null, 2);
  assert.equal(wasmNode.validatePlan(nightText, requestText).valid, true, JSON.stringify(wasmNode.validatePlan(nightText, requestText).errors));
  await page.fill('#plan', nightText);
  await page.waitForFunction(() => !document.getElementById('add-calendar').hidden && document.getElementById('calendar-note').hidden);
  const night = await click();
  const nightStamp = /\r\nDTSTAMP:(\d{8}T\d{6}Z)\r\n/.exec(night.text)[1];
  const nightWant = wasmNode.planToIcalendar(nightText, requestText, nightStamp);
  assert.equal(night.text, nightWant.text);
  assert.ok(nightWant.warnings.length >= 2, JSON.stringify(nightWant.warnings));
  assert.equal(await page.$eval('#calendar-note', (n) => n.dataset.kind), 'warnings');
  const shown = await page.$$eval('#calendar-warnings li', (li) => li.map((x) => ({ date: x.dataset.date, path: x.dataset.path, message: x.textContent })));
  assert.deepEqual(shown, nightWant.warnings);
  assert.equal(wasmRequests.filter((n) => n === 'momentum_plan_wasm_calendar_bg.wasm').length, 1, 'fetched once');
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(OUT, 'wasm-page-calendar.png'), fullPage: false });

  // an invalid plan offers no calendar; a change hides what the last download said
  await loadExample('calm-weekday-broken');
  assert.equal(await page.isHidden('#add-calendar'), true);
  assert.equal(await page.isHidden('#calendar-note'), true);
});

test('"Stream it" pressed first on a fresh page loads the second module for the stream, once', async () => {
  const fresh = await browser.newPage();
  const requests = [];
  const errors = [];
  fresh.on('pageerror', (e) => errors.push(String(e)));
  fresh.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm')) requests.push(name);
  });
  await fresh.route('**/*', (route) => (route.request().url().startsWith(server.url) ? route.continue() : route.abort()));
  try {
    await fresh.goto(server.url);
    await fresh.waitForSelector('body[data-ready="true"]');
    // a valid plan: its verdict needs nothing but the validator
    await fresh.click('.chip[data-example="calm-weekday"]');
    await fresh.waitForFunction(() => document.getElementById('verdict').dataset.state === 'valid');
    assert.deepEqual(requests, ['momentum_plan_wasm_bg.wasm']);
    const text = await fresh.inputValue('#plan');
    await fresh.click('#stream');
    await fresh.waitForSelector('body[data-extras="true"]');
    await fresh.waitForSelector('body[data-streaming="true"]');
    await fresh.waitForFunction(() => document.body.dataset.streaming === undefined, null, { timeout: 30000 });
    assert.equal(await fresh.inputValue('#plan'), text, 'the whole plan streamed in');
    assert.equal(await fresh.$eval('#verdict', (v) => v.dataset.state), 'valid');
    assert.deepEqual(requests, ['momentum_plan_wasm_bg.wasm', 'momentum_plan_wasm_extras_bg.wasm']);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test('no errors in the page console, and nothing fetched from elsewhere', () => {
  assert.deepEqual(pageErrors, []);
});
