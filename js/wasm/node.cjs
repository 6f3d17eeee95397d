'use strict';
// momentum-plan-wasm for Node (CommonJS): require('momentum-plan-wasm') -> { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, renderPath, valueSpan }.
// (bindings-wasm's scripts/build.mjs copies this file to pkg/node/index.js.) The exports are
// listed by name so that Node's ES module loader sees them (`import { validatePlan } from ...`).
const { wasmApi } = require('./api.js');

const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, renderPath, valueSpan } = wasmApi(require('./momentum_plan_wasm.js'));

module.exports = { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, renderPath, valueSpan };
