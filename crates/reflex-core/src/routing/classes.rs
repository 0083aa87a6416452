//! The byte classes of the routing scan, sixteen bytes at a time in vector lanes (see
//! [`crate::lanes`]): which bytes are word bytes, which are neither word bytes nor spaces, and
//! the letters lower-cased with every other byte zeroed, which the scan reads four at a time as
//! the key of its keyword filter; and, by table, what each of those other bytes is to the scan.

use crate::lanes;
use wide::i8x16;

/// Bytes per block of the scan: one bit of a `u64` each.
pub(super) const BLOCK: usize = 64;

/// A block and the sixteen bytes after it: a word that starts in the block is read from here
/// with no bounds to check, unless it runs on past it.
pub(super) const WINDOW: usize = BLOCK + 16;

/// What the scan needs of a block, bit `k` (or byte `k`) for byte `k` of the window.
pub(super) struct Block {
    /// The word bytes ([`is_word_byte`]) of the block, but `'` and `_`: rare in prose, they
    /// are left among the `others` for the scan to move (two compares a lane less).
    pub words: u64,
    /// The bytes of the block that are neither word bytes nor spaces (punctuation, line
    /// breaks, tabs…), and `'` and `_`.
    pub others: u64,
    /// The spaces (b' ') of the block.
    pub spaces: u64,
    /// The whole window's ASCII letters lower-cased, zero for every other byte.
    pub letters: [u8; WINDOW],
}

/// The classes of the window's bytes: four times sixteen for the block, and the letters of the
/// sixteen after it (a word near the block's end is keyed on up to four bytes past it).
pub(super) fn block(window: &[u8; WINDOW]) -> Block {
    let mut block = Block { words: 0, others: 0, spaces: 0, letters: [0; WINDOW] };
    for n in 0..BLOCK / 16 {
        let (word, space, letters) = sixteen(lanes::load_signed(&window[16 * n..]));
        block.words |= u64::from(word) << (16 * n);
        block.spaces |= u64::from(space) << (16 * n);
        block.letters[16 * n..16 * n + 16].copy_from_slice(&letters.to_array().map(i8::cast_unsigned));
    }
    block.others = !(block.words | block.spaces);
    let past = letters(lanes::load_signed(&window[BLOCK..]) | i8x16::splat(0x20)).1;
    block.letters[BLOCK..].copy_from_slice(&past.to_array().map(i8::cast_unsigned));
    block
}

/// What the scan makes of one of a block's `others`, as an index into its masks by class
/// ([`OTHER_CLASS`]): a table look-up in place of a `match` on the byte, whose jump the branch
/// predictor cannot learn when the punctuation differs from text to text.
pub(super) const IGNORED: usize = 0;
/// `'` and `_`: word bytes after all.
pub(super) const MARK: usize = 1;
/// `.`, `!` and `?`: may end a sentence.
pub(super) const STOP: usize = 2;
/// `,`, `;` and `:`: each counts a clause.
pub(super) const CLAUSE: usize = 3;
/// ASCII white space but the line break (`' '` too, though the block's spaces are no `others`).
pub(super) const SPACE: usize = 4;
/// `\n`: white space that also ends the block's scan.
pub(super) const NEWLINE: usize = 5;
/// Masks by class: a power of two, so that an index masked to it needs no bounds check.
pub(super) const CLASSES: usize = 8;

/// Where an [`OTHER_CLASS`] entry counts a clause: above the classes of a block's 64 bytes
/// added up (at most 64 x 7), so that the entries of a block summed hold its clauses from here.
pub(super) const CLAUSE_SHIFT: u32 = 9;
const _: () = assert!(BLOCK * (CLASSES - 1) < 1 << CLAUSE_SHIFT, "a block's classes summed reach the clause count");

/// The class of every byte (the bytes that are no `others` are [`IGNORED`] but `' '`), and for
/// `,` `;` `:` one at [`CLAUSE_SHIFT`]: the scan counts clauses with one addition a byte.
pub(super) static OTHER_CLASS: [u16; 256] = {
    let mut table = [IGNORED as u16; 256];
    table[b'\'' as usize] = MARK as u16;
    table[b'_' as usize] = MARK as u16;
    table[b'.' as usize] = STOP as u16;
    table[b'!' as usize] = STOP as u16;
    table[b'?' as usize] = STOP as u16;
    let clause = CLAUSE as u16 | 1 << CLAUSE_SHIFT;
    table[b',' as usize] = clause;
    table[b';' as usize] = clause;
    table[b':' as usize] = clause;
    table[b' ' as usize] = SPACE as u16;
    table[b'\t' as usize] = SPACE as u16;
    table[0x0c] = SPACE as u16;
    table[b'\r' as usize] = SPACE as u16;
    table[b'\n' as usize] = NEWLINE as u16;
    table
};

/// The letters of `folded` (bytes with bit 5 set), as a lane mask and lower-cased with zero for
/// every other byte. Setting bit 5 lower-cases letters and maps no other byte into `a..=z`.
fn letters(folded: i8x16) -> (i8x16, i8x16) {
    let letter = lanes::within_signed(folded, b'a', b'z');
    (letter, folded & letter)
}

/// The word bytes but `'` and `_`, and the spaces, of sixteen bytes as bit masks, and their
/// letters lower-cased (zero for every other byte). The bytes from 0x80 are word bytes by
/// their own top bit.
fn sixteen(v: i8x16) -> (u16, u16, i8x16) {
    let (letter, lower) = letters(v | i8x16::splat(0x20));
    let word = lanes::bits_signed(letter | lanes::within_signed(v, b'0', b'9')) | lanes::bits_signed(v);
    (word, lanes::bits_signed(lanes::eq_signed(v, b' ')), lower)
}

/// The length of the run of word bytes at the start of `bytes`: for the few words that run on
/// past a block.
pub(super) fn word_len(bytes: &[u8]) -> usize {
    bytes.iter().position(|&b| !is_word_byte(b)).unwrap_or(bytes.len())
}

/// Word bytes: letters, digits, `_`, `'` and any non-ASCII byte (so "naïve" stays one word).
pub(super) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'\'' || b >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lanes_agree_with_the_byte_tests() {
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut lanes = *b"abcdefgh ijklmno";
                lanes[at] = b;
                let (word, space, letters) = sixteen(lanes::load_signed(&lanes));
                let mut expected_word = 0b1111_1110_1111_1111u16 & !(1 << at);
                expected_word |= u16::from(is_word_byte(b) && b != b'\'' && b != b'_') << at;
                let expected_space = if at == 8 { u16::from(b == b' ') << 8 } else { 1 << 8 | u16::from(b == b' ') << at };
                assert_eq!((word, space), (expected_word, expected_space), "{b:#x} at {at}");
                let letter = if b.is_ascii_alphabetic() { b.to_ascii_lowercase() } else { 0 };
                assert_eq!(letters.to_array()[at].cast_unsigned(), letter, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn a_block_has_the_classes_of_its_bytes() {
        let window: [u8; WINDOW] = std::array::from_fn(|k| b"Ab9_' .\n\xc3\xa9,-"[k % 12]);
        let block = block(&window);
        for (k, &b) in window.iter().enumerate() {
            if k < BLOCK {
                let mark = b == b'\'' || b == b'_';
                assert_eq!(block.words >> k & 1 == 1, is_word_byte(b) && !mark, "{k}");
                assert_eq!(block.others >> k & 1 == 1, (!is_word_byte(b) && b != b' ') || mark, "{k}");
            }
            let letter = if b.is_ascii_alphabetic() { b.to_ascii_lowercase() } else { 0 };
            assert_eq!(block.letters[k], letter, "{k}");
        }
    }

    #[test]
    fn every_byte_has_the_class_the_scan_needs() {
        for b in 0..=255u8 {
            let entry = OTHER_CLASS[usize::from(b)];
            let class = usize::from(entry) & (CLASSES - 1);
            let expected = match b {
                b'\'' | b'_' => MARK,
                b'.' | b'!' | b'?' => STOP,
                b',' | b';' | b':' => CLAUSE,
                b'\n' => NEWLINE,
                _ if b.is_ascii_whitespace() => SPACE,
                _ => IGNORED,
            };
            assert_eq!(class, expected, "{b:#x}");
            assert_eq!(entry >> CLAUSE_SHIFT, u16::from(expected == CLAUSE), "{b:#x}");
            assert!(usize::from(entry & ((1 << CLAUSE_SHIFT) - 1)) < CLASSES, "{b:#x}");
        }
    }

    #[test]
    fn word_len_reads_to_the_first_byte_that_is_no_word_byte() {
        for len in 0..40 {
            let text = format!("{} x", "a".repeat(len));
            assert_eq!(word_len(text.as_bytes()), len);
            assert_eq!(word_len(&text.as_bytes()[..len]), len);
        }
    }
}
