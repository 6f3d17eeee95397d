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

/// Whether a number literal equals zero (`0`, `-0`, `0.0`, `0e5`).
pub(crate) fn is_zero(n: &str) -> bool {
    !n.split(['e', 'E']).next().unwrap_or("").bytes().any(|c| matches!(c, b'1'..=b'9'))
}

#[cfg(test)]
mod tests {
    use super::*;

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
