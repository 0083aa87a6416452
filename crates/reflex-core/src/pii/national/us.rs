//! United States: Individual Taxpayer Identification Numbers, `9XX-GG-SSSS` with the group in
//! 50–65, 70–88, 90–92 or 94–99. No check digit, so reported only after a context word.

use super::{groups, layout, Context};
use crate::pii::scan::{clean_end, hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(&[b"itin", b"individual taxpayer", b"taxpayer identification", b"taxpayer id", b"tax id"], &[]);

pub(super) fn itin(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<9>(b, start, b"- ");
    if d.overflow || d.len != 9 || !(d.ngroups == 1 || layout(&d) == groups(&[3, 2, 4])) || !clean_end(b, d.end) || d.digits[0] != 9 {
        return None;
    }
    let group = d.digits[3] * 10 + d.digits[4];
    let serial_zero = d.digits[5..].iter().all(|&x| x == 0);
    if !matches!(group, 50..=65 | 70..=88 | 90..=92 | 94..=99) || serial_zero {
        return None;
    }
    CONTEXT.before(b, start).then(|| hit(PiiKind::UsItin, start, d.end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<&str> {
        reported_text(text, PiiKind::UsItin)
    }

    #[test]
    fn finds_numbers_after_context() {
        assert_eq!(found("ITIN: 912-78-4321"), vec!["912-78-4321"]);
        assert_eq!(found("individual taxpayer identification number 987 95 1234"), vec!["987 95 1234"]);
        assert_eq!(found("ITIN 900501234"), vec!["900501234"]);
    }

    #[test]
    fn rejects_groups_areas_and_no_context() {
        assert!(found("ITIN: 912-45-4321").is_empty()); // group 45 is not issued
        assert!(found("ITIN: 912-93-4321").is_empty());
        assert!(found("ITIN: 812-78-4321").is_empty());
        assert!(found("ITIN: 912-78-0000").is_empty());
        assert!(found("order 912-78-4321").is_empty());
    }
}
