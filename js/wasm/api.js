// The public functions of momentum-plan-wasm over its wasm-bindgen modules, for both of the
// package's entries (web.js, an ES module; node.cjs, CommonJS): the converter shared with
// momentum-plan-node (convert.js) over the modules as they are, each call behind a trap guard.
// bindings-wasm's scripts/build.mjs writes this file into pkg/web/api.js (as it is) and
// pkg/node/api.js (CommonJS, by js/emit.mjs).
//
// The package is two wasm modules (issue 32): the validator (momentum_plan_wasm: validatePlan,
// getPlanContract, renderPath, valueSpan and the host-value conversion), which a page loads first,
// and the extras (momentum_plan_wasm_extras: repairPlan, planSchema, PlanStream), loaded on first
// use: Node requires it then (synchronously); a browser loads it with `await load()`, and these
// three throw an Error saying so until it has.

import { makeConverter, streamPlan } from './convert.js';

/** The exports of the extras module, which the converter reads from the one native object. A
 * calendar module (issue 32 items 1-3) gets a list of its own, a loader beside `extras` and a
 * `need` of its own in its functions. */
const EXTRAS = ['repair', 'repairPlanFault', 'repairPlanTextFault', 'schema', 'PlanStream'];

/**
 * The package's functions over `raw`, the validator's wasm-bindgen module, and `extras`, the second
 * module's loader: `get()` answers the module, loading it first where that can be done
 * synchronously (Node's require), else null until `load(input)` (a Promise of the module) has
 * resolved; `loaded()` answers it only when it is loaded already. The modules' exports are the native side
 * convert.js documents (plus `valueSpan` and wasm-bindgen's `__wbg_reset_state`), joined here into
 * one object. Returns `{validatePlan, repairPlan, planSchema, getPlanContract, PlanStream,
 * streamPlan, isWarning, renderPath, valueSpan, load}` (declared in the package's index.d.ts: js/api.d.ts
 * and js/wasm/*.d.ts). The converter is made on first use: in a browser the validator module is
 * instantiated by init() after the entry loads.
 */
export function wasmApi(raw, extras) {
  const native = {};
  for (const name of Object.keys(raw)) native[name] = raw[name];
  for (const name of EXTRAS) Object.defineProperty(native, name, { get: () => need(name)[name] });
  let converter = null;
  const api = () => (converter ??= makeConverter(native, { utf8: true }));

  /** The extras module, or an Error naming `what` needs it when a browser has not loaded it. */
  function need(what) {
    const m = extras.get();
    if (m === null) {
      throw new Error(
        `momentum-plan-wasm: ${what} is in the package's second module, which is not loaded yet: ` +
          'call `await load()` once first (README "Two modules")',
      );
    }
    return m;
  }

  /** Loads the second module (repairPlan, planSchema, PlanStream); resolves when they can be
   * called. `input` is as init()'s (a URL, bytes, a WebAssembly.Module, `{ module_or_path }`) for
   * the extras' .wasm; by default the file beside the entry. Node: loads it now, `input` unused. */
  async function load(input) {
    await extras.load(input);
  }

  /** How many times a trap has restarted the instance: a PlanStream lives in one instance. */
  let restarts = 0;

  /** Runs a wasm export; a trap (out of memory, or a Rust panic, which aborts) leaves the instance
   * unusable, so it is replaced by a fresh one before the error goes to the caller. */
  function guarded(call) {
    try {
      return call();
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        // the trap may have come from either module: both start afresh
        raw.__wbg_reset_state();
        extras.loaded()?.__wbg_reset_state();
        restarts++;
        throw new Error(
          'momentum-plan-wasm: the validator stopped (' + e.message + '), most likely out of memory on a very ' +
            'large input; it has been restarted, so the next call works',
          { cause: e },
        );
      }
      throw e;
    }
  }

  /** validatePlan (validator.md §5): throws as the converter does, and an Error after a trap. */
  function validatePlan(plan, request) {
    return guarded(() => api().validatePlan(plan, request));
  }

  /** repairPlan (validator.md §9), as validatePlan; needs the second module. */
  function repairPlan(plan, request, options) {
    need('repairPlan');
    return guarded(() => api().repairPlan(plan, request, options));
  }

  /** planSchema (validator.md §9), as validatePlan; needs the second module. */
  function planSchema(request, variant) {
    need('planSchema');
    return guarded(() => api().planSchema(request, variant));
  }

  /** The plan contract (validator.md §2), a fresh plain object. */
  function getPlanContract() {
    return guarded(() => api().getPlanContract());
  }

  /** Whether an issue with code `code` is a warning (validator.md §4, §10: the core's
   * IssueCode::is_warning), for a stream's settled issues, which come without their verdict. */
  function isWarning(code) {
    return guarded(() => api().isWarning(code));
  }

  /** A JSONPath from member names (strings) and array indices (numbers), rendered by the core's
   * rules (validator.md §4, D7): ['routine', 'blocks', 0] -> '$.routine.blocks[0]'. */
  function renderPath(segments) {
    return guarded(() => raw.renderPath(segments));
  }

  /** Where the value a verdict's path names is in the plan's JSON text (momentum_plan::value_span,
   * validator.md §4, §7): {start, end, missing, found}, each end {line, column, offset} with offset
   * in UTF-16 code units (textarea.setSelectionRange(start.offset, end.offset)); null for text that
   * is not JSON; TypeError for a path that is not a JSONPath. */
  function valueSpan(text, path) {
    if (typeof text !== 'string' || typeof path !== 'string') throw new TypeError('valueSpan takes the plan text and a JSONPath, both strings');
    return guarded(() => {
      const span = raw.valueSpan(text, path);
      return span === undefined ? null : JSON.parse(span);
    });
  }

  /**
   * The converter's PlanStream (validator.md §10; declared in js/api.d.ts), each call behind the
   * trap guard. Its text lives in the instance, so a stream made before a restart throws an Error
   * saying it was lost (start a new one) instead of reading the new instance.
   */
  class PlanStream {
    #inner;
    #restarts;

    /** As the converter's: throws as validatePlan does for the request; needs the second module. */
    constructor(request) {
      need('PlanStream');
      this.#inner = guarded(() => new (api().PlanStream)(request));
      this.#restarts = restarts;
    }

    /** The issues settled by `chunk` (a string or UTF-8 bytes). */
    push(chunk) {
      return this.#call(() => this.#inner.push(chunk));
    }

    /** The verdict on all the text pushed, validatePlan's. */
    finish() {
      return this.#call(() => this.#inner.finish());
    }

    /** Whether a member name has repeated (only finish() counts then). */
    get repeatedName() {
      return this.#call(() => this.#inner.repeatedName);
    }

    /** How many bytes have been pushed. */
    get length() {
      return this.#call(() => this.#inner.length);
    }

    #call(f) {
      if (this.#restarts !== restarts) {
        throw new Error('momentum-plan-wasm: this PlanStream was lost when the validator restarted after it stopped; start a new PlanStream');
      }
      return guarded(f);
    }
  }

  return { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load };
}
