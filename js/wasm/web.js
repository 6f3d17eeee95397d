// momentum-plan-wasm for browsers and bundlers (ES module). Call `await init()` (or
// `initSync({ module })`) once, then validatePlan / getPlanContract; `await load()` once before
// repairPlan, planSchema or PlanStream, which are in the package's second module (issue 32: a page
// fetches only the validator's .wasm for its first verdict). (bindings-wasm's scripts/build.mjs
// copies this file to pkg/web/index.js.)
import init, { initSync } from './momentum_plan_wasm.js';
import * as raw from './momentum_plan_wasm.js';
import { wasmApi } from './api.js';

/** The second module once it is loaded, and the Promise of the load under way. */
let extrasModule = null;
let extrasLoading = null;

const extras = {
  get: () => extrasModule,
  loaded: () => extrasModule,
  /** Imports the second module's glue and instantiates its .wasm (`input` as init()'s:
   * `{ module_or_path }`, by default the file beside this one); once: later calls answer the same
   * Promise, unless it failed. */
  load(input) {
    extrasLoading ??= import('./momentum_plan_wasm_extras.js')
      .then(async (m) => {
        await m.default(input);
        extrasModule = m;
        return m;
      })
      .catch((e) => {
        extrasLoading = null;
        throw e;
      });
    return extrasLoading;
  },
};

export const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load } = wasmApi(raw, extras);
export default init;
export { initSync };
