//! The provider prefix table: for each first byte, the tokens that start with it, their body
//! alphabet and length. A word is looked up by its first byte (one `match`), then compared
//! with the few prefixes of that letter; most words have none and cost one branch.
//!
//! Formats as the providers document them (gitleaks' rule list is the coverage reference).

/// `[A-Za-z0-9]`
pub(super) fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
/// `[A-Za-z0-9_-]`: base64url and most token alphabets.
pub(super) fn url64(c: u8) -> bool {
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
/// `[A-Za-z]`
fn letters(c: u8) -> bool {
    c.is_ascii_alphabetic()
}
/// `[A-Za-z0-9_]`
fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}
/// Standard base64 with padding: `[A-Za-z0-9+/=]`.
fn b64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')
}
/// Base64url with `=` padding and `.` separators (Atlassian, Typeform, `PlanetScale`).
fn url64_padded(c: u8) -> bool {
    url64(c) || c == b'=' || c == b'.'
}
/// `[0-9a-f-]` (Postman's two hex groups).
fn hex_dash(c: u8) -> bool {
    hex(c) || c == b'-'
}
/// `[A-Z0-9-]` (1Password secret keys in their dashed groups).
fn upper_dash(c: u8) -> bool {
    upper_alnum(c) || c == b'-'
}
/// The bech32 alphabet in upper case (age secret keys).
fn bech32_upper(c: u8) -> bool {
    matches!(c, b'0' | b'2'..=b'9' | b'A' | b'C'..=b'H' | b'J' | b'K' | b'L' | b'M' | b'N' | b'P'..=b'Z')
}

/// One provider token: `prefix` then `min..=max` bytes of `body`; `shape`, when set, checks the
/// body further (group lengths, a checksum).
pub(super) struct Rule {
    pub prefix: &'static [u8],
    pub body: fn(u8) -> bool,
    pub min: usize,
    pub max: usize,
    pub confidence: f32,
    pub shape: Option<fn(&[u8]) -> bool>,
}

const fn r(prefix: &'static [u8], body: fn(u8) -> bool, min: usize, max: usize, confidence: f32) -> Rule {
    Rule { prefix, body, min, max, confidence, shape: None }
}

const fn checked(prefix: &'static [u8], body: fn(u8) -> bool, len: (usize, usize), confidence: f32, shape: fn(&[u8]) -> bool) -> Rule {
    Rule { prefix, body, min: len.0, max: len.1, confidence, shape: Some(shape) }
}

/// The rules whose prefix starts with `first`. Within a letter, a longer prefix comes before a
/// shorter one it begins with (`sk-ant-` before `sk-`).
pub(super) fn rules(first: u8) -> &'static [Rule] {
    match first {
        b'A' => {
            const {
                &[
                    // AWS access key ids: long-term (AKIA), temporary (ASIA), bearer (ABIA), context (ACCA).
                    r(b"AKIA", upper_alnum, 16, 16, 0.97),
                    r(b"ASIA", upper_alnum, 16, 16, 0.95),
                    r(b"ABIA", upper_alnum, 16, 16, 0.95),
                    r(b"ACCA", upper_alnum, 16, 16, 0.95),
                    r(b"AIza", url64, 35, 35, 0.95),
                    checked(b"AGE-SECRET-KEY-1", bech32_upper, (58, 58), 0.99, age_checksum),
                    r(b"ATATT3", url64_padded, 150, 300, 0.97),
                    checked(b"A3-", upper_dash, (36, 37), 0.95, one_password_groups),
                ]
            }
        }
        b'a' => const { &[r(b"api_org_", letters, 34, 34, 0.95)] },
        b'd' => {
            const {
                &[
                    r(b"dop_v1_", hex, 64, 64, 0.97),
                    r(b"doo_v1_", hex, 64, 64, 0.97),
                    r(b"dor_v1_", hex, 64, 64, 0.97),
                    r(b"dckr_pat_", url64, 27, 27, 0.97),
                    r(b"dapi", hex, 32, 32, 0.9),
                    checked(b"dt0c01.", alnum_dot, (89, 89), 0.97, dynatrace_groups),
                ]
            }
        }
        b'E' => const { &[r(b"EAAA", url64, 60, 60, 0.9), r(b"EAAC", alnum, 100, 400, 0.9), r(b"EAAM", alnum, 100, 400, 0.9)] },
        b'G' => const { &[r(b"GOCSPX-", url64, 28, 28, 0.95), r(b"GR1348941", url64, 20, 20, 0.95)] },
        b'g' => {
            const {
                &[
                    r(b"ghp_", alnum, 36, 255, 0.97),
                    r(b"gho_", alnum, 36, 255, 0.97),
                    r(b"ghu_", alnum, 36, 255, 0.97),
                    r(b"ghs_", alnum, 36, 255, 0.97),
                    r(b"ghr_", alnum, 36, 255, 0.97),
                    r(b"github_pat_", word, 40, 255, 0.97),
                    // GitLab: personal, deploy, runner, pipeline trigger, CI build, OAuth app, incoming
                    // mail, agent, SCIM, feature-flag client and feed tokens.
                    r(b"glpat-", url64, 20, 255, 0.97),
                    r(b"gldt-", url64, 20, 255, 0.95),
                    r(b"glrt-", url64, 20, 255, 0.95),
                    r(b"glptt-", url64, 20, 255, 0.95),
                    r(b"glcbt-", url64, 20, 255, 0.95),
                    r(b"gloas-", url64, 20, 255, 0.95),
                    r(b"glimt-", url64, 25, 255, 0.95),
                    r(b"glagent-", url64, 50, 255, 0.95),
                    r(b"glsoat-", url64, 20, 255, 0.95),
                    r(b"glffct-", url64, 20, 255, 0.95),
                    r(b"glft-", url64, 20, 255, 0.95),
                    // Grafana cloud and service-account tokens.
                    r(b"glc_", b64, 32, 400, 0.95),
                    checked(b"glsa_", word, (41, 41), 0.97, grafana_service_account),
                ]
            }
        }
        b'h' => const { &[r(b"hf_", alnum, 34, 34, 0.95)] },
        b'k' => const { &[r(b"key-", alnum, 32, 32, 0.85)] },
        b'L' => const { &[r(b"LTAI", alnum, 20, 20, 0.9)] },
        b'l' => const { &[r(b"lin_api_", alnum, 40, 40, 0.97)] },
        b'N' => const { &[r(b"NRAK-", upper_alnum, 27, 27, 0.95), r(b"NRII-", url64, 32, 32, 0.9), r(b"NRJS-", hex, 19, 19, 0.9)] },
        b'n' => const { &[r(b"npm_", alnum, 36, 36, 0.95)] },
        b'o' => const { &[r(b"ops_eyJ", b64, 250, 8192, 0.97)] },
        b'P' => const { &[checked(b"PMAK-", hex_dash, (59, 59), 0.97, postman_groups)] },
        b'p' => {
            const {
                &[
                    r(b"pypi-AgEIcHlwaS5vcmc", url64, 50, 255, 0.97),
                    r(b"pscale_pw_", url64_padded, 32, 64, 0.97),
                    r(b"pscale_tkn_", url64_padded, 32, 64, 0.97),
                    r(b"pscale_oauth_", url64_padded, 32, 64, 0.97),
                    r(b"pul-", hex, 40, 40, 0.95),
                    r(b"pk_live_", alnum, 16, 255, 0.85),
                ]
            }
        }
        b'r' => const { &[r(b"rk_live_", alnum, 16, 255, 0.97), r(b"rk_test_", alnum, 16, 255, 0.9), r(b"rubygems_", hex, 48, 48, 0.97)] },
        b'S' => const { &[r(b"SK", hex, 32, 32, 0.9)] },
        b's' => {
            const {
                &[
                    r(b"sk_live_", alnum, 16, 255, 0.97),
                    r(b"sk_test_", alnum, 16, 255, 0.9),
                    r(b"shpat_", hex, 32, 32, 0.97),
                    r(b"shpss_", hex, 32, 32, 0.97),
                    r(b"shpca_", hex, 32, 32, 0.97),
                    r(b"shppa_", hex, 32, 32, 0.97),
                    r(b"sq0atp-", url64, 22, 60, 0.95),
                    r(b"sq0csp-", url64, 43, 43, 0.95),
                    r(b"sntryu_", hex, 64, 64, 0.97),
                    r(b"sntrys_eyJ", b64_word, 60, 400, 0.97),
                    // Longest first: Anthropic and OpenAI's project, service-account and admin keys
                    // before the plain OpenAI `sk-`.
                    r(b"sk-ant-", url64, 20, 255, 0.97),
                    r(b"sk-proj-", url64, 20, 255, 0.97),
                    r(b"sk-svcacct-", url64, 20, 255, 0.97),
                    r(b"sk-admin-", url64, 20, 255, 0.97),
                    r(b"sk-", url64, 20, 255, 0.9),
                ]
            }
        }
        b't' => const { &[r(b"tfp_", url64_padded, 59, 59, 0.95)] },
        b'w' => const { &[r(b"whsec_", alnum, 24, 255, 0.95)] },
        b'x' => {
            const {
                &[
                    r(b"xoxb-", url64, 10, 255, 0.95),
                    r(b"xoxa-", url64, 10, 255, 0.95),
                    r(b"xoxp-", url64, 10, 255, 0.95),
                    r(b"xoxr-", url64, 10, 255, 0.95),
                    r(b"xoxs-", url64, 10, 255, 0.95),
                    r(b"xoxe.xoxp-", url64, 10, 255, 0.95),
                    r(b"xoxe-", url64, 10, 255, 0.95),
                    r(b"xapp-", url64, 20, 255, 0.95),
                ]
            }
        }
        b'y' => const { &[r(b"ya29.", url64, 30, 2048, 0.9)] },
        _ => &[],
    }
}

/// Base64 and `_` (Sentry organisation tokens: base64 JSON, `_`, a base64 secret).
fn b64_word(c: u8) -> bool {
    b64(c) || c == b'_'
}

/// Grafana service account: 32 alphanumerics, `_`, 8 hex digits.
fn grafana_service_account(body: &[u8]) -> bool {
    body[32] == b'_' && body[..32].iter().all(u8::is_ascii_alphanumeric) && body[33..].iter().all(u8::is_ascii_hexdigit)
}

/// `[A-Za-z0-9.]`
fn alnum_dot(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'.'
}

/// Dynatrace token after `dt0c01.`: 24 alphanumerics, `.`, 64 alphanumerics.
fn dynatrace_groups(body: &[u8]) -> bool {
    body[24] == b'.' && memchr::memchr(b'.', &body[..24]).is_none() && memchr::memchr(b'.', &body[25..]).is_none()
}

/// Postman API key: 24 hex digits, `-`, 34 hex digits.
fn postman_groups(body: &[u8]) -> bool {
    body[24] == b'-' && memchr::memchr(b'-', &body[..24]).is_none() && memchr::memchr(b'-', &body[25..]).is_none()
}

/// 1Password secret key after `A3-`: groups of 6, 11, 5, 5, 5 or of 6, 6, 5, 5, 5, 5.
fn one_password_groups(body: &[u8]) -> bool {
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
fn age_checksum(body: &[u8]) -> bool {
    const HRP: &[u8] = b"age-secret-key-";
    let mut data = [0u8; 58];
    for (d, &c) in data.iter_mut().zip(body) {
        let Some(v) = super::wallet::BECH32.iter().position(|&x| x == c.to_ascii_lowercase()) else {
            return false;
        };
        *d = v as u8;
    }
    let high = HRP.iter().map(|c| c >> 5);
    let low = HRP.iter().map(|c| c & 31);
    super::wallet::polymod(high.chain([0]).chain(low).chain(data)) == 1
}

#[cfg(test)]
mod tests {
    use super::rules;

    use crate::pii::{detect, PiiKind};

    fn keys(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    /// One fake token per provider of the table, random but in the documented format (the age
    /// key with a valid bech32 checksum).
    const TOKENS: &[&str] = &[
            "AKIA3HGAZYX9DOWG5M4R",
            "ABIAXC7HO000VKFVOM1B",
            "ACCAJLYYQTOO96R4XNDM",
            "ghu_tXNMPqAXiuF3XRcNWc0fZ581jIBgb32enswF",
            "ghs_wTjT7fXwZ8Qz8IpCRMRz5KaeHCk7FeRvH4SU",
            "ghr_eledHRZHeDFHzMGL3ZDF2gyjniYpMBoCO0WX",
            "gldt-qQLAAIjd24DIL0OuHSny",
            "glrt-0DrNxNmJA4luSa8AIJox",
            "glptt-a48a96ffd84bf53710e0f48a0c5894ee3a1fa356",
            "xoxe.xoxp-1-a7rjNmpFBwFKA0sayAYj626HqwZGxomRXKdaoNLTAfmlKj4hqogFsPKHLaZDF0yTlzgdqn0f1EznBuwBEYmpPj8uqDX4uQ7ziEb1nJiJRJ2o5PQ5GatXKHOPB5eoFT3TwbwREgOhShpc",
            "xapp-1-AF316PYH0CE-9615595159831-3d450aa1a59f88197f93999f3cc53a5063357291b1c535523a350b2a6dd51af2",
            "rk_test_H1j3SYdp3pD2FGI7HFzvCGiF",
            "whsec_qk6RK2zzB9GBcplnPz6bKvCYReA4JEDr",
            "SK6417ae0e646f1c80804ffc294b97d4d0",
            "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",
            "key-0f27aa7931cee1f1c5bf80b31ad2725b",
            "npm_4zQw8PIeudPqvpVjcNgZBVQ9VnWpWscf0hB4",
            "pypi-AgEIcHlwaS5vcmcVlxJZ_NpANyax2R64pVKJo-rT14FcL-HaxHekDV5OGDGEcIzzOLWON8oc11J8Ir8KKJtW7",
            "dckr_pat_NLQNWRmfjvakbXjdJ5VTqGSjlaZ",
            "dop_v1_f0aadb76b5210b55a304ef51371394ae276d9d71741b29fc5bb9c46745d5a682",
            "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",
            "lin_api_Bp27hD5pO4tDkB7LwwapcgJtUROk9NpDQZIn5QiV",
            "PMAK-7d2e57a5caac1ccf90cc58af-f9b685790f012ea54a5de070ba8e08f0ec",
            "dapi3b611ce71da18246f850271622260f9d",
            "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",
            "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",
            "sk-ant-api03-5gTDW75WiMe6UqJ0-P2H0KMuaqaOfvETP_daTNOIx8EBe7qOnyuxEQ76e2Dxxr4QfGjFxrpujWoAXK8AclSB0Lnm-CO6PAA",
            "sk-svcacct-lCa5LJxdoZd0DkeryvYX4r3uTzUjEK_yb6iJdhPXRzQ3A4otpNgjIPJD3oyaGai-",
            "glc_fDDkfL3AdDh2R8PZv1qhG0r0YSl62Qh0VpTPlotwfn0t8pzb",
            "glsa_P1rlpaJSBU8iftl3tqlEHIk6pvAceIwf_2297ae5c",
            "NRAK-VS87OT52ACBEJPVUA9PTZQLUUIB",
            "NRJS-59e5b667a9bbc463308",
            "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",
            "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",
            "EAAAVHBA-9bw03jcHbYN_22Zg7GJiX2FjspVnAFsPkFuh4e9lFWdYzEw361H7W8h",
            "sq0csp-ADXmyc4-bJhypH2c0YN-VU7nhx8MdbeqNgc7MUpJxeV",
            "pscale_pw_zaHzHgmg8vC-4gg_BuI28Mb_gLvu_KSmMG1bjLeAXK8",
            "ya29.a0Bg20lh5kwvUKH_dVlsh4okYtsNNxjCg7ACpo60GIuJc6Xs7rxGJJc12UyFq-NhN_xXiTpaC5V9SaU698aStCDFEtGBHfi_63u80ZTIJqtA2yuEu9Jq6jvcmS",
            "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",
            "EAAC4iIHrqcPMAxTGbrIpJkqWBnjc4ZGHPHZ6rU65b4CgmfKzdth6Kl4VdtR7O1IlmEljYwATKF03pH5HXq0xpnZEsLWkwtYlGRaAAI3Z0s2izxwjsjmeCFN6UCZSSFnQIGjWnlE0vuZ3X2i",
            "AGE-SECRET-KEY-1EACVYT646U0GXLTFHUN2ZSTRMRLZXTT3VNQL9XNJVZTMY5YLH8L2DMKCMX",
            "ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7Im1ldGhvZCI6IlNSUGctNDA5NiIsImFsZyI6IlBCRVMyZy1IUzI1NiIsIml0ZXJhdGlvbnMiOjY1MDAwMCwic2FsdCI6Iml5RmRZTHFXMUpMYWtQSTZ0bTZic0UifSwiZW1haWwiOiJvc3l1bm9kdGhna3NAMXBhc3N3b3Jkc2VydmljZWFjY291bnRzLmNvbSIsInNycFgiOiI2MTNmNmFjNWE2ZGNiMzc4ZWY3YzQ4Y2QwYWU0ZTY0YzlkMTMzYzg2OTIzZWJkNTc4MWYyY2E1NTgwY2YyNzE3IiwibXVrIjp7ImFsZyI6IkEyNTZHQ00iLCJrIjoiSFVIYmVCSjh6bFowb1VYTGhEb0ZQYjlIQ2VSU3RoQjhxSFo3WkVJQ2x5diJ9fQ",
            "A3-56SHUH-S1FXDS-H1C9K-901YB-H50OR-CUWG6",
            "LTAIipss5jcc1FOvgY6LQFPL",
            "ATATT3YVihvSfvNm1Kh1r6H5m2rn-7M5DxABtSpBP7lGveCI9-1n_oHcKo2sWS0y9wjYSAIvJuhmkbax5Dxy1EjGhMB2LvSkW9rOX0LJsb9pjg1xQTda_mazRm4QFY78agvjeeLrmqvs7Qvp7pdHagvvs9PdUSe_jIgjPSGsfFiwL9UE-ZJChFGeKs=376A3F41",
            "dt0c01.UA8T7RTZDYUNCVGUXZ1OVF1Y.TRQULGVUTO1G0VMMVFKX25TVRCGVKMI3HYA0E4L9F9DLMVP3NHOP0N1NALISFWFJ",
            "pul-e86d168c44bd0926d81a6e0a8e389b4274e9c95c",
            "rubygems_545026e9dcd0f3ba784a42e125fe8c243f5a4e0406ca7fa5",
            "tfp_BqzBi8p9s6yBd4wLvej2oNRTKqBVDvL6q5fhZOo65fZWNXDJep52aGhAi-O",
    ];

    #[test]
    fn finds_every_provider_in_several_layouts() {
        for k in TOKENS {
            for text in [
                format!("token {k} end"),
                format!("export SERVICE_TOKEN={k}"),
                format!("{{\"token\": \"{k}\"}}"),
                format!("Use '{k}'."),
                format!("creds:\n  token: {k}\n"),
            ] {
                assert_eq!(keys(&text), vec![(PiiKind::ApiKey, *k)], "{text}");
            }
        }
    }

    #[test]
    fn provider_lookalikes_are_not_keys() {
        for t in [
            // Placeholders: one character repeated, `<your-token>`, elided.
            "ghu_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "dckr_pat_XXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "lin_api_0000000000000000000000000000000000000000",
            "NRAK-XXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "sntryu_<your-token>",
            "export PULUMI_ACCESS_TOKEN=pul-...",
            "sk-ant-...",
            "token: <your-token>",
            // Too short or too long for the provider.
            "npm_4zQw8PIeudPqvpVjcNgZBVQ9VnWpWsc",
            "pul-e86d168c44bd0926d81a6e0a8e389b4274e9c95c1",
            "dapi3b611ce71da18246f850271622260f9",
            "LTAIipss5jcc1FOvgY6L",
            "rubygems_545026e9dcd0f3ba",
            "tfp_BqzBi8p9s6yBd4wLvej2oNRTKqBVDvL6q5f",
            // Wrong alphabet: upper-case hex where lower is documented, letters where hex is.
            "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",
            "dop_v1_zzaadb76b5210b55a304ef51371394ae276d9d71741b29fc5bb9c46745d5a682",
            "NRJS-59e5b667a9bbc46330g",
            // Wrong group layout or a failing checksum.
            "PMAK-7d2e57a5caac1ccf90cc58af9-f9b685790f012ea54a5de070ba8e08f0e",
            "A3-56SHUH-S1FXDSH1C9-901YB-H50OR-CUWG6",
            "AGE-SECRET-KEY-1EACVYT646U0GXLTFHUN2ZSTRMRLZXTT3VNQL9XNJVZTMY5YLH8L2DMKCMZ",
            "glsa_P1rlpaJSBU8iftl3tqlEHIk6pvAceIwf_2297ae5z",
            // Ordinary words and identifiers with the same start.
            "the LTAI team, GR1348941 builds, ATATT3 and EAAC rules",
            "call dapi_client() then hf_hub_download(); pscale_pw_len = 8",
            "ya29.short",
        ] {
            assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn every_prefix_is_under_its_first_byte_and_longest_first() {
        for first in 0..=255u8 {
            let table = rules(first);
            for (k, rule) in table.iter().enumerate() {
                assert_eq!(rule.prefix[0], first);
                assert!(rule.prefix.len() >= 2 && rule.min <= rule.max);
                // A shorter prefix listed earlier would shadow this one.
                assert!(!table[..k].iter().any(|e| rule.prefix.starts_with(e.prefix)), "{}", String::from_utf8_lossy(rule.prefix));
            }
        }
    }
}
