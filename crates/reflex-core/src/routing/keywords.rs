//! The keyword table of the routing scan: what each word of a text signals, by one probe of a
//! 4 KiB perfect-hash table (no string compares, no loop whose length depends on the word),
//! behind a 128-byte test of the word's first four letters that most words of prose fail.

use super::Word;

/// 0x20 in every byte: or-ing it lower-cases ASCII letters.
const FOLD: u64 = 0x2020_2020_2020_2020;

/// Keywords by what they signal.
pub(super) const KEYWORDS: &[(&[u8], Word)] = &[
    (b"search", Word::Retriever),
    (b"searches", Word::Retriever),
    (b"searching", Word::Retriever),
    (b"find", Word::Retriever),
    (b"finds", Word::Retriever),
    (b"finding", Word::Retriever),
    (b"lookup", Word::Retriever),
    (b"knowledge", Word::Retriever),
    (b"retrieve", Word::Retriever),
    (b"research", Word::Retriever),
    (b"run", Word::Executor),
    (b"runs", Word::Executor),
    (b"running", Word::Executor),
    (b"execute", Word::Executor),
    (b"executes", Word::Executor),
    (b"executing", Word::Executor),
    (b"execution", Word::Executor),
    (b"shell", Word::Executor),
    (b"command", Word::Executor),
    (b"commands", Word::Executor),
    (b"compute", Word::Executor),
    (b"computing", Word::Executor),
    (b"calculate", Word::Executor),
    (b"calculates", Word::Executor),
    (b"calculating", Word::Executor),
    (b"calculation", Word::Executor),
    (b"bash", Word::Executor),
    (b"code", Word::Coder),
    (b"coding", Word::Coder),
    (b"function", Word::Coder),
    (b"functions", Word::Coder),
    (b"script", Word::Coder),
    (b"scripts", Word::Coder),
    (b"implement", Word::Coder),
    (b"implements", Word::Coder),
    (b"implementing", Word::Coder),
    (b"implementation", Word::Coder),
    (b"refactor", Word::Coder),
    (b"debug", Word::Coder),
    (b"bugfix", Word::Coder),
    (b"validate", Word::Judge),
    (b"validates", Word::Judge),
    (b"validating", Word::Judge),
    (b"validation", Word::Judge),
    (b"check", Word::Judge),
    (b"checks", Word::Judge),
    (b"checking", Word::Judge),
    (b"verify", Word::Judge),
    (b"verifies", Word::Judge),
    (b"verifying", Word::Judge),
    (b"verification", Word::Judge),
    (b"test", Word::Judge),
    (b"tests", Word::Judge),
    (b"testing", Word::Judge),
    (b"redact", Word::Guardian),
    (b"redacts", Word::Guardian),
    (b"redacting", Word::Guardian),
    (b"redaction", Word::Guardian),
    (b"pii", Word::Guardian),
    (b"sanitize", Word::Guardian),
    (b"sanitise", Word::Guardian),
    (b"sanitizing", Word::Guardian),
    (b"sanitising", Word::Guardian),
    (b"anonymize", Word::Guardian),
    (b"anonymise", Word::Guardian),
    (b"then", Word::Sequence),
    (b"afterwards", Word::Sequence),
    (b"afterward", Word::Sequence),
    (b"finally", Word::Sequence),
    (b"subsequently", Word::Sequence),
    (b"lastly", Word::Sequence),
    (b"look", Word::Look),
    (b"looks", Word::Look),
    (b"looking", Word::Look),
    (b"up", Word::Up),
    (b"fix", Word::Fix),
    (b"fixes", Word::Fix),
    (b"fixing", Word::Fix),
    (b"bug", Word::Bug),
    (b"bugs", Word::Bug),
    (b"the", Word::Article),
    (b"a", Word::Article),
    (b"this", Word::Article),
    (b"my", Word::Article),
    (b"personal", Word::Personal),
    (b"data", Word::Data),
    (b"details", Word::Data),
    (b"information", Word::Data),
    (b"info", Word::Data),
    (b"after", Word::After),
    (b"that", Word::That),
];

/// Longer words are never keywords ("implementation" is the longest). At most 14 bytes, a word
/// packs into 8 + 6 bytes, which leaves the last byte of a table entry for what it signals.
const MAX_KEYWORD: usize = 14;

/// A lower-case word of at most [`MAX_KEYWORD`] bytes as two integers, first byte lowest: its
/// first eight bytes and the rest. Words cannot hold NUL, so distinct words pack to distinct keys.
const fn pack(word: &[u8]) -> (u64, u64) {
    let (mut lo, mut hi) = (0u64, 0u64);
    let mut i = 0;
    while i < word.len() {
        if i < 8 {
            lo |= (word[i] as u64) << (8 * i);
        } else {
            hi |= (word[i] as u64) << (8 * (i - 8));
        }
        i += 1;
    }
    (lo, hi)
}

/// Slots in the keyword table: a power of two. 256 slots of 16 bytes (4 KiB) for 91 keywords:
/// the scan looks up every word that passes the prefix test, and a check often runs with its
/// tables out of cache.
const TABLE_BITS: u32 = 8;
const TABLE_SIZE: usize = 1 << TABLE_BITS;

/// A multiplier under which no two keywords share a slot (found by trying random odd numbers;
/// the table's build asserts it), so a look-up is one probe and one compare, with no loop whose
/// length depends on the word.
const SEED: u64 = 0xa9e7_0cfe_b515_dea5;

const fn slot_of(lo: u64, hi: u64) -> usize {
    // Multiplicative hashing of the folded halves: the top bits index the table.
    ((lo ^ hi.rotate_left(32)).wrapping_mul(SEED) >> (64 - TABLE_BITS)) as usize
}

/// What the last byte of a table entry holds: the keyword's [`Word`], as its index here.
const SIGNALS: [Word; 16] = [
    Word::Other,
    Word::Retriever,
    Word::Executor,
    Word::Coder,
    Word::Judge,
    Word::Guardian,
    Word::Sequence,
    Word::Look,
    Word::Up,
    Word::Fix,
    Word::Bug,
    Word::Article,
    Word::Personal,
    Word::Data,
    Word::After,
    Word::That,
];

const fn signal_index(word: Word) -> u64 {
    let mut i = 0;
    while i < SIGNALS.len() {
        if SIGNALS[i] as u8 == word as u8 {
            return i as u64;
        }
        i += 1;
    }
    panic!("a Word missing from SIGNALS")
}

/// The bytes of an entry's second half that hold keyword bytes; the top one holds the signal.
const HI_BYTES: u64 = (1 << 48) - 1;

/// [`KEYWORDS`] by slot, built at compile time: the packed word, its signal in the top byte of
/// the second half, or zeros (no word packs to a zero first half).
static KEYS: [(u64, u64); TABLE_SIZE] = {
    let mut keys = [(0u64, 0u64); TABLE_SIZE];
    let mut i = 0;
    while i < KEYWORDS.len() {
        let (word, signal) = KEYWORDS[i];
        assert!(!word.is_empty() && word.len() <= MAX_KEYWORD, "keyword length");
        let (lo, hi) = pack(word);
        let slot = slot_of(lo, hi);
        assert!(keys[slot].0 == 0, "two keywords share a slot: pick another SEED");
        keys[slot] = (lo, hi | signal_index(signal) << 56);
        i += 1;
    }
    keys
};

fn lookup(lo: u64, hi: u64) -> Word {
    let (key_lo, key_hi) = KEYS[slot_of(lo, hi)];
    if key_lo == lo && key_hi & HI_BYTES == hi {
        SIGNALS[(key_hi >> 56) as usize & 15]
    } else {
        Word::Other
    }
}

/// What the word of `len` (> 0) bytes at the start of `bytes` is.
pub(super) fn classify(bytes: &[u8], len: usize) -> Word {
    if let Some(head) = bytes.first_chunk::<16>() {
        classify_head(head, len)
    } else {
        // Near the end of the text; bytes past the word are masked off.
        let mut padded = [0u8; 16];
        padded[..len.min(16)].copy_from_slice(&bytes[..len.min(16)]);
        classify_head(&padded, len)
    }
}

/// What the word of `len` (> 0) bytes at the start of `head` (and beyond, when longer) is.
pub(super) fn classify_head(head: &[u8; 16], len: usize) -> Word {
    if len > MAX_KEYWORD {
        return Word::Other;
    }
    let (lo, hi) = halves(head);
    // Setting bit 5 lower-cases letters; it maps no other byte into 'a'..='z', and keywords
    // are all lower-case letters, so a table hit is still an exact case-insensitive match.
    let (lo_mask, hi_mask) = WORD_MASKS[len];
    lookup((lo | FOLD) & lo_mask, (hi | FOLD) & hi_mask)
}

/// By word length: the bytes of each half of a packed word that belong to the word.
static WORD_MASKS: [(u64, u64); MAX_KEYWORD + 1] = {
    let mut masks = [(0, 0); MAX_KEYWORD + 1];
    let mut len = 1;
    while len <= MAX_KEYWORD {
        masks[len] = if len < 8 { ((1 << (8 * len)) - 1, 0) } else if len == 8 { (u64::MAX, 0) } else { (u64::MAX, (1 << (8 * (len - 8))) - 1) };
        len += 1;
    }
    masks
};

/// Words that [`classify`] must see whatever came before them: every keyword but the second
/// halves of the two-word phrases ("up", "bug", "the", "data", "that"…), which only count right
/// after their first half.
const fn stands_alone(word: Word) -> bool {
    !matches!(word, Word::Up | Word::Bug | Word::Article | Word::Data | Word::That)
}

/// The key of a word for [`may_stand_alone`]: its first four bytes, letters lower-cased and
/// any other byte zero, first byte lowest. The scan reads it from the block's letters; a word of
/// three letters ends in a zero whatever follows it, so "the" is not "then".
pub(super) const fn prefix_key(word: &[u8]) -> u32 {
    let mut key = 0;
    let mut i = 0;
    while i < 4 && i < word.len() {
        let b = word[i];
        if b.is_ascii_alphabetic() {
            key |= ((b | 0x20) as u32) << (8 * i);
        }
        i += 1;
    }
    key
}

/// A multiplier that spreads the keys over [`PREFIXES`]. Any odd number would do (a collision
/// only costs a look-up in [`KEYS`]); of 20,000 random ones this let the fewest other words of
/// the docs and the test corpus through (255 of 23,045 words of three letters or more).
const PREFIX_SEED: u64 = 0x05e3_bf33_230d_d97b;

/// The word and the bit of [`PREFIXES`] for a key: the top four bits of the low half of a
/// 64 x 64-bit product and the low six of its high half, which one `mul` leaves in two
/// registers (the bit test takes its index modulo 64 by itself).
const fn prefix_bit(key: u32) -> (usize, u32) {
    let product = key as u128 * PREFIX_SEED as u128;
    ((product as u64 >> 60) as usize, (product >> 64) as u32 % 64)
}

/// 1024 bits (128 bytes, two cache lines): set for the [`prefix_key`] of each keyword that
/// [`stands_alone`] (40-odd keys). Most words of prose ("the" among them) have a key no such
/// keyword has, so the scan skips them after one load, a multiply and a bit test, without the
/// 4 KiB table and without measuring them.
static PREFIXES: [u64; 16] = {
    let mut bits = [0u64; 16];
    let mut i = 0;
    while i < KEYWORDS.len() {
        let (word, signal) = KEYWORDS[i];
        if stands_alone(signal) {
            let (at, bit) = prefix_bit(prefix_key(word));
            bits[at] |= 1 << bit;
        }
        i += 1;
    }
    bits
};

/// False when a word whose [`prefix_key`] is `key` is surely not a keyword that
/// [`stands_alone`]: then it can only be a phrase's second half, or nothing.
pub(super) fn may_stand_alone(key: u32) -> bool {
    let (at, bit) = prefix_bit(key);
    PREFIXES[at] >> bit & 1 == 1
}

fn halves(head: &[u8; 16]) -> (u64, u64) {
    let (lo, hi) = head.split_at(8);
    let half = |eight: &[u8]| u64::from_le_bytes(eight.try_into().unwrap_or_default());
    (half(lo), half(hi))
}
