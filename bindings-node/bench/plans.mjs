// Plans for `npm run bench`: the calm-weekday example and a large routine made from it.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The repository's `examples/<name>` file as text. */
export function example(name) {
  return readFileSync(join(ROOT, 'examples', name), 'utf8')
}

const ACTIVITIES = [
  ['Stretch', 'body'], ['Read', 'learning'], ['Journal', 'mind'], ['Cook', 'nourish'],
  ['Call family', 'social'], ['Errands', 'service'], ['Sketch', 'craft'], ['Nap', 'rest'],
]

function hhmm(min) {
  return `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`
}

/**
 * The large plan: the calm-weekday routine plus `routine.weekdays` with all seven days, each a
 * list of 40 half-hour blocks from 03:00 to 23:00 (Work 09:00–17:00 on mon–fri, as the request's
 * commitment wants). Valid; returned as pretty JSON text (two-space indent, like the examples).
 */
export function largePlanText() {
  const plan = JSON.parse(example('calm-weekday.plan.json'))
  const weekdays = {}
  for (const [d, day] of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].entries()) {
    const blocks = []
    for (let i = 0; i < 40; i++) {
      const start = 180 + 30 * i
      const work = d < 5 && start >= 540 && start < 1020
      const [activity, category] = work ? ['Work', 'work'] : ACTIVITIES[(i + d) % ACTIVITIES.length]
      blocks.push({ start: hhmm(start), durationMin: 30, activity, category, essential: i % 3 === 0 })
    }
    weekdays[day] = blocks
  }
  plan.routine.weekdays = weekdays
  return JSON.stringify(plan, null, 2)
}
