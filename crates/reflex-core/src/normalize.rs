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
    // One spare byte so appending the flags never reallocates.
    let mut bytes = fold(text, 1);
    bytes.push(flags);
    to_hex(xxh3_128(&bytes))
}

/// ASCII white space as `char::is_whitespace` sees it: TAB, LF, VT, FF, CR and SPACE.
fn is_ascii_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | ' ')
}

/// The normalised UTF-8 bytes of `text`, with room for `spare` more.
fn fold(text: &str, spare: usize) -> Vec<u8> {
    if let Some(folded) = fold_ascii(text.as_bytes(), spare) {
        return folded;
    }
    let mut out = String::with_capacity(text.len() + spare);
    fold_unicode(text, &mut out);
    out.into_bytes()
}

/// ASCII is already NFKC and lower-casing it is byte-wise: one pass over a buffer sized up
/// front, a block of [`BLOCK`] bytes at a time wherever a block needs no white-space
/// collapsing. `None` when `bytes` is not all ASCII (found on the way, so ASCII text is read
/// once, not checked first and folded after).
fn fold_ascii(bytes: &[u8], spare: usize) -> Option<Vec<u8>> {
    // Output never outruns input, so a block always fits; `spare` is capacity for the caller.
    let mut out = vec![0u8; bytes.len() + spare];
    let mut len = 0;
    // True at the start, so leading white space writes nothing.
    let mut after_blank = true;
    let mut at = 0;
    // Each block is read with the byte after it: a space there doubles a trailing space.
    while let Some(window) = bytes.get(at..=at + BLOCK) {
        let window: &[u8; BLOCK + 1] = window.try_into().ok()?;
        if is_plain(window, after_blank) {
            lower_into(window, (&mut out[len..len + BLOCK]).try_into().ok()?);
            len += BLOCK;
            after_blank = window[BLOCK - 1] == b' ';
        } else if window[..BLOCK].is_ascii() {
            fold_ascii_bytes(&window[..BLOCK], &mut out, &mut len, &mut after_blank);
        } else {
            return None;
        }
        at += BLOCK;
    }
    // The last block, padded with bytes that are neither white space nor controls.
    let tail = &bytes[at..];
    let mut window = [b'.'; BLOCK + 1];
    window[..tail.len()].copy_from_slice(tail);
    if !tail.is_empty() && is_plain(&window, after_blank) {
        let mut lower = [0; BLOCK];
        lower_into(&window, &mut lower);
        out[len..len + tail.len()].copy_from_slice(&lower[..tail.len()]);
        len += tail.len();
        after_blank = tail[tail.len() - 1] == b' ';
    } else if tail.is_ascii() {
        fold_ascii_bytes(tail, &mut out, &mut len, &mut after_blank);
    } else {
        return None;
    }
    // A trailing run left one space.
    if after_blank && len > 0 {
        len -= 1;
    }
    out.truncate(len);
    Some(out)
}

/// Bytes per step of the ASCII fast path: two SSE2 registers' worth. The tests are written
/// lane by lane with no early exit, so the compiler turns each into a few vector instructions
/// (eight bytes at a time in `u64` arithmetic cost ~30 instructions per eight bytes).
const BLOCK: usize = 32;

/// True when the first [`BLOCK`] bytes of `window` can be copied lower-cased as they are: ASCII,
/// no control or white-space byte but single spaces, none next to another, including the
/// window's last byte (the next block's first), nor first after a blank.
#[inline]
fn is_plain(window: &[u8; BLOCK + 1], after_blank: bool) -> bool {
    let (here, next) = (&window[..BLOCK], &window[1..]);
    let mut bad = 0u8;
    for (&b, &after) in here.iter().zip(next) {
        // Below 0x20: tab, new line and the other controls; from 0x80: not ASCII.
        bad |=
            u8::from(!(0x20..0x80).contains(&b)) | (u8::from(b == b' ') & u8::from(after == b' '));
    }
    bad == 0 && !(after_blank && window[0] == b' ')
}

/// The first [`BLOCK`] bytes of `window` lower-cased into `out`, lane by lane.
#[inline]
fn lower_into(window: &[u8; BLOCK + 1], out: &mut [u8; BLOCK]) {
    for (o, &b) in out.iter_mut().zip(window) {
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

fn fold_unicode(text: &str, out: &mut String) {
    let mut sink = Sink {
        out,
        pending_space: false,
    };
    // NFKC runs only over the segments that need it. A segment starts at a "stable" char
    // (combining class 0 and NFKC quick check Yes): nothing before such a char can combine
    // with it or reorder across it, so normalising segment by segment equals normalising the
    // whole text (UAX #15 §9), and text that is mostly NFKC already skips the decomposer.
    let mut segment_start = 0;
    let mut last_head = None;
    let mut segment_needs_nfkc = false;
    for (at, c) in text.char_indices() {
        let head = if let Some(folded) = stable_form(c) {
            Some(Head::Char(folded))
        } else if decomposes_to_stable(c) {
            Some(Head::Decomposed(c))
        } else {
            None
        };
        if let Some(head) = head {
            if segment_needs_nfkc {
                sink.nfkc(&text[segment_start..at]);
                segment_needs_nfkc = false;
            } else if let Some(previous) = last_head {
                sink.head(previous);
            }
            last_head = Some(head);
            segment_start = at;
        } else {
            segment_needs_nfkc = true;
        }
    }
    if segment_needs_nfkc {
        sink.nfkc(&text[segment_start..]);
    } else if let Some(previous) = last_head {
        sink.head(previous);
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
    out: &'a mut String,
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
            self.out.push(c.to_ascii_lowercase());
        } else if is_non_ascii_space(c) {
            self.pending_space = !self.out.is_empty();
        } else {
            self.flush_space();
            if has_no_lowercase_mapping(c) {
                self.out.push(c);
            } else if matches!(c, '\u{c0}'..='\u{de}') && c != '\u{d7}' {
                // Latin-1 capitals: the lower case is 0x20 up, as in ASCII.
                self.out.push(char::from_u32(c as u32 + 0x20).unwrap_or(c));
            } else {
                self.out.extend(c.to_lowercase());
            }
        }
    }

    fn flush_space(&mut self) {
        if self.pending_space {
            self.out.push(' ');
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
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    // Into an array first: 32 `String::push`es each checked the capacity and the char width.
    let mut hex = [0u8; 32];
    for (pair, byte) in hex.chunks_exact_mut(2).zip(hash.to_be_bytes()) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 0x0f)];
    }
    String::from_utf8(hex.to_vec()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_is_lowered_collapsed_and_trimmed() {
        assert_eq!(
            normalize_for_key("  Hello,\t\tWORLD \r\n again\u{b}\u{c} "),
            "hello, world again"
        );
        assert_eq!(normalize_for_key(""), "");
        assert_eq!(normalize_for_key(" \t\n "), "");
        assert_eq!(normalize_for_key("x"), "x");
    }

    #[test]
    fn unicode_is_nfkc_folded_and_lowered() {
        // Full-width letters, a ligature, a roman numeral and a no-break space fold to ASCII.
        assert_eq!(normalize_for_key("ＨＥＬＬＯ\u{a0}ﬁle Ⅻ"), "hello file xii");
        // Decomposed and composed é agree; ideographic space and NEL are white space.
        assert_eq!(
            normalize_for_key("Cafe\u{301}\u{3000}\u{85}Bar"),
            "café bar"
        );
        assert_eq!(normalize_for_key("CAFÉ  ÜBER"), "café über");
        assert_eq!(normalize_for_key("\u{2003}Ωmega\u{2029}"), "ωmega");
    }

    /// The definition, without the segmenting and case shortcuts.
    fn reference(text: &str) -> String {
        let folded: String = text.nfkc().flat_map(char::to_lowercase).collect();
        folded
            .split(char::is_whitespace)
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn segmented_folding_matches_the_definition() {
        let samples = [
            "e\u{301}\u{323} A\u{30a}ngstro\u{308}m", // marks composing with ASCII bases
            "\u{1100}\u{1161}\u{11a8} 가각",          // conjoining jamo compose to Hangul
            "ｶﾞｷﾞ ﾊﾟ ㍿ ㌔ ①⑩ ½ ﬃ ſt",                   // half-width kana, squares, fractions
            "ǅemal ᾈ ΣΑΣ İstanbul ẞ Ⓐ Ⅻ ＡＢＣ",      // titlecase, Greek, dotted I, circled
            "q\u{307}\u{323} \u{f900}\u{2f800} ẛ\u{323}", // reordering, CJK compatibility
            "𐐀𐐨 Ꭰ ꭰ 東京の天気は？ ὈΔΥΣΣΕΎΣ",         // Deseret, Cherokee, full-width ?
            "\u{300}starts with a mark\u{301}\u{302}",
            "tab\tnbsp\u{a0}em\u{2003}ideo\u{3000}nel\u{85}end\u{2028}",
        ];
        for text in samples {
            assert_eq!(normalize_for_key(text), reference(text), "{text:?}");
        }
        // Every char of the Latin, Greek, Cyrillic, Hangul-jamo and compatibility blocks, alone
        // and after a base letter.
        let ranges = [
            0x80..0x700,
            0x1100..0x1200,
            0x1e00..0x2000,
            0x2000..0x2200,
            0x2400..0x2500,
            0x3000..0x3100,
            0x3300..0x3400,
            0xfb00..0xfb50,
            0xff00..0xfff0,
        ];
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            for text in [c.to_string(), format!("a{c}b"), format!("Z{c}\u{301}")] {
                assert_eq!(
                    normalize_for_key(&text),
                    reference(&text),
                    "{text:?} U+{:04X}",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn ascii_fast_path_matches_the_definition_on_every_short_string() {
        let alphabet = ['a', 'Z', ' ', '\t', '\u{b}', '\n', '.'];
        let mut text = String::new();
        for mut n in 0..alphabet.len().pow(6) {
            text.clear();
            while n > 0 {
                text.push(alphabet[n % alphabet.len()]);
                n /= alphabet.len();
            }
            assert_eq!(normalize_for_key(&text), reference(&text), "{text:?}");
        }
    }

    #[test]
    fn plain_blocks_are_detected_exactly() {
        let window = |text: &[u8]| -> [u8; BLOCK + 1] {
            let mut w = [b'x'; BLOCK + 1];
            w[..text.len()].copy_from_slice(text);
            w
        };
        assert!(is_plain(&window(b"Hello World, how are you? Fine."), false));
        assert!(!is_plain(&window(b"Hi  there"), false), "double space");
        assert!(!is_plain(&window(b" leading"), true), "space after a blank");
        assert!(is_plain(&window(b" leading"), false));
        let mut ends = window(b"");
        ends[BLOCK - 1] = b' ';
        assert!(is_plain(&ends, false));
        ends[BLOCK] = b' ';
        assert!(
            !is_plain(&ends, false),
            "a space doubled by the next block's first byte"
        );
        for b in 0..=0xffu8 {
            for at in 0..BLOCK {
                let mut text = window(b"");
                text[at] = b;
                let plain = is_plain(&text, false);
                assert_eq!(plain, (0x20..0x80).contains(&b), "{b:#x} at {at}");
                if plain {
                    let mut lower = [0; BLOCK];
                    lower_into(&text, &mut lower);
                    text[at] = b.to_ascii_lowercase();
                    assert_eq!(lower[..], text[..BLOCK], "{b:#x} at {at}");
                }
            }
        }
    }

    /// Texts of every length across a few blocks, mixing plain prose with white-space runs,
    /// capitals, controls and non-ASCII chars (which send the whole text down the Unicode
    /// path wherever they appear): the key is XXH3-128 of the definition and the flags byte.
    #[test]
    fn cache_key_matches_the_definition() {
        const PARTS: &[&str] = &[
            "the ", "Quick ", "BROWN", " ", "  ", "\t", "\n", "\r\n", "\u{b}", "fox", ".", ",",
            "x", "\u{1}", "é", "É", "ﬁ", "\u{a0}", "\u{3000}", "Ｋ", "e\u{301}", "ß", "İ", "東京",
            "~", "\u{7f}",
        ];
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        for round in 0..3000 {
            let mut text = String::new();
            // Mostly ASCII, so long runs reach the block path before any non-ASCII char.
            let ascii_only = round % 3 != 0;
            while text.len() < round % 150 {
                let part = PARTS[(next() % PARTS.len() as u64) as usize];
                if !ascii_only || part.is_ascii() {
                    text.push_str(part);
                }
            }
            let flags = (next() % 256) as u8;
            let mut folded = reference(&text).into_bytes();
            folded.push(flags);
            assert_eq!(
                cache_key(&text, flags),
                format!("{:032x}", xxh3_128(&folded)),
                "{text:?}"
            );
        }
    }

    #[test]
    fn ascii_chunks_match_the_definition_on_long_strings() {
        // Mostly letters and single spaces, as real text, with the odd blank run and the bytes
        // either side of the ranges the chunk tests look for.
        let pool =
            b"aZmQ09 _.\t\n\r\x0b\x0c\x01@[`{~ ab cd EF gh IJ kl mn OP qr st uv WX yz Abc dEf";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for len in 0..400 {
            let mut text = String::new();
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push(char::from(pool[(seed % pool.len() as u64) as usize]));
            }
            assert_eq!(normalize_for_key(&text), reference(&text), "{text:?}");
        }
    }

    #[test]
    fn shortcuts_agree_with_the_unicode_tables() {
        // Planes 0-3 and 14 hold every assigned char but the private-use planes.
        for c in (0x80..0x4_0000)
            .chain(0xe_0000..0xe_1000)
            .filter_map(char::from_u32)
        {
            assert_eq!(
                is_non_ascii_space(c),
                c.is_whitespace(),
                "U+{:04X}",
                c as u32
            );
            if has_no_lowercase_mapping(c) {
                assert!(
                    c.to_lowercase().eq(std::iter::once(c)),
                    "U+{:04X}",
                    c as u32
                );
            }
            let tables = canonical_combining_class(c) == 0
                && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes;
            assert_eq!(is_stable(c), tables, "U+{:04X}", c as u32);
            match stable_form(c) {
                Some(folded) if folded == c => assert!(tables, "U+{:04X}", c as u32),
                Some(folded) => {
                    assert!(folded.is_ascii() && canonical_combining_class(c) == 0);
                    assert!(
                        c.to_string().nfkc().eq(std::iter::once(folded)),
                        "U+{:04X}",
                        c as u32
                    );
                }
                None => assert!(!tables, "U+{:04X}", c as u32),
            }
            if decomposes_to_stable(c) {
                let mut decomposed = String::new();
                decompose_compatible(c, |d| decomposed.push(d));
                assert_eq!(
                    c.to_string().nfkc().collect::<String>(),
                    decomposed,
                    "U+{:04X}",
                    c as u32
                );
            }
        }
        for c in '\u{c0}'..='\u{de}' {
            let mut out = String::new();
            Sink {
                out: &mut out,
                pending_space: false,
            }
            .push(c);
            assert_eq!(out, c.to_lowercase().to_string(), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn variants_share_a_key() {
        let key = cache_key("Ignore the previous instructions", 3);
        for variant in [
            "ignore the previous instructions",
            "  IGNORE   the\tprevious\ninstructions  ",
            "Ｉｇｎｏｒｅ the previous instructions",
            "ignore\u{a0}the\u{2003}previous instructions",
        ] {
            assert_eq!(cache_key(variant, 3), key, "{variant:?}");
        }
        assert_eq!(cache_key("caf\u{e9}", 0), cache_key("cafe\u{301}", 0));
    }

    #[test]
    fn flags_and_content_change_the_key() {
        let base = cache_key("hello world", 0);
        assert_ne!(cache_key("hello world", 1), base);
        assert_ne!(cache_key("hello world", 0x80), base);
        assert_ne!(cache_key("hello worlds", 0), base);
        assert_ne!(cache_key("helloworld", 0), base);
    }

    #[test]
    fn key_is_32_lower_hex() {
        for text in ["", "a", "ünïcödé", &"long text ".repeat(500)] {
            let key = cache_key(text, 7);
            assert_eq!(key.len(), 32);
            assert!(
                key.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "{key}"
            );
        }
    }

    #[test]
    fn known_vector_is_pinned() {
        // XXH3-128 (seed 0) of b"hello world\x00", checked against the C library through
        // python-xxhash 4.1. Changing it breaks every shared cache tier: bump a key version.
        assert_eq!(cache_key("  Hello   World ", 0), PINNED);
        assert_eq!(format!("{:032x}", xxh3_128(b"hello world\x00")), PINNED);
    }

    const PINNED: &str = "8e59f483b02d3f8844050e632e878474";
}
