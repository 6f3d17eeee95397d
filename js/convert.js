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
// native side (core/src/host.rs: HostFault's Display, Argument::not_json, Verdict::not_json;
// SchemaError's Display), so the two packages throw the same errors and give the same bytes. (Only
// the TypeErrors for a repairPlan `options` or a planSchema `variant` of the wrong JS type are
// worded here: the core has no such values.)
//
// A plan or request that is text is handed to the core as it is (argumentOf): a string (or a
// String object) is JSON text; bytes (an ArrayBuffer, a Uint8Array such as a Node Buffer, or
// another view of bytes) are its UTF-8, read by the core (invalid UTF-8 is the plan's `json`
// verdict, the request's SyntaxError), as Python's `bytes` are.
//
// What is written of any other value, as JSON.stringify writes it:
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
// A cycle is found at its first repeat by both walks (each keeps the containers open on the way
// down), so refusing one costs about as much as converting the same value without it, never an
// unrolling to MAX_DEPTH; when the first walk stops at one, a walk that writes nothing finds its
// place (cycleFault) instead of the careful writer.
//
// This file is an ES module made only of `export function|class|const` declarations without
// imports, so js/emit.mjs can write its CommonJS copy.

/**
 * The shared converter over a JS package's native module, taken as it is (as Biome's
 * `BiomeCommon(module)`): bindings-node's addon, or bindings-wasm's wasm-bindgen module. Both
 * export the same functions, one-line shims over the crate momentum-plan-js (js-native/src/lib.rs,
 * whose table documents each):
 * - `maxDepth()`, `checkNames()` (the digits of a packed verdict), `warningCodes()` (the codes
 *   of warnings, `IssueCode::is_warning`), `renderPath(segments)`,
 *   `floatText(x)`, `faultText(argument, path, kind, detail)`, `textFaultText(argument, unit,
 *   before)`: the core's limit, registry, paths, number form and fault messages;
 * - `planContract()`: the contract's compact JSON (validator.md §2);
 * - the class `PlanStream(requestText)` (validator.md §10): `requestError()` (`''` or an answer
 *   to throw), `push(chunkText)` (packed issues, `''` for none), `finish()` (a packed verdict),
 *   the getters `repeatedName` and `length`;
 * - the answers, each one string that `decodeAnswer` reads: `validate(planText, requestText)`,
 *   `planFault(path, kind, detail)`, `planTextFault(unit, before)` (a packed verdict);
 *   `repair(planText, requestText, unsafe)`, `repairPlanFault(requestText, unsafe, path, kind,
 *   detail)`, `repairPlanTextFault(requestText, unsafe, lossyText, unit, before)`,
 *   `schema(requestText, variant)` (JSON text). A text is a string or a Uint8Array of UTF-8.
 *
 * `options.utf8`: the native module takes every text as UTF-8 bytes (bindings-wasm), which this
 * converter writes with one native `TextEncoder.encodeInto` into a buffer kept between calls
 * (`withUtf8`); else a text goes as the string or bytes it is (bindings-node, which reads a string
 * with one N-API copy).
 *
 * Returns `{validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, isWarning,
 * toJsonText, renderPath, MAX_DEPTH}`; `streamPlan` (below) works over any PlanStream.
 */
export function makeConverter(native, options = {}) {
  const MAX_DEPTH = native.maxDepth();
  const renderPath = native.renderPath;
  const CHECK_NAMES = native.checkNames();
  let warningCodes = null; // read from the native side on the first call
  /** Whether an issue with code `code` is a warning (validator.md §4, §10): the core's rule. */
  const isWarning = (code) => (warningCodes ??= new Set(native.warningCodes())).has(code);
  const unpack = (packed) => unpackVerdict(decodeAnswer(packed), CHECK_NAMES);
  const parsed = (answer) => JSON.parse(decodeAnswer(answer));
  // The native calls taking texts, with the texts as UTF-8 bytes when the module wants them so.
  const utf8 = options.utf8 === true;
  const nativeValidate = utf8 ? (p, r) => withUtf8(p, r, native.validate) : native.validate;
  const nativeRepair = utf8 ? (p, r, unsafe) => withUtf8(p, r, native.repair, unsafe) : native.repair;
  const repairFaultOf = (request, _none, args) => native.repairPlanFault(request, ...args);
  const repairTextFaultOf = (request, _none, args) => native.repairPlanTextFault(request, ...args);
  const schemaOf = (request, _none, variant) => native.schema(request, variant);
  const nativeRepairPlanFault = utf8
    ? (request, ...args) => withUtf8(request, '', repairFaultOf, args)
    : native.repairPlanFault;
  const nativeRepairPlanTextFault = utf8
    ? (request, ...args) => withUtf8(request, '', repairTextFaultOf, args)
    : native.repairPlanTextFault;
  const nativeSchema = utf8 ? (request, variant) => withUtf8(request, '', schemaOf, variant) : native.schema;
  let contractText = null;

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
    const open = [];
    if (plain(value, 1, open)) {
      // JSON.stringify writes a lone surrogate (in a string or a member name) as the escape
      // `\udXXX` and writes no other `\ud`, except after an escaped backslash (`\\ud…`, text
      // that merely looks like one): one search of the text instead of a check of every string.
      const text = stringify(value);
      if (text.indexOf('\\ud') === -1) return text;
    } else if (open[0] === REPEAT) {
      const f = cycleFault(value, argument);
      if (f !== null) throw f;
    }
    return careful(value, argument);
  }

  /**
   * Whether JSON.stringify(v) is exactly the careful writer's text and holds no fault, except
   * perhaps a lone surrogate in a string or member name (toText looks for those in the text):
   * plain objects (prototype Object.prototype or null) and arrays without toJSON, numbers the
   * engine writes as the core does, nesting level (`depth`, the argument being 1) within
   * MAX_DEPTH, no container inside itself (a cycle: false at its first repeat, never unrolled);
   * undefined only as a member value. No path is kept; `open` holds the containers open on the
   * way down (see `reopened`).
   */
  function plain(v, depth, open) {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return true;
      case 'number':
        return engineWritesCoreNumber(v);
      case 'object':
        return v === null || plainContainer(v, depth, open);
      default:
        return false;
    }
  }

  /** `plain` of an object `v` that is not null (scalar members are checked in place, the walk
   * recurses only into containers). A `false` abandons the whole walk, so only a `true` undoes
   * what entering `v` recorded in `open`. */
  function plainContainer(v, depth, open) {
    if (depth > MAX_DEPTH || typeof v.toJSON === 'function' || reopened(v, depth, open)) return false;
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
            if (x === null || plainContainer(x, depth + 1, open)) continue;
            return false;
          default:
            return false; // undefined (a hole), a function, a symbol, a BigInt
        }
      }
      return closed(v, depth, open);
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
          if (x === null || plainContainer(x, depth + 1, open)) continue;
          return false;
        default:
          return false;
      }
    }
    return closed(v, depth, open);
  }

  /**
   * Whether container `v`, about to be entered at nesting level `depth`, is already open on the
   * way down (a cycle); if not, records it as open. `open[d]` is the container open at level d
   * for d up to OPEN_SCAN (a write, overwritten by the next sibling: nothing to undo), compared
   * one by one; deeper ones are in the Set `open[0]` (removed by `closed`), so a check
   * costs at most OPEN_SCAN comparisons and one lookup whatever the depth: linear in the value's
   * size.
   */
  function reopened(v, depth, open) {
    const scan = depth <= OPEN_SCAN ? depth : OPEN_SCAN + 1;
    for (let d = 1; d < scan; d++) if (open[d] === v) return repeat(open);
    if (depth <= OPEN_SCAN) {
      open[depth] = v;
      return false;
    }
    if (open[0] === undefined) open[0] = new Set();
    const deep = open[0];
    if (deep.has(v)) return repeat(open);
    deep.add(v);
    return false;
  }

  /** `true` (a cycle), marking `open` so that toText looks for the cycle's place. */
  function repeat(open) {
    open[0] = REPEAT;
    return true;
  }

  /** `true`, once container `v` at level `depth` is walked (it is no longer open). */
  function closed(v, depth, open) {
    if (depth > OPEN_SCAN) open[0].delete(v);
    return true;
  }

  /**
   * The cycle fault of `root`, a value whose fast-path walk (`plain`) met a container open on
   * the way down before anything it would not write: the same Fault the careful writer throws
   * there (the value that refers back, the container it refers back to), found without writing
   * text. Null when something comes first that the careful writer must judge (a lone surrogate,
   * anything the fast path does not take; a getter answering differently this time): toText
   * then lets the careful writer go.
   */
  function cycleFault(root, argument) {
    const path = [];
    const chain = [];
    const open = new Set();
    /** The fault under `v` (a container), null to hand over, undefined when there is none. */
    const walk = (v) => {
      if (open.has(v)) return new Fault(argument, path.slice(), 'cycle', renderPath(path.slice(0, chain.indexOf(v))));
      if (chain.length >= MAX_DEPTH || typeof v.toJSON === 'function') return null;
      chain.push(v);
      open.add(v);
      let found;
      if (isArray(v)) {
        for (let i = 0, n = v.length; i < n && found === undefined; i++) {
          path.push(i);
          found = member(v[i], false);
          path.pop();
        }
      } else {
        const proto = getPrototypeOf(v);
        if (proto !== ObjectProto && proto !== null) return null;
        const keys = objectKeys(v);
        for (let i = 0, n = keys.length; i < n && found === undefined; i++) {
          const k = keys[i];
          const x = v[k];
          if (x === undefined) continue;
          if (!wellFormed(k)) return null;
          path.push(k);
          found = member(x, true);
          path.pop();
        }
      }
      chain.pop();
      open.delete(v);
      return found;
    };
    /** `walk` for a member value or element `x` (`inObject`: a member value). */
    const member = (x, inObject) => {
      switch (typeof x) {
        case 'string':
          return wellFormed(x) ? undefined : null;
        case 'boolean':
          return undefined;
        case 'number':
          return engineWritesCoreNumber(x) ? undefined : null;
        case 'object':
          return x === null ? undefined : walk(x);
        case 'undefined':
          return inObject ? undefined : null;
        default:
          return null;
      }
    };
    const found = root !== null && typeof root === 'object' ? walk(root) : null;
    return found === undefined ? null : found;
  }

  /** The careful writer: the JSON text of `root`, or a thrown Fault naming the path. */
  function careful(root, argument) {
    const path = []; // member names and indices from the argument to the value being written
    const chain = []; // the containers from the argument down (chain[i] is at path.slice(0, i))
    const open = new Set(); // the same, to find a cycle at its first repeat (never unrolled)
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
      // A container already open on the way down is a cycle: the value that refers back (at
      // `path`) and the container it refers back to (the first repeat from the argument down).
      if (open.has(v)) throw fault('cycle', renderPath(path.slice(0, chain.indexOf(v))));
      if (chain.length >= MAX_DEPTH) throw fault('tooDeep');
      chain.push(v);
      open.add(v);
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
      open.delete(v);
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
   * @param {unknown} plan the plan: a JS value (written as described above), or its JSON text as
   *   a string or as UTF-8 bytes (a Uint8Array, Buffer, ArrayBuffer or byte view), validated as
   *   text: its size is its UTF-8 length, D3.
   * @param {unknown} request the request the plan answers: a JS value, or its JSON text (a string
   *   or bytes, as the plan).
   * @returns the verdict `{valid, errors, warnings, checks}` as plain objects, equal to the core's
   *   `Verdict::to_json`; an invalid plan, a plan that is not JSON, nested too deep or holding a lone
   *   surrogate is a verdict, never an exception.
   * @throws {TypeError} an argument holds a value JSON cannot hold (see above; for the request also
   *   nesting too deep and lone surrogates), with `.argument` and `.path`.
   * @throws {SyntaxError} the request text is not JSON, or request bytes are not UTF-8
   *   (`.argument` 'request', `.path` '$').
   */
  function validatePlan(plan, request) {
    const [planText, planFault, requestText] = readPair(plan, request);
    if (planFault !== null) {
      if (planFault instanceof Fault) return unpack(native.planFault(renderPath(planFault.segments), planFault.kind, planFault.detail));
      return unpack(native.planTextFault(planFault[0], planFault[1]));
    }
    return unpack(nativeValidate(planText, requestText));
  }

  /**
   * Both arguments of validatePlan or repairPlan read, in order: `[planText, planFault,
   * requestText]` (each text a string or a Uint8Array of UTF-8, as `toJsonText`), where
   * `planFault` (else null) is a json-kind Fault of a plan value or the `[unit, before]` of plan
   * text holding a lone surrogate. Throws what validatePlan throws.
   */
  function readPair(plan, request) {
    plan = argumentOf(plan);
    let planText = null;
    let planFault = null;
    if (typeof plan === 'string') {
      if (wellFormed(plan)) planText = plan;
      else planFault = textFault(plan);
    } else if (plan instanceof Uint8Array) {
      planText = plan;
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
    if (planFault === null) return parsed(nativeRepair(planText, requestText, unsafe));
    if (planFault instanceof Fault) {
      return parsed(nativeRepairPlanFault(requestText, unsafe, renderPath(planFault.segments), planFault.kind, planFault.detail));
    }
    const lossy = toWellFormed(plan);
    return parsed(nativeRepairPlanTextFault(requestText, unsafe, lossy, planFault[0], planFault[1]));
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
    return parsed(nativeSchema(requestText, variant));
  }

  /**
   * The plan contract (validator.md §2): format, contractVersion, categories, weekdays, limits and
   * rules, in that key order; a fresh object on every call (the native text is read once).
   */
  function getPlanContract() {
    if (contractText === null) contractText = native.planContract();
    return JSON.parse(contractText);
  }

  /**
   * `value` as the JSON text the core reads: a string (strings pass through unchanged: they are
   * JSON text), or a Uint8Array of UTF-8 for the caller's bytes (`argumentOf`; the core reads
   * them, as Python's `bytes`). Throws as validatePlan does for a request (a TypeError for every
   * fault of a value, a SyntaxError for text with a lone surrogate); `argument` ('plan' or
   * 'request') names it in messages.
   */
  function toJsonText(value, argument) {
    value = argumentOf(value);
    if (value instanceof Uint8Array) return value;
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

  /**
   * A plan validated as a model writes it (validator.md §10): the core's `PlanStream` through the
   * native class of the same name (js-native/src/stream.rs). `new PlanStream(request)`, then
   * `push(chunk)` any number of times, then `finish()` once.
   *
   * A string chunk may end inside a surrogate pair: its high surrogate waits for the next chunk
   * (so a text split at any UTF-16 index streams whole); a lone surrogate anywhere else, which
   * UTF-8 text cannot carry, is a TypeError (Python's str cannot hold a split pair; its
   * PlanStream raises ValueError for a lone surrogate).
   */
  class PlanStream {
    #native;
    /** A high surrogate that ended the last string chunk, waiting for its low half ('' for none). */
    #high = '';

    /**
     * @param {unknown} request the request the plan answers, as validatePlan takes it (a JS value,
     *   or its JSON text as a string or UTF-8 bytes).
     * @throws {TypeError} as validatePlan for the request.
     * @throws {SyntaxError} request text that is not JSON, or bytes that are not UTF-8.
     */
    constructor(request) {
      const requestText = toJsonText(request, 'request');
      const stream = utf8 ? withUtf8(requestText, '', newStream) : new native.PlanStream(requestText);
      const error = stream.requestError();
      if (error !== '') {
        stream.free?.();
        decodeAnswer(error);
      }
      this.#native = stream;
    }

    /**
     * Reads the next chunk of the plan's text and returns the issues that became settled with it
     * (no continuation of the text can remove them), in the order they settled.
     *
     * @param {string | ArrayBuffer | ArrayBufferView} chunk a string, or UTF-8 bytes (a Uint8Array,
     *   Buffer, ArrayBuffer or byte view, as validatePlan reads bytes), split anywhere (inside a
     *   UTF-8 sequence, an escape, a number; a string inside a surrogate pair).
     * @returns `{code, path, message}[]`, each worded exactly as the final verdict words it (the
     *   same objects validatePlan's verdict holds); usually empty.
     * @throws {TypeError} a chunk of another type, or text holding a lone surrogate.
     * @throws {Error} after finish().
     */
    push(chunk) {
      chunk = argumentOf(chunk);
      if (typeof chunk === 'string') {
        if (this.#high !== '') {
          chunk = this.#high + chunk;
          this.#high = '';
        }
        const last = chunk.charCodeAt(chunk.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          this.#high = chunk.slice(-1);
          chunk = chunk.slice(0, -1);
        }
        if (!wellFormed(chunk)) throw loneSurrogateChunk();
      } else if (!(chunk instanceof Uint8Array)) {
        throw new TypeError(`PlanStream.push takes a string or UTF-8 bytes (a Uint8Array, Buffer or ArrayBuffer), not ${typeName(chunk)}`);
      } else if (this.#high !== '') {
        throw loneSurrogateChunk();
      }
      const stream = this.#native;
      const packed = decodeAnswer(utf8 && typeof chunk === 'string' ? withUtf8(chunk, '', (c) => stream.push(c)) : stream.push(chunk));
      return packed === '' ? [] : unpack(packed).errors;
    }

    /**
     * The verdict on all the text pushed: deep-equal to validatePlan of that text (a text that
     * ended early gets the `json` error saying inside what). The stream is then spent.
     *
     * @returns the verdict `{valid, errors, warnings, checks}`, as validatePlan's.
     * @throws {TypeError} the text ended inside a surrogate pair (a lone surrogate; the stream
     *   stays open for the low half).
     * @throws {Error} after an earlier finish().
     */
    finish() {
      if (this.#high !== '') throw loneSurrogateChunk();
      return unpack(this.#native.finish());
    }

    /** Whether a member name has repeated: nothing settles from then on and only finish() counts
     * (validator.md §10, §7). False after finish(). */
    get repeatedName() {
      return this.#native.repeatedName;
    }

    /** How many bytes of UTF-8 have been pushed (a high surrogate waiting for its pair not yet);
     * 0 after finish(). */
    get length() {
      return this.#native.length;
    }
  }

  /** A native stream over the request's UTF-8 bytes (withUtf8's call). */
  function newStream(requestBytes) {
    return new native.PlanStream(requestBytes);
  }

  return { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, isWarning, toJsonText, renderPath, MAX_DEPTH };
}

/**
 * Pushes each chunk of `chunks` into `stream` (a PlanStream) and yields each issue as it settles
 * (validator.md §10): an async generator, for a model SDK's text deltas. Stop iterating to stop
 * early (the first error is final); either way `stream.finish()` then gives the verdict on what was
 * pushed. As Python's `astream_plan`.
 *
 * @param stream a PlanStream of the same package.
 * @param chunks an async iterable (or an iterable) of chunks, or a WHATWG ReadableStream of them
 *   (read with a reader where the stream is not async iterable; cancelled when iteration stops
 *   early, as `for await` does); each chunk a string or UTF-8 bytes, as `push` takes it.
 * @yields `{code, path, message}`: each settled issue, as `push` returns it.
 * @throws what `push` throws, and what the source throws.
 */
export const streamPlan = async function* streamPlan(stream, chunks) {
  if (chunks !== null && typeof chunks === 'object' && !(Symbol.asyncIterator in chunks) && typeof chunks.getReader === 'function') {
    const reader = chunks.getReader();
    let done = false;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        yield* stream.push(next.value);
      }
      done = true;
    } finally {
      if (!done) await reader.cancel();
      reader.releaseLock();
    }
    return;
  }
  for await (const chunk of chunks) yield* stream.push(chunk);
};

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
 * The value of a native answer (momentum_plan_js::Answer::encode, js-native/src/lib.rs), or the
 * error it names, thrown: the one reader of the answer markers. The first character `!` is request
 * text that is not JSON (a SyntaxError, `.argument` 'request', `.path` '$'), `?` an unknown schema
 * variant (a RangeError), `#` a request no plan can satisfy (an Error, `.argument` 'request',
 * `.path` '$'), `~` a PlanStream used after its finish() (an Error); anything else is the value: a
 * packed verdict (`0`, `1`, or `{` for its JSON), JSON text (`{`), or a stream's packed issues (`''`
 * for none).
 */
export function decodeAnswer(answer) {
  switch (answer.charCodeAt(0)) {
    case 33 /* ! */:
      throw withPlace(new SyntaxError(answer.slice(1)), 'request', '$');
    case 63 /* ? */:
      throw new RangeError(answer.slice(1));
    case 35 /* # */:
      throw withPlace(new Error(answer.slice(1)), 'request', '$');
    case 126 /* ~ */:
      throw new Error(answer.slice(1));
    default:
      return answer;
  }
}

/**
 * `call(first, second, extra)` on the UTF-8 of the texts `first` and `second`, each written by one
 * native encodeInto into a buffer kept between calls (up to 1 MiB; a larger one is made per call),
 * as two views of it: how a native module taking bytes is called (`makeConverter`'s `utf8`).
 * wasm-bindgen's own string crossing writes an ASCII text one charCodeAt at a time in JavaScript,
 * which costs about as much as JSON.parse of the text (bindings-wasm README "Crossing the
 * boundary"). A text that is already a Uint8Array (the caller's bytes) is copied as it is.
 */
export function withUtf8(first, second, call, extra) {
  const need = utf8SizeOf(first) + utf8SizeOf(second);
  let buf = utf8Kept;
  if (buf.length < need) {
    buf = new Uint8Array(need);
    if (need <= 1 << 20) utf8Kept = buf;
  }
  const a = putUtf8(first, buf);
  const b = putUtf8(second, buf.subarray(a));
  return call(buf.subarray(0, a), buf.subarray(a, a + b), extra);
}

let utf8Encoder = null;
let utf8Kept = new Uint8Array(16384);
/** The most bytes text `t` (a string or a Uint8Array) can take as UTF-8. */
function utf8SizeOf(t) {
  return typeof t === 'string' ? t.length * 3 : t.length;
}
/** Writes `t` into `buf`; its length in bytes. */
function putUtf8(t, buf) {
  if (typeof t === 'string') return (utf8Encoder ??= new TextEncoder()).encodeInto(t, buf).written;
  buf.set(t);
  return t.length;
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
/** The nesting levels whose open containers the fast path's cycle check compares one by one
 * (a plan is about 5 deep); deeper ones are looked up in a Set. */
const OPEN_SCAN = 16;
/** What `plain` leaves in `open[0]` when it stops at a cycle. */
const REPEAT = Symbol('repeat');
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

/** The TypeError for a PlanStream chunk holding a lone surrogate. */
function loneSurrogateChunk() {
  return new TypeError('PlanStream: the text holds a lone surrogate, which UTF-8 text cannot carry');
}

/** How a value that is no chunk is named in PlanStream.push's TypeError: `null`, `a number`,
 * `an object`. */
function typeName(v) {
  if (v === null) return 'null';
  const t = typeof v;
  return t === 'object' || t === 'undefined' ? `an ${t}` : `a ${t}`;
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

/**
 * A plan or request argument as the JSON text it holds, when it is text (validator.md §3):
 * - a String object (from any realm): its string, as a plain string is JSON text;
 * - bytes: an ArrayBuffer, or a view of one whose elements are bytes (a Uint8Array, so a Node
 *   Buffer, a Uint8ClampedArray, an Int8Array, a DataView; from any realm): a Uint8Array of this
 *   realm over the same bytes, read by the core as UTF-8 JSON text (`Input::Bytes`, as Python's
 *   `bytes`: bytes that are not UTF-8 are the plan's `json` verdict, the request's SyntaxError).
 *   A Buffer is never read through its toJSON (`{type: 'Buffer', data: [...]}`);
 * any other value unchanged (a typed array of wider elements stays a value, refused as
 * `unsupported`; so is any typed array inside a plan or request: only a whole argument is text).
 * The result is a Uint8Array exactly when the argument was bytes.
 */
function argumentOf(v) {
  if (v === null || typeof v !== 'object') return v;
  if (isView(v)) {
    const name = typedArrayName.call(v); // undefined for a DataView
    return name === undefined || BYTE_ARRAYS.has(name) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : v;
  }
  const tag = tagOf(v);
  if (tag === 'String') return isBranded(String.prototype.valueOf, v) ? String.prototype.valueOf.call(v) : v;
  if (tag === 'ArrayBuffer' && isBranded(arrayBufferByteLength, v)) return new Uint8Array(v);
  return v;
}

/** The typed arrays whose elements are bytes (argumentOf). */
const BYTE_ARRAYS = new Set(['Uint8Array', 'Uint8ClampedArray', 'Int8Array']);
const isView = ArrayBuffer.isView;
/** %TypedArray%.prototype[@@toStringTag]'s getter: a typed array's own kind, from any realm and
 * whatever its class says; undefined for anything else (a DataView). */
const typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
/** ArrayBuffer.prototype.byteLength's getter: a brand check of an ArrayBuffer (not a shared one). */
const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;

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
 * else null: by brand first, then by Object.prototype.toString tag. An array (never a Map or a
 * typed array) is written as the fast path writes it; so is an object whose prototype is
 * Object.prototype or null, without a brand check (each failed check is a thrown exception:
 * measured 20 µs per object in Node 20, which made a large plan on this path 75x slower). */
function noJsonForm(v) {
  if (isArray(v)) return null;
  const proto = getPrototypeOf(v);
  if (proto !== ObjectProto && proto !== null) return brandOrTag(v);
  if (ArrayBuffer.isView(v)) return tagOf(v);
  const tag = tagOf(v);
  return NO_JSON_FORM.has(tag) ? tag : null;
}

/** `noJsonForm` of an object of some class: by brand first, then by tag. */
function brandOrTag(v) {
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
