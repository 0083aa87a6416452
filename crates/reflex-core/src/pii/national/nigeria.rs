//! Nigeria: the National Identification Number (NIN), eleven digits issued by the NIMC, the last
//! a Verhoeff check digit. A plain run of digits, so reported only after a context word.

use super::{all_same, Context};
use super::india::verhoeff;
use crate::pii::scan::{clean_end, hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const CONTEXT: Context = Context::new(
    &[b"nin ", b"nin:", b"nin no", b"nin number", b"nimc", b"national identification number", b"national identity number", b"national id number"],
    &[],
);

pub(super) fn nin(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<11>(b, start, b"");
    if d.overflow || d.len != 11 || !clean_end(b, d.end) || all_same(&d.digits) || !verhoeff(&d.digits) {
        return None;
    }
    CONTEXT.before(b, start).then(|| hit(PiiKind::NgNin, start, d.end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str) -> Vec<&str> {
        reported_text(text, PiiKind::NgNin)
    }

    #[test]
    fn finds_numbers_after_context() {
        assert_eq!(found("NIN: 21736450989"), vec!["21736450989"]);
        assert_eq!(found("my national identification number is 80543219764."), vec!["80543219764"]);
    }

    #[test]
    fn rejects_bad_checks_and_no_context() {
        assert!(found("NIN: 21736450988").is_empty());
        assert!(found("account 21736450989").is_empty());
        assert!(found("nine 21736450989").is_empty());
        assert!(found("NIN: 2173645098").is_empty());
    }
}
