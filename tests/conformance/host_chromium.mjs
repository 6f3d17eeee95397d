#!/usr/bin/env node
// Host-object cases in headless Chromium, through the wasm package's browser build (pkg/web):
//   node host_chromium.mjs PKG_WEB_DIR [IDS]   -> one JSON line per case: {id, outcome, ms}
// A page served from 127.0.0.1 imports PKG_WEB_DIR/index.js and host_exec.mjs, and runs the
// cases there; the other realm is a same-origin iframe's window. Chromium is Debian's
// /usr/bin/chromium (or $CHROMIUM), driven by playwright-core from bindings-wasm/node_modules
// (as bindings-wasm/test/page.test.mjs does), offline: only our server is reachable.

import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const { chromium } = createRequire(join(ROOT, 'bindings-wasm', 'package.json'))('playwright-core');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

const PAGE = `<!doctype html><meta charset="utf-8"><title>host-object cases</title>
<iframe id="realm" src="about:blank"></iframe>
<script type="module">
import init, { validatePlan } from '/pkg/index.js';
import { runCases } from '/conformance/host_exec.mjs';
// A browser has no Buffer; bundlers give code that uses one the npm buffer package, whose Buffer
// is this: a Uint8Array subclass with Node's toJSON (case buffer-utf8).
class Buffer extends Uint8Array {
  static from(text) {
    const bytes = new TextEncoder().encode(text);
    const b = new Buffer(bytes.length);
    b.set(bytes);
    return b;
  }
  toJSON() {
    return { type: 'Buffer', data: Array.from(this) };
  }
}
window.runAll = async (only) => {
  await init();
  const text = (p) => fetch(p).then((r) => r.text());
  const [planText, requestText] = await Promise.all([
    text('/examples/calm-weekday.plan.json'),
    text('/examples/calm-weekday.request.json'),
  ]);
  const w = document.getElementById('realm').contentWindow;
  const foreign = { Map: w.Map, Set: w.Set, Number: w.Number, JSON: w.JSON, Object: w.Object, Array: w.Array, Uint8Array: w.Uint8Array };
  // as text: JSON.stringify escapes lone surrogates, so nothing is lost on the way out
  return JSON.stringify(runCases(validatePlan, { planText, requestText, foreign, Buffer }, only));
};
window.ready = true;
</script>`;

/** Serves the page, /pkg/ (the package's web build), /conformance/ and /examples/. */
function serve(pkgDir) {
  const mounts = [
    ['/pkg/', resolve(pkgDir)],
    ['/conformance/', HERE],
    ['/examples/', join(ROOT, 'examples')],
  ];
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': TYPES['.html'] });
        res.end(PAGE);
        return;
      }
      const mount = mounts.find(([prefix]) => url.pathname.startsWith(prefix));
      if (!mount) throw new Error('no mount');
      const root = resolve(mount[1]);
      const path = resolve(join(root, decodeURIComponent(url.pathname.slice(mount[0].length))));
      if (!path.startsWith(root + sep)) throw new Error('outside');
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

const [pkgDir, ids] = process.argv.slice(2);
if (!pkgDir) {
  console.error('usage: host_chromium.mjs PKG_WEB_DIR [ID,ID...]');
  process.exit(2);
}
const server = await serve(pkgDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const profile = mkdtempSync(join(tmpdir(), 'momentum-host-cases-'));
let browser;
try {
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
  await page.goto(base);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 30000 }).catch((e) => {
    throw new Error(`the page did not load: ${errors.join('; ') || e.message}`);
  });
  const results = JSON.parse(await page.evaluate((only) => window.runAll(only), ids ? ids.split(',') : null));
  process.stdout.write(results.map((r) => JSON.stringify(r)).join('\n') + '\n');
} finally {
  await browser?.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
