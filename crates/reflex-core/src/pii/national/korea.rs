//! South Korea: resident registration numbers, `YYMMDD-SBBBBNC`: the birth date, a digit for sex
//! and century (1/2 1900s, 3/4 2000s, 9/0 1800s; 5–8 for foreign residents), then six more.
//! Numbers issued before October 2020 end with a weighted mod-11 check digit; newer ones do
//! not. Dashed, with a valid date, check digit and a sex digit from 1 to 8, a number is reported
//! on its own; otherwise it needs a context word ("주민등록번호", "RRN"). Foreign residents'
//! registration numbers (외국인등록번호) are the same layout with 5–8 and are reported as RRNs.
//!
//! Business registration numbers (사업자등록번호), `XXX-XX-XXXXX`: ten digits, the last a
//! weighted check digit. Plain digits with a one-in-ten check, so reported after a context word
//! only.

use super::{all_same, groups, layout, valid_date, Context};
use crate::pii::scan::{clean_end, hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[b"rrn", b"resident registration", b"registration number", b"jumin"],
    &["주민등록번호", "주민번호", "주민 등록 번호", "외국인등록번호"],
);

pub(super) fn rrn(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<13>(b, start, b"-");
    let dashed = layout(&d) == groups(&[6, 7]);
    if d.overflow || d.len != 13 || !(dashed || d.ngroups == 1) || !clean_end(b, d.end) {
        return None;
    }
    let n = |k: usize| u32::from(d.digits[k]);
    let century = match n(6) {
        1 | 2 | 5 | 6 => 1900,
        3 | 4 | 7 | 8 => 2000,
        _ => 1800,
    };
    if !valid_date(century + n(0) * 10 + n(1), n(2) * 10 + n(3), n(4) * 10 + n(5)) {
        return None;
    }
    let sum: u32 = d.digits[..12].iter().zip([2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]).map(|(&x, w)| u32::from(x) * w).sum();
    let checked = (11 - sum % 11) % 10 == n(12);
    let confidence = match (CONTEXT.before(b, start), checked) {
        (true, true) => 0.97,
        (true, false) => 0.8,
        // 9 and 0 (born in the 1800s) are valid but, without context, far more often the
        // serial of an order number that starts with a date.
        (false, true) if dashed && (1..=8).contains(&n(6)) => 0.85,
        _ => return None,
    };
    Some(hit(PiiKind::KrRrn, start, d.end, confidence))
}

const BRN_CONTEXT: Context = Context::new(
    &[b"brn", b"business registration", b"business number", b"business reg no"],
    &["사업자등록번호", "사업자 등록 번호", "사업자번호"],
);

/// `220-81-12341` or `2208112341`.
pub(super) fn brn(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<10>(b, start, b"-");
    if d.overflow || d.len != 10 || !(d.ngroups == 1 || layout(&d) == groups(&[3, 2, 5])) || !clean_end(b, d.end) || all_same(&d.digits) {
        return None;
    }
    let n = |k: usize| u32::from(d.digits[k]);
    let sum: u32 = (0..9).zip([1, 3, 7, 1, 3, 7, 1, 3, 5]).map(|(k, w)| n(k) * w).sum::<u32>() + n(8) * 5 / 10;
    if (10 - sum % 10) % 10 != n(9) || !BRN_CONTEXT.before(b, start) {
        return None;
    }
    Some(hit(PiiKind::KrBrn, start, d.end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::KrRrn)
    }

    #[test]
    fn finds_numbers_with_and_without_context() {
        assert_eq!(found("주민등록번호: 900101-1234568"), vec![("900101-1234568", 0.97)]);
        assert_eq!(found("주민등록번호 9001011234568"), vec![("9001011234568", 0.97)]);
        assert_eq!(found("신청인 900101-1234568 확인"), vec![("900101-1234568", 0.85)]);
        // Issued after October 2020: no check digit, so only with context.
        assert_eq!(found("RRN 210315-3123456"), vec![("210315-3123456", 0.8)]);
    }

    #[test]
    fn rejects_bad_dates_checks_without_context_and_compact_without_context() {
        assert!(found("주민등록번호: 901301-1234568").is_empty());
        assert!(found("주민등록번호: 900230-1234568").is_empty());
        assert!(found("ref 900101-1234567").is_empty());
        assert!(found("ref 9001011234568").is_empty());
        assert!(found("ref 900101-12345680").is_empty());
        // A date-led order number whose seventh digit is 0, though its last digit checks out.
        assert!(found("주문번호 240115-0012348").is_empty());
        assert_eq!(found("주민등록번호 240115-0012348"), vec![("240115-0012348", 0.97)]);
    }
}

#[cfg(test)]
mod brn_tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<&str> {
        reported_text(text, PiiKind::KrBrn)
    }

    #[test]
    fn finds_numbers_after_context() {
        assert_eq!(found("사업자등록번호: 220-81-12341"), vec!["220-81-12341"]);
        assert_eq!(found("Business registration number 1234567891"), vec!["1234567891"]);
    }

    #[test]
    fn rejects_bad_checks_layouts_and_no_context() {
        assert!(found("사업자등록번호: 220-81-12342").is_empty());
        assert!(found("사업자등록번호: 2208-11-2341").is_empty());
        assert!(found("주문 220-81-12341").is_empty());
        assert!(found("call 010-1234-5678").is_empty());
    }
}
