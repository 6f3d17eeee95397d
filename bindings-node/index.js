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
 * one string and is split into plain objects here (`unpack`). Every rule and every message lives
 * in the core crate (shared/spec/validator.md).
 */

const native = require('./native.js')
const { makeConverter } = require('./convert.js')

/** Check names by position in the core's `Check::ALL` (the digits of a packed verdict). */
const CHECK_NAMES = native.checkNames()

/** `count` issues from `parts`, starting at `at` (code, path, message each). */
function issues(parts, at, count) {
  const out = new Array(count)
  for (let k = 0; k < count; k++, at += 3) out[k] = { code: parts[at], path: parts[at + 1], message: parts[at + 2] }
  return out
}

/**
 * The verdict object from a packed verdict (`src/text.rs`, `pack`): fields joined by NUL, or the
 * verdict JSON when a path or message holds a NUL itself. Keys in the core's order.
 */
function unpack(packed) {
  if (packed.charCodeAt(0) === 123 /* { */) return JSON.parse(packed)
  const parts = packed.split('\0')
  const nErrors = +parts[2]
  const at = 3 + 3 * nErrors
  const digits = parts[1]
  const checks = new Array(digits.length)
  for (let k = 0; k < digits.length; k++) checks[k] = CHECK_NAMES[digits.charCodeAt(k) - 48]
  return {
    valid: parts[0] === '1',
    errors: issues(parts, 3, nErrors),
    warnings: issues(parts, at + 1, +parts[at]),
    checks,
  }
}

/** The native side the shared converter expects (its `makeConverter` documents each function). */
const { validatePlan, repairPlan, planSchema } = makeConverter({
  maxDepth: native.maxDepth,
  renderPath: native.renderPath,
  floatText: native.floatText,
  faultText: native.faultText,
  textFaultText: native.textFaultText,
  planFault: (path, kind, detail) => unpack(native.planFaultPacked(path, kind, detail)),
  planTextFault: (unit, before) => unpack(native.planTextFaultPacked(unit, before)),
  validate(planText, requestText) {
    const packed = native.validatePacked(planText, requestText)
    return packed.charCodeAt(0) === 33 /* ! */ ? packed.slice(1) : unpack(packed)
  },
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
