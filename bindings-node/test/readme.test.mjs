// The README's examples (issue 29 finding 6): every ```js block of README.md runs as written
// against the built addon, installed by name (a node_modules/momentum-plan-node link to this
// package, so its exports map decides what `import 'momentum-plan-node'` loads), in a fresh
// folder holding the bundled examples/calm-weekday-broken.* files, and what it prints must be the
// ```text block that follows it, line for line: the verdicts, repairs and messages the README
// shows are the real ones (the outside try found a README repair applying a fix the core never
// applies to that plan).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import kit from '../../js/testkit.cjs';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

test('every js example of the README prints what the README says', () => {
  const found = kit.readmeExamples(readFileSync(join(PACKAGE, 'README.md'), 'utf8'), 'js');
  assert.ok(found.length >= 1, `${found.length} examples`);
  const dir = mkdtempSync(join(tmpdir(), 'momentum-plan-node-readme-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(PACKAGE, join(dir, 'node_modules', 'momentum-plan-node'), 'dir');
    for (const f of ['calm-weekday-broken.plan.json', 'calm-weekday-broken.request.json']) cpSync(join(kit.EXAMPLES, f), join(dir, f));
    found.forEach(([code, want], i) => {
      const file = join(dir, `example-${i + 1}.mjs`);
      writeFileSync(file, code);
      const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 0, `example ${i + 1}: ${r.stderr}`);
      assert.equal(r.stdout, want, `example ${i + 1} prints something else than the README`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
