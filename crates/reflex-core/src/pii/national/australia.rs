//! Australia: Tax File Numbers (weighted mod 11), Australian Business Numbers (mod 89 after
//! taking one from the first digit), Australian Company Numbers (weighted mod 10) and Medicare
//! card numbers (weighted mod 10 over the first eight digits, then the card's issue number).
//! All four are plain runs of digits, so each is reported only after its context word.

use super::{all_same, groups, layout, Context};
use crate::pii::scan::{clean_end, hit, read_digits, DigitRun};
use crate::pii::{PiiKind, PiiMatch};

const TFN_CONTEXT: Context = Context::new(&[b"tfn", b"tax file number", b"tax file no"], &[]);
const ABN_CONTEXT: Context = Context::new(&[b"abn", b"australian business number", b"business number"], &[]);
const ACN_CONTEXT: Context = Context::new(&[b"acn", b"australian company number", b"company number"], &[]);
const MEDICARE_CONTEXT: Context = Context::new(&[b"medicare"], &[]);

/// Digits from `start` in one of `layouts` (group lengths; one group is the number run
/// together), separated by single spaces or dashes.
fn read<const N: usize>(b: &[u8], start: usize, layouts: &[u64]) -> Option<DigitRun<N>> {
    let d = read_digits::<N>(b, start, b" -");
    (!d.overflow && clean_end(b, d.end) && layouts.contains(&layout(&d)) && !all_same(&d.digits[..d.len])).then_some(d)
}

fn weighted(d: &[u8], weights: &[u32]) -> u32 {
    d.iter().zip(weights).map(|(&x, w)| u32::from(x) * w).sum()
}

/// `123 456 782` or `123456782`, and the eight-digit numbers issued before 1990 (`123 456 78`
/// or `12345678`), each with its own weights. Eight digits are mostly something else (dates like
/// `20240115`, ids), so for those the context word is looked up first and the check runs only
/// after it: a text without "TFN" pays one read of the digits per eight-digit number.
pub(super) fn tfn(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read::<9>(b, start, &[groups(&[9]), groups(&[3, 3, 3]), groups(&[8]), groups(&[3, 3, 2])])?;
    if d.len == 8 {
        let ok = TFN_CONTEXT.before(b, start) && weighted(&d.digits[..8], &[10, 7, 8, 4, 6, 3, 5, 1]).is_multiple_of(11);
        return ok.then(|| hit(PiiKind::AuTfn, start, d.end, 0.85));
    }
    let ok = weighted(&d.digits, &[1, 4, 3, 7, 5, 8, 6, 9, 10]).is_multiple_of(11);
    (ok && TFN_CONTEXT.before(b, start)).then(|| hit(PiiKind::AuTfn, start, d.end, 0.92))
}

/// `51 824 753 556` or `51824753556`.
pub(super) fn abn(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read::<11>(b, start, &[groups(&[11]), groups(&[2, 3, 3, 3])])?;
    if d.digits[0] == 0 {
        return None;
    }
    let mut digits = d.digits;
    digits[0] -= 1;
    let ok = weighted(&digits, &[10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]).is_multiple_of(89);
    (ok && ABN_CONTEXT.before(b, start)).then(|| hit(PiiKind::AuAbn, start, d.end, 0.92))
}

/// `004 085 616` or `004085616`.
pub(super) fn acn(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read::<9>(b, start, &[groups(&[9]), groups(&[3, 3, 3])])?;
    let check = (10 - weighted(&d.digits[..8], &[8, 7, 6, 5, 4, 3, 2, 1]) % 10) % 10;
    (check == u32::from(d.digits[8]) && ACN_CONTEXT.before(b, start)).then(|| hit(PiiKind::AuAcn, start, d.end, 0.9))
}

/// `2428 77813 2` (number, issue), with or without the position on the card (`… 2 1`), or
/// run together; the first digit is 2 to 6.
pub(super) fn medicare(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read::<11>(b, start, &[groups(&[10]), groups(&[11]), groups(&[4, 5, 1]), groups(&[4, 5, 1, 1])])?;
    if !(2..=6).contains(&d.digits[0]) || d.digits[9] == 0 {
        return None;
    }
    let ok = weighted(&d.digits[..8], &[1, 3, 7, 9, 1, 3, 7, 9]) % 10 == u32::from(d.digits[8]);
    (ok && MEDICARE_CONTEXT.before(b, start)).then(|| hit(PiiKind::AuMedicare, start, d.end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str, kind: PiiKind) -> Vec<&str> {
        reported_text(text, kind)
    }

    #[test]
    fn tfn_layouts_after_context() {
        assert_eq!(found("TFN: 123 456 782", PiiKind::AuTfn), vec!["123 456 782"]);
        assert_eq!(found("my tax file number is 876543210.", PiiKind::AuTfn), vec!["876543210"]);
    }

    #[test]
    fn eight_digit_tfn_after_context() {
        // 3·10 + 7·7 + 6·8 + 5·4 + 4·6 + 3·3 + 2·5 + 8·1 = 198 = 18·11.
        assert_eq!(found("TFN: 37654328", PiiKind::AuTfn), vec!["37654328"]);
        assert_eq!(found("old tax file number 376 543 28.", PiiKind::AuTfn), vec!["376 543 28"]);
        assert!(found("TFN: 37654322", PiiKind::AuTfn).is_empty());
        assert!(found("TFN: 3765432", PiiKind::AuTfn).is_empty());
        assert!(found("TFN: 37 654 328", PiiKind::AuTfn).is_empty());
        assert!(found("order 37654328 shipped", PiiKind::AuTfn).is_empty());
        assert!(found("TFN: 00000000", PiiKind::AuTfn).is_empty());
    }

    #[test]
    fn tfn_rejects_check_failures_and_no_context() {
        assert!(found("TFN: 123 456 789", PiiKind::AuTfn).is_empty());
        assert!(found("TFN: 123 45 6782", PiiKind::AuTfn).is_empty());
        assert!(found("TFN: 000 000 000", PiiKind::AuTfn).is_empty());
        assert!(found("invoice 123 456 782", PiiKind::AuTfn).is_empty());
    }

    #[test]
    fn abn_layouts_after_context() {
        assert_eq!(found("ABN 51 824 753 556", PiiKind::AuAbn), vec!["51 824 753 556"]);
        assert_eq!(found("Australian Business Number: 53004085616", PiiKind::AuAbn), vec!["53004085616"]);
    }

    #[test]
    fn abn_rejects_check_failures_and_no_context() {
        assert!(found("ABN 51 824 753 557", PiiKind::AuAbn).is_empty());
        assert!(found("ABN 518 247 535 56", PiiKind::AuAbn).is_empty());
        assert!(found("reference 51 824 753 556", PiiKind::AuAbn).is_empty());
    }

    #[test]
    fn acn_layouts_after_context() {
        assert_eq!(found("ACN 004 085 616", PiiKind::AuAcn), vec!["004 085 616"]);
        assert_eq!(found("company number: 000000019", PiiKind::AuAcn), vec!["000000019"]);
    }

    #[test]
    fn acn_rejects_check_failures_and_no_context() {
        assert!(found("ACN 004 085 617", PiiKind::AuAcn).is_empty());
        assert!(found("batch 004 085 616", PiiKind::AuAcn).is_empty());
    }

    #[test]
    fn medicare_layouts_after_context() {
        assert_eq!(found("Medicare card 2428 77813 2", PiiKind::AuMedicare), vec!["2428 77813 2"]);
        assert_eq!(found("medicare no. 2428778132", PiiKind::AuMedicare), vec!["2428778132"]);
        assert_eq!(found("Medicare: 2428 77813 2 1", PiiKind::AuMedicare), vec!["2428 77813 2 1"]);
    }

    #[test]
    fn medicare_rejects_check_failures_first_digit_and_no_context() {
        assert!(found("Medicare card 2428 77814 2", PiiKind::AuMedicare).is_empty());
        assert!(found("Medicare card 7428 77813 2", PiiKind::AuMedicare).is_empty());
        assert!(found("Medicare card 2428 77813 0", PiiKind::AuMedicare).is_empty());
        assert!(found("tracking 2428778132", PiiKind::AuMedicare).is_empty());
    }
}
