//! Byte offsets (what Rust's `&str` indexes by) to UTF-16 code units (what JavaScript's
//! `String.prototype.slice` indexes by), and text to UTF-16 units.

/// Converts many byte offsets into one text; build once per text, query in any order.
pub struct Utf16Map<'a> {
    text: &'a str,
    /// For text that is not ASCII: the UTF-8 bytes beyond the UTF-16 units they encode, summed
    /// over the text before each [`BLOCK`]-byte block, so a query counts at most one block (it
    /// counted every char before the offset: ~9k instructions an offset on 1 KB, all of a
    /// check's PII findings ~36k on 1 KB of English with one em dash).
    surplus_before: Option<Vec<isize>>,
}

/// Bytes per entry of `Utf16Map::surplus_before`.
const BLOCK: usize = 64;

impl<'a> Utf16Map<'a> {
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        let surplus_before = (!text.is_ascii()).then(|| {
            let mut sum = 0;
            let mut before = vec![0];
            for block in text.as_bytes().chunks(BLOCK) {
                sum += surplus(block);
                before.push(sum);
            }
            before
        });
        Utf16Map { text, surplus_before }
    }

    /// UTF-16 offset of the byte offset `byte` (which must lie on a char boundary).
    #[must_use]
    pub fn offset(&self, byte: usize) -> usize {
        let Some(before) = &self.surplus_before else {
            return byte;
        };
        let start = byte / BLOCK * BLOCK;
        let total = before[byte / BLOCK] + surplus(&self.text.as_bytes()[start..byte]);
        // Not negative: a prefix that ends on a char boundary has len_utf8 - len_utf16 >= 0 for
        // each of its chars.
        byte - usize::try_from(total).unwrap_or(0)
    }
}

/// `text` as UTF-16 code units (what a JavaScript string holds): its ASCII runs widened a run
/// at a time ([`crate::lanes::ascii_len`]), the other chars encoded one by one.
#[must_use]
pub fn encode(text: &str) -> Vec<u16> {
    let bytes = text.as_bytes();
    let mut units = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let ascii = at + crate::lanes::ascii_len(&bytes[at..]);
        units.extend(bytes[at..ascii].iter().map(|&b| u16::from(b)));
        let Some(c) = text[ascii..].chars().next() else { break };
        units.extend_from_slice(c.encode_utf16(&mut [0; 2]));
        at = ascii + c.len_utf8();
    }
    units
}

/// UTF-8 bytes in `bytes` beyond the UTF-16 units they encode: one per continuation byte, less
/// one per four-byte lead (its char takes two units). Negative for a slice that ends inside a
/// four-byte char; exact for one that starts and ends on char boundaries. Eight bytes at a time
/// in a `u64` (the byte-wise counts compiled to ~12 instructions a byte).
fn surplus(bytes: &[u8]) -> isize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut eights = bytes.chunks_exact(8);
    let (mut continuations, mut astral) = (0usize, 0usize);
    for eight in eights.by_ref() {
        let w = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // Each byte's bit 7 set where its top bits are 10 (continuation) or 1111 (four-byte
        // lead): shifting the word left moves each byte's lower bits up into its own bit 7 (and
        // its bit 7 into the next byte's bit 0, which the mask drops).
        continuations += (w & !(w << 1) & HIGH).count_ones() as usize;
        astral += (w & (w << 1) & (w << 2) & (w << 3) & HIGH).count_ones() as usize;
    }
    for &b in eights.remainder() {
        continuations += usize::from(b & 0xC0 == 0x80);
        astral += usize::from(b >= 0xF0);
    }
    continuations.cast_signed() - astral.cast_signed()
}

#[cfg(test)]
mod tests {
    use super::Utf16Map;

    #[test]
    fn ascii_offsets_are_unchanged() {
        assert_eq!(Utf16Map::new("hello").offset(3), 3);
    }

    #[test]
    fn every_char_boundary_maps_as_counting_chars_does() {
        // ASCII runs of every length around the block size between chars of one to four bytes,
        // so boundaries, and four-byte chars, fall on every block edge.
        let pieces = ["a", "bc ", "\u{e9}", "\u{2014}", "\u{1F600}", "0123456789abcdef0123456789abcdef0123456789abcdef012345678", "\u{4e2d}"];
        let mut next = crate::test_rng::xorshift(0xbb67_ae85_84ca_a73b);
        for _ in 0..300 {
            let mut text = String::new();
            for _ in 0..next() % 40 {
                text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let map = Utf16Map::new(&text);
            for (byte, _) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
                let counted: usize = text[..byte].chars().map(char::len_utf16).sum();
                assert_eq!(map.offset(byte), counted, "{text:?} at {byte}");
            }
        }
    }

    #[test]
    fn encode_gives_the_units_of_encode_utf16() {
        for text in ["", "ascii only, longer than eight", "é", "ab — cd “x”", "😀 a@b.co 😀", "東京 \u{1F680}x"] {
            assert_eq!(super::encode(text), text.encode_utf16().collect::<Vec<_>>(), "{text:?}");
        }
    }

    #[test]
    fn astral_characters_count_two_units() {
        let text = "😀 a@b.co";
        let map = Utf16Map::new(text);
        assert_eq!(map.offset(text.find('a').unwrap()), 3);
    }
}
