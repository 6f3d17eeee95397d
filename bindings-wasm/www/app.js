// "Import a plan": the plan and its request are validated on this device by the WebAssembly
// validator (../pkg/web, copied to vendor/ by `npm run build`); nothing leaves the page.
//
// The page holds no validation rule: every verdict is validatePlan's. It only shows it: the
// verdict, each error and warning with its path and message, and the plan's blocks on a day
// view, with the blocks an issue points at highlighted. Plan content is shown with textContent
// only (a plan is untrusted text).
//
// When a plan has errors, repairPlan (safe fixes only) says which of them have a fix that only
// changes how a value is written or copies what the request says: "Fix what is safe to fix" lists
// each one (its description, and the value before and after at its place in the plan, read from
// the repair's patch) and, on click, puts the repaired plan in the field and checks it again.
//
// Clicking an issue (or its path) selects the value its path names in the plan field: the span
// is the core's (valueSpan, offsets in UTF-16 code units); for a path that leads to no value (a
// missing member) it is the deepest value on the path.
//
// "Stream it" writes the plan in the field again, a few characters at a time as a model would,
// into a PlanStream (validator.md §10): each issue appears under "Final while it streams" as soon
// as no continuation of the text can remove it, and the day view fills in with every block whose
// text is whole; at the end the verdict (finish(), validatePlan's) is shown as for a pasted plan.
//
// "Add to calendar" (a valid plan only) downloads the plan as an iCalendar file, <requestId>.ics
// (planToIcalendar: the same bytes as every other surface, stamped with this device's clock), and
// shows beside the button the block starts a daylight-saving change skips or repeats.
//
// The first verdict needs only the package's validator module (init()); repairPlan and PlanStream
// are in its second module, which `load()` fetches the first time the page needs one of them
// (an invalid plan's fixes, "Stream it"): the fixes card appears once it has loaded; the calendar
// functions are in its calendar module, which `loadCalendar()` fetches on the first click of "Add
// to calendar" (issue 32).

import init, { validatePlan, repairPlan, getPlanContract, renderPath, valueSpan, PlanStream, isWarning, load, loadCalendar, planToIcalendar } from './vendor/momentum-plan-wasm/index.js';
import { el, isObject, summary, issueItems, fixItems, verdictSentence, legendItems, renderDays } from './dayview.js';

const $ = (id) => document.getElementById(id);

const state = {
  ready: false,
  extras: false, // whether the second module (repairPlan, PlanStream) has loaded
  calendar: false, // whether the calendar module (planToIcalendar) has loaded
  contract: null,
  categories: new Map(), // id -> means
  timer: 0,
  example: null,
  repair: null, // the safe repair offered for the plan in the field
  fixed: null, // { repair, before }: the repair just applied, while the field holds its plan
  streaming: null, // { stream, text, request, at, bytes, settled, first, timer, paused } while "Stream it" runs
};

/** Characters written per tick, and the tick (ms), while a plan streams: about 400 characters a
 * second, a brisk model. */
const STREAM_STEP = 16;
const STREAM_TICK = 40;

/** What the shared renderer (dayview.js) needs: the contract's categories, the core's paths. */
const ctx = { categories: state.categories, renderPath };

function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function sizeText(text) {
  const bytes = new TextEncoder().encode(text).length;
  const lines = text === '' ? 0 : text.split('\n').length;
  const size = bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
  return text === '' ? '' : `${size} · ${lines} line${lines === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------
// Checking

function scheduleCheck() {
  clearTimeout(state.timer);
  state.timer = setTimeout(check, 120);
}

function check() {
  stopStreaming();
  const planText = $('plan').value;
  const requestText = $('request').value;
  $('plan-meta').textContent = sizeText(planText);
  $('request-meta').textContent = sizeText(requestText);
  setRequestError(null);
  if (!state.ready) return;
  if (planText.trim() === '' && requestText.trim() === '') {
    return showEmpty('Paste a plan, drop its file here, or try an example.', 'Then add the request it answers.');
  }
  if (requestText.trim() === '') {
    return showEmpty('Add the request this plan answers', 'The plan is checked against it: its id, its kind and its commitments.');
  }
  if (planText.trim() === '') {
    return showEmpty('Add the plan', 'Paste the JSON your assistant drafted, or drop the file.');
  }
  let verdict;
  const t0 = performance.now();
  try {
    verdict = validatePlan(planText, requestText);
  } catch (e) {
    if (e instanceof SyntaxError) {
      setRequestError(`The request is not JSON: ${e.message.replace(/^request: /, '')}`);
      return showVerdictState('unreadable', 'The request can’t be read', 'Fix the request to check the plan against it.');
    }
    return showVerdictState('unreadable', 'The plan could not be checked', String(e.message || e));
  }
  const ms = performance.now() - t0;
  $('timing').textContent = `checked in ${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms on this device`;
  const plan = parseJson(planText);
  const request = parseJson(requestText);
  render(verdict, plan.ok ? plan.value : undefined, request.ok ? request.value : undefined);
  renderFixes(verdict, planText, requestText);
}

// ---------------------------------------------------------------------------------------------
// Stream it: the plan in the field, written again as it would arrive from a model

/** Loads the second module (repairPlan, PlanStream) once; resolves to whether it loaded. */
function loadExtras() {
  return load().then(
    () => {
      document.body.dataset.extras = 'true'; // for the page test
      return (state.extras = true);
    },
    () => false,
  );
}

/** Starts streaming the plan in the field (or pauses / resumes a stream that runs); the first
 * time, after loading the second module. */
function streamButton() {
  if (state.ready && !state.extras) {
    loadExtras().then((ok) => (ok ? streamButton() : showVerdictState('unreadable', 'Streaming could not start', 'The second module of the validator did not load.')));
    return;
  }
  const s = state.streaming;
  if (s) {
    s.paused = !s.paused;
    $('stream').textContent = s.paused ? 'Resume' : 'Pause';
    if (!s.paused) streamTick();
    return;
  }
  const text = $('plan').value;
  const request = $('request').value;
  if (!state.ready || text.trim() === '' || request.trim() === '') return check();
  let stream;
  try {
    stream = new PlanStream(request);
  } catch {
    return check(); // check() says what is wrong with the request
  }
  clearTimeout(state.timer);
  state.streaming = { stream, text, request: parseJson(request), at: 0, settled: [], first: null, timer: 0, paused: false, bytes: new TextEncoder().encode(text).length };
  document.body.dataset.streaming = 'true';
  $('stream').textContent = 'Pause';
  $('plan').value = '';
  $('fixes-card').hidden = true;
  $('errors-card').hidden = true;
  $('warnings-card').hidden = true;
  $('settled').replaceChildren();
  $('settled-card').hidden = false;
  $('settled-count').textContent = '0';
  $('settled-sub').textContent = 'Each issue appears here as soon as nothing the model writes next can remove it.';
  streamTick();
}

/** Writes the next few characters into the field and the stream; shows what settled. */
function streamTick() {
  const s = state.streaming;
  if (!s || s.paused) return;
  const chunk = s.text.slice(s.at, s.at + STREAM_STEP);
  s.at += chunk.length;
  const field = $('plan');
  field.value += chunk;
  field.scrollTop = field.scrollHeight; // follow the text as it arrives
  $('plan-meta').textContent = sizeText($('plan').value);
  const settled = s.stream.push(chunk);
  if (settled.length && s.first === null) s.first = s.stream.length;
  s.settled.push(...settled);
  if (s.at >= s.text.length) return finishStreaming();
  const v = $('verdict');
  v.dataset.state = 'streaming';
  // A settled warning (a final overnight block, say) is a note, not a problem (the core's rule).
  const problems = s.settled.filter((i) => !isWarning(i.code)).length;
  const notes = s.settled.length - problems;
  const noted = notes ? ` (and ${notes} note${notes === 1 ? '' : 's'})` : '';
  $('verdict-title').textContent = problems
    ? `${problems} problem${problems === 1 ? '' : 's'} so far${noted}, and the plan is still arriving`
    : `Checking the plan as it arrives…${noted ? ` No problem so far${noted}.` : ''}`;
  $('verdict-sub').textContent = `${s.stream.length} of ${s.bytes} bytes`;
  $('import').disabled = true;
  showCalendar(false);
  const errors = s.settled.filter((i) => !isWarning(i.code));
  const warnings = s.settled.filter((i) => isWarning(i.code));
  showStreamed(wholeSoFar($('plan').value), { valid: false, errors, warnings, checks: [] });
  s.timer = setTimeout(streamTick, STREAM_TICK);
}

/** The settled issues and the day view of the plan as far as its text is whole. */
function showStreamed(plan, verdict) {
  const s = state.streaming;
  const targets = showDays(plan, s.request.ok ? s.request.value : undefined, verdict);
  $('settled-count').textContent = String(s.settled.length);
  // Errors first, numbered; then warnings, marked as the verdict's warnings are.
  const items = [
    ...issueItems(s.settled.filter((i) => !isWarning(i.code)), targets, false),
    ...issueItems(s.settled.filter((i) => isWarning(i.code)), targets, true).map((item) => {
      item.classList.add('is-warning');
      return item;
    }),
  ];
  for (const item of items) item.addEventListener('click', () => selectInPlan(item.dataset.path));
  $('settled').replaceChildren(...items);
}

/** The end of the text: the verdict (finish(), validatePlan's), shown as for a pasted plan. */
function finishStreaming() {
  const s = state.streaming;
  const verdict = s.stream.finish();
  showStreamed(wholeSoFar(s.text), verdict);
  state.streaming = null;
  delete document.body.dataset.streaming;
  $('stream').textContent = 'Stream it';
  const plan = parseJson(s.text);
  render(verdict, plan.ok ? plan.value : undefined, s.request.ok ? s.request.value : undefined);
  renderFixes(verdict, s.text, $('request').value);
  $('settled-card').hidden = s.settled.length === 0;
  if (s.first !== null) {
    const pct = Math.round((100 * s.first) / s.bytes);
    $('settled-sub').textContent = `The first was final after ${s.first} of ${s.bytes} bytes (${pct}%): a host could have stopped the model there.`;
  }
}

/** Stops a stream that runs (the fields changed, an example was picked). */
function stopStreaming() {
  const s = state.streaming;
  if (!s) {
    $('settled-card').hidden = true;
    return;
  }
  clearTimeout(s.timer);
  state.streaming = null;
  delete document.body.dataset.streaming;
  $('stream').textContent = 'Stream it';
  $('settled-card').hidden = true;
}

/**
 * The plan as far as its text is whole, for the day view while it streams (drawing only; the
 * verdict is the validator's): the text up to the last object or array that closed, with the
 * containers still open closed after it, read by JSON.parse; undefined before any closed.
 */
function wholeSoFar(text) {
  const open = [];
  let inString = false;
  let escaped = false;
  let cut = -1;
  let closers = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') open.push('}');
    else if (c === '[') open.push(']');
    else if (c === '}' || c === ']') {
      open.pop();
      cut = i + 1;
      closers = open.slice().reverse().join('');
    }
  }
  if (cut < 0) return undefined;
  return parseJson(text.slice(0, cut) + closers).value;
}

// ---------------------------------------------------------------------------------------------
// Add to calendar

/** Shows "Add to calendar" (a valid plan) or hides it with what it said. */
function showCalendar(shown) {
  $('add-calendar').hidden = !shown;
  $('calendar-note').hidden = true;
}

/** What "Add to calendar" says beside the button: `kind` 'done', 'warnings' or 'error', a title and
 * the daylight-saving warnings (`{date, path, message}`: the message says the date), as text. */
function calendarNote(kind, title, warnings = []) {
  const note = $('calendar-note');
  note.dataset.kind = kind;
  $('calendar-title').textContent = title;
  $('calendar-warnings').replaceChildren(...warnings.map((w) => el('li', { 'data-date': w.date, 'data-path': w.path }, w.message)));
  note.hidden = false;
}

/** The UTC date-time of `date` as iCalendar writes a DTSTAMP, `YYYYMMDDTHHMMSSZ` (RFC 5545 §3.3.5). */
function dtstamp(date) {
  return `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/**
 * The plan in the field as an iCalendar file (planToIcalendar, in the package's calendar module,
 * loaded on the first click), downloaded as `<requestId>.ics` (text/calendar); its warnings, or
 * what went wrong (a request without a startDate, say: the crate's words), beside the button.
 */
async function addToCalendar() {
  const button = $('add-calendar');
  if (!state.calendar) {
    button.disabled = true;
    try {
      await loadCalendar();
      state.calendar = true;
      document.body.dataset.calendar = 'true'; // for the page test
    } catch (e) {
      return calendarNote('error', `The calendar module did not load: ${e.message || e}`);
    } finally {
      button.disabled = false;
    }
  }
  const planText = $('plan').value;
  const requestText = $('request').value;
  let x;
  try {
    x = planToIcalendar(planText, requestText, dtstamp(new Date()));
  } catch (e) {
    return calendarNote('error', `No calendar file: ${e.message || e}`);
  }
  if (!('text' in x)) return check(); // the plan changed and is not valid any more: its verdict
  const request = parseJson(requestText);
  const id = request.ok && isObject(request.value) && typeof request.value.requestId === 'string' ? request.value.requestId : 'plan';
  const name = `${id.replace(/[^\w.-]+/g, '-')}.ics`;
  const url = URL.createObjectURL(new Blob([x.text], { type: 'text/calendar' }));
  el('a', { href: url, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  const n = x.warnings.length;
  if (n === 0) return calendarNote('done', `Downloaded ${name}: open it with your calendar app.`);
  calendarNote(
    'warnings',
    `Downloaded ${name}. ${n} block start${n === 1 ? ' falls' : 's fall'} on a daylight-saving change:`,
    x.warnings,
  );
}

// ---------------------------------------------------------------------------------------------
// Fix what is safe to fix

/**
 * Offers the safe fixes of an invalid plan (repairPlan, safe level), or, right after they were
 * applied, says what was fixed and what the new verdict is.
 */
function renderFixes(verdict, planText, requestText) {
  const card = $('fixes-card');
  if (state.fixed && state.fixed.repair.plan === planText) {
    const { repair } = state.fixed;
    const n = repair.applied.length;
    card.hidden = false;
    card.dataset.mode = 'applied';
    $('fixes-title').firstChild.textContent = `Fixed ${n} problem${n === 1 ? '' : 's'} `;
    $('fixes-count').textContent = String(n);
    $('apply-fixes').hidden = true;
    $('fixes-sub').textContent = 'The plan in the field is the repaired one; it was checked again.';
    $('fixes').replaceChildren(...fixItems(repair));
    const result = $('fix-result');
    result.hidden = false;
    result.dataset.valid = String(verdict.valid);
    result.textContent = verdictSentence(verdict);
    return;
  }
  state.fixed = null;
  state.repair = null;
  const unreadable = verdict.errors.length === 1 && verdict.errors[0].code === 'json';
  if (!verdict.valid && !unreadable && !state.extras) {
    // the fixes come from the second module: offered once it has loaded, if the fields still hold
    // the same plan and request (and nothing streams)
    card.hidden = true;
    loadExtras().then((ok) => {
      if (ok && !state.streaming && $('plan').value === planText && $('request').value === requestText) renderFixes(verdict, planText, requestText);
    });
    return;
  }
  let repair = null;
  if (!verdict.valid && !unreadable) {
    try {
      repair = repairPlan(planText, requestText);
    } catch {
      repair = null;
    }
  }
  if (!repair || repair.applied.length === 0) {
    card.hidden = true;
    return;
  }
  state.repair = repair;
  const n = repair.applied.length;
  card.hidden = false;
  card.dataset.mode = 'offer';
  $('fixes-title').firstChild.textContent = 'Fix what is safe to fix ';
  $('fixes-count').textContent = String(n);
  $('apply-fixes').hidden = false;
  $('apply-fixes').textContent = `Fix ${n === 1 ? 'it' : `these ${n}`}`;
  $('fixes-sub').textContent =
    'These fixes only change how a value is written, or copy what the request already says. Nothing else in the plan changes.';
  $('fixes').replaceChildren(...fixItems(repair));
  $('fix-result').hidden = true;
}

/** Applies the safe fixes: repairPlan runs on the fields as they are now (the text may have
 * changed since the offer was drawn), its plan goes into the field and is checked again. */
function applyFixes() {
  if (!state.repair) return;
  let repair;
  try {
    repair = repairPlan($('plan').value, $('request').value);
  } catch {
    return check();
  }
  if (repair.applied.length === 0) return check();
  state.fixed = { repair };
  $('plan').value = repair.plan;
  setExample(null);
  clearTimeout(state.timer);
  check();
}

function setRequestError(message) {
  const p = $('request-error');
  p.hidden = message === null;
  p.textContent = message ?? '';
  document.querySelector('[data-field="request"]').classList.toggle('is-bad', message !== null);
}

function showVerdictState(kind, title, sub) {
  const v = $('verdict');
  v.dataset.state = kind;
  $('verdict-title').textContent = title;
  $('verdict-sub').textContent = sub;
  $('import').disabled = true;
  showCalendar(false);
  $('errors-card').hidden = true;
  $('warnings-card').hidden = true;
  $('fixes-card').hidden = true;
}

function showEmpty(title, sub) {
  showVerdictState('empty', title, sub);
  $('timing').textContent = '';
  $('dayview-title').textContent = 'Day view';
  $('legend').replaceChildren();
  $('dayview').replaceChildren(el('p', { class: 'empty muted' }, 'The plan’s days appear here once it is JSON.'));
}

// ---------------------------------------------------------------------------------------------
// Rendering the verdict

function render(verdict, plan, request) {
  const errors = verdict.errors;
  const warnings = verdict.warnings;
  const notes = warnings.length ? ` · ${warnings.length} note${warnings.length === 1 ? '' : 's'}` : '';
  if (verdict.valid) {
    showVerdictState('valid', 'Ready to import', `${summary(plan)}${notes}`);
    $('import').disabled = false;
    showCalendar(true);
  } else if (errors.length === 1 && errors[0].code === 'json') {
    showVerdictState('unreadable', 'This isn’t a plan file yet', 'The text is not JSON; the message below says where.');
  } else {
    const n = errors.length;
    showVerdictState('invalid', `${n} problem${n === 1 ? '' : 's'} to fix before importing`, `${summary(plan)}${notes}`);
  }
  const targets = showDays(plan, request, verdict);
  renderIssues('errors', errors, targets, false);
  renderIssues('warnings', warnings, targets, true);
}

function renderIssues(kind, issues, targets, isWarning) {
  $(`${kind}-card`).hidden = issues.length === 0;
  $(`${kind}-count`).textContent = String(issues.length);
  const items = issueItems(issues, targets, isWarning);
  for (const item of items) {
    item.title = 'Show this in the plan';
    item.addEventListener('click', () => selectInPlan(item.dataset.path));
  }
  $(kind).replaceChildren(...items);
}

/** Selects the text of the value at `path` in the plan field (valueSpan), focuses the field and
 * scrolls the selection into view. Does nothing when the text is not JSON. */
function selectInPlan(path) {
  const field = $('plan');
  let span;
  try {
    span = valueSpan(field.value, path);
  } catch {
    return;
  }
  if (!span) return;
  field.focus({ preventScroll: true });
  field.setSelectionRange(span.start.offset, span.end.offset);
  field.dataset.selected = span.missing ? `missing ${span.found}` : path;
  const lineHeight = parseFloat(getComputedStyle(field).lineHeight) || 18;
  field.scrollTop = Math.max(0, (span.start.line - 1) * lineHeight - field.clientHeight / 3);
  field.scrollIntoView({ block: 'nearest' });
}

/** The day view (dayview.js) of the plan in the field, with its legend. */
function showDays(plan, request, verdict) {
  const days = renderDays(plan, request, verdict, ctx);
  $('dayview-title').textContent = days.title;
  $('dayview').replaceChildren(days.node);
  $('legend').replaceChildren(...legendItems(days.used, ctx));
  return days.targets;
}

// ---------------------------------------------------------------------------------------------
// Inputs: examples, files, drag and drop

function exampleLabel(id) {
  const broken = id.endsWith('-broken');
  const words = (broken ? id.slice(0, -7) : id).split('-').map((w) => w.toUpperCase() === '5K' ? '5K' : w);
  const text = words.join(' ');
  return { text: text.charAt(0).toUpperCase() + text.slice(1), broken };
}

async function loadExamples() {
  const list = $('example-list');
  let examples = [];
  try {
    examples = await (await fetch('examples/examples.json')).json();
  } catch {
    list.append(el('span', { class: 'muted' }, 'Examples are not available.'));
    return;
  }
  for (const ex of examples) {
    const { text, broken } = exampleLabel(ex.id);
    const chip = el('button', { type: 'button', class: 'chip', 'data-example': ex.id, 'aria-pressed': 'false', role: 'listitem' }, text, broken ? el('span', { class: 'tag' }, 'has mistakes') : null);
    chip.addEventListener('click', async () => {
      const [plan, request] = await Promise.all([fetch(`examples/${ex.plan}`).then((r) => r.text()), fetch(`examples/${ex.request}`).then((r) => r.text())]);
      $('plan').value = plan;
      $('request').value = request;
      setExample(ex.id);
      check();
    });
    list.append(chip);
  }
}

function setExample(id) {
  state.example = id;
  $('toast').hidden = true;
  for (const chip of document.querySelectorAll('.chip')) chip.setAttribute('aria-pressed', String(chip.dataset.example === id));
}

/** Which field a dropped file belongs in: by its name, else by its content. */
function fieldFor(name, text) {
  if (/request/i.test(name)) return 'request';
  if (/plan/i.test(name)) return 'plan';
  const parsed = parseJson(text);
  if (parsed.ok && isObject(parsed.value)) {
    const v = parsed.value;
    if ('format' in v || 'routine' in v || 'goal' in v) return 'plan';
    if ('requestId' in v) return 'request';
  }
  return 'plan';
}

async function loadFiles(files, into) {
  const read = await Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));
  for (const f of read) {
    const field = into && read.length === 1 ? into : fieldFor(f.name, f.text);
    $(field).value = f.text;
  }
  setExample(null);
  check();
}

function wireInputs() {
  for (const id of ['plan', 'request']) {
    $(id).addEventListener('input', () => {
      setExample(null);
      scheduleCheck();
    });
  }
  const picker = $('file');
  let into = null;
  for (const b of document.querySelectorAll('[data-open]')) {
    b.addEventListener('click', () => {
      into = b.dataset.open;
      picker.click();
    });
  }
  picker.addEventListener('change', () => {
    if (picker.files.length) loadFiles(picker.files, into);
    picker.value = '';
  });
  const zone = $('inputs');
  let depth = 0;
  zone.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth += 1;
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragover', (e) => e.preventDefault());
  zone.addEventListener('dragleave', () => {
    depth -= 1;
    if (depth <= 0) zone.classList.remove('dragging');
  });
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove('dragging');
    const field = e.target instanceof Element ? e.target.closest('[data-field]') : null;
    if (e.dataTransfer && e.dataTransfer.files.length) loadFiles(e.dataTransfer.files, field ? field.dataset.field : null);
  });
  $('apply-fixes').addEventListener('click', applyFixes);
  $('stream').addEventListener('click', streamButton);
  $('add-calendar').addEventListener('click', addToCalendar);
  $('import').addEventListener('click', () => {
    const plan = parseJson($('plan').value);
    const name = plan.ok && isObject(plan.value) && typeof plan.value.name === 'string' ? `“${plan.value.name}”` : 'The plan';
    toast(`${name} imported. (This page is a demo: nothing was saved.)`);
  });
}

function toast(message) {
  const t = $('toast');
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 2600);
}

async function main() {
  wireInputs();
  const examples = loadExamples();
  try {
    await init();
  } catch (e) {
    showVerdictState('unreadable', 'The validator could not start', String(e.message || e));
    return;
  }
  state.contract = getPlanContract();
  for (const c of state.contract.categories) state.categories.set(c.id, c.means);
  $('engine').textContent = `momentum-plan validator · WebAssembly · contract ${state.contract.format} v${state.contract.contractVersion}`;
  state.ready = true;
  document.body.dataset.ready = 'true';
  await examples;
  check();
}

main();
