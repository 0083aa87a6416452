//! UK NHS numbers: ten digits (`943 476 5919`, `943-476-5919` or run together) whose last digit
//! is the mod-11 check of the first nine, reported only after a context word ("NHS").

use super::scan::{clean_end, hit, read_digits, Keywords};
use super::{PiiKind, PiiMatch};

const CONTEXT: Keywords = Keywords::new(&[b"nhs", b"health service", b"patient number"]);

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<10>(b, start, b" -");
    if d.overflow || d.len != 10 || !clean_end(b, d.end) {
        return None;
    }
    if !(d.ngroups == 1 || d.groups[..d.ngroups] == [3, 3, 4]) || !check_digit_ok(&d.digits) {
        return None;
    }
    CONTEXT.before(b, start, 40).then(|| hit(PiiKind::UkNhs, start, d.end, 0.92))
}

fn check_digit_ok(d: &[u8; 10]) -> bool {
    let sum: u32 = d[..9].iter().zip((2..=10).rev()).map(|(&x, w)| u32::from(x) * w).sum();
    let check = 11 - sum % 11;
    let check = if check == 11 { 0 } else { check };
    check != 10 && check == u32::from(d[9])
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn nhs(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    #[test]
    fn finds_valid_numbers_with_context() {
        assert_eq!(nhs("NHS number: 943 476 5919"), vec![(PiiKind::UkNhs, "943 476 5919")]);
        assert_eq!(nhs("nhs no 9434765919"), vec![(PiiKind::UkNhs, "9434765919")]);
    }

    #[test]
    fn needs_context_and_check_digit() {
        assert!(nhs("NHS number: 943 476 5918").iter().all(|(k, _)| *k != PiiKind::UkNhs));
        assert!(nhs("reference 9434765919").iter().all(|(k, _)| *k != PiiKind::UkNhs));
    }
}
