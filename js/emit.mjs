#!/usr/bin/env node
// Writes the generated copies of the shared converter (js/convert.js, the one source) into a
// package: `node js/emit.mjs <out-file> commonjs|module`. bindings-node's `npm run build` writes
// bindings-node/convert.js (CommonJS); bindings-wasm's scripts/build.mjs writes pkg/node/convert.js
// (CommonJS) and pkg/web/convert.js (ES module). The copies are gitignored and never edited.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path of the one source. */
export const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'convert.js');

const HEADER = '// GENERATED from js/convert.js by js/emit.mjs at build time: do not edit this copy.\n';

/** An ES module of ours (`export function|class|const NAME`, no imports) as CommonJS. */
export function toCommonJs(source, path) {
  const names = [];
  const body = source.replace(/^export (function|class|const) ([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
    names.push(name);
    return `${kind} ${name}`;
  });
  if (/^\s*(import|export)\b/m.test(body) || names.length === 0) {
    throw new Error(`${path}: only "export function|class|const" declarations can be made CommonJS`);
  }
  return `'use strict';\n${body}\nmodule.exports = { ${names.join(', ')} };\n`;
}

/** Writes the converter to `out` as `format` ('commonjs' or 'module'). */
export function emitConverter(out, format) {
  const source = readFileSync(SOURCE, 'utf8');
  let text;
  if (format === 'commonjs') text = toCommonJs(source, SOURCE);
  else if (format === 'module') text = source;
  else throw new Error(`emitConverter: format must be commonjs or module, not ${format}`);
  writeFileSync(out, HEADER + text);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [out, format] = process.argv.slice(2);
  if (!out || !format) {
    console.error('usage: node js/emit.mjs <out-file> commonjs|module');
    process.exit(2);
  }
  emitConverter(resolve(out), format);
}
