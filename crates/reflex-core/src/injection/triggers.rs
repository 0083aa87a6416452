//! Every occurrence of every trigger word in a text: the same answer as an overlapping
//! Aho-Corasick search, found by hashing short windows instead of walking an automaton.
//!
//! Why not Aho-Corasick: the trigger words (about 3,000 with the anchors `patterns` adds) make a
//! DFA of about 800 KB, which does not stay in cache beside the regexes and the rest of a check;
//! its walk costs ≈ 3 ns a byte on plain English, and no prefilter helps because the words
//! start with almost every letter. Here each word of four bytes or more is indexed by one
//! four-byte window of it, the one made of the rarest bytes (so "the real" is found by "real"
//! or "e re" rather than by "the "); three-byte words by their three bytes, and words of one or
//! two bytes (`+`, `=`, `##`, `<|`…) by their first byte, which a `memchr` pass finds (they all
//! begin with rare punctuation). The scan reads one window per position (four positions from one
//! eight-byte load) and tests two bits of one 64-bit block of a first-level filter: the block is
//! chosen by a hash of the window's first three bytes, one bit by its fourth byte for the long
//! words' windows, the other by more bits of the same hash for the three-byte words, so one load
//! answers for both. (With one fixed bit for all three-byte words, as before, a three-byte
//! prefix of English hit a marked block one time in twelve.) A set bit sends the position to
//! the buckets of the kind it names, and a candidate (a true window, or a collision) is
//! confirmed by comparing the whole word, so the result is exact.
//!
//! Two indexes: one of the ASCII words and one of all. An ASCII text cannot hold a word with a
//! byte above 0x7F, and without those (half the words: Cyrillic, CJK, Arabic…) the filter is half
//! as full, so English sends fewer positions to the buckets.

use memchr::{memchr2_iter, memchr3_iter, memchr_iter};

/// Blocks of the first-level filter: 2^11 of 64 bits, 16 KiB, for all words. The ASCII index
/// has half the windows and half the blocks (8 KiB), so about the same share of bits is set.
const ALL_BLOCKS: usize = 1 << 11;
const ASCII_BLOCKS: usize = 1 << 10;
/// Buckets behind the filter: 2^11, so the bucket heads take 4 KiB.
const BUCKET_BITS: u32 = 11;

/// Finds all occurrences of a fixed set of byte strings.
pub(crate) struct Triggers {
    /// The words with no byte above 0x7F: the only ones an ASCII text can hold.
    ascii: Index<ASCII_BLOCKS>,
    all: Index<ALL_BLOCKS>,
}

impl Triggers {
    /// Indexes `words` (non-empty, no duplicates); `words[i]` is reported as id `i`.
    pub fn new<S: AsRef<[u8]>>(words: &[S]) -> Triggers {
        // Ids and the bucket heads are u16: the heads count up to the number of words.
        assert!(u16::try_from(words.len()).is_ok(), "at most 65,535 trigger words");
        let words: Vec<(&[u8], u16)> = words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let w = w.as_ref();
                assert!(!w.is_empty(), "trigger word {i} is empty");
                (w, i as u16)
            })
            .collect();
        let ascii: Vec<(&[u8], u16)> = words.iter().copied().filter(|(w, _)| w.is_ascii()).collect();
        Triggers { ascii: Index::new(&ascii), all: Index::new(&words) }
    }

    /// Calls `found(id, start)` for every occurrence of every word in `text`, overlapping ones
    /// included, in no particular order.
    pub fn each(&self, text: &[u8], mut found: impl FnMut(u16, usize)) {
        if text.is_ascii() {
            self.ascii.each(text, &mut found);
        } else {
            self.all.each(text, &mut found);
        }
    }
}

/// The filter, buckets and short words of one set of words; `N` blocks, a power of two.
struct Index<const N: usize> {
    /// The first-level filter: the block of a window's first three bytes has bit
    /// `fourth byte & 63` set for each four-byte window, and a bit chosen by other bits of the
    /// same hash for each three-byte word. A fixed-size array, so indexing by a hash of as
    /// many bits needs no bounds check.
    blocks: Box<[u64; N]>,
    /// Windows and entries sorted by bucket; bucket `b` is `[heads[b]..heads[b + 1]]` of both.
    /// A fixed-size array, so indexing by a bucket number needs no bounds check.
    heads: Box<[u16; (1 << BUCKET_BITS) + 1]>,
    keys: Vec<u32>,
    entries: Vec<Entry>,
    /// Words of one or two bytes, and the distinct first bytes they begin with.
    short: Vec<(Box<[u8]>, u16)>,
    firsts: Vec<u8>,
}

/// A word, the id the caller gave it, and where its indexed window starts in it.
struct Entry {
    offset: usize,
    word: Box<[u8]>,
    id: u16,
    /// The word's first eight bytes (fewer for a shorter word) as a little-endian number, and
    /// the mask of the bytes it holds: most words are confirmed by one compare, without a call
    /// to `memcmp`.
    head: u64,
    head_mask: u64,
}

impl Entry {
    fn new(offset: usize, word: &[u8], id: u16) -> Entry {
        let n = word.len().min(8);
        let mut head = [0u8; 8];
        head[..n].copy_from_slice(&word[..n]);
        let head_mask = if n == 8 { u64::MAX } else { (1 << (8 * n)) - 1 };
        Entry { offset, word: word.into(), id, head: u64::from_le_bytes(head), head_mask }
    }

    /// Whether the word occurs in `text` at `start`.
    #[inline]
    fn at(&self, text: &[u8], start: usize) -> bool {
        let Some(eight) = text.get(start..start + 8) else {
            return text[start..].starts_with(&self.word);
        };
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        x & self.head_mask == self.head && (self.word.len() <= 8 || text[start + 8..].starts_with(&self.word[8..]))
    }
}

/// Multiplicative hashing of a window's first three bytes: the multiplier's zero low byte
/// shifts the fourth byte out of the product, so no mask is needed.
#[inline]
fn hash3(four: u32) -> u32 {
    four.wrapping_mul(0x9E37_7900)
}

/// The bucket of a window (four bytes, or three with a zero fourth).
#[inline]
fn bucket(key: u32) -> usize {
    (key.wrapping_mul(0x85EB_CA6B) >> (32 - BUCKET_BITS)) as usize
}

/// How common a byte is in ordinary text, roughly: a window with a low total is rare, so its
/// bit is seldom hit by text that holds none of the words.
fn commonness(b: u8) -> u32 {
    match b {
        b' ' => 20,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' => 10,
        b's' | b'h' | b'r' | b'd' | b'l' => 7,
        b'c' | b'u' | b'm' | b'w' | b'f' | b'g' | b'y' | b'p' | b'b' => 4,
        b'a'..=b'z' | b'.' | b',' => 2,
        _ => 1,
    }
}

/// The four bytes at `at` as a little-endian number, zero-padded past the end.
#[inline]
fn window(bytes: &[u8], at: usize) -> u32 {
    if let Some(w) = bytes.get(at..at + 4) {
        u32::from_le_bytes([w[0], w[1], w[2], w[3]])
    } else {
        let mut w = [0u8; 4];
        let tail = &bytes[at..];
        w[..tail.len()].copy_from_slice(tail);
        u32::from_le_bytes(w)
    }
}

impl<const N: usize> Index<N> {
    /// The shift that takes a block number from the top bits of a 32-bit hash.
    const SHIFT: u32 = 32 - N.trailing_zeros();

    fn new(words: &[(&[u8], u16)]) -> Index<N> {
        let mut indexed: Vec<(u32, Entry)> = Vec::new();
        let mut short = Vec::new();
        let mut firsts = Vec::new();
        for &(w, id) in words {
            if w.len() < 3 {
                short.push((w.into(), id));
                if !firsts.contains(&w[0]) {
                    firsts.push(w[0]);
                }
                continue;
            }
            let offset = if w.len() == 3 {
                0
            } else {
                (0..=w.len() - 4)
                    .min_by_key(|&k| w[k..k + 4].iter().map(|&b| commonness(b)).sum::<u32>())
                    .unwrap_or(0)
            };
            // Three-byte words have a zero fourth byte in their key.
            indexed.push((window(w, offset), Entry::new(offset, w, id)));
        }
        indexed.sort_by_key(|(key, _)| bucket(*key));
        let mut blocks = Box::new([0u64; N]);
        let mut heads = Box::new([0u16; (1 << BUCKET_BITS) + 1]);
        for (key, e) in &indexed {
            let h = hash3(*key);
            let bit = if e.word.len() == 3 { (h >> 15) & 63 } else { (key >> 24) & 63 };
            blocks[(h >> Self::SHIFT) as usize] |= 1 << bit;
            heads[bucket(*key) + 1] += 1;
        }
        for b in 1..heads.len() {
            heads[b] += heads[b - 1];
        }
        let (keys, entries) = indexed.into_iter().unzip();
        Index { blocks, heads, keys, entries, short, firsts }
    }

    fn each(&self, text: &[u8], found: &mut impl FnMut(u16, usize)) {
        // The hot loop only asks whether anything may start here (`maybe`): one load from the
        // first-level filter, one branch per byte. Almost every byte of ordinary text stops
        // there; the rest go to `here`, out of line, so the loop keeps its few values in
        // registers.
        // Eight bytes at a time hold the windows of four positions.
        let mut at = 0;
        while at + 8 <= text.len() {
            let eight = u64::from_le_bytes(text[at..at + 8].try_into().expect("eight bytes"));
            for k in 0..4 {
                let four = (eight >> (8 * k)) as u32;
                if self.maybe(four) {
                    self.here(text, at + k, four, found);
                }
            }
            at += 4;
        }
        // The last positions, where the window may be zero-padded.
        for at in at..text.len() {
            let four = window(text, at);
            if self.maybe(four) {
                self.here(text, at, four, found);
            }
        }
        self.each_short(text, found);
    }

    /// The block of the filter for a window, and the block shifted by the bit a three-byte word
    /// starting there would set: bit 0 of the second says a three-byte word may start at the
    /// window, bit `fourth byte & 63` of the first that a long word's window may be the window.
    #[inline]
    fn block(&self, four: u32) -> (u64, u64) {
        let h = hash3(four);
        let bits = self.blocks[(h >> Self::SHIFT) as usize];
        (bits, bits.wrapping_shr(h >> 15))
    }

    /// False when no word can start at a position whose window is `four`, nor have its
    /// window start there; true may be a collision. Two bit tests (`bt` on x86) rather than
    /// shifts, which without BMI2 go through `cl`.
    #[inline]
    fn maybe(&self, four: u32) -> bool {
        let h = hash3(four);
        let bits = self.blocks[(h >> Self::SHIFT) as usize];
        bits & (1 << ((four >> 24) & 63)) != 0 || bits & (1 << ((h >> 15) & 63)) != 0
    }

    /// Every word of three bytes or more that starts at `at` or whose window starts at `at`.
    #[inline(never)]
    fn here(&self, text: &[u8], at: usize, four: u32, found: &mut impl FnMut(u16, usize)) {
        let (bits, three) = self.block(four);
        if bits.wrapping_shr(four >> 24) & 1 != 0 {
            // Words of four bytes or more, by their window (which may sit inside the word).
            self.probe(four, |e| {
                if e.word.len() >= 4 {
                    if let Some(start) = at.checked_sub(e.offset) {
                        if e.at(text, start) {
                            found(e.id, start);
                        }
                    }
                }
            });
        }
        if three & 1 != 0 {
            self.probe(four & 0x00FF_FFFF, |e| {
                if e.word.len() == 3 && e.at(text, at) {
                    found(e.id, at);
                }
            });
        }
    }

    /// Calls `hit` for each entry whose window is `key`.
    #[inline]
    fn probe(&self, key: u32, mut hit: impl FnMut(&Entry)) {
        let b = bucket(key);
        let (lo, hi) = (usize::from(self.heads[b]), usize::from(self.heads[b + 1]));
        for (k, e) in self.keys[lo..hi].iter().zip(&self.entries[lo..hi]) {
            if *k == key {
                hit(e);
            }
        }
    }

    /// The words of one or two bytes, where their first byte occurs: a `memchr` pass per three
    /// first bytes, since those bytes are rare punctuation in ordinary text.
    fn each_short(&self, text: &[u8], found: &mut impl FnMut(u16, usize)) {
        let mut at = |at: usize| {
            for (w, id) in &self.short {
                if text[at..].starts_with(w) {
                    found(*id, at);
                }
            }
        };
        for f in self.firsts.chunks(3) {
            match *f {
                [a, b, c] => memchr3_iter(a, b, c, text).for_each(&mut at),
                [a, b] => memchr2_iter(a, b, text).for_each(&mut at),
                [a] => memchr_iter(a, text).for_each(&mut at),
                _ => unreachable!("chunks of one to three"),
            }
        }
    }
}

#[cfg(test)]
mod tests;
