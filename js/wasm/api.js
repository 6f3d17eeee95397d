// The public functions of momentum-plan-wasm over its wasm-bindgen module, for both of the
// package's entries (web.js, an ES module; node.cjs, CommonJS): the converter shared with
// momentum-plan-node (convert.js) over the module as it is, each call behind a trap guard.
// bindings-wasm's scripts/build.mjs writes this file into pkg/web/api.js (as it is) and
// pkg/node/api.js (CommonJS, by js/emit.mjs).

import { makeConverter, streamPlan } from './convert.js';

/**
 * The package's functions over `raw`, the wasm-bindgen module (its exports are the native side
 * convert.js documents, plus `valueSpan` and wasm-bindgen's `__wbg_reset_state`):
 * `{validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, renderPath,
 * valueSpan}` (declared in
 * the package's index.d.ts: js/api.d.ts and js/wasm/*.d.ts). The converter is made on first use:
 * in a browser the module is instantiated by init() after the entry loads.
 */
export function wasmApi(raw) {
  let converter = null;
  const api = () => (converter ??= makeConverter(raw, { utf8: true }));
  /** How many times a trap has restarted the instance: a PlanStream lives in one instance. */
  let restarts = 0;

  /** Runs a wasm export; a trap (out of memory, or a Rust panic, which aborts) leaves the instance
   * unusable, so it is replaced by a fresh one before the error goes to the caller. */
  function guarded(call) {
    try {
      return call();
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        raw.__wbg_reset_state();
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

  /** repairPlan (validator.md §9), as validatePlan. */
  function repairPlan(plan, request, options) {
    return guarded(() => api().repairPlan(plan, request, options));
  }

  /** planSchema (validator.md §9), as validatePlan. */
  function planSchema(request, variant) {
    return guarded(() => api().planSchema(request, variant));
  }

  /** The plan contract (validator.md §2), a fresh plain object. */
  function getPlanContract() {
    return guarded(() => api().getPlanContract());
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

    /** As the converter's: throws as validatePlan does for the request. */
    constructor(request) {
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

  return { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, renderPath, valueSpan };
}
