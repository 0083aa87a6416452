//! E-mail addresses, found from each `@`: a dot-atom local part and a domain of letter-digit-
//! hyphen labels ending in an alphabetic TLD of two letters or more.

use super::scan::hit;
use super::{PiiKind, PiiMatch};

pub(super) fn find(b: &[u8], at: usize, out: &mut Vec<PiiMatch>) {
    // Bytes >= 0x80 belong to internationalised local parts (RFC 6531); the walk only stops on
    // an ASCII byte, so `s` is always a char boundary.
    let local = |c: u8| c.is_ascii_alphanumeric() || c >= 0x80 || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-' | b'\'');
    let mut s = at;
    while s > 0 && local(b[s - 1]) && at - s < 64 {
        s -= 1;
    }
    // Trim leading punctuation (ASCII or not: an em dash, a curly quote) before the address.
    if let Ok(head) = std::str::from_utf8(&b[s..at]) {
        s += head.find(char::is_alphanumeric).unwrap_or(head.len());
    }
    if s == at || b[at - 1] == b'.' || b[s..at].windows(2).any(|w| w == b"..") {
        return;
    }
    let mut e = at + 1;
    let mut label_start = e;
    let mut last_dot = 0;
    while e < b.len() && e - at <= 255 {
        let c = b[e];
        if c.is_ascii_alphanumeric() || (c == b'-' && e > label_start) {
            e += 1;
        } else if c == b'.' && e > label_start && b[e - 1] != b'-' && b.get(e + 1).is_some_and(u8::is_ascii_alphanumeric) {
            last_dot = e;
            e += 1;
            label_start = e;
        } else {
            break;
        }
    }
    if last_dot == 0 || b[e - 1] == b'-' {
        return;
    }
    let tld = &b[last_dot + 1..e];
    if tld.len() < 2 || !tld.iter().all(u8::is_ascii_alphabetic) {
        return;
    }
    out.push(hit(PiiKind::Email, s, e, 0.97));
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn emails(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::Email).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_addresses() {
        assert_eq!(emails("mail ada@example.com."), vec!["ada@example.com"]);
        assert_eq!(emails("<first.last+tag@mail.co.uk>"), vec!["first.last+tag@mail.co.uk"]);
        assert_eq!(emails("a@b.io, c_d@e-f.org"), vec!["a@b.io", "c_d@e-f.org"]);
    }

    #[test]
    fn rejects_non_addresses() {
        for t in ["@handle", "foo@bar", "foo@bar.c", "foo@-bar.com", "foo.@bar.com", "a..b@x.com", "x@1.2.3.4", "me @ home"] {
            assert!(emails(t).is_empty(), "{t}");
        }
    }

    #[test]
    fn byte_offsets_with_non_ascii_around() {
        let text = "Écrivez à josé@example.com — ou à «zoë.müller@exemple.fr»";
        let found = detect(text);
        let spans: Vec<_> = found.iter().map(|m| &text[m.start..m.end]).collect();
        assert_eq!(spans, vec!["josé@example.com", "zoë.müller@exemple.fr"]);
        assert_eq!(found[0].start, "Écrivez à ".len());
    }
}
