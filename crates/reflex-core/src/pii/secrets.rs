//! Provider API keys and tokens (recognised by their documented prefixes and alphabets), JWTs
//! (three base64url segments whose header decodes to JSON naming an `alg`) and PEM private-key
//! blocks (the whole block, BEGIN line through END line).

use memchr::memmem;

use super::scan::{at, hit, run_len};
use super::{PiiKind, PiiMatch};

/// `[A-Za-z0-9]`
fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
/// `[A-Za-z0-9_-]`: base64url and most token alphabets.
fn url64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}
/// `[0-9a-f]`
fn hex(c: u8) -> bool {
    c.is_ascii_digit() || (b'a'..=b'f').contains(&c)
}
/// `[A-Z0-9]`
fn upper_alnum(c: u8) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}

/// (prefix, body alphabet, minimum body length, maximum body length, confidence)
type Rule = (&'static [u8], fn(u8) -> bool, usize, usize, f32);

const RULES: &[Rule] = &[
    (b"AKIA", upper_alnum, 16, 16, 0.97),
    (b"ASIA", upper_alnum, 16, 16, 0.95),
    (b"AIza", url64, 35, 35, 0.95),
    (b"ghp_", alnum, 36, 255, 0.97),
    (b"gho_", alnum, 36, 255, 0.97),
    (b"ghu_", alnum, 36, 255, 0.97),
    (b"ghs_", alnum, 36, 255, 0.97),
    (b"ghr_", alnum, 36, 255, 0.97),
    (b"github_pat_", url64, 40, 255, 0.97),
    (b"xoxb-", url64, 10, 255, 0.95),
    (b"xoxa-", url64, 10, 255, 0.95),
    (b"xoxp-", url64, 10, 255, 0.95),
    (b"xoxr-", url64, 10, 255, 0.95),
    (b"xoxs-", url64, 10, 255, 0.95),
    (b"sk_live_", alnum, 16, 255, 0.97),
    (b"sk_test_", alnum, 16, 255, 0.9),
    (b"rk_live_", alnum, 16, 255, 0.97),
    (b"rk_test_", alnum, 16, 255, 0.9),
    (b"pk_live_", alnum, 16, 255, 0.85),
    (b"whsec_", alnum, 24, 255, 0.95),
    (b"xapp-", url64, 20, 255, 0.95),
    (b"glpat-", url64, 20, 255, 0.97),
    (b"glptt-", url64, 20, 255, 0.95),
    (b"gldt-", url64, 20, 255, 0.95),
    (b"npm_", alnum, 36, 36, 0.95),
    (b"hf_", alnum, 34, 34, 0.95),
    (b"shpat_", hex, 32, 32, 0.97),
    (b"shpss_", hex, 32, 32, 0.97),
    (b"shpca_", hex, 32, 32, 0.97),
    (b"shppa_", hex, 32, 32, 0.97),
    (b"dop_v1_", hex, 64, 64, 0.97),
    (b"doo_v1_", hex, 64, 64, 0.97),
    (b"dor_v1_", hex, 64, 64, 0.97),
    (b"pypi-AgEIcHlwaS5vcmc", url64, 50, 255, 0.97),
    (b"GOCSPX-", url64, 28, 28, 0.95),
    (b"sq0atp-", url64, 22, 22, 0.95),
    (b"sq0csp-", url64, 43, 43, 0.95),
    (b"SK", hex, 32, 32, 0.9),
    (b"key-", alnum, 32, 32, 0.85),
    // Longest first: `sk-ant-` and `sk-proj-` before the plain OpenAI `sk-`.
    (b"sk-ant-", url64, 20, 255, 0.97),
    (b"sk-proj-", url64, 20, 255, 0.97),
    (b"sk-", url64, 20, 255, 0.9),
];

pub(super) fn api_key(b: &[u8], start: usize) -> Option<PiiMatch> {
    // Gate on the first two bytes so ordinary words cost one comparison, not a table walk.
    match (b[start], at(b, start + 1)) {
        (b'A', b'K' | b'S' | b'I')
        | (b'g', b'h' | b'i' | b'l')
        | (b'x', b'o' | b'a')
        | (b's' | b'r' | b'p', b'k')
        | (b'e' | b'p', b'y')
        | (b'w' | b's', b'h')
        | (b'n', b'p')
        | (b'h', b'f')
        | (b'd', b'o')
        | (b'G', b'O')
        | (b'S', b'K')
        | (b'k', b'e')
        | (b's', b'q') => {}
        (b'S', b'G') => return sendgrid(b, start),
        _ => return None,
    }
    let rest = &b[start..];
    if rest.starts_with(b"eyJ") {
        return jwt(b, start);
    }
    // The rules' first two bytes are compared in place before a prefix is: a word that passed
    // the gate ("which", "door", "keep") walked all 42 rules through `memcmp` (~420 instructions).
    // `rest[1]` is there: the gate read a second byte other than 0, which `at` gives past the end;
    // every prefix is two bytes at least.
    let (prefix, body, min, max, confidence) =
        RULES.iter().find(|r| r.0[0] == rest[0] && r.0[1] == rest[1] && rest.starts_with(r.0))?;
    let s = start + prefix.len();
    let len = run_len(b, s, max + 1, *body);
    if len < *min || len > *max {
        return None;
    }
    let end = s + len;
    // A key glued to more word bytes is something else (`AKIA…` inside a longer identifier).
    if url64(at(b, end)) {
        return None;
    }
    random(&b[s..end]).then(|| hit(PiiKind::ApiKey, start, end, *confidence))
}

/// Real keys are random: they mix letters and digits, or (long all-letter bodies such as
/// Hugging Face tokens) both cases. `sk-this-is-not-a-key-at-all` isn't; neither are the
/// documentation placeholders `AKIAIOSFODNN7EXAMPLE` and `sk_live_XXXX…`.
fn random(token: &[u8]) -> bool {
    let digit = token.iter().any(u8::is_ascii_digit);
    let upper = token.iter().any(u8::is_ascii_uppercase);
    let lower = token.iter().any(u8::is_ascii_lowercase);
    let mixed = (digit && (upper || lower)) || (upper && lower && token.len() >= 20);
    mixed && memmem::find(token, b"EXAMPLE").is_none()
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
    if at(b, end) == b'.' || at(b, end) == b'=' {
        return None;
    }
    header_names_alg(&b[start..start + h]).then(|| hit(PiiKind::ApiKey, start, end, 0.95))
}

/// Decodes the base64url header (no padding) and checks it is a JSON object with `"alg"`.
fn header_names_alg(seg: &[u8]) -> bool {
    let mut out = [0u8; 1536];
    let mut n = 0;
    let decoded = crate::base64::decode_each(seg, |byte| {
        let Some(slot) = out.get_mut(n) else { return false };
        *slot = byte;
        n += 1;
        true
    });
    if !decoded {
        return false;
    }
    let json = &out[..n];
    json.first() == Some(&b'{') && memmem::find(json, b"\"alg\"").is_some()
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
        ] {
            assert_eq!(keys(&format!("key {k} end")), vec![(PiiKind::ApiKey, k)], "{k}");
        }
    }

    #[test]
    fn rejects_lookalikes() {
        for t in [
            "AKIAIOSFODNN7EXAMPL",
            "AKIAIOSFODNN7EXAMPLEX",
            "ghp_short123",
            "the sk-learn package",
            "sk-this-is-not-a-key-at-all-really",
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMB",
            "xoxq-123456789012-1234567890123",
            "AKIAIOSFODNN7EXAMPLE",
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
