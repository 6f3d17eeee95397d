// The server's dependencies are optional peers (issue 27 item 8): the library needs none of them,
// and momentum-planner without them says in one line what to install, exit code 2, no stack
// trace. The package's files (package.json "files") are copied into an empty folder, where no
// node_modules can be found, and the bin is run there; tests/package does the same with the
// packed tarball and a real npm install.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PKG = fileURLToPath(new URL('..', import.meta.url))
const pkg = createRequire(import.meta.url)('../package.json')

/** The package's files (its "files" list, `*.node` expanded) copied into a fresh folder. */
function packageCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'momentum-plan-node-peers-'))
  for (const entry of [...pkg.files, 'package.json']) {
    const names = entry === '*.node' ? readdirSync(PKG).filter((f) => f.endsWith('.node')) : [entry]
    for (const name of names) cpSync(join(PKG, name), join(dir, name), { recursive: true })
  }
  return dir
}

test('the SDK, ext-apps and zod are optional peers, also devDependencies for the tests', () => {
  assert.deepEqual(pkg.dependencies ?? {}, {})
  const peers = Object.keys(pkg.peerDependencies).sort()
  assert.deepEqual(peers, ['@modelcontextprotocol/ext-apps', '@modelcontextprotocol/sdk', 'zod'])
  for (const name of peers) {
    assert.equal(pkg.peerDependenciesMeta[name].optional, true, name)
    assert.equal(pkg.devDependencies[name], pkg.peerDependencies[name], name)
  }
})

test('momentum-planner without its peers: one line naming what to install, exit 2; --help still answers', () => {
  const dir = packageCopy()
  try {
    const bin = join(dir, pkg.bin['momentum-planner'])
    const run = (args) => spawnSync(process.execPath, [bin, ...args], { cwd: dirname(dir), encoding: 'utf8', input: '' })
    const help = run(['--help'])
    assert.equal(help.status, 0, help.stderr)
    assert.match(help.stdout, /--http PORT/)
    const r = run(['--store', join(dir, 'plans')])
    assert.equal(r.status, 2, r.stderr)
    assert.equal(r.stdout, '')
    const install = Object.entries(pkg.peerDependencies).map(([name, range]) => `${name}@${range.split('||').pop().trim()}`)
    const lines = r.stderr.trimEnd().split('\n')
    assert.equal(lines.length, 1, r.stderr)
    assert.ok(lines[0].startsWith('momentum-planner: the MCP server needs @modelcontextprotocol/'), lines[0])
    assert.ok(lines[0].includes(`: npm install ${install.join(' ')} (with -g`), lines[0])
    assert.doesNotMatch(r.stderr, /\n\s+at /) // no stack trace
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
