'use strict';
// The size budget of each wasm module of the package, in bytes (raw, after wasm-opt), by file
// name (issue 32): held by test/size.test.cjs, printed beside the sizes by bench/bench.cjs. The
// reasons for each figure are in size.test.cjs's header and the README ("Size").
module.exports = {
  /** The validator: all a page fetches for its first verdict. */
  momentum_plan_wasm_bg: 150_000,
  /** The extras (repairPlan, planSchema, PlanStream), loaded on first use. */
  momentum_plan_wasm_extras_bg: 515_000,
  /** The calendar (planToIcalendar, commitmentsFromIcalendar, the tz database), loaded on first use. */
  momentum_plan_wasm_calendar_bg: 710_000,
};
