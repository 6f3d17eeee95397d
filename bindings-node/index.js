'use strict'
/**
 * momentum-plan-node: the plan validator of the momentum-plan project for Node.js, native
 * (napi-rs). Four functions: `validatePlan(plan, request)`, `repairPlan(plan, request, options)`,
 * `planSchema(request, variant)` and `getPlanContract()`; the class `PlanStream(request)` and the
 * async generator `streamPlan(stream, chunks)` (a plan validated as it streams, validator.md §10);
 * `planToIcalendar(plan, request, dtstamp)` and `commitmentsFromIcalendar(ics, startDate,
 * timezone)`, a valid plan as iCalendar and a calendar's week as commitments (issue 32:
 * `calendar.js`, generated at build time from `js/calendar.js`, shared with momentum-plan-wasm's
 * calendar module); types in `index.d.ts`; ESM entry `index.mjs`.
 *
 * They are the converter shared with momentum-plan-wasm (`convert.js`, generated at build time
 * from `js/convert.js` at the repository root; its header says what is written and what is
 * refused) over the native addon as it is: a JS value becomes JSON text, the text goes to the Rust
 * core, the verdict comes back packed in one string (`Verdict::to_packed`) that the converter
 * splits into plain objects. Every rule and every message lives in the core crate
 * (shared/spec/validator.md).
 */

const { makeConverter, streamPlan } = require('./convert.js')
const { makeCalendar } = require('./calendar.js')

const native = require('./native.js')
const converter = makeConverter(native)
const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, isWarning } = converter
const { planToIcalendar, commitmentsFromIcalendar } = makeCalendar(native, converter)

module.exports = { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning }
Object.assign(module.exports, { planToIcalendar, commitmentsFromIcalendar })
