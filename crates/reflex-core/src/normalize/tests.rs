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
    let is_plain = |window: &[u8; BLOCK + 1], after_blank: bool| {
        let (here, next) = split::<BLOCK>(window).unwrap();
        super::is_plain(here, next, after_blank)
    };
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
                lower_into(split::<BLOCK>(&text).unwrap().0, &mut lower);
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
        "the ", "Quick ", "BROWN", " ", "  ", "\t", "\n", "\r\n", "\u{b}", "fox", ".", ",", "x",
        "\u{1}", "é", "É", "ﬁ", "\u{a0}", "\u{3000}", "Ｋ", "e\u{301}", "ß", "İ", "東京", "~",
        "\u{7f}",
    ];
    let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15_u64);
    for round in 0..3000 {
        let mut text = String::new();
        // Mostly ASCII, so long runs reach the block path before any non-ASCII char.
        let ascii_only = round % 3 != 0;
        // Some around the length where the key stops being folded on the stack.
        let target = if round % 25 == 0 { 2000 + round % 100 } else { round % 300 };
        while text.len() < target {
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

/// A blank run, a control or a capital at every position of texts around one and two blocks
/// long: the block test, its halves and the byte-by-byte fold meet at every edge.
#[test]
fn blanks_at_every_block_edge_match_the_definition() {
    let base = "The Quick brown fox jumps over a lazy dog ".repeat(8);
    for len in [31, 32, 33, 63, 64, 65, 95, 96, 127, 128, 129, 200] {
        for at in 0..=len {
            for insert in [" \n", "\n ", "  ", " \t ", "\n", " ", "\u{1}", "X", " X"] {
                let text = format!("{}{insert}{}", &base[..at], &base[at..len]);
                assert_eq!(normalize_for_key(&text), reference(&text), "{text:?}");
            }
        }
    }
}

#[test]
fn ascii_chunks_match_the_definition_on_long_strings() {
    // Mostly letters and single spaces, as real text, with the odd blank run and the bytes
    // either side of the ranges the chunk tests look for.
    let pool = b"aZmQ09 _.\t\n\r\x0b\x0c\x01@[`{~ ab cd EF gh IJ kl mn OP qr st uv WX yz Abc dEf";
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
fn ascii_runs_inside_unicode_text_match_the_definition() {
    // Text that is not all ASCII folds its ASCII runs a block at a time: runs of every length
    // around the block size, white space of every kind at their ends, and the non-ASCII chars
    // next to them that matter (a combining mark that composes with the run's last letter,
    // Unicode spaces that collapse with ASCII ones, a full-width letter, a ligature).
    let ascii = [
        "word", "The", "  ", " ", "\t", "\n\x0b", "a", "Quick brown fox jumps over the lazy dog. ",
        "x ", " y", "   LONG   runs   OF   blanks   ", "plain text with single spaces only, a whole block of it",
    ];
    let other = ["\u{2014}", "\u{2019}", "\u{a0}", "\u{e9}", "\u{301}", "\u{ff21}", "\u{fb01}", "\u{3000}", "\u{130}", "\u{85}"];
    let mut next = crate::test_rng::xorshift(0x6a09_e667_f3bc_c909);
    for _ in 0..4000 {
        let pieces = 1 + next() % 24;
        let mut text = String::new();
        for _ in 0..pieces {
            let r = next();
            if r.is_multiple_of(3) {
                text.push_str(other[(r / 3 % other.len() as u64) as usize]);
            } else {
                text.push_str(ascii[(r / 3 % ascii.len() as u64) as usize]);
            }
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
        let mut out = Vec::new();
        Sink {
            out: &mut out,
            pending_space: false,
        }
        .push(c);
        assert_eq!(out, c.to_lowercase().to_string().into_bytes(), "U+{:04X}", c as u32);
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

#[test]
fn hex_is_the_formatted_number() {
    let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
    let mut values = vec![0, u128::MAX, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210];
    values.extend((0..2000).map(|_| u128::from(next()) << 64 | u128::from(next())));
    for hash in values {
        assert_eq!(to_hex(hash), format!("{hash:032x}"));
    }
}
