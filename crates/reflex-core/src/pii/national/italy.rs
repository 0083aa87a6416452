//! Italy: the codice fiscale, sixteen characters: three letters from the surname, three from the
//! name, the year, a month letter, the day (plus 40 for women), the place-of-birth code and a
//! check letter. Where two people would share a code, digits are replaced by letters
//! (omocodia: `LMNPQRSTUV` for 0–9), so the digit positions also accept those letters. Its
//! structure and check letter make it safe to report without context.
//!
//! The partita IVA (VAT number), eleven digits: the company serial, a three-digit office code
//! (001–100, 120, 121, 888 or 999) and a Luhn check digit. Bare, it is a plain run of digits and
//! needs a context word; with the `IT` country prefix of an EU VAT number (`IT12345678903`) it is
//! reported on its own.

use super::{all_same, valid_date, word_end, Context};
use crate::pii::card::luhn;
use crate::pii::scan::is_word;
use crate::pii::scan::{clean_end, hit, read_digits};
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

const VAT_CONTEXT: Context = Context::new(
    &[b"partita iva", b"partita i.v.a", b"p.iva", b"p. iva", b"p.i.", b"piva", b"iva", b"vat", b"codice iva", b"numero iva"],
    &[],
);

/// A partita IVA of eleven digits at `start`, after a context word (or right after `IT `).
pub(super) fn vat(b: &[u8], start: usize) -> Option<PiiMatch> {
    let prefixed = start >= 3 && &b[start - 3..start] == b"IT " && (start == 3 || !is_word(b[start - 4]));
    let end = vat_digits(b, start)?;
    (prefixed || VAT_CONTEXT.before(b, start)).then(|| hit(PiiKind::ItVatCode, start, end, 0.9))
}

/// A partita IVA with its country prefix glued on: `IT12345678903`.
pub(super) fn vat_prefixed(b: &[u8], start: usize) -> Option<PiiMatch> {
    if b.get(start..start + 2)? != b"IT" {
        return None;
    }
    let end = vat_digits(b, start + 2)?;
    let confidence = if VAT_CONTEXT.before(b, start) { 0.95 } else { 0.85 };
    Some(hit(PiiKind::ItVatCode, start, end, confidence))
}

/// The end of a valid eleven-digit partita IVA at `start`.
fn vat_digits(b: &[u8], start: usize) -> Option<usize> {
    let d = read_digits::<11>(b, start, b"");
    if d.overflow || d.len != 11 || !clean_end(b, d.end) || all_same(&d.digits[..7]) {
        return None;
    }
    let office = u32::from(d.digits[7]) * 100 + u32::from(d.digits[8]) * 10 + u32::from(d.digits[9]);
    if !matches!(office, 1..=100 | 120 | 121 | 888 | 999) || !luhn(&d.digits) {
        return None;
    }
    Some(d.end)
}

fn check_ok(s: &[u8; 16]) -> bool {
    let value = |c: u8| if c.is_ascii_digit() { c - b'0' } else { c - b'A' };
    let sum: u32 = s[..15].iter().enumerate().map(|(k, &c)| u32::from(if k % 2 == 0 { ODD[usize::from(value(c))] } else { value(c) })).sum();
    s[15] == b'A' + (sum % 26) as u8
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::ItFiscalCode)
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

#[cfg(test)]
mod vat_tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::ItVatCode)
    }

    #[test]
    fn finds_numbers_after_context_or_prefix() {
        assert_eq!(found("Partita IVA: 07624580010"), vec![("07624580010", 0.9)]);
        assert_eq!(found("P.IVA 13579240501"), vec![("13579240501", 0.9)]);
        assert_eq!(found("VAT IT 02468130998"), vec![("02468130998", 0.9)]);
        assert_eq!(found("IT 02468130204"), vec![("02468130204", 0.9)]);
        assert_eq!(found("fornitore IT13579240501, fattura 42"), vec![("IT13579240501", 0.85)]);
        assert_eq!(found("P.IVA IT07624580010"), vec![("IT07624580010", 0.95)]);
    }

    #[test]
    fn rejects_bad_checks_offices_and_no_context() {
        assert!(found("Partita IVA 07624580011").is_empty());
        assert!(found("Partita IVA 12345672005").is_empty()); // office 200 does not exist
        assert!(found("ordine 07624580010").is_empty());
        assert!(found("IT076245800100").is_empty());
        assert!(found("P.IVA 12345678903").is_empty()); // Luhn passes, office 890 does not exist
        assert!(found("BIT 02468130998").is_empty());
        assert!(found("tel. IVA 0762458001").is_empty());
    }
}
