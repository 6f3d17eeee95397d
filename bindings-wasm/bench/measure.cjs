'use strict';
// Timing loops. `measure`: warm up, then run batches until at least `ms` have passed; repeat
// `rounds` times and keep the median. `sideBySide`: the cases of one table timed in turns, round
// by round, so a drift of the shared machine hits them alike. Numbers are ops/s on this machine,
// in this run.

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

/**
 * Times `cases` ([name, fn], the first being the baseline, JSON.parse) side by side: a warm-up
 * round, then `rounds` rounds in each of which every case runs for `ms` milliseconds, one after
 * another. Returns, per case, `{ name, opsPerSec, usPerOp, ratio }`: the median ops/s over the
 * rounds, and the median over the rounds of (the case's time ÷ the baseline's time in that round).
 *
 * Self-contained (only `performance.now()`), so bench/chromium.mjs runs this very function in the
 * page, from its source text.
 */
function sideBySide(cases, ms = 200, rounds = 9) {
  const batches = cases.map(([, fn]) => {
    for (let b = 1; ; b *= 2) {
      const t = performance.now();
      for (let i = 0; i < b; i++) fn();
      if (performance.now() - t > ms / 20) return b;
    }
  });
  const ops = cases.map(() => []);
  for (let r = 0; r <= rounds; r++) {
    cases.forEach(([, fn], k) => {
      let n = 0;
      let elapsed = 0;
      const start = performance.now();
      while (elapsed < ms) {
        for (let i = 0; i < batches[k]; i++) fn();
        n += batches[k];
        elapsed = performance.now() - start;
      }
      if (r > 0) ops[k].push((n / elapsed) * 1000); // round 0 warms up
    });
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  return cases.map(([name], k) => {
    const opsPerSec = median(ops[k]);
    return { name, opsPerSec, usPerOp: 1e6 / opsPerSec, ratio: median(ops[0].map((p, r) => p / ops[k][r])) };
  });
}

function fmt(n) {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
}

function table(rows) {
  const out = ['| input | what | ops/s | µs/op | × JSON.parse time |', '|---|---|---:|---:|---:|'];
  for (const r of rows) out.push(`| ${r.input} | ${r.name} | ${fmt(r.opsPerSec)} | ${fmt(r.usPerOp)} | ${r.ratio.toFixed(2)} |`);
  return out.join('\n');
}

module.exports = { measure, sideBySide, table, fmt };
