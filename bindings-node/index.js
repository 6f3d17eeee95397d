'use strict'
/**
 * momentum-plan-node: the plan validator of the momentum-plan project for Node.js, native
 * (napi-rs). Two functions: `validatePlan(plan, request)` and `getPlanContract()`; types in
 * `index.d.ts`; ESM entry `index.mjs`.
 *
 * This file only converts: a JS value becomes JSON text (`JSON.stringify`, after a pre-walk that
 * rejects what JSON cannot hold), the text goes to the Rust core, the verdict comes back as a
 * plain object. Every rule lives in the core crate (shared/spec/validator.md).
 */

const native = require('./native.js')

const MAX_DEPTH = native.maxDepth()
const MAX_SAFE = Number.MAX_SAFE_INTEGER
const ObjectProto = Object.prototype
const isArray = Array.isArray
const objectKeys = Object.keys
const stringify = JSON.stringify

/** Thrown inside the walk when JSON cannot hold a plan for a reason the core turns into a `json` verdict. */
class NotJson {
  constructor(reason) {
    this.reason = reason
  }
}

/** Per-call walk state (never global: a `toJSON` may itself call `validatePlan`). */
function newState(what) {
  // path: keys (strings) and indices (numbers) from the root to the value being read;
  // ancestors: the containers from the root down; unsafe: an integral number beyond ±(2^53−1)
  // was seen, so JSON.stringify's digits would read as an integer and the own writer is used.
  return { what, path: [], ancestors: [], unsafe: false }
}

function renderPath(segments) {
  return native.renderPath(segments)
}

function typeFault(st, what, hint = '') {
  const at = renderPath(st.path)
  const err = new TypeError(`${st.what} at ${at} ${what}, which JSON cannot hold${hint}`)
  err.path = at
  err.argument = st.what
  return err
}

function unwrapExotic(v) {
  // JSON.stringify unwraps boxed primitives (new Number(1), new String('a'), Object(1n)).
  if (v instanceof Number) return Number(v)
  if (v instanceof String) return String(v)
  if (v instanceof Boolean) return v.valueOf()
  if (typeof BigInt === 'function' && v instanceof BigInt) return v.valueOf()
  return v
}

/**
 * Checks that `v` (at `st.path`, nesting level `depth`, the root being 1) is what JSON.stringify
 * writes unchanged: throws a TypeError naming the path for a function, symbol, BigInt,
 * NaN/±Infinity, a cycle or `undefined` in an array; throws NotJson for a lone surrogate or
 * nesting deeper than MAX_DEPTH. `key` is what a `toJSON` method gets. Returns true when the
 * value is `undefined` (a member that JSON.stringify skips).
 */
function scan(v, key, depth, st) {
  switch (typeof v) {
    case 'string':
      if (!v.isWellFormed()) throw new NotJson(loneSurrogateReason(v, `the string at ${renderPath(st.path)}`))
      return false
    case 'number':
      if (v !== v || v === Infinity || v === -Infinity) {
        throw typeFault(st, v !== v ? 'is NaN' : 'is an infinite number', ' (JSON has no NaN or Infinity)')
      }
      if ((v > MAX_SAFE || v < -MAX_SAFE) && Number.isInteger(v)) st.unsafe = true
      return false
    case 'boolean':
      return false
    case 'undefined':
      return true
    case 'object':
      if (v === null) return false
      break
    case 'function':
      throw typeFault(st, 'is a function')
    case 'symbol':
      throw typeFault(st, 'is a symbol')
    case 'bigint':
      if (typeof v.toJSON === 'function') return scan(v.toJSON(key), key, depth, st)
      throw typeFault(st, 'is a BigInt', ' (pass a number, or the plan as JSON text)')
    default:
      throw typeFault(st, `is a ${typeof v}`)
  }
  if (typeof v.toJSON === 'function') return scan(v.toJSON(key), key, depth, st)
  const arr = isArray(v)
  if (!arr) {
    const proto = Object.getPrototypeOf(v)
    if (proto !== ObjectProto && proto !== null) {
      const u = unwrapExotic(v)
      if (u !== v) return scan(u, key, depth, st)
    }
  }
  if (depth > MAX_DEPTH) throw tooDeep(v, st)
  const { path, ancestors } = st
  ancestors.push(v)
  if (arr) {
    for (let i = 0, n = v.length; i < n; i++) {
      path.push(i)
      if (scan(v[i], String(i), depth + 1, st)) throw typeFault(st, 'is undefined inside an array')
      path.pop()
    }
  } else {
    const keys = objectKeys(v)
    for (let i = 0, n = keys.length; i < n; i++) {
      const k = keys[i]
      path.push(k)
      if (!k.isWellFormed()) throw new NotJson(loneSurrogateReason(k, `the member name at ${renderPath(st.path)}`))
      scan(v[k], k, depth + 1, st)
      path.pop()
    }
  }
  ancestors.pop()
  return false
}

/** A container at level MAX_DEPTH + 1: a cycle (TypeError) when a container repeats among its ancestors, else too deep (NotJson). */
function tooDeep(v, st) {
  const chain = st.ancestors.concat([v])
  for (let j = 1; j < chain.length; j++) {
    const i = chain.indexOf(chain[j])
    if (i < j) {
      const at = renderPath(st.path.slice(0, j))
      const err = new TypeError(
        `${st.what} at ${at} refers back to ${renderPath(st.path.slice(0, i))} (a cycle), which JSON cannot hold`,
      )
      err.path = at
      err.argument = st.what
      return err
    }
  }
  return new NotJson(`nesting deeper than ${MAX_DEPTH} levels is not allowed`)
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function loneSurrogateReason(s, where) {
  const m = LONE.exec(s)
  const unit = m ? m[0].charCodeAt(0).toString(16).toUpperCase() : 'D800'
  return `${where} holds a lone surrogate (U+${unit}), which is not a character`
}

/**
 * JSON text of a value already checked by `scan`, written like JSON.stringify except that an
 * integral number beyond ±(2^53−1) gets `.0` (it is not an integer: validator.md §7). Used only
 * when `scan` saw such a number.
 */
function write(v, key, out) {
  if (v !== null && (typeof v === 'object' || typeof v === 'bigint')) {
    if (typeof v.toJSON === 'function') return write(v.toJSON(key), key, out)
    if (!isArray(v) && Object.getPrototypeOf(v) !== ObjectProto) v = unwrapExotic(v)
  }
  switch (typeof v) {
    case 'undefined':
      return false
    case 'number': {
      let s = String(v)
      if ((v > MAX_SAFE || v < -MAX_SAFE) && !/[.eE]/.test(s)) s += '.0'
      out.push(s)
      return true
    }
    case 'string':
    case 'boolean':
      out.push(stringify(v))
      return true
    default:
      break
  }
  if (v === null) {
    out.push('null')
    return true
  }
  if (isArray(v)) {
    out.push('[')
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(',')
      write(v[i], String(i), out)
    }
    out.push(']')
    return true
  }
  out.push('{')
  let first = true
  for (const k of objectKeys(v)) {
    const at = out.length
    out.push(first ? '' : ',', stringify(k), ':')
    if (write(v[k], k, out)) first = false
    else out.length = at
  }
  out.push('}')
  return true
}

/**
 * Whether `v` (at nesting level `depth`) is plain JSON data that JSON.stringify writes exactly as
 * the core must read it: plain objects and arrays (no `toJSON`, no other prototype), well-formed
 * strings, safe or fractional finite numbers, booleans, null; `undefined` only as a member value.
 * No path is kept, so the common case costs one quick walk; `false` sends the value to `scan`,
 * which finds and names the fault (or passes what this walk is too strict for).
 */
function plain(v, depth) {
  switch (typeof v) {
    case 'string':
      return v.isWellFormed()
    case 'number':
      return (v <= MAX_SAFE && v >= -MAX_SAFE) || (v === v && v !== Infinity && v !== -Infinity && !Number.isInteger(v))
    case 'boolean':
      return true
    case 'object':
      break
    default:
      return false
  }
  if (v === null) return true
  if (depth > MAX_DEPTH || typeof v.toJSON === 'function') return false
  if (isArray(v)) {
    for (let i = 0, n = v.length; i < n; i++) if (!plain(v[i], depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(v)
  if (proto !== ObjectProto && proto !== null) return false
  // for-in also visits enumerable members inherited from Object.prototype: checking more than
  // JSON.stringify writes can only send a value to the slow path, never let a fault through.
  for (const k in v) {
    const x = v[k]
    if ((x !== undefined && !plain(x, depth + 1)) || !k.isWellFormed()) return false
  }
  return true
}

/**
 * `value` as JSON text for the core. Throws a TypeError for a value JSON cannot hold, NotJson for
 * a lone surrogate or nesting deeper than MAX_DEPTH.
 */
function toText(value, what) {
  if (plain(value, 1)) return stringify(value)
  const st = newState(what)
  if (scan(value, '', 1, st)) throw typeFault(st, 'is undefined')
  if (!st.unsafe) return stringify(value)
  const out = []
  write(value, '', out)
  return out.join('')
}

/** The 1-based line and column (in characters) of the first lone surrogate of `text`. */
function loneSurrogateAt(text) {
  const m = LONE.exec(text)
  const before = text.slice(0, m.index)
  const nl = before.lastIndexOf('\n')
  let line = 1
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++
  const column = [...before.slice(nl + 1)].length + 1
  const unit = m[0].charCodeAt(0).toString(16).toUpperCase()
  return [`a lone surrogate (U+${unit}) is not a character`, line, column]
}

/**
 * Validates a plan against the request it answers (shared/spec/validator.md §5).
 *
 * @param {object | string} plan the plan: a JS value (converted as JSON.stringify would), or its
 *   JSON text (validated as text: its size is its UTF-8 length, D3).
 * @param {object | string} request the request the plan answers: a JS value, or its JSON text.
 * @returns {import('./index').Verdict} a plain object equal to the core's verdict JSON
 *   `{valid, errors, warnings, checks}`; an invalid plan is a normal verdict, never an exception.
 * @throws {TypeError} `plan`/`request` holds a value JSON cannot hold (function, symbol, BigInt,
 *   NaN/Infinity, a cycle, `undefined` in an array, or is `undefined`); the message and the
 *   error's `path` name where. A request holding a lone surrogate or nested deeper than 512 levels
 *   is a TypeError too; a plan that does gets the core's `json` verdict instead.
 * @throws {SyntaxError} the request text is not strict JSON.
 */
function validatePlan(plan, request) {
  let planText
  let planFault = null
  if (typeof plan === 'string') {
    if (plan.isWellFormed()) planText = plan
    else planFault = loneSurrogateAt(plan)
  } else {
    try {
      planText = toText(plan, 'plan')
    } catch (e) {
      if (!(e instanceof NotJson)) throw e
      planFault = [e.reason, 0, 0]
    }
  }
  let requestText
  if (typeof request === 'string') {
    if (!request.isWellFormed()) {
      const [reason, line, column] = loneSurrogateAt(request)
      throw new SyntaxError(`request is not JSON: ${reason} at line ${line}, column ${column}`)
    }
    requestText = request
  } else {
    try {
      requestText = toText(request, 'request')
    } catch (e) {
      if (!(e instanceof NotJson)) throw e
      throw new TypeError(`request: ${e.reason}, which JSON cannot hold`)
    }
  }
  if (planFault !== null) return JSON.parse(native.notJson(planFault[0], planFault[1], planFault[2]))
  try {
    return unpack(native.validatePacked(planText, requestText))
  } catch (e) {
    if (e && e.code === 'InvalidArg') throw new SyntaxError(e.message)
    throw e
  }
}

/** Check names by position in the core's `Check::ALL` (the digits of a packed verdict). */
const CHECK_NAMES = native.checkNames()

/** `count` issues from `parts`, starting at `at` (code, path, message each). */
function issues(parts, at, count) {
  const out = new Array(count)
  for (let k = 0; k < count; k++, at += 3) out[k] = { code: parts[at], path: parts[at + 1], message: parts[at + 2] }
  return out
}

/**
 * The verdict object from `native.validatePacked`'s string (`src/text.rs`, `pack`): fields joined
 * by NUL, or the verdict JSON when a path or message holds a NUL itself. Keys in the core's order.
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

module.exports = { validatePlan, getPlanContract }
