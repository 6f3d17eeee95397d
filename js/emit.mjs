#!/usr/bin/env node
// Writes the generated copies of the shared converter (js/convert.js, the one source) and of the
// shared calendar functions (js/calendar.js) into a package: `node js/emit.mjs <out-file>
// commonjs|module [<file in js/>]` (by default convert.js). bindings-node's `npm run build` writes
// bindings-node/convert.js and calendar.js (CommonJS); bindings-wasm's scripts/build.mjs writes
// pkg/node/convert.js and calendar.js (CommonJS) and pkg/web/ the same (ES modules), and the same
// two forms of js/wasm/api.js (`emitModule`). The copies are gitignored and never edited.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path of the one source. */
export const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'convert.js');

/** The repository root (file names in the copies' headers are relative to it). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * An ES module of ours as CommonJS: `export function|class|const NAME` declarations, and imports
 * only of the form `import { a, b } from './file.js';` (each becomes a `require`).
 */
export function toCommonJs(source, path) {
  const names = [];
  const body = source
    .replace(/^import \{ ([\w$, ]+) \} from ('\.\/[\w.-]+\.js');$/gm, 'const { $1 } = require($2);')
    .replace(/^export (function|class|const) ([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
      names.push(name);
      return `${kind} ${name}`;
    });
  if (/^\s*(import|export)\b/m.test(body) || names.length === 0) {
    throw new Error(`${path}: only "export function|class|const" declarations and named imports can be made CommonJS`);
  }
  return `'use strict';\n${body}\nmodule.exports = { ${names.join(', ')} };\n`;
}

/** Writes the ES module `source` (a path) to `out` as `format` ('commonjs' or 'module'). */
export function emitModule(source, out, format) {
  const text = readFileSync(source, 'utf8');
  let body;
  if (format === 'commonjs') body = toCommonJs(text, source);
  else if (format === 'module') body = text;
  else throw new Error(`emitModule: format must be commonjs or module, not ${format}`);
  const name = relative(ROOT, source);
  writeFileSync(out, `// GENERATED from ${name} by js/emit.mjs at build time: do not edit this copy.\n${body}`);
}

/** Writes the converter to `out` as `format` ('commonjs' or 'module'). */
export function emitConverter(out, format) {
  emitModule(SOURCE, out, format);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [out, format, source] = process.argv.slice(2);
  if (!out || !format) {
    console.error('usage: node js/emit.mjs <out-file> commonjs|module [<file in js/, default convert.js>]');
    process.exit(2);
  }
  emitModule(source ? join(dirname(SOURCE), source) : SOURCE, resolve(out), format);
}
