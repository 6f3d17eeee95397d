// The public functions of momentum-plan-wasm over its wasm-bindgen modules, for both of the
// package's entries (web.js, an ES module; node.cjs, CommonJS): the converter shared with
// momentum-plan-node (convert.js) and the calendar functions shared with it (calendar.js) over the
// modules as they are, each call behind a trap guard. bindings-wasm's scripts/build.mjs writes
// this file into pkg/web/api.js (as it is) and pkg/node/api.js (CommonJS, by js/emit.mjs).
//
// The package is three wasm modules (issue 32): the validator (momentum_plan_wasm: validatePlan,
// getPlanContract, renderPath, valueSpan and the host-value conversion), which a page loads first;
// the extras (momentum_plan_wasm_extras: repairPlan, planSchema, PlanStream) and the calendar
// (momentum_plan_wasm_calendar: planToIcalendar, commitmentsFromIcalendar, with the tz data), each
// loaded on first use: Node requires it then (synchronously); a browser loads it with `await
// load()` or `await loadCalendar()`, and the functions in it throw an Error saying so until it has.

import { makeConverter, streamPlan } from './convert.js';
import { makeCalendar } from './calendar.js';

/** The modules loaded on first use, by the name of their loader in the entries (web.js,
 * node.cjs): the exports the converter and the calendar functions read from the one native
 * object, how an error calls the module, and the function that loads it. */
const LAZY = {
  extras: {
    names: ['repair', 'repairPlanFault', 'repairPlanTextFault', 'schema', 'PlanStream'],
    called: "the package's second module",
    load: 'load',
  },
  calendar: {
    names: ['planToIcalendar', 'commitmentsFromIcalendar'],
    called: "the package's calendar module",
    load: 'loadCalendar',
  },
};

/**
 * The package's functions over `raw`, the validator's wasm-bindgen module, and `loaders`, the
 * loaders of the modules loaded on first use (`{extras, calendar}`, made by the entry's one loader
 * function): `get()` answers the module, loading it first where that can be done synchronously
 * (Node's require), else null until `load(input)` (a Promise of the module) has resolved;
 * `loaded()` answers it only when it is loaded already. The modules' exports are the native side
 * convert.js and calendar.js document (plus `valueSpan` and wasm-bindgen's `__wbg_reset_state`),
 * joined here into one object. Returns `{validatePlan, repairPlan, planSchema, getPlanContract,
 * PlanStream, streamPlan, isWarning, renderPath, valueSpan, load, planToIcalendar,
 * commitmentsFromIcalendar, loadCalendar}` (declared in the package's index.d.ts: js/api.d.ts,
 * js/calendar.d.ts and js/wasm/*.d.ts). The converter is made on first use: in a browser the
 * validator module is instantiated by init() after the entry loads.
 */
export function wasmApi(raw, loaders) {
  const native = {};
  for (const name of Object.keys(raw)) native[name] = raw[name];
  for (const [module, { names }] of Object.entries(LAZY)) {
    for (const name of names) Object.defineProperty(native, name, { get: () => need(module, name)[name] });
  }
  let converter = null;
  const api = () => (converter ??= makeConverter(native, { utf8: true }));
  let calendar = null;
  const calendarApi = () => (calendar ??= makeCalendar(native, api(), { utf8: true }));

  /** The module `module` (a key of LAZY), or an Error naming `what` needs it when a browser has
   * not loaded it. */
  function need(module, what) {
    const m = loaders[module].get();
    if (m === null) {
      const { called, load } = LAZY[module];
      throw new Error(
        `momentum-plan-wasm: ${what} is in ${called}, which is not loaded yet: ` +
          `call \`await ${load}()\` once first (README "Three modules")`,
      );
    }
    return m;
  }

  /** Loads the second module (repairPlan, planSchema, PlanStream); resolves when they can be
   * called. `input` is as init()'s (a URL, bytes, a WebAssembly.Module, `{ module_or_path }`) for
   * the extras' .wasm; by default the file beside the entry. Node: loads it now, `input` unused. */
  async function load(input) {
    await loaders.extras.load(input);
  }

  /** Loads the calendar module (planToIcalendar, commitmentsFromIcalendar), as `load` the second. */
  async function loadCalendar(input) {
    await loaders.calendar.load(input);
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
        // the trap may have come from any module: each loaded one starts afresh
        raw.__wbg_reset_state();
        for (const loader of Object.values(loaders)) loader.loaded()?.__wbg_reset_state();
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
    need('extras', 'repairPlan');
    return guarded(() => api().repairPlan(plan, request, options));
  }

  /** planSchema (validator.md §9), as validatePlan; needs the second module. */
  function planSchema(request, variant) {
    need('extras', 'planSchema');
    return guarded(() => api().planSchema(request, variant));
  }

  /** planToIcalendar (issue 32; js/calendar.d.ts), as the Node package's; needs the calendar module. */
  function planToIcalendar(plan, request, dtstamp) {
    need('calendar', 'planToIcalendar');
    return guarded(() => calendarApi().planToIcalendar(plan, request, dtstamp));
  }

  /** commitmentsFromIcalendar (issue 32; js/calendar.d.ts), as the Node package's; needs the
   * calendar module. */
  function commitmentsFromIcalendar(ics, startDate, timezone) {
    need('calendar', 'commitmentsFromIcalendar');
    return guarded(() => calendarApi().commitmentsFromIcalendar(ics, startDate, timezone));
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
      need('extras', 'PlanStream');
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

  const calendarFunctions = { planToIcalendar, commitmentsFromIcalendar, loadCalendar };
  return { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning, renderPath, valueSpan, load, ...calendarFunctions };
}
