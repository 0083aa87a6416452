//! Rewrites a text with its matches replaced. Matches are taken in order; one that overlaps the
//! previous one or does not sit on char boundaries is skipped rather than trusted.

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use super::{PiiKind, PiiMatch, RedactMode};
use crate::decimal::push_uint;

pub(super) fn apply(text: &str, matches: &[PiiMatch], mode: &RedactMode) -> String {
    let mut out = String::with_capacity(room(text, matches, mode));
    let mut seen = Seen::default();
    let mut cursor = 0;
    for m in matches {
        if m.start < cursor || m.end <= m.start || !text.is_char_boundary(m.start) || !text.is_char_boundary(m.end) {
            continue;
        }
        let Some(value) = text.get(m.start..m.end) else { continue };
        out.push_str(&text[cursor..m.start]);
        cursor = m.end;
        let name = m.kind.as_str();
        match mode {
            RedactMode::Placeholder => {
                let n = seen.number(m.kind, value);
                // Pushed piece by piece: `write!` went through the formatting machinery,
                // a few hundred instructions per placeholder.
                out.push('[');
                out.push_str(name);
                out.push('_');
                push_uint(&mut out, n as u64);
                out.push(']');
            }
            RedactMode::Mask { keep_last } => mask(&mut out, value, *keep_last),
            RedactMode::Redact => out.push_str("[REDACTED]"),
            RedactMode::Remove => {}
            RedactMode::Hash { salt } => {
                let digest = Sha256::new().chain_update(salt.as_bytes()).chain_update(value.as_bytes()).finalize();
                let _ = write!(out, "[{name}:");
                for byte in &digest[..6] {
                    let _ = write!(out, "{byte:02x}");
                }
                out.push(']');
            }
        }
    }
    out.push_str(&text[cursor..]);
    out
}

/// Room for the redacted text: never short (it is written without growing), and for
/// placeholders no more than they can need. A placeholder is at most its kind's name, three
/// brackets and separators, and the digits of the number of matches; most are shorter than the
/// value they replace, so a 1 KB text asks for 1 KB and not the 1 KB + 16 bytes a match that
/// took glibc's slower path (above its per-thread cache's 1,032 bytes) on every check.
fn room(text: &str, matches: &[PiiMatch], mode: &RedactMode) -> usize {
    if !matches!(mode, RedactMode::Placeholder) {
        return text.len() + 16 * matches.len();
    }
    let digits = matches.len().checked_ilog10().unwrap_or(0) as usize + 1;
    let longer = |m: &PiiMatch| (m.kind.as_str().len() + 3 + digits).saturating_sub(m.end.saturating_sub(m.start));
    text.len() + matches.iter().map(longer).sum::<usize>()
}

/// The placeholders handed out so far, as (kind, value, number): a call has few matches, so a
/// linear search beats a map, and the first few are kept on the stack (a vector for the rest),
/// so a check that redacts an e-mail and a phone allocates nothing but the text.
#[derive(Default)]
struct Seen<'a> {
    few: [Option<(PiiKind, &'a str, usize)>; 8],
    more: Vec<(PiiKind, &'a str, usize)>,
}

impl<'a> Seen<'a> {
    /// The number of `value`'s placeholder: its own if it had one, else the next of its kind.
    fn number(&mut self, kind: PiiKind, value: &'a str) -> usize {
        let mut of_kind = 0;
        for &(k, v, n) in self.few.iter().flatten().chain(&self.more) {
            if k == kind {
                if v == value {
                    return n;
                }
                of_kind += 1;
            }
        }
        let entry = (kind, value, of_kind + 1);
        if let Some(free) = self.few.iter_mut().find(|e| e.is_none()) {
            *free = Some(entry);
        } else {
            self.more.push(entry);
        }
        of_kind + 1
    }
}

/// Stars every alphanumeric character but the last `keep_last`; separators (`-`, ` `, `@`, `.`)
/// stay so the shape remains readable: `****-****-****-1111`.
fn mask(out: &mut String, value: &str, keep_last: usize) {
    let total = value.chars().filter(|c| c.is_alphanumeric()).count();
    let hide = total.saturating_sub(keep_last);
    let mut seen = 0;
    for c in value.chars() {
        if c.is_alphanumeric() {
            seen += 1;
            out.push(if seen <= hide { '*' } else { c });
        } else {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use sha2::{Digest, Sha256};

    use crate::pii::{detect, redact, PiiKind, PiiMatch, RedactMode};

    #[test]
    fn placeholders_number_per_kind_and_reuse_for_same_value() {
        let t = "a@x.com b@x.com a@x.com 4111 1111 1111 1111";
        let out = redact(t, &detect(t), &RedactMode::Placeholder);
        assert_eq!(out, "[EMAIL_1] [EMAIL_2] [EMAIL_1] [CREDIT_CARD_1]");
    }

    #[test]
    fn mask_keeps_separators_and_last_alphanumerics() {
        let t = "card 4111-1111-1111-1111 ok";
        let out = redact(t, &detect(t), &RedactMode::Mask { keep_last: 4 });
        assert_eq!(out, "card ****-****-****-1111 ok");
        let out = redact(t, &detect(t), &RedactMode::Mask { keep_last: 0 });
        assert_eq!(out, "card ****-****-****-**** ok");
        let t = "mail ada@example.com";
        assert_eq!(redact(t, &detect(t), &RedactMode::Mask { keep_last: 3 }), "mail ***@*******.com");
    }

    #[test]
    fn mask_with_more_to_keep_than_there_is_shows_all() {
        let t = "ip 10.0.0.1";
        assert_eq!(redact(t, &detect(t), &RedactMode::Mask { keep_last: 99 }), t);
    }

    #[test]
    fn placeholders_past_the_first_eight_values_keep_their_numbers() {
        let mut text = String::new();
        let mut expected = String::new();
        for i in 1..=12 {
            let _ = write!(text, "u{i}@x.org 10.0.0.{i} u{i}@x.org ");
            let _ = write!(expected, "[EMAIL_{i}] [IP_ADDRESS_{i}] [EMAIL_{i}] ");
        }
        text.push_str("u3@x.org u11@x.org");
        expected.push_str("[EMAIL_3] [EMAIL_11]");
        assert_eq!(redact(&text, &detect(&text), &RedactMode::Placeholder), expected);
    }

    #[test]
    fn placeholder_room_is_never_short() {
        // Short values under long names ("1.1.1.1" as `[IP_ADDRESS_10]`), two-digit numbers,
        // bad and empty matches: the room asked for holds the whole result.
        let mut text = String::new();
        for i in 1..=12 {
            let _ = write!(text, "a{i}@x.io 1.1.1.{i} ");
        }
        let mut found = detect(&text);
        found.push(PiiMatch { kind: PiiKind::CryptoWallet, start: 3, end: 3, confidence: 1.0 });
        found.push(PiiMatch { kind: PiiKind::DateOfBirth, start: 9, end: 2, confidence: 1.0 });
        for m in [&found[..], &found[..1], &[]] {
            let out = redact(&text, m, &RedactMode::Placeholder);
            assert!(super::room(&text, m, &RedactMode::Placeholder) >= out.len(), "{out}");
        }
        assert_eq!(super::room("plain", &[], &RedactMode::Placeholder), 5);
    }

    #[test]
    fn placeholders_restart_each_call() {
        let t = "a@x.com";
        let m = detect(t);
        assert_eq!(redact(t, &m, &RedactMode::Placeholder), "[EMAIL_1]");
        assert_eq!(redact(t, &m, &RedactMode::Placeholder), "[EMAIL_1]");
    }

    #[test]
    fn redact_and_remove() {
        let t = "ip 10.0.0.1, ok";
        let m = detect(t);
        assert_eq!(redact(t, &m, &RedactMode::Redact), "ip [REDACTED], ok");
        assert_eq!(redact(t, &m, &RedactMode::Remove), "ip , ok");
    }

    #[test]
    fn hash_is_salted_sha256_prefix() {
        let text = "mail ada@example.com";
        let found = detect(text);
        let one = redact(text, &found, &RedactMode::Hash { salt: "s1".into() });
        let two = redact(text, &found, &RedactMode::Hash { salt: "s2".into() });
        // sha256("s1" || "ada@example.com"), first 6 bytes = 12 hex digits.
        let digest = Sha256::digest(b"s1ada@example.com");
        let hex = digest[..6].iter().fold(String::new(), |mut s, x| {
            let _ = write!(s, "{x:02x}");
            s
        });
        assert_eq!(one, format!("mail [EMAIL:{hex}]"));
        assert_ne!(one, two);
    }

    #[test]
    fn non_ascii_text_and_bad_matches() {
        let t = "Grüße an jürgen@example.de – danke";
        assert_eq!(redact(t, &detect(t), &RedactMode::Redact), "Grüße an [REDACTED] – danke");
        // Overlapping or off-boundary matches are skipped, never panic.
        let bad = [
            PiiMatch { kind: PiiKind::Email, start: 2, end: 4, confidence: 1.0 },
            PiiMatch { kind: PiiKind::Email, start: 3, end: 6, confidence: 1.0 },
            PiiMatch { kind: PiiKind::Email, start: 100, end: 200, confidence: 1.0 },
        ];
        assert_eq!(redact(t, &bad, &RedactMode::Redact), "Gr[REDACTED]ße an jürgen@example.de – danke");
    }
}
