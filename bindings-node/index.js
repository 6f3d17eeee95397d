'use strict'
/**
 * momentum-plan-node: the plan validator of the momentum-plan project for Node.js, native
 * (napi-rs). Four functions: `validatePlan(plan, request)`, `repairPlan(plan, request, options)`,
 * `planSchema(request, variant)` and `getPlanContract()`; types in
 * `index.d.ts`; ESM entry `index.mjs`.
 *
 * A JS value becomes JSON text in `convert.js`, the converter shared with momentum-plan-wasm
 * (generated at build time from `js/convert.js` at the repository root; its header says what is
 * written and what is refused). The text goes to the Rust core, the verdict comes back packed in
 * one string (`Verdict::to_packed`) and the converter splits it into plain objects (`unpackVerdict`). Every rule and every message lives
 * in the core crate (shared/spec/validator.md).
 */

const native = require('./native.js')
const { makeConverter } = require('./convert.js')

/** The native side the shared converter expects (its `makeConverter` documents each function). */
const { validatePlan, repairPlan, planSchema } = makeConverter({
  maxDepth: native.maxDepth,
  renderPath: native.renderPath,
  floatText: native.floatText,
  faultText: native.faultText,
  textFaultText: native.textFaultText,
  checkNames: native.checkNames,
  planFault: native.planFaultPacked,
  planTextFault: native.planTextFaultPacked,
  validate: native.validatePacked,
  repair: (planText, requestText, unsafe) => parsedOrMessage(native.repairJson(planText, requestText, unsafe)),
  repairPlanFault: (requestText, unsafe, path, kind, detail) =>
    parsedOrMessage(native.repairPlanFaultJson(requestText, unsafe, path, kind, detail)),
  repairPlanTextFault: (requestText, unsafe, plan, unit, before) =>
    parsedOrMessage(native.repairPlanTextFaultJson(requestText, unsafe, plan, unit, before)),
  schema(requestText, variant) {
    const text = native.planSchemaJson(requestText, variant)
    return text.charCodeAt(0) === 123 /* { */ ? JSON.parse(text) : text
  },
})

/** A native answer that is JSON (the repair) as objects; `!` + a message as the message. */
function parsedOrMessage(text) {
  return text.charCodeAt(0) === 33 /* ! */ ? text.slice(1) : JSON.parse(text)
}

let contractText = null

/**
 * The plan contract (shared/spec/validator.md §2): format, contractVersion, categories, weekdays,
 * limits and rules, in that key order. A fresh object on every call.
 *
 * @returns {import('./index').Contract}
 */
function getPlanContract() {
  if (contractText === null) contractText = native.planContractJson()
  return JSON.parse(contractText)
}

module.exports = { validatePlan, repairPlan, planSchema, getPlanContract }
