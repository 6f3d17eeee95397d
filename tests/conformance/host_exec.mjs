// The harness of the host-object cases (host_cases.mjs), the same in Node and in a browser page:
// builds each case's values and hands them to a package's validatePlan, and records the outcome
// as plain data:
//   {verdict: "<JSON.stringify of the verdict>"}   or
//   {error: {class, message, path, argument, kind}} (null when the error has no such property)
// No imports of Node modules: the caller passes the example's text and another realm's globals.

import { CASES } from './host_cases.mjs';

/**
 * The harness object a case's build(h)/core(h) gets.
 * @param {{planText: string, requestText: string, foreign: object, Buffer: Function}} env
 */
export function harness(env) {
  const plan0 = JSON.parse(env.planText);
  const request0 = JSON.parse(env.requestText);
  return {
    planText: env.planText,
    requestText: env.requestText,
    foreign: env.foreign,
    Buffer: env.Buffer,
    plan: () => structuredClone(plan0),
    request: () => structuredClone(request0),
    /** {plan, request}: fresh copies, the plan edited in place by `edit(plan)`. */
    withPlan(edit) {
      return this.withBoth((plan) => edit(plan));
    },
    /** {plan, request}: fresh copies, the request edited in place by `edit(request)`. */
    withRequest(edit) {
      return this.withBoth((_, request) => edit(request));
    },
    /** {plan, request}: fresh copies, edited in place by `edit(plan, request)`. */
    withBoth(edit) {
      const pair = { plan: structuredClone(plan0), request: structuredClone(request0) };
      edit(pair.plan, pair.request);
      return pair;
    },
    /** The example's own text, plan and request. */
    example() {
      return { plan: env.planText, request: env.requestText };
    },
    /** A {plan, request} pair as compact JSON text (a string stays as it is), `literals` as in json. */
    text(pair, literals = {}) {
      const t = (v) => (typeof v === 'string' ? v : this.json(v, literals));
      return { plan: t(pair.plan), request: t(pair.request) };
    },
    /** The example as text, the plan edited by `edit(plan)` first. */
    planTextWith(edit, literals = {}) {
      return this.text(this.withPlan(edit), literals);
    },
    /** Compact JSON text of `value`, each string member equal to a key of `literals` written as
     * that literal (a number JSON.stringify cannot write, e.g. 9007199254740992.0). */
    json(value, literals = {}) {
      let text = JSON.stringify(value);
      for (const [placeholder, literal] of Object.entries(literals)) {
        text = text.split(JSON.stringify(placeholder)).join(literal);
      }
      return text;
    },
    /** `n` nested arrays around `leaf`: nest(2, 0) is [[0]]. */
    nest(n, leaf) {
      let v = leaf;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    },
  };
}

/** The outcome of one call: a verdict's bytes, or an error's class, message, path and argument. */
export function outcome(call) {
  try {
    const verdict = call();
    return { verdict: JSON.stringify(verdict) };
  } catch (e) {
    const isObject = e !== null && (typeof e === 'object' || typeof e === 'function');
    return {
      error: {
        class: isObject && typeof e.name === 'string' ? e.name : typeof e,
        message: isObject ? String(e.message) : String(e),
        path: isObject && e.path !== undefined ? String(e.path) : null,
        argument: isObject && e.argument !== undefined ? String(e.argument) : null,
        kind: isObject && e.kind !== undefined ? String(e.kind) : null,
      },
    };
  }
}

/** Runs every case (or those in `only`) through `validatePlan`; [{id, outcome, ms}]. */
export function runCases(validatePlan, env, only = null) {
  const h = harness(env);
  const results = [];
  for (const c of CASES) {
    if ((only && !only.includes(c.id)) || !c.build) continue; // no build: a Python-only case
    let built;
    try {
      built = c.build(h);
    } catch (e) {
      results.push({ id: c.id, outcome: { build_failed: String(e && e.stack ? e.stack : e) } });
      continue;
    }
    const t0 = Date.now();
    let got;
    try {
      built.setup?.();
      got = outcome(() => validatePlan(built.plan, built.request));
    } finally {
      built.teardown?.();
    }
    results.push({ id: c.id, outcome: got, ms: Date.now() - t0 });
  }
  return results;
}

/** Every case's metadata and its core text pair (for `validate --lines`), as plain data. */
export function describeCases(env) {
  const h = harness(env);
  return CASES.map((c) => ({
    id: c.id,
    where: c.where,
    what: c.what,
    expect: c.expect ?? null,
    noPython: c.noPython ?? null,
    noJs: c.build ? null : (c.noJs ?? 'no build'),
    pythonMessage: c.pythonMessage ?? null,
    core: c.core ? c.core(h) : null,
  }));
}
