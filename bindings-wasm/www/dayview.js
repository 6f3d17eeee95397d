// The day view of a plan, its issues and its fixes: the one renderer of the "Import a plan" page
// (app.js, index.html) and the MCP Apps plan view (view/view.js, built with this file inlined into
// one HTML document by scripts/build-view.mjs). Styles: dayview.css.
//
// It holds no validation rule: every verdict and every repair comes from the core (the page's
// WebAssembly, the view's MCP server). It draws what they say: each list of a routine (every day,
// then each weekday) on a 24-hour axis with the request's commitments shaded and an overnight
// block's part after midnight shown at the top, a goal plan day by day, and each issue at its
// block. Plan content is shown with textContent only (a plan is untrusted text).
//
// Every function takes `ctx = { categories, renderPath }`: `categories` a Map of the contract's
// category ids to what each covers (may be empty), `renderPath(segments)` the core's JSONPath
// rendering (validator.md §4, D7) of member names and indices.

export const WEEKDAY_NAMES = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
export const MINUTES = 24 * 60;

/** Element factory: el('div', {class: 'x', title: 'y'}, child, 'text', ...). */
export function el(tag, attrs = {}, ...children) {
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

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether issue path `p` is at or inside element path `e`. */
function within(p, e) {
  return p === e || (p.startsWith(e) && (p[e.length] === '.' || p[e.length] === '['));
}

/** "HH:MM" -> minutes, for drawing only (the verdict says whether a time is valid). */
function clock(v) {
  if (typeof v !== 'string' || !/^\d\d:\d\d$/.test(v)) return null;
  const h = Number(v.slice(0, 2));
  const m = Number(v.slice(3));
  return h <= 24 && m < 60 && h * 60 + m <= MINUTES ? h * 60 + m : null;
}

const hhmm = (m) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** A category's colour: its own for one of the contract's (or any plain lower-case id, which
 * falls back to "other" in CSS when it has none), "other" for anything else. */
function catColor(id, ctx) {
  if (ctx.categories.size > 0) return ctx.categories.has(id) ? `var(--c-${id})` : 'var(--c-other)';
  return typeof id === 'string' && /^[a-z]+$/.test(id) ? `var(--c-${id}, var(--c-other))` : 'var(--c-other)';
}

/** A one-line summary of a plan: its name, kind and how many blocks or days. */
export function summary(plan) {
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

// ---------------------------------------------------------------------------------------------
// Issues

/**
 * The list items of a verdict's errors (numbered) or warnings ("!"): message, code and path, each
 * linked to its target in the day view (hover lights it, click scrolls to it).
 */
export function issueItems(issues, targets, isWarning) {
  return issues.map((issue, i) => {
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
  });
}

// ---------------------------------------------------------------------------------------------
// Fixes (validator.md §9)

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

/** The list items of a repair's applied fixes, each with its value before and after. */
export function fixItems(repair) {
  const changes = changesOf(repair);
  return repair.applied.map((f, i) => fixItem(f, changes[i], i));
}

/** What a verdict says after a repair, in a sentence. */
export function verdictSentence(verdict, ready = 'The plan is now ready to import.') {
  if (verdict.valid) return ready;
  const n = verdict.errors.length;
  return `${n} problem${n === 1 ? '' : 's'} left: ${n === 1 ? 'it needs' : 'they need'} a decision the validator cannot make.`;
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

/** The legend's items: one per category the plan uses, titled with what it covers. */
export function legendItems(used, ctx) {
  return [...used].map((id) =>
    el('span', { title: ctx.categories.get(id) ?? (ctx.categories.size ? 'not one of the nine categories' : id), style: `--cat:${catColor(id, ctx)}` }, el('i'), id),
  );
}

/**
 * Draws `plan` (with its `request`, for the commitments) and marks `verdict`'s issues on it.
 * @returns {{ node: Element, title: string, used: Set<string>, targets: Targets }} the view to
 *   show, its heading ("Day view" or "Days"), the categories used (for the legend) and the issue
 *   targets (for issueItems)
 */
export function renderDays(plan, request, verdict, ctx) {
  const targets = new Targets();
  const used = new Set();
  let node;
  let title = 'Day view';
  if (isObject(plan) && isObject(plan.routine)) {
    node = routineView(plan.routine, request, targets, used, ctx);
  } else if (isObject(plan) && isObject(plan.goal) && Array.isArray(plan.goal.days)) {
    title = 'Days';
    node = goalView(plan.goal.days, targets, used, ctx);
  } else {
    node = el('p', { class: 'empty muted' }, isObject(plan) ? 'This plan has no routine or goal days to show.' : 'The plan’s days appear here once it is JSON.');
  }
  targets.mark(verdict);
  return { node, title, used, targets };
}

/** The lists of a routine: the every-day blocks, then the weekday lists in weekday order. */
function routineLists(routine, ctx) {
  const lists = [{ title: 'Every day', key: null, path: ctx.renderPath(['routine', 'blocks']), blocks: routine.blocks }];
  if (isObject(routine.weekdays)) {
    const order = Object.keys(WEEKDAY_NAMES);
    const keys = Object.keys(routine.weekdays).sort((a, b) => {
      const ia = order.indexOf(a);
      const ib = order.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    });
    for (const k of keys) {
      lists.push({ title: WEEKDAY_NAMES[k] ?? k, key: k, path: ctx.renderPath(['routine', 'weekdays', k]), blocks: routine.weekdays[k] });
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

function routineView(routine, request, targets, used, ctx) {
  const lists = routineLists(routine, ctx);
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
          style: `--cat:${catColor(s.b.category, ctx)};top:calc(var(--hour) * ${s.from / 60});height:calc(var(--hour) * ${(s.to - s.from) / 60} - 2px);left:calc(${s.lane} * 100% / ${s.lanes} + 2px);width:calc(100% / ${s.lanes} - 4px)`,
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

function goalView(days, targets, used, ctx) {
  const wrap = el('div', { class: 'days' });
  days.forEach((day, d) => {
    const path = ctx.renderPath(['goal', 'days', d]);
    const activities = isObject(day) && Array.isArray(day.activities) ? day.activities : [];
    const total = activities.reduce((n, a) => n + (isObject(a) && typeof a.minutes === 'number' ? a.minutes : 0), 0);
    const card = el('div', { class: 'day' }, el('h4', {}, `Day ${isObject(day) && day.day !== undefined ? day.day : d + 1}`, el('small', {}, `${total} min`)), el('span', { class: 'badges' }));
    activities.forEach((a, i) => {
      if (!isObject(a)) return;
      used.add(typeof a.category === 'string' ? a.category : '?');
      const node = el(
        'div',
        { class: 'activity', style: `--cat:${catColor(a.category, ctx)}`, title: typeof a.guidance === 'string' ? a.guidance : '' },
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
