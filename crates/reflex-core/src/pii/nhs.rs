//! UK NHS numbers: ten digits (`943 476 5919`, `943-476-5919`, `943.476.5919` or run together)
//! whose last digit is the mod-11 check of the first nine, reported only with a context word
//! ("NHS", "patient number"…) before the number or just after it (`9434765919 (NHS)`).
//! Confidence 0.92: the check digit passes for one number in eleven, so context is required.

use super::scan::{clean_end, hit, read_digits, Keywords};
use super::{PiiKind, PiiMatch};

const CONTEXT: Keywords = Keywords::new(&[
    b"nhs", b"n.h.s", b"health service", b"health number", b"health and care number", b"patient number", b"patient id",
    b"patient no", b"hospital number", b"chi number", b"chi no",
]);

/// Bytes looked at for a context word before the number, and after it.
const BEFORE: usize = 48;
const AFTER: usize = 16;

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<10>(b, start, b" -.");
    if d.overflow || d.len != 10 || !clean_end(b, d.end) {
        return None;
    }
    if !(d.ngroups == 1 || d.groups[..d.ngroups] == [3, 3, 4]) || !check_digit_ok(&d.digits) {
        return None;
    }
    let after = (d.end + AFTER).min(b.len());
    let context = CONTEXT.before(b, start, BEFORE) || CONTEXT.before(b, after, after - d.end);
    context.then(|| hit(PiiKind::UkNhs, start, d.end, 0.92))
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
    fn other_layouts_and_context_after() {
        for (text, want) in [
            ("NHS number 943-476-5919", "943-476-5919"),
            ("NHS No. 943.476.5919", "943.476.5919"),
            ("Patient ID: 4010232137", "4010232137"),
            ("9434765919 (NHS)", "9434765919"),
            ("ref 943 476 5919 NHS no.", "943 476 5919"),
            ("The patient's N.H.S. number is 401 023 2137.", "401 023 2137"),
        ] {
            assert_eq!(nhs(text), vec![(PiiKind::UkNhs, want)], "{text}");
        }
    }

    #[test]
    fn rejects_mixed_layouts_and_failing_checks() {
        for text in ["NHS 943-476 5919", "NHS 9434 765 919", "NHS number 401 023 2138", "NHS 94347659190", "NHS 1111111111x"] {
            assert!(nhs(text).iter().all(|(k, _)| *k != PiiKind::UkNhs), "{text}");
        }
    }

    #[test]
    fn needs_context_and_check_digit() {
        assert!(nhs("NHS number: 943 476 5918").iter().all(|(k, _)| *k != PiiKind::UkNhs));
        assert!(nhs("reference 9434765919").iter().all(|(k, _)| *k != PiiKind::UkNhs));
    }
}
