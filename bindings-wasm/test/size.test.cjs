'use strict';
// The size budget (issue 6): the optimized .wasm of each output is at most 150 KB
// (150,000 bytes). Reports raw and gzip -9 sizes.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const BUDGET = 150_000;

for (const dir of ['web', 'node']) {
  test(`pkg/${dir}: the .wasm is within ${BUDGET} bytes`, () => {
    const file = path.join(__dirname, '..', 'pkg', dir, 'momentum_plan_wasm_bg.wasm');
    const bytes = fs.readFileSync(file);
    const gz = zlib.gzipSync(bytes, { level: 9 }).length;
    console.log(`# pkg/${dir}/momentum_plan_wasm_bg.wasm: ${bytes.length} bytes, ${gz} gzipped (-9)`);
    assert.ok(WebAssembly.validate(bytes), 'a valid module');
    assert.ok(bytes.length <= BUDGET, `${bytes.length} bytes is over the ${BUDGET}-byte budget`);
  });
}
