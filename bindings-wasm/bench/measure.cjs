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

/**
 * The two parts of `validatePlan(text, text)` (the converter's withUtf8 and the raw validate), as cases for sideBySide:
 * `TextEncoder.encodeInto` of both texts into one reused buffer, and the raw export
 * `validate` (UTF-8 bytes in, copied into wasm memory; the core; the packed verdict out as a
 * string) on bytes encoded once. What is left of the text case is the shared converter (argument
 * checks, the verdict's objects). Self-contained, so bench/chromium.mjs puts its source in the
 * page too.
 */
function textParts(planText, requestText, validateUtf8) {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(3 * (planText.length + requestText.length));
  const planBytes = encoder.encode(planText);
  const requestBytes = encoder.encode(requestText);
  return [
    ['  part: TextEncoder.encodeInto of both texts', () => {
      const a = encoder.encodeInto(planText, buffer).written;
      return encoder.encodeInto(requestText, buffer.subarray(a)).written;
    }],
    ['  part: raw validate of the bytes', () => validateUtf8(planBytes, requestBytes)],
  ];
}

function fmt(n) {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
}

function table(rows) {
  const out = ['| input | what | ops/s | µs/op | × JSON.parse time |', '|---|---|---:|---:|---:|'];
  for (const r of rows) out.push(`| ${r.input} | ${r.name} | ${fmt(r.opsPerSec)} | ${fmt(r.usPerOp)} | ${r.ratio.toFixed(2)} |`);
  return out.join('\n');
}

module.exports = { textParts, measure, sideBySide, table, fmt };
