//! Integers written in decimal without `write!`: the formatting machinery cost a placeholder or
//! an offset several hundred instructions, a tenth of a reply with many matches.

/// Appends `n` in decimal, as `{}` writes it.
pub fn push_uint(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_integers_as_display_does() {
        for n in [0, 1, 9, 10, 99, 100, 1024, 65_535, 100_001, u64::from(u32::MAX), u64::MAX] {
            let mut buf = String::from("x");
            super::push_uint(&mut buf, n);
            assert_eq!(buf, format!("x{n}"));
        }
    }
}
