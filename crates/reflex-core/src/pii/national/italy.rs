//! Italy: the codice fiscale, sixteen characters: three letters from the surname, three from the
//! name, the year, a month letter, the day (plus 40 for women), the place-of-birth code and a
//! check letter. Where two people would share a code, digits are replaced by letters
//! (omocodia: `LMNPQRSTUV` for 0–9), so the digit positions also accept those letters. Its
//! structure and check letter make it safe to report without context.

use super::{valid_date, word_end, Context};
use crate::pii::scan::hit;
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context =
    Context::new(&[b"codice fiscale", b"cod. fisc", b"cod fisc", b"c.f.", b"cf", b"fiscal code", b"tax code", b"codice", b"tessera sanitaria"], &[]);

/// The month letters, January to December.
const MONTHS: &[u8; 12] = b"ABCDEHLMPRST";
/// Positions that hold digits, or their omocodia letters.
const NUMERIC: [usize; 7] = [6, 7, 9, 10, 12, 13, 14];
/// Check-character values of the characters in odd positions (1st, 3rd…), for `0`–`9` and
/// `A`–`Z` (a digit counts as the letter with its index).
const ODD: [u8; 26] = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/// The digit a numeric position stands for: itself, or its omocodia letter.
fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        _ => b"LMNPQRSTUV".iter().position(|&l| l == c).map(|p| p as u8),
    }
}

pub(super) fn fiscal_code(b: &[u8], start: usize) -> Option<PiiMatch> {
    let s: &[u8; 16] = b.get(start..start + 16)?.try_into().ok()?;
    if !word_end(b, start + 16) || !s.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
        return None;
    }
    let letters_ok = [0, 1, 2, 3, 4, 5, 8, 11, 15].iter().all(|&k| s[k].is_ascii_uppercase());
    let mut n = [0u8; 7];
    for (v, &k) in n.iter_mut().zip(&NUMERIC) {
        *v = digit(s[k])?;
    }
    // A code has at least the year or day in plain digits unless it is omocodic throughout.
    if !letters_ok || !s.iter().any(u8::is_ascii_digit) {
        return None;
    }
    let month = MONTHS.iter().position(|&m| m == s[8])? as u32 + 1;
    let day = u32::from(n[2] * 10 + n[3]);
    let day = if day > 40 { day - 40 } else { day };
    if !valid_date(2000, month, day) || !check_ok(s) {
        return None;
    }
    let confidence = if CONTEXT.before(b, start) { 0.98 } else { 0.85 };
    Some(hit(PiiKind::ItFiscalCode, start, start + 16, confidence))
}

fn check_ok(s: &[u8; 16]) -> bool {
    let value = |c: u8| if c.is_ascii_digit() { c - b'0' } else { c - b'A' };
    let sum: u32 = s[..15].iter().enumerate().map(|(k, &c)| u32::from(if k % 2 == 0 { ODD[usize::from(value(c))] } else { value(c) })).sum();
    s[15] == b'A' + (sum % 26) as u8
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn found(text: &str) -> Vec<(&str, f32)> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::ItFiscalCode).map(|m| (&text[m.start..m.end], m.confidence)).collect()
    }

    #[test]
    fn finds_codes_with_and_without_context() {
        assert_eq!(found("Codice fiscale: RSSMRA85T10A562S"), vec![("RSSMRA85T10A562S", 0.98)]);
        assert_eq!(found("intestato a RSSMRA85T10A562S."), vec![("RSSMRA85T10A562S", 0.85)]);
    }

    #[test]
    fn omocodia_letters_stand_for_digits() {
        assert_eq!(found("CF RSSMRA85T10A56NH"), vec![("RSSMRA85T10A56NH", 0.98)]);
    }

    #[test]
    fn rejects_bad_check_months_days_and_shapes() {
        assert!(found("CF RSSMRA85T10A562T").is_empty());
        assert!(found("CF RSSMRA85Z10A562S").is_empty());
        assert!(found("CF RSSMRA85T32A562S").is_empty());
        assert!(found("CF RSSMRA85T10A562SX").is_empty());
        assert!(found("CF RSSMR185T10A562S").is_empty());
        assert!(found("ABCDEFGHIJKLMNOP").is_empty());
    }
}
