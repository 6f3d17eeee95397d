// The ES module entry of momentum-plan-wasm for Node (pkg/node/index.d.mts): bindings-wasm's
// scripts/build.mjs writes it as pkg/node/index.d.ts followed by this file.

/**
 * As the web build's default export, so browser code runs unchanged under Node: resolves at once,
 * since Node instantiates the WebAssembly when the module loads. The argument is accepted and unused.
 */
export default function init(input?: unknown): Promise<void>;
/** As the web build's `initSync`: returns at once (nothing to instantiate). The argument is unused. */
export function initSync(input?: unknown): void;
