//! Where the main scan has to look, a block of [`BLOCK`] bytes at a time.
//!
//! Most of a text is prose: lower-case words that start no detector, single spaces between
//! them. The scan used to walk every byte; here one pass per block marks the bytes that are
//! anything else, sixteen bytes at a time in vector registers (the `wide` crate), and one
//! `movemask` per sixteen bytes gathers the marks into a bit mask. Marked:
//! - every byte that is neither a lower-case letter nor a space (capitals, digits, `_`,
//!   punctuation and the trigger bytes, line breaks, non-ASCII);
//! - a lower-case letter that may start a credential noun, or the ` dot ` of a spoken e-mail
//!   address, with the byte after it when the byte before it is not a lower-case letter.
//!   "May": the two bytes' codes add up (mod 256) to what one of the starts `pa`, `pw`, `ke`,
//!   `se`, `wa`, `co` (`password::noun_start`) or `do` adds up to, [`NOUN_SUMS`]. One add and
//!   three compares instead of eleven compares of pairs; the few other pairs with those sums
//!   (`me`, `st`, `fr`, `ar`, `ne`…) are marked too and the scan drops them at the word
//!   (`password::may_be_noun`, `email::may_be_spoken_dot`).
//!
//! Everything the byte-by-byte scan did with a word is then reachable from a mark: a word
//! starting with anything but a lower-case letter, a word with a capital, digit or `_` inside,
//! a word followed by `:`, `-` or `.`, a credential noun and a spoken ` dot `.

use crate::lanes;
use wide::u8x16;

/// Bytes per block: one bit of a `u64` each.
pub(super) const BLOCK: usize = 64;

/// Bit `k` set when byte `from + k` of `b` is marked (see the module header); none past the end.
pub(super) fn stops(b: &[u8], from: usize) -> u64 {
    // The block with the byte before it and the byte after it, read in place when the text has
    // them all (every block but the first and the last): no copy.
    if let Some(window) = from.checked_sub(1).and_then(|before| b.get(before..from + BLOCK + 1)) {
        if let Ok(window) = window.try_into() {
            return marks(window);
        }
    }
    // Else a copy, with 0 before the text and spaces past its end.
    let mut window = [b' '; BLOCK + 2];
    let before = from.checked_sub(1).map_or(0, |before| b[before]);
    let block = &b[from..b.len().min(from + BLOCK + 1)];
    window[0] = before;
    window[1..=block.len()].copy_from_slice(block);
    marks(&window)
}

/// The marks of `window[1..=BLOCK]`; `window[0]` is the byte before the block, the last one
/// the byte after it.
#[inline]
fn marks(window: &[u8; BLOCK + 2]) -> u64 {
    // Per class, bit `k` for byte `from + k`: the lower-case letters, the bytes that are
    // neither those nor spaces, and the possible starts of credential nouns.
    let (mut lower, mut other, mut noun) = (0u64, 0u64, 0u64);
    for n in 0..BLOCK / 16 {
        let (l, o, s) = lane_classes(lanes::load(&window[16 * n + 1..]), lanes::load(&window[16 * n + 2..]));
        lower |= u64::from(l) << (16 * n);
        other |= u64::from(o) << (16 * n);
        noun |= u64::from(s) << (16 * n);
    }
    // The byte before each is a lower-case letter: the mask moved up one, and the byte before
    // the block for bit 0.
    let after_lower = lower << 1 | u64::from(window[0].is_ascii_lowercase());
    other | (noun & !after_lower)
}

/// The sums (mod 256) of the two bytes of `pa` `ke` `co` `do` (a range, with `pb`… between), of
/// `se` and `wa`, and of `pw`.
const NOUN_SUMS: (u8, u8, u8, u8) = (sum(*b"ke"), sum(*b"do"), sum(*b"se"), sum(*b"pw"));

const fn sum(pair: [u8; 2]) -> u8 {
    pair[0].wrapping_add(pair[1])
}

/// Of sixteen bytes `c` (`next`: the byte after each), as bit masks: the lower-case letters,
/// the bytes that are neither lower-case letters nor spaces, and those that may start a
/// credential noun with the byte after them.
fn lane_classes(c: u8x16, next: u8x16) -> (u16, u16, u16) {
    let is = lanes::eq;
    let lower = lanes::within(c, b'a', b'z');
    let sum = c + next;
    let noun = lower & (lanes::within(sum, NOUN_SUMS.0, NOUN_SUMS.1) | is(sum, NOUN_SUMS.2) | is(sum, NOUN_SUMS.3));
    let space = is(c, b' ');
    (lanes::bits(lower), !lanes::bits(lower | space), lanes::bits(noun))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks one byte at a time.
    fn reference(b: &[u8], from: usize) -> u64 {
        let mut mask = 0;
        for (k, &c) in b.iter().enumerate().skip(from).take(BLOCK) {
            let prev = if k == 0 { 0 } else { b[k - 1] };
            let next = b.get(k + 1).copied().unwrap_or(b' ');
            let sum = c.wrapping_add(next);
            let may_be_noun = (NOUN_SUMS.0..=NOUN_SUMS.1).contains(&sum) || sum == NOUN_SUMS.2 || sum == NOUN_SUMS.3;
            let initial = c.is_ascii_lowercase() && may_be_noun && !prev.is_ascii_lowercase();
            if !(c.is_ascii_lowercase() || c == b' ') || initial {
                mask |= 1 << (k - from);
            }
        }
        mask
    }

    /// `pii::detect` as it was: every word start and every trigger byte looked at in turn.
    fn byte_by_byte(text: &str) -> Vec<crate::pii::PiiMatch> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if crate::pii::scan::is_word(b[i]) {
                i = crate::pii::dispatch::word(b, i, &mut out);
            } else {
                crate::pii::dispatch::trigger(b, i, &mut out);
                i += 1;
            }
        }
        crate::pii::resolve(&mut out);
        out
    }

    /// Prose with the shapes every detector starts on, cut and glued at random: the marks
    /// must reach every word and byte that the byte-by-byte scan found something at.
    #[test]
    fn detect_matches_the_byte_by_byte_scan() {
        const PARTS: &[&str] = &[
            "the ", "meeting ", "Thursday ", "see ", "spring ", "we ", "was ", "code ", "key ", "password ", "Password ",
            "passwort: ", "pwd=", "pw ", "mot de passe ", "contraseña ", "wachtwoord ", "kennwort ", "senha ", "is ",
            "hunter2 ", "s3cr3t!", "Tr0ub4dor&3 ", "ada@example.com", " (415) 555-0132", "+44 20 7946 0958 ", "call ",
            "4111 1111 1111 1111", "078-05-1120", "DE89 3704 0044 0532 0130 00", "192.168.0.1", "fe80::1", "::",
            "00:1A:2B:3C:4D:5E", "born 15/01/1990", "March 3, 1987", "Jan. 5", "21st March 1990", "AKIAIOSFODNN7EXAMPLE",
            "sk-", "ghp_", "xoxb-", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "bc1q", "NHS 943 476 5919", "passport 123456789", "-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----",
            "--password x", "-p", ":", "-", ".", ". ", ", ", "=", "@", "+", "(", ")", "\n", "\t", "  ", "é", "naïve ", "1.2.3.4",
            "v1.2", "abcd. ", "Tell. ", "aabb.ccdd.eeff", "dead.beef.cafe ", "word:", "aB", "x_y", "9", "12:30 ", "ssh ", "git@github.com:a/b ", "https://u:p@h.io/",
            "ada at ", "example dot com ", "dot ", " at ", "do ",
        ];
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d_u64);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..next() % 40 {
                text.push_str(PARTS[(next() % PARTS.len() as u64) as usize]);
            }
            assert_eq!(crate::pii::detect(&text), byte_by_byte(&text), "{text:?}");
        }
    }

    #[test]
    fn every_credential_noun_start_is_marked() {
        for first in b'a'..=b'z' {
            for second in 0..=255u8 {
                if crate::pii::password::noun_start(first, second) {
                    assert_eq!(stops(&[first, second], 0) & 1, 1, "{}{}", char::from(first), char::from(second));
                }
            }
        }
    }

    #[test]
    fn marks_a_spoken_dot() {
        let text = b"ada at example dot com";
        assert_eq!(stops(text, 0) >> 15 & 1, 1);
        assert!(crate::pii::email::may_be_spoken_dot(text, 15));
    }

    #[test]
    fn marks_all_but_plain_prose() {
        let text = b"the Cat saw x1, sk-1 and pass";
        let marked: Vec<u8> = (0..text.len()).filter(|&k| stops(text, 0) >> k & 1 == 1).map(|k| text[k]).collect();
        assert_eq!(marked, b"C1,-1p");
    }

    #[test]
    fn every_byte_either_side_of_a_block_edge() {
        let mut next = crate::test_rng::xorshift(0x5851_f42d_4c95_7f2d);
        let pool = b"abcksw pPZ09_:-.@=+(\n\t\xc3\xa9";
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
            for _ in 0..200 {
                let text: Vec<u8> = (0..len).map(|_| pool[(next() % pool.len() as u64) as usize]).collect();
                for from in (0..len).step_by(BLOCK) {
                    assert_eq!(stops(&text, from), reference(&text, from), "{:?} from {from}", String::from_utf8_lossy(&text));
                }
            }
        }
    }
}
