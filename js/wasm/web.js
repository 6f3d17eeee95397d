// momentum-plan-wasm for browsers and bundlers (ES module). Call `await init()` (or
// `initSync({ module })`) once, then validatePlan / getPlanContract. (bindings-wasm's
// scripts/build.mjs copies this file to pkg/web/index.js.)
import init, { initSync } from './momentum_plan_wasm.js';
import * as raw from './momentum_plan_wasm.js';
import { wasmApi } from './api.js';

export const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, renderPath, valueSpan } = wasmApi(raw);
export default init;
export { initSync };
