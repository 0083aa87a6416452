//! Driving licence numbers outside the UK's structured format: every state and country has its
//! own (`D1234567`, `123456789`, `D400-7836-0001`), none with a public check digit, so a token
//! is reported only right after a driving-licence phrase in one of a dozen languages: six to
//! seventeen capitals and digits, at least five digits and at most five letters, groups joined
//! by dashes only when it starts with a letter (so dates and phone numbers stay out). A number
//! glued to its label's mark (`DL#D1234567`, `DL No.123456789`) is tried by [`glued`].
//!
//! A token starting with two letters (Ohio's `TR538172`) has the shape of flight numbers,
//! product codes, passport and NI numbers too, so it must also sit right after the phrase's
//! last word, with at most a number word between (`DL: TR538172`, `license no. TR538172`):
//! see [`right_after_label`].

use super::{at, Context, NATIVE_WINDOW};
use crate::pii::scan::{hit, is_word};
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[
        b"driver's license",
        b"driver's licence",
        b"drivers license",
        b"drivers licence",
        b"driver license",
        b"driver licence",
        b"driving license",
        b"driving licence",
        b"dl no",
        b"dl number",
        b"dl#",
        b"dl #",
        b"dl:",
        b"f\xc3\xbchrerschein",
        b"fuhrerschein",
        b"permis de conduire",
        b"licencia de conducir",
        b"licencia de manejo",
        b"carnet de conducir",
        b"permiso de conducir",
        b"patente di guida",
        b"patente n",
        b"rijbewijs",
        b"prawo jazdy",
        b"carteira de motorista",
        b"carta de condu",
        b"k\xc3\xb6rkort",
        b"ajokortti",
        b"k\xc3\xb8rekort",
        b"f\xc3\xb8rerkort",
    ],
    &["운전면허", "驾驶证", "駕駛執照", "運転免許", "водительское удостоверение", "водительские права", "ड्राइविंग लाइसेंस"],
);

/// Inlined, so that the many tokens that do not follow words cost no call.
#[inline]
pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    if follows_words(b, start) {
        token(b, start)
    } else {
        None
    }
}

/// A token glued to the mark before it: `DL#D1234567`, `DL No.123456789`,
/// `Führerschein-Nr.B072RRE2I55`. The main scan takes a token right after `#` or `.` and a
/// letter for a fragment of the word before it (`HTML#section`, `page.html#D1234567`), so it
/// reaches this function instead. A `#` counts only after `DL` standing alone: at the start of
/// the text or after a space or opening punctuation, not in a path, a URL or a hashtag
/// (`/DL#…`, `#DL#…`). A `.` counts only after `No` or `Nr`, whose licence phrase the context
/// lookup then finds before them. The token itself must have the shape [`find`] accepts.
pub(super) fn glued(b: &[u8], start: usize) -> Option<PiiMatch> {
    let mark = start - 1;
    let word_is = |w: &[u8]| mark >= w.len() && b[mark - w.len()..mark].eq_ignore_ascii_case(w);
    let alone = |k: usize| k == 0 || matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r' | b'(' | b'[' | b'"' | b'\'' | b',' | b';');
    let labelled = match b[mark] {
        b'#' => word_is(b"dl") && alone(mark - 2),
        b'.' => (word_is(b"no") || word_is(b"nr")) && mark > 2 && !is_word(b[mark - 3]),
        _ => false,
    };
    if labelled {
        token(b, start)
    } else {
        None
    }
}

#[inline(never)]
fn token(b: &[u8], start: usize) -> Option<PiiMatch> {
    let (mut len, mut digits, mut letters, mut dashes) = (0, 0, 0, 0);
    let mut i = start;
    loop {
        match at(b, i) {
            b'0'..=b'9' => digits += 1,
            b'A'..=b'Z' => letters += 1,
            b'-' if at(b, i + 1).is_ascii_alphanumeric() && i > start && at(b, i - 1) != b'-' => dashes += 1,
            _ => break,
        }
        i += 1;
        len += 1;
        if len > 22 {
            return None;
        }
    }
    let chars = len - dashes;
    if !(6..=17).contains(&chars) || digits < 5 || letters > 5 || is_word(at(b, i)) {
        return None;
    }
    if dashes > 0 && !b[start].is_ascii_uppercase() {
        return None;
    }
    // Two capitals first (`TR538172`): flight numbers and product codes look the same, so the
    // phrase must come right before the token, not just somewhere in the window.
    if b[start + 1].is_ascii_uppercase() && !right_after_label(b, start) {
        return None;
    }
    CONTEXT.before(b, start).then(|| hit(PiiKind::DriverLicense, start, i, 0.7))
}

/// The last words of the ASCII licence phrases of [`CONTEXT`] (`dl` only with a mark or a
/// number word after it: `DL: …`, `DL No …`, never an airline's `DL 1234`).
const PHRASE_ENDS: &[&[u8]] = &[
    b"license",
    b"licence",
    b"dl",
    b"f\xc3\xbchrerschein",
    b"fuhrerschein",
    b"conduire",
    b"conducir",
    b"manejo",
    b"guida",
    b"patente",
    b"rijbewijs",
    b"jazdy",
    b"motorista",
    b"condu\xc3\xa7\xc3\xa3o",
    b"conducao",
    b"k\xc3\xb6rkort",
    b"ajokortti",
    b"k\xc3\xb8rekort",
    b"f\xc3\xb8rerkort",
];

/// Words that may stand between a licence phrase and its number: `no`, `Nr.`, `number`, `n°`,
/// `№`…
const NUMBER_WORDS: &[&[u8]] =
    &[b"no", b"nr", b"n", b"num", b"number", b"nummer", b"numer", b"numero", b"n\xc3\xbamero", b"nro", b"id", b"n\xc2\xb0", b"n\xc2\xba", b"\xe2\x84\x96"];

/// Whether the token at `start` follows a licence phrase's last word directly, past label
/// punctuation and at most one number word: `license TR538172`, `DL: TR538172`,
/// `DL#TR538172`, `licence no. TR538172`, `Führerschein-Nr. TR538172`, `운전면허번호 TR538172`.
/// Looks at two words before the token at most, so it costs the same on any text.
fn right_after_label(b: &[u8], start: usize) -> bool {
    let (mut from, mut marks, mut word) = word_before(b, start);
    let mut numbered = false;
    if NUMBER_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w)) {
        (from, marks, word) = word_before(b, from);
        numbered = true;
    }
    if word.eq_ignore_ascii_case(b"dl") {
        return numbered || marks;
    }
    if PHRASE_ENDS.iter().any(|w| word.eq_ignore_ascii_case(w)) {
        return true;
    }
    // Another script: a native licence phrase that ends inside that word (`運転免許証番号`,
    // `водительское удостоверение`), looked for in the bytes up to the word's end.
    let end = from + word.len();
    let window = &b[end.saturating_sub(NATIVE_WINDOW)..end];
    let word_at = window.len() - word.len();
    !word.is_ascii() && CONTEXT.native.iter().any(|w| memchr::memmem::rfind(window, w.as_bytes()).is_some_and(|k| k + w.len() > word_at))
}

/// The word before `pos`, past at most four bytes of label punctuation: where it starts,
/// whether a `:` or `#` was among that punctuation, and the word (ASCII letters and bytes of
/// other scripts, at most 48 bytes).
fn word_before(b: &[u8], pos: usize) -> (usize, bool, &[u8]) {
    let mut end = pos;
    let mut marks = false;
    while end > 0 && pos - end < 4 && matches!(b[end - 1], b' ' | b'\t' | b':' | b'#' | b'.' | b'-' | b'(' | b'"' | b'\'') {
        marks |= matches!(b[end - 1], b':' | b'#');
        end -= 1;
    }
    let mut from = end;
    while from > 0 && end - from < 48 && (b[from - 1].is_ascii_alphabetic() || !b[from - 1].is_ascii()) {
        from -= 1;
    }
    (from, marks, &b[from..end])
}

/// Whether the token at `start` comes after words (a letter or another script before it, past
/// spaces and label punctuation), as it does after a licence phrase: in tables, lists and CSV,
/// where numbers follow numbers and commas, the context lookup is skipped.
#[inline]
fn follows_words(b: &[u8], start: usize) -> bool {
    let before = b[..start]
        .iter()
        .rev()
        .take(8)
        .find(|&&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b':' | b'#' | b'=' | b'.' | b'-' | b'(' | b'"' | b'\''));
    before.is_some_and(|&c| c.is_ascii_alphabetic() || !c.is_ascii())
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<&str> {
        reported_text(text, PiiKind::DriverLicense)
    }

    #[test]
    fn finds_numbers_after_driving_licence_phrases() {
        assert_eq!(found("California driver's license D1234567"), vec!["D1234567"]);
        assert_eq!(found("Driver license #: 123456789."), vec!["123456789"]);
        assert_eq!(found("Illinois driver's license D400-7836-0001"), vec!["D400-7836-0001"]);
        assert_eq!(found("Führerschein-Nr. B072RRE2I55"), vec!["B072RRE2I55"]);
        assert_eq!(found("numero patente di guida U1H45T389K"), vec!["U1H45T389K"]);
        assert_eq!(found("運転免許証番号 123456789012"), vec!["123456789012"]);
    }

    #[test]
    fn dl_abbreviation_with_its_label_mark() {
        assert_eq!(found("DL: D1234567"), vec!["D1234567"]);
        assert_eq!(found("Name: Ada King, DL: 123456789, exp 2030"), vec!["123456789"]);
        assert_eq!(found("DL# D1234567"), vec!["D1234567"]);
        assert_eq!(found("DL # 123456789"), vec!["123456789"]);
        assert_eq!(found("DL No. D400-7836-0001"), vec!["D400-7836-0001"]);
        // `DL` as part of another word or abbreviation, or without its mark, is no context.
        assert!(found("DLQ: 1234567 messages waiting").is_empty());
        assert!(found("HDL: 1234567").is_empty());
        assert!(found("DL 1234567 departs at 9").is_empty());
        assert!(found("DL: 12345").is_empty());
    }

    #[test]
    fn dl_glued_to_its_label_mark() {
        assert_eq!(found("DL#D1234567"), vec!["D1234567"]);
        assert_eq!(found("DL#123456789"), vec!["123456789"]);
        assert_eq!(found("Name: Ada King, DL#D400-7836-0001, exp 2030"), vec!["D400-7836-0001"]);
        assert_eq!(found("(dl#D1234567)"), vec!["D1234567"]);
        assert_eq!(found("DL:D1234567"), vec!["D1234567"]);
        assert_eq!(found("DL:123456789"), vec!["123456789"]);
        assert_eq!(found("DL No.D400-7836-0001"), vec!["D400-7836-0001"]);
        assert_eq!(found("Führerschein-Nr.B072RRE2I55"), vec!["B072RRE2I55"]);
        for t in [
            // `#` after another word, or after `DL` inside a path, a URL or a hashtag.
            "see HTML#section",
            "HTML#D1234567",
            "HDL#D1234567",
            "DLQ#1234567",
            "docs/DL#D1234567",
            "https://example.com/forms/DL#D1234567",
            "#DL#D1234567",
            // `DL#` before a plain word, a hashtag, a year, a short number.
            "DL#followup",
            "DL#Overview2",
            "DL# #teamwork",
            "DL#2024",
            "DL#D1234",
            // `.` after something other than `No`/`Nr`, or with no licence phrase before it.
            "DL.D1234567",
            "Invoice No.12345678",
            "Ref No.D1234567",
        ] {
            assert!(found(t).is_empty(), "{t}: {:?}", found(t));
        }
    }

    #[test]
    fn two_letter_prefix_right_after_the_label() {
        for t in [
            "DL: TR538172",
            "DL # TR538172",
            "DL No. TR538172",
            "Driver's license TR538172",
            "Ohio driver's license number: TR538172, class D",
            "driver licence no TR538172",
            "Führerschein-Nr. TR538172",
            "Permis de conduire n° TR538172",
            "運転免許証番号 TR538172",
            "운전면허번호: TR538172",
            "водительское удостоверение № TR538172",
        ] {
            assert_eq!(found(t), vec!["TR538172"], "{t}");
        }
    }

    #[test]
    fn two_letter_prefix_glued_to_the_label() {
        assert_eq!(found("DL#TR538172"), vec!["TR538172"]);
        assert_eq!(found("Renter: Ada King, dl#TR538172, exp 08/2029"), vec!["TR538172"]);
        assert_eq!(found("DL:TR538172"), vec!["TR538172"]);
        assert_eq!(found("DL No.TR538172"), vec!["TR538172"]);
        assert_eq!(found("Driver license No.TR538172"), vec!["TR538172"]);
    }

    #[test]
    fn two_letter_prefix_needs_the_label_before_it() {
        for t in [
            // No licence phrase: flight numbers, product codes, part numbers.
            "flight TR5381 departs at 9",
            "flight TR538172",
            "SKU AB123456 is back in stock",
            "part AB123456-01",
            "DL TR538172",
            "Flight DL TR538172",
            // `DL` before an ordinary word, or glued to one.
            "DL: Overview",
            "DL: Overview AB123456",
            "DL#Overview",
            "DL#AB",
            // The phrase earlier in the sentence, another word right before the token.
            "Driver's license on file; flight TR538172 booked",
            "DL: D1234567, passport AB1234567",
            "DL: D1234567, NI number AB123456C",
            "Driver's license checked, order no. AB123456",
            "DL: D1234567, flight DL AB123456",
            // Glued to another label's mark.
            "Ref No.TR538172",
            "HTML#TR538172",
            "docs/DL#TR538172",
        ] {
            // Only the `D1234567` of a sentence may be reported, never a two-letter token.
            assert!(found(t).iter().all(|m| m.as_bytes()[1].is_ascii_digit()), "{t}: {:?}", found(t));
        }
    }

    #[test]
    fn needs_context_and_shape() {
        assert!(found("order D1234567 shipped").is_empty());
        assert!(found("driver's license expires 2025-03-01").is_empty());
        assert!(found("driver's license 12345").is_empty());
        assert!(found("driver's license ABCDEF12").is_empty());
        assert!(found("driver's license valid until 12/2030").is_empty());
        // A list of numbers after the phrase: only the first follows the words.
        assert_eq!(found("Driver license numbers: 123456789, 987654321"), vec!["123456789"]);
    }
}
