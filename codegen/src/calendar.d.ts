// The source of the calendar functions of both JS packages (issue 32), written by hand:
// `cargo run -p momentum-plan-codegen` writes them, after the calendar's types, into
// js/calendar.d.ts (which bindings-wasm's build puts in each index.d.ts) and into
// bindings-node/index.d.ts (after the types and before the shared functions, js/api.d.ts).

/**
 * A valid plan as an iCalendar object (RFC 5545; issue 32, crate momentum-plan-calendar). Pure and
 * synchronous; the same bytes as every other surface for the same input. In the wasm package's
 * web build, call `await loadCalendar()` once first (its calendar module).
 *
 * @param plan As for `validatePlan`.
 * @param request As for `validatePlan`; it needs a `startDate` (the first occurrence), and a
 *   `timezone` (without one the times float: the same wall-clock time in any zone).
 * @param dtstamp The `DTSTAMP` of every component, a UTC date-time `YYYYMMDDTHHMMSSZ` such as
 *   `'20261207T120000Z'` (RFC 5545 §3.8.7.2; the core has no clock).
 * @returns `{ text, events, warnings }`: the calendar (CRLF lines folded at 75 octets; a routine's
 *   blocks as weekly events from `startDate`, a goal plan's activities as to-dos), how many events
 *   (to-dos) it holds, and the block starts in a daylight-saving gap or fold; or, for a plan that is not valid, its verdict (`valid` false,
 *   the same object `validatePlan` returns): tell them apart with `'text' in result`.
 * @throws {TypeError} As `validatePlan`; a `dtstamp` that is not a string.
 * @throws {SyntaxError} As `validatePlan` (request text that is not JSON).
 * @throws {RangeError} A `dtstamp` that is not `YYYYMMDDTHHMMSSZ` (`argument` 'dtstamp').
 * @throws {Error} A request without a `startDate`, or whose `startDate` or `timezone` cannot be
 *   read (the crate's message; `argument` 'request', `path` '$.startDate' or '$.timezone').
 */
export declare function planToIcalendar(
  plan: object | JsonText,
  request: object | JsonText,
  dtstamp: string,
): CalendarExport | Verdict

/**
 * The commitments of one week of a calendar file (RFC 5545; issue 32): each event instance that
 * starts in `[startDate 00:00, +7 days)` in `timezone`, grouped into the request's `commitments`
 * (validator.md §3), and the events of that week left out, with why. Pure and synchronous (in the
 * wasm package's web build, after `await loadCalendar()`).
 *
 * @param ics The calendar's text.
 * @param startDate The week's first day, `YYYY-MM-DD` (the request's `startDate`).
 * @param timezone A tz database name (the request's `timezone`): the times are converted to it.
 * @returns `{ commitments, skipped }`.
 * @throws {TypeError} An argument that is not a string.
 * @throws {SyntaxError} A file the crate cannot read: the message and `line` (1-based) say where.
 * @throws {RangeError} A file over the crate's caps, or a `startDate` or `timezone` it cannot read.
 */
export declare function commitmentsFromIcalendar(ics: string, startDate: string, timezone: string): CalendarCommitments
