// index.d.ts (written by `cargo run -p momentum-plan-codegen`, whose tests check it is not stale)
// agrees with the built addon; a usage file type-checks under `tsc --noEmit --strict` (and its
// @ts-expect-error lines prove the types reject what they should).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const native = require('../native.js')

const DTS_PATH = fileURLToPath(new URL('../index.d.ts', import.meta.url))

test('index.d.ts holds the shared types and then the function declarations', () => {
  const dts = readFileSync(DTS_PATH, 'utf8')
  const strip = (text) => text.replace(/^(\/\/.*\n)+\n/, '')
  const types = strip(readFileSync(new URL('../../js/types.d.ts', import.meta.url), 'utf8'))
  const functions = strip(readFileSync(new URL('../../js/api.d.ts', import.meta.url), 'utf8'))
  assert.ok(dts.includes(types), 'index.d.ts is stale: run `cargo run -p momentum-plan-codegen`')
  assert.ok(dts.endsWith(functions), 'index.d.ts is stale: run `cargo run -p momentum-plan-codegen`')
})

test('IssueCode lists every code of the core registry, in order, and nothing else', () => {
  const dts = readFileSync(DTS_PATH, 'utf8')
  const block = dts.split('export type IssueCode =')[1].split('\n\n')[0]
  const listed = [...block.matchAll(/\| "([^"]+)"/g)].map((m) => m[1])
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
