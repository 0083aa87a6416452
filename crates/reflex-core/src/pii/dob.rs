//! Dates of birth: a calendar date (`1990-01-15`, `15/01/1990`, `01.15.1990`, `15 January 1990`,
//! `January 15, 1990`, `3. April 1979`, `7 de julio de 1993`, `2nd of September 1996`) reported
//! only when "born", "DOB", "date of birth", "Geburtsdatum", "fecha de nacimiento", "né le"…
//! comes shortly before. Month names are known in English, German, French, Spanish, Italian and
//! Portuguese.

use super::scan::{at, clean_end, hit, Keywords};
use super::{PiiKind, PiiMatch};

const CONTEXT: Keywords = Keywords::new(&[
    b"born",
    b"dob",
    b"d.o.b",
    b"date of birth",
    b"birth date",
    b"birthdate",
    b"birthday",
    b"birth",
    b"b. ",
    // de, nl
    b"geburtsdatum",
    b"geburtstag",
    b"geboren",
    b"geb. ",
    b"geboortedatum",
    // es, pt, it
    b"nacimiento",
    b"nacido",
    b"nacida",
    b"nascimento",
    b"nasceu",
    b"nascita",
    b"nato il",
    b"nata il",
    // fr
    b"naissance",
    "né le".as_bytes(),
    "née le".as_bytes(),
    "né en".as_bytes(),
    "née en".as_bytes(),
]);
const MONTHS: &[&[u8]] = &[
    b"january", b"february", b"march", b"april", b"may", b"june", b"july", b"august", b"september", b"october", b"november",
    b"december", b"sept",
    // de
    b"januar", b"februar", "m\u{e4}rz".as_bytes(), b"mai", b"juni", b"juli", b"oktober", b"dezember",
    // fr
    b"janvier", "f\u{e9}vrier".as_bytes(), b"mars", b"avril", b"juin", b"juillet", "ao\u{fb}t".as_bytes(), b"septembre",
    b"octobre", b"novembre", "d\u{e9}cembre".as_bytes(),
    // es
    b"enero", b"febrero", b"marzo", b"abril", b"mayo", b"junio", b"julio", b"agosto", b"septiembre", b"setiembre",
    b"octubre", b"noviembre", b"diciembre",
    // it
    b"gennaio", b"febbraio", b"aprile", b"maggio", b"giugno", b"luglio", b"settembre", b"ottobre", b"dicembre",
    // pt
    b"janeiro", b"fevereiro", "mar\u{e7}o".as_bytes(), b"maio", b"junho", b"julho", b"setembro", b"outubro", b"novembro",
    b"dezembro",
];

/// "Birthday party", "birthday dinner"…: an event on a date, not somebody's date of birth.
const EVENTS: Keywords = Keywords::new(&[
    b"birthday party", b"birthday cake", b"birthday card", b"birthday gift", b"birthday present", b"birthday dinner",
    b"birthday lunch", b"birthday celebration", b"birthday drinks", b"birthday bash",
]);

fn confirm(b: &[u8], start: usize, end: usize) -> Option<PiiMatch> {
    // An event word vetoes the context unless "born", "DOB" or "date of birth" is there too.
    const NAMED: Keywords = Keywords::new(&[b"born", b"dob", b"date of birth"]);
    let context = CONTEXT.before(b, start, 40) && (!EVENTS.before(b, start, 40) || NAMED.before(b, start, 40));
    context.then(|| hit(PiiKind::DateOfBirth, start, end, 0.85))
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

/// `YYYY-MM-DD`, `DD/MM/YYYY`, `MM/DD/YYYY` (also with `.` or `-`), or a day before a month
/// name: `15 January 1990`, `3. April 1979`, `2nd of September 1996`, `7 de julio de 1993`.
pub(super) fn numeric(b: &[u8], start: usize) -> Option<PiiMatch> {
    let (first, first_len) = number(b, start, 4);
    let sep = at(b, start + first_len);
    if first_len <= 2 {
        let after = start + first_len;
        if sep == b' ' {
            return day_month_year(b, start, first, after);
        }
        if sep == b'.' && at(b, after + 1) == b' ' {
            return day_month_year(b, start, first, after + 1);
        }
        if matches!(&b[after..b.len().min(after + 2)], b"st" | b"nd" | b"rd" | b"th") && at(b, after + 2) == b' ' {
            return day_month_year(b, start, first, after + 2);
        }
    }
    if !matches!(sep, b'-' | b'/' | b'.') {
        return None;
    }
    if first_len <= 2 && at(b, start + first_len + 1).is_ascii_alphabetic() {
        return day_name_year(b, start, first, start + first_len + 1, sep);
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
        // `04/07/85`: a two-digit year, taken only because the context says "born"/"DOB".
        (1 | 2, 2) => sep != b'-' && (day_month_ok(first, mid) || day_month_ok(mid, first)),
        _ => false,
    };
    if !ok || !clean_end(b, end) {
        return None;
    }
    confirm(b, start, end)
}

/// `14-Mar-1987`, `14/March/1987`: the same separator around a month name.
fn day_name_year(b: &[u8], start: usize, day: u32, i: usize, sep: u8) -> Option<PiiMatch> {
    let ml = month_at(b, i)?;
    if at(b, i + ml) != sep || !(1..=31).contains(&day) {
        return None;
    }
    let (y, ly) = number(b, i + ml + 1, 4);
    let end = i + ml + 1 + ly;
    (ly == 4 && year_ok(y) && clean_end(b, end)).then_some(())?;
    confirm(b, start, end)
}

/// A month name (any case for ASCII letters) or a three-letter abbreviation at `i`: its length.
fn month_at(b: &[u8], i: usize) -> Option<usize> {
    let word_len = (i..b.len().min(i + 12)).take_while(|&k| b[k].is_ascii_alphabetic() || b[k] >= 0x80).count();
    let word = &b[i..i + word_len];
    let matches = |m: &[u8]| {
        (word.len() == m.len() || (word.len() == 3 && m.len() >= 3)) && word.iter().zip(m).all(|(x, y)| x.to_ascii_lowercase() == *y)
    };
    MONTHS.iter().any(|m| matches(m)).then_some(word_len)
}

/// ` of ` / ` de ` / ` del ` at `k` (a space first): the offset after it, else `k`.
fn skip_particle(b: &[u8], k: usize) -> usize {
    for p in [&b" of "[..], b" de ", b" del "] {
        if b.get(k..k + p.len()).is_some_and(|w| w.eq_ignore_ascii_case(p)) {
            return k + p.len() - 1;
        }
    }
    k
}

/// `15 January 1990`, `15 Jan 1990`, `15 de enero de 1990`, from the space at `i` after the day.
fn day_month_year(b: &[u8], start: usize, day: u32, i: usize) -> Option<PiiMatch> {
    let i = skip_particle(b, i);
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
    let k = skip_particle(b, k);
    let (y, ly) = number(b, k + 1, 4);
    let end = k + 1 + ly;
    (ly == 4 && year_ok(y) && (1..=31).contains(&day) && clean_end(b, end)).then_some(())?;
    confirm(b, start, end)
}

/// `January 15, 1990`, `Jan. 15 1990`, `March 3rd, 1985`.
/// Whether a word starting with `first` may start a month name for [`named`] (the main scan
/// skips plain words for which it says no).
pub(super) fn may_name_month(first: u8) -> bool {
    matches!(first, b'J' | b'F' | b'M' | b'A' | b'S' | b'O' | b'N' | b'D')
}

pub(super) fn named(b: &[u8], start: usize) -> Option<PiiMatch> {
    if !may_name_month(b[start]) {
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
        assert_eq!(dobs("Geboren am 3. März 1979"), vec!["3. März 1979"]);
        assert_eq!(dobs("Fecha de nacimiento: 7 de julio de 1993"), vec!["7 de julio de 1993"]);
        assert_eq!(dobs("Date de naissance : 5 février 1991"), vec!["5 février 1991"]);
        assert_eq!(dobs("Né le 21/06/1968 à Lyon"), vec!["21/06/1968"]);
        assert_eq!(dobs("born on the 2nd of September 1996"), vec!["2nd of September 1996"]);
        assert_eq!(dobs("data di nascita: 4 maggio 1970"), vec!["4 maggio 1970"]);
        assert_eq!(dobs("DOB: 04/07/85"), vec!["04/07/85"]);
        assert_eq!(dobs("Date of birth: 14-Mar-1987"), vec!["14-Mar-1987"]);
    }

    #[test]
    fn needs_context_and_a_real_date() {
        assert!(dobs("meeting on 2024-01-15").is_empty());
        assert!(dobs("DOB: 1990-13-15").is_empty());
        assert!(dobs("DOB: 32/01/1990").is_empty());
        assert!(dobs("born in 1990").is_empty());
        assert!(dobs("DOB: 1990-01-15-7").is_empty());
        assert!(dobs("Le contrat du 3 mars 2019 est signé.").is_empty());
        assert!(dobs("On the 2nd of May 2020 we shipped.").is_empty());
        assert!(dobs("DOB: 04-07-85").is_empty());
        assert!(dobs("shipped 14-Mar-1987").is_empty());
        assert!(dobs("Birthday party on 2024-06-01 at the office!").is_empty());
        assert_eq!(dobs("birthday cake for Ada (born 1990-01-15)"), vec!["1990-01-15"]);
    }
}
