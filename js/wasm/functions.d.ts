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
