//! Payment card numbers: issuer prefix and length tables plus the Luhn check. Digits may be
//! grouped by spaces or dashes, used consistently (`4111 1111 1111 1111`, `3782-822463-10005`).

use super::scan::{clean_end, hit, read_digits};
use super::{PiiKind, PiiMatch};

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<19>(b, start, b" -");
    if d.overflow || d.len < 12 || !clean_end(b, d.end) {
        return None;
    }
    let groups = &d.groups[..d.ngroups];
    if groups.len() > 1 && !grouping_ok(groups) {
        return None;
    }
    let digits = &d.digits[..d.len];
    if !issuer_ok(digits) || !luhn(digits) {
        return None;
    }
    Some(hit(PiiKind::CreditCard, start, d.end, if groups.len() > 1 { 0.97 } else { 0.93 }))
}

/// Printed groupings: fours (the last may be shorter, 19-digit cards end with 3), Amex 4-6-5,
/// Diners 4-6-4.
fn grouping_ok(g: &[u8]) -> bool {
    let (last, head) = g.split_last().expect("at least two groups");
    (head.iter().all(|&x| x == 4) && (1..=4).contains(last)) || g == [4, 6, 5] || g == [4, 6, 4]
}

fn prefix(d: &[u8], n: usize) -> u32 {
    d[..n].iter().fold(0, |acc, &x| acc * 10 + u32::from(x))
}

/// Issuer identification number ranges with the lengths each issuer uses.
fn issuer_ok(d: &[u8]) -> bool {
    let len = d.len();
    let p2 = prefix(d, 2);
    let p3 = prefix(d, 3);
    let p4 = prefix(d, 4);
    let p6 = prefix(d, 6);
    match d[0] {
        4 => matches!(len, 13 | 16 | 19), // Visa
        5 => (51..=55).contains(&p2) && len == 16, // Mastercard
        2 => (2221..=2720).contains(&p4) && len == 16, // Mastercard 2-series
        3 => {
            ((p2 == 34 || p2 == 37) && len == 15) // Amex
                || ((3528..=3589).contains(&p4) && (16..=19).contains(&len)) // JCB
                || (((300..=305).contains(&p3) || p2 == 36 || p2 == 38 || p2 == 39) && (14..=19).contains(&len)) // Diners
        }
        6 => {
            (p4 == 6011 || (644..=649).contains(&p3) || p2 == 65 || (622_126..=622_925).contains(&p6))
                && (16..=19).contains(&len) // Discover
                || (p2 == 62 && (16..=19).contains(&len)) // UnionPay
        }
        _ => false,
    }
}

pub(super) fn luhn(d: &[u8]) -> bool {
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            let x = u32::from(x);
            if i & 1 == 1 {
                let y = x * 2;
                if y > 9 { y - 9 } else { y }
            } else {
                x
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn cards(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::CreditCard).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_each_issuer() {
        for n in [
            "4111111111111111",    // Visa
            "4111 1111 1111 1111", // Visa grouped
            "4012-8888-8888-1881", // Visa dashes
            "5555 5555 5555 4444", // Mastercard
            "2223003122003222",    // Mastercard 2-series
            "378282246310005",     // Amex
            "3782 822463 10005",   // Amex 4-6-5
            "6011111111111117",    // Discover
            "3530111333300000",    // JCB
            "30569309025904",      // Diners
            "6200000000000005",    // UnionPay
        ] {
            let text = format!("pay with {n} today");
            assert_eq!(cards(&text), vec![n], "{n}");
        }
    }

    #[test]
    fn rejects_luhn_failures_and_unknown_issuers() {
        assert!(cards("pay with 4111111111111112 today").is_empty());
        assert!(cards("id 1234567812345670 ok").is_empty()); // Luhn-valid, no issuer starts with 1
        assert!(cards("amex 371449635398432 x").is_empty()); // Amex prefix, Luhn fails
        assert!(cards("5112345678901234").is_empty()); // Mastercard prefix, Luhn fails
    }

    #[test]
    fn rejects_inconsistent_or_odd_grouping() {
        assert!(cards("4111 1111-1111 1111").is_empty());
        assert!(cards("41 111111 11111111").is_empty());
    }

    #[test]
    fn rejects_isbn_and_longer_numbers() {
        assert!(cards("ISBN 978-3-16-148410-0").is_empty());
        assert!(cards("ISBN 9783161484100").is_empty());
        assert!(cards("41111111111111111111").is_empty());
        assert!(cards("x4111111111111111").is_empty());
        assert!(cards("550e8400-e29b-41d4-a716-446655440000").is_empty());
    }

    #[test]
    fn byte_offsets_after_non_ascii() {
        let text = "Zahlung für Müller: 4111 1111 1111 1111 ✓";
        let m = detect(text);
        assert_eq!(m.len(), 1);
        assert_eq!(&text[m[0].start..m[0].end], "4111 1111 1111 1111");
        assert_eq!(m[0].start, "Zahlung für Müller: ".len());
    }
}
