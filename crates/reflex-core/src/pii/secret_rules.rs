//! The provider prefix table: for each first byte, the tokens that start with it, their body
//! alphabet and length. A word is looked up by its first byte (one `match`), then compared
//! with the few prefixes of that letter; most words have none and cost one branch.
//!
//! Formats as the providers document them (gitleaks' rule list is the coverage reference).
//!
//! Coverage against gitleaks' rules with a format of their own: this table has AWS (`AKIA`,
//! `ASIA`, `ABIA`, `ACCA`, `A3T`), GitHub, GitLab (routable tokens with their `.` suffix too),
//! Slack tokens, Stripe, `OpenAI`, Anthropic, Google, Hugging Face, npm, `PyPI`, `RubyGems`, Clojars,
//! Docker Hub, `DigitalOcean`, Shopify, Square, Facebook, Databricks, Grafana, New Relic, Sentry,
//! Linear, Twilio, Mailgun, Postman, `PlanetScale`, Pulumi, Typeform, 1Password, age, Alibaba,
//! Atlassian, Dynatrace, Artifactory, Octopus Deploy, Adobe, `EasyPost`, Flutterwave, Fly.io,
//! Frame.io, Groq, Heroku (`HRKU-AA`), Infracost, `LangSmith`, Notion, Perplexity, Prefect,
//! `ReadMe`, 42 Intra, `OpenShift`, `SettleMint`, Shippo, Sourcegraph, Scalingo, Cloudflare
//! Origin CA, Brevo, Duffel, Defined Networking, CAST AI and Chief Tools; `secret_shapes` and
//! `secrets` have the rest (`SendGrid`, JWTs, PEM keys, webhooks, Doppler, Vault, Terraform,
//! Azure, Mailchimp, Telegram, Discord, AWS secret keys, and Heroku, Cloudflare and Datadog
//! after their word).
//! Deliberately not covered:
//! - "provider word, then N random characters" rules (`generic-api-key` and dozens like
//!   it: Algolia, Asana, Bitbucket, Twitter…): the value has no format of its own; a value
//!   assigned to a credential key (`api_key=`, `token:`) is PASSWORD's.
//! - `clickhouse-cloud-api-secret-key` (`4b1d…`): a word starting with a digit is routed to the
//!   number detectors, and four hex digits start too many hashes to route by.
//! - `maxmind-license-key` (`…_mmk`): known by its suffix, which a first-byte table cannot see.
//! - `harness-api-key` (`pat.`, `sat.`), Mapbox `pk.`, Dropbox `sl.`, Yandex: a plain word
//!   before a dot, or context-only in gitleaks too; watching every `pat.` costs prose time.
//! - `sk_prod_`/`rk_prod_`: not a prefix Stripe documents.
//! - `jwt-base64` (`ZXlK…`): a JWT encoded again, rare in prompts.
//! - Teams (`webhook.office.com`) and Slack workflow webhooks: not yet in `secret_shapes`.
//! - `authress-service-client-access-key`: four prefixes and four dotted parts; not yet.
//! - File and structure rules (`pkcs12-file`, `kubernetes-secret-yaml`, `nuget-config-password`,
//!   `hashicorp-tf-password`, `database-password`, `curl-auth-*`, `sidekiq-*`,
//!   `gitlab-session-cookie`, `freemius-secret-key`): paths and file layouts; the credentials
//!   in them are PASSWORD's where a key or URL names them.

use checks::{
    age_checksum, brevo_groups, castai_groups, cloudflare_origin_groups, defined_networking_groups, dense, dynatrace_groups, flutterwave_body,
    grafana_service_account, langsmith_groups, notion_body, one_password_groups, postman_groups, sourcegraph_body,
};

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
/// `[a-z0-9]`
fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}
/// `[0-9A-Fa-f]`
fn any_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}
/// `[A-Za-z0-9-]`
fn alnum_dash(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-'
}
/// Base64url with `=` padding (Duffel, Frame.io).
fn url64_eq(c: u8) -> bool {
    url64(c) || c == b'='
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
                    // AWS ids issued before the four-letter prefixes: `A3T` and one more byte.
                    r(b"A3T", upper_alnum, 17, 17, 0.9),
                    // Artifactory API keys; Octopus Deploy API keys.
                    r(b"AKCp", alnum, 69, 69, 0.95),
                    r(b"API-", upper_alnum, 26, 26, 0.85),
                ]
            }
        }
        b'a' => const { &[r(b"api_org_", letters, 34, 34, 0.95)] },
        b'C' => const { &[r(b"CLOJARS_", alnum, 60, 60, 0.95)] },
        b'c' => {
            const {
                &[
                    // Artifactory reference tokens (base64 of `ref…`), CAST AI keys, Chief Tools
                    // personal, access and refresh tokens.
                    r(b"cmVmd", alnum, 59, 59, 0.9),
                    checked(b"castai_v1_", word, (73, 73), 0.97, castai_groups),
                    checked(b"ctp_", alnum, (30, 248), 0.9, dense),
                    checked(b"cto_", alnum, (30, 248), 0.9, dense),
                    checked(b"ctr_", alnum, (30, 248), 0.9, dense),
                ]
            }
        }
        b'd' => {
            const {
                &[
                    r(b"dop_v1_", hex, 64, 64, 0.97),
                    r(b"doo_v1_", hex, 64, 64, 0.97),
                    r(b"dor_v1_", hex, 64, 64, 0.97),
                    r(b"dckr_pat_", url64, 27, 27, 0.97),
                    r(b"dapi", hex, 32, 32, 0.9),
                    checked(b"dt0c01.", alnum_dot, (89, 89), 0.97, dynatrace_groups),
                    // Defined Networking: 26, `-`, 52.
                    checked(b"dnkey-", url64_eq, (79, 79), 0.95, defined_networking_groups),
                    r(b"duffel_live_", url64_eq, 43, 43, 0.97),
                    r(b"duffel_test_", url64_eq, 43, 43, 0.9),
                ]
            }
        }
        b'E' => {
            const {
                &[
                    r(b"EAAA", url64, 60, 60, 0.9),
                    r(b"EAAC", alnum, 100, 400, 0.9),
                    r(b"EAAM", alnum, 100, 400, 0.9),
                    // EasyPost production and test keys.
                    r(b"EZAK", alnum, 54, 54, 0.95),
                    r(b"EZTK", alnum, 54, 54, 0.9),
                ]
            }
        }
        // Flutterwave secret and public keys, live and test (32 hex digits then `-X`), and the
        // test encryption key (12 hex digits).
        b'F' => {
            const {
                &[
                    checked(b"FLWSECK_TEST-", alnum_dash, (12, 34), 0.9, flutterwave_body),
                    checked(b"FLWPUBK_TEST-", alnum_dash, (34, 34), 0.85, flutterwave_body),
                    checked(b"FLWSECK-", alnum_dash, (34, 34), 0.95, flutterwave_body),
                    checked(b"FLWPUBK-", alnum_dash, (34, 34), 0.85, flutterwave_body),
                ]
            }
        }
        // Fly.io: `fo1_` org tokens, `fm1a_`/`fm1r_`/`fm2_` macaroons; Frame.io user tokens.
        b'f' => {
            const {
                &[
                    r(b"fo1_", url64, 43, 43, 0.95),
                    r(b"fm1a_", b64, 100, 4096, 0.95),
                    r(b"fm1r_", b64, 100, 4096, 0.95),
                    r(b"fm2_", b64, 100, 4096, 0.95),
                    r(b"fio-u-", url64_eq, 64, 64, 0.95),
                ]
            }
        }
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
                    // Groq.
                    r(b"gsk_", alnum, 48, 48, 0.95),
                ]
            }
        }
        b'H' => const { &[r(b"HRKU-AA", url64, 58, 58, 0.97)] },
        b'h' => const { &[r(b"hf_", alnum, 34, 34, 0.95)] },
        b'i' => const { &[r(b"ico-", alnum, 32, 32, 0.9)] },
        b'k' => const { &[r(b"key-", alnum, 32, 32, 0.85)] },
        b'L' => const { &[r(b"LTAI", alnum, 20, 20, 0.9)] },
        b'l' => {
            const {
                &[
                    r(b"lin_api_", alnum, 40, 40, 0.97),
                    // LangSmith personal and service keys: 32, `_`, 10.
                    checked(b"lsv2_pt_", word, (43, 43), 0.97, langsmith_groups),
                    checked(b"lsv2_sk_", word, (43, 43), 0.97, langsmith_groups),
                ]
            }
        }
        b'N' => const { &[r(b"NRAK-", upper_alnum, 27, 27, 0.95), r(b"NRII-", url64, 32, 32, 0.9), r(b"NRJS-", hex, 19, 19, 0.9)] },
        // npm; Notion integration tokens (11 digits, then 35 alphanumerics).
        b'n' => const { &[r(b"npm_", alnum, 36, 36, 0.95), checked(b"ntn_", alnum, (46, 46), 0.95, notion_body)] },
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
                    // Adobe client secrets, Perplexity keys, Prefect keys.
                    r(b"p8e-", alnum, 32, 32, 0.9),
                    r(b"pplx-", alnum, 48, 48, 0.95),
                    r(b"pnu_", alnum, 36, 36, 0.9),
                ]
            }
        }
        b'r' => {
            const {
                &[
                    r(b"rk_live_", alnum, 16, 255, 0.97),
                    r(b"rk_test_", alnum, 16, 255, 0.9),
                    r(b"rubygems_", hex, 48, 48, 0.97),
                    // ReadMe.
                    r(b"rdme_", lower_alnum, 70, 70, 0.95),
                ]
            }
        }
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
                    // 42 Intra client secrets, OpenShift user tokens, SettleMint application,
                    // personal and service tokens, Shippo keys, Sourcegraph tokens.
                    r(b"s-s4t2ud-", hex, 64, 64, 0.97),
                    r(b"s-s4t2af-", hex, 64, 64, 0.97),
                    r(b"sha256~", url64, 43, 43, 0.95),
                    r(b"sm_aat_", alnum, 16, 16, 0.9),
                    r(b"sm_pat_", alnum, 16, 16, 0.9),
                    r(b"sm_sat_", alnum, 16, 16, 0.9),
                    r(b"shippo_live_", any_hex, 40, 40, 0.97),
                    r(b"shippo_test_", any_hex, 40, 40, 0.9),
                    checked(b"sgp_", word, (40, 57), 0.95, sourcegraph_body),
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
        // Typeform; Scalingo.
        b't' => const { &[r(b"tfp_", url64_padded, 59, 59, 0.95), r(b"tk-us-", url64, 48, 48, 0.95)] },
        // Cloudflare Origin CA keys: 24 hex digits, `-`, 146 hex digits.
        b'v' => const { &[checked(b"v1.0-", hex_dash, (171, 171), 0.95, cloudflare_origin_groups)] },
        b'w' => const { &[r(b"whsec_", alnum, 24, 255, 0.95)] },
        b'x' => {
            const {
                &[
                    r(b"xoxb-", url64, 10, 255, 0.95),
                    r(b"xoxa-", url64, 10, 255, 0.95),
                    r(b"xoxp-", url64, 10, 255, 0.95),
                    r(b"xoxr-", url64, 10, 255, 0.95),
                    r(b"xoxs-", url64, 10, 255, 0.95),
                    r(b"xoxo-", url64, 10, 255, 0.95),
                    r(b"xoxe.xoxp-", url64, 10, 255, 0.95),
                    r(b"xoxe-", url64, 10, 255, 0.95),
                    r(b"xapp-", url64, 20, 255, 0.95),
                    // Brevo (formerly Sendinblue): 64 hex digits, `-`, 16 alphanumerics.
                    checked(b"xkeysib-", alnum_dash, (81, 81), 0.97, brevo_groups),
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

/// `[A-Za-z0-9.]`
fn alnum_dot(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'.'
}

mod checks;
#[cfg(test)]
mod tests;
