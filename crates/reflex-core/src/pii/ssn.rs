//! US Social Security numbers: `AAA-GG-SSSS` where the area is not 000, 666 or 900–999, the
//! group not 00 and the serial not 0000. Dotted (`123.45.6789`), space-separated or undelimited
//! nine-digit numbers are only reported next to a context word ("SSN", "social security").
//! Confidence: 0.97 dashed with context, 0.85 dashed without or in another layout with context.

use super::scan::{clean_end, hit, read_digits, Keywords};
use super::{PiiKind, PiiMatch};

const CONTEXT: Keywords = Keywords::new(&[b"ssn", b"social security", b"ss#", b"ss #", b"soc sec", b"ss no", b"taxpayer", b"itin"]);

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<9>(b, start, b"- .");
    if d.overflow || d.len != 9 || !clean_end(b, d.end) {
        return None;
    }
    let shaped = d.groups[..d.ngroups] == [3, 2, 4];
    if !(shaped || d.ngroups == 1) || !rules_ok(&d.digits) {
        return None;
    }
    let context = CONTEXT.before(b, start, 40);
    let confidence = match (d.sep == b'-', context) {
        (true, true) => 0.97,
        (true, false) | (false, true) => 0.85,
        (false, false) => return None,
    };
    Some(hit(PiiKind::Ssn, start, d.end, confidence))
}

fn rules_ok(d: &[u8; 9]) -> bool {
    let area = u32::from(d[0]) * 100 + u32::from(d[1]) * 10 + u32::from(d[2]);
    let group = d[3] * 10 + d[4];
    let serial = d[5..].iter().fold(0u32, |a, &x| a * 10 + u32::from(x));
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn ssns(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::Ssn).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_dashed_numbers() {
        assert_eq!(ssns("my number is 123-45-6789."), vec!["123-45-6789"]);
        assert_eq!(ssns("SSN: 078-05-1120"), vec!["078-05-1120"]);
    }

    #[test]
    fn undelimited_or_spaced_needs_context() {
        assert_eq!(ssns("SSN 123456789"), vec!["123456789"]);
        assert_eq!(ssns("social security number 123 45 6789"), vec!["123 45 6789"]);
        assert!(ssns("ticket 123456789 closed").is_empty());
        assert!(ssns("values 123 45 6789").is_empty());
    }

    #[test]
    fn dotted_numbers_need_context() {
        assert_eq!(ssns("SSN 123.45.6789"), vec!["123.45.6789"]);
        assert_eq!(ssns("Social Security: 078.05.1120."), vec!["078.05.1120"]);
        assert!(ssns("version 123.45.6789").is_empty());
        assert!(ssns("SSN 123.45-6789").is_empty());
        assert!(ssns("SSN 666.45.6789").is_empty());
    }

    /// A number that breaks the SSN rules is not an SSN, and its SSN layout makes it no phone.
    #[test]
    fn invalid_numbers_are_nothing_at_all() {
        for bad in ["000-12-3456", "666-12-3456", "900-12-3456", "987-65-4320", "123-00-4567", "123-45-0000", "987.65.4320"] {
            for text in [format!("SSN {bad}"), format!("my SSN is {bad}, call me"), format!("phone {bad}"), bad.to_string()] {
                assert!(detect(&text).is_empty(), "{text}: {:?}", detect(&text));
            }
        }
    }

    #[test]
    fn rejects_invalid_areas_groups_serials() {
        for bad in ["000-12-3456", "666-12-3456", "900-12-3456", "999-45-6789", "123-00-4567", "123-45-0000"] {
            assert!(ssns(&format!("SSN {bad}")).is_empty(), "{bad}");
        }
    }

    #[test]
    fn rejects_fragments_of_longer_numbers() {
        assert!(ssns("1123-45-6789").is_empty());
        assert!(ssns("123-45-67890").is_empty());
        assert!(ssns("ab-123-45-6789").is_empty());
    }
}
