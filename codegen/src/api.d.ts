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

/**
 * Whether an issue with code `code` is a warning rather than an error (validator.md §4, §5.5:
 * `overnight`; mcp-server.md `save_plan`: `notSaved`), that is, where a verdict lists it: for a
 * host that has an issue without its verdict, as `PlanStream.push` returns them (§10). The core's
 * rule (`IssueCode::is_warning`); `false` for a code that is not one.
 */
export declare function isWarning(code: string): boolean

/** A chunk of a streamed plan's text: a string, or UTF-8 bytes (as `JsonText` reads bytes). */
export type PlanChunk = string | ArrayBuffer | Uint8Array | Uint8ClampedArray | Int8Array | DataView

/**
 * A plan validated as a model writes it (validator.md §10): `new PlanStream(request)`, then
 * `push(chunk)` as the text arrives, then `finish()` once. Pure and synchronous, like
 * `validatePlan`; its issues and verdict are the same bytes on every surface (the core's
 * `PlanStream`, Python's `PlanStream`, `momentum-plan check --stream -`).
 *
 * @throws {TypeError} (constructor) As `validatePlan` for the request.
 * @throws {SyntaxError} (constructor) Request text that is not JSON, or bytes that are not UTF-8.
 */
export declare class PlanStream {
  constructor(request: object | JsonText)
  /**
   * Reads the next chunk of the plan's text and returns the issues that became *settled* with it
   * (every JSON completion of the text so far has them in its verdict, among completions that
   * repeat no member name), in the order they settled: a block's own issues at its `}`, a day's at
   * its `]`, the request echo's at the end of `request`, a `json` error at the first byte no
   * completion can mend. An unfinished text is never an error while it streams.
   *
   * @param chunk A string, or UTF-8 bytes, split anywhere: inside a UTF-8 sequence, an escape or a
   *   number (a string inside a surrogate pair: the high half waits for the next chunk).
   * @returns The settled issues, each `{code, path, message}` exactly as the final verdict words
   *   it; usually empty.
   * @throws {TypeError} A chunk that is neither, or text holding a lone surrogate.
   * @throws {Error} After `finish()`.
   */
  push(chunk: PlanChunk): Issue[]
  /**
   * The verdict on all the text pushed: deep-equal to `validatePlan` of that text (a text that
   * ended early gets a `json` error saying it ended inside a string, an array or an object). The
   * stream is then spent.
   *
   * @throws {TypeError} The text ended inside a surrogate pair (the stream stays open).
   * @throws {Error} After an earlier `finish()`.
   */
  finish(): Verdict
  /** Whether a member name has repeated (a later value replaces an earlier one, validator.md §7):
   * nothing settles from then on and only `finish()` counts. False after `finish()`. */
  readonly repeatedName: boolean
  /** How many bytes of UTF-8 have been pushed (0 after `finish()`). */
  readonly length: number
}

/**
 * A WHATWG `ReadableStream` of chunks, as far as `streamPlan` reads it (declared here so that the
 * types need no DOM library; a `ReadableStream<string>` or `ReadableStream<Uint8Array>` is one).
 */
export interface ReadableChunks {
  getReader(): {
    read(): Promise<{ done: boolean; value?: PlanChunk }>
    cancel(reason?: unknown): Promise<void>
    releaseLock(): void
  }
}

/**
 * Pushes each chunk of `chunks` into `stream` and yields each issue as it settles (validator.md
 * §10): for a model SDK's text deltas. Stop iterating to stop the model at the first error (it is
 * final); either way `stream.finish()` then gives the verdict on what was pushed.
 *
 * @param stream A `PlanStream`.
 * @param chunks An async iterable or an iterable of chunks, or a WHATWG `ReadableStream` of them
 *   (cancelled when iteration stops early).
 * @throws What `push` throws, and what the source throws.
 */
export declare function streamPlan(
  stream: PlanStream,
  chunks: AsyncIterable<PlanChunk> | Iterable<PlanChunk> | ReadableChunks,
): AsyncGenerator<Issue, void, undefined>
