// `npm run bench` (second part): the same rows as bench/bench.cjs's wasm rows, in headless
// Chromium (Debian's /usr/bin/chromium or $CHROMIUM, driven by playwright-core, offline: only our
// own 127.0.0.1 server is reachable): JSON.parse of the plan text beside validatePlan of the
// package's web build (pkg/web), text and object input, timed in the page with performance.now()
// by bench/measure.cjs's sideBySide (its source text is put in the page, as is textParts', the
// text case's two `part:` rows): every case in each round, the median over the rounds. Prints a
// Markdown table; skipped, with the reason, when Chromium is not installed.

import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { calm, large } = require('./plans.cjs');
const { sideBySide, table, textParts } = require('./measure.cjs');

const CRATE = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PKG = join(CRATE, 'pkg', 'web');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const TYPES = { '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };

// The page: the package's web build, and bench/measure.cjs's sideBySide, from its source text.
const PAGE = `<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="module">
import init, { validatePlan } from '/pkg/index.js';
import { validate as validateUtf8 } from '/pkg/momentum_plan_wasm.js';
${sideBySide.toString()}
${textParts.toString()}
window.run = async (inputs) => {
  await init();
  const rows = [];
  for (const { name, planText, requestText } of inputs) {
    const plan = JSON.parse(planText);
    const request = JSON.parse(requestText);
    const verdict = validatePlan(planText, requestText);
    const cases = [
      ['JSON.parse(plan text) alone', () => JSON.parse(planText)],
      ['wasm validatePlan(text, text)', () => validatePlan(planText, requestText)],
      ...textParts(planText, requestText, validateUtf8),
      ['wasm validatePlan(object, object)', () => validatePlan(plan, request)],
    ];
    const bytes = new TextEncoder().encode(planText).length;
    for (const r of sideBySide(cases)) rows.push({ input: name + ', ' + bytes + ' B, valid: ' + verdict.valid, ...r });
  }
  return rows;
};
window.ready = true;
</script>`;

function serve() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
      return;
    }
    const path = resolve(join(PKG, decodeURIComponent(url.pathname.replace(/^\/pkg\//, ''))));
    if (!url.pathname.startsWith('/pkg/') || !path.startsWith(PKG + sep) || !existsSync(path)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.log(`\n(headless Chromium rows skipped: ${CHROMIUM} is not installed)`);
    return;
  }
  const { chromium } = require('playwright-core');
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = mkdtempSync(join(tmpdir(), 'momentum-bench-'));
  let browser;
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
    await page.goto(base);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 30000 });
    const version = browser.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    const inputs = [calm(), large()].map(({ name, planText, requestText }) => ({ name, planText, requestText }));
    const rows = await page.evaluate((i) => window.run(i), inputs);
    console.log(`\nIn headless Chromium ${version} (the web build, pkg/web; timed in the page):\n`);
    console.log(table(rows));
  } finally {
    await browser?.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

await main();
