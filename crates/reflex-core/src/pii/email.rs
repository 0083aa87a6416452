//! E-mail addresses, found from each `@`: a dot-atom local part and a domain of letter-digit-
//! hyphen labels ending in an alphabetic TLD of two letters or more. Internationalised addresses
//! count (RFC 6531): letters of any script in the local part and the labels (`josé@bücher.de`,
//! `用户@例子.中国`), and punycode TLDs (`xn--fiqs8s`).
//!
//! Obfuscated addresses are found from an opening bracket: `ada [at] example [dot] com`,
//! `ada(at)example(dot)com`, `ada {@} example.com`, and in capitals `ada AT example DOT com`.
//! In lower case, ` at ` and ` dot ` are words of prose far more often than parts of an address
//! ("meet at the station", "look at it dot by dot"), so `ada at example dot com` is taken only
//! in full: found from the ` dot ` (the block scan marks `do` word starts), a label and ` at `
//! before it, a local part before that, a common TLD at the end, and neither the local part nor
//! the first label a word that prose puts there ("looked at the dot com bubble"). Confidence
//! 0.97 for an address, 0.9 for a bracketed or capitalised one, 0.8 for a lower-case one.

use super::scan::{at as byte_at, hit};
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
    let Some(e) = domain(b, at + 1, Dots::Plain) else {
        return;
    };
    if url_userinfo(b, at) || remote_login(b, s, e) || (s > 0 && b[s - 1] == b':' && super::password::bare_userinfo(b, s - 1).is_some()) {
        return;
    }
    out.push(hit(PiiKind::Email, s, e, 0.97));
}

/// The length of the letter or digit at `i` (any script), or 0 for anything else.
fn letter_len(b: &[u8], i: usize) -> usize {
    let c = byte_at(b, i);
    if c.is_ascii_alphanumeric() {
        return 1;
    }
    if c < 0xC0 {
        return 0;
    }
    let len = if c >= 0xF0 {
        4
    } else if c >= 0xE0 {
        3
    } else {
        2
    };
    let ch = b.get(i..i + len).and_then(|s| std::str::from_utf8(s).ok()).and_then(|s| s.chars().next());
    if ch.is_some_and(char::is_alphanumeric) {
        len
    } else {
        0
    }
}

/// How the labels of a domain may be joined besides `.`.
#[derive(Clone, Copy, PartialEq)]
enum Dots {
    Plain,
    /// `[dot]`, ` (dot) `, ` DOT `.
    Written,
    /// ` dot `, lower case, one space either side.
    Spoken,
}

/// The end of a domain starting at `start`: labels of letters (any script), digits and inner
/// hyphens, joined by `.` (or by a written-out dot, `dots`), ending in a TLD of two ASCII
/// letters or more, a punycode TLD or a TLD in another script.
fn domain(b: &[u8], start: usize, dots: Dots) -> Option<usize> {
    let mut e = start;
    let mut label_start = e;
    let mut last_label = 0;
    let mut labels = 0;
    while e < b.len() && e - start <= 255 {
        let c = b[e];
        let n = letter_len(b, e);
        if n > 0 || (c == b'-' && e > label_start) {
            e += n.max(1);
            continue;
        }
        if e == label_start || b[e - 1] == b'-' {
            break;
        }
        let next = if c == b'.' && letter_len(b, e + 1) > 0 {
            Some(e + 1)
        } else if dots == Dots::Written {
            written_dot(b, e).filter(|&n| letter_len(b, n) > 0)
        } else if dots == Dots::Spoken && b.get(e..e + 5) == Some(b" dot ") {
            Some(e + 5).filter(|&n| byte_at(b, n).is_ascii_alphanumeric())
        } else {
            None
        };
        let Some(next) = next else {
            break;
        };
        labels += 1;
        last_label = next;
        e = next;
        label_start = e;
    }
    if labels == 0 || e == label_start || b[e - 1] == b'-' {
        return None;
    }
    let tld = &b[last_label..e];
    let ascii = tld.len() >= 2 && tld.iter().all(u8::is_ascii_alphabetic);
    let punycode = tld.len() >= 5 && tld[..4].eq_ignore_ascii_case(b"xn--") && tld[4..].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-');
    let script = tld[0] >= 0x80 && std::str::from_utf8(tld).is_ok_and(|t| t.chars().all(char::is_alphabetic));
    if ascii || punycode || script {
        return Some(e);
    }
    // `ada@example.com联系`: an ASCII TLD run into text of another script ends where the script changes.
    let n = tld.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    (n >= 2 && tld.get(n).is_some_and(|&c| c >= 0x80)).then_some(last_label + n)
}

/// A written-out `[dot]` (or `(dot)`, `{dot}`, `<dot>`, any case), spaces either side, at `i`:
/// the offset after it.
fn written_dot(b: &[u8], i: usize) -> Option<usize> {
    let i = skip_spaces(b, i);
    let end = bracketed(b, i, b"dot").or_else(|| shouted(b, i, b"DOT"))?;
    Some(skip_spaces(b, end))
}

/// `word` in capitals at `i` with a space on either side (`ada AT example DOT com`): its end.
/// Only in capitals: a lower-case " at " in prose is a word far more often than an address.
fn shouted(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    let end = i + word.len();
    (i > 0 && b[i - 1] == b' ' && b.get(i..end) == Some(word) && byte_at(b, end) == b' ').then_some(end)
}

/// `open word close` at `i` with a matching pair of brackets, the word in any case: its end.
fn bracketed(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    let close = match byte_at(b, i) {
        b'[' => b']',
        b'(' => b')',
        b'{' => b'}',
        b'<' => b'>',
        _ => return None,
    };
    let inner = b.get(i + 1..i + 1 + word.len())?;
    (inner.eq_ignore_ascii_case(word) && byte_at(b, i + 1 + word.len()) == close).then_some(i + 2 + word.len())
}

/// Past at most two spaces from `i`.
fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    let from = i;
    while byte_at(b, i) == b' ' && i - from < 2 {
        i += 1;
    }
    i
}

/// An obfuscated address whose `[at]` (or `(at)`, `{@}`, `<at>`…, or a capital ` AT `) opens
/// at `open`.
pub(super) fn obfuscated(b: &[u8], open: usize, out: &mut Vec<PiiMatch>) {
    let Some(after) = bracketed(b, open, b"at").or_else(|| bracketed(b, open, b"@")).or_else(|| shouted(b, open, b"AT")) else {
        return;
    };
    // The local part before it: dot-atoms, joined by `.` or a written-out dot.
    let mut s = open;
    while s > 0 && b[s - 1] == b' ' && open - s < 2 {
        s -= 1;
    }
    let end_local = s;
    loop {
        let atom_end = s;
        while s > 0 && (b[s - 1].is_ascii_alphanumeric() || matches!(b[s - 1], b'_' | b'%' | b'+' | b'-')) && atom_end - s < 64 {
            s -= 1;
        }
        if s == atom_end {
            return;
        }
        if s > 1 && b[s - 1] == b'.' && b[s - 2].is_ascii_alphanumeric() {
            s -= 1;
            continue;
        }
        // `john [dot] smith`: a written-out dot ends just before this atom.
        let mut k = s;
        while k > 0 && b[k - 1] == b' ' && s - k < 2 {
            k -= 1;
        }
        let dot = if k >= 5 && bracketed(b, k - 5, b"dot") == Some(k) {
            Some(k - 5)
        } else if k >= 3 && shouted(b, k - 3, b"DOT") == Some(k) {
            Some(k - 3)
        } else {
            None
        };
        if let Some(dot) = dot {
            s = dot;
            while s > 0 && b[s - 1] == b' ' && dot - s < 2 {
                s -= 1;
            }
            continue;
        }
        break;
    }
    if s == end_local || (s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] >= 0x80)) {
        return;
    }
    let host = skip_spaces(b, after);
    let Some(e) = domain(b, host, Dots::Written) else {
        return;
    };
    if placeholder(&b[s..end_local], &b[host..e]) {
        return;
    }
    out.push(hit(PiiKind::Email, s, e, 0.9));
}

/// Whether the lower-case word at `at` (a word start) is a spoken ` dot `, the one word of a
/// spoken address the block scan marks.
#[inline]
pub(super) fn may_be_spoken_dot(b: &[u8], at: usize) -> bool {
    b.get(at..at + 4) == Some(b"dot ")
}

/// TLDs a spoken address may end in: the common ones that are no English word (`in`, `it`,
/// `me`, `by`, `to`, `us` are left out: "look at it dot by dot").
const SPOKEN_TLDS: &[&[u8]] = &[
    b"com", b"org", b"net", b"edu", b"gov", b"mil", b"int", b"io", b"co", b"uk", b"de", b"fr", b"nl", b"eu", b"ca", b"au", b"nz",
    b"za", b"ie", b"jp", b"cn", b"kr", b"ru", b"br", b"mx", b"es", b"ch", b"se", b"pl", b"dk", b"fi", b"info", b"biz", b"dev",
    b"app", b"ai", b"tv", b"xyz",
];

/// Words that stand before ` at ` in prose (a verb, a pronoun, an adverb), or after it as the
/// first word of a place ("at the", "at this"): never a spoken address's local part or first
/// label.
const SPOKEN_PROSE: &[&[u8]] = &[
    b"a", b"an", b"the", b"this", b"that", b"these", b"those", b"it", b"its", b"his", b"her", b"their", b"our", b"my", b"your",
    b"some", b"any", b"each", b"every", b"one", b"no", b"all", b"least", b"most", b"first", b"last", b"once", b"me", b"us", b"him",
    b"them", b"you", b"we", b"they", b"i", b"he", b"she", b"is", b"are", b"was", b"were", b"be", b"been", b"am", b"look",
    b"looks", b"looked", b"looking", b"meet", b"met", b"meeting", b"arrive", b"arrived", b"stay", b"stayed", b"work", b"works",
    b"worked", b"working", b"live", b"lives", b"lived", b"good", b"bad", b"best", b"better", b"aim", b"aimed", b"laugh", b"laughed",
    b"stare", b"stared", b"point", b"pointed", b"here", b"there", b"born", b"held", b"based", b"hosted", b"found", b"and", b"or",
    b"but", b"not", b"only", b"just", b"even", b"still", b"now", b"home", b"back", b"out", b"up", b"down", b"right", b"left",
];

/// A lower-case spoken address (`ada at example dot com`, `ada.king at mail dot example dot
/// org`), from the ` dot ` whose `d` is at `dot`: it must follow the domain's first label and
/// ` at `, so a later ` dot ` of the same address (or any other) goes no further.
#[inline(never)]
pub(super) fn spoken(b: &[u8], dot: usize, out: &mut Vec<PiiMatch>) {
    let label = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-';
    if dot == 0 || b[dot - 1] != b' ' {
        return;
    }
    let label_end = dot - 1;
    let mut host = label_end;
    while host > 0 && label(b[host - 1]) && label_end - host < 63 {
        host -= 1;
    }
    if host == label_end || host < 5 || &b[host - 4..host] != b" at " {
        return;
    }
    let local_end = host - 4;
    let local = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-');
    let mut s = local_end;
    while s > 0 && local(b[s - 1]) && local_end - s < 64 {
        s -= 1;
    }
    if s == local_end || (s > 0 && (super::scan::is_word(b[s - 1]) || b[s - 1] >= 0x80 || b[s - 1] == b'@')) {
        return;
    }
    let (part, first) = (&b[s..local_end], &b[host..label_end]);
    if !part[0].is_ascii_alphanumeric() || part[part.len() - 1] == b'.' || part.windows(2).any(|w| w == b"..") {
        return;
    }
    let prose = |w: &[u8]| SPOKEN_PROSE.iter().any(|p| w.eq_ignore_ascii_case(p));
    if prose(part) || prose(first) {
        return;
    }
    let Some(e) = domain(b, host, Dots::Spoken) else {
        return;
    };
    let tld = &b[host..e][b[host..e].iter().rposition(|c| !c.is_ascii_alphanumeric()).map_or(0, |k| k + 1)..];
    if !SPOKEN_TLDS.contains(&tld) || placeholder(part, &b[host..e]) {
        return;
    }
    out.push(hit(PiiKind::Email, s, e, 0.8));
}

/// Local parts and first domain labels that describe the format rather than give an address
/// ("name [at] domain [dot] com", "firstname.lastname (at) company (dot) org"), compared with
/// their letters only.
const PLACEHOLDER_LOCALS: &[&[u8]] = &[
    b"name", b"user", b"username", b"yourname", b"firstname", b"lastname", b"firstlast", b"firstnamelastname", b"someone", b"email",
    b"youremail", b"address",
];
const PLACEHOLDER_DOMAINS: &[&[u8]] = &[b"domain", b"yourdomain", b"mydomain", b"company", b"yourcompany", b"host"];

fn placeholder(local: &[u8], domain: &[u8]) -> bool {
    let letters = |part: &[u8], buf: &mut [u8; 32]| -> usize {
        let mut n = 0;
        for &c in part.iter().filter(|c| c.is_ascii_alphanumeric()) {
            if n == buf.len() {
                return 0;
            }
            buf[n] = c.to_ascii_lowercase();
            n += 1;
        }
        n
    };
    // The local part without its written-out dots; the domain's first label.
    let mut buf = [0u8; 32];
    let mut local_letters = [0u8; 32];
    let mut n = 0;
    for word in local.split(|&c| c == b' ' || c == b'.') {
        if matches!(word.first(), Some(b'[' | b'(' | b'{' | b'<')) || word == b"DOT" {
            continue;
        }
        let k = letters(word, &mut buf);
        if n + k > local_letters.len() {
            return false;
        }
        local_letters[n..n + k].copy_from_slice(&buf[..k]);
        n += k;
    }
    let label_end = domain.iter().position(|c| !c.is_ascii_alphanumeric()).unwrap_or(domain.len());
    let k = letters(&domain[..label_end], &mut buf);
    PLACEHOLDER_LOCALS.contains(&&local_letters[..n]) || PLACEHOLDER_DOMAINS.contains(&&buf[..k])
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
/// (a `:` glued to the host, unless the address is a `-u`/`--user` argument whose `:` starts
/// the secret) or an argument of `ssh`, `scp`, `sftp`, `rsync` or `mosh` at the
/// start of the line. (`git` lines are left alone: `git config user.email ada@…` is an address.)
fn remote_login(b: &[u8], s: usize, e: usize) -> bool {
    // `curl -u ops@example.com:token`: the `:` after the address starts a secret.
    if super::scan::at(b, e) == b':' && !super::scan::at(b, e + 1).is_ascii_whitespace() && e + 1 < b.len() {
        return !super::password::after_user_flag(b, s);
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
    fn finds_internationalised_addresses() {
        for a in ["josé@bücher.de", "用户@例子.中国", "пример@пример.рф", "ada@xn--bcher-kva.de", "info@example.xn--fiqs8s", "θέμα@παράδειγμα.ελ"] {
            assert_eq!(emails(&format!("write to {a} today")), vec![a], "{a}");
        }
        assert_eq!(emails("邮箱 ada@example.com联系我"), vec!["ada@example.com"]);
        assert_eq!(emails("mail ada@example.com’s inbox"), vec!["ada@example.com"]);
        assert!(emails("user@例子.中国1").is_empty());
        assert!(emails("a@b.xn--").is_empty());
    }

    #[test]
    fn finds_obfuscated_addresses() {
        for (text, want) in [
            ("mail ada [at] example [dot] com please", "ada [at] example [dot] com"),
            ("ada(at)example(dot)com", "ada(at)example(dot)com"),
            ("contact: john.smith [AT] mail.example.org.", "john.smith [AT] mail.example.org"),
            ("john [dot] smith [at] example [dot] co [dot] uk", "john [dot] smith [at] example [dot] co [dot] uk"),
            ("write to ada {at} example {dot} com", "ada {at} example {dot} com"),
            ("ada [@] example.com", "ada [@] example.com"),
            ("ada <at> example <dot> com", "ada <at> example <dot> com"),
            ("write to ada.king AT example DOT org today", "ada.king AT example DOT org"),
            ("JOHN DOT SMITH AT EXAMPLE DOT COM", "JOHN DOT SMITH AT EXAMPLE DOT COM"),
        ] {
            assert_eq!(emails(text), vec![want], "{text}");
        }
    }

    #[test]
    fn rejects_bracketed_words_that_are_no_address() {
        for t in [
            "meet me (at) noon",
            "look [at] this",
            "arrive [at] 10 [dot] 30",
            "see (at) example",
            "x [at] y [dot] 1",
            "[at] example [dot] com",
            "a[at]b[dot]c",
            "ada [at] example [dot]",
            "ada [at) example [dot] com",
            "Email format: name [at] domain [dot] com",
            "write to firstname [dot] lastname (at) company (dot) org",
            "ada [at] yourdomain [dot] com",
            "MEET AT NOON DOT",
            "we meet AT the station DOT",
            "STAY AT HOME",
            "ada At example Dot com",
            "ada AT example dot com",
            "NAME AT DOMAIN DOT COM",
        ] {
            assert!(emails(t).is_empty(), "{t}: {:?}", emails(t));
        }
    }

    #[test]
    fn finds_spoken_addresses_in_lower_case() {
        for (text, want) in [
            ("mail ada at example dot com please", "ada at example dot com"),
            ("reach me: ada.king at mail dot example dot org.", "ada.king at mail dot example dot org"),
            ("ops-team at acme-corp dot co dot uk", "ops-team at acme-corp dot co dot uk"),
            ("write to j.smith42 at uni-hamburg dot de", "j.smith42 at uni-hamburg dot de"),
        ] {
            assert_eq!(emails(text), vec![want], "{text}");
        }
    }

    #[test]
    fn spoken_at_and_dot_in_prose_are_no_address() {
        for t in [
            "meet at the station",
            "look at it dot by dot",
            "they laughed at the dot com bubble",
            "she worked at google dot com for years",
            "we met at noon dot",
            "ada at example dot",
            "ada at example dot c",
            "ada at example dot by",
            "ada at example dot tomorrow",
            "ada at  example dot com",
            "ada at example  dot com",
            "x@ada at example dot com",
            "name at domain dot com",
            "dot dot dot",
            "at dot com",
        ] {
            assert!(emails(t).is_empty(), "{t}: {:?}", emails(t));
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
