// Reading vector lines without losing what JSON.parse would change: the raw text of each
// top-level member of a line, and the test for "JavaScript cannot carry this as an object"
// (shared/vectors/README.md, "How to use them").

const WS = new Set([' ', '\t', '\n', '\r'])

function skipWs(s, i) {
  while (i < s.length && WS.has(s[i])) i++
  return i
}

/** End (exclusive) of the JSON string token starting at s[i] === '"'. */
function skipString(s, i) {
  i++
  while (s[i] !== '"') i += s[i] === '\\' ? 2 : 1
  return i + 1
}

/** End (exclusive) of the JSON value starting at s[i]. */
export function skipValue(s, i) {
  const c = s[i]
  if (c === '"') return skipString(s, i)
  if (c === '{' || c === '[') {
    let depth = 0
    for (;;) {
      const d = s[i]
      if (d === '"') {
        i = skipString(s, i)
        continue
      }
      if (d === '{' || d === '[') depth++
      else if (d === '}' || d === ']') {
        depth--
        if (depth === 0) return i + 1
      }
      i++
    }
  }
  // number or literal
  while (i < s.length && !',]} \t\n\r'.includes(s[i])) i++
  return i
}

/** The raw text of every top-level member of the JSON object `line`: { name: text }. */
export function rawMembers(line) {
  const out = {}
  let i = skipWs(line, 0)
  if (line[i] !== '{') throw new Error('not an object line')
  i = skipWs(line, i + 1)
  while (line[i] !== '}') {
    const kEnd = skipString(line, i)
    const name = JSON.parse(line.slice(i, kEnd))
    i = skipWs(line, kEnd)
    if (line[i] !== ':') throw new Error('expected :')
    i = skipWs(line, i + 1)
    const vEnd = skipValue(line, i)
    out[name] = line.slice(i, vEnd)
    i = skipWs(line, vEnd)
    if (line[i] === ',') i = skipWs(line, i + 1)
  }
  return out
}

const MAX_SAFE = 2n ** 53n - 1n
const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/**
 * Whether JSON.parse would change this number literal's meaning for the validator: a whole
 * number written with a fraction or exponent (`30.0`, `1e3`, `1.5e1`), or an integer beyond
 * ±(2^53−1).
 */
export function numberNeedsText(lit) {
  const m = NUMBER.exec(lit)
  if (!m) throw new Error(`not a number literal: ${lit}`)
  const [, int, frac, exp] = m
  if (frac === undefined && exp === undefined) {
    const n = BigInt(lit)
    return n > MAX_SAFE || n < -MAX_SAFE
  }
  const digits = int + (frac ?? '')
  const point = int.length + Number(exp ?? 0)
  const after = point <= 0 ? digits : digits.slice(point)
  return /^0*$/.test(after)
}

const INDEX_KEY = /^(?:0|[1-9]\d*)$/

/** Whether a member name is an array index, which JS objects move first. */
export function isIndexKey(name) {
  return INDEX_KEY.test(name) && Number(name) < 2 ** 32 - 1
}

/**
 * Why the JSON value `text` cannot travel as a JS object (null when it can): the first number
 * literal or member name of the kinds above, found by scanning the raw text.
 */
export function needsText(text) {
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text[i]
    if (c === '"') {
      const end = skipString(text, i)
      const j = skipWs(text, end)
      if (text[j] === ':') {
        const name = JSON.parse(text.slice(i, end))
        if (isIndexKey(name)) return `member name ${JSON.stringify(name)}`
      }
      i = end
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const end = skipValue(text, i)
      const lit = text.slice(i, end)
      if (numberNeedsText(lit)) return `number ${lit.length > 30 ? `${lit.slice(0, 30)}…` : lit}`
      i = end
    } else {
      i++
    }
  }
  return null
}

/**
 * The compact JSON text of an object member's raw text as the README defines it (non-ASCII raw):
 * the lines escape U+0085, U+2028 and U+2029, which compact text writes raw.
 */
export function compactText(raw) {
  return raw.replace(/\\(\\|u(?:0085|2028|2029))/g, (m, g) => (g === '\\' ? m : String.fromCharCode(parseInt(g.slice(1), 16))))
}
