//! Exact JSON numbers: the decimal text as written, compared by its
//! digits (no `f64`, so no rounding, no range limit and no float code).

use crate::json::Value;
use core::cmp::Ordering;

/// A JSON number from the schema or an answer: its decimal text, exactly
/// as written (RFC 8259 grammar, checked).
///
/// Equality and order are numeric and exact: `0.1 == 0.10`, `-0 == 0`,
/// `1e2 == 100`, `9007199254740993 > 9007199254740992` and
/// `1e400 > 1e399` (no `f64` rounding and no range limit; exponents are
/// exact up to 2^60 in magnitude and saturate beyond).
#[derive(Debug, Clone, Copy)]
pub struct Number<'a> {
    text: &'a str,
}

impl<'a> Number<'a> {
    /// Reads a JSON number value; `None` for other values.
    pub fn from_json(v: Value<'a>) -> Option<Number<'a>> {
        if !v.is_number() {
            return None;
        }
        Number::parse(core::str::from_utf8(v.raw()).ok()?)
    }

    /// Checks `text` against the JSON number grammar (`-?int frac? exp?`,
    /// no leading `+`, no leading zeros, no surrounding spaces).
    pub fn parse(text: &'a str) -> Option<Number<'a>> {
        crate::json::is_number_text(text.as_bytes()).then_some(Number { text })
    }

    /// `text` known to be in the JSON number grammar (no second check).
    pub(super) fn of_checked(text: &'a str) -> Number<'a> {
        Number { text }
    }

    /// The decimal text as written.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The exact value when it is an integer literal (no fraction, no
    /// exponent) that fits `i64`.
    pub fn exact(&self) -> Option<i64> {
        crate::json::integer_literal_i64(self.text.as_bytes())
    }

    /// Whether the value is a whole number (as JSON Schema's `integer`:
    /// `2.0`, `1e2` and `1.5e1` are; `1e-1` is not).
    pub fn is_integer(&self) -> bool {
        let d = Decimal::of(self.text.as_bytes());
        // 0.d1..dn × 10^exp is whole when every digit lies before the point.
        d.digits == 0 || d.exp >= d.digits
    }
}

impl PartialEq for Number<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number<'_> {}

impl PartialOrd for Number<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(self.text.as_bytes(), other.text.as_bytes())
    }
}

impl core::fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.text)
    }
}

/// Exponents are clamped to this magnitude, so the arithmetic below never
/// overflows (exact for every exponent a document could sensibly hold).
const EXP_LIMIT: i64 = 1 << 60;

/// A number as `±0.d1 d2 … dn × 10^exp`, `d1` and `dn` non-zero (no
/// digits for zero). The digits are the bytes of `text` but the `.`,
/// `digits` of them.
struct Decimal<'t> {
    neg: bool,
    text: &'t [u8],
    digits: i64,
    exp: i64,
}

impl<'t> Decimal<'t> {
    /// Decomposes a checked JSON number (one walk of its bytes).
    fn of(b: &'t [u8]) -> Decimal<'t> {
        // Counted in `usize` (no 64-bit arithmetic per digit on 32-bit
        // targets), widened once at the end. Leading zeros (of the integer
        // part and then the fraction) and trailing zeros carry no value.
        // Mantissa digits so far, and those before the point.
        let (mut seen, mut int_len) = (0usize, 0usize);
        // The first and last non-zero digits' indexes, the digits before
        // the first (`lead`) and up to the last (`count`; 0: none yet).
        let (mut first, mut last, mut lead, mut count) = (0usize, 0usize, 0usize, 0usize);
        // The exponent: exact below `EXP_LIMIT`, then no longer grown
        // (`EXP_LIMIT * 10 + 9` fits a `u64`), clamped at the end.
        let (mut e, mut e_neg, mut in_exp, mut frac) = (0u64, false, false, false);
        for (i, &c) in b.iter().enumerate() {
            match c {
                b'e' | b'E' => in_exp = true,
                b'.' => frac = true,
                // A leading `-` is the mantissa's sign (`neg` below).
                b'-' => e_neg = in_exp,
                b'+' => {}
                d if in_exp => {
                    if e < EXP_LIMIT.unsigned_abs() {
                        e = e * 10 + u64::from(d.wrapping_sub(b'0'));
                    }
                }
                d => {
                    seen += 1;
                    if !frac {
                        int_len += 1;
                    }
                    if d != b'0' {
                        if count == 0 {
                            first = i;
                            lead = seen - 1;
                        }
                        last = i;
                        count = seen;
                    }
                }
            }
        }
        let wide = |n: usize| i64::try_from(n).unwrap_or(EXP_LIMIT).min(EXP_LIMIT);
        let e = i64::try_from(e).unwrap_or(EXP_LIMIT).min(EXP_LIMIT);
        Decimal {
            neg: b.first() == Some(&b'-'),
            text: match count {
                0 => &[],
                _ => b.get(first..=last).unwrap_or(&[]),
            },
            digits: wide(count - lead),
            exp: if e_neg { -e } else { e } + wide(int_len) - wide(lead),
        }
    }

    /// The significant digits, most significant first.
    fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        self.text.iter().copied().filter(|&c| c != b'.')
    }

    /// -1, 0 or 1.
    fn sign(&self) -> i8 {
        match (self.digits, self.neg) {
            (0, _) => 0,
            (_, true) => -1,
            (_, false) => 1,
        }
    }
}

/// Compares two checked JSON numbers exactly.
fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (Decimal::of(a), Decimal::of(b));
    let sign = a.sign().cmp(&b.sign());
    if sign != Ordering::Equal || a.sign() == 0 {
        return sign;
    }
    // Same sign, both non-zero: compare magnitudes, then orient.
    let magnitude = a.exp.cmp(&b.exp).then_with(|| a.digits().cmp(b.digits()));
    if a.neg {
        magnitude.reverse()
    } else {
        magnitude
    }
}

/// Writes `i` in decimal into `buf` and returns the text (the JSON
/// writer's digits: one decimal routine in the core, and no 64-bit division
/// on 32-bit targets).
pub(crate) fn i64_text(i: i64, buf: &mut [u8; 20]) -> &str {
    let mut w = crate::json::Writer::new(buf);
    w.i64(i);
    let n = w.finish().unwrap_or(0);
    buf.get(..n)
        .and_then(|t| core::str::from_utf8(t).ok())
        .unwrap_or("0")
}
