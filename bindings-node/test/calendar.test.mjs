// planToIcalendar and commitmentsFromIcalendar (issue 32) against the calendar crate's own answers
// (its `ics` example, built by test.sh): the checks are js/calendar-cases.mjs, shared with
// momentum-plan-wasm's calendar module.
import { test } from 'node:test'
import { createRequire } from 'node:module'
import { calendarCases } from '../../js/calendar-cases.mjs'

const require = createRequire(import.meta.url)
for (const [name, check] of calendarCases(require('../index.js'))) test(name, check)
