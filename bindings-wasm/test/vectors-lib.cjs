'use strict';
// Reading the shared vectors (../shared/vectors/README.md) for a JavaScript surface.
//
// JSON.parse cannot carry every vector: it makes `30.0` the integer 30, rounds integers beyond
// ±(2^53−1) and moves keys such as "0" first. So each line is also scanned as raw text: the exact
// text of its `plan` and `request` values is cut out (number literals as written), and a vector
// whose plan or request holds a whole number written with a fraction or exponent, an integer
// beyond ±(2^53−1), or an object key that is an array index is marked text-only: a JS surface
// must send it as text. Nothing here is a list of ids; it is all read from the lines.

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SHARED = path.resolve(ROOT, '..', 'shared');
const VECTORS = path.join(SHARED, 'vectors');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** The vector files, sorted. */
function vectorFiles() {
  return fs
    .readdirSync(VECTORS)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => path.join(VECTORS, f));
}

/**
 * Scans one raw JSON line. Returns the [start, end) spans of the top-level members `plan` and
 * `request`, and why the line is text-only for JS (empty when it is not), looking only inside
 * those two values.
 */
function scanLine(line) {
  const spans = {};
  const reasons = new Set();
  const stack = []; // 'o' | 'a'
  let expectKey = false;
  let member = null; // top-level member name whose value comes next
  let inside = null; // 'plan' | 'request' while scanning inside one of them
  let valueStart = -1;
  let i = 0;
  const n = line.length;

  const startValue = () => {
    if (stack.length === 1 && member !== null) {
      if (member === 'plan' || member === 'request') {
        inside = member;
        valueStart = i;
      }
      member = null;
    }
  };
  const endValue = (end) => {
    if (inside !== null && stack.length === 1) {
      spans[inside] = [valueStart, end];
      inside = null;
    }
  };

  while (i < n) {
    const c = line[i];
    if (c === '"') {
      let j = i + 1;
      while (line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      const token = line.slice(i, j + 1);
      if (expectKey) {
        const key = JSON.parse(token);
        if (stack.length === 1) member = key;
        else if (inside !== null && ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1) {
          reasons.add('array-index key');
        }
        expectKey = false;
      } else {
        startValue();
        endValue(j + 1);
      }
      i = j + 1;
    } else if (c === '{' || c === '[') {
      startValue();
      stack.push(c === '{' ? 'o' : 'a');
      expectKey = c === '{';
      i += 1;
    } else if (c === '}' || c === ']') {
      stack.pop();
      endValue(i + 1);
      expectKey = false;
      i += 1;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] === 'o';
      i += 1;
    } else if (c === ':' || c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      startValue();
      let j = i + 1;
      while (j < n && /[0-9eE.+-]/.test(line[j])) j += 1;
      const lit = line.slice(i, j);
      if (inside !== null) {
        if (/[.eE]/.test(lit)) {
          if (Number.isInteger(Number(lit))) reasons.add('whole number with a fraction or exponent');
        } else {
          const v = BigInt(lit);
          if (v > MAX_SAFE || v < -MAX_SAFE) reasons.add('integer beyond 2^53-1');
        }
      }
      endValue(j);
      i = j;
    } else {
      // true, false, null
      startValue();
      let j = i;
      while (j < n && /[a-z]/.test(line[j])) j += 1;
      endValue(j);
      i = j;
    }
  }
  return { spans, textOnly: [...reasons] };
}

/** The raw text of a value span, with the line's \u0085/\u2028/\u2029 escapes written raw
 * (the README escapes them only so line readers split correctly; compact JSON has them raw). */
function rawText(line, [s, e]) {
  return line.slice(s, e).replace(/(\\+)u(0085|2028|2029)/gi, (m, slashes, hex) =>
    slashes.length % 2 === 1 ? slashes.slice(1) + String.fromCharCode(parseInt(hex, 16)) : m,
  );
}

/** Every vector of one file: its parsed form and its raw texts. */
function readVectors(file) {
  const out = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const v = JSON.parse(line);
    const { spans, textOnly } = scanLine(line);
    if (!spans.plan || !spans.request) throw new Error(`${v.id}: plan or request not found in the line`);
    out.push({
      id: v.id,
      expect: v.expect,
      plan: v.plan,
      request: v.request,
      planText: typeof v.plan === 'string' ? v.plan : rawText(line, spans.plan),
      requestText: rawText(line, spans.request),
      planIsText: typeof v.plan === 'string',
      textOnly,
      coreLine: `{"plan":${rawText(line, spans.plan)},"request":${rawText(line, spans.request)}}`,
    });
  }
  return out;
}

/** The README's own count of text-only object vectors ("N of the M object vectors"). */
function readmeTextOnlyCount() {
  const readme = fs.readFileSync(path.join(VECTORS, 'README.md'), 'utf8');
  const m = /(\d[\d,]*) of the (\d[\d,]*) object vectors/.exec(readme);
  return m ? { textOnly: Number(m[1].replace(/,/g, '')), objects: Number(m[2].replace(/,/g, '')) } : null;
}

/** The differences between a verdict and a vector's expectation (empty when it agrees). */
function compare(verdict, expect) {
  const problems = [];
  const pairs = (list) => list.map((i) => `${i.code} ${i.path}`);
  if (JSON.stringify(Object.keys(verdict)) !== '["valid","errors","warnings","checks"]') {
    problems.push(`verdict keys ${Object.keys(verdict)}`);
  }
  if (verdict.valid !== expect.valid) problems.push(`valid ${verdict.valid}, expected ${expect.valid}`);
  for (const kind of ['errors', 'warnings']) {
    const got = pairs(verdict[kind]);
    const want = pairs(expect[kind]);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      problems.push(`${kind} ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
    for (const issue of verdict[kind]) {
      if (JSON.stringify(Object.keys(issue)) !== '["code","path","message"]') problems.push(`issue keys ${Object.keys(issue)}`);
      if (typeof issue.message !== 'string' || issue.message.length === 0) problems.push(`empty message at ${issue.path}`);
    }
  }
  if (JSON.stringify(verdict.checks) !== JSON.stringify(expect.checks)) {
    problems.push(`checks ${JSON.stringify(verdict.checks)}, expected ${JSON.stringify(expect.checks)}`);
  }
  return problems;
}

module.exports = { ROOT, SHARED, VECTORS, vectorFiles, scanLine, rawText, readVectors, readmeTextOnlyCount, compare };
