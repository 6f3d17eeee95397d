// The plan view in a real host in a real browser (mcp-server.md "The plan view in the
// conversation (MCP Apps)"). The official TypeScript SDK client, declaring the extension, talks to
// the real server (the sandboxed WASI program under momentum-plan-sandbox, over stdio): it finds
// the view linked from validate_plan and repair_plan and reads its HTML. A test host page in
// headless Chromium (Debian's, driven by playwright-core) renders that HTML through the official
// host-side bridge of @modelcontextprotocol/ext-apps (AppBridge + PostMessageTransport) and a
// sandbox proxy on a second loopback origin, as the extension requires of web hosts, and sends the
// tool input and the real validate_plan result. The view's tool calls go through the bridge to the
// same SDK client and so to the real server. Asserted: the broken example's three errors at their
// blocks, "Fix what is safe to fix" sending repair_plan and the view updating (each change before
// and after), Save through save_plan with a store (and not offered without one), the size reports,
// the light and dark themes. Screenshots: test-output/apps-*.png at the repository root.
// Run: node --test apps_host.test.mjs (paths as in sandbox_env.py).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RESOURCE_MIME_TYPE, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

import { HERE, ROOT, RUNNER, WASM, example } from './sandbox_env.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const OUT = join(ROOT, 'test-output');
const VIEW_URI = 'ui://momentum-planner/plan-view';
const EXTENSIONS = { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } };
/** The extension's restrictive default CSP, which a view without `ui.csp` gets (apps.mdx). */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

const scratch = mkdtempSync(join(tmpdir(), 'mp-apps-e2e-'));
const store = join(scratch, 'plans');
mkdirSync(store);
mkdirSync(OUT, { recursive: true });

let client; // with a store
let readOnlyClient;
let hostServer;
let sandboxServer;
let browser;
let profile;
const pageErrors = [];

async function connect(withStore) {
  const args = ['--wasm', WASM, '--cache-dir', join(scratch, 'cache')];
  if (withStore) args.push('--store', store);
  const c = new Client({ name: 'momentum-apps-host', version: '1.0.0' }, { capabilities: { extensions: EXTENSIONS } });
  await c.connect(new StdioClientTransport({ command: RUNNER, args, stderr: 'inherit' }));
  return c;
}

function listen(server) {
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server.address().port)));
}

before(async () => {
  client = await connect(true);
  readOnlyClient = await connect(false);
  const bundle = await build({
    entryPoints: [join(HERE, 'apps', 'host.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const hostJs = bundle.outputFiles[0].text;
  const hostHtml = readFileSync(join(HERE, 'apps', 'host.html'));
  hostServer = createServer((req, res) => {
    if (req.url === '/host.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(hostJs);
    else if (req.url === '/' || req.url === '/host.html') res.writeHead(200, { 'Content-Type': 'text/html' }).end(hostHtml);
    else res.writeHead(404).end();
  });
  const sandboxHtml = readFileSync(join(HERE, 'apps', 'sandbox.html'));
  sandboxServer = createServer((req, res) => {
    if (req.url.startsWith('/sandbox.html')) {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': DEFAULT_CSP }).end(sandboxHtml);
    } else res.writeHead(404).end();
  });
  const hostPort = await listen(hostServer);
  const sandboxPort = await listen(sandboxServer);
  // two origins: the host on 127.0.0.1, the sandbox proxy on localhost
  process.env.APPS_HOST_URL = `http://127.0.0.1:${hostPort}/host.html`;
  process.env.APPS_SANDBOX_URL = `http://localhost:${sandboxPort}/sandbox.html`;
  profile = mkdtempSync(join(tmpdir(), 'mp-apps-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1100, height: 900 },
    deviceScaleFactor: 1,
  });
});

after(async () => {
  await browser?.close();
  await client?.close();
  await readOnlyClient?.close();
  hostServer?.close();
  sandboxServer?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  assert.deepEqual(pageErrors, [], 'no errors in the pages');
});

/** A host page showing the view for one tool call; returns the page and the view's frame. */
async function host(c, { toolName, toolInput, toolResult, theme }) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  // nothing outside the two loopback origins is ever fetched
  await page.route('**/*', (route) => {
    const url = route.request().url();
    const ok = url.startsWith(process.env.APPS_HOST_URL.replace(/\/host\.html$/, '')) || url.startsWith(process.env.APPS_SANDBOX_URL);
    if (!ok) pageErrors.push(`fetched ${url}`);
    return ok ? route.continue() : route.abort();
  });
  await page.exposeFunction('mcpCallTool', (name, args) => c.callTool({ name, arguments: args }));
  await page.exposeFunction('mcpListResourceTemplates', () => c.listResourceTemplates());
  await page.goto(process.env.APPS_HOST_URL);
  const resource = await c.readResource({ uri: VIEW_URI });
  const html = resource.contents[0].text;
  await page.evaluate((opts) => window.startHost(opts), { html, sandboxUrl: process.env.APPS_SANDBOX_URL, toolName, toolInput, toolResult, theme });
  const view = page.frameLocator('#view').frameLocator('iframe');
  await view.locator('body[data-ready="true"]').waitFor();
  return { page, view };
}

const hostLog = (page) => page.evaluate(() => window.hostLog);

/** Waits until the view's size reports have settled (the frame has its last reported height)
 * and the frames have painted, before a screenshot. */
async function settle(page, view) {
  await page.waitForFunction(() => {
    const last = window.hostLog.sizes.at(-1);
    return last && document.getElementById('view').style.height === `${last.height}px`;
  });
  const want = await view.locator('body').evaluate((b) => b.dataset.size);
  await page.waitForFunction((size) => {
    const last = window.hostLog.sizes.at(-1);
    return `${last.width}x${last.height}` === size;
  }, want);
  // An out-of-process frame is painted only inside the viewport: make it as tall as the page.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1100, height: Math.max(900, height) });
  await page.waitForTimeout(500);
}

test('the SDK client declaring the extension finds the view linked and reads the same bytes as built', async () => {
  const { tools } = await client.listTools();
  const links = Object.fromEntries(tools.map((t) => [t.name, getToolUiResourceUri(t) ?? null]));
  assert.deepEqual(links, {
    get_plan_contract: null,
    validate_plan: VIEW_URI,
    repair_plan: VIEW_URI,
    get_plan_schema: null,
    export_calendar: null,
    import_commitments: null,
    save_plan: null,
  });
  assert.ok(client.getServerCapabilities().resources, 'resources declared');
  assert.ok(readOnlyClient.getServerCapabilities().resources, 'resources declared without a store too');
  for (const c of [client, readOnlyClient]) {
    const { contents } = await c.readResource({ uri: VIEW_URI });
    assert.equal(contents.length, 1);
    assert.equal(contents[0].mimeType, RESOURCE_MIME_TYPE);
    assert.deepEqual(contents[0]._meta, { ui: { prefersBorder: true } });
    assert.equal(contents[0].text, readFileSync(join(ROOT, 'bindings-wasm', 'www', 'view', 'plan-view.html'), 'utf8'));
  }
});

test('light host: the broken example shows its three errors at their blocks; Fix asks the real server; the view reports its size', async () => {
  const toolInput = example('calm-weekday-broken');
  const toolResult = await client.callTool({ name: 'validate_plan', arguments: toolInput });
  const verdict = toolResult.structuredContent;
  assert.equal(verdict.errors.length, 3);
  const { page, view } = await host(client, { toolName: 'validate_plan', toolInput, toolResult, theme: 'light' });
  await view.locator('body[data-state="invalid"]').waitFor();
  assert.equal(await view.locator('#verdict-title').textContent(), '3 problems to fix');
  // each error in the list, with its message, and at its block with its number
  const listed = await view.locator('#errors .issue').evaluateAll((items) =>
    items.map((li) => ({ code: li.dataset.code, path: li.dataset.path, target: li.dataset.target, message: li.querySelector('.msg').textContent })),
  );
  assert.deepEqual(
    listed.map(({ code, path, message }) => ({ code, path, message })),
    verdict.errors.map(({ code, path, message }) => ({ code, path, message })),
  );
  const blocks = await view.locator('.block.has-error').evaluateAll((bs) =>
    bs.map((b) => ({ path: b.dataset.path, label: b.querySelector('b').textContent, badges: [...b.querySelectorAll('.badges i')].map((i) => i.textContent) })),
  );
  const byPath = Object.fromEntries(blocks.map((b) => [b.path, b]));
  assert.deepEqual(Object.keys(byPath).sort(), ['$.routine.blocks[1]', '$.routine.blocks[2]', '$.routine.blocks[3]']);
  assert.deepEqual(byPath['$.routine.blocks[2]'].badges, ['1']);
  assert.deepEqual(byPath['$.routine.blocks[3]'].badges, ['2']);
  assert.deepEqual(byPath['$.routine.blocks[1]'].badges, ['3']);
  assert.equal(byPath['$.routine.blocks[1]'].label, 'Breakfast');
  assert.deepEqual(listed.map((e) => e.target), ['$.routine.blocks[2]', '$.routine.blocks[3]', '$.routine.blocks[1]']);
  // the commitment is shaded, the overnight sleep spills past midnight, its warning is marked
  assert.equal(await view.locator('.lane .band').count(), 1);
  assert.equal(await view.locator('.block.wrap').count(), 1);
  assert.match(await view.locator('.block.wrap').textContent(), /Sleep.*until 06:00/);
  assert.equal(await view.locator('.block.has-warning[data-path="$.routine.blocks[4]"]').count(), 1);
  // the theme: the host's variables, light
  const card = view.locator('.card').first();
  assert.equal(await card.evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(255, 255, 255)');
  assert.equal(await view.locator('html').evaluate((e) => getComputedStyle(e).colorScheme), 'light');
  // the size: reported through the bridge, and the host sized the frame to it
  await page.waitForFunction(() => window.hostLog.sizes.some((s) => s.height > 600));
  const log = await hostLog(page);
  const last = log.sizes.at(-1);
  assert.ok(last.width > 0 && last.height > 600, JSON.stringify(log.sizes));
  assert.equal(await page.locator('#view').evaluate((f) => f.style.height), `${last.height}px`);
  await settle(page, view);
  await page.screenshot({ path: join(OUT, 'apps-view-light.png'), fullPage: true });

  // Fix what is safe to fix: repair_plan through the bridge to the real server
  assert.equal(await view.locator('#fix').isVisible(), true);
  await view.locator('#fix').click();
  await view.locator('#status:not([hidden])').waitFor();
  await page.waitForFunction(() => window.hostLog.calls.includes('repair_plan'));
  await view.locator('#status', { hasText: 'Nothing here can be fixed safely' }).waitFor();
  assert.deepEqual((await hostLog(page)).calls, ['repair_plan']);
  assert.equal(await view.locator('#verdict-title').textContent(), '3 problems to fix');
  assert.equal(await view.locator('#fix').isVisible(), false, 'the repair was shown');

  // the host turns dark: the view follows (ui/notifications/host-context-changed)
  await page.evaluate(() => window.setHostTheme('dark'));
  await view.locator('html[data-theme="dark"]').waitFor();
  assert.equal(await card.evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(22, 24, 29)');
  assert.equal(await view.locator('html').evaluate((e) => getComputedStyle(e).colorScheme), 'dark');
  await settle(page, view);
  await page.screenshot({ path: join(OUT, 'apps-view-dark-after-fix.png'), fullPage: true });
  await page.close();
});

test('dark host: safe mistakes are fixed through repair_plan, each change shown before and after, then the new verdict', async () => {
  const toolInput = example('calm-weekday-broken');
  toolInput.plan.format = 'Daily-Momentum-AI-Plan';
  toolInput.plan.routine.blocks[0].start = '6:45';
  toolInput.plan.routine.blocks[4].durationMin = '480';
  const toolResult = await client.callTool({ name: 'validate_plan', arguments: toolInput });
  assert.ok(toolResult.structuredContent.errors.length > 3);
  const { page, view } = await host(client, { toolName: 'validate_plan', toolInput, toolResult, theme: 'dark' });
  await view.locator('body[data-state="invalid"]').waitFor();
  assert.equal(await view.locator('.card').first().evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(22, 24, 29)');
  // the theme variables the host left out fall back to the view's own dark colours
  assert.equal(await view.locator('html').evaluate((e) => getComputedStyle(e).colorScheme), 'dark');
  await view.locator('#fix').click();
  await view.locator('#fixes-card:not([hidden])').waitFor();
  const fixes = await view.locator('#fixes .fix').evaluateAll((items) =>
    items.map((li) => ({ path: li.dataset.path, before: li.querySelector('.before').textContent, after: li.querySelector('.after').textContent })),
  );
  const byPath = Object.fromEntries(fixes.map((f) => [f.path, f]));
  assert.deepEqual(byPath['$.format'], { path: '$.format', before: '"Daily-Momentum-AI-Plan"', after: '"daily-momentum-ai-plan"' });
  assert.deepEqual(byPath['$.routine.blocks[0].start'], { path: '$.routine.blocks[0].start', before: '"6:45"', after: '"06:45"' });
  assert.deepEqual(byPath['$.routine.blocks[4].durationMin'], { path: '$.routine.blocks[4].durationMin', before: '"480"', after: '480' });
  assert.equal(fixes.length, 3);
  // the new verdict: the three errors that need a decision, at their blocks
  await view.locator('#verdict-title', { hasText: '3 problems to fix' }).waitFor();
  assert.match(await view.locator('#fix-result').textContent(), /3 problems left/);
  assert.equal(await view.locator('.block.has-error').count(), 3);
  assert.deepEqual((await hostLog(page)).calls, ['repair_plan']);
  await settle(page, view);
  await page.screenshot({ path: join(OUT, 'apps-view-dark-fixed.png'), fullPage: true });
  await page.close();
});

test('a valid plan: Save (save_plan through the bridge) with a store; not offered without one', async () => {
  const toolInput = example('calm-weekday');
  const toolResult = await client.callTool({ name: 'validate_plan', arguments: toolInput });
  assert.equal(toolResult.structuredContent.valid, true);
  const { page, view } = await host(client, { toolName: 'validate_plan', toolInput, toolResult, theme: 'light' });
  await view.locator('body[data-state="valid"]').waitFor();
  assert.equal(await view.locator('#verdict-title').textContent(), 'The plan is valid');
  await view.locator('#save:not([hidden])').waitFor();
  assert.equal(await view.locator('#fix').isVisible(), false);
  await view.locator('#save').click();
  await view.locator('#status', { hasText: 'Saved as plan://req-2026-10-05-calm-weekday' }).waitFor();
  assert.deepEqual((await hostLog(page)).calls, ['save_plan']);
  const saved = JSON.parse(readFileSync(join(store, 'req-2026-10-05-calm-weekday.json'), 'utf8'));
  assert.deepEqual(saved, toolInput.plan);
  await settle(page, view);
  await page.screenshot({ path: join(OUT, 'apps-view-saved.png'), fullPage: true });
  await page.close();

  const ro = await host(readOnlyClient, { toolName: 'validate_plan', toolInput, toolResult, theme: 'light' });
  await ro.view.locator('body[data-state="valid"]').waitFor();
  await ro.page.waitForTimeout(300); // the template list has been answered by then
  assert.equal(await ro.view.locator('#save').isVisible(), false, 'no store, no Save');
  await ro.page.close();
});

test('every list of a routine (every day, each weekday) and a goal plan day by day', async () => {
  const week = example('week-with-choir');
  const weekResult = await client.callTool({ name: 'validate_plan', arguments: week });
  const w = await host(client, { toolName: 'validate_plan', toolInput: week, toolResult: weekResult, theme: 'light' });
  await w.view.locator(`body[data-state="${weekResult.structuredContent.valid ? 'valid' : 'invalid'}"]`).waitFor();
  const heads = await w.view.locator('.col-head[data-path]').evaluateAll((hs) => hs.map((h) => h.dataset.path));
  assert.deepEqual(heads, ['$.routine.blocks', '$.routine.weekdays.wed', '$.routine.weekdays.sat', '$.routine.weekdays.sun']);
  const lanes = await w.view.locator('.lane').count();
  assert.equal(lanes, 4);
  await settle(w.page, w.view);
  await w.page.screenshot({ path: join(OUT, 'apps-view-weekdays.png'), fullPage: true });
  await w.page.close();

  const goal = example('first-5k');
  const goalResult = await client.callTool({ name: 'repair_plan', arguments: goal });
  const g = await host(client, { toolName: 'repair_plan', toolInput: goal, toolResult: goalResult, theme: 'dark' });
  await g.view.locator('body[data-state]:not([data-state="input"])').waitFor();
  assert.equal(await g.view.locator('#dayview-title').textContent(), 'Days');
  assert.deepEqual(
    await g.view.locator('.day').evaluateAll((ds) => ds.map((d) => d.dataset.path)),
    goal.plan.goal.days.map((_, i) => `$.goal.days[${i}]`),
  );
  assert.equal(await g.view.locator('.activity').count(), goal.plan.goal.days.reduce((n, d) => n + d.activities.length, 0));
  await settle(g.page, g.view);
  await g.page.screenshot({ path: join(OUT, 'apps-view-goal-dark.png'), fullPage: true });
  await g.page.close();
});
