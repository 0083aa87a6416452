//! Cryptocurrency addresses, each with its own checksum:
//! - Bitcoin base58check (`1…` P2PKH, `3…` P2SH): 25 decoded bytes, version 0x00 or 0x05, last
//!   four bytes = first four of SHA-256(SHA-256(first 21));
//! - Bitcoin segwit `bc1…`: bech32 (witness v0) or bech32m (v1+) checksum (BIP 173 / BIP 350);
//! - Ethereum `0x` + 40 hex: mixed case must pass EIP-55 (Keccak-256 of the lowercase hex);
//!   all-lower or all-upper carries no checksum and is reported with lower confidence.

use sha2::{Digest, Sha256};
use sha3::Keccak256;

use super::scan::{at, hit};
use super::{PiiKind, PiiMatch};

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    match b[start] {
        b'0' if at(b, start + 1) == b'x' => ethereum(b, start),
        b'1' | b'3' => base58check(b, start),
        b'b' | b'B' => bech32(b, start),
        _ => None,
    }
}

fn token_end(b: &[u8], start: usize, max: usize) -> usize {
    let mut e = start;
    while e - start <= max && at(b, e).is_ascii_alphanumeric() {
        e += 1;
    }
    e
}

fn ethereum(b: &[u8], start: usize) -> Option<PiiMatch> {
    let hex = start + 2;
    let end = token_end(b, hex, 40);
    if end - hex != 40 || at(b, end) == b'_' || !b[hex..end].iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let addr = &b[hex..end];
    let has_lower = addr.iter().any(u8::is_ascii_lowercase);
    let has_upper = addr.iter().any(u8::is_ascii_uppercase);
    if has_lower && has_upper {
        let mut lower = [0u8; 40];
        for (d, s) in lower.iter_mut().zip(addr) {
            *d = s.to_ascii_lowercase();
        }
        let hash = Keccak256::digest(lower);
        let ok = addr.iter().enumerate().all(|(i, c)| {
            let nibble = if i % 2 == 0 { hash[i / 2] >> 4 } else { hash[i / 2] & 0x0f };
            !c.is_ascii_alphabetic() || c.is_ascii_uppercase() == (nibble >= 8)
        });
        return ok.then(|| hit(PiiKind::CryptoWallet, start, end, 0.97));
    }
    Some(hit(PiiKind::CryptoWallet, start, end, 0.75))
}

const BASE58: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

fn base58check(b: &[u8], start: usize) -> Option<PiiMatch> {
    let end = token_end(b, start, 35);
    let s = &b[start..end];
    if !(26..=35).contains(&s.len()) || at(b, end) == b'_' {
        return None;
    }
    let mut bytes = [0u8; 25];
    for &c in s {
        let mut carry = BASE58.iter().position(|&x| x == c)? as u32;
        for byte in bytes.iter_mut().rev() {
            carry += u32::from(*byte) * 58;
            *byte = carry as u8;
            carry >>= 8;
        }
        if carry != 0 {
            return None;
        }
    }
    let leading_ones = s.iter().take_while(|&&c| c == b'1').count();
    let leading_zeros = bytes.iter().take_while(|&&x| x == 0).count();
    if leading_ones != leading_zeros || (bytes[0] != 0x00 && bytes[0] != 0x05) {
        return None;
    }
    let check = Sha256::digest(Sha256::digest(&bytes[..21]));
    (check[..4] == bytes[21..]).then(|| hit(PiiKind::CryptoWallet, start, end, 0.97))
}

pub(super) const BECH32: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BECH32M_CONST: u32 = 0x2bc8_30a3;

pub(super) fn polymod(values: impl Iterator<Item = u8>) -> u32 {
    const GEN: [u32; 5] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3];
    let mut chk = 1u32;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

fn bech32(b: &[u8], start: usize) -> Option<PiiMatch> {
    if !(b[start + 1..].starts_with(b"c1") || b[start + 1..].starts_with(b"C1")) {
        return None;
    }
    let end = token_end(b, start, 90);
    let s = &b[start..end];
    if !(14..=74).contains(&s.len()) || at(b, end) == b'_' {
        return None;
    }
    let upper = s.iter().any(u8::is_ascii_uppercase);
    if upper && s.iter().any(u8::is_ascii_lowercase) {
        return None;
    }
    let mut data = [0u8; 71];
    let payload = &s[3..];
    for (d, &c) in data.iter_mut().zip(payload) {
        *d = BECH32.iter().position(|&x| x == c.to_ascii_lowercase())? as u8;
    }
    let data = &data[..payload.len()];
    // hrp "bc" expanded: high bits of each char, 0, low bits of each char.
    let hrp = [b'b' >> 5, b'c' >> 5, 0, b'b' & 31, b'c' & 31];
    let check = polymod(hrp.iter().chain(data).copied());
    let version = data[0];
    let want = if version == 0 { 1 } else { BECH32M_CONST };
    if check != want || version > 16 {
        return None;
    }
    // Witness program: the 5-bit groups between version and checksum, regrouped into bytes.
    let program = &data[1..data.len() - 6];
    let bits = program.len() * 5;
    let (len, pad) = (bits / 8, bits % 8);
    let tail_zero = program.last().is_some_and(|&last| u32::from(last) & ((1 << pad) - 1) == 0);
    if pad >= 5 || !tail_zero || !(2..=40).contains(&len) || (version == 0 && len != 20 && len != 32) {
        return None;
    }
    Some(hit(PiiKind::CryptoWallet, start, end, 0.97))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn wallets(text: &str) -> Vec<(&str, f32)> {
        detect(text)
            .into_iter()
            .filter(|m| m.kind == PiiKind::CryptoWallet)
            .map(|m| (&text[m.start..m.end], m.confidence))
            .collect()
    }

    #[test]
    fn finds_base58check() {
        for a in ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"] {
            assert_eq!(wallets(&format!("send to {a} now")).len(), 1, "{a}");
        }
    }

    #[test]
    fn rejects_bad_base58_checksum() {
        assert!(wallets("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3").is_empty());
        assert!(wallets("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz").is_empty());
        assert!(wallets("1111111111111111111111111111").is_empty());
    }

    #[test]
    fn finds_bech32_and_bech32m() {
        for a in [
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
            "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
        ] {
            assert_eq!(wallets(&format!("pay {a}.")).len(), 1, "{a}");
        }
    }

    #[test]
    fn rejects_bad_bech32() {
        // Checksum broken; v0 program with the bech32m constant; mixed case.
        assert!(wallets("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5").is_empty());
        assert!(wallets("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh").is_empty());
        assert!(wallets("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7KV8F3T4").is_empty());
    }

    #[test]
    fn ethereum_checksum_and_confidence() {
        let good = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        assert_eq!(wallets(good), vec![(good, 0.97)]);
        let bad = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
        assert!(wallets(bad).is_empty());
        let lower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
        assert_eq!(wallets(lower), vec![(lower, 0.75)]);
        assert!(wallets("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00").is_empty());
        assert!(wallets("0x5aaeb6053f3e94").is_empty());
    }
}
