//! Byte classes sixteen bytes at a time, in vector registers through the `wide` crate (safe
//! SIMD: the crate forbids `unsafe`), for the block scans of routing and PII. Each class is a
//! lane mask (0xFF where it holds); `bits` gathers one into a bit per byte, one `movemask`.
//! The `signed` helpers do the same on `i8x16`, whose compare (`pcmpgtb`) tests a range in two
//! instructions where the unsigned lanes need three. (`ascii_len`, the one scan here with an
//! early exit, reads eight bytes at a time in a `u64` instead.)

use wide::{i8x16, u8x16, CmpEq, CmpGt};

/// Sixteen bytes from the start of `bytes` (at least sixteen of them).
pub(crate) fn load(bytes: &[u8]) -> u8x16 {
    u8x16::new(bytes.get(..16).and_then(|s| s.try_into().ok()).unwrap_or_default())
}

/// The lanes equal to `b`.
pub(crate) fn eq(v: u8x16, b: u8) -> u8x16 {
    v.cmp_eq(u8x16::splat(b))
}

/// The lanes in `lo..=hi`: unsigned, so after subtracting `lo` that is `x <= hi - lo`, tested as
/// `min(x, hi - lo) == x` (there is no unsigned compare).
pub(crate) fn within(v: u8x16, lo: u8, hi: u8) -> u8x16 {
    let x = v - u8x16::splat(lo);
    x.min(u8x16::splat(hi - lo)).cmp_eq(x)
}

/// The ASCII letters of either case: setting bit 5 lower-cases letters and maps no other byte
/// into `a..=z`.
pub(crate) fn letters(v: u8x16) -> u8x16 {
    within(v | u8x16::splat(0x20), b'a', b'z')
}

/// Bit `k` set when lane `k` of the mask `m` is set.
#[allow(clippy::cast_sign_loss)] // `move_mask` of sixteen lanes fills the low 16 bits only
pub(crate) fn bits(m: u8x16) -> u16 {
    m.move_mask() as u16
}

/// Bit `k` set when byte `k` of `block` (64 bytes) is in `class`: four loads, four masks.
pub(crate) fn mask64(block: &[u8], class: impl Fn(u8x16) -> u8x16) -> u64 {
    let mut mask = 0;
    for (j, sixteen) in block.chunks_exact(16).take(4).enumerate() {
        mask |= u64::from(bits(class(load(sixteen)))) << (16 * j);
    }
    mask
}

/// Sixteen bytes from the start of `bytes` (at least sixteen of them) as signed lanes.
pub(crate) fn load_signed(bytes: &[u8]) -> i8x16 {
    let sixteen: [u8; 16] = bytes.get(..16).and_then(|s| s.try_into().ok()).unwrap_or_default();
    i8x16::new(sixteen.map(u8::cast_signed))
}

/// The signed lanes equal to the byte `b`.
pub(crate) fn eq_signed(v: i8x16, b: u8) -> i8x16 {
    v.cmp_eq(i8x16::splat(b.cast_signed()))
}

/// The signed lanes holding a byte in `lo..=hi` (`lo < hi`): adding `0x80 - lo` moves that range
/// to the bottom of the signed bytes, `-128..-128 + (hi - lo + 1)`, and every other byte above it.
pub(crate) fn within_signed(v: i8x16, lo: u8, hi: u8) -> i8x16 {
    let moved = v + i8x16::splat(0x80u8.wrapping_sub(lo).cast_signed());
    i8x16::splat((hi - lo + 1).wrapping_add(0x80).cast_signed()).cmp_gt(moved)
}

/// Bit `k` set when lane `k` of the signed mask `m` is set (or, for any signed lanes, when
/// byte `k` is 0x80 or above).
#[allow(clippy::cast_sign_loss)] // `move_mask` of sixteen lanes fills the low 16 bits only
pub(crate) fn bits_signed(m: i8x16) -> u16 {
    m.move_mask() as u16
}

/// How many bytes `bytes` starts with that are ASCII: eight at a time in a `u64`, as the
/// stretches between two non-ASCII characters of mostly-ASCII text are long.
pub(crate) fn ascii_len(bytes: &[u8]) -> usize {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut eights = bytes.chunks_exact(8);
    let mut n = 0;
    for eight in eights.by_ref() {
        let high = u64::from_le_bytes(eight.try_into().expect("eight bytes")) & HIGHS;
        if high != 0 {
            return n + high.trailing_zeros() as usize / 8;
        }
        n += 8;
    }
    n + eights.remainder().iter().take_while(|b| b.is_ascii()).count()
}

#[cfg(test)]
mod tests {
    use super::{ascii_len, bits, bits_signed, eq, eq_signed, letters, load, load_signed, within, within_signed};

    #[test]
    fn classes_agree_with_the_byte_tests() {
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut lanes = *b"0123456789abcdef";
                lanes[at] = b;
                let v = load(&lanes);
                let bit = |m| bits(m) >> at & 1 == 1;
                assert_eq!(bit(eq(v, b'_')), b == b'_', "{b:#x}");
                assert_eq!(bit(within(v, b'0', b'9')), b.is_ascii_digit(), "{b:#x}");
                assert_eq!(bit(within(v, b'a', b'z')), b.is_ascii_lowercase(), "{b:#x}");
                assert_eq!(bit(letters(v)), b.is_ascii_alphabetic(), "{b:#x}");
                let v = load_signed(&lanes);
                let bit = |m| bits_signed(m) >> at & 1 == 1;
                assert_eq!(bit(eq_signed(v, b'_')), b == b'_', "{b:#x}");
                assert_eq!(bit(within_signed(v, b'0', b'9')), b.is_ascii_digit(), "{b:#x}");
                assert_eq!(bit(within_signed(v, b'a', b'z')), b.is_ascii_lowercase(), "{b:#x}");
                assert_eq!(bit(within_signed(v, 0x80, 0xfe)), (0x80..=0xfe).contains(&b), "{b:#x}");
                assert_eq!(bit(v), b >= 0x80, "{b:#x}");
            }
        }
    }

    #[test]
    fn ascii_len_stops_at_the_first_high_byte() {
        for n in 0..40 {
            let mut text = "x".repeat(n);
            assert_eq!(ascii_len(text.as_bytes()), n);
            text.push('é');
            text.push_str("abc");
            assert_eq!(ascii_len(text.as_bytes()), n, "{n}");
        }
    }
}
