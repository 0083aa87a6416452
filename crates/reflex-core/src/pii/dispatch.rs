//! Which detectors run where the main scan stops: at a word (by its first byte and shape) and
//! at a trigger byte (`@ = : - + (`).

use super::{card, dob, email, iban, ip, mac, national, nhs, passport, password, phone, scan, secret_shapes, secrets, ssn, wallet};
use super::{PiiKind, PiiMatch};

/// The detectors for the word starting at `start`; returns where the word ends.
pub(super) fn word(b: &[u8], start: usize, out: &mut Vec<PiiMatch>) -> usize {
    // Note whether the word is plain prose (`the`, `The`): letters only, no capital after the
    // first. Every detector that can start on a letter needs a digit, an underscore, a capital
    // inside (`eyJ`, `AKIA`) or a `:`/`-`/`.` right after it (hex for MAC/IPv6, `sk-`,
    // `xoxb-`), so plain words only get the month-name check and, for a few first letters, the
    // credential-noun check and the spoken ` dot ` of an address.
    let c = b[start];
    let mut plain = c.is_ascii_alphabetic();
    let mut i = start + 1;
    while i < b.len() && scan::is_word(b[i]) {
        plain &= b[i].is_ascii_lowercase();
        i += 1;
    }
    let next = scan::at(b, i);
    if plain && next != b':' && next != b'-' && !(next == b'.' && i - start == 4) {
        if c.is_ascii_uppercase() {
            push(out, dob::named(b, start));
        }
        // Credential nouns ("password", "Passwort", "contraseña", "mot de passe"…) start
        // a sentence that may carry the value.
        if matches!(c | 0x20, b'p' | b'c' | b'k' | b's' | b'w') && (2..=10).contains(&(i - start)) {
            password::prose(b, start, i, out);
        }
        // `ada at example dot com`: a spoken address, from its first ` dot `.
        if c == b'd' && email::may_be_spoken_dot(b, start) {
            email::spoken(b, start, out);
        }
    } else {
        // Heroku, Cloudflare and Datadog keys: a UUID (a word of 8, then `-`), 32, 37 or 40 bytes.
        if (i - start >= 32 || next == b'-') && secret_shapes::may_be_keyed(b, start) {
            push(out, secret_shapes::keyed(b, start));
        }
        word_start(b, start, out);
    }
    i
}

/// The detectors that start at the trigger byte `b[i]` (`@ = : - + (`, and the brackets of an
/// obfuscated `[at]`).
pub(super) fn trigger(b: &[u8], i: usize, out: &mut Vec<PiiMatch>) {
    match b[i] {
        b'@' => email::find(b, i, out),
        b'=' => {
            if i > 0 && matches!(b[i - 1] | 0x20, b'y' | b'g') {
                push(out, secret_shapes::azure(b, i));
            }
            password::find(b, i, out);
        }
        b':' => {
            if scan::at(b, i + 1) == b'/' {
                push(out, secret_shapes::webhook(b, i));
            }
            password::find(b, i, out);
            if scan::at(b, i + 1) == b':' {
                push(out, ip::v6(b, i));
            }
        }
        b'-' => {
            push(out, secrets::private_key(b, i));
            match scan::at(b, i + 1) {
                b'p' => push(out, password::cli_short(b, i)),
                b'u' => push(out, secret_shapes::mailchimp(b, i)),
                _ => {}
            }
        }
        // Tokens with a dot in their prefix (`dp.pt.`, `hvs.`, `hvb.`, `….atlasv1.`), never a
        // sentence's full stop nor the dot of a number.
        b'.' if i > 0 && (matches!(b[i - 1], b'p' | b's' | b'b') || scan::at(b, i + 1) == b'a') && scan::is_word(scan::at(b, i + 1)) => {
            push(out, secret_shapes::dotted(b, i));
        }
        b'~' => push(out, secret_shapes::azure_client_secret(b, i)),
        b'+' => {
            aws_secret(b, i, out);
            push(out, phone::find(b, i));
        }
        b'(' => {
            push(out, phone::find(b, i));
            email::obfuscated(b, i, out);
        }
        b'[' | b'{' | b'<' => email::obfuscated(b, i, out),
        b'/' => aws_secret(b, i, out),
        _ => {}
    }
}

/// An AWS secret access key starting at `b[i]` (a word, or a `+` or `/`, which start no word):
/// it is 40 bytes long, so two byte tests rule out nearly every candidate.
#[inline]
fn aws_secret(b: &[u8], i: usize, out: &mut Vec<PiiMatch>) {
    if secret_shapes::aws_secret_byte(scan::at(b, i + 39)) && !secret_shapes::aws_secret_byte(scan::at(b, i + 40)) {
        push(out, secret_shapes::aws_secret(b, i));
    }
}

/// Whether the capital at `b[i]` starts a licence number's letters: one or two capitals, then
/// a digit.
#[inline]
fn licence_start(b: &[u8], i: usize) -> bool {
    let second = scan::at(b, i + 1);
    second.is_ascii_digit() || (second.is_ascii_uppercase() && scan::at(b, i + 2).is_ascii_digit())
}

#[inline]
fn push(out: &mut Vec<PiiMatch>, m: Option<PiiMatch>) {
    if let Some(m) = m {
        out.push(m);
    }
}

/// Runs the detectors that can start at the word beginning at `i`. Inlined into `word`, its one
/// caller: left to itself the compiler calls it once the national identifiers are in, and the
/// call per word costs 4 % on 1 KB of log lines.
#[allow(clippy::inline_always)] // measured: see above
#[inline(always)]
fn word_start(b: &[u8], i: usize, out: &mut Vec<PiiMatch>) {
    let c = b[i];
    if c.is_ascii_digit() {
        // Inside a longer token, or inside a number already reported (the `1111` groups of a
        // card, the `7946` of a phone): any match starting here would lose the overlap anyway.
        // A credential value is the exception: a card or wallet inside it outranks it.
        if scan::inside_cluster(b, i) || out.last().is_some_and(|m| m.kind != PiiKind::Password && m.start < i && i < m.end) {
            // `Aadhaar-2345 6789 0126`: a number glued by a hyphen to the word that names it.
            if i >= 2 && b[i - 2].is_ascii_alphabetic() {
                match b[i - 1] {
                    b'-' => national::after_hyphen(b, i, out),
                    // `DL#123456789`, `DL No.123456789`: a licence glued to its label's mark.
                    b'#' | b'.' => national::after_mark(b, i, out),
                    _ => {}
                }
            }
            return;
        }
        // Route on the leading digit run and the byte after it, so that timestamps, ids and
        // durations in digit-heavy text (logs) reach only the one or two detectors they could
        // possibly satisfy.
        let run = scan::run_len(b, i, 20, |c| c.is_ascii_digit());
        let next = scan::at(b, i + run);
        let letter = next.is_ascii_alphabetic();
        let hex_letter = letter && next.is_ascii_hexdigit();
        // A separator followed by another digit group: `4111 1111`, `415-555`, `192.168`.
        let after = scan::at(b, i + run + 1);
        let grouped = matches!(next, b' ' | b'-') && after.is_ascii_digit();
        // An AWS secret key starting with digits goes on with a letter, `/` or `+`; numbers in
        // logs mostly end at a space or punctuation.
        if letter || matches!(next, b'/' | b'+') {
            aws_secret(b, i, out);
        }
        if next == b':' && after == b'A' {
            push(out, secret_shapes::telegram(b, i, run));
        }
        if run <= 3 && next == b'.' && after.is_ascii_digit() {
            push(out, ip::v4(b, i));
        }
        if run <= 4 && (next == b':' || hex_letter) {
            push(out, ip::v6(b, i));
        }
        if run <= 4 && ((matches!(next, b':' | b'-' | b'.') && after.is_ascii_hexdigit()) || hex_letter) {
            push(out, mac::find(b, i));
        }
        if !letter && next != b'_' {
            if run >= 12 || (run == 4 && grouped) {
                push(out, card::find(b, i));
            }
            if run == 9 || (run == 3 && (grouped || (next == b'.' && after.is_ascii_digit()))) {
                push(out, ssn::find(b, i));
                push(out, nhs::find(b, i));
            } else if run == 10 {
                push(out, nhs::find(b, i));
            }
            if run >= 7 || grouped || (next == b'.' && after.is_ascii_digit()) {
                push(out, phone::find(b, i));
            }
            // `15/01/1990`, and `14-Mar-1987` (a month name between the separators).
            let date_sep = matches!(next, b'-' | b'/' | b'.') && (after.is_ascii_digit() || (after.is_ascii_alphabetic() && run <= 2));
            // `15 January`, `3. April` (German ordinal dot).
            let month_next = (next == b' ' && after.is_ascii_alphabetic()) || (next == b'.' && after == b' ' && run <= 2);
            if (run == 4 || run <= 2) && (date_sep || month_next) {
                push(out, dob::numeric(b, i));
            }
        }
        // `2nd of September 1996`, `21st March 1990`.
        if run <= 2 && matches!(next, b's' | b'n' | b'r' | b't') {
            push(out, dob::numeric(b, i));
        }
        if (!letter && (6..=9).contains(&run)) || next.is_ascii_uppercase() {
            push(out, passport::find(b, i));
        }
        // National identifiers: a grouped number (`51 824…`, `2345 6789…`), or a run of the
        // lengths they have, or five digits or more (licence numbers) not followed by a letter,
        // or a GSTIN's two-digit state code glued to its capitals.
        let decimal = next == b'.' && after.is_ascii_digit();
        let gstin = run == 2 && next.is_ascii_uppercase();
        if next != b'_' && !decimal && ((run <= 4 && grouped) || matches!(run, 6 | 8..=13) || (run >= 5 && !letter) || gstin) {
            national::digits(b, i, run, next, out);
        }
        if passport::may_start_mrz(b, i) {
            push(out, passport::mrz(b, i));
        }
        if (c == b'0' && next == b'x') || ((c == b'1' || c == b'3') && letter) {
            push(out, wallet::find(b, i));
        }
    } else if c.is_ascii_uppercase() {
        // A capital ` AT ` between a local part and a domain (`ada AT example DOT com`).
        if c == b'A' && scan::at(b, i + 1) == b'T' && scan::at(b, i + 2) == b' ' {
            email::obfuscated(b, i, out);
        }
        aws_secret(b, i, out);
        push(out, secrets::api_key(b, i));
        push(out, iban::find(b, i));
        push(out, wallet::find(b, i));
        push(out, dob::named(b, i));
        push(out, passport::find(b, i));
        if !scan::inside_cluster(b, i) {
            national::upper(b, i, out);
            if passport::may_start_mrz(b, i) {
                push(out, passport::mrz(b, i));
            }
        } else if matches!(b[i - 1], b'#' | b'.') && b[i - 2].is_ascii_alphabetic() && licence_start(b, i) {
            // `DL#D1234567`, `DL#TR538172`: a licence glued to its label's mark.
            national::after_mark(b, i, out);
        }
        if c <= b'F' && !scan::inside_cluster(b, i) {
            push(out, mac::find(b, i));
            push(out, ip::v6(b, i));
        }
    } else {
        aws_secret(b, i, out);
        push(out, secrets::api_key(b, i));
        push(out, wallet::find(b, i));
        if (b'a'..=b'f').contains(&c) && !scan::inside_cluster(b, i) {
            push(out, mac::find(b, i));
            push(out, ip::v6(b, i));
        }
    }
}
