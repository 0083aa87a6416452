//! India: Aadhaar numbers (twelve digits, the last a Verhoeff check digit, never starting with
//! 0 or 1) and PAN (Permanent Account Number: five letters, four digits, a letter; the fourth
//! letter says who holds it). Aadhaar is a plain run of digits and PAN has no check character,
//! so both are reported only after a context word.
//!
//! GSTIN (Goods and Services Tax Identification Number), fifteen characters: a state code
//! (01–38, or 97 and 99 for other territories and foreign filers), the holder's PAN, an entity
//! digit or letter, `Z`, and a base-36 check character. The layout and check make it safe to
//! report without context.

use super::{all_same, at, groups, layout, word_end, Context};
use crate::pii::scan::{clean_end, hit, is_word, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const AADHAAR_CONTEXT: Context = Context::new(&[b"aadhaar", b"aadhar", b"adhaar", b"uidai", b"uid", b"unique identification"], &["आधार"]);

const PAN_CONTEXT: Context = Context::new(&[b"pan", b"permanent account number", b"income tax", b"income-tax"], &["पैन", "स्थायी खाता"]);

/// `2345 6789 0126`, `2345-6789-0126` or `234567890126`.
pub(super) fn aadhaar(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<12>(b, start, b" -");
    if d.overflow || d.len != 12 || !clean_end(b, d.end) {
        return None;
    }
    if !(d.ngroups == 1 || layout(&d) == groups(&[4, 4, 4])) || d.digits[0] < 2 || all_same(&d.digits) || !verhoeff(&d.digits) {
        return None;
    }
    AADHAAR_CONTEXT.before(b, start).then(|| hit(PiiKind::InAadhaar, start, d.end, 0.95))
}

/// The context words an Aadhaar number may be glued to with a hyphen (`Aadhaar-2345 6789 0126`,
/// `UID-234567890126`).
const AADHAAR_LABELS: &[&[u8]] = &[b"aadhaar", b"aadhar", b"adhaar", b"uidai", b"uid"];

/// An Aadhaar number at `start`, right after a hyphen glued to one of [`AADHAAR_LABELS`] (the
/// whole word: `XUID-…` or `build-…` is part of another token), with the same checks as
/// [`aadhaar`].
#[inline(never)]
pub(super) fn aadhaar_after_word(b: &[u8], start: usize) -> Option<PiiMatch> {
    let end = start - 1;
    let mut k = end;
    while k > 0 && b[k - 1].is_ascii_alphabetic() && end - k < 8 {
        k -= 1;
    }
    if k > 0 && (is_word(b[k - 1]) || b[k - 1] == b'-') {
        return None;
    }
    if !AADHAAR_LABELS.iter().any(|w| b[k..end].eq_ignore_ascii_case(w)) {
        return None;
    }
    aadhaar(b, start)
}

/// Multiplication in the dihedral group D5.
const D: [[u8; 10]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

/// The position permutations: row `k` is the first row's permutation applied `k` times.
const P: [[u8; 10]; 8] = {
    let first = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4];
    let mut p = [[0u8; 10]; 8];
    let mut x = 0;
    while x < 10 {
        p[0][x] = x as u8;
        x += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut x = 0;
        while x < 10 {
            p[k][x] = first[p[k - 1][x] as usize];
            x += 1;
        }
        k += 1;
    }
    p
};

/// Verhoeff's check: the running product over the digits, right to left, ends at 0.
pub(super) fn verhoeff(d: &[u8]) -> bool {
    d.iter().rev().enumerate().fold(0u8, |c, (k, &x)| D[usize::from(c)][usize::from(P[k % 8][usize::from(x)])]) == 0
}

/// `ABCPE1234F`: the fourth letter is the holder type (P person, C company, H Hindu undivided
/// family, F firm, A association, T trust, B body of individuals, L local authority, J juridical
/// person, G government).
pub(super) fn pan(b: &[u8], start: usize) -> Option<PiiMatch> {
    let s = b.get(start..start + 10)?;
    let shape = s[..5].iter().all(u8::is_ascii_uppercase) && s[5..9].iter().all(u8::is_ascii_digit) && s[9].is_ascii_uppercase();
    if !shape || !b"PCHFATBLJG".contains(&s[3]) || all_same(&s[5..9]) || !word_end(b, start + 10) || at(b, start + 10) == b'-' {
        return None;
    }
    PAN_CONTEXT.before(b, start).then(|| hit(PiiKind::InPan, start, start + 10, 0.85))
}

const GSTIN_CONTEXT: Context = Context::new(&[b"gstin", b"gst", b"goods and services tax"], &["जीएसटी"]);

/// `27AAPFU0939F1ZV`.
pub(super) fn gstin(b: &[u8], start: usize) -> Option<PiiMatch> {
    let s: &[u8; 15] = b.get(start..start + 15)?.try_into().ok()?;
    if !s[0].is_ascii_digit() || !s[1].is_ascii_digit() {
        return None;
    }
    let state = (s[0] - b'0') * 10 + (s[1] - b'0');
    let pan = s[2..7].iter().all(u8::is_ascii_uppercase) && s[7..11].iter().all(u8::is_ascii_digit) && s[11].is_ascii_uppercase();
    let tail = matches!(s[12], b'1'..=b'9' | b'A'..=b'Z') && s[13] == b'Z' && (s[14].is_ascii_digit() || s[14].is_ascii_uppercase());
    if !matches!(state, 1..=38 | 97 | 99) || !pan || !tail || !b"PCHFATBLJG".contains(&s[5]) || !word_end(b, start + 15) {
        return None;
    }
    let value = |c: u8| u32::from(if c.is_ascii_digit() { c - b'0' } else { c - b'A' + 10 });
    let sum: u32 = s[..14].iter().enumerate().map(|(k, &c)| value(c) * (1 + (k as u32 & 1))).map(|p| p / 36 + p % 36).sum();
    if value(s[14]) != (36 - sum % 36) % 36 {
        return None;
    }
    let confidence = if GSTIN_CONTEXT.before(b, start) { 0.97 } else { 0.9 };
    Some(hit(PiiKind::InGstin, start, start + 15, confidence))
}

#[cfg(test)]
mod tests {
    use super::verhoeff;
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str, kind: PiiKind) -> Vec<&str> {
        reported_text(text, kind)
    }

    #[test]
    fn verhoeff_known_values() {
        assert!(verhoeff(&[2, 3, 6, 3]));
        assert!(!verhoeff(&[2, 3, 6, 4]));
        assert!(verhoeff(&[1, 4, 2, 8, 5, 7, 0]));
    }

    #[test]
    fn aadhaar_layouts_after_context() {
        assert_eq!(found("Aadhaar: 4991 1866 5246", PiiKind::InAadhaar), vec!["4991 1866 5246"]);
        assert_eq!(found("my aadhar no is 499118665246.", PiiKind::InAadhaar), vec!["499118665246"]);
        assert_eq!(found("आधार संख्या 4991-1866-5246", PiiKind::InAadhaar), vec!["4991-1866-5246"]);
    }

    #[test]
    fn aadhaar_glued_to_its_word_by_a_hyphen() {
        assert_eq!(found("Aadhaar-4991 1866 5246", PiiKind::InAadhaar), vec!["4991 1866 5246"]);
        assert_eq!(found("ref UID-499118665246.", PiiKind::InAadhaar), vec!["499118665246"]);
        assert_eq!(found("uidai-4991-1866-5246", PiiKind::InAadhaar), vec!["4991-1866-5246"]);
        // Still the Verhoeff check, and the word must be the label itself.
        assert!(found("Aadhaar-4991 1866 5247", PiiKind::InAadhaar).is_empty());
        assert!(found("UID-499118665247", PiiKind::InAadhaar).is_empty());
        assert!(found("XUID-499118665246", PiiKind::InAadhaar).is_empty());
        assert!(found("aadhaar build-499118665246", PiiKind::InAadhaar).is_empty());
        assert!(found("x-UID-499118665246", PiiKind::InAadhaar).is_empty());
        assert!(found("UID-4991186652461", PiiKind::InAadhaar).is_empty());
    }

    #[test]
    fn aadhaar_rejects_check_failures_leading_digits_and_no_context() {
        assert!(found("Aadhaar: 4991 1866 5247", PiiKind::InAadhaar).is_empty());
        assert!(found("Aadhaar: 1991 1866 5246", PiiKind::InAadhaar).is_empty());
        assert!(found("Aadhaar: 2222 2222 2222", PiiKind::InAadhaar).is_empty());
        assert!(found("Aadhaar: 4991 18665 246", PiiKind::InAadhaar).is_empty());
        assert!(found("order 4991 1866 5246 shipped", PiiKind::InAadhaar).is_empty());
        assert!(found("Aadhaar: XXXX XXXX 5246", PiiKind::InAadhaar).is_empty());
    }

    #[test]
    fn pan_after_context() {
        assert_eq!(found("PAN: BNZPM2501F", PiiKind::InPan), vec!["BNZPM2501F"]);
        assert_eq!(found("my PAN card number is AAACR5055K.", PiiKind::InPan), vec!["AAACR5055K"]);
        assert_eq!(found("पैन ALWPG5809L", PiiKind::InPan), vec!["ALWPG5809L"]);
    }

    #[test]
    fn pan_rejects_holder_type_shape_and_no_context() {
        assert!(found("PAN: ABCDE1234F", PiiKind::InPan).is_empty()); // D is no holder type
        assert!(found("PAN: BNZPM0000F", PiiKind::InPan).is_empty());
        assert!(found("PAN: BNZPM25010F", PiiKind::InPan).is_empty());
        assert!(found("PAN: BNZP12501F", PiiKind::InPan).is_empty());
        assert!(found("ticket BNZPM2501F", PiiKind::InPan).is_empty());
    }
}

#[cfg(test)]
mod gstin_tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::InGstin)
    }

    #[test]
    fn finds_numbers_with_and_without_context() {
        assert_eq!(found("GSTIN: 27AAPFU0939F1ZV"), vec![("27AAPFU0939F1ZV", 0.97)]);
        assert_eq!(found("supplier 19AAGCB1286Q1Z1, invoice 17"), vec![("19AAGCB1286Q1Z1", 0.9)]);
    }

    #[test]
    fn rejects_bad_checks_states_and_shapes() {
        assert!(found("GSTIN: 27AAPFU0939F1ZW").is_empty());
        assert!(found("GSTIN: 45AAPFU0939F1ZV").is_empty()); // no state 45
        assert!(found("GSTIN: 27AAPXU0939F1ZV").is_empty()); // X is no holder type
        assert!(found("GSTIN: 27AAPFU0939F1YV").is_empty());
        assert!(found("GSTIN: 29ABCDE1234F2ZV").is_empty()); // holder type E does not exist
        assert!(found("GSTIN: 27AAPFU0939F1ZV9").is_empty());
    }
}
