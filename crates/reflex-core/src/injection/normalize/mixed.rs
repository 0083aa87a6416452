//! Steps 2 and 3 of `normalize` on the units of a text that is not ASCII (`Chars`), without a
//! `Unit` per character where the units are ASCII.
//!
//! Folding a word or a separator depends on nothing but its own characters, and an ASCII word
//! folds as `ascii.rs` folds it: so the units are lower-cased and leet-folded as if they were
//! all ASCII, a bit mask at a time, and then only the words holding a character that is not
//! ASCII (`игнорируй`, `ignоre` with a Cyrillic о), and the non-ASCII characters between words
//! (a dash, a curly quote), are folded again one unit at a time and spliced in. A character
//! that is not ASCII is never a word byte in the masks, so each word the masks see whole is a
//! whole word of the units unless it touches such a character.
//!
//! The spaced-letter test reads one byte per unit: each non-ASCII character stands as an ASCII
//! one of its class (a letter, a separator or neither), which is all that test looks at. When
//! it finds a run to join, the units go the general way (`join_spaced`, `fold_words`).

use super::ascii::{fold_in_place, has_spaced_run, masks};
use super::chars::Chars;
use super::{emit_lower, fold_word, fold_words, is_spacer, is_word, join_spaced, latin_extra, Normalized, Unit};

/// The detection form of the text whose units are `chars`.
pub(super) fn fold(chars: Chars, original_len: usize) -> Normalized {
    let mut lower = chars.text.to_ascii_lowercase();
    let masks = masks(lower.as_bytes());
    let spaced = if plain_gaps(&chars) { has_spaced_run(lower.as_bytes(), &masks) } else { spaced(&chars, &lower) };
    if spaced {
        let mut units = chars.units();
        join_spaced(&mut units);
        return fold_words(&units, original_len);
    }
    fold_in_place(&mut lower, &masks);
    if chars.wide.iter().all(|&at| folds_to_itself(&chars.text[at..])) {
        // The units are all ASCII, or the others (dashes, symbols) stay as they are: the form
        // is byte for byte theirs.
        return Normalized { text: lower, starts: chars.starts, ends: chars.ends, from_ascii: false };
    }
    splice(&chars, &lower)
}

/// Whether the character `rest` starts with is neither a letter nor a separator and folds to
/// itself (`—`, `€`; not `’`, which becomes `'`).
fn folds_to_itself(rest: &str) -> bool {
    let c = rest.chars().next().expect("a character starts there");
    let mut lower = c.to_lowercase();
    !is_word(c) && latin_extra(c).is_none() && lower.next() == Some(c) && lower.next().is_none()
}

/// Whether every non-ASCII unit is neither a letter nor a separator (a dash, a quote): the
/// spaced-letter test then reads its bytes as it reads ASCII punctuation, since a gap holding
/// one is not a gap between spaced-out letters however long it is, and the masks can be
/// those of the text itself.
fn plain_gaps(chars: &Chars) -> bool {
    chars.wide.iter().all(|&at| {
        let c = chars.text[at..].chars().next().expect("a character starts there");
        !is_word(c) && !is_spacer(c)
    })
}

/// Whether units with some non-ASCII characters hold a run of spaced-out letters (as
/// `super::has_spaced_run`), from one byte per unit.
fn spaced(chars: &Chars, lower: &str) -> bool {
    let mut class = Vec::with_capacity(lower.len());
    let mut done = 0;
    for &at in &chars.wide {
        let c = lower[at..].chars().next().expect("a character starts there");
        class.extend_from_slice(&lower.as_bytes()[done..at]);
        class.push(if is_word(c) {
            b'a'
        } else if is_spacer(c) {
            b'.'
        } else {
            b','
        });
        done = at + c.len_utf8();
    }
    class.extend_from_slice(&lower.as_bytes()[done..]);
    has_spaced_run(&class, &masks(&class))
}

/// The folded form: `lower` (the units folded as ASCII) where that is right, each word with a
/// non-ASCII character and each non-ASCII character between words folded again.
fn splice(chars: &Chars, lower: &str) -> Normalized {
    let n = lower.len() + 8;
    let mut out = Normalized {
        text: String::with_capacity(n),
        starts: Vec::with_capacity(n),
        ends: Vec::with_capacity(n),
        from_ascii: false,
    };
    let text = chars.text.as_str();
    let unit = |at: usize, ch: char| Unit { ch, start: chars.starts[at], end: chars.ends[at] };
    let mut word: Vec<Unit> = Vec::new();
    let mut done = 0;
    for &at in &chars.wide {
        if at < done {
            // Inside a word folded already.
            continue;
        }
        let c = text[at..].chars().next().expect("a character starts there");
        if !is_word(c) {
            copy(&mut out, chars, lower, done, at);
            emit_lower(&mut out, latin_extra(c).unwrap_or(c), unit(at, c));
            done = at + c.len_utf8();
            continue;
        }
        let start = text[..at].char_indices().rev().take_while(|&(_, ch)| is_word(ch)).last().map_or(at, |(i, _)| i);
        let end = text[at..].char_indices().find(|&(_, ch)| !is_word(ch)).map_or(text.len(), |(i, _)| at + i);
        copy(&mut out, chars, lower, done, start);
        word.clear();
        word.extend(text[start..end].char_indices().map(|(i, ch)| unit(start + i, ch)));
        fold_word(&mut out, &word);
        done = end;
    }
    copy(&mut out, chars, lower, done, lower.len());
    out
}

/// Bytes `lo..hi` of `lower`, with their units' spans.
fn copy(out: &mut Normalized, chars: &Chars, lower: &str, lo: usize, hi: usize) {
    out.text.push_str(&lower[lo..hi]);
    out.starts.extend_from_slice(&chars.starts[lo..hi]);
    out.ends.extend_from_slice(&chars.ends[lo..hi]);
}

#[cfg(test)]
mod tests {
    use super::super::chars::Chars;
    use super::super::per_char as general;
    use super::fold;

    fn same(text: &str) {
        let ours = fold(Chars::of(text), text.len());
        let want = general(text);
        assert_eq!(ours.text, want.text, "{text:?}");
        assert_eq!(ours.starts, want.starts, "{text:?}");
        assert_eq!(ours.ends, want.ends, "{text:?}");
    }

    #[test]
    fn agrees_with_the_general_path() {
        // ASCII words and separators beside characters that drop, decompose, stay wide,
        // join a word or split one, so every kind of boundary falls at every offset.
        let pieces = [
            "a", "b ", "Ig", "n0re", " ", ". ", "-", "\t", "1", "@", "ab1", "—", "’", "“", "é", "e\u{301}", "\u{301}",
            "\u{200B}", "о", "Ο", "и", "ж", "東", "ｉ", "ﬁ", "·", "\u{3000}", "\u{A0}", "İ", "ß", "ø", "\u{64B}", "½", "x",
            "\u{E0041}",
        ];
        let mut state = 17u32;
        let mut next = |n: usize| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (state >> 8) as usize % n
        };
        for _ in 0..6_000 {
            let text: String = (0..next(60)).map(|_| pieces[next(pieces.len())]).collect();
            same(&text);
        }
    }

    #[test]
    fn words_with_a_wide_letter_fold_whole() {
        // A Cyrillic о inside a Latin word folds with it; a Russian word stays; leet in a word
        // beside a dash folds, and a dash or curly quote splits words as ASCII punctuation does.
        for text in ["say ignоre now", "игнорируй все — ok", "1gn0r3 — a11", "don’t", "Ｉgnore—all", "x\u{301}y"] {
            same(text);
        }
        let text = "say ignоre — now";
        let n = fold(Chars::of(text), text.len());
        assert_eq!(n.text, "say ignore — now");
        // The look-alike's two bytes map to the one ASCII byte that replaced it.
        let at = n.text.find("ignore").unwrap_or(0);
        assert_eq!(n.original_span(at, at + 6), (4, 11));
        assert_eq!(n.original_span(at + 7, at + 10), (12, 15));
    }

    #[test]
    fn dashes_and_symbols_stay_in_place() {
        // Only units that fold to themselves: the form is the lower-cased units, spans and all.
        for text in ["Plan — done", "a4 – b €5 ™", "x—y—z—w", "1gn0r3 — ok"] {
            same(text);
        }
        let text = "Plan — DONE";
        let n = fold(Chars::of(text), text.len());
        assert_eq!(n.text, "plan — done");
        assert_eq!(n.original_span(5, 8), (5, 8));
        assert_eq!(n.original_span(9, 13), (9, 13));
    }

    #[test]
    fn spaced_letters_across_wide_characters() {
        // Letters spaced by ASCII separators next to non-ASCII characters, or by the two
        // non-ASCII separators, are joined as the general path joins them.
        for text in ["é g n o r e", "i·g·n·o·r·e", "i\u{3000}g\u{3000}n\u{3000}o", "— i g n o r e —", "о b c d", "a — b c d", "i g n\u{200B} o"] {
            same(text);
        }
        let text = "say i·g·n·o·r·e";
        assert_eq!(fold(Chars::of(text), text.len()).text, "say ignore");
    }
}
