// ESM entry of momentum-plan-node: the same functions as the CommonJS entry (index.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const binding = require('./index.js')

export const { validatePlan, repairPlan, planSchema, getPlanContract, PlanStream, streamPlan, isWarning } = binding
export const { planToIcalendar, commitmentsFromIcalendar } = binding
export default binding
