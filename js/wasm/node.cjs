'use strict';
// momentum-plan-wasm for Node (CommonJS): require('momentum-plan-wasm') -> { validatePlan, repairPlan, planSchema, getPlanContract, renderPath, valueSpan }.
// (bindings-wasm's scripts/build.mjs copies this file to pkg/node/index.js.)
const { wasmApi } = require('./api.js');

module.exports = wasmApi(require('./momentum_plan_wasm.js'));
