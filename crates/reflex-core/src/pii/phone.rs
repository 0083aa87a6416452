//! Phone numbers. Shape first, then digit-count and numbering-plan rules:
//! - `+CC …` international form with spaces, dashes or dots, 7–15 digits (E.164), an optional
//!   `(0)` trunk digit (`+44 (0)20 7946 0958`);
//! - North American `(415) 555-2671`, `415-555-2671`, `1 415 555 2671` with NXX rules (area
//!   code and exchange start with 2–9);
//! - national numbers with a trunk `0` in two or more groups (UK `020 7946 0958`, FR
//!   `06 12 34 56 78`, DE `030 1234567`, JP `090-1234-5678`, KR `010-1234-5678`, AU
//!   `0412 345 678`, ZA `082 123 4567`, NG `0803 123 4567`, ID `0812-3456-7890`);
//! - national mobiles without a trunk digit, in the layout each plan prints them: CN
//!   `138 0013 8000` (1, then 3–9, 11 digits), IN `98765 43210` (6–9, 10 digits), BR
//!   `(11) 91234-5678` and `11 91234-5678` (two-digit area code, mobile starting 9), MX
//!   `55 1234 5678` (ten digits);
//! - anything else (a bare run of digits, a 7-digit local number) only next to a context word.
//!
//! Not phones: dates (`2024-01-15`, `15/01/2024`, `15.01.2024`), dotted quads and versions,
//! numbers after "order", "invoice", "ISBN"…, and digit runs inside longer tokens (GUIDs).

use super::scan::{at, hit, inside_cluster, prev_word, Keywords};
use super::{PiiKind, PiiMatch};

const CONTEXT: Keywords = Keywords::new(&[
    b"phone", b"telephone", b"tel", b"call", b"mobile", b"cell", b"fax", b"whatsapp", b"sms", b"text me", b"ring", b"dial",
    b"contact", b"reach me", b"landline", b"mob",
]);
const NOT_PHONE: &[&[u8]] = &[
    b"order", b"invoice", b"isbn", b"ref", b"reference", b"id", b"account", b"acct", b"tracking", b"ticket", b"po", b"no",
    b"number", b"serial", b"sku", b"case", b"item", b"batch", b"version", b"build", b"issue", b"pr",
];

const MAX_DIGITS: usize = 15;
const DOT: u8 = 1;
const DASH: u8 = 2;

struct Parsed {
    digits: [u8; MAX_DIGITS],
    len: usize,
    groups: [u8; 8],
    ngroups: usize,
    plus: bool,
    paren: bool,
    /// Separators seen: `DOT`, `DASH` bits.
    seps: u8,
    end: usize,
}

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let first = b[start];
    if first == b'+' || first == b'(' {
        let next = at(b, start + 1);
        if !next.is_ascii_digit() || (start > 0 && b[start - 1].is_ascii_alphanumeric()) {
            return None;
        }
        if first == b'+' && next == b'0' {
            return None;
        }
    } else if inside_cluster(b, start) {
        return None;
    }
    let p = parse(b, start)?;
    let g = &p.groups[..p.ngroups];
    let d = &p.digits[..p.len];
    if p.len < 7 || looks_like_date(&p, g) || (p.seps & DOT != 0 && g.len() == 4 && g.iter().all(|&x| x <= 3)) {
        return None;
    }
    // The US SSN layout `AAA-GG-SSSS`: an SSN when its rules hold (ssn.rs), else nothing.
    if !p.plus && !p.paren && g == [3, 2, 4] {
        return None;
    }
    let context = CONTEXT.before(b, start, 32);
    if !context {
        let mut buf = [0u8; 16];
        let prev = prev_word(b, start, &mut buf);
        if (NOT_PHONE.contains(&prev) && !(prev == b"number" && possessive_before(b, start))) || (start > 0 && b[start - 1] == b'#') {
            return None;
        }
    }
    let nanp = |d: &[u8]| d.len() == 10 && d[0] >= 2 && d[3] >= 2 && !(d[1] == 1 && d[2] == 1);
    // (without context, with a context word just before): literal values, so they cross to
    // JSON as written rather than as 0.90000004.
    let (plain, boosted) = if p.plus {
        if p.len < 8 && !context {
            return None;
        }
        // +1 numbers must also follow the North American plan.
        if d[0] == 1 && p.len == 11 && !nanp(&d[1..]) {
            return None;
        }
        (0.88, 0.95)
    } else if (nanp(d) && (p.paren || g == [3, 3, 4])) || (p.len == 11 && d[0] == 1 && g == [1, 3, 3, 4] && nanp(&d[1..])) {
        (0.8, 0.9)
    } else if d[0] == 0 && d[1] != 0 && (9..=12).contains(&p.len) && g.len() >= 2 && !p.paren && !tail_of_longer(b, start) {
        (0.72, 0.85)
    } else if let Some(plain) = national_mobile(d, g, p.paren).filter(|_| !tail_of_longer(b, start)) {
        (plain, 0.9)
    } else if context && (g.len() >= 2 || (10..=11).contains(&p.len) || d[0] == 0) {
        (0.8, 0.8)
    } else {
        return None;
    };
    let confidence = if context { boosted } else { plain };
    Some(hit(PiiKind::Phone, start, p.end, confidence))
}

fn parse(b: &[u8], start: usize) -> Option<Parsed> {
    let mut p = Parsed {
        digits: [0; MAX_DIGITS],
        len: 0,
        groups: [0; 8],
        ngroups: 0,
        plus: false,
        paren: false,
        seps: 0,
        end: start,
    };
    let mut i = start;
    if b[i] == b'+' {
        p.plus = true;
        i += 1;
    }
    loop {
        let mut closing = false;
        if at(b, i) == b'(' {
            // "(415)" area code first, or "(0)" trunk after the country code.
            let trunk = p.plus && p.ngroups == 1 && at(b, i + 1) == b'0' && at(b, i + 2) == b')';
            if trunk {
                i += 3;
                if at(b, i) == b' ' || at(b, i) == b'-' {
                    i += 1;
                }
                continue;
            }
            // "(415) 555-2671" opens a national number; "+1 (415) 555-2671" follows the code.
            if !((p.ngroups == 0 && !p.plus) || (p.ngroups == 1 && p.plus)) {
                return None;
            }
            p.paren = true;
            closing = true;
            i += 1;
        }
        let s = i;
        while at(b, i).is_ascii_digit() {
            if p.len == MAX_DIGITS {
                return None;
            }
            p.digits[p.len] = b[i] - b'0';
            p.len += 1;
            i += 1;
        }
        if i == s || p.ngroups == p.groups.len() {
            return None;
        }
        p.groups[p.ngroups] = (i - s) as u8;
        p.ngroups += 1;
        if closing {
            if at(b, i) != b')' || !(1..=4).contains(&(i - s)) {
                return None;
            }
            i += 1;
            p.end = i;
            if at(b, i) == b' ' || at(b, i) == b'-' {
                i += 1;
            }
            if !at(b, i).is_ascii_digit() {
                return None;
            }
            continue;
        }
        p.end = i;
        let sep = at(b, i);
        let next = at(b, i + 1);
        if matches!(sep, b' ' | b'-' | b'.') && (next.is_ascii_digit() || (next == b'(' && p.plus)) {
            p.seps |= match sep {
                b'.' => DOT,
                b'-' => DASH,
                _ => 0,
            };
            i += 1;
        } else {
            break;
        }
    }
    let next = at(b, p.end);
    if next.is_ascii_alphanumeric() || next == b'_' || p.seps == DOT | DASH {
        return None;
    }
    Some(p)
}

/// Possessives that make "number" someone's phone number ("my number", "mera number", "mi número").
const POSSESSIVES: &[&[u8]] = &[b"my", b"your", b"our", b"his", b"her", b"their", b"mera", b"meri", b"mi", b"mon", b"ma", b"mein", b"meine"];

/// True when the word before the "number" that precedes `start` is a possessive.
fn possessive_before(b: &[u8], start: usize) -> bool {
    let mut j = start;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b':' | b'#' | b'=') {
        j -= 1;
    }
    // Past "number" (six letters) and the spaces before it.
    j = j.saturating_sub(6);
    while j > 0 && b[j - 1] == b' ' {
        j -= 1;
    }
    let mut buf = [0u8; 16];
    POSSESSIVES.contains(&prev_word(b, j, &mut buf))
}

/// True when digits end just before `start` with one separator between (`+44 20 7946…` read
/// from `20`): the candidate is the tail of a longer number.
fn tail_of_longer(b: &[u8], start: usize) -> bool {
    start >= 2 && matches!(b[start - 1], b' ' | b'-' | b'.') && b[start - 2].is_ascii_digit()
}

/// Mobile numbers of plans without a trunk digit, in their printed layouts; the confidence
/// without a context word.
fn national_mobile(d: &[u8], g: &[u8], paren: bool) -> Option<f32> {
    let china = d.len() == 11 && d[0] == 1 && d[1] >= 3 && g == [3, 4, 4];
    let india = d.len() == 10 && d[0] >= 6 && g == [5, 5];
    // Brazil: DDD area codes are 11–99 without a 0 digit; mobiles have nine digits starting 9.
    let ddd = d.len() >= 10 && d[0] != 0 && d[1] != 0 && g[0] == 2;
    let brazil_mobile = ddd && d[2] == 9 && g[1..] == [5, 4];
    let brazil = brazil_mobile || (paren && ddd && g[1..] == [4, 4]);
    // Mexico: the three metropolitan areas with two-digit codes (55, 33, 81).
    let mexico = !paren && d.len() == 10 && matches!((d[0], d[1]), (5, 5) | (3, 3) | (8, 1)) && g == [2, 4, 4];
    if china || brazil {
        Some(0.78)
    } else if india {
        Some(0.7)
    } else if mexico {
        Some(0.6)
    } else {
        None
    }
}

/// `2024-01-15`, `15/01/2024` (the `/` stops the parser), `15.01.2024`, `2024 01 15`, also
/// when a time follows (`2024-01-15 10:30` parses as groups 4-2-2-2).
fn looks_like_date(p: &Parsed, g: &[u8]) -> bool {
    if p.plus || p.paren || g.len() < 3 {
        return false;
    }
    (g[0] == 4 && g[1] <= 2 && g[2] <= 2) || (g[0] <= 2 && g[1] <= 2 && g[2] == 4)
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn phones(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::Phone).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_international_forms() {
        for n in [
            "+1 415 555 2671",
            "+1-415-555-2671",
            "+14155552671",
            "+44 20 7946 0958",
            "+44 (0)20 7946 0958",
            "+33 6 12 34 56 78",
            "+49 30 1234567",
            "+91 98765 43210",
            "+81.3.1234.5678",
            "+1 (415) 555-2671",
            "+49 (0) 30 1234567",
        ] {
            assert_eq!(phones(&format!("reach {n} now")), vec![n], "{n}");
        }
    }

    #[test]
    fn finds_national_forms() {
        for n in ["(415) 555-2671", "415-555-2671", "415.555.2671", "1 415 555 2671", "020 7946 0958", "07700 900123", "06 12 34 56 78", "030 1234567"] {
            assert_eq!(phones(&format!("it is {n}.")), vec![n], "{n}");
        }
    }

    #[test]
    fn context_words_admit_weaker_shapes_and_raise_confidence() {
        assert_eq!(phones("call me on 555-2671"), vec!["555-2671"]);
        assert_eq!(phones("mobile: 4155552671"), vec!["4155552671"]);
        assert!(phones("total 4155552671").is_empty());
        let with = detect("phone: 415-555-2671")[0].confidence;
        let without = detect("it is 415-555-2671")[0].confidence;
        assert!(with > without);
    }

    #[test]
    fn rejects_dates_versions_and_ids() {
        for t in [
            "on 2024-01-15 we met",
            "on 15/01/2024 we met",
            "on 15.01.2024 we met",
            "release 1.2.3.4",
            "host 192.168.100.200",
            "order 415-555-2671",
            "invoice #4155552671",
            "ISBN 978-3-16-148410-0",
            "id 550e8400-e29b-41d4-a716-446655440000",
            "total 12345678901",
            "between 2019-2024",
            "it is 415-155-2671",
            "it is 155-555-2671",
            "2024 01 15",
            "2024-01-15 10:30:45 INFO",
            "on 15.01.2024 12:00",
            "x+44 20 7946 0958",
        ] {
            assert!(phones(t).is_empty(), "{t}: {:?}", phones(t));
        }
    }

    #[test]
    fn finds_national_mobiles_beyond_europe_and_north_america() {
        for n in [
            "138 0013 8000",
            "138-0013-8000",
            "+86 138 0013 8000",
            "+86 13800138000",
            "98765 43210",
            "+91 98765 43210",
            "090-1234-5678",
            "+81 90-1234-5678",
            "010-1234-5678",
            "+82 10-1234-5678",
            "(11) 91234-5678",
            "11 91234-5678",
            "(21) 3456-7890",
            "+55 11 91234-5678",
            "0412 345 678",
            "+61 412 345 678",
            "+65 9123 4567",
            "082 123 4567",
            "+27 82 123 4567",
            "0803 123 4567",
            "+234 803 123 4567",
            "55 1234 5678",
            "+52 55 1234 5678",
            "0812-3456-7890",
        ] {
            assert_eq!(phones(&format!("it is {n}.")), vec![n], "{n}");
        }
        // Unbroken, or in a layout shared with ordinary numbers: only with a context word.
        for n in ["13800138000", "9876543210", "9123 4567", "09876543210"] {
            assert!(phones(&format!("it is {n}.")).is_empty(), "{n}");
            assert_eq!(phones(&format!("mobile: {n}")), vec![n], "{n}");
        }
    }

    #[test]
    fn my_number_is_a_phone_number() {
        assert_eq!(phones("My number 415-555-2671"), vec!["415-555-2671"]);
        assert_eq!(phones("Mera number 98765 43210 hai."), vec!["98765 43210"]);
        assert!(phones("Ticket number 415-555-2671").is_empty());
        assert!(phones("number 415-555-2671").is_empty());
    }

    #[test]
    fn national_layouts_with_the_wrong_prefix_are_not_mobiles() {
        for t in [
            "it is 128 0013 8000.", // CN mobiles start 13–19
            "it is 198 0013 80001.",
            "it is 58765 43210.", // IN mobiles start 6–9
            "it is 11 81234-5678.", // BR mobiles start 9
            "it is (01) 91234-5678.",
            "it is 20 7946 0958.", // MX two-digit area codes are 55, 33 and 81
            "it is 12 34 5678.",
            "order 138 0013 8000",
        ] {
            assert!(phones(t).is_empty(), "{t}: {:?}", phones(t));
        }
    }

    #[test]
    fn country_code_cannot_start_with_zero() {
        // The `+0` is dropped; the national number after it still has a valid shape.
        assert_eq!(phones("+0 415 555 2671"), vec!["415 555 2671"]);
    }

    #[test]
    fn rejects_too_many_digits() {
        assert!(phones("+44 20 7946 0958 1234 5678").is_empty());
    }
}
