//! Poland: PESEL, eleven digits: the birth date (the month carries the century: +80 for the
//! 1800s, +20 for the 2000s, +40, +60 after), a serial, the sex digit and a weighted mod-10
//! check digit. A plain run of digits, so reported only after the word "PESEL".

use super::{all_same, valid_date, Context};
use crate::pii::scan::{clean_end, hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(&[b"pesel", b"numer ewidencyjny"], &[]);

pub(super) fn pesel(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<11>(b, start, b"");
    if d.overflow || d.len != 11 || !clean_end(b, d.end) || all_same(&d.digits) {
        return None;
    }
    let n = |k: usize| u32::from(d.digits[k]);
    let (yy, mm, dd) = (n(0) * 10 + n(1), n(2) * 10 + n(3), n(4) * 10 + n(5));
    let (century, month) = match mm {
        81..=92 => (1800, mm - 80),
        1..=12 => (1900, mm),
        21..=32 => (2000, mm - 20),
        41..=52 => (2100, mm - 40),
        61..=72 => (2200, mm - 60),
        _ => return None,
    };
    if !valid_date(century + yy, month, dd) {
        return None;
    }
    let sum: u32 = d.digits[..10].iter().zip([1, 3, 7, 9, 1, 3, 7, 9, 1, 3]).map(|(&x, w)| u32::from(x) * w).sum();
    let ok = (10 - sum % 10) % 10 == n(10);
    (ok && CONTEXT.before(b, start)).then(|| hit(PiiKind::PlPesel, start, d.end, 0.95))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<&str> {
        reported_text(text, PiiKind::PlPesel)
    }

    #[test]
    fn finds_numbers_after_context() {
        assert_eq!(found("PESEL: 44051401359"), vec!["44051401359"]);
        assert_eq!(found("numer PESEL 02270803624."), vec!["02270803624"]);
    }

    #[test]
    fn rejects_check_failures_dates_and_no_context() {
        assert!(found("PESEL: 44051401358").is_empty());
        assert!(found("PESEL: 44053201356").is_empty()); // 32 May
        assert!(found("PESEL: 44135401352").is_empty()); // month 13
        assert!(found("faktura 44051401359").is_empty());
        assert!(found("PESEL: 440514013590").is_empty());
    }
}
