//! Byte offsets (what Rust's `&str` indexes by) to UTF-16 code units (what JavaScript's
//! `String.prototype.slice` indexes by).

/// Converts many byte offsets into one text; build once per text, query in any order.
pub struct Utf16Map<'a> {
    text: &'a str,
    ascii: bool,
}

impl<'a> Utf16Map<'a> {
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        Utf16Map { text, ascii: text.is_ascii() }
    }

    /// UTF-16 offset of the byte offset `byte` (which must lie on a char boundary).
    #[must_use]
    pub fn offset(&self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        self.text[..byte].chars().map(char::len_utf16).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::Utf16Map;

    #[test]
    fn ascii_offsets_are_unchanged() {
        assert_eq!(Utf16Map::new("hello").offset(3), 3);
    }

    #[test]
    fn astral_characters_count_two_units() {
        let text = "😀 a@b.co";
        let map = Utf16Map::new(text);
        assert_eq!(map.offset(text.find('a').unwrap()), 3);
    }
}
