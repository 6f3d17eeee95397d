// The calendar functions of both JS packages (issue 32; the crate momentum-plan-calendar through
// the native side's `planToIcalendar` / `commitmentsFromIcalendar`, js-native/src/calendar.rs):
// momentum-plan-node's addon, and momentum-plan-wasm's calendar module. Thin: the plan and request
// are read by the shared converter as `validatePlan` reads them (`toJsonText`), the native side
// answers one JSON text, and its `error` member names the error thrown here. Types:
// js/calendar.d.ts (generated). js/emit.mjs writes this file into bindings-node/calendar.js
// (CommonJS) and bindings-wasm's pkg/node/calendar.js and pkg/web/calendar.js at build time.

import { withUtf8 } from './convert.js';

/**
 * The two functions over `native` (the addon, or the wasm modules joined) and `converter`
 * (`makeConverter(native)`). `options.utf8`: the native side takes the plan and request as UTF-8
 * bytes (bindings-wasm, as `makeConverter`'s option).
 *
 * @param {object} native the native side.
 * @param {{validatePlan: Function, toJsonText: Function}} converter the shared converter.
 * @param {{utf8?: boolean}} [options]
 */
export function makeCalendar(native, converter, options = {}) {
  const utf8 = options.utf8 === true;

  /** The answer's value, or its error thrown (`{name, message, argument, path, line}`). */
  function answer(text) {
    const a = JSON.parse(text);
    if (a.error === undefined) return a;
    const { name, message, argument, path, line } = a.error;
    const Class = name === 'SyntaxError' ? SyntaxError : name === 'RangeError' ? RangeError : Error;
    const e = new Class(message);
    if (argument !== null) Object.assign(e, { argument, path, kind: null });
    if (line !== null) e.line = line;
    throw e;
  }

  /** `value`, when a string (or a String object), as a string; else a TypeError naming `what`. */
  function string(value, what) {
    if (value instanceof String) value = String(value);
    if (typeof value !== 'string') {
      throw new TypeError(`${what} is ${value === null ? 'null' : `a ${typeof value}`}; pass a string`);
    }
    return value;
  }

  /**
   * A valid plan as an iCalendar object, or the verdict of a plan that is not valid (js/calendar.d.ts).
   */
  function planToIcalendar(plan, request, dtstamp) {
    const requestText = converter.toJsonText(request, 'request');
    let planText;
    try {
      planText = converter.toJsonText(plan, 'plan');
    } catch {
      // A plan JSON text cannot carry (too deep, a lone surrogate): validatePlan's verdict; any
      // other fault: validatePlan's error, thrown by it.
      return converter.validatePlan(plan, request);
    }
    const stamp = string(dtstamp, 'dtstamp');
    const text = utf8
      ? withUtf8(planText, requestText, native.planToIcalendar, stamp)
      : native.planToIcalendar(planText, requestText, stamp);
    return answer(text);
  }

  /** The commitments of one week of a calendar file, and the events left out (js/calendar.d.ts). */
  function commitmentsFromIcalendar(ics, startDate, timezone) {
    return answer(
      native.commitmentsFromIcalendar(string(ics, 'ics'), string(startDate, 'startDate'), string(timezone, 'timezone')),
    );
  }

  return { planToIcalendar, commitmentsFromIcalendar };
}
