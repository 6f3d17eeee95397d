// tsc --strict against the installed packages' types: must fail (the types are real).
import { validatePlan } from 'momentum-plan-node'
import { validatePlan as wasmValidate } from 'momentum-plan-wasm'

const count: number = validatePlan('{}', {}).valid
const missing = wasmValidate('{}', {}).noSuchKey
validatePlan(42, {})
export const seen = [count, missing]
