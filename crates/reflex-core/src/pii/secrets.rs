//! Provider API keys and tokens, JWTs and PEM private-key blocks.
//!
//! Provider tokens are recognised by their documented prefixes and alphabets: the word's first
//! byte selects the few prefixes that start with it (`secret_rules`), then the body's alphabet,
//! length and, where the format has one, its group layout or checksum are checked. Secrets
//! announced by a byte other than their first (webhook URLs, dotted tokens, Azure keys, bot
//! tokens, AWS secret keys) are in `secret_shapes`. JWTs: base64url segments whose header
//! decodes to JSON naming an `alg`, signed or not. PEM private-key blocks: the whole block,
//! BEGIN line through END line.

use memchr::memmem;

use super::scan::{at, hit, run_len};
use super::{PiiKind, PiiMatch};

use super::secret_rules::{rules, url64};

pub(super) fn api_key(b: &[u8], start: usize) -> Option<PiiMatch> {
    let rest = &b[start..];
    match rest[0] {
        b'e' if rest.starts_with(b"eyJ") => return jwt(b, start).or_else(|| grafana_key(b, start)),
        b'S' if at(b, start + 1) == b'G' => return sendgrid(b, start),
        b'M' | b'N' | b'O' => {
            if let Some(m) = super::secret_shapes::discord_bot(b, start) {
                return Some(m);
            }
        }
        _ => {}
    }
    // One branch for most words: no prefix starts with their first byte. The rest compare
    // their second byte in place before the whole prefix (`memcmp`). `rest[1]` may be past
    // the end: `at` gives 0 there, which no prefix has.
    let second = at(b, start + 1);
    let rule = rules(rest[0])
        .iter()
        .find(|r| r.prefix[1] == second && rest.starts_with(r.prefix))?;
    let s = start + rule.prefix.len();
    let mut len = run_len(b, s, rule.max + 1, rule.body);
    // A sentence's full stop after a token whose alphabet has dots is not part of it.
    while len > 0 && b[s + len - 1] == b'.' {
        len -= 1;
    }
    if len < rule.min || len > rule.max {
        return None;
    }
    let mut end = s + len;
    // Databricks tokens may carry a `-<digit>` suffix.
    if rule.prefix == b"dapi" && at(b, end) == b'-' && at(b, end + 1).is_ascii_digit() {
        end += 2;
    }
    // GitLab's routable tokens end in `.`, 2 and 7 lower-case alphanumerics (the instance and
    // a checksum).
    if matches!(rule.prefix, b"glpat-" | b"glrt-") && at(b, end) == b'.' && routable_suffix(&b[end + 1..]) {
        end += 10;
    }
    // A key glued to more word bytes is something else (`AKIA…` inside a longer identifier).
    if url64(at(b, end)) {
        return None;
    }
    let body = &b[s..s + len];
    if !random(body) || rule.shape.is_some_and(|shape| !shape(body)) {
        return None;
    }
    Some(hit(PiiKind::ApiKey, start, end, rule.confidence))
}

/// Nine lower-case alphanumerics, then no more token bytes.
fn routable_suffix(rest: &[u8]) -> bool {
    rest.len() >= 9 && rest[..9].iter().all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit()) && !url64(at(rest, 9))
}

/// Real keys are random: they mix letters and digits, or (long all-letter bodies such as
/// Hugging Face tokens) both cases, and hold no run of one character (`AKIAXXXXXXXXXXXXXXXX`,
/// `sk_live_0000…`). `sk-this-is-not-a-key-at-all` isn't. Keys in the providers' documented
/// example format (`AKIAIOSFODNN7EXAMPLE`) are reported: text cannot tell them from live ones.
pub(super) fn random(token: &[u8]) -> bool {
    let digit = token.iter().any(u8::is_ascii_digit);
    let upper = token.iter().any(u8::is_ascii_uppercase);
    let lower = token.iter().any(u8::is_ascii_lowercase);
    let mixed = (digit && (upper || lower)) || (upper && lower && token.len() >= 20);
    mixed && !repeats(token, 6)
}

/// Whether one byte repeats `n` times in a row.
fn repeats(token: &[u8], n: usize) -> bool {
    let mut run = 0;
    let mut prev = 0;
    for &c in token {
        run = if c == prev { run + 1 } else { 1 };
        prev = c;
        if run >= n {
            return true;
        }
    }
    false
}

/// `SendGrid`: `SG.` + 22 base64url + `.` + 43 base64url.
fn sendgrid(b: &[u8], start: usize) -> Option<PiiMatch> {
    if at(b, start + 2) != b'.' {
        return None;
    }
    let id = start + 3;
    if run_len(b, id, 23, url64) != 22 || at(b, id + 22) != b'.' {
        return None;
    }
    let secret = id + 23;
    let end = secret + 43;
    (run_len(b, secret, 44, url64) == 43 && random(&b[id..end])).then(|| hit(PiiKind::ApiKey, start, end, 0.95))
}

/// `header.payload.signature`, or `header.payload.` with no signature (`"alg": "none"`): the
/// header must decode to a JSON object naming an `alg`; an unsigned token's payload must decode
/// to a JSON object too.
fn jwt(b: &[u8], start: usize) -> Option<PiiMatch> {
    let h = run_len(b, start, 2048, url64);
    if h < 10 || at(b, start + h) != b'.' {
        return None;
    }
    let p0 = start + h + 1;
    let p = run_len(b, p0, 1 << 16, url64);
    if p == 0 || at(b, p0 + p) != b'.' {
        return None;
    }
    let s0 = p0 + p + 1;
    let s = run_len(b, s0, 4096, url64);
    let end = s0 + s;
    // A fourth segment is something else (an encrypted token); a full stop ending the sentence
    // is not.
    if (at(b, end) == b'.' && url64(at(b, end + 1))) || at(b, end) == b'=' {
        return None;
    }
    if !decodes_to(&b[start..start + h], Some(b"\"alg\"")) {
        return None;
    }
    if s == 0 {
        return decodes_to(&b[p0..p0 + p], None).then(|| hit(PiiKind::ApiKey, start, end, 0.9));
    }
    Some(hit(PiiKind::ApiKey, start, end, 0.95))
}

/// Grafana's older API keys: base64 of `{"k":"…","n":"…","id":…}` with no dots.
fn grafana_key(b: &[u8], start: usize) -> Option<PiiMatch> {
    let len = run_len(b, start, 401, |c| {
        c.is_ascii_alphanumeric() || c == b'+' || c == b'/'
    });
    let mut end = start + len;
    while at(b, end) == b'=' && end < start + len + 2 {
        end += 1;
    }
    if !(70..=400).contains(&len) || url64(at(b, end)) || !b[start..].starts_with(b"eyJrIjoi") {
        return None;
    }
    decodes_to(&b[start..start + len], Some(b"\"n\":"))
        .then(|| hit(PiiKind::ApiKey, start, end, 0.95))
}

/// Decodes base64 (no padding) and checks it is a JSON object (starts with `{`) containing
/// `needle` when one is given.
fn decodes_to(seg: &[u8], needle: Option<&[u8]>) -> bool {
    let mut out = [0u8; 1536];
    let mut n = 0;
    let decoded = crate::base64::decode_each(seg, |byte| {
        let Some(slot) = out.get_mut(n) else {
            return false;
        };
        *slot = byte;
        n += 1;
        true
    });
    if !decoded && n < out.len() {
        return false;
    }
    let json = &out[..n];
    json.first() == Some(&b'{') && needle.is_none_or(|w| memmem::find(json, w).is_some())
}

pub(super) fn private_key(b: &[u8], start: usize) -> Option<PiiMatch> {
    const BEGIN: &[u8] = b"-----BEGIN ";
    if !b[start..].starts_with(BEGIN) {
        return None;
    }
    let line_end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |k| start + k);
    let header = b[start..line_end].trim_ascii_end();
    if !(header.ends_with(b"PRIVATE KEY-----") || header.ends_with(b"PRIVATE KEY BLOCK-----")) {
        return None;
    }
    // Keys are a few KB; looking no further keeps many unterminated headers from going quadratic.
    let limit = b.len().min(line_end + 16 * 1024);
    let end = if let Some(k) = memmem::find(&b[line_end..limit], b"-----END ") {
        let e = line_end + k + 9;
        // Through the closing dashes of the END line.
        memmem::find(&b[e..], b"-----").map_or(b.len(), |k| e + k + 5)
    } else {
        // Truncated block: take the header and the base64 body that follows it.
        {
            let mut e = line_end;
            while e < limit && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'+' | b'/' | b'=' | b'\n' | b'\r')) {
                e += 1;
            }
            b[..e].trim_ascii_end().len()
        }
    };
    Some(hit(PiiKind::PrivateKey, start, end, 0.99))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn keys(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    #[test]
    fn finds_provider_keys() {
        for k in [
            "AKIAZ7Q2M4XKD9PLW3RT",
            "ASIAY34FZKBOKMUTVV7A",
            "ghp_1234567890abcdefghijklmnopqrstuvwxyz",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN",
            "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
            "pk_live_51H8abcDEFghiJKLmnoPQ",
            "sk-proj-abc123DEF456ghi789JKL012mno345",
            "sk-ant-api03-abcDEF123456ghiJKL789mno-xyz",
            "sk-abcdefghij1234567890ABCDEFGHIJ",
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
            "glpat-Zx81_qPd-Wm3RtY7vLk2",
            "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",
            "npm_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
            "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",
            "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",
            "whsec_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9v",
            "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",
            "SK0f1e2d3c4b5a69788796a5b4c3d2e1f0",
            "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
            // AWS's documented example key: a gateway cannot tell it from a live one.
            "AKIAIOSFODNN7EXAMPLE",
        ] {
            assert_eq!(keys(&format!("key {k} end")), vec![(PiiKind::ApiKey, k)], "{k}");
        }
    }

    #[test]
    fn rejects_lookalikes() {
        for t in [
            "AKIAIOSFODNN7EXAMPL",
            "AKIAIOSFODNN7EXAMPLEX",
            "AKIAXXXXXXXXXXXXXXXX",
            "ghp_short123",
            "the sk-learn package",
            "sk-this-is-not-a-key-at-all-really",
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMB",
            "xoxq-123456789012-1234567890123",
            "SG.xxxxx.yyyyy",
            "hf_hub_download",
            "glpat-xxxxxxxxxxxxxxxxxxxx",
        ] {
            assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn finds_jwt_with_alg_header() {
        let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        assert_eq!(keys(&format!("Authorization: Bearer {jwt}")), vec![(PiiKind::ApiKey, jwt)]);
        // A header without "alg" is not a JWT.
        let no_alg = "eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxIn0.abc";
        assert!(keys(no_alg).is_empty());
        assert!(keys("eyJhbGciOiJIUzI1NiJ9.only-two").is_empty());
        // At the end of a sentence, the full stop is not part of it.
        assert_eq!(keys(&format!("The token is {jwt}.")), vec![(PiiKind::ApiKey, jwt)]);
    }

    #[test]
    fn finds_unsigned_jwt() {
        // {"alg":"none","typ":"JWT"} . {"sub":"1234567890","admin":true} . (no signature)
        let jwt = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxMjM0NTY3ODkwIiwiYWRtaW4iOnRydWV9.";
        assert_eq!(keys(&format!("Authorization: Bearer {jwt}")), vec![(PiiKind::ApiKey, jwt)]);
        assert_eq!(keys(&format!("token={jwt}&next=1")), vec![(PiiKind::ApiKey, jwt)]);
        assert_eq!(keys(jwt), vec![(PiiKind::ApiKey, jwt)]);
        // A payload that is not JSON, or a header that is not a JWT header, is not a token.
        assert!(keys("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.aGVsbG8gd29ybGQ.").is_empty());
        assert!(keys("eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxIn0.").is_empty());
    }

    #[test]
    fn finds_grafana_api_keys() {
        // base64 of {"k":"…","n":"deploy-bot","id":1}
        let k = "eyJrIjoiSDZySWpXV1UwVmFOSXl5aUVUemwxMWlMeGQzbzBvUmUiLCJuIjoiZGVwbG95LWJvdCIsImlkIjoxfQ==";
        assert_eq!(keys(&format!("GRAFANA_API_KEY={k}")), vec![(PiiKind::ApiKey, k)]);
        // base64 JSON of another shape is data.
        assert!(keys("payload eyJmb28iOiJiYXIiLCJiYXoiOiJxdXV4IiwibGlzdCI6WzEsMiwzLDQsNSw2LDcsOCw5LDEwXX0= end").is_empty());
    }

    #[test]
    fn private_key_block_is_one_match() {
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\nAKIAIOSFODNN7EXAMPLE+/==\n-----END RSA PRIVATE KEY-----";
        let text = format!("here:\n{pem}\nthanks");
        assert_eq!(keys(&text), vec![(PiiKind::PrivateKey, pem)]);
        let openssh = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
        assert_eq!(keys(openssh), vec![(PiiKind::PrivateKey, openssh)]);
        assert!(keys("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----").is_empty());
        // Truncated (no END line): header and base64 body.
        let cut = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpY\nRjVBRrgnHZxZ";
        assert_eq!(keys(&format!("{cut}\n\n-- sent from phone")), vec![(PiiKind::PrivateKey, cut)]);
    }
}
