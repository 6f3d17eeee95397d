'use strict';
// Every vector of ../shared/vectors/ through the pkg/node build: exact `valid`, ordered
// (code, path) errors and warnings, `checks`, non-empty messages, key order; plan as object and
// as text. Vectors the README marks text-only for JS are sent as text (plan and request) in both
// modes. Each verdict's bytes are also compared with the core's own verdict for the same input
// (the core's `validate --lines` example, built by test.sh): byte-identical in text mode, and in
// object mode too, since an object that JS can carry means what its text means.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { validatePlan } = require('../pkg/node');
const L = require('../../js/testkit.cjs');

const TARGET = path.resolve(process.env.CARGO_TARGET_DIR || path.join(L.ROOT, 'target'));
const DRIVER = path.join(TARGET, 'release', 'examples', 'validate');

/** The core's verdict lines for `vectors`, in order (the lines protocol). */
function coreVerdicts(vectors) {
  assert.ok(fs.existsSync(DRIVER), `${DRIVER} is missing: cargo build --release -p momentum-plan --example validate`);
  const input = vectors.map((v) => v.coreLine).join('\n') + '\n';
  const r = spawnSync(DRIVER, ['--lines'], { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, vectors.length, 'one verdict line per vector');
  return lines;
}

const totals = { vectors: 0, objectVectors: 0, textVectors: 0, textOnly: 0, calls: 0, bytesSame: 0 };

for (const file of L.vectorFiles()) {
  test(path.basename(file), () => {
    const vectors = L.readVectors(file);
    const core = coreVerdicts(vectors);
    const failures = [];
    vectors.forEach((v, k) => {
      totals.vectors += 1;
      if (v.planIsText) totals.textVectors += 1;
      else totals.objectVectors += 1;
      if (v.textOnly) totals.textOnly += 1;
      const asText = v.textOnly;
      const modes = {
        // plan as given: object (or text when JS cannot carry it), request likewise
        object: asText ? [v.planText, v.requestText] : [v.plan, v.request],
        // plan as text (the vector's own text, or the object's compact text as written)
        text: [v.planText, v.requestText],
      };
      for (const [mode, [plan, request]] of Object.entries(modes)) {
        totals.calls += 1;
        let verdict;
        try {
          verdict = validatePlan(plan, request);
        } catch (e) {
          failures.push(`${v.id} [${mode}]: threw ${e}`);
          continue;
        }
        const problems = L.compare(verdict, v.expect);
        if (problems.length > 0) failures.push(`${v.id} [${mode}]: ${problems.join('; ')}`);
        if (JSON.stringify(verdict) === core[k]) totals.bytesSame += 1;
        else failures.push(`${v.id} [${mode}]: verdict bytes differ from the core's\n  wasm: ${JSON.stringify(verdict)}\n  core: ${core[k]}`);
      }
    });
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} mismatches`);
  });
}

test('counts', () => {
  const readme = L.readmeTextOnlyCount();
  console.log(
    `# vectors ${totals.vectors} (${totals.objectVectors} object, ${totals.textVectors} text); ` +
      `text-only for JS, sent as text: ${totals.textOnly} of ${totals.objectVectors} object vectors; ` +
      `${totals.calls} calls, ${totals.bytesSame} verdicts byte-identical to the core's`,
  );
  assert.equal(totals.vectors, totals.objectVectors + totals.textVectors);
  assert.ok(totals.vectors > L.VECTOR_FLOOR, 'all vector files were read');
  assert.ok(readme, 'the README states its text-only count');
  assert.equal(totals.textOnly, readme.textOnly, "text-only vectors found = the README's count");
  assert.equal(totals.objectVectors, readme.objects);
  assert.equal(totals.bytesSame, totals.calls);
});
