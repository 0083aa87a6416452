//! Passport numbers, two ways:
//! - One token of six to nine capital letters and digits (at least four digits, at most three
//!   letters: `123456789`, `A12345678`, `C01X00T47`) after the word "passport" in one of the
//!   languages passports are issued in. Formats vary too much by country, and no number
//!   carries a public check digit, for a shape alone to mean anything.
//! - The second line of a passport's machine-readable zone (ICAO 9303, 44 characters:
//!   number, nationality, birth date, sex, expiry, personal number), reported on its own when
//!   the check digits of the number, the birth date, the expiry and the whole line all hold.

use super::national::Context;
use super::scan::{at, hit, is_word};
use super::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[
        b"passport",
        b"reisepass",
        b"passeport",
        b"pasaporte",
        b"passaporto",
        b"passaporte",
        b"paspoort",
        b"paszport",
        b"pasaport",
        b"passnummer",
        b"pass nr",
        b"cestovn",
    ],
    &["паспорт", "护照", "護照", "パスポート", "旅券", "여권", "पासपोर्ट", "جواز سفر", "διαβατήριο", "דרכון"],
);

/// Inlined: most calls end at the shape (every capitalised word and digit run asks), and a
/// call with the context lookup's stack frame costs more than the shape check itself.
#[inline]
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
    after_context(b, start, end)
}

#[inline(never)]
fn after_context(b: &[u8], start: usize, end: usize) -> Option<PiiMatch> {
    CONTEXT.before(b, start).then(|| hit(PiiKind::Passport, start, end, 0.75))
}

/// Length of a TD3 machine-readable line.
const MRZ_LEN: usize = 44;

/// Whether a machine-readable passport line could start at `start`: its four check digits are
/// where a TD3 line has them. One load each, so any word can ask.
#[inline]
pub(super) fn may_start_mrz(b: &[u8], start: usize) -> bool {
    b.get(start..start + MRZ_LEN).is_some_and(|l| l[43].is_ascii_digit() && l[9].is_ascii_digit() && l[19].is_ascii_digit() && l[27].is_ascii_digit())
}

/// The second line of a TD3 machine-readable zone starting at `start`.
pub(super) fn mrz(b: &[u8], start: usize) -> Option<PiiMatch> {
    let line: &[u8; MRZ_LEN] = b.get(start..start + MRZ_LEN)?.try_into().ok()?;
    let end = start + MRZ_LEN;
    if !line.iter().all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'<') || is_word(at(b, end)) || at(b, end) == b'<' {
        return None;
    }
    let nationality = &line[10..13];
    // `UTO` is Utopia, the issuing state of ICAO's published specimen.
    if !nationality.iter().all(|&c| c.is_ascii_uppercase() || c == b'<') || nationality == b"UTO" || !matches!(line[20], b'M' | b'F' | b'<' | b'X') {
        return None;
    }
    let fields_ok = check(&line[0..9], line[9]) && check(&line[13..19], line[19]) && check(&line[21..27], line[27]);
    let personal_ok = check(&line[28..42], line[42]) || (line[42] == b'<' && line[28..42].iter().all(|&c| c == b'<'));
    if !fields_ok || !personal_ok || line[..9].iter().all(|&c| c == b'<') {
        return None;
    }
    let composite = line[0..10].iter().chain(&line[13..20]).chain(&line[21..43]);
    (weighted(composite) == u32::from(line[43] - b'0')).then(|| hit(PiiKind::Passport, start, end, 0.97))
}

/// ICAO 9303 check digit: weights 7, 3, 1 repeating; digits count as themselves, letters
/// A–Z as 10–35 and the filler `<` as 0; the sum mod 10.
fn weighted<'a>(field: impl Iterator<Item = &'a u8>) -> u32 {
    field
        .zip([7, 3, 1].iter().cycle())
        .map(|(&c, w)| {
            let v = match c {
                b'0'..=b'9' => u32::from(c - b'0'),
                b'A'..=b'Z' => u32::from(c - b'A') + 10,
                _ => 0,
            };
            v * w
        })
        .sum::<u32>()
        % 10
}

fn check(field: &[u8], digit: u8) -> bool {
    digit.is_ascii_digit() && weighted(field.iter()) == u32::from(digit - b'0')
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
        assert_eq!(passports("numero di passaporto YA1234567"), vec!["YA1234567"]);
        assert_eq!(passports("Numer paszportu: EA7031852"), vec!["EA7031852"]);
        assert_eq!(passports("여권번호 M12345678"), vec!["M12345678"]);
        assert_eq!(passports("护照号码：E12345678"), vec!["E12345678"]);
    }

    #[test]
    fn needs_context_and_shape() {
        assert!(passports("ticket 123456789").is_empty());
        assert!(passports("passport ABCDEFGH").is_empty());
        assert!(passports("passport 12345").is_empty());
        assert!(passports("passport 1234567890").is_empty());
    }

    #[test]
    fn finds_machine_readable_lines() {
        let line = "X4827195<5GBR8507147F3103027<<<<<<<<<<<<<<<6";
        let text = format!("P<GBRSMITH<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<<<\n{line}\n");
        assert_eq!(passports(&text), vec![line]);
        let line = "C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4";
        assert_eq!(passports(line), vec![line]);
    }

    #[test]
    fn rejects_machine_readable_lines_that_fail_a_check() {
        // One check digit off at a time, the ICAO specimen, and one character too many.
        for line in [
            "X4827195<6GBR8507147F3103027<<<<<<<<<<<<<<<6",
            "X4827195<5GBR8507148F3103027<<<<<<<<<<<<<<<6",
            "X4827195<5GBR8507147F3103028<<<<<<<<<<<<<<<6",
            "X4827195<5GBR8507147F3103027<<<<<<<<<<<<<<<7",
            "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
            "X4827195<5GBR8507147F3103027<<<<<<<<<<<<<<<61",
        ] {
            assert!(passports(line).is_empty(), "{line}");
        }
    }
}
