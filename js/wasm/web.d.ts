// momentum-plan-wasm for browsers and bundlers (ES module): the head of pkg/web/index.d.ts, which
// bindings-wasm's scripts/build.mjs writes as this file followed by js/wasm/functions.d.ts,
// js/calendar.d.ts and js/api.d.ts (the functions both JS packages export), beside wasm-bindgen's
// momentum_plan_wasm.d.ts.
export { default, initSync } from './momentum_plan_wasm.js';
export type { Verdict, Issue, IssueCode, CheckName, CategoryId, Weekday, Category, Limits, Contract, Repair, Fix, Applicability, RepairStop, PatchOperation, JsonValue, SchemaVariant, PlanSchema, RepairOptions, ValueSpan, TextPosition, InitInput, InitOutput, SyncInitInput } from './momentum_plan_wasm.js';
import type { Verdict, Issue, Contract, Repair, RepairOptions, PlanSchema, SchemaVariant, ValueSpan, Weekday } from './momentum_plan_wasm.js';
/** What `load()` and `loadCalendar()` take: as `init()`, for their module's .wasm. */
export type LoadInput = { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>;
import type { InitInput } from './momentum_plan_wasm.js';
