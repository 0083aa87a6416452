//! Every occurrence of every trigger word in a text: the same answer as an overlapping
//! Aho-Corasick search, found by hashing short windows instead of walking an automaton.
//!
//! Why not Aho-Corasick: the trigger words (about 3,000 with the anchors `patterns` adds) make a
//! DFA of about 800 KB, which does not stay in cache beside the regexes and the rest of a check;
//! its walk costs ≈ 3 ns a byte on plain English, and no prefilter helps because the words
//! start with almost every letter. Here each word of four bytes or more is indexed by one
//! four-byte window of it, the least English-looking one (rare bytes, few of the frequent
//! letter pairs and triples: "the real" is found by "real" or "e re" rather than by "the ");
//! three-byte words by their three bytes, and words of one or two bytes (`+`, `=`, `##`, `<|`…)
//! by their first byte, which a `memchr` pass finds (they all begin with rare punctuation). The
//! scan reads one window per position (five positions from one eight-byte load) and tests one
//! bit of one 32-bit block of a first-level filter: the block is chosen by a hash of the
//! window's first three bytes, the bit by its fourth byte. A three-byte word sets every bit of
//! its block, since any fourth byte may follow it: one bit test a position instead of two (the
//! second, a hash bit for the three-byte words, cost three instructions a byte; the ninety-odd
//! full blocks send about one English position in twenty more to the buckets, which costs
//! less). A set bit sends the position to the buckets (the three-byte words' only from a full
//! block), and a candidate (a true window, or a collision) is confirmed by comparing the whole
//! word, so the result is exact.
//!
//! Two indexes: one of the ASCII words and one of all. An ASCII text cannot hold a word with a
//! byte above 0x7F, and without those (half the words: Cyrillic, CJK, Arabic…) the filter is half
//! as full, so English sends fewer positions to the buckets.

use memchr::{memchr2_iter, memchr3_iter, memchr_iter};

/// Blocks of the first-level filter: for the ASCII words 2^11 of 32 bits (8 KiB), for all words
/// twice as many for twice the windows. Fewer blocks send more positions to the buckets (with
/// 2^10 blocks, 1 KB of English cost 2.8k instructions more). Blocks of 32 bits rather than 64:
/// the fourth byte's low five bits tell the letters apart as well as six did (a-z are 1-26,
/// space 0), so half of each 64-bit block went to digits and punctuation, and a check of 1 KB
/// read twice the filter (256 cache lines, nearly all of them, each a miss on cold caches) for
/// no fewer positions sent to the buckets.
const ALL_BLOCKS: usize = 1 << 12;
const ASCII_BLOCKS: usize = 1 << 11;

/// Finds all occurrences of a fixed set of byte strings.
pub(crate) struct Triggers {
    /// The words with no byte above 0x7F: the only ones an ASCII text can hold.
    ascii: Index<ASCII_BLOCKS>,
    all: Index<ALL_BLOCKS>,
}

impl Triggers {
    /// Indexes `words` (non-empty, at most 255 bytes, no duplicates); `words[i]` is reported as
    /// id `i`.
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
    #[cfg(test)]
    pub fn each(&self, text: &[u8], found: impl FnMut(u16, usize)) {
        self.each_known(text, text.is_ascii(), found);
    }

    /// As `each`, with `ascii` saying whether `text` is ASCII (the caller has read it already).
    pub fn each_known(&self, text: &[u8], ascii: bool, mut found: impl FnMut(u16, usize)) {
        if ascii {
            self.ascii.each(text, &mut found);
        } else {
            self.all.each(text, &mut found);
        }
    }
}

/// The filter, buckets and short words of one set of words; `N` blocks, a power of two.
struct Index<const N: usize> {
    /// The first-level filter: the block of a window's first three bytes has bit
    /// `fourth byte & 31` set for each four-byte window, and all bits set for each three-byte
    /// word. A fixed-size array, so indexing by a hash of as many bits needs no bounds check.
    blocks: Box<[u32; N]>,
    /// Words of four bytes or more by their window, and three-byte words: apart, so a probe
    /// finds only its own kind and needs no length test.
    long: Buckets<{ LONG_BUCKETS + 1 }>,
    three: Buckets<{ THREE_BUCKETS + 1 }>,
    /// Words of one or two bytes, and the distinct first bytes they begin with.
    short: Vec<(Box<[u8]>, u16)>,
    firsts: Vec<u8>,
}

/// Buckets behind the filter: 2^11 for the long words' windows (4 KiB of heads), 2^7 for the
/// ninety-odd three-byte words.
const LONG_BUCKETS: usize = 1 << 11;
const THREE_BUCKETS: usize = 1 << 7;

/// Entries by the bucket of their key: bucket `b` is `entries[heads[b]..heads[b + 1]]`, with
/// `H - 1` buckets (a power of two) and so `H` heads. A fixed-size array: indexing it by a
/// bucket number, and the one after, needs no bounds check.
struct Buckets<const H: usize> {
    heads: Box<[u16; H]>,
    entries: Vec<Entry>,
    /// The words, one after another: an entry names where its word starts (a boxed slice a
    /// word was 16 bytes in the entry and an allocation of its own).
    bytes: Box<[u8]>,
}

impl<const H: usize> Buckets<H> {
    const SHIFT: u32 = 32 - (H - 1).trailing_zeros();

    fn bucket(key: u32) -> usize {
        (key.wrapping_mul(0x85EB_CA6B) >> Self::SHIFT) as usize
    }

    /// Indexes `words` as (offset of the window in the word, word, id).
    fn new(words: &[(usize, &[u8], u16)]) -> Buckets<H> {
        let mut bytes = Vec::new();
        let mut entries: Vec<Entry> = words
            .iter()
            .map(|&(offset, word, id)| {
                let at = u32::try_from(bytes.len()).expect("under 4 GiB of words");
                bytes.extend_from_slice(word);
                Entry::new(offset, word, id, at)
            })
            .collect();
        entries.sort_by_key(|e| Self::bucket(e.key));
        let mut heads = Box::new([0u16; H]);
        for e in &entries {
            heads[Self::bucket(e.key) + 1] += 1;
        }
        for b in 1..heads.len() {
            heads[b] += heads[b - 1];
        }
        Buckets { heads, entries, bytes: bytes.into() }
    }

    /// The entries whose key is `key`.
    #[inline]
    fn probe(&self, key: u32) -> impl Iterator<Item = &Entry> {
        let b = Self::bucket(key);
        let (lo, hi) = (usize::from(self.heads[b]), usize::from(self.heads[b + 1]));
        self.entries[lo..hi].iter().filter(move |e| e.key == key)
    }

    /// Whether the word of `entry` occurs in `text` at `start`. Always inlined: called, the hits
    /// and collisions of 1 KB of English cost 1k instructions more.
    #[allow(clippy::inline_always)] // measured: see above
    #[inline(always)]
    fn at(&self, entry: &Entry, text: &[u8], start: usize) -> bool {
        let n = usize::from(entry.len);
        let word = || &self.bytes[entry.at as usize..entry.at as usize + n];
        let Some(eight) = text.get(start..start + 8) else {
            return text[start..].starts_with(word());
        };
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        if x & entry.head_mask != entry.head {
            return false;
        }
        if n <= 8 {
            return true;
        }
        // Words of 9 to 16 bytes: their last eight bytes, which overlap the head, compared as
        // one number (a call to `bcmp` for the tail cost about 30 instructions a hit).
        match (text.get(start + n - 8..start + n), word().get(n - 8..)) {
            (Some(t), Some(w)) if n <= 16 => t == w,
            _ => text[start + 8..].starts_with(&word()[8..]),
        }
    }
}

/// A word, the id the caller gave it, its indexed window and where that starts in it: 32
/// bytes, two to a cache line.
struct Entry {
    /// The window: four bytes for words of four or more, three for three-byte words.
    key: u32,
    id: u16,
    /// Where the window starts in the word, and the word's length (trigger words are short).
    offset: u8,
    len: u8,
    /// The word's first eight bytes (fewer for a shorter word) as a little-endian number, and
    /// the mask of the bytes it holds: most words are confirmed by one compare, without a call
    /// to `memcmp`.
    head: u64,
    head_mask: u64,
    /// Where the word starts in its `Buckets::bytes`.
    at: u32,
}

impl Entry {
    fn new(offset: usize, word: &[u8], id: u16, at: u32) -> Entry {
        let n = word.len().min(8);
        let mut head = [0u8; 8];
        head[..n].copy_from_slice(&word[..n]);
        let head_mask = if n == 8 { u64::MAX } else { (1 << (8 * n)) - 1 };
        // Three-byte words have a zero fourth byte in their key.
        let key = window(word, offset);
        let len = u8::try_from(word.len()).expect("trigger words of at most 255 bytes");
        let offset = u8::try_from(offset).expect("a window inside the word");
        Entry { key, id, offset, len, head: u64::from_le_bytes(head), head_mask, at }
    }
}

/// Multiplicative hashing of a window's first three bytes: the multiplier's zero low byte
/// shifts the fourth byte out of the product, so no mask is needed.
#[inline]
fn hash3(four: u32) -> u32 {
    four.wrapping_mul(0x9E37_7900)
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

/// The most frequent letter pairs of English, most frequent first (the usual tables of
/// bigram counts), and pairs with a space that most words begin or end with.
const COMMON_PAIRS: [&[u8; 2]; 50] = [
    b"th", b"he", b"in", b"er", b"an", b"re", b"on", b"at", b"en", b"nd", b"ti", b"es", b"or",
    b"te", b"of", b"ed", b"is", b"it", b"al", b"ar", b"st", b"to", b"nt", b"ng", b"se", b"ha",
    b"as", b"ou", b"io", b"le", b"ve", b"co", b"me", b"de", b"hi", b"ri", b"ro", b"ic", b"ne",
    b"ea", b"e ", b" t", b"s ", b" a", b"d ", b"t ", b" o", b" s", b"n ", b" w",
];

/// The most frequent letter triples of English (the usual tables of trigram counts).
const COMMON_TRIPLES: [&[u8; 3]; 40] = [
    b"the", b"and", b"ing", b"ion", b"tio", b"ent", b"ati", b"for", b"her", b"ter", b"hat",
    b"tha", b"ere", b"ate", b"his", b"con", b"res", b"ver", b"all", b"ons", b"nce", b"men",
    b"ith", b"ted", b"ers", b"pro", b"thi", b"wit", b"are", b"ess", b"not", b"ive", b"was",
    b"ect", b"rea", b"com", b"eve", b"per", b"int", b"est",
];

/// How common a window is in ordinary text, roughly: its bytes' commonness, plus a penalty for
/// each frequent pair and triple in it, so "ning" or "ment" (a few letters of many English
/// words) lose to a window such as "warn" that only the word itself tends to hold.
fn window_commonness(w: &[u8]) -> u32 {
    let pairs: u32 = w
        .windows(2)
        .filter_map(|p| COMMON_PAIRS.iter().position(|c| c[..] == *p))
        .map(|rank| if rank < 10 { 12 } else { 6 })
        .sum();
    let triples = 8 * w.windows(3).filter(|t| COMMON_TRIPLES.iter().any(|c| c[..] == **t)).count() as u32;
    w.iter().map(|&b| commonness(b)).sum::<u32>() + pairs + triples
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
        let (mut long, mut three) = (Vec::new(), Vec::new());
        let mut short = Vec::new();
        let mut firsts = Vec::new();
        for &(w, id) in words {
            match w.len() {
                1 | 2 => {
                    short.push((w.into(), id));
                    if !firsts.contains(&w[0]) {
                        firsts.push(w[0]);
                    }
                }
                3 => three.push((0, w, id)),
                _ => {
                    let offset = (0..=w.len() - 4)
                        .min_by_key(|&k| window_commonness(&w[k..k + 4]))
                        .unwrap_or(0);
                    long.push((offset, w, id));
                }
            }
        }
        let mut blocks = Box::new([0u32; N]);
        let (long, three) = (Buckets::new(&long), Buckets::new(&three));
        for e in &long.entries {
            blocks[(hash3(e.key) >> Self::SHIFT) as usize] |= 1 << ((e.key >> 24) & 31);
        }
        for e in &three.entries {
            blocks[(hash3(e.key) >> Self::SHIFT) as usize] = u32::MAX;
        }
        Index { blocks, long, three, short, firsts }
    }

    fn each(&self, text: &[u8], found: &mut impl FnMut(u16, usize)) {
        // The hot loop only asks whether anything may start here (`maybe`): one load from the
        // first-level filter, one branch per byte. Almost every byte of ordinary text stops
        // there; the rest go to `here`, out of line, so the loop keeps its few values in
        // registers.
        // Eight bytes at a time hold the windows of five positions. The fourth byte of the
        // window at `k` is the first of the eight bytes shifted by `k + 3`, which the window at
        // `k + 3` needs anyway: its low six bits are the bit to test, with no shift of its own.
        let mut at = 0;
        while at + 8 <= text.len() {
            let eight = u64::from_le_bytes(text[at..at + 8].try_into().expect("eight bytes"));
            for k in 0..5 {
                let four = (eight >> (8 * k)) as u32;
                let bits = self.block(four);
                if Self::maybe(bits, (eight >> (8 * (k + 3))) as u32) {
                    self.here(text, at + k, four, bits, found);
                }
            }
            at += 5;
        }
        // The last positions, where the window may be zero-padded.
        for at in at..text.len() {
            let four = window(text, at);
            let bits = self.block(four);
            if Self::maybe(bits, four >> 24) {
                self.here(text, at, four, bits, found);
            }
        }
        self.each_short(text, found);
    }

    /// The first-level filter's block for a position whose window is `four`.
    #[inline]
    fn block(&self, four: u32) -> u32 {
        self.blocks[(hash3(four) >> Self::SHIFT) as usize]
    }

    /// False when no word can start at a position whose window's block is `bits`, nor have
    /// its window start there; true may be a collision. `fourth` holds the window's fourth
    /// byte in its low byte. A bit test (`bt` on x86) rather than a shift, which without BMI2
    /// goes through `cl`.
    #[inline]
    fn maybe(bits: u32, fourth: u32) -> bool {
        bits & (1 << (fourth & 31)) != 0
    }

    /// Every word of three bytes or more that starts at `at` or whose window starts at `at`;
    /// `bits` is the window's block, which the scan has read already (read again here, the
    /// hash and the load cost four instructions a call).
    #[inline(never)]
    fn here(&self, text: &[u8], at: usize, four: u32, bits: u32, found: &mut impl FnMut(u16, usize)) {
        if bits & (1 << ((four >> 24) & 31)) != 0 {
            // Words of four bytes or more, by their window (which may sit inside the word).
            for e in self.long.probe(four) {
                if let Some(start) = at.checked_sub(usize::from(e.offset)) {
                    if self.long.at(e, text, start) {
                        found(e.id, start);
                    }
                }
            }
        }
        // Only a three-byte word's block is full (or, rarely, a block full of long windows).
        if bits == u32::MAX {
            for e in self.three.probe(four & 0x00FF_FFFF) {
                if self.three.at(e, text, at) {
                    found(e.id, at);
                }
            }
        }
    }

    /// The words of one or two bytes, where their first byte occurs: a `memchr` pass per three
    /// first bytes, since those bytes are rare punctuation in ordinary text.
    fn each_short(&self, text: &[u8], found: &mut impl FnMut(u16, usize)) {
        let mut at = |at: usize| {
            for (w, id) in &self.short {
                if short_at(text, at, w) {
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

/// Whether the word `w` of one or two bytes occurs in `text` at `at` (< its length): a byte
/// compare or two, where `starts_with` called `bcmp` (~18 instructions a word, and each
/// position a short word's first byte occurs at tries every short word: 38 a call on the
/// attack bench text).
#[inline]
fn short_at(text: &[u8], at: usize, w: &[u8]) -> bool {
    match *w {
        [a] => text[at] == a,
        [a, b] => text[at] == a && text.get(at + 1) == Some(&b),
        _ => text[at..].starts_with(w),
    }
}

#[cfg(test)]
mod tests;
