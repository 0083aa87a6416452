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

use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};
use xxhash_rust::xxh3::xxh3_128;

/// Folds `text` to the form that is hashed: NFKC, lower case, runs of white space collapsed to
/// one space, trimmed.
///
/// White space is Unicode `White_Space` (what [`char::is_whitespace`] says), including the
/// vertical tab, which `u8::is_ascii_whitespace` leaves out.
#[must_use]
pub fn normalize_for_key(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    normalize_into(text, &mut out);
    out
}

/// The cache key of `text` checked with `flags` (a bit set of the check options, so a PII-only
/// check never answers from an entry stored for a full check).
#[must_use]
pub fn cache_key(text: &str, flags: u8) -> String {
    // One spare byte so appending the flags never reallocates.
    let mut folded = String::with_capacity(text.len() + 1);
    normalize_into(text, &mut folded);
    let mut bytes = folded.into_bytes();
    bytes.push(flags);
    to_hex(xxh3_128(&bytes))
}

/// ASCII white space as `char::is_whitespace` sees it: TAB, LF, VT, FF, CR and SPACE.
fn is_ascii_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | ' ')
}

fn normalize_into(text: &str, out: &mut String) {
    if text.is_ascii() {
        // ASCII is already NFKC and lower-casing it is byte-wise, so copy the words and fold
        // the case in place: no per-char decoding.
        for word in text.split(is_ascii_space).filter(|w| !w.is_empty()) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        out.make_ascii_lowercase();
        return;
    }
    let mut pending_space = false;
    let mut emit = |c: char| {
        if c.is_whitespace() {
            // Leading white space is dropped here, trailing white space by never flushing.
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            if c.is_ascii() {
                out.push(c.to_ascii_lowercase());
            } else {
                out.extend(c.to_lowercase());
            }
        }
    };
    // Most non-ASCII text (accents, CJK, emoji) is already NFKC; the quick check is far
    // cheaper than running the decomposer over it.
    if is_nfkc_quick(text.chars()) == IsNormalized::Yes {
        text.chars().for_each(&mut emit);
    } else {
        text.nfkc().for_each(&mut emit);
    }
}

fn to_hex(hash: u128) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(32);
    for byte in hash.to_be_bytes() {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
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
