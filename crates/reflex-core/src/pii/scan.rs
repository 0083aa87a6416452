//! Byte-level helpers shared by the detectors: character classes, boundary rules and a cheap
//! "is this keyword just before the candidate?" lookup. Every detector works on `&[u8]` and only
//! ever starts or ends a match on an ASCII byte, so offsets always fall on char boundaries.

use crate::lanes;

use super::{PiiKind, PiiMatch};

/// Shorthand for building a match.
#[inline]
pub(crate) fn hit(kind: PiiKind, start: usize, end: usize, confidence: f32) -> PiiMatch {
    PiiMatch { kind, start, end, confidence }
}

/// Reads up to `N` digits, each optionally separated from the next group by one byte of `seps`;
/// the separator must be the same every time. Returns the digits (as values), the group lengths
/// and the end offset. Stops before a separator that is not followed by a digit.
pub(crate) struct DigitRun<const N: usize> {
    pub digits: [u8; N],
    pub len: usize,
    pub groups: [u8; 8],
    pub ngroups: usize,
    pub sep: u8,
    pub end: usize,
    /// True when more digits followed than `N` allowed (the number is longer than wanted).
    pub overflow: bool,
}

pub(crate) fn read_digits<const N: usize>(b: &[u8], start: usize, seps: &[u8]) -> DigitRun<N> {
    let mut d = DigitRun { digits: [0; N], len: 0, groups: [0; 8], ngroups: 0, sep: 0, end: start, overflow: false };
    let mut i = start;
    loop {
        let g0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if d.len == N {
                d.overflow = true;
                return d;
            }
            d.digits[d.len] = b[i] - b'0';
            d.len += 1;
            i += 1;
        }
        if i == g0 || d.ngroups == d.groups.len() {
            d.overflow = d.ngroups == d.groups.len();
            return d;
        }
        d.groups[d.ngroups] = (i - g0) as u8;
        d.ngroups += 1;
        d.end = i;
        let s = at(b, i);
        if seps.contains(&s) && (d.sep == 0 || d.sep == s) && at(b, i + 1).is_ascii_digit() {
            d.sep = s;
            i += 1;
        } else {
            return d;
        }
    }
}

/// Byte classes for the main scan: one table load per byte instead of a chain of comparisons.
pub(crate) const WORD: u8 = 1;
pub(crate) const TRIGGER: u8 = 2;
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = if b.is_ascii_alphanumeric() || b == b'_' {
            WORD
        } else if matches!(b, b'@' | b'=' | b':' | b'-' | b'+' | b'(') {
            TRIGGER
        } else {
            0
        };
        c += 1;
    }
    t
};

/// `[A-Za-z0-9_]`: the bytes the main scanner treats as one word.
#[inline]
pub(crate) fn is_word(c: u8) -> bool {
    CLASS[usize::from(c)] == WORD
}

/// Byte at `i`, or 0 past the end (0 is in no class the detectors look for).
#[inline]
pub(crate) fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// Length of the run of bytes from `i` that satisfy `f`, looking at no more than `max` bytes.
#[inline]
pub(crate) fn run_len(b: &[u8], i: usize, max: usize, f: impl Fn(u8) -> bool) -> usize {
    b.get(i..).map_or(0, |s| s.iter().take(max).take_while(|&&c| f(c)).count())
}

/// True when position `i` continues a larger token, e.g. the `4567` in `123-4567-89` or in
/// `a.4567`: numbers found there are fragments (GUIDs, versions, order numbers), not PII.
#[inline]
pub(crate) fn inside_cluster(b: &[u8], i: usize) -> bool {
    if i == 0 {
        return false;
    }
    let prev = b[i - 1];
    // After `+` the phone detector owns the number (`+0 415…` is no number at all).
    if is_word(prev) || prev == b'+' {
        return true;
    }
    // After `:` only a digit makes a fragment (`10:30`, `db8:1`): `card:4111…`, `ip:10.0.0.1`
    // and `SSN:078-05-1120` are labels followed by the value.
    i >= 2
        && match prev {
            b'-' | b'/' | b'.' | b',' | b'#' => b[i - 2].is_ascii_alphanumeric(),
            b':' => b[i - 2].is_ascii_digit(),
            _ => false,
        }
}

/// True when `end` is a clean right edge for a number: not followed by a word byte, nor by a
/// separator that carries on with more digits (`1.2.3.4` `.5`, `555-1234` `-99`).
#[inline]
pub(crate) fn clean_end(b: &[u8], end: usize) -> bool {
    let next = at(b, end);
    if is_word(next) {
        return false;
    }
    !(matches!(next, b'-' | b'.' | b'/' | b':') && at(b, end + 1).is_ascii_digit())
}

/// Looks for one of `words` (lowercase ASCII, at most 32 of them) in the `window` bytes before
/// `pos`, starting on a word boundary. Case-insensitive. The detectors' fixed lists are
/// [`Keywords`] constants, whose first-letter table is built at compile time.
#[cfg(test)]
pub(crate) fn keyword_before(b: &[u8], pos: usize, window: usize, words: &'static [&'static [u8]]) -> bool {
    Keywords::new(words).before(b, pos, window)
}

/// A list of context keywords with, per first letter, which of them start with it.
pub(crate) struct Keywords {
    words: &'static [&'static [u8]],
    /// Bit n of `firsts[l]` set when keyword n starts with letter l: most word starts have none.
    firsts: [u32; 26],
}

impl Keywords {
    /// `words`: lowercase ASCII, each starting with a letter, at most 32 of them.
    pub(crate) const fn new(words: &'static [&'static [u8]]) -> Self {
        assert!(words.len() <= 32);
        let mut firsts = [0u32; 26];
        let mut n = 0;
        while n < words.len() {
            assert!(words[n][0].is_ascii_lowercase());
            firsts[(words[n][0] - b'a') as usize] |= 1 << n;
            n += 1;
        }
        Keywords { words, firsts }
    }

    /// Whether one of the words is in the `window` bytes before `pos`, starting on a word
    /// boundary, in any case. Finds the word starts of the window from a mask of its letters,
    /// sixteen bytes per compare, and compares only the keywords with a start's first letter.
    pub(crate) fn before(&self, b: &[u8], pos: usize, window: usize) -> bool {
        let from = pos.saturating_sub(window);
        let mut after_letter = from > 0 && b[from - 1].is_ascii_alphabetic();
        let mut chunk = from;
        while chunk < pos {
            let len = (pos - chunk).min(64);
            let letters = letter_mask(&b[chunk..chunk + len]);
            let mut starts = letters & !(letters << 1 | u64::from(after_letter));
            while starts != 0 {
                let k = chunk + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let mut candidates = self.firsts[usize::from((b[k] | 0x20) - b'a')];
                let rest = &b[k..pos];
                while candidates != 0 {
                    let w = self.words[candidates.trailing_zeros() as usize];
                    candidates &= candidates - 1;
                    if rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w) {
                        return true;
                    }
                }
            }
            after_letter = letters >> (len - 1) & 1 == 1;
            chunk += len;
        }
        false
    }
}

/// Bit `k` set when `bytes[k]` (at most 64 of them) is an ASCII letter.
fn letter_mask(bytes: &[u8]) -> u64 {
    let mut padded = [0u8; 64];
    padded[..bytes.len()].copy_from_slice(bytes);
    lanes::mask64(&padded, lanes::letters)
}

/// The word (letters only, lowercased into `buf`) that ends just before `pos`, skipping spaces
/// and simple punctuation; used for "version 1.2.3.4", "order 555-1234" and similar.
pub(crate) fn prev_word<'a>(b: &[u8], pos: usize, buf: &'a mut [u8; 16]) -> &'a [u8] {
    let mut j = pos;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b':' | b'#' | b'=') {
        j -= 1;
    }
    let end = j;
    while j > 0 && b[j - 1].is_ascii_alphabetic() && end - j < buf.len() {
        j -= 1;
    }
    let w = &b[j..end];
    for (d, s) in buf.iter_mut().zip(w) {
        *d = s.to_ascii_lowercase();
    }
    &buf[..w.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_before_needs_a_word_boundary() {
        let t = b"please call me at ";
        assert!(keyword_before(t, t.len(), 32, &[b"call"]));
        let t = b"recall that ";
        assert!(!keyword_before(t, t.len(), 32, &[b"call"]));
        let t = b"PHONE: ";
        assert!(keyword_before(t, t.len(), 32, &[b"phone"]));
    }

    /// `keyword_before` as it was: a byte loop over the window.
    fn keyword_before_by_bytes(b: &[u8], pos: usize, window: usize, words: &[&[u8]]) -> bool {
        let from = pos.saturating_sub(window);
        let mut after_letter = from > 0 && b[from - 1].is_ascii_alphabetic();
        for k in from..pos {
            let letter = b[k].is_ascii_alphabetic();
            if letter && !after_letter && words.iter().any(|w| b[k..pos].len() >= w.len() && b[k..k + w.len()].eq_ignore_ascii_case(w)) {
                return true;
            }
            after_letter = letter;
        }
        false
    }

    #[test]
    fn keyword_before_matches_the_byte_loop() {
        let words: &[&[u8]] = &[b"call", b"phone", b"text me", b"dob", b"z"];
        let pool: &[&[u8]] = &[b"call", b"CALL", b"recall", b"phone", b"text", b" ", b"me", b"dob", b"z", b"1", b"@", b"\xc3\xa9", b"-", b"xx"];
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut text = Vec::new();
            for _ in 0..next() % 40 {
                text.extend_from_slice(pool[(next() % pool.len() as u64) as usize]);
            }
            for pos in 0..=text.len() {
                let window = [0, 1, 16, 40, 64, 65, 200][(next() % 7) as usize];
                assert_eq!(
                    keyword_before(&text, pos, window, words),
                    keyword_before_by_bytes(&text, pos, window, words),
                    "{:?} {pos} {window}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    #[test]
    fn inside_cluster_sees_fragments() {
        assert!(inside_cluster(b"a456-4266", 5));
        assert!(!inside_cluster(b"x -4266", 3));
        assert!(inside_cluster(b"v1.2", 3));
        assert!(!inside_cluster(b"at 12", 3));
    }

    #[test]
    fn prev_word_skips_punctuation() {
        let mut buf = [0u8; 16];
        assert_eq!(prev_word(b"Version: ", 9, &mut buf), b"version");
        assert_eq!(prev_word(b"order #", 7, &mut buf), b"order");
    }
}
