//! Credential assignments: `password=…`, `pwd: …`, `"passwd": "…"`, `DB_PASSWORD := '…'`,
//! `client_secret=…`. Found from each `=` or `:`; the key before it must name a credential and
//! the match covers the VALUE only (quotes excluded). An AWS secret access key assigned to an
//! `aws…secret…` key is reported as `API_KEY`.

use super::scan::{at, hit, keyword_before};
use super::{PiiKind, PiiMatch};

/// Key words that make any key a credential wherever they appear (`dbpassword`, `userPasswd`).
const STRONG: &[&[u8]] = &[
    b"password", b"passwd", b"passphrase", b"passcode", b"apikey", b"api_key", b"api-key", b"access_token", b"auth_token",
];
/// Key words that must stand as their own part of the key (`pwd`, `db_pass`, not `bypass`).
const PARTS: &[&[u8]] = &[b"pwd", b"pass", b"secret", b"pw"];

/// Unquoted values that are prose or placeholders, not secrets.
const NOT_VALUES: &[&[u8]] = &[
    b"must", b"should", b"will", b"the", b"and", b"not", b"required", b"optional", b"none", b"null", b"nil", b"empty",
    b"your", b"you", b"this", b"that", b"was", b"has", b"have", b"incorrect", b"invalid", b"reset", b"changed",
    b"expired", b"field", b"string", b"true", b"false", b"undefined", b"hidden", b"redacted", b"masked", b"see",
    b"enter", b"type", b"use", b"please",
];

pub(super) fn find(b: &[u8], sep: usize, out: &mut Vec<PiiMatch>) {
    let prev = if sep > 0 { b[sep - 1] } else { 0 };
    // `==`, `!=`, `<=`, `>=` are comparisons; the `=` of `:=` was handled at the `:`.
    if b[sep] == b'=' && (matches!(prev, b'=' | b'!' | b'<' | b'>' | b':') || at(b, sep + 1) == b'=') {
        return;
    }
    let Some(kind) = key_before(b, sep) else { return };
    let mut i = sep + 1;
    if matches!((b[sep], at(b, i)), (b':', b'=') | (b'=', b'>')) {
        i += 1;
    }
    while matches!(at(b, i), b' ' | b'\t') {
        i += 1;
    }
    let Some((start, end, quoted)) = value(b, i) else { return };
    let v = &b[start..end];
    if kind == Key::Aws && v.len() == 40 && v.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'/' || c == b'+') {
        out.push(hit(PiiKind::ApiKey, start, end, 0.95));
        return;
    }
    if !plausible(v, quoted) {
        return;
    }
    out.push(hit(PiiKind::Password, start, end, if quoted { 0.9 } else { 0.85 }));
}

#[derive(PartialEq)]
enum Key {
    Credential,
    Aws,
}

/// The key just before `sep` (skipping spaces and one closing quote), if it names a credential.
fn key_before(b: &[u8], sep: usize) -> Option<Key> {
    let mut from = sep;
    while from > 0 && matches!(b[from - 1], b' ' | b'\t') {
        from -= 1;
    }
    if from > 0 && matches!(b[from - 1], b'"' | b'\'') {
        from -= 1;
    }
    let end = from;
    while from > 0 && end - from < 48 && (b[from - 1].is_ascii_alphanumeric() || matches!(b[from - 1], b'_' | b'-' | b'.')) {
        from -= 1;
    }
    if from == end || (from > 0 && b[from - 1].is_ascii_alphanumeric()) {
        return None;
    }
    let key = &b[from..end];
    if !names_credential(key) {
        return None;
    }
    let has = |w: &[u8]| key.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    // `aws_secret_access_key = …`, or `AWS secret: …` where "aws" is a word before the key.
    let aws = has(b"aws") || keyword_before(b, from, 16, &[b"aws"]);
    Some(if aws && has(b"secret") { Key::Aws } else { Key::Credential })
}

/// One pass over the key (any case), comparing only where a keyword's first letter (`p`, `s`,
/// `a`) appears: this runs on every `=` and `:` of the text (`10:30`, `id=4`), so it must be cheap.
fn names_credential(key: &[u8]) -> bool {
    let part_sep = |c: u8| matches!(c, b'_' | b'-' | b'.');
    let starts = |rest: &[u8], w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
    (0..key.len()).any(|k| {
        if !matches!(key[k] | 0x20, b'p' | b's' | b'a') {
            return false;
        }
        let rest = &key[k..];
        if STRONG.iter().any(|w| starts(rest, w)) {
            return true;
        }
        let starts_part = k == 0 || part_sep(key[k - 1]);
        starts_part && PARTS.iter().any(|w| starts(rest, w) && rest.get(w.len()).is_none_or(|&c| part_sep(c)))
    })
}

/// The value starting at `i`: quoted (to the closing quote on the same line) or bare (to
/// whitespace or a delimiter, less a sentence's trailing `.`/`,`). Returns (start, end, quoted).
fn value(b: &[u8], i: usize) -> Option<(usize, usize, bool)> {
    let quote = at(b, i);
    if matches!(quote, b'"' | b'\'' | b'`') {
        let open = i + 1;
        let mut e = open;
        while e < b.len() && b[e] != quote && b[e] != b'\n' {
            e += if b[e] == b'\\' && e + 1 < b.len() && b[e + 1] != b'\n' { 2 } else { 1 };
        }
        return (e < b.len() && b[e] == quote && e > open).then_some((open, e, true));
    }
    let mut e = i;
    while e < b.len() && !b[e].is_ascii_whitespace() && !matches!(b[e], b',' | b';' | b'&' | b'"' | b'\'' | b'<' | b'>' | b')' | b'}' | b']') {
        e += 1;
    }
    while e > i && matches!(b[e - 1], b'.' | b':') {
        e -= 1;
    }
    (e > i).then_some((i, e, false))
}

fn plausible(v: &[u8], quoted: bool) -> bool {
    if v.len() < 3 || v.len() > 256 {
        return false;
    }
    // Placeholders: `${DB_PASS}`, `{{ secret }}`, `<password>`, `%(pw)s`, `****`, `xxxx`.
    if v.starts_with(b"${") || v.starts_with(b"{{") || v.starts_with(b"<") || v.starts_with(b"%(") {
        return false;
    }
    if v.iter().all(|&c| c == b'*' || c == b'x' || c == b'X' || c == b'.') {
        return false;
    }
    if quoted {
        return true;
    }
    let mut lower = [0u8; 16];
    if v.len() <= lower.len() {
        let l = &mut lower[..v.len()];
        l.copy_from_slice(v);
        l.make_ascii_lowercase();
        if NOT_VALUES.contains(&&*l) {
            return false;
        }
    }
    // A bare value opening with `[` or `{` is structure (JSON, YAML), not a secret.
    !matches!(v[0], b'[' | b'{' | b'(')
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn creds(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    #[test]
    fn value_only_in_each_syntax() {
        for (text, value) in [
            ("password=hunter2", "hunter2"),
            ("login with pwd: s3cr3t!", "s3cr3t!"),
            (r#"{"passwd": "correct horse battery"}"#, "correct horse battery"),
            ("DB_PASSWORD := 'Tr0ub4dor&3'", "Tr0ub4dor&3"),
            ("client_secret=abc123XYZ&grant=1", "abc123XYZ"),
            ("userPassword: letmein.", "letmein"),
            ("db_pass = p@ss w0rd", "p@ss"),
            ("url?user=ann&password=Zx9%21q&x=1", "Zx9%21q"),
            ("API_KEY=0a1b2c3d4e5f", "0a1b2c3d4e5f"),
        ] {
            assert_eq!(creds(text), vec![(PiiKind::Password, value)], "{text}");
        }
    }

    #[test]
    fn ignores_prose_placeholders_and_comparisons() {
        for t in [
            "Password: must be 8 characters",
            "password = ${DB_PASSWORD}",
            "password: ****",
            "if password == other",
            "bypass=true",
            "compass: north",
            "passport: none",
            "the password is hunter2",
            "password=\"\"",
        ] {
            assert!(creds(t).is_empty(), "{t}: {:?}", creds(t));
        }
    }

    #[test]
    fn aws_secret_is_an_api_key() {
        let t = "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        assert_eq!(creds(t), vec![(PiiKind::ApiKey, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")]);
        let t = "our AWS secret: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        assert_eq!(creds(t), vec![(PiiKind::ApiKey, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")]);
        // The same value under a non-AWS secret key is a plain credential.
        let t = "secret: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        assert_eq!(creds(t), vec![(PiiKind::Password, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")]);
    }

    #[test]
    fn provider_key_value_wins_over_password() {
        let t = "secret=sk_live_4eC39HqLyjWDarjtT1zdp7dc";
        assert_eq!(creds(t), vec![(PiiKind::ApiKey, "sk_live_4eC39HqLyjWDarjtT1zdp7dc")]);
    }
}
