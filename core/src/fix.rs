//! Fixes (validator.md §9): what to change so an issue goes away, graded as compilers and linters
//! grade theirs. The validator proposes them next to the rule that raises each issue
//! (`validate/`, in collecting mode only, so `validate` pays nothing for them);
//! [`crate::repair()`] applies them, and proposes the timing fixes (a block moved or shortened)
//! itself.
//!
//! The normalizers here are the fix tables of §9: each is the *only* reading a safe fix may make
//! (representation only: case, surrounding white space, the literal form of a number or time), or
//! the word lists an unsafe fix may use (the category synonyms kept next to the contract, English
//! weekday names).

use crate::contract::{CATEGORIES, CATEGORY_SYNONYMS, LIMITS, WEEKDAYS, is_category, weekday_index};
use crate::json::{deep_equal, integer_in, is_blank_char, parse_hhmm};
use crate::tree::Node;
use crate::verdict::IssueCode;

use serde_json::Value;

/// How sure a fix is (validator.md §9; rustc's `Applicability`, Ruff's fix safety).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Applicability {
    /// Changes only how a value is written, or copies a value the validator already knows
    /// (the request's echo, the `format` constant): applied by default.
    Safe,
    /// Changes meaning (a synonym, a guessed weekday name, a number rounded, a block moved or
    /// shortened): applied only when asked.
    Unsafe,
    /// Needs the person or the model to supply a value: offered, never applied.
    Placeholder,
}

impl Applicability {
    /// Every applicability, from the surest.
    pub const ALL: [Applicability; 3] = [Applicability::Safe, Applicability::Unsafe, Applicability::Placeholder];

    /// `safe`, `unsafe` or `placeholder`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
            Applicability::Placeholder => "placeholder",
        }
    }
}

/// One fix for one issue (validator.md §9): the issue's `code` and `path`, how sure it is, and
/// what it does in words written for the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Fix {
    /// The code of the issue the fix answers.
    pub code: IssueCode,
    /// The JSONPath of that issue (validator.md §4).
    pub path: String,
    /// Safe, unsafe or placeholder.
    pub applicability: Applicability,
    /// What the fix does, e.g. `Write start as "07:00".`
    pub description: String,
    /// The edit itself, on the plan as a JSON value.
    pub(crate) edit: Edit,
}

/// An edit of the plan value. Pointers are RFC 6901 JSON Pointers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Edit {
    /// Set the value at `pointer` (added as a new member when absent).
    Set { pointer: String, value: Value },
    /// Remove the member at `pointer`.
    Remove { pointer: String },
    /// Rename member `from` of the object at `parent` to `to`, keeping its position.
    Rename { parent: String, from: String, to: String },
    /// Nothing to apply (a placeholder).
    None,
}

impl Edit {
    /// The pointer the edit writes (for a rename, the old member's).
    pub(crate) fn pointer(&self) -> Option<String> {
        match self {
            Edit::Set { pointer, .. } | Edit::Remove { pointer } => Some(pointer.clone()),
            Edit::Rename { parent, from, .. } => Some(format!("{parent}/{}", escape_pointer(from))),
            Edit::None => None,
        }
    }
}

/// A member name as one RFC 6901 reference token (`~` → `~0`, `/` → `~1`).
pub(crate) fn escape_pointer(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// `s` without the surrounding white space of "blank" (§6).
fn trim(s: &str) -> &str {
    s.trim_matches(is_blank_char)
}

/// A time written another way that means exactly `HH:MM` (safe, §9): surrounding white space,
/// a one-digit hour (`7:00`), zero seconds (`07:00:00`). Only ASCII digits.
pub(crate) fn time_safe(s: &str) -> Option<String> {
    let t = trim(s);
    let t = t.strip_suffix(":00").filter(|x| x.len() >= 4 && x.matches(':').count() == 1).unwrap_or(t);
    let (h, m) = t.split_once(':')?;
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit());
    if !(digits(h) && digits(m) && (1..=2).contains(&h.len()) && m.len() == 2) {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    let out = format!("{h:02}:{m:02}");
    (h < 24 && m < 60 && out != s).then_some(out)
}

/// A number literal with a fraction or exponent whose exact value is a whole number in
/// `lo..=hi` (`30.0`, `3e1`, `300e-1`; safe, §9), or a string of ASCII digits with that value
/// (`"30"`). Exact: no rounding through floating point.
pub(crate) fn whole_number_safe(v: &Value, lo: i64, hi: i64) -> Option<i64> {
    let n = match v {
        Value::Number(n) => exact_integer(n.as_str())?,
        Value::String(s) if !s.is_empty() && s.len() <= 6 && s.bytes().all(|c| c.is_ascii_digit()) => s.parse().ok()?,
        _ => return None,
    };
    (lo..=hi).contains(&n).then_some(n)
}

/// The exact integer value of a JSON number literal, when it has one and is small.
fn exact_integer(lit: &str) -> Option<i64> {
    let (neg, rest) = lit.strip_prefix('-').map_or((false, lit), |r| (true, r));
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].trim_start_matches('+').parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = format!("{int}{frac}");
    let mut scale = exp - i64::try_from(frac.len()).ok()?; // value = digits × 10^scale
    while scale < 0 && digits.ends_with('0') {
        digits.pop();
        scale += 1;
    }
    if !(0..=6).contains(&scale) || digits.len() > 12 {
        return None;
    }
    let d: i64 = if digits.is_empty() { 0 } else { digits.parse().ok()? };
    let v = d.checked_mul(10i64.checked_pow(u32::try_from(scale).ok()?)?)?;
    Some(if neg { -v } else { v })
}

/// A category id written another way (safe, §9): surrounding white space and letter case.
pub(crate) fn category_safe(s: &str) -> Option<&'static str> {
    let t = trim(s).to_lowercase();
    CATEGORIES.iter().map(|c| c.id).find(|id| *id == t && *id != s)
}

/// A category named by a synonym (unsafe, §9: `food` → `nourish`, `sleep` → `rest`): the value
/// after the safe normalisation (surrounding white space, letter case, inner runs of white space
/// as one space) is a word of the contract's synonym table ([`CATEGORY_SYNONYMS`]), or is one
/// with a final `s` (a plural: `meals`, `chores`). `None` for an id itself (the safe fix's) and
/// for any other word.
pub(crate) fn category_synonym(s: &str) -> Option<&'static str> {
    let t = trim(s).to_lowercase().split(is_blank_char).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    if is_category(&t) {
        return None;
    }
    let find = |w: &str| CATEGORY_SYNONYMS.iter().find(|(word, _)| *word == w).map(|(_, id)| *id);
    find(&t).or_else(|| t.strip_suffix('s').and_then(find))
}

/// English weekday names, `mon` first (the unsafe weekday table of §9).
const WEEKDAY_NAMES: [&str; 7] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/// A weekday id written another way (safe, §9): surrounding white space and letter case.
pub(crate) fn weekday_safe(key: &str) -> Option<&'static str> {
    let t = trim(key).to_lowercase();
    WEEKDAYS.iter().copied().find(|d| *d == t && *d != key)
}

/// A weekday named in English (unsafe, §9): `Monday`, `tues`, `Thurs.`: at least three letters
/// that begin exactly one weekday's name.
pub(crate) fn weekday_name(key: &str) -> Option<&'static str> {
    let t = trim(key).trim_end_matches('.').to_lowercase();
    if t.len() < 3 || weekday_index(&t).is_some() {
        return None;
    }
    let mut hits = WEEKDAY_NAMES.iter().enumerate().filter(|(_, n)| n.starts_with(t.as_str()));
    match (hits.next(), hits.next()) {
        (Some((i, _)), None) => Some(WEEKDAYS[i]),
        _ => None,
    }
}

/// A day's blocks in a clean order, when one exists that only the blocks' own start times
/// determine (safe, §9): blocks that repeat an earlier block exactly are dropped, the rest put in
/// start order (stable), and the result must then have no overlap, no block past midnight but a
/// final `rest` block, and that block's morning part must end by the first start (D8). Every
/// block must be an object with a valid start and duration. `None` when the order is already
/// this one and nothing repeats, or when no such order is clean. Returns the blocks and how many
/// repeats were dropped.
pub(crate) fn clean_order<'a>(blocks: &'a [Node<'a>]) -> Option<(Vec<&'a Node<'a>>, usize)> {
    let max = i64::from(LIMITS.minutes_per_activity);
    let mut kept: Vec<&Node<'_>> = Vec::with_capacity(blocks.len());
    for b in blocks {
        if !kept.iter().any(|k| deep_equal(k, b)) {
            kept.push(b);
        }
    }
    let removed = blocks.len() - kept.len();
    let times = |b: &Node<'_>| -> Option<(i64, i64)> {
        let start = i64::from(parse_hhmm(b.get("start")?, false)?);
        Some((start, start + integer_in(b.get("durationMin")?, 1, max)?))
    };
    let mut timed: Vec<(i64, i64, &Node<'_>)> = Vec::with_capacity(kept.len());
    for b in &kept {
        let (s, e) = times(b)?;
        timed.push((s, e, b));
    }
    timed.sort_by_key(|t| t.0);
    let unchanged = removed == 0 && timed.iter().zip(blocks).all(|(t, b)| std::ptr::eq(t.2, b));
    let last = timed.len().checked_sub(1)?;
    let first_start = timed.first()?.0;
    for (i, (s, e, b)) in timed.iter().enumerate() {
        if i > 0 && *s < timed[i - 1].1 {
            return None;
        }
        if *e > 1440 {
            let rest = matches!(b.get("category"), Some(Node::String("rest")));
            if i != last || !rest || *e - 1440 > first_start {
                return None;
            }
        }
    }
    (!unchanged).then(|| (timed.into_iter().map(|t| t.2).collect(), removed))
}

/// `"true"`/`"false"` as the boolean they spell (safe, §9).
pub(crate) fn boolean_safe(v: &Value) -> Option<bool> {
    match v {
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

/// Yes/no words and 0/1 as a boolean (unsafe, §9).
pub(crate) fn boolean_guess(v: &Value) -> Option<bool> {
    match v {
        Value::String(s) => match trim(s).to_lowercase().as_str() {
            "true" | "yes" | "y" | "1" => Some(true),
            "false" | "no" | "n" | "0" => Some(false),
            _ => None,
        },
        Value::Number(n) if n.as_str() == "1" => Some(true),
        Value::Number(n) if n.as_str() == "0" => Some(false),
        _ => None,
    }
}

/// `s` without surrounding white space, when that makes it non-blank and at most `limit`
/// characters long (safe, §9).
pub(crate) fn trimmed_fits(s: &str, limit: u32) -> Option<String> {
    let t = trim(s);
    (!t.is_empty() && t.len() != s.len() && t.chars().count() <= limit as usize).then(|| t.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn safe_readings_change_only_the_writing() {
        assert_eq!(time_safe("7:00").as_deref(), Some("07:00"));
        assert_eq!(time_safe(" 07:30\n").as_deref(), Some("07:30"));
        assert_eq!(time_safe("07:00:00").as_deref(), Some("07:00"));
        for bad in ["07:00", "24:00", "7:5", "07:60", "０７:００", "0700", "7am", "", "07:00:30"] {
            assert_eq!(time_safe(bad), None, "{bad:?}");
        }
        let n = |s: &str| serde_json::from_str::<Value>(s).unwrap_or_default();
        assert_eq!(whole_number_safe(&n("30.0"), 1, 720), Some(30));
        assert_eq!(whole_number_safe(&n("3e1"), 1, 720), Some(30));
        assert_eq!(whole_number_safe(&n("300e-1"), 1, 720), Some(30));
        assert_eq!(whole_number_safe(&json!("30"), 1, 720), Some(30));
        for bad in ["30.5", "0.0", "721.0", "30.0000000000000001", "1e400", "-30.0", "\"-30\"", "\" 30\"", "true"] {
            assert_eq!(whole_number_safe(&n(bad), 1, 720), None, "{bad}");
        }
        assert_eq!(category_safe(" Body"), Some("body"));
        assert_eq!(category_safe("body"), None);
        assert_eq!(category_safe("food"), None);
        assert_eq!(weekday_safe("Mon "), Some("mon"));
        assert_eq!(weekday_safe("mon"), None);
        assert_eq!(boolean_safe(&json!("true")), Some(true));
        assert_eq!(boolean_safe(&json!("yes")), None);
        assert_eq!(trimmed_fits(" Walk ", 40).as_deref(), Some("Walk"));
        assert_eq!(trimmed_fits("Walk", 40), None);
        assert_eq!(trimmed_fits("   ", 40), None);
    }

    #[test]
    fn each_synonym_names_one_category_once() {
        let mut words: Vec<&str> = CATEGORY_SYNONYMS.iter().map(|(w, _)| *w).collect();
        for (word, id) in CATEGORY_SYNONYMS {
            assert!(is_category(id), "{word} -> {id}");
            assert!(!is_category(word), "{word} is an id");
            let normal = word.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
            assert_eq!(word, normal.to_lowercase(), "{word:?} is not normalised");
            assert_eq!(category_synonym(word), Some(id), "{word}");
        }
        let n = words.len();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), n, "a word listed twice");
        // Every category has synonyms, and each one's contract words name it.
        for c in &CATEGORIES {
            assert!(CATEGORY_SYNONYMS.iter().any(|(_, id)| *id == c.id), "{}", c.id);
        }
        assert_eq!(category_synonym("meals"), Some("nourish"));
        assert_eq!(category_synonym("breaks"), Some("rest"));
        assert_eq!(category_synonym("errands"), Some("service"));
        assert_eq!(category_synonym("friends"), Some("social"));
    }

    #[test]
    fn unsafe_readings_come_from_the_contract_and_english() {
        assert_eq!(category_synonym("sleep"), Some("rest"));
        assert_eq!(category_synonym("Meal"), Some("nourish"));
        assert_eq!(category_synonym("exercise"), Some("body"));
        assert_eq!(category_synonym("chore"), Some("service"));
        assert_eq!(category_synonym(" Food "), Some("nourish"));
        assert_eq!(category_synonym("meals"), Some("nourish"));
        assert_eq!(category_synonym("Lunch"), Some("nourish"));
        assert_eq!(category_synonym("nourishment"), Some("nourish"));
        assert_eq!(category_synonym("Deep  Work"), Some("craft"));
        assert_eq!(category_synonym("rest"), None, "an id is the safe fix's");
        assert_eq!(category_synonym("mind,body"), None);
        assert_eq!(category_synonym("zzz"), None);
        assert_eq!(weekday_name("Monday"), Some("mon"));
        assert_eq!(weekday_name("tues"), Some("tue"));
        assert_eq!(weekday_name("Thurs."), Some("thu"));
        assert_eq!(weekday_name("t"), None);
        assert_eq!(weekday_name("s"), None);
        assert_eq!(boolean_guess(&json!("Yes")), Some(true));
        assert_eq!(escape_pointer("a/b~c"), "a~1b~0c");
    }
}
