'use strict';
// A small timing loop: warm up, then run batches until at least `ms` have passed; repeat
// `rounds` times and keep the median. Numbers are ops/s on this machine, in this run.

function once(fn, ms) {
  let n = 0;
  let batch = 1;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) fn();
    n += batch;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (elapsed < ms / 10) batch *= 2;
  }
  return (n / elapsed) * 1000;
}

function measure(fn, { ms = 400, rounds = 5 } = {}) {
  once(fn, 150); // warm-up
  const results = [];
  for (let r = 0; r < rounds; r++) results.push(once(fn, ms));
  results.sort((a, b) => a - b);
  const opsPerSec = results[Math.floor(rounds / 2)];
  return { opsPerSec, usPerOp: 1e6 / opsPerSec };
}

function fmt(n) {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
}

function table(rows) {
  const out = ['| input | what | ops/s | µs/op | × JSON.parse time |', '|---|---|---:|---:|---:|'];
  for (const r of rows) out.push(`| ${r.input} | ${r.name} | ${fmt(r.opsPerSec)} | ${fmt(r.usPerOp)} | ${r.ratio.toFixed(2)} |`);
  return out.join('\n');
}

module.exports = { measure, table, fmt };
