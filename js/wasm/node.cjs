'use strict';
// momentum-plan-wasm for Node (CommonJS): require('momentum-plan-wasm') -> { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load, planToIcalendar, commitmentsFromIcalendar, loadCalendar }.
// (bindings-wasm's scripts/build.mjs copies this file to pkg/node/index.js.) The exports are
// listed by name so that Node's ES module loader sees them (`import { validatePlan } from ...`).
// The validator module loads with this file; the others (the extras: repairPlan, planSchema,
// PlanStream; the calendar: planToIcalendar, commitmentsFromIcalendar; issue 32) on the first call
// that needs one, synchronously, so no call here needs `load()` or `loadCalendar()`.
const { wasmApi } = require('./api.js');

/** The loader of a module loaded on first use: `requireGlue()` requires its wasm-bindgen glue
 * (which instantiates its .wasm), on the first `get()`. */
function loader(requireGlue) {
  let module = null;
  const self = {
    get: () => (module ??= requireGlue()),
    loaded: () => module,
    load: async () => self.get(),
  };
  return self;
}

const loaders = {
  extras: loader(() => require('./momentum_plan_wasm_extras.js')),
  calendar: loader(() => require('./momentum_plan_wasm_calendar.js')),
};

const api = wasmApi(require('./momentum_plan_wasm.js'), loaders);
const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load } = api;
const { planToIcalendar, commitmentsFromIcalendar, loadCalendar } = api;

module.exports = { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load };
Object.assign(module.exports, { planToIcalendar, commitmentsFromIcalendar, loadCalendar });
