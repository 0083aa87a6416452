//! International bank account numbers: a country code, two check digits and a country-specific
//! number of alphanumerics (the length comes from the IBAN registry), mod-97 of the rearranged
//! number equal to 1. Printed form with single spaces every four characters is accepted.

use super::scan::{at, hit};
use super::{PiiKind, PiiMatch};

/// IBAN length per country (SWIFT IBAN registry).
const LENGTHS: &[(&[u8; 2], u8)] = &[
    (b"AD", 24), (b"AE", 23), (b"AL", 28), (b"AT", 20), (b"AZ", 28), (b"BA", 20), (b"BE", 16),
    (b"BG", 22), (b"BH", 22), (b"BI", 27), (b"BR", 29), (b"BY", 28), (b"CH", 21), (b"CR", 22),
    (b"CY", 28), (b"CZ", 24), (b"DE", 22), (b"DJ", 27), (b"DK", 18), (b"DO", 28), (b"EE", 20),
    (b"EG", 29), (b"ES", 24), (b"FI", 18), (b"FK", 18), (b"FO", 18), (b"FR", 27), (b"GB", 22),
    (b"GE", 22), (b"GI", 23), (b"GL", 18), (b"GR", 27), (b"GT", 28), (b"HN", 28), (b"HR", 21),
    (b"HU", 28), (b"IE", 22), (b"IL", 23), (b"IQ", 23), (b"IS", 26), (b"IT", 27), (b"JO", 30),
    (b"KW", 30), (b"KZ", 20), (b"LB", 28), (b"LC", 32), (b"LI", 21), (b"LT", 20), (b"LU", 20),
    (b"LV", 21), (b"LY", 25), (b"MC", 27), (b"MD", 24), (b"ME", 22), (b"MK", 19), (b"MN", 20),
    (b"MR", 27), (b"MT", 31), (b"MU", 30), (b"NI", 28), (b"NL", 18), (b"NO", 15), (b"OM", 23),
    (b"PK", 24), (b"PL", 28), (b"PS", 29), (b"PT", 25), (b"QA", 29), (b"RO", 24), (b"RS", 22),
    (b"RU", 33), (b"SA", 24), (b"SC", 31), (b"SD", 18), (b"SE", 24), (b"SI", 19), (b"SK", 24),
    (b"SM", 27), (b"SO", 23), (b"ST", 25), (b"SV", 28), (b"TL", 23), (b"TN", 24), (b"TR", 26),
    (b"UA", 29), (b"VA", 22), (b"VG", 24), (b"XK", 20), (b"YE", 30),
];

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    if !(at(b, start + 1).is_ascii_uppercase() && at(b, start + 2).is_ascii_digit() && at(b, start + 3).is_ascii_digit()) {
        return None;
    }
    let cc = [b[start], b[start + 1]];
    let want = usize::from(LENGTHS.iter().find(|(c, _)| **c == cc)?.1);
    let mut chars = [0u8; 34];
    let mut n = 0;
    let mut i = start;
    let mut spaced = false;
    while n < want {
        let c = at(b, i);
        if c.is_ascii_digit() || c.is_ascii_uppercase() {
            chars[n] = c;
            n += 1;
            i += 1;
        } else if c == b' ' && n > 0 && n % 4 == 0 && (n == 4 || spaced) && at(b, i - 1) != b' ' {
            spaced = true;
            i += 1;
        } else {
            return None;
        }
    }
    if at(b, i).is_ascii_alphanumeric() {
        return None;
    }
    mod97(&chars[..n]).then(|| hit(PiiKind::Iban, start, i, 0.97))
}

/// Moves the first four characters to the end, letters become 10..35, remainder mod 97 is 1.
fn mod97(s: &[u8]) -> bool {
    let mut rem = 0u32;
    for &c in s[4..].iter().chain(&s[..4]) {
        rem = if c.is_ascii_digit() {
            (rem * 10 + u32::from(c - b'0')) % 97
        } else {
            (rem * 100 + u32::from(c - b'A') + 10) % 97
        };
    }
    rem == 1
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn ibans(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::Iban).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_compact_and_spaced() {
        assert_eq!(ibans("send to DE89370400440532013000 please"), vec!["DE89370400440532013000"]);
        assert_eq!(ibans("IBAN: DE89 3704 0044 0532 0130 00."), vec!["DE89 3704 0044 0532 0130 00"]);
        assert_eq!(ibans("GB82 WEST 1234 5698 7654 32"), vec!["GB82 WEST 1234 5698 7654 32"]);
        assert_eq!(ibans("FR1420041010050500013M02606"), vec!["FR1420041010050500013M02606"]);
        assert_eq!(ibans("NO9386011117947"), vec!["NO9386011117947"]);
    }

    #[test]
    fn rejects_bad_check_digits_lengths_and_countries() {
        assert!(ibans("DE88370400440532013000").is_empty());
        assert!(ibans("DE8937040044053201300").is_empty());
        assert!(ibans("DE893704004405320130001").is_empty());
        assert!(ibans("ZZ89370400440532013000").is_empty());
        assert!(ibans("DE89 370 40044 0532 0130 00").is_empty());
    }
}
