#!/usr/bin/env node
// Lines-protocol adapter for a JavaScript surface (shared/tools/README.md):
//   node js_lines.cjs MODULE_PATH
// MODULE_PATH exports validatePlan(plan, request) (the napi binding, or the wasm pkg/node build).
// The conformance runner sends text-only vectors (vectors README) with plan and request as text.
'use strict';
const path = require('node:path');
const readline = require('node:readline');
const binding = require(path.resolve(process.argv[2]));

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
rl.on('line', (line) => {
  if (!line.trim()) return;
  let text;
  try {
    const pair = JSON.parse(line);
    text = JSON.stringify(binding.validatePlan(pair.plan, pair.request));
  } catch (e) {
    text = JSON.stringify({ error: `${e.name}: ${e.message}` });
  }
  out.push(text);
  if (out.length >= 256) process.stdout.write(out.splice(0).join('\n') + '\n');
});
rl.on('close', () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
});
