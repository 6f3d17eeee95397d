#!/usr/bin/env node
// Host-object cases in Node (host_cases.mjs through host_exec.mjs):
//   node host_node.mjs describe            -> the cases' metadata and core text pairs (one JSON)
//   node host_node.mjs run PACKAGE [IDS]   -> one JSON line per case: {id, outcome, ms}
// PACKAGE is a CommonJS module exporting validatePlan: bindings-node, or bindings-wasm/pkg/node.
// The other realm is a vm context (vm.runInNewContext).

import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import vm from 'node:vm';
import kit from '../../js/testkit.cjs';
import { describeCases, runCases } from './host_exec.mjs';

export function nodeEnv() {
  return {
    planText: kit.exampleText('calm-weekday.plan.json'),
    requestText: kit.exampleText('calm-weekday.request.json'),
    foreign: vm.runInNewContext('({ Map, Set, Number, JSON, Object, Array, Uint8Array })'),
    Buffer,
  };
}

const [command, pkg, ids] = process.argv.slice(2);
if (command === 'describe') {
  process.stdout.write(JSON.stringify(describeCases(nodeEnv())) + '\n');
} else if (command === 'run' && pkg) {
  const { validatePlan } = createRequire(import.meta.url)(resolve(pkg));
  const results = runCases(validatePlan, nodeEnv(), ids ? ids.split(',') : null);
  process.stdout.write(results.map((r) => JSON.stringify(r)).join('\n') + '\n');
} else {
  console.error('usage: host_node.mjs describe | run PACKAGE [ID,ID...]');
  process.exit(2);
}
