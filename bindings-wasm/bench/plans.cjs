'use strict';
// The benchmark inputs: the calm-weekday example, and a large routine (every-day blocks plus
// 7 weekday lists of 40 blocks each), built from the example so it is a realistic, valid plan.

const fs = require('node:fs');
const path = require('node:path');

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const read = (f) => fs.readFileSync(path.join(EXAMPLES, f), 'utf8');

function calm() {
  return { name: 'calm-weekday', planText: read('calm-weekday.plan.json'), requestText: read('calm-weekday.request.json') };
}

const CATEGORIES = ['mind', 'body', 'work', 'rest', 'social', 'service', 'learning', 'craft', 'nourish'];

function large() {
  const plan = JSON.parse(read('calm-weekday.plan.json'));
  const request = JSON.parse(read('calm-weekday.request.json'));
  request.commitments = []; // the blocks fill the day; no commitment to collide with
  const list = (day) =>
    Array.from({ length: 40 }, (_, i) => {
      const start = 5 * 60 + i * 20;
      return {
        start: `${String(Math.floor(start / 60)).padStart(2, '0')}:${String(start % 60).padStart(2, '0')}`,
        durationMin: 20,
        activity: `Step ${(i + day) % 40}`,
        category: CATEGORIES[(i + day) % CATEGORIES.length],
        essential: i % 3 === 0,
      };
    });
  plan.routine = { blocks: list(0), weekdays: {} };
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].forEach((d, k) => (plan.routine.weekdays[d] = list(k + 1)));
  plan.request = request;
  return { name: 'large (7 × 40 blocks)', planText: JSON.stringify(plan, null, 2), requestText: JSON.stringify(request) };
}

/** The large plan with a wrong category in every block: a verdict with 320 errors. */
function largeBroken() {
  const l = large();
  const plan = JSON.parse(l.planText);
  for (const list of [plan.routine.blocks, ...Object.values(plan.routine.weekdays)]) for (const b of list) b.category = 'food';
  return { name: 'large, every block broken', planText: JSON.stringify(plan, null, 2), requestText: l.requestText };
}

module.exports = { calm, large, largeBroken };
