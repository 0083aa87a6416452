//! IP addresses. IPv4 is parsed for real (four decimal octets 0–255, no leading zeros, not part
//! of a longer dotted run such as an OID); a dotted quad right after "version", "v", "build"…
//! is a version number. IPv6 follows RFC 4291 text form: eight groups of one to four hex digits,
//! or fewer with one `::`, optionally ending in a dotted IPv4 (`::ffff:192.0.2.1`).

use super::scan::{at, hit, is_word, prev_word};
use super::{PiiKind, PiiMatch};

const VERSION_WORDS: &[&[u8]] = &[b"version", b"ver", b"v", b"release", b"build", b"firmware", b"rev", b"revision", b"update", b"patch"];

pub(super) fn v4(b: &[u8], start: usize) -> Option<PiiMatch> {
    let end = parse_v4(b, start)?;
    // `:8080` (a port) may follow; more dotted or dashed digits may not.
    let next = at(b, end);
    if is_word(next) || (matches!(next, b'.' | b'-') && at(b, end + 1).is_ascii_digit()) {
        return None;
    }
    let mut buf = [0u8; 16];
    if VERSION_WORDS.contains(&prev_word(b, start, &mut buf)) {
        return None;
    }
    Some(hit(PiiKind::IpAddress, start, end, 0.9))
}

/// Parses a dotted quad at `start`, returning its end.
fn parse_v4(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    for octet in 0..4 {
        if octet > 0 {
            if at(b, i) != b'.' {
                return None;
            }
            i += 1;
        }
        let s = i;
        let mut v = 0u32;
        while i - s < 4 && at(b, i).is_ascii_digit() {
            v = v * 10 + u32::from(b[i] - b'0');
            i += 1;
        }
        let len = i - s;
        if len == 0 || len > 3 || v > 255 || (len > 1 && b[s] == b'0') {
            return None;
        }
    }
    Some(i)
}

pub(super) fn v6(b: &[u8], start: usize) -> Option<PiiMatch> {
    // A start just after a `:` is the tail of a longer, malformed run (`1200::AB00:1234::2552`,
    // `::1:2:3:4:5:6:7:8`): the run as a whole was no address, so no part of it is one.
    if start > 0 && b[start] != b':' && b[start - 1] == b':' {
        return None;
    }
    let mut i = start;
    let mut groups = 0;
    let mut compressed = false;
    let mut hex_digits = 0;
    let mut has_decimal = false;
    if at(b, i) == b':' {
        if at(b, i + 1) != b':' || (start > 0 && (b[start - 1] == b':' || b[start - 1].is_ascii_alphanumeric())) {
            return None;
        }
        compressed = true;
        i += 2;
    }
    loop {
        let s = i;
        while i - s < 5 && at(b, i).is_ascii_hexdigit() {
            i += 1;
        }
        let len = i - s;
        if len == 0 {
            // Only valid straight after `::` (`fe80::`), and then the address ends here.
            if !compressed || at(b, i - 1) != b':' {
                return None;
            }
            break;
        }
        if len > 4 {
            return None;
        }
        if at(b, i) == b'.' {
            // Embedded IPv4 tail: must be the last 32 bits.
            let end = parse_v4(b, s)?;
            groups += 2;
            has_decimal = true;
            hex_digits += 4;
            i = end;
            break;
        }
        groups += 1;
        if groups > 8 {
            return None;
        }
        hex_digits += len;
        has_decimal |= b[s..i].iter().any(u8::is_ascii_digit);
        if at(b, i) == b':' && at(b, i + 1) == b':' {
            if compressed {
                return None;
            }
            compressed = true;
            i += 2;
        } else if at(b, i) == b':' && at(b, i + 1).is_ascii_hexdigit() {
            i += 1;
        } else {
            break;
        }
    }
    let count_ok = if compressed { groups <= 7 } else { groups == 8 };
    // `a::b`, `dead::beef` and `std::io`-like text are valid IPv6 in theory, never in practice.
    let leading = b[start] == b':';
    if !count_ok || !has_decimal || (hex_digits < 3 && !leading) || groups == 0 {
        return None;
    }
    let next = at(b, i);
    if next.is_ascii_alphanumeric() || next == b'_' || (next == b':' && at(b, i + 1).is_ascii_hexdigit()) {
        return None;
    }
    Some(hit(PiiKind::IpAddress, start, i, if compressed { 0.85 } else { 0.9 }))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn ips(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::IpAddress).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_ipv4() {
        assert_eq!(ips("server at 192.168.1.10, port 22"), vec!["192.168.1.10"]);
        assert_eq!(ips("connect to 10.0.0.1:8080."), vec!["10.0.0.1"]);
        assert_eq!(ips("ip=8.8.8.8"), vec!["8.8.8.8"]);
    }

    #[test]
    fn rejects_invalid_ipv4_and_versions() {
        assert!(ips("256.1.1.1").is_empty());
        assert!(ips("1.2.3").is_empty());
        assert!(ips("1.2.3.4.5").is_empty());
        assert!(ips("OID 1.3.6.1.4.1.311").is_empty());
        assert!(ips("version 1.2.3.4").is_empty());
        assert!(ips("Version: 10.0.19041.1").is_empty());
        assert!(ips("v1.2.3.4").is_empty());
        assert!(ips("01.02.03.04").is_empty());
    }

    #[test]
    fn finds_ipv6() {
        for a in [
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
            "2001:db8::8a2e:370:7334",
            "fe80::1",
            "::1",
            "::ffff:192.0.2.128",
            "2001:db8::",
        ] {
            assert_eq!(ips(&format!("addr {a} up")), vec![a], "{a}");
        }
    }

    #[test]
    fn rejects_non_ipv6() {
        assert!(ips("at 10:30:00 today").is_empty());
        assert!(ips("use std::io and a::b").is_empty());
        assert!(ips("dead::beef").is_empty());
        assert!(ips("1:2:3:4:5:6:7:8:9").is_empty());
        assert!(ips("2001:db8::1::2").is_empty());
    }

    #[test]
    fn no_part_of_a_malformed_ipv6_is_reported() {
        for t in [
            "1200::AB00:1234::2552:7777:1313",
            "::1:2:3:4:5:6:7:8",
            "::2:3:4:5:6:7:8:9",
            "2001::db8::",
            "2001:db8:::1",
            "2001:db8::12345",
            "2001:db8:0:0:0:0:0:0:1",
            "2001:db8:85a3::8a2e:370k:7334",
            "::ffff:300.1.2.3",
        ] {
            assert!(ips(&format!("addr {t} up")).is_empty(), "{t}: {:?}", ips(t));
        }
        assert_eq!(ips("addr 1:2:3:4:5:6:7:: up"), vec!["1:2:3:4:5:6:7::"]);
        assert_eq!(ips("route 2001:db8:a::123.45.67.89 ok"), vec!["2001:db8:a::123.45.67.89"]);
    }
}
