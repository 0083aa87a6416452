//! Where a JSON string's plain run ends: the first quote, backslash or control byte. Both the
//! reader and the writer scan the ~1 KB text of a check for it, sixteen bytes per compare in
//! vector registers (`wide`'s safe SIMD; the crate forbids `unsafe`): about half an instruction a
//! byte, where a byte loop takes three.

use crate::lanes::{bits, eq, load};
use wide::u8x16;

/// Bytes of `s` before the first quote, backslash or control byte.
pub(crate) fn plain_run(s: &[u8]) -> usize {
    let mut at = 0;
    while at + 16 <= s.len() {
        let v = load(&s[at..]);
        // Bytes 0x00..=0x1f: `min(v, 0x1f) == v`.
        let stop = bits(eq(v, b'"') | eq(v, b'\\') | v.min(u8x16::splat(0x1f)).cmp_eq(v));
        if stop != 0 {
            return at + stop.trailing_zeros() as usize;
        }
        at += 16;
    }
    while let Some(&b) = s.get(at) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::plain_run;

    #[test]
    fn agrees_with_the_byte_loop_at_every_position() {
        let reference = |s: &[u8]| s.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(s.len());
        for stop in [b'"', b'\\', 0u8, 0x1f, b'\n', b' '] {
            for len in 0..70 {
                for at in 0..=len {
                    let mut s: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    if at < len {
                        s[at] = stop;
                    }
                    assert_eq!(plain_run(&s), reference(&s), "stop {stop} at {at} of {len}");
                    s.iter_mut().take(at).for_each(|b| *b |= 0x80); // high bytes are plain
                    assert_eq!(plain_run(&s), reference(&s), "high bytes before {at} of {len}");
                }
            }
        }
    }
}
