// The way into the validator: a JS argument as JSON text (imported by src/lib.rs).
//
// This is the one place where JS values cross into wasm. A plan or request object is written to
// compact JSON text here (members in order, separators `,` and `:`, non-ASCII raw, only the
// escapes JSON requires: the text JSON.stringify would give), and the core parses that text once
// with serde_json. Strings given by the caller are JSON text already and pass through unchanged.
//
// What JSON cannot hold is never silently dropped or changed, as JSON.stringify would:
// - a function, symbol, BigInt, NaN, Infinity, a cycle, `undefined` (or a hole) in an array, a
//   Map/Set/WeakMap/WeakSet: throws a TypeError naming the JSON path, e.g.
//   `plan: $.routine.blocks[0].durationMin is NaN, which JSON cannot hold`;
// - a lone surrogate in a string or member name, or nesting deeper than MAX_DEPTH (512) levels:
//   returns a NotJson, which the core turns into its `json` verdict (validator.md D12, §7).
// An object member whose value is `undefined` is skipped, as JSON.stringify does; `toJSON` methods
// (Date) and boxed primitives are honoured as JSON.stringify honours them.
//
// Speed: a first walk only checks that JSON.stringify would write exactly this text (plain objects
// and arrays, strings without lone surrogates, safe integers and non-integral finite numbers,
// nesting within MAX_DEPTH, no cycle); then the native JSON.stringify writes it. Anything else
// (an error to report with its path, toJSON, boxed primitives, class instances, integral numbers
// beyond 2^53) goes through the careful serializer below, which gives the same text or the error.
// (A getter on a plain object is read twice on the fast path.)
//
// Numbers (validator.md §7): a JS number that is an integral value within ±(2^53−1) is written as
// an integer (`30`); any other finite number is written so the core reads it as a non-integer
// (`30.5`, and `1e+20` for integral values beyond 2^53, which JavaScript cannot hold exactly).
//
// This file is an ES module; the build writes a CommonJS copy for the Node package.

/** Deepest nesting that is JSON to the core (momentum_plan::MAX_DEPTH); the plan is level 1. */
const MAX_DEPTH = 512;

/** Why an argument is not JSON; read by src/lib.rs. `line`/`column` are 0 for in-memory values. */
class NotJson {
  constructor(reason, line, column) {
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed =
  typeof String.prototype.isWellFormed === 'function'
    ? (s) => s.isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

/** A JSONPath rendered as the core renders paths (validator.md §4, D7). */
function renderPath(keys) {
  let out = '$';
  for (const k of keys) {
    if (typeof k === 'number') out += `[${k}]`;
    else if (IDENT.test(k)) out += `.${k}`;
    else out += `['${k.replace(/[\\']/g, '\\$&')}']`;
  }
  return out;
}

function hex(unit) {
  return `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first lone surrogate of `s`: its index in UTF-16 units and its code unit. */
function loneSurrogate(s) {
  const m = LONE_SURROGATE.exec(s);
  return m ? { index: m.index, unit: s.charCodeAt(m.index) } : { index: 0, unit: 0 };
}

/** Text that holds a lone surrogate: a NotJson with its 1-based line and column in characters. */
function notJsonText(text) {
  const { index, unit } = loneSurrogate(text);
  let line = 1;
  let column = 1;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line += 1;
      column = 1;
    } else if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && isHigh(text.charCodeAt(i - 1)))) {
      column += 1; // a surrogate pair is one character
    }
  }
  return new NotJson(`a lone surrogate (${hex(unit)}) is not a character`, line, column);
}

function isHigh(c) {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Thrown inside the serializer, caught by toJsonText. */
class NotJsonSignal {
  constructor(reason) {
    this.reason = reason;
  }
}

function typeName(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `a BigInt (${v}n)`;
  if (typeof v === 'symbol') return `a symbol (${String(v)})`;
  if (typeof v === 'function') return `a function${v.name ? ` (${v.name})` : ''}`;
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/** Whether JSON.stringify(v) is exactly the text the careful serializer would write. Recursion
 * is bounded by MAX_DEPTH. */
function plain(v, depth, parents) {
  switch (typeof v) {
    case 'string':
      return wellFormed(v);
    case 'number':
      return Number.isSafeInteger(v) || (Number.isFinite(v) && !Number.isInteger(v));
    case 'boolean':
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth > MAX_DEPTH || parents.includes(v)) return false;
  const array = Array.isArray(v);
  const proto = Object.getPrototypeOf(v);
  if (array ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return false;
  if (typeof v.toJSON === 'function') return false;
  parents.push(v);
  if (array) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x === undefined || !plain(x, depth + 1, parents)) return false;
    }
  } else {
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const x = v[k];
      if (x === undefined) continue;
      if (!wellFormed(k) || !plain(x, depth + 1, parents)) return false;
    }
  }
  parents.pop();
  return true;
}

/**
 * The JSON text of one argument of validatePlan.
 * @param {unknown} value the argument
 * @param {string} role `plan` or `request`, for error messages
 * @returns {string | NotJson} the JSON text, or why the value is not JSON
 * @throws {TypeError} for values JSON cannot hold, naming the path
 */
export function toJsonText(value, role) {
  if (typeof value === 'string') {
    return wellFormed(value) ? value : notJsonText(value);
  }
  if (value !== null && typeof value === 'object' && plain(value, 1, [])) return JSON.stringify(value);
  return careful(value, role);
}

/** The careful serializer: JSON text, a NotJson, or a TypeError naming the path. */
function careful(value, role) {
  const keys = []; // the path to the value being written
  const parents = []; // the containers being written, for cycles
  let out = '';

  const fail = (what) => {
    throw new TypeError(`${role}: ${renderPath(keys)} ${what}`);
  };

  const write = (v, key) => {
    switch (typeof v) {
      case 'string':
        if (!wellFormed(v)) {
          const { unit } = loneSurrogate(v);
          throw new NotJsonSignal(
            `a lone surrogate (${hex(unit)}) in the string at ${renderPath(keys)} is not a character`,
          );
        }
        out += JSON.stringify(v);
        return;
      case 'number':
        if (Number.isSafeInteger(v)) out += String(v); // String(-0) is '0'
        else if (!Number.isFinite(v)) fail(`is ${v}, which JSON cannot hold`);
        else if (Number.isInteger(v)) out += v.toExponential();
        else out += String(v);
        return;
      case 'boolean':
        out += v ? 'true' : 'false';
        return;
      case 'object':
        break;
      case 'undefined':
        fail(
          parents.length > 0 && Array.isArray(parents[parents.length - 1])
            ? 'is undefined (or a hole), which a JSON array cannot hold'
            : 'is undefined, which JSON cannot hold',
        );
        return;
      default:
        fail(`is ${typeName(v)}, which JSON cannot hold`);
        return;
    }
    if (v === null) {
      out += 'null';
      return;
    }
    if (typeof v.toJSON === 'function') {
      v = v.toJSON(key);
      if (typeof v !== 'object' || v === null) {
        write(v, key);
        return;
      }
    }
    if (v instanceof Number) return write(Number(v), key);
    if (v instanceof String) return write(String(v), key);
    if (v instanceof Boolean) return write(v.valueOf(), key);
    if (typeof BigInt === 'function' && v instanceof BigInt) fail('is a BigInt, which JSON cannot hold');
    if (v instanceof Map || v instanceof Set || v instanceof WeakMap || v instanceof WeakSet) {
      fail(`is a ${v.constructor.name}, which JSON cannot hold (convert it to an object or array)`);
    }
    if (parents.length >= MAX_DEPTH) {
      throw new NotJsonSignal(`nesting deeper than ${MAX_DEPTH} levels is not allowed`);
    }
    const loop = parents.indexOf(v);
    if (loop >= 0) fail(`refers back to ${renderPath(keys.slice(0, loop))}: a cycle, which JSON cannot hold`);
    parents.push(v);
    if (Array.isArray(v)) {
      out += '[';
      const n = v.length;
      for (let i = 0; i < n; i++) {
        if (i > 0) out += ',';
        keys.push(i);
        write(v[i], String(i));
        keys.pop();
      }
      out += ']';
    } else {
      out += '{';
      let first = true;
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (x === undefined) continue;
        keys.push(k);
        if (typeof x === 'function' || typeof x === 'symbol') fail(`is ${typeName(x)}, which JSON cannot hold`);
        if (!wellFormed(k)) {
          const { unit } = loneSurrogate(k);
          throw new NotJsonSignal(
            `a lone surrogate (${hex(unit)}) in a member name at ${renderPath(keys)} is not a character`,
          );
        }
        out += first ? JSON.stringify(k) : `,${JSON.stringify(k)}`;
        out += ':';
        first = false;
        write(x, k);
        keys.pop();
      }
      out += '}';
    }
    parents.pop();
  };

  try {
    write(value, '');
  } catch (e) {
    if (e instanceof NotJsonSignal) return new NotJson(e.reason, 0, 0);
    throw e;
  }
  return out;
}
