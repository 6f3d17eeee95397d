// The wasm package's web build, from the installed tarball (the path its exports map gives
// for "momentum-plan-wasm/web"), in headless Chromium (Debian's, driven by playwright-core, no
// browser download): a page imports it through an import map, calls init(), and validates every
// bundled example to the core's verdict bytes. Served on 127.0.0.1 by node:http; every request
// that is not for this server is aborted.
// Usage: node browser.mjs EXPECTED_DIR EXAMPLES_DIR   (CHROMIUM: default /usr/bin/chromium)
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { chromium } from 'playwright-core'

const require = createRequire(import.meta.url)
const [expected, examples] = process.argv.slice(2)
const webEntry = require.resolve('momentum-plan-wasm/web')
const webDir = dirname(webEntry)
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' }
const cases = readdirSync(examples)
  .filter((f) => f.endsWith('.plan.json'))
  .sort()
  .map((f) => {
    const base = f.slice(0, -'.plan.json'.length)
    return {
      base,
      plan: readFileSync(join(examples, f), 'utf8'),
      request: readFileSync(join(examples, `${base}.request.json`), 'utf8'),
      want: readFileSync(join(expected, `${base}.verdict.json`), 'utf8').trim(),
    }
  })
const page = `<!doctype html><meta charset="utf-8"><title>momentum-plan-wasm</title>
<script type="importmap">{"imports": {"momentum-plan-wasm": "/pkg/${relative(webDir, webEntry).split(sep).join('/')}"}}</script>
<script type="module">
import init, { validatePlan } from 'momentum-plan-wasm'
await init()
window.check = (plan, request) => JSON.stringify(validatePlan(plan, request))
document.body.dataset.ready = 'true'
</script><body></body>`

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1')
  if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page)
  const file = join(webDir, url.pathname.replace(/^\/pkg\//, ''))
  if (!url.pathname.startsWith('/pkg/') || !file.startsWith(webDir + sep)) return res.writeHead(404).end()
  try {
    const body = readFileSync(file)
    res.writeHead(200, { 'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(body)
  } catch {
    res.writeHead(404).end()
  }
})
await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
const origin = `http://127.0.0.1:${server.address().port}`
const profile = mkdtempSync(join(tmpdir(), 'momentum-plan-chromium-'))
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
})
try {
  const tab = browser.pages()[0] ?? (await browser.newPage())
  const errors = []
  tab.on('pageerror', (e) => errors.push(String(e)))
  await tab.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()))
  await tab.goto(origin)
  await tab.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30000 })
  for (const c of cases) {
    assert.equal(await tab.evaluate(([p, r]) => window.check(p, r), [c.plan, c.request]), c.want, c.base)
    assert.equal(await tab.evaluate(([p, r]) => window.check(JSON.parse(p), JSON.parse(r)), [c.plan, c.request]), c.want, c.base)
  }
  assert.deepEqual(errors, [])
  console.log(`  ok  headless ${browser.browser()?.version() ?? 'Chromium'}: ${webDir} validates ${cases.length} examples to the core's verdicts`)
} finally {
  await browser.close()
  server.close()
  rmSync(profile, { recursive: true, force: true })
}
