//! E-mail addresses, found from each `@`: a dot-atom local part and a domain of letter-digit-
//! hyphen labels ending in an alphabetic TLD of two letters or more.

use super::scan::hit;
use super::{PiiKind, PiiMatch};

pub(super) fn find(b: &[u8], at: usize, out: &mut Vec<PiiMatch>) {
    // Bytes >= 0x80 belong to internationalised local parts (RFC 6531).
    let local = |c: u8| c.is_ascii_alphanumeric() || c >= 0x80 || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-' | b'\'');
    let mut s = at;
    while s > 0 && local(b[s - 1]) && at - s < 64 {
        s -= 1;
    }
    // The 64-byte limit can stop the walk inside a character: the part keeps only the whole
    // characters after it (a match starting mid-character panicked when the text was sliced).
    while s < at && b[s] & 0xC0 == 0x80 {
        s += 1;
    }
    // Trim leading punctuation (ASCII or not: an em dash, a curly quote) before the address;
    // nothing to trim (and no UTF-8 to check) when it starts on an ASCII letter or digit.
    if s < at && !b[s].is_ascii_alphanumeric() {
        if let Ok(head) = std::str::from_utf8(&b[s..at]) {
            s += head.find(char::is_alphanumeric).unwrap_or(head.len());
        }
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
    if url_userinfo(b, at) || remote_login(b, s, e) {
        return;
    }
    out.push(hit(PiiKind::Email, s, e, 0.97));
}

/// `scheme://user:secret@host`: the `@` closes a URL's userinfo (no `/` between it and the
/// `://`), so `secret@host` is a credential and a host, not an address.
fn url_userinfo(b: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(256);
    for k in (from..at).rev() {
        match b[k] {
            b'/' => return k >= 2 && b[k - 1] == b'/' && b[k - 2] == b':',
            c if c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'<' | b'>' | b'(' | b'`') => return false,
            _ => {}
        }
    }
    false
}

/// `user@host` handed to a remote-login command: the scp-style `git@github.com:org/repo`
/// (a `:` glued to the host) or an argument of `ssh`, `scp`, `sftp`, `rsync` or `mosh` at the
/// start of the line. (`git` lines are left alone: `git config user.email ada@…` is an address.)
fn remote_login(b: &[u8], s: usize, e: usize) -> bool {
    if super::scan::at(b, e) == b':' && !super::scan::at(b, e + 1).is_ascii_whitespace() && e + 1 < b.len() {
        return true;
    }
    let from = s.saturating_sub(200);
    let line = memchr::memrchr(b'\n', &b[from..s]).map_or(from, |k| from + k + 1);
    // The line's first word, past a prompt (`$`, `#`, `>`) and `sudo`.
    let mut words = b[line..s].split(|&c| c == b' ' || c == b'\t').filter(|w| !w.is_empty() && !matches!(**w, [b'$' | b'#' | b'>'] | [b's', b'u', b'd', b'o']));
    words.next().is_some_and(|w| matches!(w, b"ssh" | b"scp" | b"sftp" | b"rsync" | b"mosh" | b"ssh-copy-id"))
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
        assert_eq!(emails("mailto:ada@example.com: she replied"), vec!["ada@example.com"]);
        assert_eq!(emails("see https://x.org/u and ada@example.com"), vec!["ada@example.com"]);
        assert_eq!(emails("git config user.email ada@example.com"), vec!["ada@example.com"]);
        assert_eq!(emails("https://x.org/?email=ada@example.com"), vec!["ada@example.com"]);
    }

    #[test]
    fn rejects_non_addresses() {
        for t in [
            "@handle",
            "foo@bar",
            "foo@bar.c",
            "foo@-bar.com",
            "foo.@bar.com",
            "a..b@x.com",
            "x@1.2.3.4",
            "me @ home",
            "https://bob:hunter2@db.example.org/x",
            "git clone git@github.com:acme/repo.git",
            "$ ssh -p 2222 ops@bastion.example.net",
        ] {
            assert!(emails(t).is_empty(), "{t}");
        }
    }

    /// The local part's 64-byte limit falls inside a character: the address starts after it,
    /// on a char boundary (it started mid-character, and slicing the text panicked).
    #[test]
    fn a_local_part_cut_inside_a_character_starts_after_it() {
        let a62 = "a".repeat(62);
        let a63 = "a".repeat(63);
        for (text, want) in [
            (format!("\u{1F600}{a62}@x.io"), format!("{a62}@x.io")),
            (format!("\u{e9}{a63}@x.io"), format!("{a63}@x.io")),
            (format!("\u{20ac}{a62}@x.io"), format!("{a62}@x.io")),
        ] {
            assert_eq!(emails(&text), vec![want.as_str()], "{text}");
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
