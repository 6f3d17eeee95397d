//! The verdict (validator.md §4): issue codes, checks and issues, with their exact JSON form.

use crate::json::JsonError;
use crate::messages;
use serde::Serialize;

/// Defines [`IssueCode`] and its string registry in one place, so a code and its string can never
/// drift apart.
macro_rules! issue_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, )*) => {
        /// Every issue code the validator can report (validator.md §5–§6).
        ///
        /// This is the one registry of codes. A code's string is stable forever: codes are added,
        /// never renamed, removed or reused. Serializes as its string (e.g. `"overlap"`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum IssueCode {
            $( $(#[$doc])* $variant, )*
        }

        impl IssueCode {
            /// Every code, in registry order.
            pub const ALL: &'static [IssueCode] = &[ $( IssueCode::$variant, )* ];

            /// The stable string of this code, as written in verdicts.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $( IssueCode::$variant => $code, )* }
            }
        }

        /// The code whose stable string is `s` (`"overlap".parse()`); any other string is an
        /// [`UnknownIssueCode`] (validator.md §4).
        impl std::str::FromStr for IssueCode {
            type Err = UnknownIssueCode;

            fn from_str(s: &str) -> Result<IssueCode, UnknownIssueCode> {
                match s { $( $code => Ok(IssueCode::$variant), )* _ => Err(UnknownIssueCode(s.to_owned())) }
            }
        }
    };
}

issue_codes! {
    /// §5.1: the plan text is not JSON (or is too deep, has a BOM, NaN, a lone surrogate: D12).
    Json = "json",
    /// §5.1, D1: a value has the wrong JSON type (the plan, a container, a block, a day...).
    Type = "type",
    /// §5.2, D3: the plan is larger than `payloadBytes` UTF-8 bytes.
    Size = "size",
    /// §5.3: `format` is not `daily-momentum-ai-plan`.
    Format = "format",
    /// §5.3, D2: `contractVersion` is not numerically 1.
    ContractVersion = "contractVersion",
    /// §5.3–5.4: `kind` is not `routine`/`goal`, or not the request's kind.
    Kind = "kind",
    /// §5.3, §5.5, §5.8: a required value is missing, not a string, blank, or an empty list.
    Required = "required",
    /// §5.3, D6: a string is longer than its limit in Unicode scalar values.
    Length = "length",
    /// §5.4: `requestId` differs from the request's.
    RequestId = "requestId",
    /// §5.4: the echoed `request` is not deeply equal to the request.
    Request = "request",
    /// D1, §7: the request itself is malformed (reported at the plan's echo of it).
    RequestInvalid = "requestInvalid",
    /// §5.5b: a `routine.weekdays` key is not a weekday id.
    Weekday = "weekday",
    /// §5.5, §5.8, D6: too many blocks, activities, days or distinct activity names.
    Limit = "limit",
    /// §5.5: a block's `start` is not `HH:MM` (D11).
    Time = "time",
    /// §5.5, §5.8, D2: `durationMin` or `minutes` is not an integer in 1..720.
    Duration = "duration",
    /// §5.5, §5.8: a category that is not one of the nine.
    Category = "category",
    /// §5.5, D10: a block's `activity` is not a string, is blank, or is longer than 40.
    Activity = "activity",
    /// §5.5: a block's `essential` is not a boolean.
    Essential = "essential",
    /// §5.5, D8: a block starts before the previous one ends (or an overnight block runs into the
    /// first block of its list).
    Overlap = "overlap",
    /// §5.5: a block runs past midnight and may not (not the last `rest` block).
    Midnight = "midnight",
    /// §5.5 warning: the list's last block, a `rest` block, runs past midnight.
    Overnight = "overnight",
    /// §5.7, D4, D5, D9: a block overlaps a commitment and is not that commitment.
    Commitment = "commitment",
    /// §5.8: the number of goal days differs from the request's `days`.
    Days = "days",
    /// §5.8: a goal day's valid minutes add up to more than 1440.
    Feasibility = "feasibility",
    /// mcp-server.md `save_plan`: the plan was left as it was (a warning of the save result, never
    /// produced by the validator).
    NotSaved = "notSaved",
}

impl IssueCode {
    /// Whether an issue with this code is a warning (`overnight`, validator.md §5.5; `notSaved`,
    /// mcp-server.md `save_plan`) rather than an error: where a [`Verdict`] lists it. For a host
    /// that has an issue without its verdict, as [`crate::PlanStream::push`] returns them (§10).
    #[must_use]
    pub const fn is_warning(self) -> bool {
        matches!(self, IssueCode::Overnight | IssueCode::NotSaved)
    }
}

impl Serialize for IssueCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for IssueCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that is not an issue code (validator.md §4): the error of parsing an [`IssueCode`]
/// (`"overlapping".parse::<IssueCode>()`). Holds the string; displays as
/// `"overlapping" is not an issue code`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownIssueCode(pub String);

impl std::fmt::Display for UnknownIssueCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not an issue code", self.0)
    }
}

impl std::error::Error for UnknownIssueCode {}

/// The eight checks, in the order they run (validator.md §4–§5). Serializes as its string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    /// §5.1 `json`: the plan is JSON and an object.
    Json,
    /// §5.2 `size`.
    Size,
    /// §5.3 `envelope`.
    Envelope,
    /// §5.4 `request`.
    Request,
    /// §5.5 `fields`.
    Fields,
    /// §5.6 `day-shape`.
    DayShape,
    /// §5.7 `commitments`.
    Commitments,
    /// §5.8 `feasibility`.
    Feasibility,
}

impl Check {
    /// All eight checks in order: what `checks` holds whenever the plan is a JSON object.
    pub const ALL: [Check; 8] = [
        Check::Json,
        Check::Size,
        Check::Envelope,
        Check::Request,
        Check::Fields,
        Check::DayShape,
        Check::Commitments,
        Check::Feasibility,
    ];

    /// The check's name as written in verdicts, e.g. `"day-shape"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Check::Json => "json",
            Check::Size => "size",
            Check::Envelope => "envelope",
            Check::Request => "request",
            Check::Fields => "fields",
            Check::DayShape => "day-shape",
            Check::Commitments => "commitments",
            Check::Feasibility => "feasibility",
        }
    }
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One error or warning (validator.md §4): serializes as `{"code","path","message"}` in that order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// The stable issue code.
    pub code: IssueCode,
    /// Where: a JSONPath from the plan's root `$`, rendered per validator.md §4 (see
    /// [`crate::JsonPath`]).
    pub path: String,
    /// What is wrong and what to change, in English, for the model that drafted the plan.
    /// Never empty.
    pub message: String,
}

impl Issue {
    /// An issue at a rendered path.
    #[must_use]
    pub fn new(code: IssueCode, path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue { code, path: path.into(), message: message.into() }
    }
}

/// The verdict on a plan (validator.md §4): serializes as
/// `{"valid","errors","warnings","checks"}` in that order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// True exactly when `errors` is empty.
    pub valid: bool,
    /// The errors, in the order of validator.md §5.
    pub errors: Vec<Issue>,
    /// The warnings (`overnight`), in the order of validator.md §5.
    pub warnings: Vec<Issue>,
    /// The checks that ran, in order: all eight for a JSON object plan, else only `json`.
    pub checks: Vec<Check>,
}

impl Verdict {
    /// The verdict as compact JSON text (the exact bytes every surface must produce).
    ///
    /// Written directly (the same bytes as `serde_json::to_string` of this verdict, which its
    /// `Serialize` implementation gives; a test holds the two equal).
    #[must_use]
    pub fn to_json(&self) -> String {
        let text: usize =
            self.errors.iter().chain(&self.warnings).map(|i| i.path.len() + i.message.len() + 48).sum::<usize>();
        let mut out = String::with_capacity(text + 160);
        out.push_str(if self.valid { "{\"valid\":true,\"errors\":" } else { "{\"valid\":false,\"errors\":" });
        write_issues(&self.errors, &mut out);
        out.push_str(",\"warnings\":");
        write_issues(&self.warnings, &mut out);
        out.push_str(",\"checks\":[");
        for (i, c) in self.checks.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            out.push_str(c.as_str());
            out.push('"');
        }
        out.push_str("]}");
        out
    }

    /// The verdict packed into one string for a JavaScript host, which splits it into the plain
    /// objects of [`Verdict::to_json`] faster than `JSON.parse` reads that JSON (both JS packages
    /// share the splitting: `unpackVerdict` in `js/convert.js`).
    ///
    /// Output: fields joined by NUL (U+0000): `valid` (`1`/`0`), the checks as digits (each one's
    /// position in [`Check::ALL`]), then for `errors` and for `warnings` their count and each
    /// issue's `code`, `path`, `message`. When a path or message holds a NUL itself (a member name
    /// in a path can), the output is [`Verdict::to_json`] instead, which starts with `{` (a packed
    /// verdict never does), so a reader takes either.
    #[must_use]
    pub fn to_packed(&self) -> String {
        let issues = || self.errors.iter().chain(&self.warnings);
        if issues().any(|i| i.path.contains('\0') || i.message.contains('\0')) {
            return self.to_json();
        }
        let text: usize = issues().map(|i| i.code.as_str().len() + i.path.len() + i.message.len() + 3).sum();
        let mut out = String::with_capacity(text + 32);
        out.push(if self.valid { '1' } else { '0' });
        out.push('\0');
        for c in &self.checks {
            out.push(char::from(b'0' + *c as u8));
        }
        for list in [&self.errors, &self.warnings] {
            out.push('\0');
            push_count(list.len(), &mut out);
            for Issue { code, path, message } in list {
                out.push('\0');
                out.push_str(code.as_str());
                out.push('\0');
                out.push_str(path);
                out.push('\0');
                out.push_str(message);
            }
        }
        out
    }

    /// The verdict as pretty JSON text (two-space indent), for people.
    #[must_use]
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// `n` in decimal.
fn push_count(n: usize, out: &mut String) {
    if let Ok(d) = u8::try_from(n)
        && d < 10
    {
        out.push(char::from(b'0' + d));
    } else {
        out.push_str(&n.to_string());
    }
}

/// `issues` as a JSON array of `{"code","path","message"}` objects.
fn write_issues(issues: &[Issue], out: &mut String) {
    out.push('[');
    for (i, issue) in issues.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"code\":\"");
        out.push_str(issue.code.as_str());
        out.push_str("\",\"path\":");
        crate::quote::write_string(&issue.path, out);
        out.push_str(",\"message\":");
        crate::quote::write_string(&issue.message, out);
        out.push('}');
    }
    out.push(']');
}

impl Verdict {
    /// The verdict for a plan that cannot be read as JSON (validator.md §5.1): one `json` error at
    /// `$` whose message gives `error`, and `checks` `["json"]`. Bindings use it for host values
    /// that JSON cannot hold (a lone surrogate in a string, nesting over [`crate::MAX_DEPTH`]).
    #[must_use]
    pub fn not_json(error: &JsonError) -> Verdict {
        Verdict {
            valid: false,
            errors: vec![Issue::new(IssueCode::Json, "$", messages::not_json(error))],
            warnings: Vec::new(),
            checks: vec![Check::Json],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn to_json_writes_the_bytes_serde_json_writes() {
        let every_byte: String = (0u8..0x80).map(char::from).collect();
        let issue = |code, path: &str, message: &str| Issue::new(code, path, message);
        for v in [
            Verdict { valid: true, errors: vec![], warnings: vec![], checks: Check::ALL.to_vec() },
            Verdict {
                valid: false,
                errors: vec![
                    issue(IssueCode::Json, "$", &every_byte),
                    issue(IssueCode::Time, "$['a\\'\nb\u{7f}é😀']", "\"x\" \\ \u{1}\u{1f}\u{2028}"),
                ],
                warnings: vec![issue(IssueCode::Overnight, "$.routine.blocks[4]", "")],
                checks: vec![Check::Json],
            },
        ] {
            assert_eq!(v.to_json(), serde_json::to_string(&v).unwrap());
        }
    }

    #[test]
    fn to_packed_joins_the_fields_by_nul_or_falls_back_to_json() {
        // Each check's digit is its position in `Check::ALL`.
        for (i, c) in Check::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i, "{c:?}");
        }
        let issue = |code, path: &str, message: &str| Issue::new(code, path, message);
        let errors: Vec<Issue> = (0..11).map(|i| issue(IssueCode::Time, &format!("$.b[{i}]"), "é")).collect();
        let v = Verdict {
            valid: false,
            errors,
            warnings: vec![issue(IssueCode::Overnight, "$.routine.blocks[4]", "runs past")],
            checks: Check::ALL.to_vec(),
        };
        let mut want = String::from("0\u{0}01234567\u{0}11");
        for i in 0..11 {
            let _ = write!(want, "\u{0}time\u{0}$.b[{i}]\u{0}é");
        }
        want.push_str("\u{0}1\u{0}overnight\u{0}$.routine.blocks[4]\u{0}runs past");
        assert_eq!(v.to_packed(), want);
        let valid = Verdict { valid: true, errors: vec![], warnings: vec![], checks: vec![Check::Json] };
        assert_eq!(valid.to_packed(), "1\u{0}0\u{0}0\u{0}0");
        let nul = Verdict { errors: vec![issue(IssueCode::Type, "$['a\u{0}b']", "x")], ..valid };
        assert_eq!(nul.to_packed(), nul.to_json());
    }
}
