//! Body checks for the provider table: group layouts and checksums that an alphabet and a
//! length alone do not pin down.

use super::{alnum, hex};

/// Grafana service account: 32 alphanumerics, `_`, 8 hex digits.
pub(super) fn grafana_service_account(body: &[u8]) -> bool {
    body[32] == b'_' && body[..32].iter().all(u8::is_ascii_alphanumeric) && body[33..].iter().all(u8::is_ascii_hexdigit)
}

/// Dynatrace token after `dt0c01.`: 24 alphanumerics, `.`, 64 alphanumerics.
pub(super) fn dynatrace_groups(body: &[u8]) -> bool {
    body[24] == b'.' && memchr::memchr(b'.', &body[..24]).is_none() && memchr::memchr(b'.', &body[25..]).is_none()
}

/// Postman API key: 24 hex digits, `-`, 34 hex digits.
pub(super) fn postman_groups(body: &[u8]) -> bool {
    body[24] == b'-' && memchr::memchr(b'-', &body[..24]).is_none() && memchr::memchr(b'-', &body[25..]).is_none()
}

/// 1Password secret key after `A3-`: groups of 6, 11, 5, 5, 5 or of 6, 6, 5, 5, 5, 5.
pub(super) fn one_password_groups(body: &[u8]) -> bool {
    let mut lens = [0usize; 7];
    let mut n = 0;
    for group in body.split(|&c| c == b'-') {
        if n == lens.len() {
            return false;
        }
        lens[n] = group.len();
        n += 1;
    }
    matches!(&lens[..n], [6, 11, 5, 5, 5] | [6, 6, 5, 5, 5, 5])
}

/// age secret key: the 58 data characters after `AGE-SECRET-KEY-1` carry a bech32 checksum
/// over the human-readable part `age-secret-key-`.
pub(super) fn age_checksum(body: &[u8]) -> bool {
    const HRP: &[u8] = b"age-secret-key-";
    let mut data = [0u8; 58];
    for (d, &c) in data.iter_mut().zip(body) {
        let Some(v) = super::super::wallet::BECH32.iter().position(|&x| x == c.to_ascii_lowercase()) else {
            return false;
        };
        *d = v as u8;
    }
    let high = HRP.iter().map(|c| c >> 5);
    let low = HRP.iter().map(|c| c & 31);
    super::super::wallet::polymod(high.chain([0]).chain(low).chain(data)) == 1
}

/// Tokens behind a short prefix and a wide length range (`ctp_`): a random body that long
/// holds a digit, a capital and a small letter, where an identifier
/// (`ctr_LoadBalancerConfiguration`) does not.
pub(super) fn dense(body: &[u8]) -> bool {
    body.iter().any(u8::is_ascii_digit) && body.iter().any(u8::is_ascii_uppercase) && body.iter().any(u8::is_ascii_lowercase)
}

/// Whether `body` is `a` bytes of `x`, `sep`, then bytes of `y` to the end.
fn two_groups(body: &[u8], a: usize, sep: u8, x: fn(u8) -> bool, y: fn(u8) -> bool) -> bool {
    body.len() > a && body[a] == sep && body[..a].iter().all(|&c| x(c)) && body[a + 1..].iter().all(|&c| y(c))
}

/// CAST AI key after `castai_v1_`: 64 alphanumerics, `_`, 8 alphanumerics.
pub(super) fn castai_groups(body: &[u8]) -> bool {
    two_groups(body, 64, b'_', alnum, alnum)
}

/// Defined Networking key after `dnkey-`: 26, `-`, 52.
pub(super) fn defined_networking_groups(body: &[u8]) -> bool {
    body[26] == b'-'
}

/// `LangSmith` key after `lsv2_pt_`/`lsv2_sk_`: 32, `_`, 10, alphanumerics.
pub(super) fn langsmith_groups(body: &[u8]) -> bool {
    two_groups(body, 32, b'_', alnum, alnum)
}

/// Notion token after `ntn_`: 11 digits, then 35 alphanumerics.
pub(super) fn notion_body(body: &[u8]) -> bool {
    body[..11].iter().all(u8::is_ascii_digit) && dense(&body[11..])
}

/// Flutterwave: 32 hex digits then `-X`, or (the test encryption key) 12 hex digits.
pub(super) fn flutterwave_body(body: &[u8]) -> bool {
    match body.len() {
        12 => body.iter().all(|&c| hex(c)),
        34 => body.ends_with(b"-X") && body[..32].iter().all(|&c| hex(c)),
        _ => false,
    }
}

/// Sourcegraph after `sgp_`: 40 hex digits, `local_` and 40, or 16, `_` and 40.
pub(super) fn sourcegraph_body(body: &[u8]) -> bool {
    match body.len() {
        40 => body.iter().all(|&c| hex(c)),
        46 => body.starts_with(b"local_") && body[6..].iter().all(|&c| hex(c)),
        57 => two_groups(body, 16, b'_', hex, hex),
        _ => false,
    }
}

/// Cloudflare Origin CA key after `v1.0-`: 24 hex digits, `-`, 146 hex digits.
pub(super) fn cloudflare_origin_groups(body: &[u8]) -> bool {
    two_groups(body, 24, b'-', hex, hex)
}

/// Brevo key after `xkeysib-`: 64 hex digits, `-`, 16 alphanumerics.
pub(super) fn brevo_groups(body: &[u8]) -> bool {
    two_groups(body, 64, b'-', hex, alnum)
}
