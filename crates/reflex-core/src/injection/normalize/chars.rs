//! Step 1 of `normalize` on a text that is not ASCII: each character dropped, kept or
//! decomposed, into one string with the original span of each of its bytes.
//!
//! The characters that come out are the units of the general path, laid end to end: an ASCII
//! stretch of the original is copied whole, and its spans are consecutive, so the maps are
//! extended from ranges instead of a `Unit` being pushed per byte. Only the characters that are
//! not ASCII go one at a time; curly quotes become the ASCII quotes the fold would make them,
//! and the few that stay non-ASCII (dashes, other scripts) are listed in `wide`, so the later
//! steps find them without reading the text again.

use unicode_normalization::char::decompose_compatible;

use crate::lanes::ascii_len;

use super::{is_spacer, is_word, latin_extra, Unit};

/// The units of a text as a string: byte `i` of `text` comes from original bytes
/// `starts[i]..ends[i]` (every byte of one unit has its unit's span).
pub(super) struct Chars {
    pub text: String,
    pub starts: Vec<u32>,
    pub ends: Vec<u32>,
    /// Where each character of `text` that is not ASCII starts, in order.
    pub wide: Vec<usize>,
    /// Where the last unit starts in `text`: a combining mark may stretch its span.
    last: usize,
}

impl Chars {
    /// The units of `text` (under 4 GiB, as `normalize` requires).
    pub fn of(text: &str) -> Chars {
        let mut out = Chars {
            text: String::with_capacity(text.len()),
            starts: Vec::with_capacity(text.len()),
            ends: Vec::with_capacity(text.len()),
            wide: Vec::new(),
            last: 0,
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let next = i + ascii_len(&bytes[i..]);
            if next > i {
                out.push_ascii(text, i, next);
            }
            let Some(c) = text[next..].chars().next() else { break };
            let end = next + c.len_utf8();
            push_char(&mut out, c, next as u32, end as u32);
            i = end;
        }
        out
    }

    /// The units one by one, for the steps that need them so (joining spaced-out letters).
    pub fn units(&self) -> Vec<Unit> {
        self.text
            .char_indices()
            .map(|(i, ch)| Unit { ch, start: self.starts[i], end: self.ends[i] })
            .collect()
    }

    /// Original bytes `lo..hi`, all ASCII: a unit each, spans consecutive.
    fn push_ascii(&mut self, text: &str, lo: usize, hi: usize) {
        self.text.push_str(&text[lo..hi]);
        // Half-open ranges: an inclusive one (`lo + 1..=hi`) extends with a test per item.
        let (lo, hi) = (lo as u32, hi as u32);
        let (after_lo, after_hi) = (lo + 1, hi + 1);
        self.starts.extend(lo..hi);
        self.ends.extend(after_lo..after_hi);
        self.last = self.text.len() - 1;
    }
}

/// Where `push_char` puts units: a `Vec<Unit>` (text mostly not ASCII) or `Chars`.
pub(super) trait Units {
    fn push(&mut self, ch: char, start: u32, end: u32);
    /// The last unit's character and the end of its span.
    fn last(&self) -> Option<(char, u32)>;
    /// Stretches the last unit's span to end at `end`.
    fn stretch_last(&mut self, end: u32);
}

impl Units for Chars {
    fn push(&mut self, ch: char, start: u32, end: u32) {
        self.last = self.text.len();
        if !ch.is_ascii() {
            self.wide.push(self.last);
        }
        self.text.push(ch);
        for _ in 0..ch.len_utf8() {
            self.starts.push(start);
            self.ends.push(end);
        }
    }

    fn last(&self) -> Option<(char, u32)> {
        let ch = self.text.get(self.last..)?.chars().next()?;
        Some((ch, self.ends[self.last]))
    }

    fn stretch_last(&mut self, end: u32) {
        for e in &mut self.ends[self.last..] {
            *e = end;
        }
    }
}

impl Units for Vec<Unit> {
    fn push(&mut self, ch: char, start: u32, end: u32) {
        Vec::push(self, Unit { ch, start, end });
    }

    fn last(&self) -> Option<(char, u32)> {
        self.as_slice().last().map(|u| (u.ch, u.end))
    }

    fn stretch_last(&mut self, end: u32) {
        if let Some(u) = self.last_mut() {
            u.end = end;
        }
    }
}

/// The ASCII quote the fold gives `c` (`’` → `'`, `“` → `"`), when `c` and the quote are
/// both neither a word character nor a separator, so no step before the fold tells them apart.
fn ascii_quote(c: char) -> Option<char> {
    // Where `latin_extra`'s quotes are: one range test for the other characters. A quote added
    // outside it is still folded right, later, by `fold_words` or `mixed::splice`.
    if !matches!(c, '\u{AB}' | '\u{BB}' | '\u{2018}'..='\u{2033}') {
        return None;
    }
    let q = latin_extra(c)?;
    (q.is_ascii() && !is_word(c) && !is_spacer(c) && !is_word(q) && !is_spacer(q)).then_some(q)
}

/// How many bytes of `bytes` are not ASCII: a byte lane each in a `u64`, summed every 255
/// chunks of eight before a lane can overflow (`filter().count()` cost 2.5 instructions a byte).
pub(super) fn high_bytes(bytes: &[u8]) -> usize {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    // Pairs of lanes into four of sixteen bits (at most 510 each), then those four at once.
    let lane_sum = |x: u64| {
        let pairs = (x & EVEN) + ((x >> 8) & EVEN);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
    };
    let mut n = 0;
    let mut eights = bytes.chunks_exact(8);
    let mut lanes = 0u64;
    for (k, eight) in eights.by_ref().enumerate() {
        lanes += (u64::from_le_bytes(eight.try_into().expect("eight bytes")) & HIGHS) >> 7;
        if k % 255 == 254 {
            n += lane_sum(lanes);
            lanes = 0;
        }
    }
    n + lane_sum(lanes) + eights.remainder().iter().filter(|&&b| b >= 0x80).count()
}

fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}'
        | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{E0000}'..='\u{E007F}')
}

/// Scripts whose letters must stay whole: NFKD would split `й`, `が` or a Hangul syllable.
fn keeps_whole(c: char) -> bool {
    matches!(c,
        '\u{0370}'..='\u{052F}' | '\u{0600}'..='\u{06FF}' | '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}')
}

fn is_mark(c: char) -> bool {
    // Combining diacritics, and the Arabic vowel signs that are optional in writing.
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{064B}'..='\u{065F}' | '\u{0670}')
}

pub(super) fn push_char(out: &mut impl Units, c: char, start: u32, end: u32) {
    if c.is_ascii() {
        out.push(c, start, end);
    } else if is_invisible(c) {
    } else if is_mark(c) {
        // A mark typed separately: drop it but keep it inside the span of its base letter.
        if let Some((last, last_end)) = out.last() {
            if last_end == start && !keeps_whole(last) {
                out.stretch_last(end);
                return;
            }
        }
        if !('\u{0300}'..='\u{036F}').contains(&c) {
            // Arabic vowel signs are dropped wherever they are.
            return;
        }
        out.push(c, start, end);
    } else if keeps_whole(c) {
        out.push(c, start, end);
    } else {
        decompose_compatible(c, |d| {
            if !is_mark(d) {
                // A curly quote folds to an ASCII one, and either sits between words, neither
                // letter nor separator: folded here, it leaves no non-ASCII unit to splice in
                // later (and costs less as a unit of its own).
                out.push(ascii_quote(d).unwrap_or(d), start, end);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::Chars;

    fn spans(c: &Chars) -> Vec<(u32, u32)> {
        c.starts.iter().copied().zip(c.ends.iter().copied()).collect()
    }

    #[test]
    fn ascii_stretches_keep_consecutive_spans() {
        let c = Chars::of("ab — cd");
        assert_eq!(c.text, "ab — cd");
        assert_eq!(c.wide, vec![3]);
        assert_eq!(spans(&c), vec![(0, 1), (1, 2), (2, 3), (3, 6), (3, 6), (3, 6), (6, 7), (7, 8), (8, 9)]);
    }

    #[test]
    fn dropped_decomposed_and_marked_characters() {
        // A zero-width space goes, é becomes e over two bytes, a mark after an ASCII letter
        // stretches that letter's span, ﬁ becomes two units over three bytes.
        let c = Chars::of("a\u{200B}é e\u{301}ﬁ");
        assert_eq!(c.text, "ae efi");
        assert!(c.wide.is_empty());
        assert_eq!(spans(&c), vec![(0, 1), (4, 6), (6, 7), (7, 10), (10, 13), (10, 13)]);
        // A mark after a dropped character has no unit to join, and stays.
        let c = Chars::of("\u{200B}\u{301}x");
        assert_eq!(c.text, "\u{301}x");
        assert_eq!(c.wide, vec![0]);
        // Nor does one after a letter kept whole: й's script is never decomposed.
        assert_eq!(Chars::of("и\u{306}").text, "и\u{306}");
    }

    #[test]
    fn curly_quotes_become_ascii_units() {
        let c = Chars::of("don’t “x”");
        assert_eq!(c.text, "don't \"x\"");
        assert!(c.wide.is_empty());
        assert_eq!(spans(&c)[3], (3, 6));
        assert_eq!(spans(&c)[6..], [(8, 11), (11, 12), (12, 15)]);
        // Letters that fold to ASCII ones stay: a word holding one folds differently.
        assert_eq!(Chars::of("łódź").text, "łodz");
    }

    #[test]
    fn units_are_the_characters_with_their_spans() {
        let c = Chars::of("Zoë—x");
        let units: Vec<_> = c.units().iter().map(|u| (u.ch, u.start, u.end)).collect();
        assert_eq!(units, vec![('Z', 0, 1), ('o', 1, 2), ('e', 2, 4), ('—', 4, 7), ('x', 7, 8)]);
    }

    #[test]
    fn high_bytes_are_counted() {
        for text in ["", "abc", "é", "ab — cd", &"x—é".repeat(900), &"ж".repeat(3000)] {
            let want = text.bytes().filter(|&b| b >= 0x80).count();
            assert_eq!(super::high_bytes(text.as_bytes()), want, "{}", text.len());
        }
    }
}
