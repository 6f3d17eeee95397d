//! Dates, times, weekdays and zones shared by the export and the import.

use jiff::civil::{Date, DateTime, Time, Weekday};
use jiff::tz::{Offset, TimeZone};

/// The plan's weekday names (validator.md §2), Monday first, and jiff's.
pub(crate) const WEEKDAYS: [(&str, Weekday); 7] = [
    ("mon", Weekday::Monday),
    ("tue", Weekday::Tuesday),
    ("wed", Weekday::Wednesday),
    ("thu", Weekday::Thursday),
    ("fri", Weekday::Friday),
    ("sat", Weekday::Saturday),
    ("sun", Weekday::Sunday),
];

/// The index 0 (mon) .. 6 (sun) of a weekday.
pub(crate) fn weekday_index(w: Weekday) -> usize {
    usize::try_from(w.to_monday_zero_offset()).unwrap_or(0)
}

/// The iCalendar BYDAY name of weekday index 0 (mon) .. 6 (sun).
pub(crate) const BYDAY: [&str; 7] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/// Reads `YYYY-MM-DD` exactly (validator.md §3's `startDate`): ten ASCII characters, a real date.
pub(crate) fn parse_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = digits(&b[0..4])?;
    let m = digits(&b[5..7])?;
    let d = digits(&b[8..10])?;
    Date::new(i16::try_from(y).ok()?, i8::try_from(m).ok()?, i8::try_from(d).ok()?).ok()
}

/// Reads `HH:MM` (validator.md §5: `00:00`..`23:59`, two ASCII digits each) as minutes.
pub(crate) fn parse_hhmm(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    if b.len() != 5 || b[2] != b':' {
        return None;
    }
    let h = digits(&b[0..2])?;
    let m = digits(&b[3..5])?;
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// The value of a run of ASCII digits, `None` if any byte is not one.
pub(crate) fn digits(b: &[u8]) -> Option<i32> {
    if b.is_empty() || b.len() > 9 {
        return None;
    }
    b.iter().try_fold(0i32, |acc, &c| c.is_ascii_digit().then(|| acc * 10 + i32::from(c - b'0')))
}

/// `YYYY-MM-DD`.
pub(crate) fn date_text(d: Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
}

/// `HH:MM`.
pub(crate) fn hhmm(t: Time) -> String {
    format!("{:02}:{:02}", t.hour(), t.minute())
}

/// RFC 5545 DATE: `YYYYMMDD`.
pub(crate) fn ical_date(d: Date) -> String {
    format!("{:04}{:02}{:02}", d.year(), d.month(), d.day())
}

/// RFC 5545 local DATE-TIME: `YYYYMMDDTHHMMSS`.
pub(crate) fn ical_datetime(dt: DateTime) -> String {
    format!("{}T{:02}{:02}{:02}", ical_date(dt.date()), dt.hour(), dt.minute(), dt.second())
}

/// RFC 5545 UTC-OFFSET: `+HHMM`, or `+HHMMSS` when the seconds are not zero.
pub(crate) fn ical_offset(o: Offset) -> String {
    let total = o.seconds();
    let sign = if total < 0 { '-' } else { '+' };
    let a = total.unsigned_abs();
    let (h, m, s) = (a / 3600, a / 60 % 60, a % 60);
    if s == 0 { format!("{sign}{h:02}{m:02}") } else { format!("{sign}{h:02}{m:02}{s:02}") }
}

/// `UTC+HH:MM` for messages.
pub(crate) fn offset_text(o: Offset) -> String {
    let total = o.seconds();
    let sign = if total < 0 { '-' } else { '+' };
    let a = total.unsigned_abs();
    format!("UTC{sign}{:02}:{:02}", a / 3600, a / 60 % 60)
}

/// A zone by its IANA name from the bundled tz database (no file system, no clock).
pub(crate) fn zone(name: &str) -> Option<TimeZone> {
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    jiff::tz::db().get(name).ok()
}
