// Both npm packages, installed from their tarballs into a fresh npm project, loaded with
// require(): every bundled example validates to the core's verdict bytes, and the packages
// resolve inside this project (not from a checkout).
// Usage: node node_check.cjs EXPECTED_DIR EXAMPLES_DIR
'use strict'
const assert = require('node:assert/strict')
const { readFileSync, readdirSync, realpathSync } = require('node:fs')
const { join } = require('node:path')

const [expected, examples] = process.argv.slice(2)
const here = realpathSync(__dirname)
for (const name of ['momentum-plan-node', 'momentum-plan-wasm']) {
  const resolved = realpathSync(require.resolve(name))
  assert.ok(resolved.startsWith(join(here, 'node_modules', name)), `${name} resolves to ${resolved}`)
  const pkg = require(`${name}/package.json`)
  assert.equal(pkg.private, undefined, `${name} is publishable`)
  const lib = require(name)
  let n = 0
  for (const f of readdirSync(examples).filter((x) => x.endsWith('.plan.json')).sort()) {
    const base = f.slice(0, -'.plan.json'.length)
    const plan = readFileSync(join(examples, f), 'utf8')
    const request = readFileSync(join(examples, `${base}.request.json`), 'utf8')
    const want = readFileSync(join(expected, `${base}.verdict.json`), 'utf8').trim()
    assert.equal(JSON.stringify(lib.validatePlan(plan, request)), want, `${name} ${base} (text)`)
    assert.equal(JSON.stringify(lib.validatePlan(JSON.parse(plan), JSON.parse(request))), want, `${name} ${base} (objects)`)
    n++
  }
  assert.ok(n >= 2)
  assert.throws(() => lib.validatePlan({ a: NaN }, {}), (e) => e instanceof TypeError && /^plan at \$\.a is NaN/.test(e.message))
  console.log(`  ok  require('${name}') ${pkg.version}: ${n} examples, the core's verdicts`)
}
