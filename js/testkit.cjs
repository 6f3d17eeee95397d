'use strict';
// The JavaScript test kit: where the shared material is, and how a JS test reads the shared
// vectors (../shared/vectors/README.md, "How to use them") and the bundled examples. One reader
// for every JS test (bindings-node/test, bindings-wasm/test, mcp-wasi/e2e, tests/conformance);
// the Rust one is the `momentum-plan-testkit` crate, the Python one `tests/testkit.py`.
//
// Paths are resolved from this file (the workspace root is its parent folder), never from the
// current directory; `shared/` sits beside the workspace.
//
// JSON.parse cannot carry every vector: it makes `30.0` the integer 30, rounds integers beyond
// ±(2^53−1) and moves keys such as "0" first. So each line is also read as raw text: the exact text
// of each top-level member is cut out (number literals as written), and a vector whose plan or
// request holds a whole number written with a fraction or exponent, an integer beyond ±(2^53−1),
// or a member name that is an array index is marked text-only: a JS surface must send it as text,
// plan and request. Nothing here is a list of ids; it is all read from the lines.

const fs = require('node:fs');
const path = require('node:path');

/** The workspace root (absolute). */
const ROOT = path.resolve(__dirname, '..');
/** The shared material beside the workspace: `<root>/../shared` (absolute). */
const SHARED = path.resolve(ROOT, '..', 'shared');
/** The shared vectors' folder. */
const VECTORS = path.join(SHARED, 'vectors');
/** The bundled examples' folder, `<root>/examples`. */
const EXAMPLES = path.join(ROOT, 'examples');
/** Fewer vectors than this means a file was not read (the set holds 5,818). */
const VECTOR_FLOOR = 5000;

/** The vector files (`*.jsonl` of VECTORS), absolute paths sorted by name. Throws when none. */
function vectorFiles() {
  const files = fs
    .readdirSync(VECTORS)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => path.join(VECTORS, f));
  if (files.length === 0) throw new Error(`no *.jsonl in ${VECTORS}`);
  return files;
}

/** The non-blank lines of one vector file, in file order (raw text, not parsed). */
function vectorLines(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** The text of `examples/<name>` (e.g. `calm-weekday.plan.json`), UTF-8. */
function exampleText(name) {
  return fs.readFileSync(path.join(EXAMPLES, name), 'utf8');
}

/** `{ plan, request }` of `examples/<name>.plan.json` and `<name>.request.json`, parsed. */
function example(name) {
  return {
    plan: JSON.parse(exampleText(`${name}.plan.json`)),
    request: JSON.parse(exampleText(`${name}.request.json`)),
  };
}

// ---- raw JSON text

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(s, i) {
  while (i < s.length && WS.has(s[i])) i++;
  return i;
}

/** End (exclusive) of the JSON string token starting at s[i] === '"'. */
function skipString(s, i) {
  i++;
  while (s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** End (exclusive) of the JSON value starting at s[i]. */
function skipValue(s, i) {
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (;;) {
      const d = s[i];
      if (d === '"') {
        i = skipString(s, i);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
  }
  // number or literal
  while (i < s.length && !',]} \t\n\r'.includes(s[i])) i++;
  return i;
}

/** The raw text of every top-level member of the JSON object `line`: `{ name: text }`. */
function rawMembers(line) {
  const out = {};
  let i = skipWs(line, 0);
  if (line[i] !== '{') throw new Error('not an object line');
  i = skipWs(line, i + 1);
  while (line[i] !== '}') {
    const kEnd = skipString(line, i);
    const name = JSON.parse(line.slice(i, kEnd));
    i = skipWs(line, kEnd);
    if (line[i] !== ':') throw new Error('expected :');
    i = skipWs(line, i + 1);
    const vEnd = skipValue(line, i);
    out[name] = line.slice(i, vEnd);
    i = skipWs(line, vEnd);
    if (line[i] === ',') i = skipWs(line, i + 1);
  }
  return out;
}

const MAX_SAFE = 2n ** 53n - 1n;
const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Whether JSON.parse would change this number literal's meaning for the validator: a whole
 * number written with a fraction or exponent (`30.0`, `1e3`, `1.5e1`), or an integer beyond
 * ±(2^53−1).
 */
function numberNeedsText(lit) {
  const m = NUMBER.exec(lit);
  if (!m) throw new Error(`not a number literal: ${lit}`);
  const [, int, frac, exp] = m;
  if (frac === undefined && exp === undefined) {
    const n = BigInt(lit);
    return n > MAX_SAFE || n < -MAX_SAFE;
  }
  const digits = int + (frac ?? '');
  const point = int.length + Number(exp ?? 0);
  const after = point <= 0 ? digits : digits.slice(point);
  return /^0*$/.test(after);
}

const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

/** Whether a member name is an array index, which JS objects move first. */
function isIndexKey(name) {
  return INDEX_KEY.test(name) && Number(name) < 2 ** 32 - 1;
}

/**
 * Why the JSON value `text` cannot travel as a JS object (null when it can): the first number
 * literal or member name of the kinds above, found by scanning the raw text.
 */
function needsText(text) {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      const end = skipString(text, i);
      const j = skipWs(text, end);
      if (text[j] === ':') {
        const name = JSON.parse(text.slice(i, end));
        if (isIndexKey(name)) return `member name ${JSON.stringify(name)}`;
      }
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const end = skipValue(text, i);
      const lit = text.slice(i, end);
      if (numberNeedsText(lit)) return `number ${lit.length > 30 ? `${lit.slice(0, 30)}…` : lit}`;
      i = end;
    } else {
      i++;
    }
  }
  return null;
}

/**
 * The compact JSON text of an object member's raw text as the README defines it (non-ASCII raw):
 * the lines escape U+0085, U+2028 and U+2029, which compact text writes raw.
 */
function compactText(raw) {
  return raw.replace(/\\(\\|u(?:0085|2028|2029))/g, (m, g) =>
    g === '\\' ? m : String.fromCharCode(parseInt(g.slice(1), 16)),
  );
}

// ---- vectors

/**
 * Every vector of one file, in file order: `{ id, expect, plan, request, planIsText, planJson,
 * requestJson, planText, requestText, textOnly, why, coreLine }`.
 * - `plan`, `request`, `expect`: JSON.parse of the line's members;
 * - `planJson`, `requestJson`: the members' compact JSON text as written (a text plan's is its
 *   JSON string literal);
 * - `planText`: the plan as text for a surface (a text plan's string itself, else `planJson`);
 *   `requestText` is `requestJson`;
 * - `textOnly`: whether a JS surface must send plan and request as text; `why` says why (null
 *   when not text-only);
 * - `coreLine`: `{"plan":…,"request":…}` for the core's lines drivers.
 * Throws on a line without `plan` or `request`.
 */
function readVectors(file) {
  return vectorLines(file).map((line) => {
    const v = JSON.parse(line);
    const raw = rawMembers(line);
    if (raw.plan === undefined || raw.request === undefined) throw new Error(`${v.id}: plan or request not found in the line`);
    const planJson = compactText(raw.plan);
    const requestJson = compactText(raw.request);
    const planIsText = typeof v.plan === 'string';
    const why = needsText(raw.plan) ?? needsText(raw.request);
    return {
      id: v.id,
      expect: v.expect,
      plan: v.plan,
      request: v.request,
      planIsText,
      planJson,
      requestJson,
      planText: planIsText ? v.plan : planJson,
      requestText: requestJson,
      textOnly: why !== null,
      why,
      coreLine: `{"plan":${planJson},"request":${requestJson}}`,
    };
  });
}

/** The README's own count of text-only object vectors ("N of the M object vectors"), or null. */
function readmeTextOnlyCount() {
  const readme = fs.readFileSync(path.join(VECTORS, 'README.md'), 'utf8');
  const m = /(\d[\d,]*) of the (\d[\d,]*) object vectors/.exec(readme);
  return m ? { textOnly: Number(m[1].replace(/,/g, '')), objects: Number(m[2].replace(/,/g, '')) } : null;
}

/**
 * The differences between a verdict and a vector's `expect` (empty when it agrees): key order of
 * the verdict and of each issue, `valid`, the ordered (code, path) pairs of errors and warnings,
 * non-empty messages, `checks`.
 */
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

/**
 * `[code, output]` of each fenced block of language `lang` in `markdown` (a README) and the
 * ```text block right after it (its printed output); throws when such a block has no output
 * block after it. The README tests (bindings-node, bindings-wasm) run each code block and
 * compare what it prints with the output block.
 */
function readmeExamples(markdown, lang) {
  const blocks = [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]);
  const out = [];
  blocks.forEach(([l, body], i) => {
    if (l !== lang) return;
    const next = blocks[i + 1];
    if (!next || next[0] !== 'text') throw new Error(`README: the ${lang} block ${out.length + 1} is not followed by its output (a text block)`);
    out.push([body, next[1]]);
  });
  return out;
}

module.exports = {
  readmeExamples,
  ROOT,
  SHARED,
  VECTORS,
  EXAMPLES,
  VECTOR_FLOOR,
  vectorFiles,
  vectorLines,
  exampleText,
  example,
  skipValue,
  rawMembers,
  numberNeedsText,
  isIndexKey,
  needsText,
  compactText,
  readVectors,
  readmeTextOnlyCount,
  compare,
};
