//! Finland: the personal identity code (henkilötunnus), `DDMMYYCZZZQ`: the birth date, a
//! century sign (`+` 1800s; `-`, `Y`, `X`, `W`, `V`, `U` 1900s; `A`–`F` 2000s), an individual
//! number and a check character, the nine digits mod 31 looked up in a fixed table. Date,
//! sign and check make it distinctive enough to report without context.

use super::{at, valid_date, word_end, Context};
use crate::pii::scan::hit;
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[b"hetu", b"sotu", b"personal identity code", b"identity code", b"personbeteckning", b"personal id"],
    &["henkilötunnus", "henkilötunnukse"],
);

const CHECK: &[u8; 31] = b"0123456789ABCDEFHJKLMNPRSTUVWXY";

pub(super) fn personal_id(b: &[u8], start: usize) -> Option<PiiMatch> {
    let s: &[u8; 11] = b.get(start..start + 11)?.try_into().ok()?;
    let century = match s[6] {
        b'+' => 1800,
        b'-' | b'Y' | b'X' | b'W' | b'V' | b'U' => 1900,
        b'A'..=b'F' => 2000,
        _ => return None,
    };
    let digit_at = [0, 1, 2, 3, 4, 5, 7, 8, 9];
    if !digit_at.iter().all(|&k| s[k].is_ascii_digit()) || !word_end(b, start + 11) || at(b, start + 11) == b'-' {
        return None;
    }
    let n = |k: usize| u32::from(s[k] - b'0');
    if !valid_date(century + n(4) * 10 + n(5), n(2) * 10 + n(3), n(0) * 10 + n(1)) {
        return None;
    }
    let individual = n(7) * 100 + n(8) * 10 + n(9);
    let value = digit_at.iter().fold(0u32, |acc, &k| acc * 10 + n(k));
    if individual < 2 || s[10] != CHECK[(value % 31) as usize] {
        return None;
    }
    let confidence = if CONTEXT.before(b, start) { 0.97 } else { 0.85 };
    Some(hit(PiiKind::FiPersonalId, start, start + 11, confidence))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::FiPersonalId)
    }

    #[test]
    fn finds_codes_of_each_century() {
        assert_eq!(found("henkilötunnus: 131052-308T"), vec![("131052-308T", 0.97)]);
        assert_eq!(found("HETU 010594Y9032"), vec![("010594Y9032", 0.97)]);
        assert_eq!(found("potilas 020304A123P saapui"), vec![("020304A123P", 0.85)]);
        assert_eq!(found("syntynyt 150283+0123"), vec![("150283+0123", 0.85)]);
    }

    #[test]
    fn rejects_bad_checks_dates_signs_and_individual_numbers() {
        assert!(found("HETU 131052-308U").is_empty());
        assert!(found("HETU 311152-308T").is_empty());
        assert!(found("HETU 131052G308T").is_empty());
        assert!(found("HETU 131052-001H").is_empty());
        assert!(found("HETU 131052-308T5").is_empty());
    }
}
