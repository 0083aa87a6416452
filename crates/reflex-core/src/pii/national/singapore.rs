//! Singapore: NRIC and FIN numbers, a prefix (S and T for citizens and permanent residents born
//! before and from 2000, F and G for foreigners, M for foreigners from 2022), seven digits and a
//! check letter from a weighted mod-11 sum. The prefix and letter make the shape distinctive
//! enough to report without context, at middling confidence.

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

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn found(text: &str) -> Vec<(&str, f32)> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::SgNric).map(|m| (&text[m.start..m.end], m.confidence)).collect()
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
