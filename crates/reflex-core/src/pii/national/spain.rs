//! Spain: NIF/DNI (eight digits and a check letter) and NIE (X, Y or Z, seven digits and a check
//! letter). The letter is the number mod 23 looked up in a fixed table; for a NIE the prefix
//! stands for a leading 0, 1 or 2. Compact or dashed, with a valid letter, they are reported
//! without context at middling confidence; a context word ("NIF", "DNI", "NIE") raises it.

use super::{all_same, at, word_end, Context};
use crate::pii::scan::hit;
use crate::pii::{PiiKind, PiiMatch};

const NIF_CONTEXT: Context = Context::new(
    &[b"nif", b"dni", b"n.i.f", b"d.n.i", b"documento nacional", b"identificaci", b"tax id", b"id number", b"national id"],
    &["número de identificación", "identificación fiscal"],
);
const NIE_CONTEXT: Context = Context::new(
    &[b"nie", b"n.i.e", b"tie", b"extranjero", b"foreigner", b"identificaci", b"residence card", b"id number"],
    &["número de identidad de extranjero"],
);

const LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";

/// `digits` digits from `j` (after a prefix worth `lead` times ten to the `digits`), then an
/// optional `-` or space, then the check letter; returns the end and whether a space came
/// before the letter.
fn body(b: &[u8], from: usize, digits: usize, lead: u64) -> Option<(usize, bool)> {
    let run = b.get(from..from + digits)?;
    if !run.iter().all(u8::is_ascii_digit) || all_same(run) {
        return None;
    }
    let value = run.iter().fold(lead, |acc, &c| acc * 10 + u64::from(c - b'0'));
    let mut end = from + digits;
    let spaced = at(b, end) == b' ';
    if matches!(at(b, end), b'-' | b' ') {
        end += 1;
    }
    (at(b, end) == LETTERS[(value % 23) as usize] && word_end(b, end + 1)).then_some((end + 1, spaced))
}

/// `12345678Z`, `12345678-Z`, `12345678 Z` (spaced only after a context word).
pub(super) fn nif(b: &[u8], start: usize) -> Option<PiiMatch> {
    let (end, spaced) = body(b, start, 8, 0)?;
    let confidence = match (NIF_CONTEXT.before(b, start), spaced) {
        (true, _) => 0.95,
        (false, false) => 0.55,
        (false, true) => return None,
    };
    Some(hit(PiiKind::EsNif, start, end, confidence))
}

/// `X1234567L`, `X-1234567-L`, `Y1234567X` (spaced only after a context word).
pub(super) fn nie(b: &[u8], start: usize) -> Option<PiiMatch> {
    let lead = match b[start] {
        b'X' => 0,
        b'Y' => 1,
        b'Z' => 2,
        _ => return None,
    };
    let j = if at(b, start + 1) == b'-' { start + 2 } else { start + 1 };
    let (end, spaced) = body(b, j, 7, lead)?;
    let confidence = match (NIE_CONTEXT.before(b, start), spaced) {
        (true, _) => 0.95,
        (false, false) => 0.6,
        (false, true) => return None,
    };
    Some(hit(PiiKind::EsNie, start, end, confidence))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str, kind: PiiKind) -> Vec<(&str, f32)> {
        reported(text, kind)
    }

    #[test]
    fn nif_with_and_without_context() {
        assert_eq!(found("DNI: 48291736Q", PiiKind::EsNif), vec![("48291736Q", 0.95)]);
        assert_eq!(found("mi NIF es 48291736-Q.", PiiKind::EsNif), vec![("48291736-Q", 0.95)]);
        assert_eq!(found("NIF 48291736 Q", PiiKind::EsNif), vec![("48291736 Q", 0.95)]);
        assert_eq!(found("firmado por 48291736Q ayer", PiiKind::EsNif), vec![("48291736Q", 0.55)]);
    }

    #[test]
    fn nif_rejects_wrong_letters_fillers_and_spaced_without_context() {
        assert!(found("DNI: 48291736R", PiiKind::EsNif).is_empty());
        assert!(found("DNI: 00000000T", PiiKind::EsNif).is_empty());
        assert!(found("DNI: 482917360Q", PiiKind::EsNif).is_empty());
        assert!(found("DNI: 48291736QA", PiiKind::EsNif).is_empty());
        assert!(found("room 48291736 Q", PiiKind::EsNif).is_empty());
    }

    #[test]
    fn nie_with_and_without_context() {
        assert_eq!(found("NIE: X1234567L", PiiKind::EsNie), vec![("X1234567L", 0.95)]);
        assert_eq!(found("NIE Y-7654321-G", PiiKind::EsNie), vec![("Y-7654321-G", 0.95)]);
        assert_eq!(found("residente con Z9081726C en regla", PiiKind::EsNie), vec![("Z9081726C", 0.6)]);
    }

    #[test]
    fn nie_rejects_wrong_letters_and_prefixes() {
        assert!(found("NIE: X1234567M", PiiKind::EsNie).is_empty());
        assert!(found("NIE: W1234567L", PiiKind::EsNie).is_empty());
        assert!(found("NIE: X123456L", PiiKind::EsNie).is_empty());
    }
}
