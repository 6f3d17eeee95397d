// momentum-plan-wasm for Node (ES module): `import { validatePlan } from 'momentum-plan-wasm'`, and
// `import init, { initSync } from 'momentum-plan-wasm'` as the web build is used, so code written
// for browsers and bundlers runs unchanged under Node (in tests, server-side rendering). The
// functions are the CommonJS entry's (node.cjs); Node loads the WebAssembly with that module, so
// init() and initSync() have nothing left to do. (bindings-wasm's scripts/build.mjs copies this
// file to pkg/node/index.mjs.)
import api from './index.js';

export const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load } = api;
export const { planToIcalendar, commitmentsFromIcalendar, loadCalendar } = api;

/** As the web build's default export: resolves at once (the module is already instantiated). Any
 * argument (a URL, bytes, a `WebAssembly.Module`, `{ module_or_path }`) is accepted and unused. */
export default async function init(_input) {}

/** As the web build's `initSync`: returns at once (the module is already instantiated). */
export function initSync(_input) {}
