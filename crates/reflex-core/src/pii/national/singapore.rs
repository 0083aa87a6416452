//! Singapore: NRIC and FIN numbers, a prefix (S and T for citizens and permanent residents born
//! before and from 2000, F and G for foreigners, M for foreigners from 2022), seven digits and a
//! check letter from a weighted mod-11 sum. The prefix and letter make the shape distinctive
//! enough to report without context, at middling confidence.
//!
//! UEN (Unique Entity Number) of businesses and other entities, three layouts, each with a
//! weighted mod-11 check letter: eight digits and a letter (businesses, `53112345J`); the year of
//! registration, five digits and a letter (local companies, `201912345R`); and `T`/`S`/`R` with a
//! two-digit year, a two-letter entity type, four digits and a check character (`T09LL0001D`).
//! The first two are digits with one check letter, so they need a context word; the third is
//! distinctive through its prefix and entity type.

use super::{all_same, word_end, Context};
use crate::pii::scan::hit;
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[b"nric", b"fin ", b"fin:", b"fin no", b"fin number", b"ic no", b"ic number", b"i/c", b"identity card", b"identity number", b"singpass"],
    &["身份证"],
);

pub(super) fn nric(b: &[u8], start: usize) -> Option<PiiMatch> {
    let s: &[u8; 9] = b.get(start..start + 9)?.try_into().ok()?;
    let digits = &s[1..8];
    if !digits.iter().all(u8::is_ascii_digit) || all_same(digits) || !word_end(b, start + 9) {
        return None;
    }
    let sum: u32 = digits.iter().zip([2, 7, 6, 5, 4, 3, 2]).map(|(&c, w)| u32::from(c - b'0') * w).sum();
    let (offset, table): (u32, &[u8; 11]) = match s[0] {
        b'S' => (0, b"JZIHGFEDCBA"),
        b'T' => (4, b"JZIHGFEDCBA"),
        b'F' => (0, b"XWUTRQPNMLK"),
        b'G' => (4, b"XWUTRQPNMLK"),
        b'M' => (3, b"XWUTRQPNJLK"),
        _ => return None,
    };
    if s[8] != table[((sum + offset) % 11) as usize] {
        return None;
    }
    let confidence = if CONTEXT.before(b, start) { 0.95 } else { 0.6 };
    Some(hit(PiiKind::SgNric, start, start + 9, confidence))
}

const UEN_CONTEXT: Context = Context::new(&[b"uen", b"unique entity number", b"business registration", b"acra", b"entity number"], &[]);

/// The entity types of the third layout (`LP` limited partnership, `LL` limited liability
/// partnership, `FC` foreign company…), as registered by the UEN issuing agencies.
const ENTITY_TYPES: &[&[u8; 2]] = &[
    b"LP", b"LL", b"FC", b"PF", b"RF", b"MQ", b"MM", b"NB", b"CC", b"CS", b"MB", b"FM", b"GS", b"DP", b"CP", b"NR", b"CM", b"CD", b"MD", b"HS",
    b"VH", b"CH", b"MH", b"CL", b"XL", b"CX", b"HC", b"RP", b"TU", b"TC", b"FB", b"FN", b"PA", b"PB", b"SS", b"MC", b"SM", b"GA", b"GB",
];

/// The characters of the third layout, in the order that gives their values.
const UEN_CHARS: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWX0123456789";

/// A UEN in one of the two digit-led layouts: `digits` (8 or 9) digits at `start`, then the
/// check letter.
pub(super) fn uen_digits(b: &[u8], start: usize, digits: usize) -> Option<PiiMatch> {
    let s = b.get(start..=start + digits)?;
    if !word_end(b, start + digits + 1) || all_same(&s[..digits]) {
        return None;
    }
    let d = |k: usize| u32::from(s[k] - b'0');
    let (weights, table): (&[u32], &[u8; 11]) = if digits == 8 {
        (&[10, 4, 9, 3, 8, 2, 7, 1], b"XMKECAWLJDB")
    } else {
        // The year of registration leads.
        if !matches!(d(0) * 10 + d(1), 18..=20) {
            return None;
        }
        (&[10, 8, 6, 4, 9, 7, 5, 3, 1], b"ZKCMDNERGWH")
    };
    let sum: u32 = weights.iter().enumerate().map(|(k, w)| d(k) * w).sum();
    if s[digits] != table[(sum % 11) as usize] || !UEN_CONTEXT.before(b, start) {
        return None;
    }
    Some(hit(PiiKind::SgUen, start, start + digits + 1, 0.9))
}

/// A UEN in the third layout: `T09LL0001D`.
pub(super) fn uen_entity(b: &[u8], start: usize) -> Option<PiiMatch> {
    let s: &[u8; 10] = b.get(start..start + 10)?.try_into().ok()?;
    let shape = matches!(s[0], b'T' | b'S' | b'R') && s[1..3].iter().chain(&s[5..9]).all(u8::is_ascii_digit);
    if !shape || !ENTITY_TYPES.iter().any(|t| **t == [s[3], s[4]]) || !word_end(b, start + 10) {
        return None;
    }
    let weights = [4, 3, 5, 3, 10, 2, 2, 5, 7];
    let mut sum = 0;
    for (&c, w) in s[..9].iter().zip(weights) {
        sum += UEN_CHARS.iter().position(|&x| x == c)? * w;
    }
    // The sum is at least 5: the prefix alone weighs 4 × 16 or more.
    if s[9] != UEN_CHARS[(sum - 5) % 11] {
        return None;
    }
    let confidence = if UEN_CONTEXT.before(b, start) { 0.95 } else { 0.7 };
    Some(hit(PiiKind::SgUen, start, start + 10, confidence))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::SgNric)
    }

    #[test]
    fn finds_each_prefix() {
        assert_eq!(found("NRIC: S1234567D"), vec![("S1234567D", 0.95)]);
        assert_eq!(found("NRIC T0123456G"), vec![("T0123456G", 0.95)]);
        assert_eq!(found("FIN: F2345678T"), vec![("F2345678T", 0.95)]);
        assert_eq!(found("FIN: G7654321L"), vec![("G7654321L", 0.95)]);
        assert_eq!(found("FIN: M5123456U"), vec![("M5123456U", 0.95)]);
        assert_eq!(found("applicant S8812345Z arrived"), vec![("S8812345Z", 0.6)]);
    }

    #[test]
    fn rejects_wrong_letters_prefixes_and_fillers() {
        assert!(found("NRIC: S1234567A").is_empty());
        assert!(found("NRIC: A1234567D").is_empty());
        assert!(found("NRIC: S0000000J").is_empty());
        assert!(found("NRIC: S12345678D").is_empty());
    }
}

#[cfg(test)]
mod uen_tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::SgUen)
    }

    #[test]
    fn finds_each_layout() {
        assert_eq!(found("UEN: 53112345J"), vec![("53112345J", 0.9)]);
        assert_eq!(found("Unique Entity Number 201912345R"), vec![("201912345R", 0.9)]);
        assert_eq!(found("ACRA registration 198704512R."), vec![("198704512R", 0.9)]);
        assert_eq!(found("UEN T09LL0001D"), vec![("T09LL0001D", 0.95)]);
        assert_eq!(found("vendor S16FC0121D on the invoice"), vec![("S16FC0121D", 0.7)]);
    }

    #[test]
    fn rejects_wrong_checks_types_years_and_no_context() {
        assert!(found("UEN: 53112345K").is_empty());
        assert!(found("UEN: 201912345Z").is_empty());
        assert!(found("UEN: 301912345R").is_empty()); // no year 3019
        assert!(found("UEN T09LL0001E").is_empty());
        assert!(found("UEN T09QQ0001A").is_empty()); // QQ is no entity type
        assert!(found("order 53112345J shipped").is_empty());
        assert!(found("ref 201912345R").is_empty());
        assert!(found("UEN 11111111X").is_empty());
    }
}
