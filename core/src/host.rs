//! The host-fault vocabulary: what a binding finds in its host's own values (a JavaScript object,
//! a Python dict) before they reach the core, worded once here for every surface (validator.md §7,
//! D12).
//!
//! A host value either is JSON (then the binding hands it over as text or a tree), or holds
//! something JSON cannot. Two families:
//!
//! - faults that JSON *text* could hold too, and that the core judges: nesting deeper than
//!   [`MAX_DEPTH`](crate::MAX_DEPTH) levels and lone surrogates. In a plan they become the core's
//!   `json` verdict ([`HostFault::json_error`], then [`Verdict::not_json`](crate::Verdict::not_json));
//! - faults no JSON text can express: NaN and infinities, cycles, host types without a JSON form,
//!   `undefined` and array holes, non-string member names. They are the caller's error and become
//!   an exception.
//!
//! Every binding maps its host's faults to a [`FaultKind`], builds a [`HostFault`] and raises its
//! idiomatic exception (`TypeError`/`ValueError` in Python, `TypeError`/`SyntaxError` in
//! JavaScript) with the [`Display`](fmt::Display) text, and with the argument and the path as
//! properties where the host has them. One grammar:
//! `<argument> at <JSONPath> <what>, which JSON cannot hold[ (<hint>)]`.

use crate::json::{JsonError, code_unit};
use std::fmt;

/// Which argument of a validation a fault is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Argument {
    /// The plan (validator.md §3).
    Plan,
    /// The request the plan answers (validator.md §3).
    Request,
}

impl Argument {
    /// `plan` or `request`: the word messages use, and the `.argument` property of host errors.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Argument::Plan => "plan",
            Argument::Request => "request",
        }
    }

    /// The argument named `name` (`plan`, `request`), for bindings that carry it as a string.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Argument> {
        match name {
            "plan" => Some(Argument::Plan),
            "request" => Some(Argument::Request),
            _ => None,
        }
    }

    /// The message for an argument given as JSON text that is not JSON, e.g. `request is not
    /// JSON: expected a JSON value at line 1, column 1`. Bindings raise it as their syntax error
    /// (JavaScript `SyntaxError`, Python `ValueError`). A plan that is not JSON is a verdict
    /// instead ([`crate::Verdict::not_json`]), so in practice this is the request's.
    #[must_use]
    pub fn not_json(self, error: &JsonError) -> String {
        format!("{} is not JSON: {error}", self.as_str())
    }
}

impl fmt::Display for Argument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kind of a fault a host finds in its own value (validator.md §7, D12). The names
/// ([`FaultKind::as_str`]) are stable: the JavaScript converter hands them to the native side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FaultKind {
    /// A number JSON has no form for: NaN, +∞ or −∞. The detail is the value's host text (see
    /// [`HostFault::not_finite`]).
    NotFinite,
    /// A container that contains itself. The detail is the JSONPath of the container it refers
    /// back to.
    Cycle,
    /// A host type without a JSON form (a function, a symbol, a BigInt, a `Map`, a Python `set`).
    /// The detail names it in the host's words, with an article: `a Map`, `a function (f)`.
    Unsupported,
    /// `undefined`, or a hole, as an array element (JavaScript). No detail.
    Hole,
    /// The argument itself is `undefined` (JavaScript), or `undefined` where a value must be. No detail.
    Undefined,
    /// A member name that is not a string (a Python dict key such as `1`). The detail names it:
    /// `an int (1)`.
    NonStringName,
    /// Nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) levels; the path is the first container
    /// too deep. In a plan: the `json` verdict.
    TooDeep,
    /// A lone surrogate in a string value. The detail is the code unit as four hex digits
    /// (`D83D`). In a plan: the `json` verdict.
    LoneSurrogate,
    /// A lone surrogate in a member name; the path is the member's. As [`FaultKind::LoneSurrogate`].
    LoneSurrogateInName,
}

impl FaultKind {
    /// Every kind, in declaration order.
    pub const ALL: [FaultKind; 9] = [
        FaultKind::NotFinite,
        FaultKind::Cycle,
        FaultKind::Unsupported,
        FaultKind::Hole,
        FaultKind::Undefined,
        FaultKind::NonStringName,
        FaultKind::TooDeep,
        FaultKind::LoneSurrogate,
        FaultKind::LoneSurrogateInName,
    ];

    /// The kind's stable name: `notFinite`, `cycle`, `unsupported`, `hole`, `undefined`,
    /// `nonStringName`, `tooDeep`, `loneSurrogate`, `loneSurrogateInName`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            FaultKind::NotFinite => "notFinite",
            FaultKind::Cycle => "cycle",
            FaultKind::Unsupported => "unsupported",
            FaultKind::Hole => "hole",
            FaultKind::Undefined => "undefined",
            FaultKind::NonStringName => "nonStringName",
            FaultKind::TooDeep => "tooDeep",
            FaultKind::LoneSurrogate => "loneSurrogate",
            FaultKind::LoneSurrogateInName => "loneSurrogateInName",
        }
    }

    /// The kind named `name` ([`FaultKind::as_str`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether JSON text could hold this fault too, so that the core judges it: in a plan it is
    /// the `json` verdict, not an exception (D12, §7).
    #[must_use]
    pub const fn is_json(self) -> bool {
        matches!(self, FaultKind::TooDeep | FaultKind::LoneSurrogate | FaultKind::LoneSurrogateInName)
    }

    /// Whether the host's *type* is at fault (`unsupported`, `nonStringName`): bindings whose host
    /// tells type errors from value errors (Python's `TypeError`/`ValueError`) use this.
    #[must_use]
    pub const fn is_type(self) -> bool {
        matches!(self, FaultKind::Unsupported | FaultKind::NonStringName | FaultKind::Hole | FaultKind::Undefined)
    }
}

/// A fault in a host value: which argument, where (a JSONPath rendered by [`crate::JsonPath`]),
/// what kind, and the kind's detail (see [`FaultKind`]). Its [`Display`](fmt::Display) is the one
/// message every binding raises, e.g.
/// `plan at $.routine.blocks[0].durationMin is NaN, which JSON cannot hold (JSON has no NaN or Infinity)`.
///
/// Two families (validator.md §7, D12): a fault JSON *text* could hold too (nesting deeper than
/// [`MAX_DEPTH`](crate::MAX_DEPTH) levels, a lone surrogate) is the core's to judge, as the
/// [`JsonError`] of [`HostFault::json_error`] (in a plan, the `json` verdict of
/// [`Verdict::not_json`](crate::Verdict::not_json)); a fault no JSON text can express (NaN and
/// infinities, cycles, host types without a JSON form, `undefined` and array holes, non-string
/// member names) is the caller's error, raised as the host's idiomatic exception with this text.
/// One grammar: `<argument> at <JSONPath> <what>, which JSON cannot hold[ (<hint>)]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostFault {
    /// The argument the fault is in.
    pub argument: Argument,
    /// The JSONPath of the faulty value (for [`FaultKind::Cycle`], the value that refers back).
    pub path: String,
    /// What is wrong.
    pub kind: FaultKind,
    /// The kind's detail (empty when it has none): see each [`FaultKind`].
    pub detail: String,
}

impl HostFault {
    /// A fault of `kind` with `detail` at `path` in `argument`.
    #[must_use]
    pub fn new(argument: Argument, path: impl Into<String>, kind: FaultKind, detail: impl Into<String>) -> HostFault {
        HostFault { argument, path: path.into(), kind, detail: detail.into() }
    }

    /// A number that is not finite: `value` is NaN or ±∞ (the detail is `NaN`, `Infinity` or
    /// `-Infinity`, whatever the host calls it, so every surface says the same).
    #[must_use]
    pub fn not_finite(argument: Argument, path: impl Into<String>, value: f64) -> HostFault {
        let text = if value.is_nan() {
            "NaN"
        } else if value > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        HostFault::new(argument, path, FaultKind::NotFinite, text)
    }

    /// A lone surrogate, the code unit `unit`, in a string value (`in_name == false`) or member
    /// name at `path`.
    #[must_use]
    pub fn lone_surrogate(argument: Argument, path: impl Into<String>, unit: u16, in_name: bool) -> HostFault {
        let kind = if in_name { FaultKind::LoneSurrogateInName } else { FaultKind::LoneSurrogate };
        HostFault::new(argument, path, kind, format!("{unit:04X}"))
    }

    /// For the faults JSON text could hold too ([`FaultKind::is_json`]): the [`JsonError`] the
    /// core judges a plan by (the `json` verdict, D12). `None` for the others.
    #[must_use]
    pub fn json_error(&self) -> Option<JsonError> {
        match self.kind {
            FaultKind::TooDeep => Some(JsonError::too_deep()),
            FaultKind::LoneSurrogate | FaultKind::LoneSurrogateInName => Some(JsonError::lone_surrogate_in_value(
                self.unit(),
                &self.path,
                self.kind == FaultKind::LoneSurrogateInName,
            )),
            _ => None,
        }
    }

    /// The code unit of a lone-surrogate fault (`0xD800` when the detail is not hex).
    fn unit(&self) -> u16 {
        u16::from_str_radix(&self.detail, 16).unwrap_or(0xD800)
    }
}

impl fmt::Display for HostFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let HostFault { argument, path, detail, .. } = self;
        write!(f, "{argument} at {path} ")?;
        match self.kind {
            FaultKind::NotFinite => write!(f, "is {detail}, which JSON cannot hold (JSON has no NaN or Infinity)"),
            FaultKind::Cycle => write!(f, "refers back to {detail} (a cycle), which JSON cannot hold"),
            FaultKind::Unsupported => write!(f, "is {detail}, which JSON cannot hold"),
            FaultKind::Hole => f.write_str("is undefined (or a hole) inside an array, which JSON cannot hold"),
            FaultKind::Undefined => f.write_str("is undefined, which JSON cannot hold"),
            FaultKind::NonStringName => {
                write!(f, "has a member name that is {detail}, which JSON cannot hold (member names are strings)")
            }
            FaultKind::TooDeep => {
                write!(f, "is nested deeper than {} levels, which JSON cannot hold here", crate::MAX_DEPTH)
            }
            FaultKind::LoneSurrogate => write!(
                f,
                "holds a lone surrogate ({}), which JSON cannot hold (it is not a character)",
                code_unit(self.unit())
            ),
            FaultKind::LoneSurrogateInName => write!(
                f,
                "has a member name holding a lone surrogate ({}), which JSON cannot hold (it is not a character)",
                code_unit(self.unit())
            ),
        }
    }
}

impl std::error::Error for HostFault {}

/// The JSON number text of a host's in-memory floating-point number (validator.md §7: "in-memory
/// floats: shortest round-trip form"): the shortest digits that read back as `value`, always
/// with a fraction or an exponent, so the core never reads it as an integer (`30.0`,
/// `9007199254740992.0`, `1e+20`, `1.5e-6`, `-0.0`). `None` for NaN and ±∞, which JSON cannot hold
/// ([`HostFault::not_finite`]).
///
/// Bindings use it for every host number that is not an integer in the host's own terms: a Python
/// `float`, and a JavaScript number that is not an integral value within ±(2^53−1).
#[must_use]
pub fn float_text(value: f64) -> Option<String> {
    serde_json::Number::from_f64(value).map(|n| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_text_is_never_an_integer_literal() {
        let cases = [
            (30.0, "30.0"),
            (30.5, "30.5"),
            (9_007_199_254_740_992.0, "9007199254740992.0"),
            (-9_007_199_254_740_992.0, "-9007199254740992.0"),
            (1e20, "1e+20"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (1.5e-6, "1.5e-6"),
            (1.5e-5, "0.000015"),
            (-0.0, "-0.0"),
        ];
        for (v, text) in cases {
            assert_eq!(float_text(v).as_deref(), Some(text), "{v}");
        }
        assert_eq!(float_text(f64::NAN), None);
        assert_eq!(float_text(f64::INFINITY), None);
    }

    #[test]
    fn kinds_round_trip_by_name() {
        for k in FaultKind::ALL {
            assert_eq!(FaultKind::from_name(k.as_str()), Some(k));
        }
        assert_eq!(FaultKind::from_name("nan"), None);
    }

    #[test]
    fn one_grammar_for_every_fault() {
        let f = HostFault::not_finite(Argument::Plan, "$.a", f64::NEG_INFINITY);
        assert_eq!(f.to_string(), "plan at $.a is -Infinity, which JSON cannot hold (JSON has no NaN or Infinity)");
        let f = HostFault::new(Argument::Request, "$.b[1]", FaultKind::Cycle, "$");
        assert_eq!(f.to_string(), "request at $.b[1] refers back to $ (a cycle), which JSON cannot hold");
        let f = HostFault::lone_surrogate(Argument::Plan, "$.name", 0xD83D, false);
        assert_eq!(
            f.to_string(),
            "plan at $.name holds a lone surrogate (U+D83D), which JSON cannot hold (it is not a character)"
        );
        assert_eq!(
            f.json_error().map(|e| e.to_string()).as_deref(),
            Some("a lone surrogate (U+D83D) in the string at $.name is not a character")
        );
        let e = HostFault::new(Argument::Plan, "$.a", FaultKind::TooDeep, "").json_error();
        assert_eq!(e.map(|e| e.reason).as_deref(), Some("nesting deeper than 512 levels is not allowed"));
        assert_eq!(HostFault::new(Argument::Plan, "$", FaultKind::Hole, "").json_error(), None);
    }

    #[test]
    fn lone_surrogate_in_text_counts_characters() {
        let e = JsonError::lone_surrogate_in_text(0xDC00, "{\n  \"é😀");
        assert_eq!((e.line, e.column), (2, 6));
        assert_eq!(e.to_string(), "a lone surrogate (U+DC00) is not a character at line 2, column 6");
    }
}
