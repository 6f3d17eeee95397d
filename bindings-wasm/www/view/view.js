// The MCP Apps plan view (`ui://momentum-planner/plan-view`, mcp-server.md "The plan view in the
// conversation"; the extension: modelcontextprotocol/ext-apps, specification/2026-01-26/apps.mdx).
// scripts/build-view.mjs inlines this file, ../dayview.js and the styles into one HTML document
// that every server of the project serves with the same bytes.
//
// It speaks the extension's JSON-RPC over postMessage to the host itself (the spec's "you don't
// need an SDK"): the official App class would bring the whole MCP SDK and zod into the document,
// over ten times its size. What it does:
//   - `ui/initialize` (protocol 2026-01-26), then `ui/notifications/initialized`; the host context's
//     theme and style variables are applied, and again on `ui/notifications/host-context-changed`;
//   - `ui/notifications/tool-input` (the plan and request of validate_plan or repair_plan) and
//     `ui/notifications/tool-result` (the verdict, or a repair) are drawn as the day view, each
//     issue at its block (dayview.js);
//   - "Fix what is safe to fix" sends `tools/call repair_plan` through the host and shows each
//     change before and after, then the new verdict; "Save" (`tools/call save_plan`) is offered
//     when the server has a plan store (its `resources/templates/list` holds `plan://{planId}`);
//   - its size goes to the host in `ui/notifications/size-changed` whenever it changes.
// Every verdict and repair is the server's: the view holds no rule of the validator.

import { el, isObject, summary, issueItems, fixItems, verdictSentence, legendItems, renderDays } from '../dayview.js';
import { renderPath } from './path.js';

const PROTOCOL_VERSION = '2026-01-26';
const APP_INFO = { name: 'momentum-planner-plan-view', version: '0.1.0' };
const $ = (id) => document.getElementById(id);

const ctx = { categories: new Map(), renderPath };

const state = {
  plan: undefined, // the plan as drawn (an object; parsed when it came as text)
  planArg: undefined, // the plan as the next tool call sends it (object or text)
  request: undefined,
  verdict: null,
  repair: null, // the repair shown, when the last result was one
  canSave: false,
  busy: false,
};

// ---------------------------------------------------------------------------------------------
// JSON-RPC over postMessage, to the host (through its sandbox proxy, when it has one)

let nextId = 1;
const pending = new Map();

function send(message) {
  window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
}

function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

const notify = (method, params) => send({ method, params });

window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const m = event.data;
  if (!isObject(m) || m.jsonrpc !== '2.0') return;
  if (m.method === undefined) {
    const waiting = pending.get(m.id);
    if (!waiting) return;
    pending.delete(m.id);
    if (isObject(m.error)) waiting.reject(new Error(String(m.error.message ?? 'the host answered with an error')));
    else waiting.resolve(m.result);
    return;
  }
  if (m.id !== undefined) {
    // requests from the host: teardown (nothing to keep) and ping
    if (m.method === 'ui/resource-teardown' || m.method === 'ping') send({ id: m.id, result: {} });
    else send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
    return;
  }
  const p = isObject(m.params) ? m.params : {};
  if (m.method === 'ui/notifications/tool-input') toolInput(p.arguments);
  else if (m.method === 'ui/notifications/tool-result') toolResult(p);
  else if (m.method === 'ui/notifications/tool-cancelled') showStatus(`The tool call was cancelled${p.reason ? `: ${p.reason}` : ''}.`, 'error');
  else if (m.method === 'ui/notifications/host-context-changed') applyHostContext(p);
});

// ---------------------------------------------------------------------------------------------
// Theme and size

/** The host's theme (data-theme and color-scheme, as the SDK's applyDocumentTheme does) and its
 * style variables; the view's own fallbacks (view.css) stand for any it leaves out. */
function applyHostContext(context) {
  if (!isObject(context)) return;
  const root = document.documentElement;
  if (context.theme === 'light' || context.theme === 'dark') {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  const styles = isObject(context.styles) ? context.styles : {};
  if (isObject(styles.variables)) {
    for (const [k, v] of Object.entries(styles.variables)) if (typeof v === 'string' && k.startsWith('--')) root.style.setProperty(k, v);
  }
  if (isObject(styles.css) && typeof styles.css.fonts === 'string' && !$('host-fonts')) {
    document.head.append(el('style', { id: 'host-fonts' }, styles.css.fonts));
  }
}

/** Sends `ui/notifications/size-changed` when the content's size changes (once a frame). */
function reportSize() {
  let queued = false;
  let last = '';
  const measure = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      const root = document.documentElement;
      const height = root.style.height;
      root.style.height = 'max-content';
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) };
      root.style.height = height;
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      document.body.dataset.size = key;
      notify('ui/notifications/size-changed', size);
    });
  };
  const observer = new ResizeObserver(measure);
  observer.observe(document.documentElement);
  observer.observe(document.body);
  measure();
}

// ---------------------------------------------------------------------------------------------
// Tool input and results

function parsed(plan) {
  if (typeof plan !== 'string') return plan;
  try {
    return JSON.parse(plan);
  } catch {
    return undefined;
  }
}

function toolInput(args) {
  if (!isObject(args)) return;
  state.planArg = args.plan;
  state.plan = parsed(args.plan);
  state.request = args.request;
  state.verdict = null;
  state.repair = null;
  draw();
}

/** The JSON of a tool result: its structuredContent, else its text block read as JSON. */
function resultJson(result) {
  if (isObject(result.structuredContent)) return result.structuredContent;
  const text = Array.isArray(result.content) ? result.content.find((c) => isObject(c) && c.type === 'text') : null;
  if (!text) return null;
  try {
    return JSON.parse(text.text);
  } catch {
    return null;
  }
}

function resultText(result) {
  const text = Array.isArray(result.content) ? result.content.find((c) => isObject(c) && c.type === 'text') : null;
  return text ? String(text.text) : 'The tool failed.';
}

/** A validate_plan verdict or a repair_plan repair, from the host or from our own call. */
function toolResult(result) {
  if (result.isError === true) return showStatus(resultText(result), 'error');
  const json = resultJson(result);
  if (isObject(json) && typeof json.plan === 'string' && isObject(json.verdict)) {
    state.repair = json;
    state.verdict = json.verdict;
    state.planArg = json.plan;
    state.plan = parsed(json.plan);
  } else if (isObject(json) && typeof json.valid === 'boolean') {
    state.verdict = json;
  } else {
    return showStatus('The result is neither a verdict nor a repair.', 'error');
  }
  draw();
}

async function fix() {
  if (state.busy) return;
  state.busy = true;
  draw();
  showStatus('Fixing what is safe to fix…');
  try {
    const result = await request('tools/call', { name: 'repair_plan', arguments: { plan: state.planArg, request: state.request } });
    state.busy = false;
    if (result.isError === true) return (draw(), showStatus(resultText(result), 'error'));
    toolResult(result);
    const n = state.repair ? state.repair.applied.length : 0;
    showStatus(n === 0 ? 'Nothing here can be fixed safely: each problem needs a decision.' : `Fixed ${n} problem${n === 1 ? '' : 's'}; the repaired plan was checked again.`, n ? 'ok' : '');
  } catch (e) {
    state.busy = false;
    draw();
    showStatus(`The repair could not be asked for: ${e.message}`, 'error');
  }
}

async function save() {
  if (state.busy) return;
  state.busy = true;
  draw();
  showStatus('Saving…');
  try {
    const result = await request('tools/call', { name: 'save_plan', arguments: { plan: state.planArg, request: state.request } });
    state.busy = false;
    draw();
    if (result.isError === true) return showStatus(resultText(result), 'error');
    const saved = resultJson(result);
    if (isObject(saved) && saved.saved === true) showStatus(`Saved as ${saved.uri}.`, 'ok');
    else {
      const why = isObject(saved) && Array.isArray(saved.warnings) ? saved.warnings.filter((w) => w.code === 'notSaved').map((w) => w.message).join(' ') : '';
      showStatus(`Not saved. ${why}`, 'error');
    }
  } catch (e) {
    state.busy = false;
    draw();
    showStatus(`The plan could not be saved: ${e.message}`, 'error');
  }
}

// ---------------------------------------------------------------------------------------------
// Drawing

function showStatus(text, kind = '') {
  const s = $('status');
  s.hidden = text === '';
  s.textContent = text;
  s.dataset.kind = kind;
}

function draw() {
  const verdict = state.verdict;
  const shown = verdict ?? { valid: false, errors: [], warnings: [] };
  const unreadable = !!verdict && verdict.errors.length === 1 && verdict.errors[0].code === 'json';
  const v = $('verdict');
  const notes = shown.warnings.length ? ` · ${shown.warnings.length} note${shown.warnings.length === 1 ? '' : 's'}` : '';
  if (!verdict) {
    v.dataset.state = 'loading';
    $('verdict-title').textContent = 'Checking the plan…';
    $('verdict-sub').textContent = summary(state.plan);
  } else if (verdict.valid) {
    v.dataset.state = 'valid';
    $('verdict-title').textContent = 'The plan is valid';
    $('verdict-sub').textContent = `${summary(state.plan)}${notes}`;
  } else if (unreadable) {
    v.dataset.state = 'invalid';
    $('verdict-title').textContent = 'The plan could not be read';
    $('verdict-sub').textContent = 'Its text is not JSON; the message below says where.';
  } else {
    const n = verdict.errors.length;
    v.dataset.state = 'invalid';
    $('verdict-title').textContent = `${n} problem${n === 1 ? '' : 's'} to fix`;
    $('verdict-sub').textContent = `${summary(state.plan)}${notes}`;
  }
  const canAsk = state.planArg !== undefined && isObject(state.request);
  $('fix').hidden = !(verdict && !verdict.valid && !unreadable && canAsk && !state.repair);
  $('save').hidden = !(verdict && verdict.valid && canAsk && state.canSave);
  $('fix').disabled = $('save').disabled = state.busy;

  const repair = state.repair;
  $('fixes-card').hidden = !repair || repair.applied.length === 0;
  if (repair) {
    const n = repair.applied.length;
    $('fixes-title').firstChild.textContent = `Fixed ${n} problem${n === 1 ? '' : 's'} `;
    $('fixes-count').textContent = String(n);
    $('fixes').replaceChildren(...fixItems(repair));
    const result = $('fix-result');
    result.hidden = false;
    result.dataset.valid = String(repair.verdict.valid);
    result.textContent = verdictSentence(repair.verdict, 'The plan is now valid.');
  }

  const days = renderDays(state.plan, state.request, shown, ctx);
  $('dayview-title').textContent = days.title;
  $('dayview').replaceChildren(days.node);
  $('legend').replaceChildren(...legendItems(days.used, ctx));
  for (const [kind, issues, warning] of [['errors', shown.errors, false], ['warnings', shown.warnings, true]]) {
    $(`${kind}-card`).hidden = issues.length === 0;
    $(`${kind}-count`).textContent = String(issues.length);
    $(kind).replaceChildren(...issueItems(issues, days.targets, warning));
  }
  document.body.dataset.state = verdict ? (verdict.valid ? 'valid' : 'invalid') : 'input';
}

async function main() {
  $('fix').addEventListener('click', fix);
  $('save').addEventListener('click', save);
  let init;
  try {
    init = await request('ui/initialize', { protocolVersion: PROTOCOL_VERSION, appInfo: APP_INFO, appCapabilities: { availableDisplayModes: ['inline'] } });
  } catch (e) {
    return showStatus(`The host did not start the view: ${e.message}`, 'error');
  }
  applyHostContext(isObject(init) ? init.hostContext : null);
  notify('ui/notifications/initialized', {});
  document.body.dataset.ready = 'true';
  reportSize();
  // Save is offered only by a server with a plan store: its template plan://{planId}.
  const hostCaps = isObject(init) && isObject(init.hostCapabilities) ? init.hostCapabilities : {};
  if (hostCaps.serverResources) {
    try {
      const list = await request('resources/templates/list', {});
      state.canSave = Array.isArray(list?.resourceTemplates) && list.resourceTemplates.some((t) => isObject(t) && String(t.uriTemplate).startsWith('plan://'));
    } catch {
      state.canSave = false;
    }
    if (state.verdict) draw();
  }
}

main();
