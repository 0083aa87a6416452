//! Thailand: the thirteen-digit national identification number, a category digit (1–8), eleven
//! digits and a weighted mod-11 check digit. Printed `1-2345-67890-12-1`, that layout with a
//! valid check digit is reported on its own; run together or spaced it needs a context word.

use super::{all_same, groups, layout, Context};
use crate::pii::scan::{clean_end, hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[b"thai id", b"national id", b"id card", b"citizen id", b"identification number", b"id no", b"id number"],
    &["เลขประจำตัวประชาชน", "บัตรประชาชน", "เลขบัตร"],
);

pub(super) fn tnin(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<13>(b, start, b"- ");
    let printed = layout(&d) == groups(&[1, 4, 5, 2, 1]);
    if d.overflow || d.len != 13 || !(printed || d.ngroups == 1) || !clean_end(b, d.end) {
        return None;
    }
    if !(1..=8).contains(&d.digits[0]) || all_same(&d.digits[1..12]) {
        return None;
    }
    let sum: u32 = d.digits[..12].iter().zip((2..=13).rev()).map(|(&x, w)| u32::from(x) * w).sum();
    if (11 - sum % 11) % 10 != u32::from(d.digits[12]) {
        return None;
    }
    let confidence = match (CONTEXT.before(b, start), printed && d.sep == b'-') {
        (true, _) => 0.95,
        (false, true) => 0.8,
        (false, false) => return None,
    };
    Some(hit(PiiKind::ThTnin, start, d.end, confidence))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<(&str, f32)> {
        reported(text, PiiKind::ThTnin)
    }

    #[test]
    fn finds_printed_and_run_together_numbers() {
        assert_eq!(found("เลขประจำตัวประชาชน 1-1037-02071-81-1"), vec![("1-1037-02071-81-1", 0.95)]);
        assert_eq!(found("Thai ID: 1103702071811"), vec![("1103702071811", 0.95)]);
        assert_eq!(found("ผู้สมัคร 3-1005-00123-45-8 ยืนยันแล้ว"), vec![("3-1005-00123-45-8", 0.8)]);
    }

    #[test]
    fn rejects_check_failures_categories_and_run_together_without_context() {
        assert!(found("Thai ID: 1-1037-02071-81-2").is_empty());
        assert!(found("Thai ID: 9-1037-02071-81-7").is_empty());
        assert!(found("order 1103702071811").is_empty());
        assert!(found("Thai ID: 1-103-702071-81-1").is_empty());
    }
}
