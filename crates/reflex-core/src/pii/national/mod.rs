//! National identifiers beyond the US SSN: one file per country, each with its validator.
//!
//! Routing keeps them off the common path: a digit-led word reaches [`digits`] with the length of
//! its leading digit run and the byte after it, and only the identifiers of that length are
//! tried; a word starting with a capital reaches [`upper`] with its length. Every detector checks
//! its shape and its checksum before it looks for a context word, and the context is looked up
//! in a short window before the candidate only.
//!
//! Confidence: a checksum-validated number in a distinctive layout (letters around digits, a
//! century sign, a dash after a birth date) is reported without context; a plain run of digits
//! that passes a checksum is an ordinary number more often than not, so it is reported only
//! next to a context word; identifiers with no checksum at all (NINO, PAN, ITIN, driving licence
//! numbers) need a context word too.

mod australia;
mod canada;
mod finland;
mod india;
mod italy;
mod korea;
mod licence;
mod nigeria;
mod poland;
mod singapore;
mod spain;
mod thailand;
mod uk;
mod us;

use super::scan::{at, is_word, run_len, DigitRun, Keywords};
use super::PiiMatch;

/// Bytes before a candidate searched for an ASCII context word.
const WINDOW: usize = 48;
/// Bytes searched for a context word in another script (three bytes a character in Hangul or
/// Devanagari).
const NATIVE_WINDOW: usize = 64;

/// Context words for one identifier: ASCII words (matched case-insensitively from a word start)
/// and words in other scripts (matched as bytes).
pub(in crate::pii) struct Context {
    words: Keywords,
    native: &'static [&'static str],
}

impl Context {
    pub(in crate::pii) const fn new(words: &'static [&'static [u8]], native: &'static [&'static str]) -> Self {
        Context { words: Keywords::new(words), native }
    }

    /// Whether a context word sits in the window before `pos`.
    pub(in crate::pii) fn before(&self, b: &[u8], pos: usize) -> bool {
        if self.words.before(b, pos, WINDOW) {
            return true;
        }
        // Every native word is outside ASCII: an ASCII window (most text) holds none of them.
        let window = &b[pos.saturating_sub(NATIVE_WINDOW)..pos];
        !window.is_ascii() && self.native.iter().any(|w| memchr::memmem::find(window, w.as_bytes()).is_some())
    }
}

/// The identifiers that can start at a digit-led word: `run` leading digits, then `next`.
pub(in crate::pii) fn digits(b: &[u8], i: usize, run: usize, next: u8, out: &mut Vec<PiiMatch>) {
    // The length of the second group, when a space or dash starts one: dates, times and phone
    // numbers reach none of the grouped layouts below.
    let second = if matches!(next, b' ' | b'-') { run_len(b, i + run + 1, 6, |c| c.is_ascii_digit()) } else { 0 };
    match (run, second) {
        (1, 4) => push(out, thailand::tnin(b, i)),
        (2, 3) => push(out, australia::abn(b, i)),
        (3, 3) => {
            push(out, australia::tfn(b, i));
            push(out, australia::acn(b, i));
            push(out, canada::sin(b, i));
        }
        (3, 2) => {
            push(out, us::itin(b, i));
            push(out, korea::brn(b, i));
        }
        (4, 4) => push(out, india::aadhaar(b, i)),
        (4, 5) => push(out, australia::medicare(b, i)),
        _ => {}
    }
    match run {
        2 if next.is_ascii_uppercase() => push(out, india::gstin(b, i)),
        6 => {
            if matches!(next, b'+' | b'-' | b'A'..=b'F' | b'U'..=b'Y') {
                push(out, finland::personal_id(b, i));
            }
            if next == b'-' {
                push(out, korea::rrn(b, i));
            }
        }
        8 if next.is_ascii_uppercase() || (matches!(next, b'-' | b' ') && at(b, i + 9).is_ascii_uppercase()) => {
            push(out, spain::nif(b, i));
            if next.is_ascii_uppercase() {
                push(out, singapore::uen_digits(b, i, 8));
            }
        }
        8 if !is_word(next) => push(out, australia::tfn(b, i)),
        9 if next.is_ascii_uppercase() => push(out, singapore::uen_digits(b, i, 9)),
        9 => {
            push(out, australia::tfn(b, i));
            push(out, australia::acn(b, i));
            push(out, us::itin(b, i));
            push(out, canada::sin(b, i));
        }
        10 => {
            push(out, australia::medicare(b, i));
            push(out, korea::brn(b, i));
        }
        11 => {
            push(out, australia::abn(b, i));
            push(out, poland::pesel(b, i));
            push(out, australia::medicare(b, i));
            push(out, italy::vat(b, i));
            push(out, nigeria::nin(b, i));
        }
        12 => push(out, india::aadhaar(b, i)),
        13 => {
            push(out, korea::rrn(b, i));
            push(out, thailand::tnin(b, i));
        }
        _ => {}
    }
    if run >= 5 && !is_word(next) {
        push(out, licence::find(b, i));
    }
}

/// The identifiers that can start at a digit glued by a hyphen to a word (`UID-2345…`): only
/// those whose context word is the word itself. The leading run is read first, so that ids
/// like `build-17` cost one short look.
pub(in crate::pii) fn after_hyphen(b: &[u8], i: usize, out: &mut Vec<PiiMatch>) {
    if matches!(run_len(b, i, 13, |c| c.is_ascii_digit()), 4 | 12) {
        push(out, india::aadhaar_after_word(b, i));
    }
}

/// The identifiers that can start at a token glued by `#` or `.` to a word (`DL#D1234567`,
/// `DL No.123456789`): only a driving licence, whose label ends in that mark.
pub(in crate::pii) fn after_mark(b: &[u8], i: usize, out: &mut Vec<PiiMatch>) {
    push(out, licence::glued(b, i));
}

/// The identifiers that can start at a word beginning with a capital letter.
pub(in crate::pii) fn upper(b: &[u8], i: usize, out: &mut Vec<PiiMatch>) {
    let len = run_len(b, i, 17, is_word);
    let (c, second) = (b[i], at(b, i + 1));
    // Each reader only where its first bytes fit: most capitalised words (`GET`, `JSON`, `ID`)
    // reach none.
    let nie = matches!(c, b'X' | b'Y' | b'Z');
    let nino = second.is_ascii_uppercase() && (at(b, i + 2).is_ascii_digit() || (len == 2 && at(b, i + 3).is_ascii_digit()));
    match len {
        1 if nie => push(out, spain::nie(b, i)),
        2 if nino => push(out, uk::nino(b, i)),
        5 if at(b, i + 5) == b' ' => push(out, uk::driving_licence(b, i)),
        8 | 9 => {
            if nino {
                push(out, uk::nino(b, i));
            }
            if nie {
                push(out, spain::nie(b, i));
            } else if len == 9 && second.is_ascii_digit() {
                push(out, singapore::nric(b, i));
            }
        }
        10 if at(b, i + 5).is_ascii_digit() => {
            push(out, india::pan(b, i));
            if matches!(c, b'T' | b'S' | b'R') && second.is_ascii_digit() {
                push(out, singapore::uen_entity(b, i));
            }
        }
        13 if c == b'I' && second == b'T' => push(out, italy::vat_prefixed(b, i)),
        16 => {
            push(out, italy::fiscal_code(b, i));
            push(out, uk::driving_licence(b, i));
        }
        _ => {}
    }
    // Licence numbers: a capital then a digit (`D1234567`), two capitals then a digit
    // (`TR538172`), or dashed groups (`ABC-1234567`).
    if (len >= 2 && (second.is_ascii_digit() || (second.is_ascii_uppercase() && at(b, i + 2).is_ascii_digit()))) || at(b, i + len) == b'-' {
        push(out, licence::find(b, i));
    }
}

#[inline]
fn push(out: &mut Vec<PiiMatch>, m: Option<PiiMatch>) {
    if let Some(m) = m {
        out.push(m);
    }
}

/// The group lengths of a digit run as one number (`[4, 4, 4]` is `0x04_04_04`), so that a
/// layout check is an integer compare rather than a slice compare.
pub(super) fn layout<const N: usize>(d: &DigitRun<N>) -> u64 {
    groups(&d.groups[..d.ngroups])
}

/// [`layout`] of the group lengths `g`, for constants.
pub(super) const fn groups(g: &[u8]) -> u64 {
    let mut v = 0;
    let mut k = 0;
    while k < g.len() {
        v = v << 8 | g[k] as u64;
        k += 1;
    }
    v
}

/// Whether every digit is the same (`00000000`, `11111111`): filler, not an identifier.
pub(super) fn all_same(d: &[u8]) -> bool {
    d.iter().all(|&x| x == d[0])
}

/// Whether `day`.`month`.`year` is a calendar date.
pub(super) fn valid_date(year: u32, month: u32, day: u32) -> bool {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// True when `end` is a clean right edge for a token: no word byte follows.
pub(super) fn word_end(b: &[u8], end: usize) -> bool {
    !is_word(at(b, end))
}

/// The text and confidence of each match of `kind` that `detect` reports in `text`: what every
/// identifier's tests look at.
#[cfg(test)]
pub(super) fn reported(text: &str, kind: super::PiiKind) -> Vec<(&str, f32)> {
    super::detect(text).into_iter().filter(|m| m.kind == kind).map(|m| (&text[m.start..m.end], m.confidence)).collect()
}

/// The text of each match of `kind` that `detect` reports in `text`.
#[cfg(test)]
pub(super) fn reported_text(text: &str, kind: super::PiiKind) -> Vec<&str> {
    reported(text, kind).into_iter().map(|(t, _)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert!(valid_date(2000, 2, 29));
        assert!(!valid_date(1900, 2, 29));
        assert!(!valid_date(1999, 4, 31));
        assert!(!valid_date(1999, 13, 1));
        assert!(!valid_date(1999, 1, 0));
    }

    #[test]
    fn kinds_redact_to_their_names() {
        use crate::pii::{detect, redact, RedactMode};
        let text = "NRIC: S1234567D, TFN 123 456 782, codice fiscale RSSMRA85T10A562S";
        assert_eq!(redact(text, &detect(text), &RedactMode::Placeholder), "NRIC: [SG_NRIC_1], TFN [AU_TFN_1], codice fiscale [IT_FISCAL_CODE_1]");
    }

    #[test]
    fn same_digits_go_to_the_kind_their_context_names() {
        use crate::pii::{detect, PiiKind};
        let kinds = |t: &str| detect(t).into_iter().map(|m| m.kind).collect::<Vec<_>>();
        // Ten digits valid both as an NHS number and as a Medicare number.
        assert_eq!(kinds("NHS number 3832364056"), vec![PiiKind::UkNhs]);
        assert_eq!(kinds("Medicare 3832364056"), vec![PiiKind::AuMedicare]);
        // Nine digits valid as a TFN; as an ACN only with its own word.
        assert_eq!(kinds("TFN 123456782"), vec![PiiKind::AuTfn]);
        assert_eq!(kinds("ACN 004085616"), vec![PiiKind::AuAcn]);
    }

    /// Texts glued from identifier fragments, context words and separators: never a panic,
    /// and the contract (sorted, non-overlapping, on char boundaries) holds.
    #[test]
    fn contract_holds_on_identifier_noise() {
        #[rustfmt::skip]
        const PARTS: &[&str] = &[
            "4", "9", "0", "1", " ", "-", "+", "<", ".", "A", "S", "X", "Z", "M", "9", "TFN ", "ABN ", "NRIC ", "DNI ", "PESEL ",
            "Aadhaar ", "주민등록번호 ", "henkilötunnus ", "driver's license ", "passport ", "NI number ", "RSSMRA85T10A562S",
            "123 456 782", "S1234567D", "900101-1234568", "131052-308T", "MORGA753116SM9IJ", "X4827195<5GBR8507147F3103027<<<<<<<<<<<<<<<6",
            "é", "\n",
        ];
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..next() % 24 {
                text.push_str(PARTS[(next() % PARTS.len() as u64) as usize]);
            }
            let found = crate::pii::detect(&text);
            assert!(found.windows(2).all(|w| w[0].end <= w[1].start), "{text:?}");
            assert!(found.iter().all(|m| text.is_char_boundary(m.start) && text.is_char_boundary(m.end) && m.start < m.end), "{text:?}");
        }
    }

    #[test]
    fn context_in_other_scripts() {
        const C: Context = Context::new(&[b"rrn"], &["주민등록번호"]);
        let t = "주민등록번호: ".as_bytes();
        assert!(C.before(t, t.len()));
        let t = b"RRN ";
        assert!(C.before(t, t.len()));
        let t = b"number ";
        assert!(!C.before(t, t.len()));
    }
}
