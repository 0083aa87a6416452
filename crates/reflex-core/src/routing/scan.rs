//! The one pass of [`Signals::scan`]: block by block, on masks of the block's bytes.

use super::classes::{self, word_len, Block, BLOCK, CLASSES, CLAUSE, CLAUSE_SHIFT, MARK, NEWLINE, OTHER_CLASS, SPACE, STOP, WINDOW};
use super::keywords::{classify, classify_head, may_stand_alone};
use super::{list_marker, Phrase, Signals};

impl Signals {
    /// Goes block by block: masks of the block's bytes say where words start and where the few
    /// other bytes that count are, so the bytes between are never looked at one by one. A
    /// block's other bytes are sorted first, up to a line break; then its words are read, most
    /// of them skipped on their first four letters; then its full stops are counted on masks.
    pub(super) fn scan(text: &str) -> Signals {
        let bytes = text.as_bytes();
        let mut s = Signals {
            bytes: bytes.len(),
            ..Signals::default()
        };
        let mut open_sentence = false;
        let mut phrase = Phrase::None;
        let mut i = s.line_start(bytes, 0, &mut open_sentence);
        // 1 when the byte before `i` is a word byte: the block before ended inside a word, which
        // was read whole there.
        let mut inside_word = 0;
        'blocks: while i < bytes.len() {
            // The block and the 16 bytes after it (spaces past the end of the text).
            let rest = &bytes[i..];
            let padded;
            let window = if let Some(window) = rest.first_chunk::<WINDOW>() {
                window
            } else {
                let mut spaces = [b' '; WINDOW];
                spaces[..rest.len()].copy_from_slice(rest);
                padded = spaces;
                &padded
            };
            let mut block = classes::block(window);
            // The other bytes by class, one mask each, with no branch on what a byte is: its
            // class indexes the mask its bit goes to.
            let mut by_class = [0u64; CLASSES];
            let mut entries = 0;
            let mut others = block.others;
            while others != 0 {
                let k = others.trailing_zeros() as usize & (BLOCK - 1);
                others &= others - 1;
                let entry = OTHER_CLASS[usize::from(window[k])];
                entries += u32::from(entry);
                by_class[usize::from(entry) & (CLASSES - 1)] |= 1 << k;
            }
            let mut clauses = entries >> CLAUSE_SHIFT;
            // The first line break ends the block: what follows it is read from the next line's
            // start. (Rare in prose, so this branch is learnt.)
            let mut newline = BLOCK;
            let mut below_newline = u64::MAX;
            if by_class[NEWLINE] != 0 {
                newline = by_class[NEWLINE].trailing_zeros() as usize;
                below_newline = (1 << newline) - 1;
                clauses -= (by_class[CLAUSE] & !below_newline).count_ones();
            }
            s.clauses += clauses;
            // `'` and `_` are word bytes the lanes left among the others.
            block.words |= by_class[MARK] & below_newline;
            let words = block.words;
            let starts = words & !(words << 1 | inside_word) & below_newline;
            phrase = s.words(phrase, &block, window, starts, &bytes[i..]);
            // Then the full stops that white space follows (past the text's end the window
            // holds spaces).
            let spaces = block.spaces | by_class[SPACE] | by_class[NEWLINE];
            let space_at_end = u64::from(usize::from(OTHER_CLASS[usize::from(window[BLOCK])]) & (CLASSES - 1) >= SPACE);
            let ends = by_class[STOP] & below_newline & (spaces >> 1 | space_at_end << (BLOCK - 1));
            let (sentences, open) = sentence_ends(starts, ends, open_sentence);
            s.sentences += sentences;
            open_sentence = open;
            if newline < BLOCK {
                inside_word = 0;
                i = s.line_start(bytes, i + newline + 1, &mut open_sentence);
                continue 'blocks;
            }
            inside_word = words >> (BLOCK - 1);
            i += BLOCK;
        }
        if open_sentence {
            s.sentences += 1;
        }
        s
    }

    /// Reads the words of a block that start at `starts`, with `phrase` open before the first;
    /// returns what the last leaves open. `text`: the text from the block's start.
    fn words(&mut self, mut phrase: Phrase, block: &Block, window: &[u8; WINDOW], starts: u64, text: &[u8]) -> Phrase {
        let words = block.words;
        // `all`: the starts not passed yet; `left`: those of words of three bytes or more (or
        // running on past the block), the only ones that can be keywords that stand alone.
        let mut all = starts;
        let mut left = starts & (words >> 1) & (words >> 2) | starts & 0b11 << (BLOCK - 2);
        loop {
            // Right after a phrase's first half or a sequence word, the next word counts
            // whatever it is (it may be in a later block).
            while phrase != Phrase::None {
                if all == 0 {
                    return phrase;
                }
                let k = all.trailing_zeros() as usize;
                all &= all - 1;
                phrase = self.read(phrase, window, words, k, &text[k..]);
            }
            left &= all;
            // Otherwise most words are skipped on their first four letters: only the keywords
            // that stand alone count.
            if left == 0 {
                return phrase;
            }
            let k = loop {
                let k = left.trailing_zeros() as usize & (BLOCK - 1);
                left &= !(1 << k);
                if may_stand_alone(u32::from_le_bytes(block.letters[k..k + 4].try_into().unwrap_or_default())) {
                    break k;
                }
                if left == 0 {
                    return phrase;
                }
            };
            phrase = self.read(Phrase::None, window, words, k, &text[k..]);
            all = starts & (u64::MAX - 1) << k;
        }
    }

    /// Reads the word at `k` in the block whose word bytes are `words` (`text`: the text from
    /// that word on) and counts it, read while `phrase` was open; returns what it leaves open.
    /// Its length comes from the mask, or from the text when it reaches the block's end. Out of
    /// line: a few words a block get here, and the block's loops keep their registers.
    #[inline(never)]
    fn read(&mut self, phrase: Phrase, window: &[u8; WINDOW], words: u64, k: usize, text: &[u8]) -> Phrase {
        let k = k & (BLOCK - 1);
        let len = (!(words >> k)).trailing_zeros() as usize;
        let word = if k + len < BLOCK {
            classify_head(window[k..k + 16].try_into().unwrap_or(&[0; 16]), len)
        } else {
            classify(text, word_len(text))
        };
        self.note(word, phrase)
    }

    /// At the start of a line (`from`): skips the indent, counts a list marker or a code fence
    /// there, and returns where the scan goes on.
    fn line_start(&mut self, bytes: &[u8], from: usize, open_sentence: &mut bool) -> usize {
        let indent = bytes[from..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let i = from + indent;
        if let Some(marker_len) = list_marker(&bytes[i..]) {
            // A new item ends the previous one even without a full stop.
            self.sentences += u32::from(*open_sentence);
            *open_sentence = false;
            self.list_items += 1;
            return i + marker_len;
        }
        if bytes[i..].starts_with(b"```") || bytes[i..].starts_with(b"~~~") {
            self.code_fences += 1;
            return i + 3;
        }
        i
    }
}

/// Of the full stops `ends` (each followed by white space), how many end a sentence, and
/// whether a sentence is open at the block's end, when `open` says whether one was at its start.
/// A stop ends a sentence when a word started since the stop before it (or, for the first, since
/// the block's start while a sentence was open): when the nearest of the `starts` and `ends`
/// before it is a start. One addition finds them all, with no branch on the text: adding one
/// at the bit after each start (and at bit 0 for `open`) to the bits that are neither starts nor
/// ends, each carry runs up to the next start or end and sets its bit, so an end is set when
/// a start (or `open`) comes right before it; a carry out of the top bit leaves a sentence open.
fn sentence_ends(starts: u64, ends: u64, open: bool) -> (u32, bool) {
    let between = !(starts | ends);
    let sum = u128::from(between) + (u128::from(starts) << 1) + u128::from(open);
    ((sum as u64 & ends).count_ones(), sum >> BLOCK != 0)
}

#[cfg(test)]
mod tests {
    use super::sentence_ends;

    /// The loop `sentence_ends` replaces: each stop in turn, with the starts since the last one
    /// counted.
    fn by_loop(starts: u64, mut ends: u64, open: bool) -> (u32, bool) {
        let (mut carried, mut since, mut count) = (open, u64::MAX, 0);
        while ends != 0 {
            let k = ends.trailing_zeros();
            ends &= ends - 1;
            if carried || starts & since & ((1 << k) - 1) != 0 {
                count += 1;
                carried = false;
                since = u64::MAX.checked_shl(k + 1).unwrap_or(0);
            }
        }
        (count, carried || starts & since != 0)
    }

    #[test]
    fn the_sum_counts_like_the_loop() {
        let mut next = crate::test_rng::xorshift(0x1234_5678_9abc_def1_u64);
        for round in 0..200_000 {
            // Sparse and dense masks, starts and stops never on the same byte.
            let (a, b) = (next(), next());
            let (starts, ends) = match round % 4 {
                0 => (a & !b, b & !a),
                1 => (a & b & next(), !a & b & next()),
                2 => (a & next() & next(), !a & next() & next() & next()),
                _ => (a & 1 << (b % 64) ^ a & 1 << (b >> 58), !a & (1 << (b % 61) | 1 << 63)),
            };
            for open in [false, true] {
                assert_eq!(sentence_ends(starts, ends, open), by_loop(starts, ends, open), "{starts:#x} {ends:#x} {open}");
            }
        }
        for (starts, ends) in [(0, 0), (0, u64::MAX), (u64::MAX, 0), (1 << 63, 0), (0, 1 << 63), (1, 1 << 63), (1 << 62, 1 << 63)] {
            for open in [false, true] {
                assert_eq!(sentence_ends(starts, ends, open), by_loop(starts, ends, open), "{starts:#x} {ends:#x} {open}");
            }
        }
    }
}
