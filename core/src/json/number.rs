//! Numbers (validator.md §7): an integer is a literal without fraction or exponent, read
//! exactly and clamped far outside any minute count; two number literals compare by exact value
//! (`1` equals `1.0`), never through floats.

use crate::tree::Node;

/// The value of an integer literal (written without fraction or exponent: `30.0` and `1e3` are
/// not integers), clamped to ±10^15 (far outside any minute count, so
/// comparisons with times stay exact); `None` when `v` is not an integer (booleans are not
/// numbers: D2).
pub(crate) fn integer(v: &Node<'_>) -> Option<i64> {
    const CLAMP: i64 = 1_000_000_000_000_000;
    let Node::Number(s) = v else { return None };
    let b = s.as_bytes();
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    // One pass: after its sign, a JSON number is digits up to a `.`, `e` or `E` if it has one
    // (an exponent's sign comes after the `e`), so the first non-digit makes it a non-integer.
    // The magnitude stops growing once it passes CLAMP (below it, ×10 + 9 cannot overflow).
    let mut mag: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        if mag <= CLAMP {
            mag = mag * 10 + i64::from(c - b'0');
        }
    }
    let mag = mag.min(CLAMP);
    Some(if neg { -mag } else { mag })
}

/// `v` as an integer in `lo..=hi`, else `None`.
pub(crate) fn integer_in(v: &Node<'_>, lo: i64, hi: i64) -> Option<i64> {
    integer(v).filter(|n| (lo..=hi).contains(n))
}

/// A number literal reduced to sign, significant digits and exponent, so that equal values have
/// equal forms: value = 0.`digits` × 10^`exponent` (`1`, `1.0`, `10e-1`, `0.1e1`; `-0` and `0`).
#[derive(PartialEq, Eq)]
struct Decimal {
    negative: bool,
    /// Significant digits, no leading or trailing zeros (empty for zero).
    digits: String,
    exponent: i128,
}

fn decimal(s: &str) -> Decimal {
    let (negative, rest) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, ""),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let exp: i128 = {
        let (eneg, edigits) = match exp.as_bytes().first() {
            Some(b'-') => (true, &exp[1..]),
            Some(b'+') => (false, &exp[1..]),
            _ => (false, exp),
        };
        let edigits = edigits.trim_start_matches('0');
        let m: i128 = if edigits.len() > 30 { 10i128.pow(30) } else { edigits.parse().unwrap_or(0) };
        if eneg { -m } else { m }
    };
    let all: String = int.chars().chain(frac.chars()).collect();
    let trimmed = all.trim_start_matches('0');
    let point = int.len() as i128 - (all.len() - trimmed.len()) as i128;
    let digits = trimmed.trim_end_matches('0');
    if digits.is_empty() {
        return Decimal { negative: false, digits: String::new(), exponent: 0 };
    }
    Decimal { negative, digits: digits.to_owned(), exponent: exp.saturating_add(point) }
}

/// Exact numeric equality of two number literals (`1` equals `1.0`; no rounding through floats).
pub(crate) fn numbers_equal(a: &str, b: &str) -> bool {
    a == b || decimal(a) == decimal(b)
}

/// f64's overflow threshold, 2^1024 − 2^970, as 0.`digits` × 10^309: the midpoint between
/// `f64::MAX` and 2^1024, which rounds up (to ∞: `f64::MAX`'s significand is odd, ties go to even).
const F64_OVERFLOW_DIGITS: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/// Whether a number literal's value rounds to ±∞ as an f64 (round to nearest, ties to even, as
/// `str::parse::<f64>` rounds): |value| ≥ 2^1024 − 2^970, decided on the exact digits. No float
/// parsing: its code and tables would cost the validator's wasm module 18 KB (issue 32).
pub(crate) fn overflows_f64(lit: &str) -> bool {
    let d = decimal(lit);
    // both digit strings start with a non-zero digit and end without zeros, so their order as
    // strings is the order of the fractions 0.digits
    match d.exponent.cmp(&309) {
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => d.digits.as_str() >= F64_OVERFLOW_DIGITS,
    }
}

/// Whether a number literal equals zero (`0`, `-0`, `0.0`, `0e5`).
pub(crate) fn is_zero(n: &str) -> bool {
    !n.split(['e', 'E']).next().unwrap_or("").bytes().any(|c| matches!(c, b'1'..=b'9'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `overflows_f64` agrees with `str::parse::<f64>` (correctly rounded) on literals around the
    /// threshold and far from it, in every JSON form of the same digits.
    #[test]
    fn overflow_is_decided_as_f64_parsing_decides_it() {
        let t = F64_OVERFLOW_DIGITS;
        let mut cases: Vec<String> = vec![
            "0".into(), "-0.0".into(), "1".into(), "1e308".into(), "1e309".into(), "-1e309".into(),
            "1.7976931348623157e308".into(), "1.7976931348623158e308".into(), "1.7976931348623159e308".into(),
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.5".into(),
            "1e99999999999999999999999999999999999999".into(), "1e-99999999999999999999999999999999999999".into(),
            "0.000e400".into(), "10e308".into(), "0.1e310".into(), "0.01e310".into(), "2e-400".into(),
        ];
        // the threshold itself, just below and just above it, and 17 and 16 of its digits, in four notations each
        let below = format!("{}{}", &t[..t.len() - 1], char::from(t.as_bytes()[t.len() - 1] - 1));
        for digits in
            [t.to_owned(), below, format!("{t}1"), format!("{t}0000001"), t[..17].to_owned(), t[..16].to_owned()]
        {
            cases.push(format!("0.{digits}e309"));
            cases.push(format!("-{}.{}e308", &digits[..1], &digits[1..]));
            cases.push(format!("{}.{}E+{}", &digits[..1], &digits[1..], 308));
            cases.push(format!("0.0{digits}e310"));
        }
        for lit in &cases {
            let want = !lit.parse::<f64>().is_ok_and(f64::is_finite);
            assert_eq!(overflows_f64(lit), want, "{lit}");
        }
        assert!(overflows_f64(&format!("0.{t}e309")));
        assert!(!overflows_f64("1.7976931348623158e308"));
    }

    #[test]
    fn numbers_compare_by_exact_value() {
        let eq = |a: &str, b: &str| numbers_equal(a, b);
        assert!(eq("1", "1.0"));
        assert!(eq("1", "10e-1"));
        assert!(eq("1", "0.1e1"));
        assert!(eq("100", "1e2"));
        assert!(eq("0", "-0"));
        assert!(eq("0", "0.000e5"));
        assert!(eq("120", "120.00"));
        assert!(eq("0.5", "5e-1"));
        assert!(!eq("9007199254740993", "9007199254740992.0"));
        assert!(!eq("1", "-1"));
        assert!(!eq("1", "2"));
        assert!(!eq("12", "1.2"));
        assert!(!eq("0.01", "0.1"));
        assert!(eq("0.01", "1e-2"));
        assert!(eq("123456789012345678901234567890", "1.2345678901234567890123456789e29"));
    }

    #[test]
    fn integers_are_literals_without_fraction_or_exponent() {
        let arena = bumpalo::Bump::new();
        let v = |s: &'static str| crate::tree::parse(s, &arena).unwrap();
        assert_eq!(integer(&v("30")), Some(30));
        assert_eq!(integer(&v("-0")), Some(0));
        assert_eq!(integer(&v("30.0")), None);
        assert_eq!(integer(&v("1e3")), None);
        assert_eq!(integer(&v("true")), None);
        assert_eq!(integer(&v("100000000000000000000")), Some(1_000_000_000_000_000));
        assert_eq!(integer(&v("-100000000000000000000")), Some(-1_000_000_000_000_000));
        // around the clamp: 10^15 ± 1, 16 and 17 digits, leading zeros are not JSON
        assert_eq!(integer(&v("999999999999999")), Some(999_999_999_999_999));
        assert_eq!(integer(&v("1000000000000001")), Some(1_000_000_000_000_000));
        assert_eq!(integer(&v("-9999999999999999")), Some(-1_000_000_000_000_000));
        assert_eq!(integer(&v("99999999999999999999999999999999999999999")), Some(1_000_000_000_000_000));
        assert_eq!(integer(&v("1440")), Some(1440));
        assert_eq!(integer(&v("-1E5")), None);
        assert_eq!(integer(&v("0.5")), None);
    }
}
