//! MAC addresses: six hex pairs joined by `:` or `-` (one separator throughout), or the Cisco
//! dotted form `0011.2233.4455`. The all-zero address and the broadcast address
//! (`ff:ff:ff:ff:ff:ff`) name no device, so they are not personal data.

use super::scan::{at, hit};
use super::{PiiKind, PiiMatch};

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let hex = |i: usize| at(b, i).is_ascii_hexdigit();
    let sep = at(b, start + 2);
    let end = if (sep == b':' || sep == b'-') && hex(start) && hex(start + 1) {
        let ok = (0..6).all(|k| {
            let p = start + k * 3;
            hex(p) && hex(p + 1) && (k == 5 || at(b, p + 2) == sep)
        });
        if !ok {
            return None;
        }
        start + 17
    } else if at(b, start + 4) == b'.' {
        let ok = (0..3).all(|k| {
            let p = start + k * 5;
            (p..p + 4).all(hex) && (k == 2 || at(b, p + 4) == b'.')
        });
        if !ok {
            return None;
        }
        start + 14
    } else {
        return None;
    };
    let next = at(b, end);
    if next.is_ascii_alphanumeric() || next == b'_' || ((next == sep || next == b'.') && hex(end + 1)) {
        return None;
    }
    let hex_digits = || b[start..end].iter().filter(|c| c.is_ascii_hexdigit());
    if hex_digits().all(|&c| c == b'0') || hex_digits().all(|&c| c | 0x20 == b'f') {
        return None;
    }
    Some(hit(PiiKind::MacAddress, start, end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn macs(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::MacAddress).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_the_three_forms() {
        assert_eq!(macs("eth0 00:1A:2b:3C:4d:5E up"), vec!["00:1A:2b:3C:4d:5E"]);
        assert_eq!(macs("hw a0-b1-c2-d3-e4-f5."), vec!["a0-b1-c2-d3-e4-f5"]);
        assert_eq!(macs("cisco 0011.2233.44ff"), vec!["0011.2233.44ff"]);
    }

    #[test]
    fn rejects_mixed_or_long() {
        assert!(macs("00:1A-2b:3C:4d:5E").is_empty());
        assert!(macs("00:1A:2b:3C:4d:5E:6f").is_empty());
        assert!(macs("00:1A:2b:3C:4d").is_empty());
        assert!(macs("0g:1A:2b:3C:4d:5E").is_empty());
    }

    #[test]
    fn all_zero_and_broadcast_are_no_device() {
        for t in ["00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff", "FF-FF-FF-FF-FF-FF", "0000.0000.0000", "ffff.ffff.ffff", "dst FF:FF:ff:FF:ff:FF src"] {
            assert!(detect(t).is_empty(), "{t}");
        }
        // One byte off either is a device again.
        assert_eq!(macs("ff:ff:ff:ff:ff:fe"), vec!["ff:ff:ff:ff:ff:fe"]);
        assert_eq!(macs("00:00:00:00:00:01"), vec!["00:00:00:00:00:01"]);
    }
}
