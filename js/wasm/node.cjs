'use strict';
// momentum-plan-wasm for Node (CommonJS): require('momentum-plan-wasm') -> { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load }.
// (bindings-wasm's scripts/build.mjs copies this file to pkg/node/index.js.) The exports are
// listed by name so that Node's ES module loader sees them (`import { validatePlan } from ...`).
// The validator module loads with this file; the second one (repairPlan, planSchema, PlanStream:
// issue 32) on the first call that needs it, synchronously, so no call here needs `load()`.
const { wasmApi } = require('./api.js');

let extrasModule = null;
const extras = {
  get: () => (extrasModule ??= require('./momentum_plan_wasm_extras.js')),
  loaded: () => extrasModule,
  load: async () => extras.get(),
};

const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load } = wasmApi(require('./momentum_plan_wasm.js'), extras);

module.exports = { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load };
