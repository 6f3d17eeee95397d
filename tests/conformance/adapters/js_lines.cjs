#!/usr/bin/env node
// Lines-protocol adapter for a JavaScript surface (shared/tools/README.md):
//   node js_lines.cjs [--repair|--schema|--stream|--calendar] MODULE_PATH
//   node js_lines.cjs --normalize            (no module: each line through JSON.parse, JSON.stringify)
// MODULE_PATH (the napi binding, or the wasm pkg/node build) exports validatePlan(plan, request),
// and for --repair repairPlan(plan, request, {unsafe}), for --schema planSchema(request, variant).
// One answer per line: the result's JSON.stringify; a thrown error is {"error": "Name: message"},
// except planSchema's, which is {"error": message} as the core's driver writes it. Exits 3 when
// the module lacks the function (not built yet). --stream takes {"plan": text, "request", "chunks":
// [byte counts]}: the plan's UTF-8 bytes through a PlanStream in those chunks (the rest as one
// last chunk), answered as {"pushes": [[issue, ...] per push], "repeatedName", "verdict"}, as the
// core's `validate --stream`. --normalize gives the core's bytes as JavaScript
// reads and writes them (numbers in JS form), what a JS surface is compared with. --calendar
// takes {"export": {"plan", "request", "dtstamp"}} (planToIcalendar) or {"import": {"ics",
// "startDate", "timezone"}} (commitmentsFromIcalendar); a thrown error is {"error": message}, as
// the calendar crate's `ics` driver writes it (issue 32).
// The conformance runner sends text-only vectors (vectors README) with plan and request as text.
'use strict';
const path = require('node:path');
const readline = require('node:readline');

const args = process.argv.slice(2);
const mode = args[0] && args[0].startsWith('--') ? args.shift() : '--validate';
let call;
if (mode === '--normalize') {
  call = (line) => JSON.stringify(JSON.parse(line));
} else {
  const names = {
    '--validate': 'validatePlan',
    '--repair': 'repairPlan',
    '--schema': 'planSchema',
    '--stream': 'PlanStream',
    '--calendar': 'planToIcalendar',
  };
  const name = names[mode];
  if (!name || !args[0]) {
    process.stderr.write('usage: js_lines.cjs [--repair|--schema|--stream|--calendar] MODULE_PATH | --normalize\n');
    process.exit(2);
  }
  const binding = require(path.resolve(args[0]));
  if (typeof binding[name] !== 'function') {
    process.stderr.write(`js_lines.cjs: ${args[0]} has no ${name} (not built yet)\n`);
    process.exit(3);
  }
  // A package whose JS side is newer than its compiled part (the function there, its native half
  // not yet built) is not built either.
  try {
    if (mode === '--repair') binding.repairPlan({}, {});
    if (mode === '--schema') binding.planSchema({ requestId: 'r', kind: 'routine' }, 'validation');
    if (mode === '--stream') new binding.PlanStream({}).finish();
  } catch (e) {
    if (e instanceof TypeError && / is not a (function|constructor)/.test(e.message)) {
      process.stderr.write(`js_lines.cjs: ${args[0]}: ${name} is not built yet (${e.message})\n`);
      process.exit(3);
    }
  }
  call = (line) => {
    const pair = JSON.parse(line);
    if (mode === '--validate') return JSON.stringify(binding.validatePlan(pair.plan, pair.request));
    if (mode === '--repair') return JSON.stringify(binding.repairPlan(pair.plan, pair.request, { unsafe: pair.unsafe === true }));
    if (mode === '--stream') return JSON.stringify(streamed(binding, pair));
    if (mode === '--calendar') {
      try {
        if (pair.export) return JSON.stringify(binding.planToIcalendar(pair.export.plan, pair.export.request, pair.export.dtstamp));
        const i = pair.import;
        return JSON.stringify(binding.commitmentsFromIcalendar(i.ics, i.startDate, i.timezone));
      } catch (e) {
        return JSON.stringify({ error: e.message });
      }
    }
    try {
      return JSON.stringify(binding.planSchema(pair.request, pair.variant === undefined ? 'validation' : pair.variant));
    } catch (e) {
      return JSON.stringify({ error: e.message });
    }
  };
}

/** The --stream answer: the plan's UTF-8 bytes through a PlanStream in the line's chunks. */
function streamed(binding, pair) {
  const bytes = Buffer.from(pair.plan, 'utf8');
  const stream = new binding.PlanStream(pair.request);
  const pushes = [];
  let at = 0;
  for (const n of pair.chunks || []) {
    pushes.push(stream.push(bytes.subarray(at, at + n)));
    at = Math.min(at + n, bytes.length);
  }
  if (at < bytes.length) pushes.push(stream.push(bytes.subarray(at)));
  const repeatedName = stream.repeatedName;
  return { pushes, repeatedName, verdict: stream.finish() };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
rl.on('line', (line) => {
  if (!line.trim()) return;
  let text;
  try {
    text = call(line);
  } catch (e) {
    text = JSON.stringify({ error: `${e.name}: ${e.message}` });
  }
  out.push(text);
  if (out.length >= 256) process.stdout.write(out.splice(0).join('\n') + '\n');
});
rl.on('close', () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
});
