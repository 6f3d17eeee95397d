// A usage file type-checked with `tsc --noEmit --strict` (test/types.test.mjs): the public types
// are precise (no `any`) and reject what they should.
import { validatePlan, getPlanContract } from '../../index.js'
import type { Verdict, Issue, IssueCode, CheckName, Contract, CategoryId, Weekday, JsonText } from '../../index.js'

const request = { requestId: 'r1', kind: 'routine' }
const verdict: Verdict = validatePlan({ format: 'daily-momentum-ai-plan' }, request)
const fromText: Verdict = validatePlan('{"format": 1}', JSON.stringify(request))
// JSON text as UTF-8 bytes (JsonText): a Uint8Array (a Buffer is one), an ArrayBuffer, a DataView
const utf8: JsonText = new TextEncoder().encode('{"format": 1}')
const fromBytes: Verdict = validatePlan(utf8, new TextEncoder().encode(JSON.stringify(request)))
const fromBuffer: Verdict = validatePlan(new ArrayBuffer(2), new DataView(new ArrayBuffer(2)))
const valid: boolean = verdict.valid && fromText.valid
const issues: Issue[] = [...verdict.errors, ...verdict.warnings]
const checks: CheckName[] = verdict.checks

function advice(code: IssueCode): string {
  switch (code) {
    case 'overlap':
      return 'move a block'
    case 'commitment':
      return 'respect a commitment'
    case 'notSaved':
      return 'saving was refused'
    default:
      return code
  }
}
const messages: string[] = issues.map((i) => `${i.path}: ${i.message} (${advice(i.code)})`)

const contract: Contract = getPlanContract()
const format: 'daily-momentum-ai-plan' = contract.format
const version: 1 = contract.contractVersion
const bytes: number = contract.limits.payloadBytes
const categories: CategoryId[] = contract.categories.map((c) => c.id)
const days: readonly Weekday[] = contract.weekdays

// @ts-expect-error: not an issue code
const notACode: IssueCode = 'overlapping'
// @ts-expect-error: not a check
const notACheck: CheckName = 'fields-and-more'
// @ts-expect-error: not a category
const notACategory: CategoryId = 'food'
// @ts-expect-error: no such limit
const noLimit: number = contract.limits.blocksPerWeek
// @ts-expect-error: a number is neither a plan object nor plan text
validatePlan(5, request)
// @ts-expect-error: the request is required
validatePlan('{}')
// @ts-expect-error: a verdict's code is not any string
const s: 'x' = verdict.errors[0].code

export { valid, checks, messages, format, version, bytes, categories, days, notACode, notACheck, notACategory, noLimit, s }

// Repair and schema (validator.md §9).
import { repairPlan, planSchema } from '../../index.js'
import type { Repair, Fix, Applicability, RepairStop, PatchOperation, SchemaVariant, PlanSchema } from '../../index.js'
const repaired: Repair = repairPlan('{"format": "x"}', request, { unsafe: true })
const fixes: Fix[] = [...repaired.applied, ...repaired.offered]
const grades: Applicability[] = fixes.map((f) => f.applicability)
const stop: RepairStop = repaired.stopped
const ops: PatchOperation[] = repaired.patch
const firstOp: string = ops[0]?.op ?? 'none'
const repairedText: string = repaired.plan
const stillValid: boolean = repaired.verdict.valid && repaired.requestAtFault.length === 0
const variant: SchemaVariant = 'strict'
const schema: PlanSchema = planSchema(request, variant)
const draft2020: string = schema.$schema
const defaultSchema: PlanSchema = planSchema(JSON.stringify(request))
// @ts-expect-error not a schema variant
planSchema(request, 'loose')
// @ts-expect-error unsafe is a boolean
repairPlan({}, request, { unsafe: 'yes' })
// @ts-expect-error not an applicability
const wrongGrade: Applicability = 'maybe'
void [fixes, grades, stop, firstOp, repairedText, stillValid, draft2020, defaultSchema, wrongGrade]

// A plan validated as it streams (validator.md §10).
import { PlanStream, streamPlan } from '../../index.js'
import type { PlanChunk, ReadableChunks } from '../../index.js'
const stream = new PlanStream(request)
const settled: Issue[] = stream.push('{"format": "momentum-plan"')
const settledFromBytes: Issue[] = stream.push(new Uint8Array([44]))
const streamed: Verdict = stream.finish()
const repeated: boolean = stream.repeatedName
const pushed: number = stream.length
const chunk: PlanChunk = new ArrayBuffer(0)
async function firstIssue(chunks: AsyncIterable<string>): Promise<Issue | undefined> {
  for await (const issue of streamPlan(new PlanStream(request), chunks)) return issue
  return undefined
}
const fromArray: AsyncGenerator<Issue, void, undefined> = streamPlan(new PlanStream(request), ['{', '}'])
declare const readable: ReadableChunks
const fromReadable: AsyncGenerator<Issue> = streamPlan(new PlanStream(JSON.stringify(request)), readable)
// @ts-expect-error a chunk is text or bytes
stream.push(42)
// @ts-expect-error repeatedName is read-only
stream.repeatedName = true
void [settled, settledFromBytes, streamed, repeated, pushed, chunk, firstIssue, fromArray, fromReadable]

// The calendar (issue 32): a calendar or the verdict of an invalid plan, told apart by `text`.
import { planToIcalendar, commitmentsFromIcalendar } from '../../index.js'
import type { CalendarExport, CalendarWarning, CalendarCommitments, Commitment, SkippedEvent } from '../../index.js'
const exported: CalendarExport | Verdict = planToIcalendar({ format: 'daily-momentum-ai-plan' }, request, '20261207T120000Z')
const icsText: string | null = 'text' in exported ? exported.text : null
const dstWarnings: CalendarWarning[] = 'text' in exported ? exported.warnings : []
const week: CalendarCommitments = commitmentsFromIcalendar('BEGIN:VCALENDAR', '2026-10-05', 'Europe/Zurich')
const firstCommitment: Commitment | undefined = week.commitments[0]
const commitmentDays: Weekday[] = week.commitments.flatMap((c) => c.days)
const leftOut: SkippedEvent[] = week.skipped
// @ts-expect-error dtstamp is a string
planToIcalendar({}, request, 20261207)
void [icsText, dstWarnings, firstCommitment, commitmentDays, leftOut]
