// tsc --strict against the installed packages' types: must pass.
import { validatePlan, type Verdict, type Issue } from 'momentum-plan-node'
import { validatePlan as wasmValidate, type Verdict as WasmVerdict } from 'momentum-plan-wasm'
import init, { validatePlan as webValidate } from 'momentum-plan-wasm/web'

const verdict: Verdict = validatePlan('{"format": 1}', { requestId: 'r1', kind: 'routine' })
const first: Issue | undefined = verdict.errors[0]
const path: string | undefined = first?.path
const valid: boolean = verdict.valid
const other: WasmVerdict = wasmValidate('{}', '{}')
export async function inBrowser(): Promise<boolean> {
  await init()
  return webValidate('{}', {}).valid
}
export const seen = [path, valid, other.checks.length]
