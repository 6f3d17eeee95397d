// momentum-plan-wasm for browsers and bundlers (ES module). Call `await init()` (or
// `initSync({ module })`) once, then validatePlan / getPlanContract; `await load()` once before
// repairPlan, planSchema or PlanStream, which are in the package's second module, and `await
// loadCalendar()` once before planToIcalendar or commitmentsFromIcalendar, in its calendar module
// (issue 32: a page fetches only the validator's .wasm for its first verdict). (bindings-wasm's
// scripts/build.mjs copies this file to pkg/web/index.js.)
import init, { initSync } from './momentum_plan_wasm.js';
import * as raw from './momentum_plan_wasm.js';
import { wasmApi } from './api.js';

/**
 * The loader of a module loaded on first use: `importGlue()` imports its wasm-bindgen glue (a
 * Promise of the ES module). `load(input)` imports it and instantiates its .wasm (`input` as
 * init()'s: `{ module_or_path }`, by default the file beside this one), once: later calls answer
 * the same Promise, unless it failed; `get()` and `loaded()` answer the module once it has loaded,
 * else null.
 */
function loader(importGlue) {
  let module = null;
  let loading = null;
  return {
    get: () => module,
    loaded: () => module,
    load(input) {
      loading ??= importGlue()
        .then(async (m) => {
          await m.default(input);
          module = m;
          return m;
        })
        .catch((e) => {
          loading = null;
          throw e;
        });
      return loading;
    },
  };
}

const loaders = {
  extras: loader(() => import('./momentum_plan_wasm_extras.js')),
  calendar: loader(() => import('./momentum_plan_wasm_calendar.js')),
};

const api = wasmApi(raw, loaders);
export const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load } = api;
export const { planToIcalendar, commitmentsFromIcalendar, loadCalendar } = api;
export default init;
export { initSync };
