// The one way a JavaScript value enters the momentum-plan validator, for both JS packages:
// bindings-node (napi-rs) and bindings-wasm (wasm-bindgen). This file is the only source; each
// package's build writes a generated copy beside its entry (bindings-node/convert.js, CommonJS;
// bindings-wasm/pkg/node/convert.js, CommonJS; bindings-wasm/pkg/web/convert.js, ES module) with
// js/emit.mjs. Never edit a copy.
//
// It turns a plan or request into JSON text for the core (validator.md §7), or finds what JSON
// cannot hold and says so in the core's words, for the three functions both packages export from
// `makeConverter`: validatePlan (§5), repairPlan and planSchema (§9), which read their arguments
// and throw alike: every message about a plan, a request or a schema variant comes from the
// native side (momentum_plan::host: HostFault's Display, Argument::not_json, Verdict::not_json;
// SchemaError's Display), so the two packages throw the same errors and give the same bytes. (Only
// the TypeErrors for a repairPlan `options` or a planSchema `variant` of the wrong JS type are
// worded here: the core has no such values.)
//
// What is written, as JSON.stringify writes it:
// - `toJSON(key)` is called on objects and BigInts that have one (Date, BigInt.prototype.toJSON),
//   once, with the member name or array index as key ('' for the argument itself); an object
//   member whose value (after toJSON) is undefined is skipped;
// - boxed primitives (new Number(1), new String('a'), Object(true)) are unwrapped;
// - arrays are their elements, other objects their own enumerable string-keyed members, in order,
//   whatever their class (a class instance, an object from another realm, a Proxy);
// - numbers (§7): an integral number within ±(2^53−1) is an integer (`30`; −0 is `0`, as
//   JSON.stringify writes it); any other finite number is a non-integer in the core's in-memory
//   float form (momentum_plan::float_text: `9007199254740992.0`, `1e+20`, `1.5e-6`). JSON.stringify's
//   digits are kept only where they are provably that same text (engineWritesCoreNumber below).
//
// What JSON cannot hold, by FaultKind (core/src/host.rs):
// - notFinite (NaN, ±Infinity), cycle, unsupported (a function, symbol, BigInt without toJSON, or
//   an object whose data JSON.stringify cannot see: a Map, Set, WeakMap, WeakSet, RegExp, Error,
//   Promise, typed array, ...; told by Object.prototype.toString, so from any realm), hole
//   (undefined or a hole in an array), undefined (the argument itself): a TypeError;
// - tooDeep (nesting deeper than MAX_DEPTH), loneSurrogate, loneSurrogateInName: in a plan the
//   core's `json` verdict; in a request a TypeError;
// - JSON text holding a lone surrogate: the `json` verdict for a plan, a SyntaxError for a request
//   (line and column counted by the core, JsonError::lone_surrogate_in_text).
// Every error this module throws is a TypeError or SyntaxError with `.argument` ('plan' or
// 'request') and `.path` (the JSONPath of the fault, '$' for text). Errors thrown by the caller's
// own code (a getter, a toJSON, a Proxy trap) pass through unchanged.
//
// Speed: a first walk (`plain`) only checks that JSON.stringify writes exactly the text the
// careful writer would (plain objects and arrays, numbers whose JS text is the core's, nesting
// within MAX_DEPTH); then the engine's JSON.stringify writes it, and one search of that text finds
// any lone surrogate (JSON.stringify escapes it as `\udXXX`). Anything else goes to the careful
// writer, which gives the same text or finds the fault. On that fast path a getter is read twice
// (once by each walk; a third time by the careful writer when the text holds a lone surrogate).
//
// This file is an ES module made only of `export function|class|const` declarations without
// imports, so js/emit.mjs can write its CommonJS copy.

/**
 * The native side a converter needs (each package adapts its exports to this shape):
 * - `maxDepth()`: momentum_plan::MAX_DEPTH (512);
 * - `renderPath(segments)`: a JSONPath from member names (strings) and indices (numbers), by the
 *   core's rules (validator.md §4, D7);
 * - `floatText(x)`: momentum_plan::float_text(x) for a finite number;
 * - `faultText(argument, path, kind, detail)`: the Display of HostFault::new(argument, path, kind, detail);
 * - `textFaultText(argument, unit, before)`: Argument::not_json of JsonError::lone_surrogate_in_text(unit, before);
 * - `checkNames()`: the check names in the order of momentum_plan::Check::ALL (the digits of a
 *   packed verdict);
 * - `planFault(path, kind, detail)`: Verdict::to_packed of Verdict::not_json(HostFault::json_error())
 *   for a plan fault of a json kind (tooDeep, loneSurrogate, loneSurrogateInName);
 * - `planTextFault(unit, before)`: Verdict::to_packed of Verdict::not_json(JsonError::lone_surrogate_in_text(unit, before));
 * - `validate(planText, requestText)`: Verdict::to_packed of momentum_plan::validate_text_pair, or
 *   `!` and the message (Argument::not_json) when the request text is not JSON.
 * - `repair(planText, requestText, unsafe)`: the object of momentum_plan::repair's
 *   `Repair::to_json` (both as text; `unsafe`: RepairOptions::unsafe_fixes), or a string, the
 *   request's message as for `validate`;
 * - `repairPlanFault(requestText, unsafe, path, kind, detail)`: the same for a plan value holding a
 *   json-kind fault: nothing applied, `plan` '', the verdict of `planFault`, the request's part
 *   (`requestAtFault`) from the core;
 * - `repairPlanTextFault(requestText, unsafe, lossyText, unit, before)`: the same for plan text
 *   holding a lone surrogate (`plan` is `lossyText`, the verdict that of `planTextFault`);
 * - `schema(requestText, variant)`: the object of momentum_plan::plan_schema, or a string: one
 *   character naming the error, then the core's message: `!` the request text is not JSON, `?` an
 *   unknown variant (SchemaVariant::from_name), `#` a request at fault (SchemaError::RequestAtFault).
 */
export function makeConverter(native) {
  const MAX_DEPTH = native.maxDepth();
  const renderPath = native.renderPath;
  const CHECK_NAMES = native.checkNames();
  const unpack = (packed) => unpackVerdict(packed, CHECK_NAMES);

  /** A fault found in a host value; becomes an error or (plan, json kinds) a verdict. */
  class Fault {
    constructor(argument, segments, kind, detail) {
      this.argument = argument;
      this.segments = segments;
      this.kind = kind;
      this.detail = detail;
    }
  }

  /** The error for a fault: a TypeError with the core's text, `.path`, `.argument` and `.kind`. */
  function hostError(f) {
    const path = renderPath(f.segments);
    return withPlace(new TypeError(native.faultText(f.argument, path, f.kind, f.detail)), f.argument, path, f.kind);
  }

  /** `value` (a non-string argument) as JSON text; throws a Fault for what JSON cannot hold. */
  function toText(value, argument) {
    if (plain(value, 1)) {
      // JSON.stringify writes a lone surrogate (in a string or a member name) as the escape
      // `\udXXX` and writes no other `\ud`, except after an escaped backslash (`\\ud…`, text
      // that merely looks like one): one search of the text instead of a check of every string.
      const text = stringify(value);
      if (text.indexOf('\\ud') === -1) return text;
    }
    return careful(value, argument);
  }

  /**
   * Whether JSON.stringify(v) is exactly the careful writer's text and holds no fault, except
   * perhaps a lone surrogate in a string or member name (toText looks for those in the text):
   * plain objects (prototype Object.prototype or null) and arrays without toJSON, numbers the
   * engine writes as the core does, nesting level (`depth`, the argument being 1) within
   * MAX_DEPTH; undefined only as a member value. No path is kept.
   */
  function plain(v, depth) {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return true;
      case 'number':
        return engineWritesCoreNumber(v);
      case 'object':
        return v === null || plainContainer(v, depth);
      default:
        return false;
    }
  }

  /** `plain` of an object `v` that is not null (scalar members are checked in place, the walk
   * recurses only into containers). */
  function plainContainer(v, depth) {
    if (depth > MAX_DEPTH || typeof v.toJSON === 'function') return false;
    if (isArray(v)) {
      for (let i = 0, n = v.length; i < n; i++) {
        const x = v[i];
        switch (typeof x) {
          case 'string':
          case 'boolean':
            continue;
          case 'number':
            if (engineWritesCoreNumber(x)) continue;
            return false;
          case 'object':
            if (x === null || plainContainer(x, depth + 1)) continue;
            return false;
          default:
            return false; // undefined (a hole), a function, a symbol, a BigInt
        }
      }
      return true;
    }
    const proto = getPrototypeOf(v);
    if (proto !== ObjectProto && proto !== null) return false;
    // for-in also visits enumerable members inherited from Object.prototype: checking more than
    // JSON.stringify writes can only send a value to the careful writer, never let a fault through.
    for (const k in v) {
      const x = v[k];
      switch (typeof x) {
        case 'string':
        case 'boolean':
        case 'undefined': // skipped, as JSON.stringify skips it
          continue;
        case 'number':
          if (engineWritesCoreNumber(x)) continue;
          return false;
        case 'object':
          if (x === null || plainContainer(x, depth + 1)) continue;
          return false;
        default:
          return false;
      }
    }
    return true;
  }

  /** The careful writer: the JSON text of `root`, or a thrown Fault naming the path. */
  function careful(root, argument) {
    const path = []; // member names and indices from the argument to the value being written
    const chain = []; // the containers from the argument down, for cycles
    let out = '';
    const fault = (kind, detail = '') => new Fault(argument, path.slice(), kind, detail);

    /** `v` after toJSON and unboxing, as SerializeJSONProperty (ECMA-262 25.5.2.2) steps 2–4. */
    const prepare = (v, key) => {
      if (v !== null && (typeof v === 'object' || typeof v === 'bigint')) {
        const toJSON = v.toJSON;
        if (typeof toJSON === 'function') v = toJSON.call(v, key);
        if (v !== null && typeof v === 'object') v = unbox(v);
      }
      return v;
    };

    /** Writes a prepared value that is not undefined. */
    const write = (v) => {
      switch (typeof v) {
        case 'string':
          if (!wellFormed(v)) throw fault('loneSurrogate', unitHex(v));
          out += stringify(v);
          return;
        case 'number':
          if (engineWritesCoreNumber(v)) out += String(v);
          else if (v !== v || v === Infinity || v === -Infinity) throw fault('notFinite', String(v));
          else out += native.floatText(v);
          return;
        case 'boolean':
          out += v ? 'true' : 'false';
          return;
        case 'object':
          break;
        case 'function':
          throw fault('unsupported', v.name ? `a function (${v.name})` : 'a function');
        case 'symbol':
          throw fault('unsupported', `a symbol (${String(v)})`);
        case 'bigint':
          throw fault('unsupported', `a BigInt (${v}n)`);
        default:
          throw fault('unsupported', `a ${typeof v}`);
      }
      if (v === null) {
        out += 'null';
        return;
      }
      const kind = noJsonForm(v);
      if (kind !== null) throw fault('unsupported', withArticle(kind));
      if (chain.length >= MAX_DEPTH) throw tooDeep(v);
      chain.push(v);
      if (isArray(v)) {
        out += '[';
        for (let i = 0, n = v.length; i < n; i++) {
          if (i > 0) out += ',';
          path.push(i);
          const x = prepare(v[i], String(i));
          if (x === undefined) throw fault('hole');
          write(x);
          path.pop();
        }
        out += ']';
      } else {
        out += '{';
        let first = true;
        const keys = objectKeys(v);
        for (let i = 0, n = keys.length; i < n; i++) {
          const k = keys[i];
          path.push(k);
          const x = prepare(v[k], k);
          if (x !== undefined) {
            if (!wellFormed(k)) throw fault('loneSurrogateInName', unitHex(k));
            out += first ? `${stringify(k)}:` : `,${stringify(k)}:`;
            first = false;
            write(x);
          }
          path.pop();
        }
        out += '}';
      }
      chain.pop();
    };

    /** The fault for container `v` one level too deep: a cycle when a container repeats among its
     * ancestors (the first repeat from the argument down), else tooDeep. */
    const tooDeep = (v) => {
      const all = chain.concat([v]);
      for (let j = 1; j < all.length; j++) {
        const i = all.indexOf(all[j]);
        if (i < j) return new Fault(argument, path.slice(0, j), 'cycle', renderPath(path.slice(0, i)));
      }
      return fault('tooDeep');
    };

    const v = prepare(root, '');
    if (v === undefined) throw fault('undefined');
    write(v);
    return out;
  }

  /** The fault of JSON text `text` holding a lone surrogate: its code unit and the text before it. */
  function textFault(text) {
    const m = LONE_SURROGATE.exec(text);
    return [text.charCodeAt(m.index), text.slice(0, m.index)];
  }

  /**
   * Validates a plan against the request it answers (validator.md §5).
   *
   * @param {unknown} plan the plan: a JS value (written as described above), or its JSON text
   *   (validated as text: its size is its UTF-8 length, D3).
   * @param {unknown} request the request the plan answers: a JS value, or its JSON text.
   * @returns the verdict `{valid, errors, warnings, checks}` as plain objects, equal to the core's
   *   `Verdict::to_json`; an invalid plan, a plan that is not JSON, nested too deep or holding a lone
   *   surrogate is a verdict, never an exception.
   * @throws {TypeError} an argument holds a value JSON cannot hold (see above; for the request also
   *   nesting too deep and lone surrogates), with `.argument` and `.path`.
   * @throws {SyntaxError} the request text is not JSON (`.argument` 'request', `.path` '$').
   */
  function validatePlan(plan, request) {
    const [planText, planFault, requestText] = readPair(plan, request);
    if (planFault !== null) {
      if (planFault instanceof Fault) return unpack(native.planFault(renderPath(planFault.segments), planFault.kind, planFault.detail));
      return unpack(native.planTextFault(planFault[0], planFault[1]));
    }
    const packed = native.validate(planText, requestText);
    if (packed.charCodeAt(0) === 33 /* ! */) throw withPlace(new SyntaxError(packed.slice(1)), 'request', '$');
    return unpack(packed);
  }

  /**
   * Both arguments of validatePlan or repairPlan read, in order: `[planText, planFault,
   * requestText]`, where `planFault` (else null) is a json-kind Fault of a plan value or the
   * `[unit, before]` of plan text holding a lone surrogate. Throws what validatePlan throws.
   */
  function readPair(plan, request) {
    plan = textOf(plan);
    let planText = null;
    let planFault = null;
    if (typeof plan === 'string') {
      if (wellFormed(plan)) planText = plan;
      else planFault = textFault(plan);
    } else {
      try {
        planText = toText(plan, 'plan');
      } catch (e) {
        if (!(e instanceof Fault)) throw e;
        if (!JSON_KINDS.has(e.kind)) throw hostError(e);
        planFault = e;
      }
    }
    return [planText, planFault, toJsonText(request, 'request')];
  }

  /** A native answer that is a string is the message of request text that is not JSON. */
  function requestChecked(answer) {
    if (typeof answer === 'string') throw withPlace(new SyntaxError(answer), 'request', '$');
    return answer;
  }

  /**
   * Repairs a plan against the request it answers (validator.md §9): applies the validator's safe
   * fixes (and, with `options.unsafe`, its unsafe ones; placeholders never), validates again, to a
   * fixed point.
   *
   * @param {unknown} plan as for validatePlan.
   * @param {unknown} request as for validatePlan.
   * @param {{unsafe?: boolean} | undefined} options `unsafe`: apply unsafe fixes too (default false).
   * @returns the repair `{plan, patch, applied, offered, verdict, rounds, stopped, revealed,
   *   requestAtFault}` as plain objects: the core's `Repair::to_json` through JSON.parse. A plan
   *   JSON text cannot carry (nested too deep, a lone surrogate) gets the `json` verdict with
   *   nothing applied; its `plan` is `''` for a value, its text with U+FFFD for each lone
   *   surrogate for text (as the Python binding gives it).
   * @throws {TypeError} as validatePlan; also for `options` that is not an object or an `unsafe`
   *   that is not a boolean.
   * @throws {SyntaxError} as validatePlan.
   */
  function repairPlan(plan, request, options) {
    const [planText, planFault, requestText] = readPair(plan, request);
    const unsafe = unsafeOption(options);
    if (planFault === null) return requestChecked(native.repair(planText, requestText, unsafe));
    if (planFault instanceof Fault) {
      return requestChecked(
        native.repairPlanFault(requestText, unsafe, renderPath(planFault.segments), planFault.kind, planFault.detail),
      );
    }
    const lossy = toWellFormed(plan);
    return requestChecked(native.repairPlanTextFault(requestText, unsafe, lossy, planFault[0], planFault[1]));
  }

  /**
   * The JSON Schema (2020-12) of the plan that answers `request` (validator.md §9).
   *
   * @param {unknown} request as for validatePlan.
   * @param {unknown} variant `'validation'` (the default: accepts every plan the validator accepts)
   *   or `'strict'` (the providers' structured-output subset).
   * @returns the schema, a plain object: the core's `plan_schema` JSON through JSON.parse.
   * @throws {TypeError} as validatePlan for the request; a variant that is not a string.
   * @throws {SyntaxError} request text that is not JSON.
   * @throws {RangeError} a variant other than 'validation' and 'strict' (the core's text).
   * @throws {Error} a request no plan can satisfy (a `requestInvalid`, or a `kind` that is neither
   *   `routine` nor `goal`; the core's text, `.argument` 'request', `.path` '$').
   */
  function planSchema(request, variant) {
    const requestText = toJsonText(request, 'request');
    variant = textOf(variant);
    if (variant === undefined) variant = 'validation';
    else if (typeof variant !== 'string') {
      throw new TypeError(`variant is ${variant === null ? 'null' : `a ${typeof variant}`}; use "validation" or "strict"`);
    }
    const answer = native.schema(requestText, variant);
    if (typeof answer !== 'string') return answer;
    const message = answer.slice(1);
    switch (answer[0]) {
      case '!':
        throw withPlace(new SyntaxError(message), 'request', '$');
      case '?':
        throw new RangeError(message);
      default:
        throw withPlace(new Error(message), 'request', '$');
    }
  }

  /**
   * `value` as the JSON text the core reads (strings pass through unchanged: they are JSON text).
   * Throws as validatePlan does for a request (a TypeError for every fault of a value, a SyntaxError
   * for text with a lone surrogate); `argument` ('plan' or 'request') names it in messages.
   */
  function toJsonText(value, argument) {
    value = textOf(value);
    if (typeof value === 'string') {
      if (wellFormed(value)) return value;
      const [unit, before] = textFault(value);
      throw withPlace(new SyntaxError(native.textFaultText(argument, unit, before)), argument, '$');
    }
    try {
      return toText(value, argument);
    } catch (e) {
      throw e instanceof Fault ? hostError(e) : e;
    }
  }

  return { validatePlan, repairPlan, planSchema, toJsonText, renderPath, MAX_DEPTH };
}

/**
 * The verdict object (the core's Verdict::to_json, as plain objects with its key order) of a
 * packed verdict (Verdict::to_packed): fields joined by NUL, or the verdict JSON itself (it starts
 * with `{`) when a path or message holds a NUL. `checkNames`: the names of Check::ALL, in order.
 */
export function unpackVerdict(packed, checkNames) {
  if (packed.charCodeAt(0) === 123 /* { */) return JSON.parse(packed);
  const parts = packed.split('\0');
  const nErrors = +parts[2];
  const at = 3 + 3 * nErrors;
  const digits = parts[1];
  const checks = new Array(digits.length);
  for (let k = 0; k < digits.length; k++) checks[k] = checkNames[digits.charCodeAt(k) - 48];
  return {
    valid: parts[0] === '1',
    errors: issues(parts, 3, nErrors),
    warnings: issues(parts, at + 1, +parts[at]),
    checks,
  };
}

/** `count` issues of a split packed verdict from `parts[at]` on (code, path, message each). */
function issues(parts, at, count) {
  const out = new Array(count);
  for (let k = 0; k < count; k++, at += 3) out[k] = { code: parts[at], path: parts[at + 1], message: parts[at + 2] };
  return out;
}

/**
 * Whether a number is written by JSON.stringify (and String) exactly as the core's form for it:
 * an integer within ±(2^53−1) (the core reads an integer), or a non-integer whose shortest
 * round-trip digits the engine and ryu (momentum_plan::float_text) place alike. They place them
 * alike everywhere below 2^53 except in [1e-6, 1e-5), where JavaScript writes `0.000001` and the
 * core `1e-6`; every finite number beyond ±(2^53−1) is integral and needs the core's `.0` or
 * exponent form. NaN and ±Infinity are false. (test/numbers in both packages compare the two.)
 */
export function engineWritesCoreNumber(v) {
  if (!(v <= MAX_SAFE && v >= -MAX_SAFE)) return false;
  const a = v < 0 ? -v : v;
  return a >= 1e-5 || a < 1e-6;
}

/** The `json` verdict kinds of a plan fault (FaultKind::is_json). */
const JSON_KINDS = new Set(['tooDeep', 'loneSurrogate', 'loneSurrogateInName']);

/**
 * Object.prototype.toString tags of objects whose data JSON.stringify cannot see (it would write
 * `{}` or index members): refused as `unsupported`, from any realm.
 */
const NO_JSON_FORM = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'FinalizationRegistry',
  'Promise',
  'RegExp',
  'Error',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'Generator',
  'AsyncGenerator',
  'Array Iterator',
  'Map Iterator',
  'Set Iterator',
  'String Iterator',
]);

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const ObjectProto = Object.prototype;
const isArray = Array.isArray;
const objectKeys = Object.keys;
const getPrototypeOf = Object.getPrototypeOf;
const stringify = JSON.stringify;
const objectToString = Object.prototype.toString;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');
const wellFormed =
  typeof String.prototype.isWellFormed === 'function'
    ? (s) => s.isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

/** `error` with `.argument`, `.path` and `.kind` set (`kind`: the core's FaultKind name, or null
 * for JSON text that is not JSON). */
function withPlace(error, argument, path, kind = null) {
  error.argument = argument;
  error.path = path;
  error.kind = kind;
  return error;
}

/** `options.unsafe` of repairPlan: false unless `true`; a TypeError for options that are not an
 * object, or an `unsafe` that is not a boolean. */
function unsafeOption(options) {
  if (options === undefined || options === null) return false;
  if (typeof options !== 'object') throw new TypeError(`options is a ${typeof options}; pass an object such as { unsafe: true }`);
  const u = options.unsafe;
  if (u === undefined) return false;
  if (typeof u !== 'boolean') throw new TypeError(`options.unsafe is ${u === null ? 'null' : `a ${typeof u}`}; pass true or false`);
  return u;
}

/** `s` (a String object unwrapped) with U+FFFD for each lone surrogate. */
function toWellFormed(s) {
  s = textOf(s);
  return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s.replace(LONE_SURROGATE_ALL, '\uFFFD');
}

/** An argument that is a String object (from any realm) as the JSON text it holds: a string plan
 * or request is JSON text (validator.md §3), boxed or not; any other value unchanged. */
function textOf(v) {
  return v !== null && typeof v === 'object' && tagOf(v) === 'String' && isBranded(String.prototype.valueOf, v)
    ? String.prototype.valueOf.call(v)
    : v;
}

/** Brand checks for the collections JSON.stringify writes as `{}`: they hold for subclasses, for
 * objects from another realm and whatever Symbol.toStringTag says. */
const BRANDS = [
  ['Map', Map.prototype.has],
  ['Set', Set.prototype.has],
  ['WeakMap', WeakMap.prototype.has],
  ['WeakSet', WeakSet.prototype.has],
];

/** The name of what `v` is when JSON.stringify cannot see its data (a Map, a typed array, ...),
 * else null: by brand first, then by Object.prototype.toString tag. */
function noJsonForm(v) {
  for (const [name, has] of BRANDS) {
    try {
      has.call(v, undefined);
      return name;
    } catch {
      // not this brand
    }
  }
  if (ArrayBuffer.isView(v)) return tagOf(v);
  const tag = tagOf(v);
  return NO_JSON_FORM.has(tag) ? tag : null;
}

/** `Map` from `[object Map]`. */
function tagOf(v) {
  return objectToString.call(v).slice(8, -1);
}

function withArticle(name) {
  return /^[AEIO]/.test(name) ? `an ${name}` : `a ${name}`;
}

/** The first lone surrogate of a string that has one, as four hex digits (`D83D`). */
function unitHex(s) {
  const m = LONE_SURROGATE.exec(s);
  return s.charCodeAt(m.index).toString(16).toUpperCase();
}

/** A boxed primitive's value as JSON.stringify takes it (ToNumber, ToString, or the held value);
 * any other object unchanged. Brand checks, so a boxed value from another realm is one too. */
function unbox(v) {
  switch (tagOf(v)) {
    case 'Number':
      return isBranded(Number.prototype.valueOf, v) ? Number(v) : v;
    case 'String':
      return isBranded(String.prototype.valueOf, v) ? String(v) : v;
    case 'Boolean':
      return isBranded(Boolean.prototype.valueOf, v) ? Boolean.prototype.valueOf.call(v) : v;
    case 'BigInt':
      return isBranded(BigInt.prototype.valueOf, v) ? BigInt.prototype.valueOf.call(v) : v;
    default:
      return v;
  }
}

function isBranded(valueOf, v) {
  try {
    valueOf.call(v);
    return true;
  } catch {
    return false;
  }
}
