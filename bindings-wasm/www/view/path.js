// The view's JSONPath rendering (it has no WebAssembly core to ask).

/**
 * JSONPath of member names and indices as the core renders it (validator.md §4, D7): a name that
 * is an ASCII identifier after a dot, any other in ['...'] with only \ and ' escaped. The import
 * page uses the core's own renderPath; bindings-wasm/test/view.test.mjs checks this one against it.
 */
export function renderPath(segments) {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += `.${s}`;
    else out += `['${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}
