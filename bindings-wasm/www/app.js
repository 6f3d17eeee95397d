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

import init, { validatePlan, repairPlan, getPlanContract, renderPath } from './vendor/momentum-plan-wasm/index.js';

const $ = (id) => document.getElementById(id);
const WEEKDAY_NAMES = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
const MINUTES = 24 * 60;

const state = {
  ready: false,
  contract: null,
  categories: new Map(), // id -> means
  timer: 0,
  example: null,
  repair: null, // the safe repair offered for the plan in the field
  fixed: null, // { repair, before }: the repair just applied, while the field holds its plan
};

/** Element factory: el('div', {class: 'x', title: 'y'}, child, 'text', ...). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'style') node.style.cssText = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Whether issue path `p` is at or inside element path `e`. */
function within(p, e) {
  return p === e || (p.startsWith(e) && (p[e.length] === '.' || p[e.length] === '['));
}

function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** "HH:MM" -> minutes, for drawing only (the verdict says whether a time is valid). */
function clock(v) {
  if (typeof v !== 'string' || !/^\d\d:\d\d$/.test(v)) return null;
  const h = Number(v.slice(0, 2));
  const m = Number(v.slice(3));
  return h <= 24 && m < 60 && h * 60 + m <= MINUTES ? h * 60 + m : null;
}

const hhmm = (m) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

function catColor(id) {
  return state.categories.has(id) ? `var(--c-${id})` : 'var(--c-other)';
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
// Fix what is safe to fix

/**
 * The patch of a repair cut into one change per applied fix, in order: every fix wrote one
 * `add`, or a `test` of the old value followed by its `replace`, `remove` or `move`.
 */
function changesOf(repair) {
  const out = [];
  const ops = repair.patch;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (op.op === 'test' && i + 1 < ops.length) {
      const next = ops[++i];
      if (next.op === 'replace') out.push({ kind: 'replace', before: op.value, after: next.value });
      else if (next.op === 'remove') out.push({ kind: 'remove', before: op.value });
      else if (next.op === 'move') out.push({ kind: 'rename', from: memberName(next.from), to: memberName(next.path), value: op.value });
      else out.push({ kind: next.op });
    } else if (op.op === 'add') {
      out.push({ kind: 'add', after: op.value });
    } else {
      out.push({ kind: op.op });
    }
  }
  return out;
}

/** The last member name of a JSON Pointer (RFC 6901 unescaped). */
function memberName(pointer) {
  return pointer.slice(pointer.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A JSON value as short text for the before/after columns. */
function shortJson(v) {
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** One applied fix: its description, its place, and the value before and after. */
function fixItem(fix, change, i) {
  const before = el('code', { class: 'before' });
  const after = el('code', { class: 'after' });
  if (!change) {
    before.textContent = '';
  } else if (change.kind === 'replace') {
    before.textContent = shortJson(change.before);
    after.textContent = shortJson(change.after);
  } else if (change.kind === 'add') {
    before.textContent = '(missing)';
    before.classList.add('none');
    after.textContent = shortJson(change.after);
  } else if (change.kind === 'remove') {
    before.textContent = shortJson(change.before);
    after.textContent = '(removed)';
    after.classList.add('none');
  } else if (change.kind === 'rename') {
    before.textContent = `${JSON.stringify(change.from)}:`;
    after.textContent = `${JSON.stringify(change.to)}:`;
  }
  return el(
    'li',
    { class: 'fix', 'data-code': fix.code, 'data-path': fix.path },
    el('span', { class: 'num' }, String(i + 1)),
    el('span', { class: 'desc' }, fix.description),
    el('span', { class: 'where' }, el('code', { class: 'code' }, fix.code), el('code', {}, fix.path)),
    el('span', { class: 'change' }, before, el('span', { class: 'arrow', 'aria-label': 'becomes' }, '→'), after),
  );
}

function fixList(repair) {
  const changes = changesOf(repair);
  $('fixes').replaceChildren(...repair.applied.map((f, i) => fixItem(f, changes[i], i)));
}

/** What the verdict now says, in a sentence. */
function verdictSentence(verdict) {
  if (verdict.valid) return 'The plan is now ready to import.';
  const n = verdict.errors.length;
  return `${n} problem${n === 1 ? '' : 's'} left: ${n === 1 ? 'it needs' : 'they need'} a decision the validator cannot make.`;
}

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
    fixList(repair);
    const result = $('fix-result');
    result.hidden = false;
    result.dataset.valid = String(verdict.valid);
    result.textContent = verdictSentence(verdict);
    return;
  }
  state.fixed = null;
  state.repair = null;
  const unreadable = verdict.errors.length === 1 && verdict.errors[0].code === 'json';
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
  fixList(repair);
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

function summary(plan) {
  if (!isObject(plan)) return '';
  const parts = [];
  if (typeof plan.name === 'string' && plan.name.trim() !== '') parts.push(`“${plan.name}”`);
  if (typeof plan.kind === 'string') parts.push(plan.kind);
  if (isObject(plan.routine)) {
    const lists = [plan.routine.blocks, ...(isObject(plan.routine.weekdays) ? Object.values(plan.routine.weekdays) : [])];
    const blocks = lists.filter(Array.isArray).reduce((n, l) => n + l.length, 0);
    const days = isObject(plan.routine.weekdays) ? Object.keys(plan.routine.weekdays).length : 0;
    parts.push(`${blocks} block${blocks === 1 ? '' : 's'}${days ? ` · ${days} weekday list${days === 1 ? '' : 's'}` : ''}`);
  } else if (isObject(plan.goal) && Array.isArray(plan.goal.days)) {
    parts.push(`${plan.goal.days.length} day${plan.goal.days.length === 1 ? '' : 's'}`);
  }
  return parts.join(' · ');
}

function render(verdict, plan, request) {
  const errors = verdict.errors;
  const warnings = verdict.warnings;
  const notes = warnings.length ? ` · ${warnings.length} note${warnings.length === 1 ? '' : 's'}` : '';
  if (verdict.valid) {
    showVerdictState('valid', 'Ready to import', `${summary(plan)}${notes}`);
    $('import').disabled = false;
  } else if (errors.length === 1 && errors[0].code === 'json') {
    showVerdictState('unreadable', 'This isn’t a plan file yet', 'The text is not JSON; the message below says where.');
  } else {
    const n = errors.length;
    showVerdictState('invalid', `${n} problem${n === 1 ? '' : 's'} to fix before importing`, `${summary(plan)}${notes}`);
  }
  const targets = renderDays(plan, request, verdict);
  renderIssues('errors', errors, targets, false);
  renderIssues('warnings', warnings, targets, true);
}

function renderIssues(kind, issues, targets, isWarning) {
  const list = $(kind);
  const card = $(`${kind}-card`);
  card.hidden = issues.length === 0;
  $(`${kind}-count`).textContent = String(issues.length);
  list.replaceChildren(
    ...issues.map((issue, i) => {
      const label = isWarning ? `!` : String(i + 1);
      const target = targets.find(issue.path);
      const item = el(
        'li',
        { class: 'issue', 'data-code': issue.code, 'data-path': issue.path, 'data-target': target ? target.dataset.path : null },
        el('span', { class: 'num' }, label),
        el('span', { class: 'msg' }, issue.message),
        el('span', { class: 'where' }, el('code', { class: 'code' }, issue.code), el('code', {}, issue.path)),
      );
      if (target) {
        item.addEventListener('mouseenter', () => target.classList.add('is-hot'));
        item.addEventListener('mouseleave', () => target.classList.remove('is-hot'));
        item.addEventListener('click', () => {
          target.scrollIntoView({ block: 'center', behavior: 'smooth' });
          target.classList.add('is-hot');
          setTimeout(() => target.classList.remove('is-hot'), 1200);
        });
      }
      return item;
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The day view

/** Issue targets: elements carrying a data-path; `find` picks the deepest one holding a path. */
class Targets {
  constructor() {
    this.nodes = [];
  }
  add(node, path) {
    node.dataset.path = path;
    this.nodes.push(node);
    return node;
  }
  find(path) {
    let best = null;
    for (const n of this.nodes) {
      if (within(path, n.dataset.path) && (!best || n.dataset.path.length > best.dataset.path.length)) best = n;
    }
    return best;
  }
  /** Marks every target with the issues inside it (numbered as in the lists). */
  mark(verdict) {
    const mark = (issue, badge, cls) => {
      const n = this.find(issue.path);
      if (!n) return;
      n.classList.add(cls);
      n.title = `${n.title ? `${n.title}\n` : ''}${issue.code}: ${issue.message}`;
      const badges = n.querySelector(':scope > .badges');
      if (badges) badges.append(el('i', { class: cls === 'has-warning' ? 'w' : '' }, badge));
    };
    verdict.errors.forEach((issue, i) => mark(issue, String(i + 1), 'has-error'));
    verdict.warnings.forEach((issue) => mark(issue, '!', 'has-warning'));
  }
}

function legend(categories) {
  $('legend').replaceChildren(
    ...[...categories].map((id) =>
      el('span', { title: state.categories.get(id) ?? 'not one of the nine categories', style: `--cat:${catColor(id)}` }, el('i'), id),
    ),
  );
}

function renderDays(plan, request, verdict) {
  const targets = new Targets();
  const view = $('dayview');
  const used = new Set();
  if (isObject(plan) && isObject(plan.routine)) {
    $('dayview-title').textContent = 'Day view';
    view.replaceChildren(routineView(plan.routine, request, targets, used));
  } else if (isObject(plan) && isObject(plan.goal) && Array.isArray(plan.goal.days)) {
    $('dayview-title').textContent = 'Days';
    view.replaceChildren(goalView(plan.goal.days, targets, used));
  } else {
    $('dayview-title').textContent = 'Day view';
    view.replaceChildren(el('p', { class: 'empty muted' }, isObject(plan) ? 'This plan has no routine or goal days to show.' : 'The plan’s days appear here once it is JSON.'));
  }
  legend(used);
  targets.mark(verdict);
  return targets;
}

/** The lists of a routine: the every-day blocks, then the weekday lists in weekday order. */
function routineLists(routine) {
  const lists = [{ title: 'Every day', key: null, path: renderPath(['routine', 'blocks']), blocks: routine.blocks }];
  if (isObject(routine.weekdays)) {
    const order = Object.keys(WEEKDAY_NAMES);
    const keys = Object.keys(routine.weekdays).sort((a, b) => {
      const ia = order.indexOf(a);
      const ib = order.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    });
    for (const k of keys) {
      lists.push({ title: WEEKDAY_NAMES[k] ?? k, key: k, path: renderPath(['routine', 'weekdays', k]), blocks: routine.weekdays[k] });
    }
  }
  return lists;
}

/** Whether a commitment occurs on the list's day (drawing only; D9's reading). */
function occurs(commitment, key) {
  const days = commitment.days;
  if (days === undefined || days === null) return true;
  if (!Array.isArray(days)) return false;
  return key === null ? days.length > 0 : days.includes(key);
}

function routineView(routine, request, targets, used) {
  const lists = routineLists(routine);
  const grid = el('div', { class: 'timeline', style: `--cols:${lists.length}` });
  grid.append(el('div', { class: 'col-head' }));
  for (const list of lists) {
    const n = Array.isArray(list.blocks) ? list.blocks.length : 0;
    grid.append(targets.add(el('div', { class: 'col-head' }, list.title, el('small', {}, `${n} block${n === 1 ? '' : 's'}`)), list.path));
  }
  const hours = el('div', { class: 'hours' });
  for (let h = 0; h <= 24; h += 2) hours.append(el('span', { style: `top:calc(var(--hour) * ${h})` }, `${String(h).padStart(2, '0')}:00`));
  grid.append(hours);
  const commitments = isObject(request) && Array.isArray(request.commitments) ? request.commitments.filter(isObject) : [];
  const unplaced = [];
  for (const list of lists) {
    const lane = el('div', { class: 'lane' });
    for (const c of commitments) {
      const s = clock(c.start);
      const e = clock(c.end);
      if (s === null || e === null || !occurs(c, list.key)) continue;
      const parts = e > s ? [[s, e]] : [[s, MINUTES], [0, e]];
      for (const [a, b] of parts) {
        if (b <= a) continue;
        lane.append(
          el('div', { class: 'band', style: `top:calc(var(--hour) * ${a / 60});height:calc(var(--hour) * ${(b - a) / 60})`, title: `Commitment: ${c.label ?? ''} ${c.start}–${c.end}` },
            el('span', {}, typeof c.label === 'string' ? c.label : 'commitment')),
        );
      }
    }
    const blocks = Array.isArray(list.blocks) ? list.blocks : [];
    const segments = [];
    blocks.forEach((b, i) => {
      const path = `${list.path}[${i}]`;
      if (!isObject(b)) {
        unplaced.push({ path, text: `${list.title}, block ${i + 1}: not a block` });
        return;
      }
      used.add(typeof b.category === 'string' ? b.category : '?');
      const start = clock(b.start);
      const dur = b.durationMin;
      if (start === null || start >= MINUTES || typeof dur !== 'number' || !(dur > 0)) {
        const what = start === null ? `start ${JSON.stringify(b.start)}` : `duration ${JSON.stringify(dur)}`;
        unplaced.push({ path, text: `${list.title}, block ${i + 1} (${b.activity ?? 'no activity'}): ${what} can’t be placed` });
        return;
      }
      const end = start + Math.min(dur, MINUTES);
      segments.push({ b, i, path, from: start, to: Math.min(end, MINUTES), start, end, wrap: false });
      if (end > MINUTES) segments.push({ b, i, path: null, from: 0, to: Math.min(end - MINUTES, MINUTES), start, end, wrap: true });
    });
    layoutLanes(segments);
    for (const s of segments) {
      const height = ((s.to - s.from) / 60) * 26;
      const label = typeof s.b.activity === 'string' ? s.b.activity : '(no activity)';
      const time = `${hhmm(s.start)}–${hhmm(s.end)}${s.end > MINUTES ? ' +1' : ''}`;
      const node = el(
        'div',
        {
          class: `block${height < 34 ? ' tiny' : ''}${s.wrap ? ' wrap' : ''}`,
          style: `--cat:${catColor(s.b.category)};top:calc(var(--hour) * ${s.from / 60});height:calc(var(--hour) * ${(s.to - s.from) / 60} - 2px);left:calc(${s.lane} * 100% / ${s.lanes} + 2px);width:calc(100% / ${s.lanes} - 4px)`,
          title: `${label} · ${time} · ${s.b.category ?? 'no category'}${s.b.essential === true ? ' · essential' : ''}`,
        },
        el('b', {}, s.wrap ? `↳ ${label}` : label),
        el('span', { class: 't' }, s.wrap ? `until ${hhmm(s.end - MINUTES)}` : time),
        el('span', { class: 'badges' }),
      );
      lane.append(s.path ? targets.add(node, s.path) : node);
    }
    grid.append(lane);
  }
  if (unplaced.length > 0) {
    grid.append(el('ul', { class: 'unplaced' }, unplaced.map((u) => targets.add(el('li', {}, u.text, el('span', { class: 'badges' })), u.path))));
  }
  return grid;
}

/** Side-by-side lanes for segments that overlap in time (calendar style). */
function layoutLanes(segments) {
  segments.sort((a, b) => a.from - b.from || b.to - a.to);
  let cluster = [];
  let clusterEnd = -1;
  const close = () => {
    const lanes = Math.max(1, ...cluster.map((s) => s.lane + 1));
    for (const s of cluster) s.lanes = lanes;
    cluster = [];
  };
  for (const s of segments) {
    if (s.from >= clusterEnd && cluster.length) close();
    const busy = new Set(cluster.filter((o) => o.to > s.from).map((o) => o.lane));
    let lane = 0;
    while (busy.has(lane)) lane += 1;
    s.lane = lane;
    cluster.push(s);
    clusterEnd = Math.max(clusterEnd, s.to);
  }
  if (cluster.length) close();
}

function goalView(days, targets, used) {
  const wrap = el('div', { class: 'days' });
  days.forEach((day, d) => {
    const path = renderPath(['goal', 'days', d]);
    const activities = isObject(day) && Array.isArray(day.activities) ? day.activities : [];
    const total = activities.reduce((n, a) => n + (isObject(a) && typeof a.minutes === 'number' ? a.minutes : 0), 0);
    const card = el('div', { class: 'day' }, el('h4', {}, `Day ${isObject(day) && day.day !== undefined ? day.day : d + 1}`, el('small', {}, `${total} min`)), el('span', { class: 'badges' }));
    activities.forEach((a, i) => {
      if (!isObject(a)) return;
      used.add(typeof a.category === 'string' ? a.category : '?');
      const node = el(
        'div',
        { class: 'activity', style: `--cat:${catColor(a.category)}`, title: typeof a.guidance === 'string' ? a.guidance : '' },
        el('b', {}, typeof a.title === 'string' ? a.title : '(no title)'),
        el('span', {}, `${a.activity ?? '?'} · ${a.category ?? 'no category'} · ${a.minutes ?? '?'} min`),
        el('span', { class: 'badges' }),
      );
      card.append(targets.add(node, `${path}.activities[${i}]`));
    });
    wrap.append(targets.add(card, path));
  });
  return wrap;
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
