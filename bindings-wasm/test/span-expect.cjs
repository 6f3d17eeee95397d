'use strict';
// The span a value should have in text written by JSON.stringify(value, null, 2), found without
// the core: the value at the path is replaced by a unique string, the object is written again,
// and the sentinel's place in that text is the value's place in the original (everything before
// it is written the same); its end follows from the difference in length. Offsets are JS string
// indices (UTF-16 code units); line and column are counted here from the offset (1-based, the
// column in code points, as validator.md §7 counts characters).

const SENTINEL = '@@span-sentinel@@';

/** The segments of a simple JSONPath (`$.a.b[2].c`: plain member names and indices only). */
function segmentsOf(path) {
  const out = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/gy;
  re.lastIndex = 1;
  if (path[0] !== '$') throw new Error(`not a path: ${path}`);
  let m;
  while (re.lastIndex < path.length && (m = re.exec(path))) out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  if (re.lastIndex !== path.length && path.length > 1) throw new Error(`not a simple path: ${path}`);
  return out;
}

function position(text, offset) {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: [...before.slice(lineStart)].length + 1, offset };
}

/** `{start, end}` of the value at `segments` in `text` (which must be JSON.stringify(v, null, 2)). */
function expectedSpan(text, segments) {
  const value = JSON.parse(text);
  if (JSON.stringify(value, null, 2) !== text) throw new Error('the text is not written as JSON.stringify(v, null, 2)');
  if (segments.length === 0) return { start: position(text, 0), end: position(text, text.length) };
  const copy = JSON.parse(text);
  let parent = copy;
  for (const s of segments.slice(0, -1)) parent = parent[s];
  const last = segments[segments.length - 1];
  if (!(last in parent)) throw new Error(`no value at ${segments.join('/')}`);
  parent[last] = SENTINEL;
  const replaced = JSON.stringify(copy, null, 2);
  const quoted = JSON.stringify(SENTINEL);
  const start = replaced.indexOf(quoted);
  if (start < 0 || replaced.indexOf(quoted, start + 1) >= 0) throw new Error('the sentinel is not unique');
  const end = start + quoted.length + (text.length - replaced.length);
  return { start: position(text, start), end: position(text, end) };
}

module.exports = { expectedSpan, segmentsOf, position };
