// The README's examples (issue 27 item 10): every ```js block of README.md is run against the
// built package, installed by name (a node_modules/momentum-plan-wasm link to this package, so
// its exports map decides what `import 'momentum-plan-wasm'` loads), from a folder holding the
// bundled calm-weekday examples (broken and valid), and what it prints must be the ```text block
// that follows it, line for line:
// the messages the README shows are the real ones. Each block runs as written under Node; a block
// that calls `init()` (the browser example) runs a second time on the web build a bundler picks
// (the `default` condition: the specifier is momentum-plan-wasm/web there, as Node itself takes
// the `node` one) with a `fetch` that reads file: URLs, as a browser fetches the .wasm beside the
// module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import kit from '../../js/testkit.cjs';

const CRATE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(CRATE, '..');

const FILE_FETCH = `import { readFileSync as readWasm } from 'node:fs';
globalThis.fetch = async (url) => new Response(readWasm(url), { headers: { 'content-type': 'application/wasm' } });
`;

test('every js example of the README prints what the README says', () => {
  const found = kit.readmeExamples(readFileSync(join(CRATE, 'README.md'), 'utf8'), 'js');
  assert.ok(found.length >= 2, `${found.length} examples`);
  const dir = mkdtempSync(join(tmpdir(), 'momentum-plan-wasm-readme-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(CRATE, join(dir, 'node_modules', 'momentum-plan-wasm'), 'dir');
    for (const name of ['calm-weekday-broken', 'calm-weekday']) {
      for (const f of [`${name}.plan.json`, `${name}.request.json`]) cpSync(join(ROOT, 'examples', f), join(dir, f));
    }
    found.forEach(([code, want], i) => {
      // Every block runs as written in Node (the outside try ran the browser one there, and its
      // init() must work too); a block that calls init() runs on the web build as well.
      const runs = [['Node', code]];
      if (/\binit\(\)/.test(code)) runs.push(['web build', FILE_FETCH + code.replace(/from 'momentum-plan-wasm'/, "from 'momentum-plan-wasm/web'")]);
      for (const [where, source] of runs) {
        const file = join(dir, `example-${i + 1}.mjs`);
        writeFileSync(file, source);
        const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
        assert.equal(r.status, 0, `example ${i + 1} (${where}): ${r.stderr}`);
        assert.equal(r.stdout, want, `example ${i + 1} (${where}) prints something else than the README`);
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
