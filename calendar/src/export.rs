//! A valid plan as an iCalendar object (RFC 5545): issue 32 item 1.

use crate::ical::Writer;
use crate::time::{
    BYDAY, WEEKDAYS, date_text, hhmm, ical_date, ical_datetime, ical_offset, offset_text, parse_date, parse_hhmm,
    weekday_index, zone,
};
use jiff::civil::{Date, DateTime};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{SignedDuration, Timestamp, ToSpan as _};
use momentum_plan::{JsonError, JsonPath, Value, Verdict};
use serde::Serialize;
use std::fmt;

/// The `PRODID` of every exported calendar.
pub const PRODID: &str = "-//momentum-plan//momentum-plan-calendar 0.1//EN";

/// How far ahead an exported routine is looked at: one year from `startDate` (exclusive). The
/// `VTIMEZONE` holds every transition of the years this span touches, and a start on a
/// daylight-saving day within it gets a [`Warning`]. The `RRULE` itself has no end.
pub const HORIZON_YEARS: i16 = 1;

/// The calendar text of a valid plan and what a person should know about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Export {
    /// The `VCALENDAR` object (RFC 5545): UTF-8, lines ended by CRLF and folded at 75 octets.
    pub text: String,
    /// How many entries `text` holds: its `VEVENT`s (a routine: one per block of a list that
    /// applies to some day) or its `VTODO`s (a goal plan: one per activity). The `VTIMEZONE` is
    /// not counted.
    pub events: usize,
    /// One per block start that does not exist or is ambiguous on a date within
    /// [`HORIZON_YEARS`] of `startDate`, in date order, then block order. Empty for goal plans
    /// and for routines without a `timezone` (floating times).
    pub warnings: Vec<Warning>,
}

/// A block whose local start falls into a daylight-saving transition on one date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The date, `YYYY-MM-DD`, in the request's `timezone`.
    pub date: String,
    /// The block's JSONPath in the plan (validator.md §4), e.g. `$.routine.weekdays.sun[0]`.
    pub path: String,
    /// English: the local start, why it is a problem that day, and what a calendar does with it
    /// (RFC 5545 §3.3.5: a start in a gap is moved forward by the gap's length; an ambiguous start
    /// takes the first of the two instants).
    pub message: String,
}

/// Why no calendar was made.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportError {
    /// The request text is not JSON (the core's strict reader: reason, line, column).
    RequestNotJson(JsonError),
    /// The plan is not valid for the request: the core's verdict, unchanged (validator.md §4).
    Invalid(Box<Verdict>),
    /// The request has no `startDate` (absent or `null`): the first occurrence cannot be placed.
    MissingStartDate,
    /// The request's `startDate` is not a `YYYY-MM-DD` date; holds the value as JSON.
    BadStartDate(String),
    /// The request's `timezone` is not a string or not a name of the tz database; holds the value
    /// as JSON.
    BadTimezone(String),
    /// The `dtstamp` argument is not a UTC DATE-TIME `YYYYMMDDTHHMMSSZ`; holds it.
    BadDtstamp(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::RequestNotJson(e) => write!(f, "the request is not JSON: {e}"),
            ExportError::Invalid(v) => {
                write!(f, "the plan is not valid ({} errors); fix it first: {}", v.errors.len(), v.to_json())
            }
            ExportError::MissingStartDate => {
                f.write_str("the request has no startDate (YYYY-MM-DD): the calendar needs the plan's first day")
            }
            ExportError::BadStartDate(v) => write!(f, "the request's startDate {v} is not a date YYYY-MM-DD"),
            ExportError::BadTimezone(v) => {
                write!(
                    f,
                    "the request's timezone {v} is not a time zone name of the tz database (e.g. \"Europe/Zurich\")"
                )
            }
            ExportError::BadDtstamp(v) => {
                write!(f, "dtstamp {v:?} is not a UTC date-time YYYYMMDDTHHMMSSZ (e.g. \"20261207T120000Z\")")
            }
        }
    }
}

impl std::error::Error for ExportError {}

/// The plan as an iCalendar object (issue 32 item 1; shapes: validator.md §3).
///
/// - `plan_text`: the plan as JSON text; `request_text`: the request as JSON text;
///   `dtstamp`: the `DTSTAMP` of every component, a UTC DATE-TIME such as `20261207T120000Z`
///   (RFC 5545 §3.8.7.2; passed in because the crate has no clock).
/// - A routine gives one `VEVENT` per block: weekly (`RRULE:FREQ=WEEKLY;BYDAY=…`) on the days its
///   list applies to (a `routine.weekdays` list on its day; `routine.blocks` on every other day),
///   first on the first such day on or after `startDate`, at the block's local start, lasting `DURATION:PT<durationMin>M` (exact minutes, RFC 5545
///   §3.3.6: a block past midnight ends the next day). With a
///   `timezone` the times carry its `TZID` and a `VTIMEZONE` built from the bundled tz database
///   for the years of [`HORIZON_YEARS`]; without one they are floating (RFC 5545 §3.3.5 form 1:
///   the same wall-clock time wherever the person is), as the plan's times are.
/// - A goal plan gives one `VTODO` per activity, due (`DUE;VALUE=DATE`) on `startDate + day − 1`,
///   its `guidance`, "Done when: …" and minutes in the `DESCRIPTION`.
/// - Every component: `UID` `<requestId>/<list>/<index>@momentum-plan` (stable for the same plan),
///   `SUMMARY` (the block's `activity`, the activity's `title`), `CATEGORIES` (the category).
///
/// # Errors
/// [`ExportError`]: the request is not JSON, the plan is invalid (the core's verdict), or the
/// request lacks a usable `startDate` / `timezone`, or `dtstamp` is malformed. Never panics.
pub fn plan_to_icalendar(plan_text: &str, request_text: &str, dtstamp: &str) -> Result<Export, ExportError> {
    let request = momentum_plan::parse_json(request_text).map_err(ExportError::RequestNotJson)?;
    if !is_utc_stamp(dtstamp) {
        return Err(ExportError::BadDtstamp(dtstamp.to_owned()));
    }
    let verdict = momentum_plan::validate_text(plan_text, &request);
    if !verdict.valid {
        return Err(ExportError::Invalid(Box::new(verdict)));
    }
    let plan = momentum_plan::parse_json(plan_text).map_err(ExportError::RequestNotJson)?;
    let start = match request.get("startDate") {
        None | Some(Value::Null) => return Err(ExportError::MissingStartDate),
        Some(Value::String(s)) => {
            parse_date(s).ok_or_else(|| ExportError::BadStartDate(json(&request["startDate"])))?
        }
        Some(v) => return Err(ExportError::BadStartDate(json(v))),
    };
    let rid = match request.get("requestId") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => "plan".to_owned(),
        Some(v) => json(v),
    };
    let mut ctx = Ctx { w: Writer::default(), dtstamp, rid, warnings: Vec::new(), events: 0 };
    ctx.w.line("BEGIN:VCALENDAR");
    ctx.w.line("VERSION:2.0");
    ctx.w.line(&format!("PRODID:{PRODID}"));
    ctx.w.line("CALSCALE:GREGORIAN");
    if let Some(Value::String(name)) = plan.get("name") {
        ctx.w.text("X-WR-CALNAME", name);
    }
    if plan.get("kind").and_then(Value::as_str) == Some("goal") {
        ctx.goal(&plan, start);
    } else {
        let tz = match request.get("timezone") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => {
                let tz = zone(s).ok_or_else(|| ExportError::BadTimezone(json(&request["timezone"])))?;
                // the database's spelling of the name ("europe/zurich" is found as Europe/Zurich)
                Some((tz.iana_name().unwrap_or(s).to_owned(), tz))
            }
            Some(v) => return Err(ExportError::BadTimezone(json(v))),
        };
        ctx.routine(&plan, start, tz.as_ref());
    }
    ctx.w.line("END:VCALENDAR");
    Ok(Export { text: ctx.w.finish(), events: ctx.events, warnings: ctx.warnings })
}

fn json(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// `YYYYMMDDTHHMMSSZ`, a real date and time.
fn is_utc_stamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 16
        && s.is_ascii()
        && b[8] == b'T'
        && b[15] == b'Z'
        && parse_date(&format!("{}-{}-{}", &s[0..4], &s[4..6], &s[6..8])).is_some()
        && b[9..15].iter().all(u8::is_ascii_digit)
        && s[9..11] < *"24"
        && s[11..13] < *"60"
        && s[13..15] < *"61"
}

struct Ctx<'a> {
    w: Writer,
    dtstamp: &'a str,
    rid: String,
    warnings: Vec<Warning>,
    /// The `VEVENT`s and `VTODO`s written ([`Export::events`]).
    events: usize,
}

/// One block list of a routine and the weekdays (0 = mon) it applies to.
struct List<'p> {
    name: String,
    path: JsonPath,
    blocks: &'p [Value],
    days: Vec<usize>,
}

impl Ctx<'_> {
    /// The properties every `VEVENT` and `VTODO` starts with; counts it in [`Export::events`].
    fn common(&mut self, uid: &str, summary: &str, category: &str) {
        self.events += 1;
        self.w.text("UID", uid);
        self.w.line(&format!("DTSTAMP:{}", self.dtstamp));
        self.w.text("SUMMARY", summary);
        self.w.text("CATEGORIES", category);
    }

    fn routine(&mut self, plan: &Value, start: Date, tz: Option<&(String, TimeZone)>) {
        let routine = plan.get("routine");
        let weekdays = routine.and_then(|r| r.get("weekdays")).and_then(Value::as_object);
        let mut lists = Vec::new();
        let mut overridden = [false; 7];
        if let Some(w) = weekdays {
            for (key, blocks) in w {
                let Some(i) = WEEKDAYS.iter().position(|(n, _)| n == key) else { continue };
                overridden[i] = true;
                lists.push(List {
                    name: format!("weekdays/{key}"),
                    path: JsonPath::root().key("routine").key("weekdays").key(key),
                    blocks: blocks.as_array().map_or(&[], Vec::as_slice),
                    days: vec![i],
                });
            }
        }
        let default_days: Vec<usize> = (0..7).filter(|&i| !overridden[i]).collect();
        let blocks = routine.and_then(|r| r.get("blocks")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        lists.insert(
            0,
            List {
                name: "blocks".to_owned(),
                path: JsonPath::root().key("routine").key("blocks"),
                blocks,
                days: default_days,
            },
        );
        if let Some((name, tz)) = tz {
            self.vtimezone(name, tz, start);
        }
        let end = start.checked_add(HORIZON_YEARS.years()).unwrap_or(start);
        for list in &lists {
            if list.days.is_empty() {
                continue;
            }
            for (i, b) in list.blocks.iter().enumerate() {
                self.block(list, i, b, start, tz);
            }
        }
        if let Some((name, tz)) = tz {
            self.dst_warnings(&lists, name, tz, start, end);
        }
    }

    fn block(&mut self, list: &List<'_>, i: usize, b: &Value, start: Date, tz: Option<&(String, TimeZone)>) {
        let minutes = b.get("start").and_then(Value::as_str).and_then(parse_hhmm).unwrap_or(0);
        let duration = b.get("durationMin").and_then(Value::as_i64).unwrap_or(0);
        let activity = b.get("activity").and_then(Value::as_str).unwrap_or("");
        let category = b.get("category").and_then(Value::as_str).unwrap_or("");
        let essential = b.get("essential").and_then(Value::as_bool).unwrap_or(false);
        // the first date on or after startDate whose weekday the list applies to
        let first = (0..7)
            .filter_map(|k| start.checked_add(k.days()).ok())
            .find(|d| list.days.contains(&weekday_index(d.weekday())))
            .unwrap_or(start);
        let (h, m) = (i8::try_from(minutes / 60).unwrap_or(0), i8::try_from(minutes % 60).unwrap_or(0));
        let local = first.at(h, m, 0, 0);
        let dtstart = match tz {
            Some((name, _)) => format!("DTSTART;TZID={}:{}", param(name), ical_datetime(local)),
            None => format!("DTSTART:{}", ical_datetime(local)),
        };
        self.w.line("BEGIN:VEVENT");
        self.common(&format!("{}/{}/{i}@momentum-plan", self.rid, list.name), activity, category);
        self.w.line(&dtstart);
        // An exact duration (RFC 5545 §3.3.6), not a local DTEND: a local end can precede its
        // start when the block spans the autumn change (02:59 + 1 min = the second 02:00).
        self.w.line(&format!("DURATION:PT{duration}M"));
        let days: Vec<&str> = list.days.iter().map(|&d| BYDAY[d]).collect();
        self.w.line(&format!("RRULE:FREQ=WEEKLY;WKST=MO;BYDAY={}", days.join(",")));
        self.w
            .text("DESCRIPTION", &format!("{duration} min, {category}{}", if essential { ", essential" } else { "" }));
        self.w.line("TRANSP:OPAQUE");
        self.w.line("END:VEVENT");
    }

    /// A `VTIMEZONE` (RFC 5545 §3.6.5) with one observance per transition of the years the horizon
    /// touches, and the observance in force on 1 January of the first one.
    fn vtimezone(&mut self, name: &str, tz: &TimeZone, start: Date) {
        let first_year = start.year();
        let last_year = start.checked_add(HORIZON_YEARS.years()).map_or(first_year, jiff::civil::Date::year);
        let from = Date::new(first_year, 1, 1).ok().and_then(|d| tz.to_timestamp(d.at(0, 0, 0, 0)).ok());
        let until =
            Date::new(last_year.saturating_add(1), 1, 1).ok().and_then(|d| tz.to_timestamp(d.at(0, 0, 0, 0)).ok());
        let (Some(from), Some(until)) = (from, until) else { return };
        self.w.line("BEGIN:VTIMEZONE");
        self.w.line(&format!("TZID:{}", escape_tzid(name)));
        let mut any = false;
        if let Some(t) = tz.preceding(from).next() {
            self.observance(tz, t.timestamp());
            any = true;
        }
        if !any {
            let info = tz.to_offset_info(from);
            let o = ical_offset(info.offset());
            self.w.line(if info.dst().is_dst() { "BEGIN:DAYLIGHT" } else { "BEGIN:STANDARD" });
            self.w.line("DTSTART:19700101T000000");
            self.w.line(&format!("TZOFFSETFROM:{o}"));
            self.w.line(&format!("TZOFFSETTO:{o}"));
            self.w.text("TZNAME", info.abbreviation());
            self.w.line(if info.dst().is_dst() { "END:DAYLIGHT" } else { "END:STANDARD" });
        }
        let transitions: Vec<Timestamp> =
            tz.following(from).map(|t| t.timestamp()).take_while(|t| *t < until).take(64).collect();
        for t in transitions {
            self.observance(tz, t);
        }
        self.w.line("END:VTIMEZONE");
    }

    fn observance(&mut self, tz: &TimeZone, at: Timestamp) {
        let info = tz.to_offset_info(at);
        let before = at.checked_sub(SignedDuration::from_secs(1)).map_or(info.offset(), |b| tz.to_offset(b));
        let kind = if info.dst().is_dst() { "DAYLIGHT" } else { "STANDARD" };
        self.w.line(&format!("BEGIN:{kind}"));
        self.w.line(&format!("DTSTART:{}", ical_datetime(before.to_datetime(at))));
        self.w.line(&format!("TZOFFSETFROM:{}", ical_offset(before)));
        self.w.line(&format!("TZOFFSETTO:{}", ical_offset(info.offset())));
        self.w.text("TZNAME", info.abbreviation());
        self.w.line(&format!("END:{kind}"));
    }

    fn dst_warnings(&mut self, lists: &[List<'_>], name: &str, tz: &TimeZone, start: Date, end: Date) {
        let mut d = start;
        while d < end {
            let wd = weekday_index(d.weekday());
            for list in lists.iter().filter(|l| l.days.contains(&wd)) {
                for (i, b) in list.blocks.iter().enumerate() {
                    let Some(minutes) = b.get("start").and_then(Value::as_str).and_then(parse_hhmm) else { continue };
                    let (h, m) = (i8::try_from(minutes / 60).unwrap_or(0), i8::try_from(minutes % 60).unwrap_or(0));
                    let local = d.at(h, m, 0, 0);
                    if let Some(message) = dst_message(name, tz, d, local) {
                        self.warnings.push(Warning {
                            date: date_text(d),
                            path: list.path.index(i).into_string(),
                            message,
                        });
                    }
                }
            }
            let Ok(next) = d.tomorrow() else { break };
            d = next;
        }
    }

    fn goal(&mut self, plan: &Value, start: Date) {
        let days =
            plan.get("goal").and_then(|g| g.get("days")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        for (d, day) in days.iter().enumerate() {
            let due = i64::try_from(d).ok().and_then(|n| start.checked_add(n.days()).ok()).unwrap_or(start);
            let acts = day.get("activities").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            for (i, a) in acts.iter().enumerate() {
                let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("");
                let minutes = a.get("minutes").and_then(Value::as_i64).unwrap_or(0);
                self.w.line("BEGIN:VTODO");
                self.common(&format!("{}/goal/{d}/{i}@momentum-plan", self.rid), s("title"), s("category"));
                self.w.line(&format!("DUE;VALUE=DATE:{}", ical_date(due)));
                self.w.text(
                    "DESCRIPTION",
                    &format!("{}\n\nDone when: {}\n\n{} ({minutes} min)", s("guidance"), s("doneWhen"), s("activity")),
                );
                self.w.line("STATUS:NEEDS-ACTION");
                self.w.line("END:VTODO");
            }
        }
    }
}

/// What a calendar does with `local` on date `d` in zone `tz`, when the local time does not exist
/// or exists twice (RFC 5545 §3.3.5), else `None`.
fn dst_message(name: &str, tz: &TimeZone, d: Date, local: DateTime) -> Option<String> {
    let wd = WEEKDAYS[weekday_index(d.weekday())].0;
    let at = hhmm(local.time());
    match tz.to_ambiguous_timestamp(local).offset() {
        AmbiguousOffset::Unambiguous { .. } => None,
        AmbiguousOffset::Gap { before, after } => {
            let gap = (after.seconds() - before.seconds()) / 60;
            let moved =
                local.checked_add(SignedDuration::from_mins(i64::from(gap))).map_or(at.clone(), |t| hhmm(t.time()));
            Some(format!(
                "on {} ({wd}) the start {at} does not exist in {name}: the clocks jump forward {gap} minutes; \
                 calendars move this occurrence forward by the gap, to {moved} {} (RFC 5545 section 3.3.5)",
                date_text(d),
                offset_text(after)
            ))
        }
        AmbiguousOffset::Fold { before, after } => {
            let back = (before.seconds() - after.seconds()) / 60;
            Some(format!(
                "on {} ({wd}) the start {at} happens twice in {name}: the clocks go back {back} minutes; \
                 calendars use the first of the two, {at} {} (RFC 5545 section 3.3.5)",
                date_text(d),
                offset_text(before)
            ))
        }
    }
}

/// A `TZID` parameter value: quoted when it holds `:`, `;` or `,` (RFC 5545 §3.2).
fn param(name: &str) -> String {
    let clean: String = name.chars().filter(|c| *c != '"' && !c.is_control()).collect();
    if clean.contains([':', ';', ',']) { format!("\"{clean}\"") } else { clean }
}

/// The `TZID` property value of the `VTIMEZONE` (TEXT).
fn escape_tzid(name: &str) -> String {
    crate::ical::escape_text(name)
}
