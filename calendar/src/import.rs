//! A person's calendar file as the request's commitments: issue 32 item 2.

use crate::ical::{ContentLine, read_lines, unescape_text};
use crate::time::{BYDAY, WEEKDAYS, digits, hhmm, parse_date, weekday_index, zone};
use crate::windows_zones::iana_of_windows;
use jiff::civil::{Date, DateTime, Weekday};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, ToSpan as _};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The largest calendar text read, in bytes (UTF-8).
pub const MAX_ICS_BYTES: usize = 8 * 1024 * 1024;
/// The most content lines (after unfolding) read.
pub const MAX_LINES: usize = 200_000;
/// The most `VEVENT`s read.
pub const MAX_EVENTS: usize = 20_000;
/// The most recurrence candidates one event may take to reach the week; an event that needs more
/// is skipped with why (e.g. a `COUNT` rule started decades ago).
pub const MAX_STEPS_PER_EVENT: usize = 100_000;
/// The most recurrence candidates of the whole file; events past it are skipped with why.
pub const MAX_STEPS: usize = 2_000_000;

/// The commitments of one week and the events left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Imported {
    /// The request's `commitments` (validator.md §3): one per distinct (label, start, end), with
    /// every weekday it occurs on that week, in order of first occurrence (then label).
    pub commitments: Vec<Commitment>,
    /// Events of that week that are not commitments (all-day, free, cancelled, unknown zone,
    /// unsupported recurrence, 24 hours or longer), one per event, in file order.
    pub skipped: Vec<Skipped>,
}

/// One commitment, serializing to exactly `{"label","days","start","end"}` (validator.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Commitment {
    /// The event's `SUMMARY` (unescaped, trimmed); `Busy` when it has none.
    pub label: String,
    /// Weekdays `mon`..`sun` in week order.
    pub days: Vec<String>,
    /// Local start `HH:MM` in the request's timezone (seconds dropped).
    pub start: String,
    /// Local end `HH:MM` (seconds rounded up). Not after `start` when the event runs past
    /// midnight (`22:00`..`06:00`: the validator's night shift, D4); equal to `start` for an
    /// event of no length.
    pub end: String,
}

/// An event of the week left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The event's `UID` (empty when it has none).
    pub uid: String,
    /// The event's `SUMMARY` (unescaped; empty when it has none).
    pub summary: String,
    /// Why it is not a commitment, in English.
    pub why: String,
}

/// Why a calendar file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// The file is not iCalendar: what is wrong and the 1-based line where it is.
    Malformed {
        /// The physical line (1-based) the faulty content line starts on.
        line: usize,
        /// What is wrong, in English.
        message: String,
    },
    /// The file is over one of the caps ([`MAX_ICS_BYTES`], [`MAX_LINES`], [`MAX_EVENTS`]).
    TooLarge {
        /// `bytes`, `lines` or `events`.
        what: &'static str,
        /// The cap.
        limit: usize,
    },
    /// `start_date` is not `YYYY-MM-DD`; holds it.
    BadStartDate(String),
    /// `timezone` is not a tz database name; holds it.
    BadTimezone(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Malformed { line, message } => {
                write!(f, "the calendar file is malformed at line {line}: {message}")
            }
            ImportError::TooLarge { what, limit } => write!(f, "the calendar file has more than {limit} {what}"),
            ImportError::BadStartDate(s) => write!(f, "startDate {s:?} is not a date YYYY-MM-DD"),
            ImportError::BadTimezone(s) => write!(f, "timezone {s:?} is not a time zone name of the tz database"),
        }
    }
}

impl std::error::Error for ImportError {}

/// The commitments of the week starting at `start_date` in a calendar file (issue 32 item 2).
///
/// - `ics_text`: an iCalendar object (RFC 5545; CRLF or LF, folded lines); `start_date`:
///   `YYYY-MM-DD`, the request's `startDate`; `timezone`: the request's tz database name.
/// - The week is `[start_date 00:00, start_date + 7 days 00:00)` in `timezone`. Every `VEVENT`
///   instance that starts in it becomes part of a commitment: single events, weekly and daily
///   `RRULE`s (`INTERVAL`, `COUNT`, `UNTIL`, `BYDAY`, `WKST`), `RDATE`, `EXDATE`, and moved or
///   cancelled instances (`RECURRENCE-ID`). Times in other zones (`TZID`, UTC, Windows zone names
///   as Outlook writes them) are converted to `timezone`; floating times are read in it.
/// - Instances with the same label, start and end make one commitment with all their weekdays.
/// - All-day, free (`TRANSP:TRANSPARENT`), cancelled, 24-hour-or-longer events, events in a zone
///   the tz database does not know and rules this reader does not expand are in `skipped`.
///
/// # Errors
/// [`ImportError`]: a line that is not a content line, unbalanced `BEGIN`/`END`, an unreadable
/// date, time, duration or rule (with the line); the caps; a bad `start_date` / `timezone`.
/// Never panics; the work is bounded by the caps ([`MAX_STEPS`]).
pub fn commitments_from_icalendar(ics_text: &str, start_date: &str, timezone: &str) -> Result<Imported, ImportError> {
    let day0 = parse_date(start_date).ok_or_else(|| ImportError::BadStartDate(start_date.to_owned()))?;
    let tz = zone(timezone).ok_or_else(|| ImportError::BadTimezone(timezone.to_owned()))?;
    if ics_text.len() > MAX_ICS_BYTES {
        return Err(ImportError::TooLarge { what: "bytes", limit: MAX_ICS_BYTES });
    }
    let lines = read_lines(ics_text, MAX_LINES).map_err(|e| {
        if e.message.starts_with("more than") {
            ImportError::TooLarge { what: "lines", limit: MAX_LINES }
        } else {
            ImportError::Malformed { line: e.line, message: e.message }
        }
    })?;
    let events = collect_events(lines)?;
    let end_day = day0.checked_add(7.days()).map_err(|_| ImportError::BadStartDate(start_date.to_owned()))?;
    let lo = instant(&tz, day0.at(0, 0, 0, 0)).ok_or_else(|| ImportError::BadStartDate(start_date.to_owned()))?;
    let hi = instant(&tz, end_day.at(0, 0, 0, 0)).ok_or_else(|| ImportError::BadStartDate(start_date.to_owned()))?;
    let week = Week { tz, lo, hi, budget: MAX_STEPS };
    week.run(&events)
}

/// A `VEVENT`: its properties (nested components' left out) and the line it begins on.
struct Event {
    props: Vec<ContentLine>,
}

impl Event {
    fn get(&self, name: &str) -> Option<&ContentLine> {
        self.props.iter().find(|p| p.name == name)
    }
    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a ContentLine> + 'a {
        self.props.iter().filter(move |p| p.name == name)
    }
    fn text(&self, name: &str) -> String {
        self.get(name).map(|p| unescape_text(&p.value)).unwrap_or_default()
    }
}

fn malformed(line: usize, message: impl Into<String>) -> ImportError {
    ImportError::Malformed { line, message: message.into() }
}

/// Walks `BEGIN`/`END` and keeps each `VEVENT`'s own properties.
fn collect_events(lines: Vec<ContentLine>) -> Result<Vec<Event>, ImportError> {
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut events = Vec::new();
    let mut current: Option<Event> = None;
    let mut seen_calendar = false;
    for l in lines {
        match l.name.as_str() {
            "BEGIN" => {
                let name = l.value.trim().to_ascii_uppercase();
                if name.is_empty() {
                    return Err(malformed(l.line, "BEGIN without a component name"));
                }
                if stack.is_empty() && name != "VCALENDAR" {
                    return Err(malformed(l.line, format!("expected BEGIN:VCALENDAR, found BEGIN:{name}")));
                }
                if stack.len() >= 16 {
                    return Err(malformed(l.line, "components nested more than 16 deep"));
                }
                seen_calendar = true;
                if name == "VEVENT" && stack.last().is_some_and(|(n, _)| n == "VCALENDAR") {
                    if events.len() >= MAX_EVENTS {
                        return Err(ImportError::TooLarge { what: "events", limit: MAX_EVENTS });
                    }
                    current = Some(Event { props: Vec::new() });
                }
                stack.push((name, l.line));
            }
            "END" => {
                let name = l.value.trim().to_ascii_uppercase();
                match stack.pop() {
                    Some((open, _)) if open == name => {}
                    Some((open, _)) => {
                        return Err(malformed(l.line, format!("END:{name} closes BEGIN:{open}")));
                    }
                    None => return Err(malformed(l.line, format!("END:{name} without a BEGIN"))),
                }
                if name == "VEVENT"
                    && stack.last().is_some_and(|(n, _)| n == "VCALENDAR")
                    && let Some(e) = current.take()
                {
                    events.push(e);
                }
            }
            _ => {
                if stack.is_empty() {
                    return Err(malformed(l.line, format!("{} outside BEGIN:VCALENDAR", l.name)));
                }
                if stack.last().is_some_and(|(n, _)| n == "VEVENT")
                    && stack.len() == 2
                    && let Some(e) = current.as_mut()
                {
                    e.props.push(l);
                }
            }
        }
    }
    if let Some((open, line)) = stack.pop() {
        return Err(malformed(line, format!("BEGIN:{open} is never closed")));
    }
    if !seen_calendar {
        return Err(malformed(1, "no BEGIN:VCALENDAR: not an iCalendar file"));
    }
    Ok(events)
}

/// A date or a local date-time with its zone (RFC 5545 §3.3.4, §3.3.5).
#[derive(Clone)]
enum When {
    Date(Date),
    At(DateTime, TimeZone),
}

/// Why an event is skipped, or why the file is malformed.
enum Problem {
    Skip(String),
    Bad(ImportError),
}

impl From<ImportError> for Problem {
    fn from(e: ImportError) -> Problem {
        Problem::Bad(e)
    }
}

fn instant(tz: &TimeZone, dt: DateTime) -> Option<Timestamp> {
    // RFC 5545 §3.3.5: a time in a gap is moved forward by the gap, an ambiguous one is the first
    tz.to_ambiguous_timestamp(dt).compatible().ok()
}

/// A `TZID` as the tz database names it: the name itself, a Windows name (CLDR), or the tail of
/// a prefixed name (`/mozilla.org/20050126_1/Europe/Berlin`).
fn resolve_tzid(name: &str) -> Option<TimeZone> {
    let name = name.trim();
    if let Some(tz) = zone(name) {
        return Some(tz);
    }
    if let Some(tz) = iana_of_windows(name).and_then(zone) {
        return Some(tz);
    }
    name.match_indices('/').find_map(|(i, _)| zone(&name[i + 1..]))
}

/// `YYYYMMDD`.
fn read_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    if b.len() != 8 {
        return None;
    }
    Date::new(
        i16::try_from(digits(&b[0..4])?).ok()?,
        i8::try_from(digits(&b[4..6])?).ok()?,
        i8::try_from(digits(&b[6..8])?).ok()?,
    )
    .ok()
}

/// `YYYYMMDDTHHMMSS`, the `Z` handled by the caller. A leap second `60` reads as `59`.
fn read_datetime(s: &str) -> Option<DateTime> {
    let b = s.as_bytes();
    if b.len() != 15 || b[8] != b'T' {
        return None;
    }
    let d = read_date(&s[..8])?;
    let h = i8::try_from(digits(&b[9..11])?).ok()?;
    let m = i8::try_from(digits(&b[11..13])?).ok()?;
    let sec = i8::try_from(digits(&b[13..15])?).ok()?.min(59);
    jiff::civil::Time::new(h, m, sec, 0).ok().map(|t| d.to_datetime(t))
}

impl Week {
    /// One DATE or DATE-TIME value of `p` (a DTSTART, DTEND, EXDATE, RDATE, RECURRENCE-ID).
    fn when(&self, p: &ContentLine, value: &str) -> Result<When, Problem> {
        let value = value.trim();
        if p.param("VALUE").is_some_and(|v| v.eq_ignore_ascii_case("DATE")) || value.len() == 8 {
            return read_date(value).map(When::Date).ok_or_else(|| {
                Problem::Bad(malformed(p.line, format!("{} {value:?} is not a date YYYYMMDD", p.name)))
            });
        }
        let bad =
            || Problem::Bad(malformed(p.line, format!("{} {value:?} is not a date-time YYYYMMDDTHHMMSS", p.name)));
        if let Some(utc) = value.strip_suffix('Z') {
            let dt = read_datetime(utc).ok_or_else(bad)?;
            return Ok(When::At(dt, TimeZone::UTC));
        }
        let dt = read_datetime(value).ok_or_else(bad)?;
        match p.param("TZID") {
            None => Ok(When::At(dt, self.tz.clone())),
            Some(name) => resolve_tzid(name)
                .map(|tz| When::At(dt, tz))
                .ok_or_else(|| Problem::Skip(format!("its time zone {name:?} is not in the tz database"))),
        }
    }
}

/// RFC 5545 §3.3.6 DURATION: `[+-]P(nW | nD[T...] | T nH nM nS)`, as (nominal days, exact seconds).
fn read_duration(s: &str) -> Option<(i64, i64)> {
    let s = s.trim();
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let s = s.strip_prefix('P')?;
    let (mut days, mut secs, mut num, mut in_time, mut any) = (0i64, 0i64, None::<i64>, false, false);
    for c in s.chars() {
        match c {
            '0'..='9' => {
                let d = i64::from(u8::try_from(c).ok()? - b'0');
                num = Some(num.unwrap_or(0).checked_mul(10)?.checked_add(d)?);
                if num? > 10_000_000 {
                    return None;
                }
            }
            'T' if !in_time && num.is_none() => in_time = true,
            'W' if !in_time => days += num.take()? * 7,
            'D' if !in_time => days += num.take()?,
            'H' if in_time => secs += num.take()? * 3600,
            'M' if in_time => secs += num.take()? * 60,
            'S' if in_time => secs += num.take()?,
            _ => return None,
        }
        any |= num.is_none();
    }
    if num.is_some() || !any {
        return None;
    }
    Some(if neg { (-days, -secs) } else { (days, secs) })
}

/// `d` plus `n` days, `None` out of range (never a panic: jiff's `days()` panics past its limits).
fn add_days(d: Date, n: i64) -> Option<Date> {
    jiff::Span::new().try_days(n).ok().and_then(|span| d.checked_add(span).ok())
}

/// A recurrence rule this reader expands.
struct Rule {
    daily: bool,
    interval: i64,
    count: Option<usize>,
    until: Option<When>,
    days: Vec<Weekday>,
    wkst: Weekday,
}

fn weekday_code(s: &str) -> Option<Weekday> {
    BYDAY.iter().position(|n| n.eq_ignore_ascii_case(s)).map(|i| WEEKDAYS[i].1)
}

struct Week {
    tz: TimeZone,
    lo: Timestamp,
    hi: Timestamp,
    budget: usize,
}

/// One instance: its start and end instants.
type Instance = (Timestamp, Timestamp);

impl Week {
    fn rule(&self, p: &ContentLine) -> Result<Rule, Problem> {
        let bad = |m: String| Problem::Bad(malformed(p.line, m));
        let mut freq = None;
        let mut unsupported = None;
        let mut rule =
            Rule { daily: false, interval: 1, count: None, until: None, days: Vec::new(), wkst: Weekday::Monday };
        for part in p.value.split(';').filter(|s| !s.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(bad(format!("RRULE part {part:?} is not NAME=VALUE")));
            };
            match k.to_ascii_uppercase().as_str() {
                "FREQ" => freq = Some(v.to_ascii_uppercase()),
                "INTERVAL" => {
                    rule.interval = v
                        .parse::<i64>()
                        .ok()
                        .filter(|n| (1..=10_000).contains(n))
                        .ok_or_else(|| bad(format!("RRULE INTERVAL {v:?}")))?;
                }
                "COUNT" => rule.count = Some(v.parse::<usize>().map_err(|_| bad(format!("RRULE COUNT {v:?}")))?),
                "UNTIL" => rule.until = Some(self.when(p, v)?),
                "WKST" => rule.wkst = weekday_code(v).ok_or_else(|| bad(format!("RRULE WKST {v:?}")))?,
                "BYDAY" => {
                    for d in v.split(',') {
                        match weekday_code(d.trim()) {
                            Some(w) => rule.days.push(w),
                            None if d.trim().len() > 2
                                && d.trim().get(d.trim().len() - 2..).and_then(weekday_code).is_some() =>
                            {
                                return Err(Problem::Skip(format!(
                                    "its rule has BYDAY={d} (an nth weekday), which is not weekly"
                                )));
                            }
                            None => return Err(bad(format!("RRULE BYDAY {d:?} is not a weekday"))),
                        }
                    }
                }
                other => unsupported = Some(format!("its rule uses {other}, which this reader does not expand")),
            }
        }
        match freq.as_deref() {
            Some("WEEKLY") => {}
            Some("DAILY") => rule.daily = true,
            Some(f) => return Err(Problem::Skip(format!("its rule repeats {f}, not weekly or daily"))),
            None => return Err(bad("RRULE without FREQ".to_owned())),
        }
        match unsupported {
            Some(why) => Err(Problem::Skip(why)),
            None => Ok(rule),
        }
    }

    /// Whether an instance at local `dt` (zone `tz`, instant `at`) is within `until`.
    fn within(until: Option<&When>, dt: DateTime, at: Timestamp) -> bool {
        match until {
            None => true,
            Some(When::Date(d)) => dt.date() <= *d,
            Some(When::At(u, utz)) => instant(utz, *u).is_none_or(|u| at <= u),
        }
    }

    /// The instances of a rule from `start` (local, zone `tz`) that start in the week.
    fn expand(&mut self, rule: &Rule, start: DateTime, tz: &TimeZone, len: &Length) -> Result<Vec<Instance>, Problem> {
        let first = start.date();
        let lo_date = tz.to_datetime(self.lo).date().yesterday().unwrap_or(first);
        let hi_date = tz.to_datetime(self.hi).date().tomorrow().unwrap_or(first);
        let period = if rule.daily { rule.interval } else { 7 * rule.interval };
        // the first day of the first period: DTSTART's date, or the start of its week (WKST)
        let base = if rule.daily {
            first
        } else {
            let back = (7 + weekday_index(first.weekday()) - weekday_index(rule.wkst)) % 7;
            add_days(first, -i64::try_from(back).unwrap_or(0)).unwrap_or(first)
        };
        let offsets: Vec<i64> = if rule.daily {
            vec![0]
        } else {
            let days = if rule.days.is_empty() { vec![first.weekday()] } else { rule.days.clone() };
            let mut o: Vec<i64> = days
                .iter()
                .map(|d| i64::try_from((7 + weekday_index(*d) - weekday_index(rule.wkst)) % 7).unwrap_or(0))
                .collect();
            o.sort_unstable();
            o.dedup();
            o
        };
        // without COUNT, jump to the period before the week
        let mut k: i64 = 0;
        if rule.count.is_none() {
            let gap = (lo_date - base).get_days();
            k = (i64::from(gap) / period - 1).max(0);
        }
        let mut count = 1usize; // DTSTART is the first instance (RFC 5545 §3.8.5.3)
        let mut out = Vec::new();
        let mut steps = 0usize;
        let start_at = instant(tz, start).ok_or_else(|| Problem::Skip("its start is out of range".to_owned()))?;
        if self.in_week(start_at) {
            out.push((start_at, len.end(start, start_at, tz)));
        }
        'periods: while let Some(p0) = k.checked_mul(period).and_then(|n| add_days(base, n)) {
            if p0 > hi_date {
                break;
            }
            for off in &offsets {
                steps += 1;
                if steps > MAX_STEPS_PER_EVENT || self.budget == 0 {
                    return Err(Problem::Skip(format!(
                        "its rule takes more than {MAX_STEPS_PER_EVENT} steps to reach the week (or the file's {MAX_STEPS})"
                    )));
                }
                self.budget -= 1;
                let Some(day) = add_days(p0, *off) else { break 'periods };
                if day <= first {
                    continue;
                }
                if rule.daily && !rule.days.is_empty() && !rule.days.contains(&day.weekday()) {
                    continue;
                }
                if rule.count.is_some_and(|c| count >= c) || day > hi_date {
                    break 'periods;
                }
                count += 1;
                let dt = day.to_datetime(start.time());
                let Some(at) = instant(tz, dt) else { continue };
                if !Self::within(rule.until.as_ref(), dt, at) {
                    break 'periods;
                }
                if day >= lo_date && self.in_week(at) {
                    out.push((at, len.end(dt, at, tz)));
                }
            }
            k += 1;
        }
        Ok(out)
    }

    /// Takes one step of the file's budget ([`MAX_STEPS`]) for a value of an event.
    fn charge(&mut self) -> Result<(), Problem> {
        if self.budget == 0 {
            return Err(Problem::Skip(format!("the file takes more than {MAX_STEPS} steps to read")));
        }
        self.budget -= 1;
        Ok(())
    }

    fn in_week(&self, at: Timestamp) -> bool {
        self.lo <= at && at < self.hi
    }
}

/// How long an instance lasts: nominal days (local) plus exact seconds (RFC 5545 §3.3.6).
struct Length {
    days: i64,
    secs: i64,
}

impl Length {
    fn end(&self, dt: DateTime, at: Timestamp, tz: &TimeZone) -> Timestamp {
        let base = if self.days == 0 {
            at
        } else {
            jiff::Span::new()
                .try_days(self.days)
                .ok()
                .and_then(|span| dt.checked_add(span).ok())
                .and_then(|d| instant(tz, d))
                // past the calendar's range: as long as can be (skipped as longer than a day)
                .unwrap_or(Timestamp::MAX)
        };
        base.checked_add(SignedDuration::from_secs(self.secs)).unwrap_or(if self.secs < 0 {
            Timestamp::MIN
        } else {
            Timestamp::MAX
        })
    }
}

/// What one event gives: instances, or a reason to skip it.
enum Outcome {
    Instances(Vec<Instance>),
    Skip(String),
}

impl Week {
    fn run(mut self, events: &[Event]) -> Result<Imported, ImportError> {
        // instances moved or cancelled by a RECURRENCE-ID event: (UID, original start)
        let mut overridden: BTreeMap<String, Vec<When>> = BTreeMap::new();
        for e in events {
            if let Some(r) = e.get("RECURRENCE-ID") {
                match self.when(r, &r.value) {
                    Ok(w) => overridden.entry(e.text("UID")).or_default().push(w),
                    Err(Problem::Bad(err)) => return Err(err),
                    Err(Problem::Skip(_)) => {}
                }
            }
        }
        let mut groups: BTreeMap<(String, String, String), (Timestamp, [bool; 7])> = BTreeMap::new();
        let mut skipped = Vec::new();
        for e in events {
            let uid = e.text("UID");
            let summary = e.text("SUMMARY");
            let outcome = match self.event(e, &uid, &overridden) {
                Ok(o) => o,
                Err(Problem::Bad(err)) => return Err(err),
                Err(Problem::Skip(why)) if self.may_touch_week(e) => Outcome::Skip(why),
                Err(Problem::Skip(_)) => continue,
            };
            let instances = match outcome {
                Outcome::Skip(why) => {
                    skipped.push(Skipped { uid, summary, why });
                    continue;
                }
                Outcome::Instances(i) => i,
            };
            if instances.is_empty() {
                continue;
            }
            if let Some(why) = self.not_a_commitment(e, &instances) {
                skipped.push(Skipped { uid, summary, why });
                continue;
            }
            let label = if summary.trim().is_empty() { "Busy".to_owned() } else { summary.trim().to_owned() };
            for (s, t) in instances {
                let (sd, ed) = (self.tz.to_datetime(s), self.tz.to_datetime(t));
                let end = if ed.second() > 0 || ed.subsec_nanosecond() > 0 {
                    ed.checked_add(SignedDuration::from_mins(1)).unwrap_or(ed)
                } else {
                    ed
                };
                let key = (label.clone(), hhmm(sd.time()), hhmm(end.time()));
                let entry = groups.entry(key).or_insert((s, [false; 7]));
                entry.0 = entry.0.min(s);
                entry.1[weekday_index(sd.date().weekday())] = true;
            }
        }
        let mut list: Vec<(Timestamp, Commitment)> = groups
            .into_iter()
            .map(|((label, start, end), (first, days))| {
                let days = (0..7).filter(|&i| days[i]).map(|i| WEEKDAYS[i].0.to_owned()).collect();
                (first, Commitment { label, days, start, end })
            })
            .collect();
        list.sort_by(|a, b| (a.0, &a.1.label).cmp(&(b.0, &b.1.label)));
        Ok(Imported { commitments: list.into_iter().map(|(_, c)| c).collect(), skipped })
    }

    /// Whether an event that cannot be placed exactly (unknown zone, rule not expanded) may still
    /// have an instance in the week: its start read as a floating time is before the week's end
    /// (plus a day, for any zone), and, without a rule, not a day before the week's start.
    fn may_touch_week(&self, e: &Event) -> bool {
        let Some(p) = e.get("DTSTART") else { return true };
        let v = p.value.trim();
        let local = read_datetime(v.strip_suffix('Z').unwrap_or(v))
            .or_else(|| read_date(v).map(|d| d.to_datetime(jiff::civil::Time::midnight())));
        let Some(at) = local.and_then(|dt| instant(&self.tz, dt)) else { return true };
        let day = SignedDuration::from_hours(26);
        let before_end = self.hi.checked_add(day).is_ok_and(|end| at < end);
        let recurring = e.get("RRULE").is_some() || e.get("RDATE").is_some();
        before_end && (recurring || self.lo.checked_sub(day).is_ok_and(|start| at >= start))
    }

    /// Why an event with instances in the week is not a commitment, if it is not one.
    fn not_a_commitment(&self, e: &Event, instances: &[Instance]) -> Option<String> {
        if e.get("DTSTART").is_some_and(|p| matches!(self.when(p, &p.value), Ok(When::Date(_)))) {
            return Some("an all-day event (no start and end time)".to_owned());
        }
        if e.text("TRANSP").trim().eq_ignore_ascii_case("TRANSPARENT") {
            return Some("marked free (TRANSP:TRANSPARENT): it does not block time".to_owned());
        }
        if e.text("STATUS").trim().eq_ignore_ascii_case("CANCELLED") {
            return Some("cancelled (STATUS:CANCELLED)".to_owned());
        }
        if instances.iter().any(|(s, t)| t.duration_since(*s) >= SignedDuration::from_hours(24)) {
            return Some("it lasts 24 hours or more, longer than a commitment's day".to_owned());
        }
        if instances.iter().any(|(s, t)| t < s) {
            return Some("it ends before it starts".to_owned());
        }
        None
    }

    /// The instances of one event in the week.
    fn event(&mut self, e: &Event, uid: &str, overridden: &BTreeMap<String, Vec<When>>) -> Result<Outcome, Problem> {
        let Some(p) = e.get("DTSTART") else { return Ok(Outcome::Skip("it has no DTSTART".to_owned())) };
        let (start, tz) = match self.when(p, &p.value)? {
            // all-day: read as the local day in the request's zone, to know whether it is in the week
            When::Date(d) => (d.to_datetime(jiff::civil::Time::midnight()), self.tz.clone()),
            When::At(dt, tz) => (dt, tz),
        };
        let start_at = instant(&tz, start).ok_or_else(|| Problem::Skip("its start is out of range".to_owned()))?;
        let len = self.length(e, start, start_at, &tz)?;
        let mut instances: Vec<Instance> = match e.get("RRULE") {
            Some(r) if e.get("RECURRENCE-ID").is_none() => {
                let rule = self.rule(r)?;
                self.expand(&rule, start, &tz, &len)?
            }
            _ => {
                if self.in_week(start_at) {
                    vec![(start_at, len.end(start, start_at, &tz))]
                } else {
                    Vec::new()
                }
            }
        };
        let mut seen: BTreeSet<Timestamp> = instances.iter().map(|(s, _)| *s).collect();
        for p in e.all("RDATE") {
            for v in p.value.split(',') {
                let (s, period_end) = v.split_once('/').map_or((v, None), |(a, b)| (a, Some(b)));
                let When::At(dt, rtz) = self.when(p, s)? else { continue };
                let Some(at) = instant(&rtz, dt) else { continue };
                let end = match period_end {
                    None => len.end(dt, at, &rtz),
                    Some(b) if b.trim_start().starts_with(['P', '+', '-']) => {
                        let (days, secs) = read_duration(b)
                            .ok_or_else(|| Problem::Bad(malformed(p.line, format!("RDATE period {v:?}"))))?;
                        Length { days, secs }.end(dt, at, &rtz)
                    }
                    Some(b) => match self.when(p, b)? {
                        When::At(edt, etz) => instant(&etz, edt).unwrap_or(at),
                        When::Date(_) => at,
                    },
                };
                self.charge()?;
                if self.in_week(at) && seen.insert(at) {
                    instances.push((at, end));
                }
            }
        }
        let mut excluded: Vec<When> = Vec::new();
        for p in e.all("EXDATE") {
            for v in p.value.split(',') {
                self.charge()?;
                excluded.push(self.when(p, v)?);
            }
        }
        if e.get("RECURRENCE-ID").is_none()
            && let Some(moved) = overridden.get(uid)
        {
            excluded.extend(moved.iter().cloned());
        }
        let mut dates = BTreeSet::new();
        let mut instants = BTreeSet::new();
        for w in excluded {
            match w {
                When::Date(d) => {
                    dates.insert(d);
                }
                When::At(dt, wtz) => {
                    instants.extend(instant(&wtz, dt));
                }
            }
        }
        instances.retain(|(s, _)| !instants.contains(s) && !dates.contains(&tz.to_datetime(*s).date()));
        instances.sort();
        Ok(Outcome::Instances(instances))
    }

    fn length(&self, e: &Event, start: DateTime, start_at: Timestamp, tz: &TimeZone) -> Result<Length, Problem> {
        if let Some(p) = e.get("DTEND") {
            return match self.when(p, &p.value)? {
                When::At(dt, etz) => {
                    let end = instant(&etz, dt).unwrap_or(start_at);
                    Ok(Length { days: 0, secs: end.duration_since(start_at).as_secs() })
                }
                When::Date(d) => {
                    let days = (d - start.date()).get_days();
                    Ok(Length { days: i64::from(days), secs: 0 })
                }
            };
        }
        if let Some(p) = e.get("DURATION") {
            let (days, secs) = read_duration(&p.value)
                .ok_or_else(|| Problem::Bad(malformed(p.line, format!("DURATION {:?} is not a duration", p.value))))?;
            return Ok(Length { days, secs });
        }
        let _ = tz;
        // RFC 5545 §3.6.1: a date start without end lasts one day, a date-time start none
        let all_day = e.get("DTSTART").is_some_and(|p| matches!(self.when(p, &p.value), Ok(When::Date(_))));
        Ok(Length { days: i64::from(all_day), secs: 0 })
    }
}
