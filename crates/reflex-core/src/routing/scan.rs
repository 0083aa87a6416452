//! The one pass of [`Signals::scan`]: block by block, on masks of the block's bytes.

use super::classes::{self, word_len, Block, BLOCK, WINDOW};
use super::keywords::{classify, classify_head, may_stand_alone};
use super::{list_marker, Phrase, Signals};

impl Signals {
    /// Goes block by block: masks of the block's bytes say where words start and where the few
    /// other bytes that count are, so the bytes between are never looked at one by one. A
    /// block's other bytes are read first, up to a line break; then its words, most of them
    /// skipped on their first four letters; then its full stops.
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
            // The other bytes up to the first line break, which ends the block (what follows
            // it is read from the next line's start): `'` and `_` are word bytes the lanes left
            // here, commas and the like are counted, and full stops kept for after the words.
            let mut newline = BLOCK;
            let mut below_newline = u64::MAX;
            let mut stops = 0u64;
            let mut others = block.others;
            while others != 0 {
                let k = others.trailing_zeros() as usize;
                others &= others - 1;
                match window[k] {
                    b'\n' => {
                        newline = k;
                        below_newline = (1 << k) - 1;
                        break;
                    }
                    b'\'' | b'_' => block.words |= 1 << k,
                    b'.' | b'!' | b'?' => stops |= 1 << k,
                    b',' | b';' | b':' => s.clauses += 1,
                    _ => {}
                }
            }
            let words = block.words;
            let starts = words & !(words << 1 | inside_word) & below_newline;
            phrase = s.words(phrase, &block, window, starts, &bytes[i..]);
            // Then the full stops. A sentence is open at a stop when it was open at the block's
            // start and no stop was counted since (`carried`), or a word started between the
            // last stop counted (`since`: the bits after it) and this one.
            let mut carried = open_sentence;
            let mut since = u64::MAX;
            while stops != 0 {
                let k = stops.trailing_zeros() as usize & (BLOCK - 1);
                stops &= stops - 1;
                // Past the text's end the window holds spaces.
                if (carried || starts & since & ((1 << k) - 1) != 0) && window[k + 1].is_ascii_whitespace() {
                    s.sentences += 1;
                    carried = false;
                    since = u64::MAX.checked_shl(k as u32 + 1).unwrap_or(0);
                }
            }
            // No start lies past the line break.
            open_sentence = carried || starts & since != 0;
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
