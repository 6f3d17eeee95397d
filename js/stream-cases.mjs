// The PlanStream checks of both JS packages (bindings-node/test/stream.test.mjs,
// bindings-wasm/test/stream.test.mjs), validator.md §10: every shared vector's plan text pushed in
// seeded random chunkings (strings split at any UTF-16 index, so inside surrogate pairs too; UTF-8
// bytes split at any byte, so inside UTF-8 sequences; one two-way split at a random byte), and for
// each run:
// - every issue settled at any push is in the final verdict (same code, path and message), unless a
//   member name repeated or the text is not JSON (then no completion is the text itself);
// - a settled issue is one of the verdict's warnings exactly when `isWarning(code)` says so (how a
//   host tells them apart without the verdict);
// - finish() deep-equals validatePlan of the same text;
// - the issues of each push, the repeated-name flag and the verdict equal what the core's own
//   PlanStream gives for the same bytes in the same chunks (its lines driver
//   `target/release/examples/validate --stream`, core/examples/validate.rs).
// Nothing expected is copied here: the vectors are read at test time and the core says what must
// come out. Then the helper streamPlan over an async generator and a ReadableStream, and the errors.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The core's lines driver, built by `cargo build --release -p momentum-plan --example validate`. */
export function streamDriverPath(targetDir) {
  return join(targetDir, 'release', 'examples', 'validate');
}

/** A seeded generator of integers in [lo, hi] (mulberry32): the same chunkings on every run. */
export function seeded(seed) {
  let a = seed >>> 0;
  return (lo, hi) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return lo + Math.floor(x * (hi - lo + 1));
  };
}

/** `data` (a string or a Uint8Array) cut into pieces of 1..`most` units at random. */
export function randomChunks(data, rand, most = 64) {
  const out = [];
  for (let i = 0; i < data.length; ) {
    const n = rand(1, most);
    out.push(data.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Pushes `chunks` into a new stream: `{ pushes, sizes, repeated, verdict }`, `sizes` the bytes each
 * push took in (read from `stream.length`). */
export function runStream(PlanStream, request, chunks) {
  const stream = new PlanStream(request);
  const pushes = [];
  const sizes = [];
  let before = 0;
  for (const c of chunks) {
    pushes.push(stream.push(c));
    sizes.push(stream.length - before);
    before = stream.length;
  }
  const repeated = stream.repeatedName;
  return { pushes, sizes, repeated, verdict: stream.finish() };
}

const key = (i) => `${i.code}\u0000${i.path}\u0000${i.message}`;

/**
 * Every vector of `vectors` (js/testkit.cjs readVectors) through `PlanStream` in three chunkings,
 * checked as the header says against `validatePlan` and the core's driver. Returns the failures
 * (empty when all hold); adds to `totals` ({ runs, pushes, settled, warnings }).
 */
export function streamVectors({ PlanStream, validatePlan, isWarning, driver, vectors, rand, totals }) {
  if (!existsSync(driver)) throw new Error(`${driver} is missing: cargo build --release -p momentum-plan --example validate`);
  const failures = [];
  const lines = [];
  const runs = [];
  for (const v of vectors) {
    const text = v.planText;
    const request = v.textOnly ? v.requestText : v.request;
    const want = validatePlan(text, request);
    const issues = new Set([...want.errors, ...want.warnings].map(key));
    const warnings = new Set(want.warnings.map(key));
    const notJson = want.errors.some((e) => e.code === 'json');
    const bytes = new TextEncoder().encode(text);
    const cut = rand(0, bytes.length);
    const chunkings = [
      ['string', randomChunks(text, rand)],
      ['bytes', randomChunks(bytes, rand)],
      ['two', [bytes.subarray(0, cut), bytes.subarray(cut)]],
    ];
    for (const [how, chunks] of chunkings) {
      let run;
      try {
        run = runStream(PlanStream, request, chunks);
      } catch (e) {
        failures.push(`${v.id} (${how}): threw ${e}`);
        continue;
      }
      totals.runs++;
      totals.pushes += chunks.length;
      const settled = run.pushes.flat();
      totals.settled += settled.length;
      if (!run.repeated && !notJson) {
        const stray = settled.filter((i) => !issues.has(key(i)));
        if (stray.length) failures.push(`${v.id} (${how}): settled but not in the verdict: ${JSON.stringify(stray)}`);
        const misread = settled.filter((i) => isWarning(i.code) !== warnings.has(key(i)));
        if (misread.length) failures.push(`${v.id} (${how}): isWarning disagrees with the verdict on ${JSON.stringify(misread)}`);
        totals.warnings += settled.filter((i) => warnings.has(key(i))).length;
      }
      if (JSON.stringify(run.verdict) !== JSON.stringify(want)) {
        failures.push(`${v.id} (${how}): finish() ${JSON.stringify(run.verdict)}, validatePlan ${JSON.stringify(want)}`);
      }
      lines.push(`{"plan":${JSON.stringify(text)},"request":${v.requestJson},"chunks":${JSON.stringify(run.sizes)}}`);
      runs.push([v.id, how, run]);
    }
  }
  const core = runStreamDriver(driver, lines);
  runs.forEach(([id, how, run], i) => {
    const c = JSON.parse(core[i]);
    const got = { pushes: run.pushes, repeatedName: run.repeated, verdict: run.verdict };
    if (JSON.stringify(got) !== JSON.stringify(c)) {
      failures.push(`${id} (${how}): differs from the core's PlanStream:\n  got  ${JSON.stringify(got).slice(0, 600)}\n  core ${core[i].slice(0, 600)}`);
    }
  });
  return failures;
}

/** The driver's answer lines for `lines` (`validate --stream`), in order. */
export function runStreamDriver(driver, lines) {
  const r = spawnSync(driver, ['--stream'], { input: `${lines.join('\n')}\n`, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`validate --stream exited ${r.status}: ${r.stderr}`);
  const out = r.stdout.split('\n').filter((l) => l !== '');
  if (out.length !== lines.length) throw new Error(`validate --stream: ${out.length} answers for ${lines.length} lines`);
  return out;
}

/**
 * The helper and the errors, as `[name, check]` pairs for node:test. `api`: the package's
 * `{ PlanStream, streamPlan, validatePlan }`; `example`: `{ text, request }` of an invalid plan.
 */
export function streamCases({ PlanStream, streamPlan, validatePlan }, { text, request }, assert) {
  const parts = [];
  for (let i = 0; i < text.length; i += 16) parts.push(text.slice(i, i + 16));
  const direct = () => {
    const s = new PlanStream(request);
    return [parts.flatMap((p) => s.push(p)), s.finish()];
  };
  const collect = async (iterable) => {
    const out = [];
    for await (const issue of iterable) out.push(issue);
    return out;
  };
  return [
    [
      'streamPlan over an async generator, an array and a ReadableStream yields what push settles',
      async () => {
        const [want, verdict] = direct();
        assert.ok(want.length >= 2, 'the example settles issues while it streams');
        async function* deltas() {
          for (const p of parts) yield p;
        }
        const bytes = parts.map((p) => new TextEncoder().encode(p));
        // a ReadableStream, and one that only gives a reader (no async iteration, as in Safari)
        for (const source of [deltas(), parts, readable(parts), readable(bytes), readerOnly(readable(bytes))]) {
          const s = new PlanStream(request);
          assert.deepEqual(await collect(streamPlan(s, source)), want);
          assert.deepEqual(s.finish(), verdict);
        }
      },
    ],
    [
      'streamPlan stops where the caller stops, and cancels a ReadableStream',
      async () => {
        const [want] = direct();
        for (const wrap of [(r) => r, readerOnly]) {
          let cancelled = false;
          const source = new ReadableStream({
            start(c) {
              for (const p of parts) c.enqueue(p);
              c.close();
            },
            cancel() {
              cancelled = true;
            },
          });
          const s = new PlanStream(request);
          for await (const issue of streamPlan(s, wrap(source))) {
            assert.deepEqual(issue, want[0]);
            break;
          }
          assert.ok(cancelled, 'the source was cancelled');
          assert.ok(s.length < new TextEncoder().encode(text).length, 'the rest was never pushed');
          assert.equal(s.finish().valid, false);
        }
      },
    ],
    [
      'finish() is validatePlan of the text, whole or cut short',
      () => {
        const [, verdict] = direct();
        assert.deepEqual(verdict, validatePlan(text, request));
        const s = new PlanStream(JSON.stringify(request));
        s.push(text.slice(0, 100));
        const cut = s.finish();
        assert.deepEqual(cut, validatePlan(text.slice(0, 100), request));
        assert.equal(cut.errors[0].code, 'json');
        assert.match(cut.errors[0].message, /end/);
      },
    ],
    [
      'chunks of every byte form, split inside UTF-8 sequences and surrogate pairs, read as one text',
      () => {
        const plan = '{"format": "\u00e9\u{1F600}\u00e9", "kind": "goal"';
        const whole = validatePlan(plan + '}', request);
        const bytes = new TextEncoder().encode(plan);
        const at = plan.indexOf('\u{1F600}') + 1; // between the two halves of the pair
        const s = new PlanStream(request);
        s.push(plan.slice(0, at));
        s.push(new String(plan.slice(at, at + 3)));
        const rest = bytes.slice(new TextEncoder().encode(plan.slice(0, at + 3)).length);
        s.push(rest.buffer.slice(0, 1));
        s.push(Buffer.from(rest.subarray(1, 2)));
        s.push(new DataView(rest.buffer, 2));
        s.push(new Int8Array([125]));
        assert.equal(s.length, bytes.length + 1);
        assert.deepEqual(s.finish(), whole);
      },
    ],
    [
      'bad calls throw clear errors',
      () => {
        const s = new PlanStream(request);
        assert.throws(() => s.push(3), { name: 'TypeError', message: /string or UTF-8 bytes .*not a number/ });
        assert.throws(() => s.push(null), { name: 'TypeError', message: /not null/ });
        assert.throws(() => s.push(new Uint16Array(2)), { name: 'TypeError', message: /not an object/ });
        assert.throws(() => s.push('a\udc00'), { name: 'TypeError', message: /lone surrogate/ });
        assert.deepEqual(s.push('\ud83d'), []); // a high surrogate waits for its pair
        assert.throws(() => s.push(new Uint8Array([32])), { name: 'TypeError', message: /lone surrogate/ });
        assert.throws(() => s.finish(), { name: 'TypeError', message: /lone surrogate/ });
        assert.equal(s.length, 0);
        s.push('\ude00');
        assert.equal(s.length, 4);
        assert.equal(s.finish().errors[0].code, 'json');
        assert.throws(() => s.push('}'), { name: 'Error', message: 'PlanStream: finish() has already given the verdict; start a new PlanStream' });
        assert.throws(() => s.finish(), { name: 'Error', message: /already given the verdict/ });
        assert.equal(s.repeatedName, false);
        assert.throws(() => new PlanStream('{'), (e) => e instanceof SyntaxError && e.argument === 'request' && /^request is not JSON/.test(e.message));
        assert.throws(() => new PlanStream(new Uint8Array([0xff])), { name: 'SyntaxError' });
        assert.throws(() => new PlanStream({ a: () => 1 }), (e) => e instanceof TypeError && e.argument === 'request' && e.path === '$.a');
      },
    ],
    [
      'a repeated member name stops settling; finish still judges',
      () => {
        const s = new PlanStream(request);
        assert.deepEqual(s.push('{"name": "a", "name": "b"'), []);
        assert.equal(s.repeatedName, true);
        assert.deepEqual(s.push(', "format": 1}'), []);
        assert.deepEqual(s.finish(), validatePlan('{"name": "a", "name": "b", "format": 1}', request));
      },
    ],
  ];
}

/** Only the reader of a ReadableStream: what streamPlan reads where a stream is not async
 * iterable. */
function readerOnly(stream) {
  return { getReader: () => stream.getReader() };
}

/** A ReadableStream of `chunks`. */
function readable(chunks) {
  return new ReadableStream({
    start(c) {
      for (const p of chunks) c.enqueue(p);
      c.close();
    },
  });
}
