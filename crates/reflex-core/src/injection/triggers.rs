//! Every occurrence of every trigger word in a text: the same answer as an overlapping
//! Aho-Corasick search, found by hashing short windows instead of walking an automaton.
//!
//! Why not Aho-Corasick: the ~700 trigger words make a DFA of about 800 KB, which does not stay
//! in cache beside the regexes and the rest of a check; its walk costs ≈ 3 ns a byte on plain
//! English, the largest single cost of the injection pass, and no prefilter helps because the
//! words start with almost every letter. Here each word of four bytes or more is indexed by
//! one four-byte window of it, the one made of the rarest bytes (so "the real" is found by
//! "real" or "e re" rather than by "the "); three-byte words by their three bytes, and words
//! of one or two bytes (`+`, `=`, `##`, `<|`…) by their first byte. The scan reads one window
//! per position (four positions from one eight-byte load) and tests one bit of a first-level
//! filter that fits in L1, chosen by all four bytes for the long words' windows and by the
//! first three for the three-byte words, so one load answers for both; the positions are
//! independent, so the loop has no chain of dependent loads. A set bit sends the position to
//! the two exact filters and their buckets, and a candidate (a true window, or a hash
//! collision) is confirmed by comparing the whole word, so the result is exact. (Three-byte
//! windows for every word were tried: "the", "ing", "and" are windows of some word, and on
//! English a candidate every eighth byte cost more than the second probe.)

/// Bits in the filter: 2^16, 8 KiB. About seven hundred windows set about 1 % of them.
const FILTER_BITS: u32 = 16;
/// Buckets behind the filter: 2^12, so the bucket heads take 8 KiB.
const BUCKET_BITS: u32 = 12;
/// Blocks of the first-level filter (see `Triggers::maybe`): 2^11 of 64 bits, 16 KiB.
const BLOCK_BITS: u32 = 11;

/// Finds all occurrences of a fixed set of byte strings.
pub(crate) struct Triggers {
    /// A fixed-size array, so indexing by a 16-bit hash needs no bounds check.
    bits: Box<[u64; 1 << (FILTER_BITS - 6)]>,
    /// The first-level filter: the block of a window's first three bytes has bit
    /// `fourth byte & 63` set for each four-byte window, and bit 0 for each three-byte word.
    blocks: Box<[u64; 1 << BLOCK_BITS]>,
    /// Entries sorted by bucket; bucket `b` is `entries[heads[b]..heads[b + 1]]`.
    heads: Vec<u16>,
    entries: Vec<Entry>,
    /// Words of one or two bytes, by first byte.
    short: Vec<Vec<(Box<[u8]>, u16)>>,
    has_short: [bool; 256],
}

/// A word, the id the caller gave it, and its indexed window.
struct Entry {
    /// The window: four bytes for words of four or more, three for three-byte words.
    key: u32,
    /// Where the window starts inside the word.
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
    fn new(key: u32, offset: usize, word: &[u8], id: u16) -> Entry {
        let n = word.len().min(8);
        let mut head = [0u8; 8];
        head[..n].copy_from_slice(&word[..n]);
        let head_mask = if n == 8 { u64::MAX } else { (1 << (8 * n)) - 1 };
        Entry { key, offset, word: word.into(), id, head: u64::from_le_bytes(head), head_mask }
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

/// Multiplicative hashing: the top bits of the product index the filter.
#[inline]
fn hash(key: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B1) >> (32 - FILTER_BITS)) as usize
}

/// The first-level filter's block for the first three bytes of a window.
#[inline]
fn block(three: u32) -> usize {
    (three.wrapping_mul(0x9E37_79B1) >> (32 - BLOCK_BITS)) as usize
}

fn bucket(h: usize) -> usize {
    h >> (FILTER_BITS - BUCKET_BITS)
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

impl Triggers {
    /// Indexes `words` (non-empty, no duplicates); `words[i]` is reported as id `i`.
    pub fn new<S: AsRef<[u8]>>(words: &[S]) -> Triggers {
        let mut entries = Vec::new();
        let mut short: Vec<Vec<(Box<[u8]>, u16)>> = vec![Vec::new(); 256];
        let mut has_short = [false; 256];
        // Ids and the bucket heads are u16: the heads count up to the number of words.
        assert!(u16::try_from(words.len()).is_ok(), "at most 65,535 trigger words");
        for (i, w) in words.iter().enumerate() {
            let w = w.as_ref();
            assert!(!w.is_empty(), "trigger word {i} is empty");
            let id = u16::try_from(i).expect("checked above");
            if w.len() < 3 {
                short[usize::from(w[0])].push((w.into(), id));
                has_short[usize::from(w[0])] = true;
                continue;
            }
            if w.len() == 3 {
                entries.push(Entry::new(window(w, 0), 0, w, id));
                continue;
            }
            let offset = (0..=w.len() - 4)
                .min_by_key(|&k| w[k..k + 4].iter().map(|&b| commonness(b)).sum::<u32>())
                .unwrap_or(0);
            entries.push(Entry::new(window(w, offset), offset, w, id));
        }
        entries.sort_by_key(|e| bucket(hash(e.key)));
        let mut bits = Box::new([0u64; 1 << (FILTER_BITS - 6)]);
        let mut heads = vec![0u16; (1 << BUCKET_BITS) + 1];
        let mut blocks = Box::new([0u64; 1 << BLOCK_BITS]);
        for e in &entries {
            // Three-byte words have a zero fourth byte in `key`: bit 0 either way.
            blocks[block(e.key & 0x00FF_FFFF)] |= 1 << ((e.key >> 24) & 63);
            let h = hash(e.key);
            bits[h >> 6] |= 1 << (h & 63);
            heads[bucket(h) + 1] += 1;
        }
        for b in 1..heads.len() {
            heads[b] += heads[b - 1];
        }
        Triggers { bits, blocks, heads, entries, short, has_short }
    }

    /// Calls `found(id, start)` for every occurrence of every word in `text`, overlapping ones
    /// included, in no particular order.
    pub fn each(&self, text: &[u8], mut found: impl FnMut(u16, usize)) {
        // The hot loop only asks whether anything may start here (`maybe`): one load from the
        // first-level filter and one from the short-word flags, one branch per byte. Almost
        // every byte of ordinary text stops there; the rest go to `here`, out of line, so the
        // loop keeps its few values in registers.
        let body = text.len().saturating_sub(3);
        // Eight bytes at a time hold the windows of four positions.
        let mut at = 0;
        while at + 8 <= text.len() {
            let eight = u64::from_le_bytes(text[at..at + 8].try_into().expect("eight bytes"));
            for k in 0..4 {
                let four = (eight >> (8 * k)) as u32;
                if self.maybe(four) {
                    self.here(text, at + k, four, &mut found);
                }
            }
            at += 4;
        }
        for at in at..body {
            let four = u32::from_le_bytes([text[at], text[at + 1], text[at + 2], text[at + 3]]);
            if self.maybe(four) {
                self.here(text, at, four, &mut found);
            }
        }
        // The last three positions, where the window is zero-padded.
        for at in body..text.len() {
            let four = window(text, at);
            if self.maybe(four) {
                self.here(text, at, four, &mut found);
            }
        }
    }

    /// False when no word can start at a position whose window is `four`, nor have its
    /// window start there; true may be a collision. A four-byte window sets a bit chosen by
    /// its fourth byte in a block chosen by its first three, a three-byte word sets bit 0 of
    /// its block: one load tests both kinds, where the two filters of `here` need two.
    #[inline]
    fn maybe(&self, four: u32) -> bool {
        let bits = self.blocks[block(four & 0x00FF_FFFF)];
        let mask = 1 | 1 << ((four >> 24) & 63);
        (bits & mask != 0) | self.has_short[(four & 0xFF) as usize]
    }

    /// Every word that starts at `at` or whose window starts at `at`.
    #[inline(never)]
    fn here(&self, text: &[u8], at: usize, four: u32, found: &mut impl FnMut(u16, usize)) {
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
        self.probe(four & 0x00FF_FFFF, |e| {
            if e.word.len() == 3 && e.at(text, at) {
                found(e.id, at);
            }
        });
        let first = usize::from(text[at]);
        if self.has_short[first] {
            for (w, id) in &self.short[first] {
                if text[at..].starts_with(w) {
                    found(*id, at);
                }
            }
        }
    }

    /// Calls `hit` for each entry whose window is `key`.
    #[inline]
    fn probe(&self, key: u32, mut hit: impl FnMut(&Entry)) {
        let h = hash(key) & ((1 << FILTER_BITS) - 1);
        if self.bits[h >> 6] & (1 << (h & 63)) == 0 {
            return;
        }
        let b = bucket(h);
        for e in &self.entries[usize::from(self.heads[b])..usize::from(self.heads[b + 1])] {
            if e.key == key {
                hit(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
}
