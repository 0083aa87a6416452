//! Passport numbers: one token of six to nine capital letters and digits (at least four digits,
//! at most three letters: `123456789`, `A12345678`, `C01X00T47`) after the word "passport".
//! Formats vary too much by country for a shape alone to mean anything.

use super::scan::{at, hit, Keywords};
use super::{PiiKind, PiiMatch};

const CONTEXT: Keywords = Keywords::new(&[b"passport", b"passport no", b"passport number", b"reisepass", b"passeport", b"pasaporte"]);

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let mut end = start;
    let (mut digits, mut letters) = (0, 0);
    while end - start < 10 {
        match at(b, end) {
            b'0'..=b'9' => digits += 1,
            b'A'..=b'Z' => letters += 1,
            _ => break,
        }
        end += 1;
    }
    let next = at(b, end);
    if !(6..=9).contains(&(end - start)) || digits < 4 || letters > 3 || next.is_ascii_alphanumeric() || next == b'_' {
        return None;
    }
    CONTEXT.before(b, start, 40).then(|| hit(PiiKind::Passport, start, end, 0.75))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn passports(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::Passport).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_numbers_after_context() {
        assert_eq!(passports("Passport number: 123456789"), vec!["123456789"]);
        assert_eq!(passports("my passport is A12345678."), vec!["A12345678"]);
        assert_eq!(passports("Reisepass C01X00T47"), vec!["C01X00T47"]);
    }

    #[test]
    fn needs_context_and_shape() {
        assert!(passports("ticket 123456789").is_empty());
        assert!(passports("passport ABCDEFGH").is_empty());
        assert!(passports("passport 12345").is_empty());
        assert!(passports("passport 1234567890").is_empty());
    }
}
