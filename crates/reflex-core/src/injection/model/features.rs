//! The hashed features of a normalised text, read in one pass over its bytes.
//!
//! Per byte: the byte 3-gram and 5-gram ending there (ASCII digits read as `0`, so numbers
//! differ only by their shape; a run of white space reads as one space; inside a run that
//! repeats every one to four bytes the n-grams are not counted again); at the end of each word (a run of ASCII letters and digits or
//! of non-ASCII bytes), the word and the pair it makes with the word before. Byte n-grams carry
//! the scripts written without spaces (a CJK character is three bytes: a 5-gram spans the
//! boundary between two) and the words carry the rest. Each feature is a slot in a table of
//! `1 << BITS` weights, found by one multiplication; one table look-up per byte tells each
//! byte's classes, so the pass costs about 3 µs a KB (the addon bench text, release build).
//!
//! The pass also reports where the text may be cut into windows: after a sentence stop
//! (`.`, `!`, `?`, a line break, `。`, `！`, `？`), or at a space once `LONG_RUN` bytes have gone
//! by without one.

/// Table size, as a power of two.
pub(crate) const BITS: u32 = 18;
/// Mixed into every hash: a different seed is a different table.
pub(crate) const SEED: u64 = 0x6761_6e67_6c69_6f6e; // "ganglion"
/// A run this long without a sentence stop is cut at its next space.
pub(crate) const LONG_RUN: usize = 192;

/// Inside a run that repeats every one to `REPEAT_PERIOD` bytes, once `REPEAT_FROM` bytes have
/// been read, the n-grams are not counted again.
const REPEAT_PERIOD: u32 = 4;
const REPEAT_FROM: usize = 9;
/// The repeated-run rule as the weights header records it.
pub(crate) const REPEAT_RULE: u32 = REPEAT_PERIOD << 8 | REPEAT_FROM as u32;

const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// Salts for the feature kinds, so a 3-gram and a word with the same bytes differ.
const GRAM3: u64 = SEED ^ 0x0300_0000_0000_0000;
const GRAM5: u64 = SEED ^ 0x0500_0000_0000_0000;
const WORD: u64 = SEED ^ 0x7700_0000_0000_0000;
const PAIR: u64 = SEED ^ 0x7800_0000_0000_0000;

#[inline]
fn slot(x: u64) -> u32 {
    (x.wrapping_mul(MIX) >> (64 - BITS)) as u32
}

/// What a walk over a text tells its reader.
pub(crate) trait Visit {
    /// The slot of the next feature.
    fn feature(&mut self, slot: u32);
    /// The byte offset after a place the text may be cut.
    fn cut(&mut self, at: usize);
}

/// Tells `v` the slot of every feature of `text`, in order, and each place it may be cut.
#[inline]
pub(crate) fn walk(text: &[u8], v: &mut impl Visit) {
    let mut gram = 0u64;
    let mut word = 0u64;
    let mut in_word = false;
    let mut prev_word = 0u64;
    let mut since_cut = 0usize;
    // Bytes read into `gram` (a run of white space counts once).
    let mut read = 0usize;
    for (i, &raw) in text.iter().enumerate() {
        let class = CLASS[usize::from(raw)];
        let b = if class & IS_DIGIT != 0 {
            b'0'
        } else if class & IS_SPACE != 0 {
            b' '
        } else {
            raw
        };
        since_cut += 1;
        if class & IS_SPACE != 0 && gram & 0xff == u64::from(b' ') {
            continue;
        }
        gram = (gram << 8) | u64::from(b);
        read += 1;
        // Inside a run that repeats every one to four bytes (`aaaa`, `abab`, an emoji over and
        // over), the n-grams repeat too: they are counted once, or a long run would outweigh
        // the rest of the text. (Periods 1 to `REPEAT_PERIOD`: the test below keeps the two
        // in step.)
        let periodic = read >= REPEAT_FROM && {
            let g8 = gram & 0xff_ffff_ffff;
            g8 == (gram >> 8) & 0xff_ffff_ffff
                || g8 == (gram >> 16) & 0xff_ffff_ffff
                || g8 == (gram >> 24) & 0xff_ffff_ffff
                || (gram as u32) == (gram >> 32) as u32
        };
        if read >= 5 && !periodic {
            v.feature(slot((gram & 0xff_ffff) ^ GRAM3));
            v.feature(slot((gram & 0xff_ffff_ffff) ^ GRAM5));
        } else if (3..5).contains(&read) {
            v.feature(slot((gram & 0xff_ffff) ^ GRAM3));
        }
        if class & IS_WORD != 0 {
            word = word.rotate_left(5) ^ u64::from(b);
            in_word = true;
            if class & IS_HIGH != 0 && matches!(gram & 0xff_ffff, 0xe3_8082 | 0xef_bc81 | 0xef_bc9f)
            {
                v.cut(i + 1);
                since_cut = 0;
            }
        } else {
            if in_word {
                end_word(v, word, &mut prev_word);
                word = 0;
                in_word = false;
            }
            let stop = class & IS_STOP != 0 || (class & IS_SPACE != 0 && since_cut >= LONG_RUN);
            if stop {
                v.cut(i + 1);
                since_cut = 0;
            }
        }
    }
    if in_word {
        end_word(v, word, &mut prev_word);
    }
}

const IS_WORD: u8 = 1;
const IS_STOP: u8 = 2;
const IS_SPACE: u8 = 4;
const IS_DIGIT: u8 = 8;
const IS_HIGH: u8 = 16;

/// Each byte's classes: a word byte (ASCII letter or digit, or any byte of a non-ASCII
/// character), a sentence stop, white space, a digit; a non-ASCII byte is also `HIGH`, and the
/// last byte of `。`, `！` or `？` (0x82, 0x81, 0x9f) ends a sentence when the two before it say so.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_digit() {
            IS_WORD | IS_DIGIT
        } else if c.is_ascii_alphabetic() {
            IS_WORD
        } else if c >= 0x80 {
            // A word byte; the full-width stops are found from `gram` where one may end.
            if matches!(c, 0x81 | 0x82 | 0x9f) {
                IS_WORD | IS_HIGH
            } else {
                IS_WORD
            }
        } else if matches!(c, b'.' | b'!' | b'?' | b'\n') {
            IS_STOP
        } else if matches!(c, b' ' | b'\t' | b'\r') {
            IS_SPACE
        } else {
            0
        };
        b += 1;
    }
    t
};

#[inline]
fn end_word(v: &mut impl Visit, word: u64, prev: &mut u64) {
    // A word said again right after itself adds nothing.
    if word == *prev {
        return;
    }
    v.feature(slot(word ^ WORD));
    if *prev != 0 {
        v.feature(slot((prev.rotate_left(17) ^ word) ^ PAIR));
    }
    *prev = word;
}

#[cfg(test)]
mod tests {
    use super::{walk, Visit};

    #[derive(Default)]
    struct All(Vec<u32>, Vec<usize>);

    impl Visit for All {
        fn feature(&mut self, slot: u32) {
            self.0.push(slot);
        }
        fn cut(&mut self, at: usize) {
            self.1.push(at);
        }
    }

    fn features(text: &str) -> (Vec<u32>, Vec<usize>) {
        let mut all = All::default();
        walk(text.as_bytes(), &mut all);
        (all.0, all.1)
    }

    #[test]
    fn counts_grams_words_and_pairs() {
        // 5 bytes: three 3-grams, one 5-gram; "ab" and "cd" are two words and one pair.
        let (f, c) = features("ab cd");
        assert_eq!(f.len(), 3 + 1 + 2 + 1);
        assert!(c.is_empty());
        assert!(f.iter().all(|&s| s < 1 << super::BITS));
    }

    #[test]
    fn digits_share_a_shape() {
        assert_eq!(features("order 1234").0, features("order 9876").0);
        assert_ne!(features("order abcd").0, features("order 9876").0);
    }

    #[test]
    fn a_run_that_repeats_counts_its_grams_once() {
        // However long the run, the same grams (those of its first bytes) and one word.
        for (short, long) in [
            ("a".repeat(50), "a".repeat(5000)),
            ("ab".repeat(50), "ab".repeat(500)),
            ("😀".repeat(50), "😀".repeat(500)),
        ] {
            let (s, l) = (features(&short).0, features(&long).0);
            assert_eq!(s.len(), l.len(), "{short}");
            assert_eq!(s[..s.len() - 1], l[..l.len() - 1], "{short}");
        }
        // A word repeated after itself is one word (no pairs): ten grams before the run
        // repeats, one word. Ordinary text is read in full: fourteen grams, one word.
        assert_eq!(features("go go go go").0.len(), 10 + 1);
        assert_eq!(features("abcdefghij").0.len(), 14 + 1);
    }

    #[test]
    fn the_repeated_run_rule_covers_its_periods_and_no_longer_ones() {
        use super::{REPEAT_FROM, REPEAT_PERIOD};
        let unit = "abcdefgh";
        for period in 1..=REPEAT_PERIOD as usize + 1 {
            let run = |n: usize| unit[..period].repeat(n);
            let (short, long) = (features(&run(40)).0.len(), features(&run(80)).0.len());
            if period <= REPEAT_PERIOD as usize {
                assert_eq!(short, long, "period {period}");
            } else {
                assert!(long > short, "period {period}");
            }
        }
        // Before `REPEAT_FROM` bytes nothing counts as a run.
        let first = features(&"a".repeat(REPEAT_FROM - 1)).0.len();
        assert_eq!(first, 2 + 2 * (REPEAT_FROM - 5) + 1);
    }

    #[test]
    fn cuts_after_stops_and_long_runs() {
        assert_eq!(features("one. two\nthree").1, vec![4, 9]);
        assert_eq!(features("一。二").1, vec![6]);
        let long = "word ".repeat(100);
        let cuts = features(&long).1;
        assert!(!cuts.is_empty() && cuts.windows(2).all(|w| w[1] - w[0] >= super::LONG_RUN));
    }
}
