//! Streaming base64 decoding for the detectors: JWT headers, Basic-auth credentials and encoded
//! injection payloads. Both alphabets are accepted (standard `+/` and URL-safe `-_`), without
//! padding (callers strip it), and nothing is allocated.

/// The 6-bit value of a base64 character of either alphabet.
#[must_use]
pub(crate) fn sextet(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    })
}

/// Decodes unpadded base64, handing each byte to `each` in order. Returns false as soon as a
/// character is not base64 or `each` returns false; trailing bits of a partial quantum are dropped.
pub(crate) fn decode_each(input: &[u8], mut each: impl FnMut(u8) -> bool) -> bool {
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in input {
        let Some(v) = sextet(c) else { return false };
        acc = (acc << 6 | u32::from(v)) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            if !each((acc >> bits) as u8) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::decode_each;

    fn decode(s: &str) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        decode_each(s.as_bytes(), |b| {
            out.push(b);
            true
        })
        .then_some(out)
    }

    #[test]
    fn decodes_both_alphabets_without_padding() {
        assert_eq!(decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode("-_8").unwrap(), decode("+/8").unwrap());
        assert_eq!(decode("eyJhbGciOiJIUzI1NiJ9").unwrap(), br#"{"alg":"HS256"}"#);
    }

    #[test]
    fn refuses_characters_outside_the_alphabets() {
        assert!(decode("aGV*bG8").is_none());
        assert!(decode("aGVsbG8=").is_none(), "padding is the caller's to strip");
    }

    #[test]
    fn stops_when_the_callback_says_so() {
        let mut seen = 0;
        assert!(!decode_each(b"aGVsbG8", |_| {
            seen += 1;
            seen < 2
        }));
        assert_eq!(seen, 2);
    }
}
