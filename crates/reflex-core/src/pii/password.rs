//! Credentials. Assignments: `password=…`, `pwd: …`, `"passwd": "…"`, `DB_PASSWORD := '…'`,
//! `client_secret=…`, `Passwort: …`, found from each `=` or `:`, where the key before must name a
//! credential; the userinfo of a URL (`postgres://user:secret@host`, and without the scheme,
//! `deploy:s3cr3t@db.internal:5432`), `curl -u user:secret` and
//! `Authorization: Basic <base64>`, also found from the `:`. Command lines: `mysql -psecret`
//! (from the `-`) and `--password secret`. Prose: "my password is …", "Das Passwort lautet: …",
//! "la contraseña es …", "mot de passe : …", `<password>…</password>` (from the word). The match
//! covers the VALUE only (quotes excluded). An AWS secret access key assigned to an
//! `aws…secret…` key is reported as `API_KEY`.

use super::scan::{at, hit, is_word, Keywords};
use super::{PiiKind, PiiMatch};

/// Key words that make any key a credential wherever they appear (`dbpassword`, `userPasswd`).
const STRONG: &[&[u8]] = &[
    b"password", b"passwd", b"passphrase", b"passcode", b"apikey", b"api_key", b"api-key", b"access_token", b"auth_token",
    b"passwort", b"kennwort", b"wachtwoord", b"contrasena", "contraseña".as_bytes(), b"senha",
];
/// Key words that must stand as their own part of the key (`pwd`, `db_pass`, not `bypass`).
const PARTS: &[&[u8]] = &[b"pwd", b"pass", b"secret", b"pw"];

/// Unquoted values that are prose or placeholders, not secrets.
const NOT_VALUES: &[&[u8]] = &[
    b"must", b"should", b"will", b"the", b"and", b"not", b"required", b"optional", b"none", b"null", b"nil", b"empty",
    b"your", b"you", b"this", b"that", b"was", b"has", b"have", b"incorrect", b"invalid", b"reset", b"changed",
    b"expired", b"field", b"string", b"true", b"false", b"undefined", b"hidden", b"redacted", b"masked", b"see",
    b"enter", b"type", b"use", b"please", b"password", b"passwd", b"pass", b"pwd", b"secret", b"changeme", b"then",
    b"here", b"below", b"above", b"again", b"when", b"for", b"from", b"with",
];

/// Nouns that introduce a credential in a sentence ("the password for the VPN is …").
const NOUNS: &[&[u8]] = &[
    b"password", b"passwort", b"passwd", b"passphrase", b"passcode", b"pwd", b"pw", b"kennwort", b"senha", b"wachtwoord",
    b"contrasena",
];
/// Whether a lower-case word starting with `first`, `second` can be a credential noun that
/// [`prose`] looks for (`NOUNS`, `passe` of "mot de passe", `contrase` of "contraseña"): the
/// block scan (`stops`) marks these pairs in vector registers; this is the reference its tests
/// compare with. Kept beside `NOUNS`; a test checks the two agree.
#[cfg(test)]
pub(super) fn noun_start(first: u8, second: u8) -> bool {
    matches!([first, second], [b'p', b'a' | b'w'] | [b'k' | b's', b'e'] | [b'w', b'a'] | [b'c', b'o'])
}

/// Whether the word starting at `b[at]` (a letter, either case) may be a credential noun that
/// [`prose`] looks for, by its first four letters (`pass`, `kenn`, `senh`, `wach`, `cont`) or
/// its first two (`pw`); the rest in lower case, as a plain word has them. The main scan asks
/// this of the words the block marks as `noun_start`: "service", "path", "cover" go no further.
pub(super) fn may_be_noun(b: &[u8], at: usize) -> bool {
    // The four bytes as one number, the first lower-cased: five compares, no byte loop.
    const STARTS: [u32; 5] = [word(*b"pass"), word(*b"kenn"), word(*b"senh"), word(*b"wach"), word(*b"cont")];
    const PW: u32 = word(*b"pw\0\0");
    let Some(&start) = b.get(at..at + 4).and_then(|s| <&[u8; 4]>::try_from(s).ok()) else {
        return (b[at] | 0x20) == b'p' && super::scan::at(b, at + 1) == b'w';
    };
    let start = word(start) | 0x20;
    STARTS.contains(&start) || start & 0xffff == PW
}

/// Four bytes as one little-endian number.
const fn word(start: [u8; 4]) -> u32 {
    u32::from_le_bytes(start)
}

/// Words that make the noun a modifier ("password policy is …", "the password hint is …"): the
/// sentence is then about something else.
const COMPOUNDS: &[&[u8]] = &[
    b"policy", b"policies", b"manager", b"field", b"hash", b"hashes", b"length", b"strength", b"requirement",
    b"requirements", b"reset", b"rule", b"rules", b"prompt", b"box", b"input", b"format", b"complexity", b"expiry",
    b"expiration", b"history", b"change", b"recovery", b"hint", b"protection", b"generator", b"vault", b"store",
];
/// Verbs that link such a noun to its value, in the languages of `NOUNS`.
const LINKS: &[&[u8]] = &[b"is", b"was", b"ist", b"lautet", b"war", b"es", b"est", b"era", "é".as_bytes(), b"blijft", b"wordt"];

pub(super) fn find(b: &[u8], sep: usize, out: &mut Vec<PiiMatch>) {
    let prev = if sep > 0 { b[sep - 1] } else { 0 };
    // `==`, `!=`, `<=`, `>=` are comparisons; the `=` of `:=` was handled at the `:`.
    if b[sep] == b'=' && (matches!(prev, b'=' | b'!' | b'<' | b'>' | b':') || at(b, sep + 1) == b'=') {
        return;
    }
    if b[sep] == b':' && at(b, sep + 1) != b'/' {
        if let Some(m) = userinfo(b, sep).or_else(|| bare_userinfo(b, sep).map(|(start, end)| hit(PiiKind::Password, start, end, 0.8))) {
            out.push(m);
            return;
        }
    }
    let Some((from, end)) = key_span(b, sep) else { return };
    // `${DB_PASS:-default}`, `$PASSWORD:`: a variable reference, not an assignment.
    if from > 0 && (b[from - 1] == b'$' || (b[from - 1] == b'{' && from > 1 && b[from - 2] == b'$')) {
        return;
    }
    let key = &b[from..end];
    let mut i = sep + 1;
    if matches!((b[sep], at(b, i)), (b':', b'=') | (b'=', b'>')) {
        i += 1;
    }
    while matches!(at(b, i), b' ' | b'\t') {
        i += 1;
    }
    let mot_de_passe = key.eq_ignore_ascii_case(b"passe") && from >= 7 && b[from - 7..from].eq_ignore_ascii_case(b"mot de ");
    if !names_credential(key) && !mot_de_passe {
        if b[sep] == b':' {
            out.extend(basic_auth(b, key, i).or_else(|| curl_user(b, from, sep)));
        }
        return;
    }
    let Some((start, end, quoted)) = value(b, i) else { return };
    let v = &b[start..end];
    let has = |w: &[u8]| key.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    // `aws_secret_access_key = …`, or `AWS secret: …` where "aws" is a word before the key.
    let aws = has(b"secret") && (has(b"aws") || const { Keywords::new(&[b"aws"]) }.before(b, from, 16));
    if aws && v.len() == 40 && v.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'/' || c == b'+') {
        out.push(hit(PiiKind::ApiKey, start, end, 0.95));
        return;
    }
    if !plausible(v, quoted) {
        return;
    }
    out.push(hit(PiiKind::Password, start, end, if quoted { 0.9 } else { 0.85 }));
}

/// The key just before `sep` (skipping spaces and one closing quote): its byte range.
fn key_span(b: &[u8], sep: usize) -> Option<(usize, usize)> {
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
    // A key may end in a non-ASCII letter (`contraseña`): take the rest of that word.
    while from > 0 && end - from < 48 && b[from - 1] >= 0x80 {
        from -= 1;
        while from > 0 && end - from < 48 && (b[from - 1].is_ascii_alphanumeric() || b[from - 1] >= 0x80) {
            from -= 1;
        }
    }
    if from == end || (from > 0 && b[from - 1].is_ascii_alphanumeric()) {
        return None;
    }
    Some((from, end))
}

/// One pass over the key (any case), comparing only where a keyword's first two letters appear
/// (`keyword_start`): this runs on every `=` and `:` of the text (`10:30`, `id=4`), so it must
/// be cheap. (By first letter alone, "assistant" or "command" compared ~15 keywords at each of
/// its `a`, `s` and `c`: ~560 instructions a key, 2.9k of the attack bench text's check.)
fn names_credential(key: &[u8]) -> bool {
    let part_sep = |c: u8| matches!(c, b'_' | b'-' | b'.');
    let starts = |rest: &[u8], w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
    (0..key.len().saturating_sub(1)).any(|k| {
        if !keyword_start(key[k], key[k + 1]) {
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

/// Whether two bytes (either case) begin a word of `STRONG` or `PARTS`, each two bytes long at
/// least (checked by a test).
fn keyword_start(first: u8, second: u8) -> bool {
    matches!([first | 0x20, second | 0x20], [b'p', b'a' | b'w'] | [b'a', b'p' | b'c' | b'u'] | [b'k' | b's', b'e'] | [b'w', b'a'] | [b'c', b'o'])
}

/// `scheme://user:secret@host` (the user may be empty, or an e-mail address written as is): the
/// secret, from the `:` after the user. A secret may hold an unencoded `@` or `#`
/// (`postgres://app:p@ss#1@db/x`): it ends at the last `@` before the host.
fn userinfo(b: &[u8], sep: usize) -> Option<PiiMatch> {
    let user = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-' | b'%' | b'+' | b'~' | b'@');
    let mut k = sep;
    while k > 0 && sep - k < 64 && user(b[k - 1]) {
        k -= 1;
    }
    if !(k >= 3 && &b[k - 3..k] == b"://") {
        return None;
    }
    let start = sep + 1;
    let mut e = start;
    let mut last_at = None;
    while e < b.len() && e - start < 256 && !b[e].is_ascii_whitespace() && !matches!(b[e], b'/' | b'"' | b'\'' | b'<' | b'>') {
        if b[e] == b'@' && (at(b, e + 1).is_ascii_alphanumeric() || at(b, e + 1) == b'[') {
            last_at = Some(e);
        }
        e += 1;
    }
    let e = last_at?;
    let v = &b[start..e];
    // Past a `?` the `@` belongs to a query (`https://h:8080?to=a@b`), not to the userinfo.
    if memchr::memchr(b'?', v).is_some() {
        return None;
    }
    plausible(v, false).then(|| hit(PiiKind::Password, start, e, 0.9))
}

/// `curl -u user:secret`, `--user user:secret`: the secret after the user's `:`. The user may
/// be an e-mail address (`-u ops@example.com:token`).
fn curl_user(b: &[u8], from: usize, sep: usize) -> Option<PiiMatch> {
    // `from` starts the key before the `:`; past an `@` the user is an address.
    let from = if from > 0 && b[from - 1] == b'@' { user_start(b, sep) } else { from };
    if !after_user_flag(b, from) || b[sep - 1] == b' ' {
        return None;
    }
    let (start, end, quoted) = value(b, sep + 1)?;
    plausible(&b[start..end], quoted).then(|| hit(PiiKind::Password, start, end, 0.85))
}

/// Where the `user` (or `user@domain`) ending at `end` starts: up to 64 bytes back.
fn user_start(b: &[u8], end: usize) -> usize {
    let user = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-' | b'%' | b'+' | b'~' | b'@');
    let mut k = end;
    while k > 0 && end - k < 64 && user(b[k - 1]) {
        k -= 1;
    }
    k
}

/// Whether `b[from..]` is the argument of a `-u`, `--user` or `--user=` flag (curl, wget).
pub(super) fn after_user_flag(b: &[u8], from: usize) -> bool {
    let flag = |f: &[u8]| from > f.len() && &b[from - f.len()..from] == f && matches!(b[from - f.len() - 1], b' ' | b'\t');
    flag(b"-u ") || flag(b"--user ") || flag(b"--user=")
}

/// Words before a `:` that label the address after them rather than name a user
/// (`mailto:ada@example.com`, `email:ada@example.com`).
const ADDRESS_LABELS: &[&[u8]] = &[
    b"mailto", b"email", b"e-mail", b"mail", b"contact", b"from", b"to", b"cc", b"bcc", b"reply-to", b"sender", b"recipient",
    b"author", b"owner", b"address", b"addr", b"by", b"user", b"username", b"login", b"account", b"id",
];

/// `user:secret@host` without a scheme (`deploy:s3cr3t@db.internal:5432`, a DSN fragment, a
/// `.pgpass`-like line): the secret's span, from the `:` at `sep`. Strict, since a `:` and an
/// `@` meet in other text: the user is a word starting with a letter at the start of a token
/// (so not the host of `git@github.com:org/repo`, nor the `10` of `10:30@home`) and no address
/// label (`mailto:`); the secret reads as one (a letter and a digit or symbol, six bytes or
/// more); the host is a name with a dot, or `localhost`, or a name and a port, with nothing glued
/// after it. The e-mail detector asks this too, so `s3cr3t@db.example.com` is not an address.
#[inline(never)]
pub(super) fn bare_userinfo(b: &[u8], sep: usize) -> Option<(usize, usize)> {
    // Most `:` are followed by a space, a digit (`10:30`) or a quote: one look rules them out.
    if sep == 0 || (!at(b, sep + 1).is_ascii_alphanumeric() && !at(b, sep + 1).is_ascii_punctuation()) || !b[sep - 1].is_ascii_alphanumeric() {
        return None;
    }
    let name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-');
    let mut k = sep;
    while k > 0 && sep - k < 32 && name(b[k - 1]) {
        k -= 1;
    }
    if k == sep || !b[k].is_ascii_alphabetic() || (k > 0 && !matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'"' | b'\'' | b'=' | b'(' | b'[' | b'`')) {
        return None;
    }
    let user = &b[k..sep];
    if ADDRESS_LABELS.iter().any(|w| user.eq_ignore_ascii_case(w)) {
        return None;
    }
    // The secret: to the `@` before the host, on one token.
    let start = sep + 1;
    let len = b[start..].iter().take(129).take_while(|&&c| !c.is_ascii_whitespace() && !matches!(c, b'@' | b'/' | b'"' | b'\'' | b'`' | b'<' | b'>')).count();
    let end = start + len;
    if len == 0 || at(b, end) != b'@' {
        return None;
    }
    let v = &b[start..end];
    if !plausible(v, false) || !secret_shape(v) {
        return None;
    }
    // The host: labels of letters, digits and hyphens; a dot, `localhost` or a port.
    let h0 = end + 1;
    let hlen = b[h0..].iter().take(254).take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-')).count();
    let mut h = &b[h0..h0 + hlen];
    while let [rest @ .., b'.'] = h {
        h = rest;
    }
    let after = h0 + h.len();
    let port = at(b, after) == b':' && at(b, after + 1).is_ascii_digit();
    let mut tail = after;
    if port {
        tail += 1 + run_digits(b, after + 1);
    }
    let named = h.first().is_some_and(u8::is_ascii_alphanumeric) && (h.contains(&b'.') || h.eq_ignore_ascii_case(b"localhost") || port);
    let clean = !is_word(at(b, tail)) && !matches!(at(b, tail), b'@' | b':');
    (named && clean).then_some((start, end))
}

fn run_digits(b: &[u8], i: usize) -> usize {
    b[i.min(b.len())..].iter().take(6).take_while(|c| c.is_ascii_digit()).count()
}

/// `Authorization: Basic <base64 of user:secret>`: the whole token is the credential.
fn basic_auth(b: &[u8], key: &[u8], i: usize) -> Option<PiiMatch> {
    if !(key.eq_ignore_ascii_case(b"authorization") || key.eq_ignore_ascii_case(b"proxy-authorization")) {
        return None;
    }
    if !b.get(i..i + 6).is_some_and(|w| w.eq_ignore_ascii_case(b"basic ")) {
        return None;
    }
    let start = i + 6;
    let len = b[start..].iter().take(1024).take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')).count();
    let end = start + len;
    (len >= 8 && decodes_to_user_secret(&b[start..end])).then(|| hit(PiiKind::Password, start, end, 0.9))
}

/// Standard base64 whose decoding is printable ASCII with a `:` before a non-empty secret.
fn decodes_to_user_secret(token: &[u8]) -> bool {
    let body = token.split(|&c| c == b'=').next().unwrap_or_default();
    let (mut colon, mut after) = (false, 0usize);
    let printable = crate::base64::decode_each(body, |byte| {
        if colon {
            after += 1;
        }
        colon |= byte == b':';
        (0x20..0x7f).contains(&byte)
    });
    printable && colon && after > 0
}

/// `mysql -u root -psecret`, `-p'secret'`: a password glued to a `-p` flag. Bare values must look
/// like secrets, so `-pthread`, `-pedantic`, `-pv` and `-p8080:80` are left alone.
pub(super) fn cli_short(b: &[u8], dash: usize) -> Option<PiiMatch> {
    if !(dash == 0 || matches!(b[dash - 1], b' ' | b'\t')) || at(b, dash + 1) != b'p' {
        return None;
    }
    let (start, end, quoted) = value(b, dash + 2)?;
    let v = &b[start..end];
    (plausible(v, quoted) && (quoted || secret_shape(v))).then(|| hit(PiiKind::Password, start, end, 0.8))
}

/// Credentials in prose, from a credential noun found by the word scan (`start..end` is the
/// word): "the wifi password for guests is Mango-Tree-42", "Das Passwort lautet: …", "la
/// contraseña es …", "mot de passe : …", `--password secret`, `<password>secret</password>`.
pub(super) fn prose(b: &[u8], start: usize, end: usize, out: &mut Vec<PiiMatch>) {
    let word = &b[start..end];
    let mut after = end;
    let noun = if word.eq_ignore_ascii_case(b"passe") {
        start >= 7 && b[start - 7..start].eq_ignore_ascii_case(b"mot de ")
    } else if word.eq_ignore_ascii_case(b"contrase") {
        let ok = b.get(after..after + 3).is_some_and(|w| w == "ña".as_bytes() || w == "ÑA".as_bytes());
        after += 3;
        ok
    } else {
        NOUNS.iter().any(|n| word.eq_ignore_ascii_case(n))
    };
    if !noun {
        return;
    }
    if start > 0 && b[start - 1] == b'<' && at(b, after) == b'>' {
        let v0 = after + 1;
        let len = b[v0..].iter().take(257).take_while(|&&c| c != b'<' && c != b'\n').count();
        if at(b, v0 + len) == b'<' && at(b, v0 + len + 1) == b'/' && plausible(&b[v0..v0 + len], true) {
            out.push(hit(PiiKind::Password, v0, v0 + len, 0.85));
        }
        return;
    }
    if !matches!(at(b, after), b' ' | b'\t') {
        return;
    }
    if start >= 2 && &b[start - 2..start] == b"--" {
        let mut i = after;
        while matches!(at(b, i), b' ' | b'\t') {
            i += 1;
        }
        if let Some((vs, ve, quoted)) = value(b, i) {
            if at(b, vs) != b'-' && plausible(&b[vs..ve], quoted) && (quoted || secret_shape(&b[vs..ve])) {
                out.push(hit(PiiKind::Password, vs, ve, 0.8));
            }
        }
        return;
    }
    // `.netrc` style, `login ada password Qm7#vT2p`: the value right after the noun.
    if start >= 7 && netrc(b, start) {
        let i = after + 1;
        let len = b[i..].iter().take(257).take_while(|c| !c.is_ascii_whitespace()).count();
        let v = &b[i..i + len];
        if plausible(v, false) && secret_shape(v) {
            out.push(hit(PiiKind::Password, i, i + len, 0.8));
        }
        return;
    }
    // Up to six words ("for the guest network") before a linking verb or a colon, same clause.
    let mut i = after;
    let mut linked = false;
    for n in 0..7 {
        while matches!(at(b, i), b' ' | b'\t') {
            i += 1;
        }
        if at(b, i) == b':' {
            i += 1;
            linked = true;
            break;
        }
        let w0 = i;
        while i < b.len() && (b[i].is_ascii_alphabetic() || b[i] >= 0x80) && i - w0 < 24 {
            i += 1;
        }
        if i == w0 || !matches!(at(b, i), b' ' | b'\t' | b':') {
            return;
        }
        if n == 0 && COMPOUNDS.iter().any(|c| b[w0..i].eq_ignore_ascii_case(c)) {
            return;
        }
        if LINKS.iter().any(|l| b[w0..i].eq_ignore_ascii_case(l)) {
            linked = true;
            while matches!(at(b, i), b' ' | b'\t') {
                i += 1;
            }
            if at(b, i) == b':' {
                i += 1;
            }
            break;
        }
    }
    if !linked {
        return;
    }
    while matches!(at(b, i), b' ' | b'\t') {
        i += 1;
    }
    if b.get(i..i + 4).is_some_and(|w| w.eq_ignore_ascii_case(b"now ")) {
        i += 4;
    }
    let Some((vs, mut ve, quoted)) = (if matches!(at(b, i), b'"' | b'\'' | b'`') {
        value(b, i)
    } else {
        let len = b[i..].iter().take(257).take_while(|c| !c.is_ascii_whitespace()).count();
        Some((i, i + len, false))
    }) else {
        return;
    };
    if !quoted {
        while ve > vs && matches!(b[ve - 1], b'.' | b',' | b';' | b':' | b'?' | b')' | b'"' | b'\'') {
            ve -= 1;
        }
    }
    let v = &b[vs..ve];
    if plausible(v, quoted) && (quoted || secret_shape(v)) {
        out.push(hit(PiiKind::Password, vs, ve, 0.8));
    }
}

/// `login <user> ` or `user <user> ` just before the noun at `start` (a `.netrc` line).
fn netrc(b: &[u8], start: usize) -> bool {
    let mut k = start - 1;
    if b[k] != b' ' {
        return false;
    }
    let user_end = k;
    while k > 0 && !b[k - 1].is_ascii_whitespace() && user_end - k < 64 {
        k -= 1;
    }
    if k == user_end || k == 0 || b[k - 1] != b' ' {
        return false;
    }
    let head = &b[..k - 1];
    [&b"login"[..], b"user", b"username"].iter().any(|w| {
        head.len() >= w.len()
            && head[head.len() - w.len()..].eq_ignore_ascii_case(w)
            && (head.len() == w.len() || head[head.len() - w.len() - 1].is_ascii_whitespace())
    })
}

/// A bare word that reads as a secret rather than prose: six bytes or more with a letter and a
/// digit or a symbol (`Kp4-xR8-mN2`, `Gato$Negro`), or a long hyphenated passphrase.
fn secret_shape(v: &[u8]) -> bool {
    let letter = v.iter().any(u8::is_ascii_alphabetic);
    let digit = v.iter().any(u8::is_ascii_digit);
    let symbol = v.iter().any(|&c| c.is_ascii_punctuation() && !matches!(c, b'-' | b'\''));
    let hyphens = memchr::memchr_iter(b'-', v).count();
    letter && (((digit || symbol) && v.len() >= 6) || (v.len() >= 12 && hyphens >= 3))
}

/// The value starting at `i`: quoted (to the closing quote on the same line) or bare (to
/// whitespace or a delimiter, less a sentence's trailing `.`/`,`). Returns (start, end, quoted).
/// A bare value stops at `&` only where a query string carries on (`&grant=1`), so `Tr0ub4dor&3`
/// stays whole.
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
    while e < b.len() && !b[e].is_ascii_whitespace() && !matches!(b[e], b',' | b';' | b'"' | b'\'' | b'<' | b'>' | b')' | b'}' | b']') {
        if b[e] == b'&' && query_param(b, e + 1) {
            break;
        }
        e += 1;
    }
    // `sk-...`: an elided value, not a secret.
    if e >= i + 2 && &b[e - 2..e] == b".." {
        return None;
    }
    while e > i && matches!(b[e - 1], b'.' | b':') {
        e -= 1;
    }
    (e > i).then_some((i, e, false))
}

/// `name=` at `i`: the next parameter of a query string.
fn query_param(b: &[u8], i: usize) -> bool {
    let n = b[i.min(b.len())..].iter().take(64).take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'[' | b']')).count();
    n > 0 && at(b, i + n) == b'='
}

fn plausible(v: &[u8], quoted: bool) -> bool {
    if v.len() < 3 || v.len() > 256 {
        return false;
    }
    // Placeholders: `${DB_PASS}`, `$(cat f)`, `$PW`, `{{ secret }}`, `<password>`, `%(pw)s`,
    // `%PW%`, `****`, `xxxx`, and elided values (`sk-...`).
    if v.starts_with(b"${")
        || v.starts_with(b"$(")
        || (v[0] == b'$' && v[1].is_ascii_alphabetic() && v.iter().all(|&c| c == b'$' || c == b'_' || c.is_ascii_alphanumeric()))
        || v.starts_with(b"{{")
        || v.starts_with(b"<")
        || v.starts_with(b"%(")
        || (v[0] == b'%' && v[v.len() - 1] == b'%')
    {
        return false;
    }
    if v.iter().all(|&c| c == b'*' || c == b'x' || c == b'X' || c == b'.') {
        return false;
    }
    let contains = |w: &[u8]| v.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    if contains(b"...") || contains("…".as_bytes()) || contains(b"xxxx") || contains(b"****") {
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
    // A bare value opening with `[` or `{` is structure (JSON, YAML), not a secret; one opening
    // with `/`, `~/` or `./` is a path (`pwd: /home/ada` is the working directory).
    // `!vault |` and other YAML tags announce a value on the following lines.
    let tag = v[0] == b'!' && v[1..].iter().all(|&c| c.is_ascii_lowercase() || c == b'_');
    !matches!(v[0], b'[' | b'{' | b'(' | b'/') && !v.starts_with(b"~/") && !v.starts_with(b"./") && !tag && !code(v)
}

/// A bare value that is code reading the secret from somewhere else: a call or an index
/// (`getenv(`, `os.environ[`), a dotted name with no digit (`process.env.DB_PASS`,
/// `settings.SECRET_KEY`) or a constant's name (`YOUR_API_KEY_HERE`, `DB_PASSWORD`).
fn code(v: &[u8]) -> bool {
    if v.iter().any(|&c| c == b'(' || c == b'[') {
        return true;
    }
    let ident = |c: u8| c.is_ascii_alphabetic() || c == b'_';
    let dotted = v.contains(&b'.') && v.split(|&c| c == b'.').all(|p| !p.is_empty() && p.iter().all(|&c| ident(c)));
    let constant = v[0].is_ascii_uppercase() && v.contains(&b'_') && v.iter().all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    dotted || constant
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn creds(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    #[test]
    fn noun_start_admits_every_noun() {
        for noun in super::NOUNS.iter().copied().chain([&b"passe"[..], b"contrase"]) {
            assert!(super::noun_start(noun[0], noun[1]), "{}", String::from_utf8_lossy(noun));
            // The main scan marks lower-case initials from this set only.
            assert!(b"pckws".contains(&noun[0]), "{}", String::from_utf8_lossy(noun));
            // And lets through every plain spelling of it, capitalised or not.
            let mut capital = noun.to_vec();
            capital[0].make_ascii_uppercase();
            assert!(super::may_be_noun(noun, 0) && super::may_be_noun(&capital, 0), "{}", String::from_utf8_lossy(noun));
        }
        assert!(!super::noun_start(b'p', b'l') && !super::noun_start(b's', b'a'));
        assert!(!super::may_be_noun(b"service", 0) && !super::may_be_noun(b"pa", 0) && super::may_be_noun(b"pw", 0));
    }

    #[test]
    fn keyword_start_admits_every_key_word() {
        for w in super::STRONG.iter().chain(super::PARTS) {
            assert!(w.len() >= 2 && super::keyword_start(w[0], w[1]), "{}", String::from_utf8_lossy(w));
            assert!(super::keyword_start(w[0].to_ascii_uppercase(), w[1].to_ascii_uppercase()), "{}", String::from_utf8_lossy(w));
        }
        assert!(!super::keyword_start(b'a', b's') && !super::keyword_start(b'c', b'm') && !super::keyword_start(b'@', b'a'));
    }

    #[test]
    fn userinfo_without_a_scheme() {
        for (text, value) in [
            ("deploy:s3cr3t@db.internal:5432", "s3cr3t"),
            ("DATABASE_HOST=app:Xq7-pL2w@db.example.com/orders", "Xq7-pL2w"),
            ("connect to admin:hunter2!@localhost now", "hunter2!"),
            ("redis ops:R3d1s#pw@cache-1:6379", "R3d1s#pw"),
        ] {
            assert_eq!(creds(text), vec![(PiiKind::Password, value)], "{text}");
        }
        for text in [
            "git@github.com:org/repo.git",
            "git clone git@github.com:acme/tools",
            "mail ada@example.com: she replied",
            "mailto:ada2024@example.com",
            "email:bob.k1ng@example.org",
            "time 10:30@home",
            "at 12:30pm@cafe.example",
            "deploy:secret@db.internal",
            "deploy:s3cr3t@db",
            "deploy:s3cr3t@db.internal.example.comX@",
            "x/deploy:s3cr3t@db.internal",
        ] {
            assert!(creds(text).iter().all(|&(k, _)| k != PiiKind::Password), "{text}: {:?}", creds(text));
        }
        // An address written as one stays an address.
        assert_eq!(creds("mailto:ada2024@example.com"), vec![(PiiKind::Email, "ada2024@example.com")]);
    }

    #[test]
    fn curl_user_may_be_an_address() {
        let token = "ghp_R8x2mQ7vLp4kZ9wN3tYb6cJf1hGd5sAe0uXi";
        let text = format!("curl -u ops@example.com:{token} https://api.example.com");
        assert_eq!(creds(&text), vec![(PiiKind::Email, "ops@example.com"), (PiiKind::ApiKey, token)]);
        assert_eq!(
            creds("curl --user ops@example.com:Xk9mPq2vLr https://api.example.com"),
            vec![(PiiKind::Email, "ops@example.com"), (PiiKind::Password, "Xk9mPq2vLr")]
        );
        // Without the flag, `user@host:path` is still a remote path, not an address.
        assert!(creds("rsync ops@example.com:backups/ .").is_empty());
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
            ("password=Tr0ub4dor&3", "Tr0ub4dor&3"),
            ("mysql://app:Wq9!zz@db.local/x", "Wq9!zz"),
            ("redis://:Zm3kP9wq@cache:6379", "Zm3kP9wq"),
            ("postgres://app:p@ss#1@db.internal/x", "p@ss#1"),
            ("ftp://john@example.org:Secr3t!@ftp.example.org/pub", "Secr3t!"),
            ("smtp://mailer:Zx9!pq@smtp.example.com:587", "Zx9!pq"),
            ("rtsp://admin:Cam3ra-77@cam.local:554/stream", "Cam3ra-77"),
            ("mongodb+srv://admin:Qw3rty!23@cluster0.abcde.mongodb.net/db", "Qw3rty!23"),
            ("jdbc:mysql://svc:Jd8c#pw@db.local:3306/app", "Jd8c#pw"),
            ("curl -u ops:Yt6#pLw2 https://x.io", "Yt6#pLw2"),
            ("Authorization: Basic YWxpY2U6czNjcmV0", "YWxpY2U6czNjcmV0"),
            ("mysql -u root -pK7vQ2xLm9 db", "K7vQ2xLm9"),
            ("mysql -u root -p'N0t S0 s3cret' db", "N0t S0 s3cret"),
            ("tool --password Lw9#tR4pz --verbose", "Lw9#tR4pz"),
            ("the password is hunter2", "hunter2"),
            ("The VPN password for the guest network is Mango-Tree-42.", "Mango-Tree-42"),
            ("Das Passwort lautet: Sonnenblume#77", "Sonnenblume#77"),
            ("Mi contraseña: Lun4Llena#88", "Lun4Llena#88"),
            ("La contraseña es Gato$Negro2023", "Gato$Negro2023"),
            ("mot de passe : Chouette!2025", "Chouette!2025"),
            ("A senha do roteador é Ipe4Amarelo#", "Ipe4Amarelo#"),
            ("<password>Kv8sN3pQz!</password>", "Kv8sN3pQz!"),
            ("Mot de passe: Azerty#2024", "Azerty#2024"),
            ("machine h.example login ada password Qm7#vT2p", "Qm7#vT2p"),
            ("the admin pw is Lk9-Vb2-Xc7, use it once", "Lk9-Vb2-Xc7"),
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
            "password=\"\"",
            "The password is incorrect.",
            "Your password is stored as a bcrypt hash.",
            "Forgot your password? Reset it here: https://x.io/r",
            "Your password must be at least 12 characters: add-more-words",
            "passwordless login is here",
            "DB_PASS=${DB_PASS:-changeme}",
            "password = getenv(\"APP_PASSWORD\")",
            "password=process.env.DB_PASSWORD",
            "api_key: YOUR_API_KEY_HERE",
            "OPENAI_API_KEY=sk-... in your shell",
            "postgres://user:password@localhost/db",
            "https://user:<password>@host.example/x",
            "https://host.example:8443?to=ada@example",
            "https://host.example:8443/path?user=a@b",
            "amqp://user:${AMQP_PASSWORD}@rabbit:5672/",
            "Authorization: Basic <credentials>",
            "Authorization: Basic bm9jb2xvbg==",
            "mkdir -p out && cp -pr a b && gcc -pthread -pedantic -p8080:80",
            "ssh -p 2222 host",
            "$ pwd: /home/ada/src",
            "pwd is ~/projects/x1",
            "Enter your password: then press Enter.",
            "ansible_become_password: !vault |",
            "The password policy is NIST-800-63b compliant.",
            "The password hint is Fluffy99.",
            "wifi password Qm7#vT2p",
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
