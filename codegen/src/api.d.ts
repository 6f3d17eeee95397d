// The source of js/api.d.ts: the functions both JS packages export, written by hand. `cargo run
// -p momentum-plan-codegen` fills {maxDepth} (momentum_plan::MAX_DEPTH) and writes js/api.d.ts,
// which bindings-node/index.d.ts and bindings-wasm's pkg/*/index.d.ts end with.

/**
 * JSON text as a plan or request argument (validator.md §3, §7): a string, or its UTF-8 bytes (a
 * `Buffer`, `Uint8Array`, `ArrayBuffer` or another view of bytes, from any realm), which the core
 * reads as text, as Python's `bytes`: bytes that are not UTF-8 are the plan's `json` verdict, the
 * request's `SyntaxError`. A typed array inside a plan or request is no text (a `TypeError`).
 */
export type JsonText = string | ArrayBuffer | Uint8Array | Uint8ClampedArray | Int8Array | DataView

/**
 * Validates a plan against the request it answers (validator.md §5). Pure and synchronous.
 *
 * @param plan The plan: a JS value, converted exactly as `JSON.stringify` would write it (a JS
 *   number integral within ±(2^53−1) is an integer, any other number is not), or its JSON text,
 *   a string or UTF-8 bytes (`JsonText`; validated as text: strict JSON, size in UTF-8 bytes).
 * @param request The request the plan answers: a JS value, or its JSON text (`JsonText`).
 * @returns The verdict. An invalid plan is a normal verdict, never an exception; so is a plan
 *   holding a lone surrogate or nested deeper than {maxDepth} levels (a `json` error).
 * @throws {TypeError} `plan` or `request` holds a value without a JSON form: a function, symbol,
 *   BigInt (unless `BigInt.prototype.toJSON`), NaN/Infinity, a cycle, a Map/Set/WeakMap/WeakSet
 *   or other object whose data JSON.stringify cannot see (any realm), `undefined` inside an
 *   array, or is `undefined` itself; for `request` also nesting deeper than {maxDepth} levels or a lone
 *   surrogate. (An object member whose value is `undefined` is skipped, `toJSON` and boxed
 *   values are honoured, as `JSON.stringify` does.) The message is the core's (validator.md §7);
 *   the error's `argument` ('plan' | 'request') and `path` (a JSONPath) say where.
 * @throws {SyntaxError} `request` is text that is not strict JSON, or bytes that are not UTF-8
 *   (`argument` 'request', `path` '$').
 */
export declare function validatePlan(plan: object | JsonText, request: object | JsonText): Verdict

/**
 * Repairs a plan against the request it answers (validator.md §9): the validator's safe fixes (and
 * its unsafe ones with `{ unsafe: true }`; placeholders never) applied and validated again, to a
 * fixed point. Pure and synchronous.
 *
 * @param plan As for `validatePlan`.
 * @param request As for `validatePlan`.
 * @param options `unsafe`: apply unsafe fixes too (default false).
 * @returns The repair, a plain object equal to the core's Repair JSON. A plan JSON text cannot
 *   carry (nested deeper than {maxDepth} levels, a lone surrogate) gets the `json` verdict with nothing
 *   applied (`plan` is `''` for an object, the text with U+FFFD for each lone surrogate for text).
 * @throws {TypeError} As `validatePlan`; also `options` that is not an object, or an `unsafe` that
 *   is not a boolean.
 * @throws {SyntaxError} As `validatePlan`.
 */
export declare function repairPlan(plan: object | JsonText, request: object | JsonText, options?: RepairOptions): Repair

/**
 * The JSON Schema (2020-12) of the plan that answers `request` (validator.md §9).
 *
 * @param request As for `validatePlan`.
 * @param variant `'validation'` (default) or `'strict'`.
 * @returns The schema, a plain object equal to the core's schema JSON.
 * @throws {TypeError} As `validatePlan` for the request; a variant that is not a string.
 * @throws {SyntaxError} Request text that is not JSON.
 * @throws {RangeError} A variant other than `'validation'` and `'strict'` (the core's message).
 * @throws {Error} A request no plan can satisfy (a `requestInvalid`, or a `kind` neither
 *   `routine` nor `goal`): the core's message, `argument` 'request', `path` '$'.
 */
export declare function planSchema(request: object | JsonText, variant?: SchemaVariant): PlanSchema

/** The plan contract (validator.md §2); a fresh object on every call. */
export declare function getPlanContract(): Contract
