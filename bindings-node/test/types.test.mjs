// index.d.ts: generated from the core's registries and not stale; a usage file type-checks under
// `tsc --noEmit --strict` (and its @ts-expect-error lines prove the types reject what they should).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { renderDts, DTS_PATH } from '../scripts/gen-dts.mjs'

const require = createRequire(import.meta.url)
const native = require('../native.js')

test('the committed index.d.ts is what scripts/gen-dts.mjs renders from the core now', () => {
  assert.equal(readFileSync(DTS_PATH, 'utf8'), renderDts(), 'index.d.ts is stale: run `npm run gen:dts`')
})

test('IssueCode lists every code of the core registry, in order, and nothing else', () => {
  const dts = readFileSync(DTS_PATH, 'utf8')
  const block = dts.split('export type IssueCode =')[1].split('\n\n')[0]
  const listed = [...block.matchAll(/\| '([^']+)'/g)].map((m) => m[1])
  assert.deepEqual(listed, native.issueCodes())
  assert.ok(listed.includes('notSaved') && listed.includes('overnight') && listed.length >= 25)
  const code = dts.split('\n').filter((l) => !/^\s*(\/\/|\/\*\*|\*)/.test(l)).join('\n')
  assert.ok(!/\bany\b/.test(code), 'no `any` type in the public types')
})

test('tsc --noEmit --strict accepts test/types/usage.ts', () => {
  const tsc = require.resolve('typescript/bin/tsc')
  const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url))
  try {
    execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '-p', project], { encoding: 'utf8' })
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`)
  }
})
