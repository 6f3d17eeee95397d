// momentum-plan-wasm for Node (CommonJS): the head of pkg/node/index.d.ts, which
// bindings-wasm's scripts/build.mjs writes as this file followed by js/wasm/functions.d.ts,
// js/calendar.d.ts and js/api.d.ts (the functions both JS packages export), beside wasm-bindgen's
// momentum_plan_wasm.d.ts.
export type { Verdict, Issue, IssueCode, CheckName, CategoryId, Weekday, Category, Limits, Contract, Repair, Fix, Applicability, RepairStop, PatchOperation, JsonValue, SchemaVariant, PlanSchema, RepairOptions, ValueSpan, TextPosition } from './momentum_plan_wasm.js';
import type { Verdict, Issue, Contract, Repair, RepairOptions, PlanSchema, SchemaVariant, ValueSpan, Weekday } from './momentum_plan_wasm.js';
/** What `load()` and `loadCalendar()` take: anything, unused under Node (the module is read from beside the entry). */
export type LoadInput = unknown;
