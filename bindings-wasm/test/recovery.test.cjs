'use strict';
// A trap (out of memory here; a Rust panic aborts the same way) must not leave the module
// unusable: index.js re-instantiates it and the next call gives the right verdict. The trap is
// real: a child Node limits wasm memory to 128 MiB (--wasm-max-mem-pages=2048) and validates a
// plan against a 15 MB request text of 5 million empty arrays in `commitments` (a request is
// built whole), which does not fit (through
// validatePlan three times, then once through repairPlan).

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

for (const which of ['node', 'web']) {
  test(`pkg/${which}: after out-of-memory traps, the module is restarted and right`, () => {
    const r = spawnSync(
      process.execPath,
      ['--wasm-max-mem-pages=2048', path.join(__dirname, 'fixtures', 'trap-child.cjs'), which, '5000000'],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    assert.equal(out.crashed, undefined, out.crashed);
    assert.match(out.before, /"code":"overlap"/);
    assert.equal(out.traps.length, 3);
    for (const t of out.traps) {
      assert.ok(t, 'the huge plan trapped');
      assert.equal(t.name, 'Error');
      assert.equal(t.cause, 'RuntimeError');
      assert.match(t.message, /restarted, so the next call works/);
    }
    assert.deepEqual(out.after, [out.before, out.before, out.before]);
    // the same for repairPlan
    assert.ok(out.repairTrap, 'the huge plan trapped in repairPlan');
    assert.deepEqual([out.repairTrap.name, out.repairTrap.cause], ['Error', 'RuntimeError']);
    assert.match(out.repairBefore, /^\{"plan":/);
    assert.equal(out.repairAfter, out.repairBefore);
    assert.equal(out.contract, 6);
    // a PlanStream made before the restart is lost, and says so; a new one works
    assert.deepEqual(out.lostStream, {
      name: 'Error',
      message: 'momentum-plan-wasm: this PlanStream was lost when the validator restarted after it stopped; start a new PlanStream',
    });
    assert.equal(out.streamAfter, out.before);
  });
}
