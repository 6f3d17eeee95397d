// The functions only momentum-plan-wasm exports (both of its entries), after the head of each
// index.d.ts (node.d.ts, web.d.ts) and before js/api.d.ts.

/** A JSONPath rendered by the core's rules (validator.md §4, D7): ['routine', 'blocks', 0] -> '$.routine.blocks[0]'. */
export function renderPath(segments: ReadonlyArray<string | number>): string;
/**
 * Where the value that `path` (a verdict's JSONPath) names is in the plan's JSON `text`
 * (validator.md §4, §7): offsets in UTF-16 code units, for `setSelectionRange`. When the path
 * leads to no value, `missing` is true and the span is the deepest value's on it (`found`).
 * @returns the span, or null when the text is not JSON
 * @throws TypeError for a path that is not a JSONPath, or arguments that are not strings
 */
export function valueSpan(text: string, path: string): ValueSpan | null;
/**
 * Loads the package's second module (issue 32; README "Three modules"): `repairPlan`, `planSchema`
 * and `PlanStream` (so `streamPlan` too) are in it; `validatePlan`, `getPlanContract`, `renderPath`
 * and `valueSpan` are in the first, the validator, which is all a page needs for its first verdict.
 * - In a browser (the web build), call `await init()` and then `await load()` once before any of
 *   those three: until then each throws an `Error` saying so. `input` is as `init()`'s (by default
 *   `momentum_plan_wasm_extras_bg.wasm` beside the entry); calls after the first answer the same load.
 * - In Node (`require`, `import`), the second module loads on the first call that needs it, so
 *   `load()` is optional: it only loads it now. `input` is unused.
 * @throws (the Promise rejects) when the module cannot be fetched or instantiated; a later call tries again
 */
export function load(input?: LoadInput): Promise<void>;
/**
 * Loads the package's calendar module (issue 32; README "Three modules"): `planToIcalendar` and
 * `commitmentsFromIcalendar` are in it, with the tz database they need; as `load()` the second
 * module: in a browser call `await loadCalendar()` once before either (until then each throws an
 * `Error` saying so; `input` as `init()`'s, by default `momentum_plan_wasm_calendar_bg.wasm` beside
 * the entry); in Node it loads on the first call that needs it, so this is optional.
 * @throws (the Promise rejects) when the module cannot be fetched or instantiated; a later call tries again
 */
export function loadCalendar(input?: LoadInput): Promise<void>;
