//! United Kingdom: National Insurance numbers and DVLA driving licence numbers. Neither has a
//! public check digit, so both are reported only after a context word; their structure rules
//! (allocated prefixes, an encoded birth date) keep look-alikes out.

use super::{all_same, at, groups, layout, valid_date, word_end, Context};
use crate::pii::scan::{hit, read_digits};
use crate::pii::{PiiKind, PiiMatch};

const NINO_CONTEXT: Context = Context::new(
    &[b"national insurance", b"insurance number", b"insurance no", b"nino", b"nin ", b"nin:", b"ni number", b"ni no", b"ni:", b"ni "],
    &[],
);

const LICENCE_CONTEXT: Context = Context::new(
    &[
        b"driving licence",
        b"driving license",
        b"driver's licence",
        b"driver's license",
        b"drivers licence",
        b"drivers license",
        b"driver licence",
        b"driver license",
        b"licence number",
        b"license number",
        b"licence no",
        b"license no",
        b"dvla",
        b"dl no",
        b"dl number",
        b"dl#",
    ],
    &[],
);

/// `AB123456C`, `AB 12 34 56 C`, `AB 123456 C`: two prefix letters, six digits, a suffix A–D.
pub(super) fn nino(b: &[u8], start: usize) -> Option<PiiMatch> {
    if !prefix_ok(b[start], at(b, start + 1)) {
        return None;
    }
    let mut j = start + 2;
    let spaced = at(b, j) == b' ';
    if spaced {
        j += 1;
    }
    let d = read_digits::<6>(b, j, b" ");
    if d.overflow || d.len != 6 || !(d.ngroups == 1 || (spaced && layout(&d) == groups(&[2, 2, 2]))) || all_same(&d.digits) {
        return None;
    }
    let mut s = d.end;
    if at(b, s) == b' ' {
        s += 1;
    }
    if !matches!(at(b, s), b'A'..=b'D') || !word_end(b, s + 1) {
        return None;
    }
    NINO_CONTEXT.before(b, start).then(|| hit(PiiKind::UkNino, start, s + 1, 0.9))
}

/// HMRC never allocates D, F, I, Q, U or V first, D, F, I, O, Q, U or V second, nor the pairs
/// BG, GB, KN, NK, NT, TN and ZZ (QQ is the published example prefix).
fn prefix_ok(a: u8, c: u8) -> bool {
    a.is_ascii_uppercase()
        && c.is_ascii_uppercase()
        && !b"DFIQUV".contains(&a)
        && !b"DFIOQUV".contains(&c)
        && ![b"BG", b"GB", b"KN", b"NK", b"NT", b"TN", b"ZZ"].contains(&&[a, c])
}

/// `MORGA753116SM9IJ` or `MORGA 753116 SM9IJ`: five letters of the surname padded with 9,
/// the decade of birth, the month (plus 50 for women), the day, the year's last digit, two
/// initials padded with 9, a digit and two computer check characters.
pub(super) fn driving_licence(b: &[u8], start: usize) -> Option<PiiMatch> {
    let mut c = [0u8; 16];
    let mut j = start;
    for (n, slot) in c.iter_mut().enumerate() {
        if (n == 5 || n == 11) && at(b, j) == b' ' && at(b, start + 5) == b' ' {
            j += 1;
        }
        *slot = at(b, j);
        j += 1;
    }
    if at(b, start + 5) == b' ' && at(b, start + 12) != b' ' {
        return None;
    }
    let digit = |k: usize| c[k].is_ascii_digit();
    // Surname: letters, then only 9s.
    let letters = c[..5].iter().take_while(|x| x.is_ascii_uppercase()).count();
    if letters == 0 || c[letters..5].iter().any(|&x| x != b'9') {
        return None;
    }
    if !(5..=10).all(digit) || !digit(13) {
        return None;
    }
    let month = u32::from(c[6] - b'0') * 10 + u32::from(c[7] - b'0');
    let month = if month > 50 { month - 50 } else { month };
    let day = u32::from(c[8] - b'0') * 10 + u32::from(c[9] - b'0');
    if !valid_date(2000, month, day) {
        return None;
    }
    let initials = c[11].is_ascii_uppercase() && (c[12].is_ascii_uppercase() || c[12] == b'9');
    if !initials || !c[14..].iter().all(u8::is_ascii_alphanumeric) || !word_end(b, j) {
        return None;
    }
    LICENCE_CONTEXT.before(b, start).then(|| hit(PiiKind::DriverLicense, start, j, 0.85))
}

#[cfg(test)]
mod tests {
    use crate::pii::national::reported_text;
    use crate::pii::PiiKind;

    fn found(text: &str, kind: PiiKind) -> Vec<&str> {
        reported_text(text, kind)
    }

    #[test]
    fn nino_layouts_after_context() {
        assert_eq!(found("National Insurance number: AB123456C", PiiKind::UkNino), vec!["AB123456C"]);
        assert_eq!(found("my NI number is JG 10 33 59 A.", PiiKind::UkNino), vec!["JG 10 33 59 A"]);
        assert_eq!(found("NINO PW 731942 D on file", PiiKind::UkNino), vec!["PW 731942 D"]);
        assert_eq!(found("NI no. SK284519B", PiiKind::UkNino), vec!["SK284519B"]);
    }

    #[test]
    fn nino_rejects_bad_prefixes_suffixes_and_missing_context() {
        for bad in ["QQ123456C", "DA123456A", "AO123456A", "GB123456A", "NK123456B", "ZZ123456D", "AB123456E", "AB000000A"] {
            assert!(found(&format!("national insurance {bad}"), PiiKind::UkNino).is_empty(), "{bad}");
        }
        assert!(found("part AB123456C shipped", PiiKind::UkNino).is_empty());
        assert!(found("national insurance AB1234567C", PiiKind::UkNino).is_empty());
        assert!(found("national insurance AB 12 3456 C", PiiKind::UkNino).is_empty());
    }

    #[test]
    fn dvla_licence_numbers() {
        assert_eq!(found("Driving licence: MORGA753116SM9IJ", PiiKind::DriverLicense), vec!["MORGA753116SM9IJ"]);
        assert_eq!(found("DVLA licence no MORGA 753116 SM9IJ", PiiKind::DriverLicense), vec!["MORGA 753116 SM9IJ"]);
        assert_eq!(found("driving licence number COX99 862300 J99AB", PiiKind::DriverLicense), vec!["COX99 862300 J99AB"]);
        assert_eq!(found("driver's license WOODS705254JA9HX", PiiKind::DriverLicense), vec!["WOODS705254JA9HX"]);
    }

    #[test]
    fn dvla_rejects_bad_dates_padding_and_missing_context() {
        for bad in ["MORGA713116SM9IJ", "MORGA753326SM9IJ", "MO9GA753116SM9IJ", "MORGA753116S9MIJ", "MORGA7531169M9IJ"] {
            assert!(found(&format!("driving licence {bad}"), PiiKind::DriverLicense).is_empty(), "{bad}");
        }
        assert!(found("serial MORGA753116SM9IJ", PiiKind::DriverLicense).is_empty());
    }
}
