// The calendar export checked by a second independent implementation (issue 32, "How it is
// checked"): every valid shared vector is exported by the Rust crate (its `ics` example, JSON
// lines) and the calendar is read and expanded over the plan's first week by ical.js (Mozilla's
// RFC 5545 library, the VTIMEZONE the crate wrote registered as the event's zone); local times
// come from Node's ICU time zone data, not from the crate's. The expectation is computed here
// from the plan JSON itself, as check_export.py computes it:
//   - a routine: on each date of [startDate, startDate + 7 days) the day's block list (the
//     weekday's `routine.weekdays` list, else `routine.blocks`) gives one occurrence per block:
//     (date, local start HH:MM, duration in minutes, summary = activity), none missing, none extra;
//   - a goal plan: one VTODO per activity, due on startDate + day - 1, summary = title;
//   - a refused request: the crate must say why (no startDate, a bad one, an unknown zone).
// Usage: node check_export.mjs SHARED_VECTORS_DIR ICS_EXAMPLE_BINARY
// Prints 'N passed, M failed' and exits 1 on any failure (the first ones shown with their id).
import ICAL from "ical.js";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const [vectorsDir, binary] = process.argv.slice(2);

function exportAll(inputs) {
  const text = inputs.map((i) => JSON.stringify(i) + "\n").join("");
  const run = spawnSync(binary, { input: text, maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`${binary} exited ${run.status}: ${run.stderr}`);
  const answers = run.stdout.toString("utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
  if (answers.length !== inputs.length) throw new Error(`${answers.length} answers for ${inputs.length} inputs`);
  return answers;
}

// Dates as YYYY-MM-DD strings, computed in UTC (calendar arithmetic only).
const addDays = (date, n) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);
const weekdayOf = (date) => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
const pad = (n) => String(n).padStart(2, "0");

const formats = new Map();
function localIn(zone, unixSeconds) {
  if (!formats.has(zone)) {
    formats.set(zone, new Intl.DateTimeFormat("en-CA", {
      timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
      hourCycle: "h23",
    }));
  }
  const p = Object.fromEntries(formats.get(zone).formatToParts(new Date(unixSeconds * 1000)).map((x) => [x.type, x.value]));
  return [`${p.year}-${p.month}-${p.day}`, `${p.hour}:${p.minute}`];
}

function knownZone(zone) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function routineExpected(plan, start) {
  const routine = plan.routine;
  const weekdays = routine.weekdays && typeof routine.weekdays === "object" && !Array.isArray(routine.weekdays)
    ? routine.weekdays : {};
  const out = [];
  for (let k = 0; k < 7; k++) {
    const day = addDays(start, k);
    const wd = weekdayOf(day);
    const blocks = Object.hasOwn(weekdays, wd) ? weekdays[wd] : routine.blocks;
    for (const b of blocks) out.push([day, b.start, Number(b.durationMin), b.activity]);
  }
  return out.map((x) => JSON.stringify(x)).sort();
}

function routineActual(cal, start, zone) {
  for (const vtz of cal.getAllSubcomponents("vtimezone")) {
    const tz = new ICAL.Timezone(vtz);
    ICAL.TimezoneService.register(tz, tz.tzid);
  }
  const end = addDays(start, 7);
  const out = [];
  for (const ve of cal.getAllSubcomponents("vevent")) {
    const ev = new ICAL.Event(ve);
    const minutes = ev.duration.toSeconds() / 60;
    const it = ev.iterator();
    for (let n = 0, next; n < 400 && (next = it.next()); n++) {
      const s = ev.getOccurrenceDetails(next).startDate;
      const [date, time] = zone ? localIn(zone, s.toUnixTime()) : [`${s.year}-${pad(s.month)}-${pad(s.day)}`, `${pad(s.hour)}:${pad(s.minute)}`];
      if (date >= end) break;
      if (date >= start) out.push(JSON.stringify([date, time, minutes, ev.summary]));
    }
  }
  return out.sort();
}

function goalProblems(plan, cal, start) {
  const expected = [];
  plan.goal.days.forEach((day, d) => {
    for (const a of Array.isArray(day?.activities) ? day.activities : []) expected.push(`${addDays(start, d)} ${a.title}`);
  });
  const actual = cal.getAllSubcomponents("vtodo").map((t) => {
    const due = t.getFirstPropertyValue("due");
    return `${due.year}-${pad(due.month)}-${pad(due.day)} ${t.getFirstPropertyValue("summary")}`;
  });
  return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`VTODOs ${actual.slice(0, 2)} differ from ${expected.slice(0, 2)}`];
}

const cases = [];
for (const f of readdirSync(vectorsDir).filter((f) => f.endsWith(".jsonl")).sort()) {
  for (const line of readFileSync(join(vectorsDir, f), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const v = JSON.parse(line);
    if (v.expect.valid) cases.push(v);
  }
}
const answers = exportAll(cases.map((v) => ({ export: { plan: v.plan, request: v.request, dtstamp: "20261207T120000Z" } })));
const failures = [];
let calendars = 0;
cases.forEach((v, i) => {
  const a = answers[i];
  const plan = typeof v.plan === "string" ? JSON.parse(v.plan) : v.plan;
  const request = v.request;
  const problems = [];
  const start = request.startDate;
  const goodStart = typeof start === "string" && /^\d{4}-\d{2}-\d{2}$/.test(start) && !Number.isNaN(Date.parse(`${start}T00:00:00Z`))
    && new Date(`${start}T00:00:00Z`).toISOString().slice(0, 10) === start;
  const zone = request.timezone;
  if ("error" in a) {
    const why = start === undefined || start === null ? "MissingStartDate" : !goodStart ? "BadStartDate"
      : plan.kind !== "goal" && zone !== undefined && (typeof zone !== "string" || !knownZone(zone)) ? "BadTimezone" : null;
    if (a.kind !== why) problems.push(`refused (${a.kind}: ${a.error}), expected ${why ?? "a calendar"}`);
  } else {
    calendars++;
    const cal = new ICAL.Component(ICAL.parse(a.text));
    if (plan.kind === "goal") {
      problems.push(...goalProblems(plan, cal, start));
    } else {
      const actual = routineActual(cal, start, typeof zone === "string" ? zone : null);
      const expected = routineExpected(plan, start);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        const missing = expected.filter((x) => !actual.includes(x)).slice(0, 3);
        const extra = actual.filter((x) => !expected.includes(x)).slice(0, 3);
        problems.push(`occurrences differ: missing ${missing}, extra ${extra}`);
      }
    }
  }
  if (problems.length) failures.push(`${v.id}: ${problems.slice(0, 3).join("; ")}`);
});
console.log(`calendar export read by ical.js: ${cases.length} valid vectors, ${calendars} calendars expanded`);
for (const f of failures.slice(0, 10)) console.log(`  ${f}`);
console.log(`${cases.length - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
