//! Cache-key normalisation: texts that differ only in case, Unicode form or white space share
//! one key.
//!
//! CONTRACT: `cache_key(text, flags)` returns 32 lower-case hex characters, stable across
//! processes and releases (the Redis tier is shared by every instance).
//!
//! ```
//! use reflex_core::normalize::{cache_key, normalize_for_key};
//! assert_eq!(normalize_for_key("  Hello\t\n WORLD "), "hello world");
//! assert_eq!(cache_key("Hello world", 0), cache_key("hello   WORLD", 0));
//! assert_ne!(cache_key("hello world", 0), cache_key("hello world", 1));
//! ```
//!
//! The hash is XXH3-128 (seed 0) over the normalised UTF-8 bytes followed by the flags byte.
//! XXH3 is a published, frozen algorithm, so keys survive restarts, other instances and crate
//! upgrades; it is not a defence against chosen collisions, which a cache key does not need
//! (a collision only ever maps two of one caller's own texts to one entry).

use unicode_normalization::char::{canonical_combining_class, decompose_compatible};
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};
use xxhash_rust::xxh3::xxh3_128;

use crate::lanes::ascii_len;

/// Folds `text` to the form that is hashed: NFKC, lower case, runs of white space collapsed to
/// one space, trimmed.
///
/// White space is Unicode `White_Space` (what [`char::is_whitespace`] says), including the
/// vertical tab, which `u8::is_ascii_whitespace` leaves out.
#[must_use]
pub fn normalize_for_key(text: &str) -> String {
    // `fold` writes only whole UTF-8 sequences, so the fallback is never taken.
    String::from_utf8(fold(text, 0))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The cache key of `text` checked with `flags` (a bit set of the check options, so a PII-only
/// check never answers from an entry stored for a full check).
#[must_use]
pub fn cache_key(text: &str, flags: u8) -> String {
    // Folded with one spare byte, so appending the flags never reallocates.
    let mut bytes = if text.len() < SMALL {
        // A request's text is often short and ASCII: folded on the stack, with no allocation (a
        // calloc and a free cost more than zeroing the buffer).
        let mut small = [0u8; SMALL];
        if let Some(len) = fold_ascii_into(text.as_bytes(), &mut small) {
            small[len] = flags;
            return to_hex(xxh3_128(&small[..=len]));
        }
        fold_unicode_bytes(text, 1)
    } else {
        fold(text, 1)
    };
    bytes.push(flags);
    to_hex(xxh3_128(&bytes))
}

/// Texts shorter than this are folded for their key in a buffer on the stack.
const SMALL: usize = 2048;

/// ASCII white space as `char::is_whitespace` sees it: TAB, LF, VT, FF, CR and SPACE.
fn is_ascii_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | ' ')
}

/// The normalised UTF-8 bytes of `text`, with room for `spare` more.
fn fold(text: &str, spare: usize) -> Vec<u8> {
    fold_ascii(text.as_bytes(), spare).unwrap_or_else(|| fold_unicode_bytes(text, spare))
}

/// [`fold_unicode`]'s bytes, with room for `spare` more.
fn fold_unicode_bytes(text: &str, spare: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + spare);
    fold_unicode(text, &mut out);
    out
}

/// ASCII is already NFKC and lower-casing it is byte-wise: one pass over a buffer sized up
/// front, a block of [`BLOCK`] bytes at a time wherever a block needs no white-space
/// collapsing (else each half of it, else byte by byte). `None` when `bytes` is not all ASCII
/// (found on the way, so ASCII text is read once, not checked first and folded after).
fn fold_ascii(bytes: &[u8], spare: usize) -> Option<Vec<u8>> {
    // Output never outruns input, so a block always fits; `spare` is capacity for the caller.
    let mut out = vec![0u8; bytes.len() + spare];
    let len = fold_ascii_into(bytes, &mut out)?;
    out.truncate(len);
    Some(out)
}

/// [`fold_ascii`] into `out` (at least `bytes.len()` long); returns the folded length.
fn fold_ascii_into(bytes: &[u8], out: &mut [u8]) -> Option<usize> {
    let mut len = 0;
    // True at the start, so leading white space writes nothing.
    let mut after_blank = true;
    let mut at = 0;
    // Each block is read with the byte after it: a space there doubles a trailing space.
    while let Some(window) = bytes.get(at..=at + BLOCK) {
        let (here, next) = split::<BLOCK>(window)?;
        if is_plain(here, next, after_blank) {
            lower_into(here, (&mut out[len..len + BLOCK]).try_into().ok()?);
            len += BLOCK;
            after_blank = here[BLOCK - 1] == b' ';
        } else {
            // A line break or a blank run then spoils only its own half.
            for half in [&window[..=HALF], &window[HALF..]] {
                let (here, next) = split::<HALF>(half)?;
                if is_plain(here, next, after_blank) {
                    lower_into(here, (&mut out[len..len + HALF]).try_into().ok()?);
                    len += HALF;
                    after_blank = here[HALF - 1] == b' ';
                } else if here.is_ascii() {
                    fold_ascii_bytes(here, out, &mut len, &mut after_blank);
                } else {
                    return None;
                }
            }
        }
        at += BLOCK;
    }
    // The last block, padded with bytes that are neither white space nor controls.
    let tail = &bytes[at..];
    let mut window = [b'.'; BLOCK + 1];
    window[..tail.len()].copy_from_slice(tail);
    let (here, next) = split::<BLOCK>(&window)?;
    if !tail.is_empty() && is_plain(here, next, after_blank) {
        let mut lower = [0; BLOCK];
        lower_into(here, &mut lower);
        out[len..len + tail.len()].copy_from_slice(&lower[..tail.len()]);
        len += tail.len();
        after_blank = tail[tail.len() - 1] == b' ';
    } else if tail.is_ascii() {
        fold_ascii_bytes(tail, out, &mut len, &mut after_blank);
    } else {
        return None;
    }
    // A trailing run left one space.
    if after_blank && len > 0 {
        len -= 1;
    }
    Some(len)
}

/// Bytes per step of the ASCII fast path: four SSE2 registers' worth. The tests are written
/// lane by lane with no early exit, so the compiler turns each into a few vector instructions
/// (eight bytes at a time in `u64` arithmetic cost ~30 instructions per eight bytes).
const BLOCK: usize = 64;
const HALF: usize = BLOCK / 2;

/// A window of `N + 1` bytes as its first `N` and its last `N`: each byte and the one after it.
fn split<const N: usize>(window: &[u8]) -> Option<(&[u8; N], &[u8; N])> {
    Some((
        window.get(..N)?.try_into().ok()?,
        window.get(1..=N)?.try_into().ok()?,
    ))
}

/// True when `here` can be copied lower-cased as it is: ASCII, no control or white-space byte
/// but single spaces, none followed by another (`next[k]` is the byte after `here[k]`, the last
/// one the next block's first), nor first after a blank.
#[inline]
fn is_plain<const N: usize>(here: &[u8; N], next: &[u8; N], after_blank: bool) -> bool {
    let mut bad = 0u8;
    for (&b, &after) in here.iter().zip(next) {
        // Below 0x20: tab, new line and the other controls; from 0x80: not ASCII.
        bad |=
            u8::from(!(0x20..0x80).contains(&b)) | (u8::from(b == b' ') & u8::from(after == b' '));
    }
    bad == 0 && !(after_blank && here[0] == b' ')
}

/// `here` lower-cased into `out`, lane by lane.
#[inline]
fn lower_into<const N: usize>(here: &[u8; N], out: &mut [u8; N]) {
    for (o, &b) in out.iter_mut().zip(here) {
        *o = b | (u8::from(b.is_ascii_uppercase()) << 5);
    }
}

fn fold_ascii_bytes(bytes: &[u8], out: &mut [u8], len: &mut usize, after_blank: &mut bool) {
    for &b in bytes {
        let blank = is_ascii_space(char::from(b));
        // Each byte lands at `len`; only the first white space of a run advances past it.
        out[*len] = if blank { b' ' } else { b.to_ascii_lowercase() };
        *len += usize::from(!(blank && *after_blank));
        *after_blank = blank;
    }
}

/// The folded form of `text` into `out`, whole UTF-8 sequences only.
fn fold_unicode(text: &str, out: &mut Vec<u8>) {
    let mut sink = Sink {
        out,
        pending_space: false,
    };
    // NFKC runs only over the segments that need it. A segment starts at a "stable" char
    // (combining class 0 and NFKC quick check Yes): nothing before such a char can combine
    // with it or reorder across it, so normalising segment by segment equals normalising the
    // whole text (UAX #15 §9), and text that is mostly NFKC already skips the decomposer.
    let mut open = Open { start: 0, head: None, needs_nfkc: false };
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // A run of ASCII, the bulk of most texts that are not all ASCII (an em dash or a curly
        // quote in English): every ASCII char is stable and its own NFKC, a segment of its own.
        // All but the last go through the ASCII fold; the last stays open, since a combining
        // mark after it composes with it. (Char by char, a 1 KB English text with one em dash
        // cost ~100k instructions, 35 times the same text without it.)
        let run = ascii_len(&bytes[at..]);
        if run > 1 {
            open.close(&mut sink, text, at);
            sink.push_ascii(&bytes[at..at + run - 1]);
            let last = at + run - 1;
            open = Open { start: last, head: Some(Head::Char(char::from(bytes[last]))), needs_nfkc: false };
            at += run;
            continue;
        }
        let Some(c) = text[at..].chars().next() else { break };
        let head = if let Some(folded) = stable_form(c) {
            Some(Head::Char(folded))
        } else if decomposes_to_stable(c) {
            Some(Head::Decomposed(c))
        } else {
            None
        };
        if let Some(head) = head {
            open.close(&mut sink, text, at);
            open = Open { start: at, head: Some(head), needs_nfkc: false };
        } else {
            open.needs_nfkc = true;
        }
        at += c.len_utf8();
    }
    open.close(&mut sink, text, text.len());
}

/// The segment being read: where it starts, its head (the char it starts with) and whether
/// anything after the head needs NFKC.
struct Open {
    start: usize,
    head: Option<Head>,
    needs_nfkc: bool,
}

impl Open {
    /// Writes the segment, which ends at `end`: NFKC of its text, or its head alone.
    fn close(&self, sink: &mut Sink, text: &str, end: usize) {
        if self.needs_nfkc {
            sink.nfkc(&text[self.start..end]);
        } else if let Some(head) = self.head {
            sink.head(head);
        }
    }
}

/// The char a segment starts with, and its NFKC when nothing follows it in the segment.
#[derive(Clone, Copy)]
enum Head {
    /// NFKC is this one char.
    Char(char),
    /// NFKC is the compatibility decomposition of this char (ligatures, roman numerals,
    /// circled digits, squared words): every char of it is stable, so nothing composes.
    Decomposed(char),
}

/// A starter whose full compatibility decomposition is all stable chars: it can start a
/// segment (its first char composes with nothing before it) and, alone, normalises to that
/// decomposition without running the composer.
fn decomposes_to_stable(c: char) -> bool {
    if canonical_combining_class(c) != 0 {
        return false;
    }
    let mut all_stable = true;
    let mut count = 0;
    decompose_compatible(c, |d| {
        all_stable &= is_stable(d);
        count += 1;
    });
    all_stable && count > 0
}

/// `Some(NFKC of c)` when `c` starts a segment: it is stable, or its NFKC is one stable ASCII
/// char (full-width ASCII, the compatibility spaces), the commonest reasons for text not to be
/// NFKC already. The segment itself is still normalised from the original text, so a
/// combining mark after such a char composes exactly as NFKC says.
fn stable_form(c: char) -> Option<char> {
    // Cheap range tests before the table look-ups.
    if is_stable_range(c) {
        Some(c)
    } else if matches!(c, '\u{ff01}'..='\u{ff5e}') {
        char::from_u32(c as u32 - 0xfee0)
    } else if is_stable_by_tables(c) {
        Some(c)
    } else if is_non_ascii_space(c) {
        Some(' ')
    } else {
        None
    }
}

fn is_stable(c: char) -> bool {
    is_stable_range(c) || is_stable_by_tables(c)
}

/// Ranges known stable, which skip two table look-ups: ASCII, Latin-1 letters, kana, CJK
/// ideographs and Hangul syllables.
fn is_stable_range(c: char) -> bool {
    matches!(
        c,
        '\0'..='\u{7f}'
            | '\u{c0}'..='\u{ff}'
            | '\u{3041}'..='\u{3096}'
            | '\u{30a1}'..='\u{30fa}'
            | '\u{4e00}'..='\u{9fff}'
            | '\u{ac00}'..='\u{d7a3}'
    )
}

fn is_stable_by_tables(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes
}

/// `char::is_whitespace` for non-ASCII chars, spelled out: the `White_Space` set has been
/// fixed since Unicode 6.3 and a `match` beats the table look-up on the hot path.
fn is_non_ascii_space(c: char) -> bool {
    matches!(
        c,
        '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// Lower-cases and collapses white space into `out` as chars arrive.
struct Sink<'a> {
    out: &'a mut Vec<u8>,
    pending_space: bool,
}

impl Sink<'_> {
    fn head(&mut self, head: Head) {
        match head {
            Head::Char(c) => self.push(c),
            Head::Decomposed(c) => decompose_compatible(c, |d| self.push(d)),
        }
    }

    fn nfkc(&mut self, segment: &str) {
        segment.nfkc().for_each(|c| self.push(c));
    }

    fn push(&mut self, c: char) {
        if c.is_ascii() {
            if is_ascii_space(c) {
                // Leading white space is dropped here, trailing white space by never flushing.
                self.pending_space = !self.out.is_empty();
                return;
            }
            self.flush_space();
            self.out.push(c.to_ascii_lowercase() as u8);
        } else if is_non_ascii_space(c) {
            self.pending_space = !self.out.is_empty();
        } else {
            self.flush_space();
            if has_no_lowercase_mapping(c) {
                self.push_char(c);
            } else if matches!(c, '\u{c0}'..='\u{de}') && c != '\u{d7}' {
                // Latin-1 capitals: the lower case is 0x20 up, as in ASCII.
                self.push_char(char::from_u32(c as u32 + 0x20).unwrap_or(c));
            } else {
                c.to_lowercase().for_each(|l| self.push_char(l));
            }
        }
    }

    fn push_char(&mut self, c: char) {
        self.out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    }

    /// `push` of each char of `run` (ASCII), through the ASCII fast path's fold (which trims
    /// and collapses as `push` does), with the white space at its ends carried over.
    fn push_ascii(&mut self, run: &[u8]) {
        let (Some(&first), Some(&last)) = (run.first(), run.last()) else { return };
        if is_ascii_space(char::from(first)) {
            self.pending_space = !self.out.is_empty();
        }
        let start = self.out.len();
        self.out.resize(start + run.len(), 0);
        let len = fold_ascii_into(run, &mut self.out[start..]).unwrap_or(0);
        self.out.truncate(start + len);
        if len > 0 && self.pending_space {
            self.out.insert(start, b' ');
            self.pending_space = false;
        }
        if is_ascii_space(char::from(last)) {
            self.pending_space = !self.out.is_empty();
        }
    }

    fn flush_space(&mut self) {
        if self.pending_space {
            self.out.push(b' ');
            self.pending_space = false;
        }
    }
}

/// A cheap test that skips `char::to_lowercase` (a table search) for the commonest non-ASCII
/// chars: letters already lower case, and the caseless kana, CJK and Hangul blocks.
fn has_no_lowercase_mapping(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{9fff}' | '\u{ac00}'..='\u{d7a3}') || c.is_lowercase()
}

fn to_hex(hash: u128) -> String {
    // Eight bytes at a time as sixteen nibbles in a `u128`, one per byte, turned into digits
    // all at once: ~60 instructions where a table lookup per nibble took ~250.
    let (high, low) = ((hash >> 64) as u64, hash as u64);
    let mut hex = [0u8; 32];
    hex[..16].copy_from_slice(&hex_digits(high).to_be_bytes());
    hex[16..].copy_from_slice(&hex_digits(low).to_be_bytes());
    String::from_utf8(hex.to_vec()).unwrap_or_default()
}

/// The sixteen lower-case hex digits of `x`, most significant first from the top byte.
fn hex_digits(x: u64) -> u128 {
    const fn bytes(b: u8) -> u128 {
        u128::from_ne_bytes([b; 16])
    }
    // Each byte of `x` into its own 16-bit lane, then its high nibble into the lane's upper
    // byte and its low nibble into the lower one.
    let mut v = u128::from(x);
    v = (v | v << 32) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    v = (v | v << 16) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    v = (v | v << 8) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    v = (v | v << 4) & bytes(0x0f);
    // '0' + n, and 'a' - '0' - 10 more where n > 9 (n + 6 carries into bit 4); no byte
    // overflows into the next.
    let letters = ((v + bytes(6)) >> 4) & bytes(1);
    v + bytes(b'0') + letters * u128::from(b'a' - b'0' - 10)
}

#[cfg(test)]
mod tests;
