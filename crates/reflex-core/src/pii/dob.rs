//! Dates of birth: a calendar date (`1990-01-15`, `15/01/1990`, `01.15.1990`, `15 January 1990`,
//! `January 15, 1990`) reported only when "born", "DOB", "date of birth"… comes shortly before.

use super::scan::{at, clean_end, hit, keyword_before};
use super::{PiiKind, PiiMatch};

const CONTEXT: &[&[u8]] = &[b"born", b"dob", b"d.o.b", b"date of birth", b"birth date", b"birthdate", b"birthday", b"birth"];
const MONTHS: [&[u8]; 12] = [
    b"january", b"february", b"march", b"april", b"may", b"june", b"july", b"august", b"september", b"october", b"november",
    b"december",
];

fn confirm(b: &[u8], start: usize, end: usize) -> Option<PiiMatch> {
    keyword_before(b, start, 40, CONTEXT).then(|| hit(PiiKind::DateOfBirth, start, end, 0.85))
}

fn number(b: &[u8], i: usize, max: usize) -> (u32, usize) {
    let mut v = 0;
    let mut n = 0;
    while n < max && at(b, i + n).is_ascii_digit() {
        v = v * 10 + u32::from(b[i + n] - b'0');
        n += 1;
    }
    (v, n)
}

fn year_ok(y: u32) -> bool {
    (1900..=2099).contains(&y)
}

fn day_month_ok(d: u32, m: u32) -> bool {
    (1..=12).contains(&m) && (1..=31).contains(&d)
}

/// `YYYY-MM-DD`, `DD/MM/YYYY`, `MM/DD/YYYY` (also with `.` or `-`), or `15 January 1990`.
pub(super) fn numeric(b: &[u8], start: usize) -> Option<PiiMatch> {
    let (first, first_len) = number(b, start, 4);
    let sep = at(b, start + first_len);
    if sep == b' ' && first_len <= 2 {
        return day_month_year(b, start, first, start + first_len);
    }
    if !matches!(sep, b'-' | b'/' | b'.') {
        return None;
    }
    let (mid, mid_len) = number(b, start + first_len + 1, 2);
    let second_sep = start + first_len + 1 + mid_len;
    if mid_len == 0 || at(b, second_sep) != sep {
        return None;
    }
    let (last, last_len) = number(b, second_sep + 1, 4);
    let end = second_sep + 1 + last_len;
    let ok = match (first_len, last_len) {
        (4, 1 | 2) => year_ok(first) && day_month_ok(last, mid),
        (1 | 2, 4) => year_ok(last) && (day_month_ok(first, mid) || day_month_ok(mid, first)),
        _ => false,
    };
    if !ok || !clean_end(b, end) {
        return None;
    }
    confirm(b, start, end)
}

fn month_at(b: &[u8], i: usize) -> Option<usize> {
    let word_len = (i..b.len()).take_while(|&k| b[k].is_ascii_alphabetic()).count();
    let word = &b[i..i + word_len];
    let matches = |m: &[u8]| {
        (word.len() == m.len() || (word.len() == 3 && m.len() >= 3)) && word.iter().zip(m).all(|(x, y)| x.to_ascii_lowercase() == *y)
    };
    MONTHS.iter().any(|m| matches(m)).then_some(word_len)
}

/// `15 January 1990`, `15 Jan 1990`.
fn day_month_year(b: &[u8], start: usize, day: u32, i: usize) -> Option<PiiMatch> {
    let ml = month_at(b, i + 1)?;
    let mut k = i + 1 + ml;
    if at(b, k) == b'.' {
        k += 1;
    }
    if at(b, k) == b',' {
        k += 1;
    }
    if at(b, k) != b' ' {
        return None;
    }
    let (y, ly) = number(b, k + 1, 4);
    let end = k + 1 + ly;
    (ly == 4 && year_ok(y) && (1..=31).contains(&day) && clean_end(b, end)).then_some(())?;
    confirm(b, start, end)
}

/// `January 15, 1990`, `Jan. 15 1990`, `March 3rd, 1985`.
pub(super) fn named(b: &[u8], start: usize) -> Option<PiiMatch> {
    if !matches!(b[start], b'J' | b'F' | b'M' | b'A' | b'S' | b'O' | b'N' | b'D') {
        return None;
    }
    // Cheap shape first: a word of 3–9 letters, then `Jan. 1` or `January 1`.
    let word = (start..b.len().min(start + 10)).take_while(|&k| b[k].is_ascii_alphabetic()).count();
    let gap = usize::from(at(b, start + word) == b'.');
    if !(3..=9).contains(&word) || at(b, start + word + gap) != b' ' || !at(b, start + word + gap + 1).is_ascii_digit() {
        return None;
    }
    let ml = month_at(b, start)?;
    let mut k = start + ml;
    if at(b, k) == b'.' {
        k += 1;
    }
    if at(b, k) != b' ' {
        return None;
    }
    let (day, ld) = number(b, k + 1, 2);
    k += 1 + ld;
    if ld == 0 || !(1..=31).contains(&day) {
        return None;
    }
    if matches!(&b[k..b.len().min(k + 2)], b"st" | b"nd" | b"rd" | b"th") {
        k += 2;
    }
    if at(b, k) == b',' {
        k += 1;
    }
    if at(b, k) != b' ' {
        return None;
    }
    let (y, ly) = number(b, k + 1, 4);
    let end = k + 1 + ly;
    (ly == 4 && year_ok(y) && clean_end(b, end)).then_some(())?;
    confirm(b, start, end)
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn dobs(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::DateOfBirth).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_dates_after_context() {
        assert_eq!(dobs("DOB: 1990-01-15"), vec!["1990-01-15"]);
        assert_eq!(dobs("born on 15/01/1990 in Leeds"), vec!["15/01/1990"]);
        assert_eq!(dobs("Date of birth: 01.15.1990"), vec!["01.15.1990"]);
        assert_eq!(dobs("she was born 15 January 1990."), vec!["15 January 1990"]);
        assert_eq!(dobs("birthday: March 3rd, 1985"), vec!["March 3rd, 1985"]);
    }

    #[test]
    fn needs_context_and_a_real_date() {
        assert!(dobs("meeting on 2024-01-15").is_empty());
        assert!(dobs("DOB: 1990-13-15").is_empty());
        assert!(dobs("DOB: 32/01/1990").is_empty());
        assert!(dobs("born in 1990").is_empty());
        assert!(dobs("DOB: 1990-01-15-7").is_empty());
    }
}
