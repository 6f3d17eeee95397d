'use strict'
/**
 * The calendar functions of momentum-plan-node (issue 32; the crate momentum-plan-calendar through
 * the addon's `planToIcalendar` / `commitmentsFromIcalendar`, bindings-node/src/calendar.rs). This
 * package only: the wasm package has no calendar. Thin: the plan and request are read by the
 * shared converter as `validatePlan` reads them (`toJsonText`), the addon answers one JSON text,
 * and its `error` member names the error thrown here. Types: index.d.ts.
 */

/**
 * The two functions over `native` (the addon) and `converter` (`makeConverter(native)`).
 *
 * @param {object} native the addon.
 * @param {{validatePlan: Function, toJsonText: Function}} converter the shared converter.
 */
function makeCalendar(native, converter) {
  /** The answer's value, or its error thrown (`{name, message, argument, path, line}`). */
  function answer(text) {
    const a = JSON.parse(text)
    if (a.error === undefined) return a
    const { name, message, argument, path, line } = a.error
    const Class = name === 'SyntaxError' ? SyntaxError : name === 'RangeError' ? RangeError : Error
    const e = new Class(message)
    if (argument !== null) Object.assign(e, { argument, path, kind: null })
    if (line !== null) e.line = line
    throw e
  }

  /** `value`, when a string (or a String object), as a string; else a TypeError naming `what`. */
  function string(value, what) {
    if (value instanceof String) value = String(value)
    if (typeof value !== 'string') {
      throw new TypeError(`${what} is ${value === null ? 'null' : `a ${typeof value}`}; pass a string`)
    }
    return value
  }

  /**
   * A valid plan as an iCalendar object, or the verdict of a plan that is not valid (index.d.ts).
   */
  function planToIcalendar(plan, request, dtstamp) {
    const requestText = converter.toJsonText(request, 'request')
    let planText
    try {
      planText = converter.toJsonText(plan, 'plan')
    } catch {
      // A plan JSON text cannot carry (too deep, a lone surrogate): validatePlan's verdict; any
      // other fault: validatePlan's error, thrown by it.
      return converter.validatePlan(plan, request)
    }
    return answer(native.planToIcalendar(planText, requestText, string(dtstamp, 'dtstamp')))
  }

  /** The commitments of one week of a calendar file, and the events left out (index.d.ts). */
  function commitmentsFromIcalendar(ics, startDate, timezone) {
    return answer(
      native.commitmentsFromIcalendar(string(ics, 'ics'), string(startDate, 'startDate'), string(timezone, 'timezone')),
    )
  }

  return { planToIcalendar, commitmentsFromIcalendar }
}

module.exports = { makeCalendar }
