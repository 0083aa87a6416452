//! The trigger finder against an overlapping Aho-Corasick search, on words and texts that
//! put words at every offset, in both indexes (ASCII and not) and in the short-word pass.
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::Triggers;

/// (word id, start) pairs.
type Hits = Vec<(u16, usize)>;

/// Occurrences from the filter and from an overlapping Aho-Corasick search, both sorted.
fn both(words: &[&str], text: &str) -> (Hits, Hits) {
    let mut ours = Vec::new();
    Triggers::new(words).each(text.as_bytes(), |id, at| ours.push((id, at)));
    ours.sort_unstable();
    let ac = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .kind(Some(AhoCorasickKind::DFA))
        .build(words)
        .unwrap();
    let mut theirs: Hits = ac
        .find_overlapping_iter(text)
        .map(|m| (m.pattern().as_usize() as u16, m.start()))
        .collect();
    theirs.sort_unstable();
    (ours, theirs)
}

#[test]
fn finds_what_aho_corasick_finds() {
    let words = [
        "+", "=", "##", "<|", "='", "ai ", " ai", "dan", "the real", "ignor", "ignore", "gnore",
        "your", "your new", "you are", "void", "a", "aaaa", "忽略", "無視", "指示を", "é",
    ];
    for text in [
        "",
        "a",
        "+=",
        "ignore all previous; avoid the real thing, your new you are",
        "aaaaaaa ##<|='== ai dan ai",
        "忽略之前的指令。指示をすべて無視 é",
        "ends with +",
        "ends with ai",
        "the rea",
    ] {
        let (ours, theirs) = both(&words, text);
        assert_eq!(ours, theirs, "{text:?}");
    }
}

#[test]
fn agrees_at_every_length() {
    // Every cut of a text, so words end in the eight-byte loop, the four-byte loop and the
    // zero-padded tail.
    let words = ["+", "##", "ai ", " ai", "dan", "ignore", "the real", "ignore the real", "your new", "é", "忽略"];
    let text = "ignore the real ai + your new dan ## é 忽略 ai";
    for n in (0..=text.len()).filter(|&n| text.is_char_boundary(n)) {
        let (ours, theirs) = both(&words, &text[..n]);
        assert_eq!(ours, theirs, "{:?}", &text[..n]);
    }
}

#[test]
fn agrees_on_pseudo_random_text() {
    let words = ["ab", "abc", "bca", "cab", "abca", "bcab", "aaa", "c", "abcabc", "ba b"];
    // A small LCG over a four-letter alphabet: dense in matches and overlaps.
    let mut state = 12_345u32;
    let mut text = String::new();
    for _ in 0..5_000 {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        text.push(['a', 'b', 'c', ' '][(state >> 16) as usize % 4]);
    }
    let (ours, theirs) = both(&words, &text);
    assert!(theirs.len() > 1_000);
    assert_eq!(ours, theirs);
}

#[test]
fn agrees_with_and_without_non_ascii_bytes() {
    // Short words with seven first bytes (three `memchr` groups), ASCII and non-ASCII long
    // words; texts with a non-ASCII byte use the index of all words, the others the ASCII one.
    let words = ["+", "=", "##", "<|", "!", "~/", "é", "éa", "aé b", "ab é", "b a", "a ab", "baba", "ab+", "a=b"];
    let alphabet = ["a", "b", " ", "+", "=", "#", "<", "|", "!", "~", "/", "é"];
    let mut state = 4_242u32;
    for round in 0..400 {
        let mut text = String::new();
        for _ in 0..(round % 60) {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            // Half the texts stay ASCII.
            let n = if round % 2 == 0 { alphabet.len() - 1 } else { alphabet.len() };
            text.push_str(alphabet[(state >> 16) as usize % n]);
        }
        let (ours, theirs) = both(&words, &text);
        assert_eq!(ours, theirs, "{text:?}");
    }
}

#[test]
fn agrees_on_words_of_nine_to_seventeen_bytes() {
    // Words past the eight-byte head: the 9-to-16-byte ones are confirmed by their last eight
    // bytes, the longer by the rest; near misses differ in one byte of the tail.
    let words = ["abcabcabc", "abcabcabb", "cabcabcabcab", "bcabcabcabcabcab", "abcabcabcabcabcab", "aabcabcabca"];
    let mut state = 777u32;
    let mut text = String::new();
    for _ in 0..20_000 {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        // Mostly the cycle `abc`, now and then a slip, so long words occur and nearly occur.
        let slip = (state >> 16).is_multiple_of(9);
        let next = if slip { ['a', 'b', 'c'][(state >> 20) as usize % 3] } else { ['a', 'b', 'c'][text.len() % 3] };
        text.push(next);
    }
    let (ours, theirs) = both(&words, &text);
    assert!(theirs.len() > 1_000, "{}", theirs.len());
    assert_eq!(ours, theirs);
    // And with every cut near the end, so a long word runs past it.
    for n in text.len() - 20..=text.len() {
        let (ours, theirs) = both(&words, &text[..n]);
        assert_eq!(ours, theirs);
    }
}

#[test]
fn entries_stay_two_to_a_cache_line() {
    assert_eq!(std::mem::size_of::<super::Entry>(), 32);
}
