//! Canada: the Social Insurance Number (SIN), nine digits whose last is a Luhn check digit,
//! written `046 454 286`, `046-454-286` or run together. One nine-digit number in ten passes
//! Luhn by chance, so it is reported only after a context word ("SIN", "social insurance
//! number", "numéro d'assurance sociale"). Without one, the spaced layout reads as a phone
//! number at most.

use super::{all_same, groups, layout, Context};
use crate::pii::card::luhn;
use crate::pii::scan::{clean_end, hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

// `sin` only with what follows it in a label: as a bare prefix it would match "since" and
// "single", and Spanish "sin" ("without") anywhere in the window. `SIN 046 454 286`, the word
// right before the number, is `label_right_before`.
const CONTEXT: Context = Context::new(
    &[b"sin:", b"sin #", b"sin#", b"sin no", b"sin number", b"social insurance", b"assurance sociale", b"nas:"],
    &[],
);

/// Whether the word `sin` (any case) ends right before `start`, past at most three bytes of
/// space or `:#.-`.
fn label_right_before(b: &[u8], start: usize) -> bool {
    let mut end = start;
    while end > 0 && start - end < 3 && matches!(b[end - 1], b' ' | b':' | b'#' | b'.' | b'-') {
        end -= 1;
    }
    end < start && end >= 3 && b[end - 3..end].eq_ignore_ascii_case(b"sin") && (end == 3 || !b[end - 4].is_ascii_alphanumeric())
}

/// `046 454 286`, `046-454-286` or `046454286` after a context word.
pub(super) fn sin(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<9>(b, start, b" -");
    let shaped = !d.overflow && clean_end(b, d.end) && [groups(&[9]), groups(&[3, 3, 3])].contains(&layout(&d));
    if !shaped || d.len != 9 || all_same(&d.digits) || !luhn(&d.digits) {
        return None;
    }
    (label_right_before(b, start) || CONTEXT.before(b, start)).then(|| hit(PiiKind::CaSin, start, d.end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn kinds(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    #[test]
    fn finds_numbers_after_context_in_each_layout() {
        assert_eq!(kinds("SIN: 046 454 286"), vec![(PiiKind::CaSin, "046 454 286")]);
        assert_eq!(kinds("SIN 046 454 286"), vec![(PiiKind::CaSin, "046 454 286")]);
        assert_eq!(kinds("my social insurance number is 046-454-286."), vec![(PiiKind::CaSin, "046-454-286")]);
        assert_eq!(kinds("Numéro d'assurance sociale : 130692544"), vec![(PiiKind::CaSin, "130692544")]);
        assert_eq!(kinds("SIN# 130 692 544, start date Monday"), vec![(PiiKind::CaSin, "130 692 544")]);
    }

    #[test]
    fn rejects_bad_checks_layouts_and_missing_context() {
        let sin = |text: &str| kinds(text).into_iter().filter(|k| k.0 == PiiKind::CaSin).count();
        assert_eq!(sin("SIN: 046 454 287"), 0, "wrong check digit");
        assert_eq!(sin("SIN: 0464 54 286"), 0, "not its grouping");
        assert_eq!(sin("SIN: 046 454 2861"), 0, "ten digits");
        assert_eq!(sin("SIN: 111 111 111"), 0, "one digit repeated");
        assert_eq!(sin("order 046454286 shipped"), 0, "no context");
        assert_eq!(sin("since 046454286 was filed"), 0, "a word that starts like the label");
        assert_eq!(sin("sin cargo adicional, pedido 046454286"), 0, "Spanish `sin`");
        assert_eq!(sin("basin 046454286"), 0, "`sin` ending a longer word");
        assert_eq!(sin("SIN ... 046454286"), 0, "more than three bytes between");
    }
}
