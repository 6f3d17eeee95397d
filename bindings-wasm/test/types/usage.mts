// Type-checked by test/api.test.cjs with `tsc --strict --noEmit`: how an app uses the package,
// and what the types forbid.
import { validatePlan, getPlanContract } from 'momentum-plan-wasm';
import type { Verdict, Issue, IssueCode, CheckName, Contract, CategoryId, Weekday, JsonText } from 'momentum-plan-wasm';
import init, { initSync, validatePlan as validateInBrowser } from 'momentum-plan-wasm/web';

const verdict: Verdict = validatePlan({ format: 'daily-momentum-ai-plan' }, '{"requestId": "r"}');
// JSON text as UTF-8 bytes (JsonText)
const bytes: JsonText = new TextEncoder().encode('{}');
const fromBytes: Verdict = validatePlan(bytes, new DataView(new ArrayBuffer(2)));
const fromBuffer: Verdict = validatePlan(new ArrayBuffer(2), '{}');
const first: Issue | undefined = verdict.errors[0];
const code: IssueCode | undefined = first?.code;
const checks: CheckName[] = verdict.checks;
const ok: boolean = verdict.valid && verdict.warnings.every((w) => w.message.length > 0);

function describe(c: IssueCode): string {
  switch (c) {
    case 'overlap':
      return 'two blocks overlap';
    case 'commitment':
      return 'a block sits on a commitment';
    default:
      return c;
  }
}

const contract: Contract = getPlanContract();
const format: 'daily-momentum-ai-plan' = contract.format;
const version: 1 = contract.contractVersion;
const category: CategoryId = contract.categories[0].id;
const day: Weekday = contract.weekdays[0];
const limit: number = contract.limits.blocksPerDay;

// @ts-expect-error not an issue code
const wrong: IssueCode = 'nope';
// @ts-expect-error a plan is an object or JSON text
validatePlan(42, {});
// @ts-expect-error the verdict has no such member
verdict.score;
// @ts-expect-error not a category id
const badCategory: CategoryId = 'food';

async function inBrowser(bytes: BufferSource): Promise<Verdict> {
  initSync({ module: bytes });
  await init();
  return validateInBrowser('{}', {});
}

export { code, checks, ok, describe, format, version, category, day, limit, wrong, badCategory, inBrowser };

// Repair and schema (validator.md §9).
import { repairPlan, planSchema } from 'momentum-plan-wasm';
import type { Repair, Fix, Applicability, RepairStop, PatchOperation, SchemaVariant, PlanSchema } from 'momentum-plan-wasm';
import { repairPlan as repairInBrowser, planSchema as schemaInBrowser } from 'momentum-plan-wasm/web';
const repaired: Repair = repairPlan('{"format": "x"}', '{"requestId": "r"}', { unsafe: true });
const fixes: Fix[] = [...repaired.applied, ...repaired.offered];
const grades: Applicability[] = fixes.map((f) => f.applicability);
const stop: RepairStop = repaired.stopped;
const ops: PatchOperation[] = repaired.patch;
const firstOp: string = ops[0]?.op ?? 'none';
const stillValid: boolean = repaired.verdict.valid && repaired.requestAtFault.length === 0;
const variant: SchemaVariant = 'strict';
const schema: PlanSchema = planSchema({ requestId: 'r', kind: 'routine' }, variant);
const draft2020: string = schema.$schema;
const repairedInBrowser: Repair = repairInBrowser({}, {});
const schemaInPage: PlanSchema = schemaInBrowser('{}');
// @ts-expect-error not a schema variant
planSchema({}, 'loose');
// @ts-expect-error unsafe is a boolean
repairPlan({}, {}, { unsafe: 'yes' });
// @ts-expect-error not an applicability
const wrongGrade: Applicability = 'maybe';
void [fixes, grades, stop, firstOp, stillValid, draft2020, repairedInBrowser, schemaInPage, wrongGrade];

// Where an issue's value is in the plan's text.
import { valueSpan } from 'momentum-plan-wasm';
import type { ValueSpan, TextPosition } from 'momentum-plan-wasm';
import { valueSpan as spanInBrowser } from 'momentum-plan-wasm/web';
const span: ValueSpan | null = valueSpan('{"a": 1}', '$.a');
const from: TextPosition | undefined = span?.start;
const range: [number, number] | null = span && [span.start.offset, span.end.offset];
const deepest: string | undefined = span?.missing ? span.found : undefined;
// @ts-expect-error the result may be null
const line: number = valueSpan('{}', '$').start.line;
// @ts-expect-error a path is a string
spanInBrowser('{}', ['a']);
void [from, range, deepest, line];

// A plan validated as it streams (validator.md §10), in Node and in the browser build.
import { PlanStream, streamPlan } from 'momentum-plan-wasm';
import type { PlanChunk } from 'momentum-plan-wasm';
import { PlanStream as BrowserStream, streamPlan as streamInBrowser } from 'momentum-plan-wasm/web';
const stream = new PlanStream('{"requestId": "r", "kind": "routine"}');
const settled: Issue[] = stream.push('{"format": "momentum-plan"');
const streamed: Verdict = stream.finish();
const repeated: boolean = stream.repeatedName;
const chunk: PlanChunk = new TextEncoder().encode('{');
const page = new BrowserStream({ requestId: 'r', kind: 'routine' });
declare const body: ReadableStream<Uint8Array>;
const fromFetch: AsyncGenerator<Issue, void, undefined> = streamInBrowser(page, body);
const fromDeltas: AsyncGenerator<Issue> = streamPlan(stream, (async function* () { yield '{'; })());
// @ts-expect-error a chunk is text or bytes
stream.push(42);
void [settled, streamed, repeated, chunk, fromFetch, fromDeltas];

// The second module (issue 32): load() in both builds, as init() takes its input in the web one.
import { load } from 'momentum-plan-wasm';
import { load as loadInBrowser } from 'momentum-plan-wasm/web';
import type { LoadInput } from 'momentum-plan-wasm/web';
async function withExtras(bytes: BufferSource): Promise<PlanStream> {
  await load();
  await loadInBrowser();
  await loadInBrowser({ module_or_path: bytes });
  const input: LoadInput = new URL('https://example.invalid/momentum_plan_wasm_extras_bg.wasm');
  await loadInBrowser(input);
  // @ts-expect-error load() resolves to nothing
  const nothing: number = await loadInBrowser();
  void nothing;
  return new PlanStream('{}');
}
void withExtras;

// The calendar module (issue 32): loadCalendar() as load(), the functions and their types as the
// Node package's (js/calendar.d.ts).
import { loadCalendar, planToIcalendar, commitmentsFromIcalendar } from 'momentum-plan-wasm';
import { loadCalendar as loadCalendarInBrowser, planToIcalendar as exportInBrowser } from 'momentum-plan-wasm/web';
import type { CalendarExport, CalendarWarning, CalendarCommitments, Commitment, SkippedEvent } from 'momentum-plan-wasm';
async function withCalendar(bytes: BufferSource): Promise<string> {
  await loadCalendar();
  await loadCalendarInBrowser({ module_or_path: bytes });
  const x: CalendarExport | Verdict = exportInBrowser('{}', { requestId: 'r', startDate: '2026-10-05' }, '20261207T120000Z');
  const warnings: CalendarWarning[] = 'text' in x ? x.warnings : [];
  const week: CalendarCommitments = commitmentsFromIcalendar('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', '2026-10-05', 'Europe/Zurich');
  const first: Commitment | undefined = week.commitments[0];
  const days: Weekday[] = first?.days ?? [];
  const left: SkippedEvent[] = week.skipped;
  // @ts-expect-error the dtstamp is a string
  planToIcalendar('{}', '{}', 20261207);
  // @ts-expect-error the calendar text is a string
  commitmentsFromIcalendar(new Uint8Array(1), '2026-10-05', 'Europe/Zurich');
  void [warnings, days, left];
  return 'text' in x ? x.text : '';
}
void withCalendar;
