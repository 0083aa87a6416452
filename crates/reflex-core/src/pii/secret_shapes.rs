//! Provider secrets found from a byte other than their first: webhook URLs (from the scheme's
//! `:`), dotted tokens (`dp.pt.`, `hvs.`, Vault's legacy `s.`, `….atlasv1.…`, from the dot), Azure account keys and
//! SAS signatures (from the `=`), Azure AD client secrets (from the `~`), Mailchimp keys (from
//! the `-us<n>` data-centre suffix), Telegram bot tokens (digits, `:`, `A…`), Discord bot tokens
//! (the base64 of a numeric user id, then two more segments), AWS secret access keys (40
//! base64 characters, only with AWS context before them) and Heroku, Cloudflare and Datadog keys
//! (a UUID, 40 base64url bytes or 37 lower-case hex digits, 32 or 40 hex digits, only after
//! their provider's word, or for Cloudflare's 37 hex digits as the value of its `X-Auth-Key`
//! header).

use memchr::memmem;

use super::scan::{at, hit, is_word, run_len, Keywords};
use super::secret_rules::{alnum, url64};
use super::secrets::random;
use super::{PiiKind, PiiMatch};

/// `https://hooks.slack.com/services/T…/B…/…` and `https://discord.com/api/webhooks/<id>/<token>`
/// (also `discordapp.com`): the whole URL, from the `:` of its scheme at `colon`.
pub(super) fn webhook(b: &[u8], colon: usize) -> Option<PiiMatch> {
    let start = if colon >= 5 && b[colon - 5..colon].eq_ignore_ascii_case(b"https") {
        colon - 5
    } else if colon >= 4 && b[colon - 4..colon].eq_ignore_ascii_case(b"http") {
        colon - 4
    } else {
        return None;
    };
    if start > 0 && is_word(b[start - 1]) {
        return None;
    }
    let rest = &b[colon..];
    let path = [&b"://hooks.slack.com/services/"[..], b"://discord.com/api/webhooks/", b"://discordapp.com/api/webhooks/"]
        .iter()
        .find(|p| rest.starts_with(p))
        .map(|p| colon + p.len())?;
    // The path's segments: `T…/B…/secret` for Slack, `<id>/<token>` for Discord.
    let mut seg = [(0usize, 0usize); 3];
    let mut n = 0;
    let mut i = path;
    while n < seg.len() {
        let len = run_len(b, i, 129, url64);
        if len == 0 {
            break;
        }
        seg[n] = (i, i + len);
        n += 1;
        i += len;
        if at(b, i) != b'/' || !url64(at(b, i + 1)) {
            break;
        }
        i += 1;
    }
    let secret = |k: usize| &b[seg[k].0..seg[k].1];
    let slack = b[path - 9] == b's' && n == 3 && secret(0)[0] == b'T' && secret(1)[0] == b'B' && secret(2).len() >= 20;
    let discord = b[path - 9] == b'w' && n == 2 && (17..=20).contains(&secret(0).len()) && secret(0).iter().all(u8::is_ascii_digit) && secret(1).len() >= 60;
    let last = secret(n.max(1) - 1);
    ((slack || discord) && random(last)).then(|| hit(PiiKind::ApiKey, start, seg[n - 1].1, 0.97))
}

/// Tokens whose prefix holds a dot, from the dot at `dot` (the word before it is plain lower
/// case and starts nothing): Doppler (`dp.pt.` + 43), Vault service and batch tokens (`hvs.`,
/// `hvb.`, and the legacy `s.` + 24) and Terraform Cloud tokens (`<14>.atlasv1.<60–70>`).
pub(super) fn dotted(b: &[u8], dot: usize) -> Option<PiiMatch> {
    let word_before = |len: usize| dot >= len && (dot == len || !url64(b[dot - len - 1])) && (dot - len..dot).all(|k| alnum(b[k]));
    if b[dot + 1..].starts_with(b"atlasv1.") && word_before(14) {
        let s = dot + 9;
        let len = run_len(b, s, 71, |c| url64(c) || c == b'=');
        return ((60..=70).contains(&len) && !url64(at(b, s + len)) && random(&b[dot - 14..dot])).then(|| hit(PiiKind::ApiKey, dot - 14, s + len, 0.95));
    }
    let (start, s, body, min, max): (usize, usize, fn(u8) -> bool, usize, usize) = match b[dot - 1] {
        b'p' if word_before(2) && &b[dot - 2..dot] == b"dp" => {
            let kind = [&b"pt."[..], b"st.", b"ct.", b"sa.", b"scim.", b"audit."].into_iter().find(|k| b[dot + 1..].starts_with(k))?;
            (dot - 2, dot + 1 + kind.len(), alnum, 40, 44)
        }
        b's' | b'b' if word_before(3) && (&b[dot - 3..dot] == b"hvs" || &b[dot - 3..dot] == b"hvb") => {
            let min = if b[dot - 1] == b's' { 90 } else { 138 };
            (dot - 3, dot + 1, url64, min, 300)
        }
        b's' if word_before(1) => return vault_legacy(b, dot),
        _ => return None,
    };
    let len = run_len(b, s, max + 1, body);
    ((min..=max).contains(&len) && !url64(at(b, s + len)) && random(&b[s..s + len])).then(|| hit(PiiKind::ApiKey, start, s + len, 0.95))
}

/// Vault's service tokens before 1.10: `s.` and 24 base62 characters, from the dot at `dot`.
/// `s.` starts ordinary text too (`s.length`, `s.toString()`, `a.s.`), so the shape is strict:
/// the `s` stands alone (not after a dot or a path), exactly 24 letters and digits with upper
/// case, lower case and a digit each, no run of one character, and nothing glued after them
/// (another `.field`, `(`, a word byte).
fn vault_legacy(b: &[u8], dot: usize) -> Option<PiiMatch> {
    let start = dot - 1;
    if start > 0 && matches!(b[start - 1], b'.' | b'/' | b'\\' | b'$' | b'@') {
        return None;
    }
    let s = dot + 1;
    let len = run_len(b, s, 25, alnum);
    let next = at(b, s + len);
    if len != 24 || url64(next) || next == b'(' || (next == b'.' && is_word(at(b, s + len + 1))) {
        return None;
    }
    let body = &b[s..s + len];
    let classes = body.iter().any(u8::is_ascii_uppercase) && body.iter().any(u8::is_ascii_lowercase) && body.iter().any(u8::is_ascii_digit);
    (classes && random(body)).then(|| hit(PiiKind::ApiKey, start, s + len, 0.85))
}

/// Azure storage and Service Bus connection strings (`AccountKey=…`, `SharedAccessKey=…`) and
/// SAS signatures (`sig=…` in a query that also carries `sv=`): the value, from the `=` at `eq`.
pub(super) fn azure(b: &[u8], eq: usize) -> Option<PiiMatch> {
    let key_is = |k: &[u8]| eq >= k.len() && b[eq - k.len()..eq].eq_ignore_ascii_case(k) && (eq == k.len() || !url64(b[eq - k.len() - 1]));
    let s = eq + 1;
    if key_is(b"AccountKey") || key_is(b"SharedAccessKey") {
        let len = run_len(b, s, 101, |c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
        return ((40..=100).contains(&len) && random(&b[s..s + len])).then(|| hit(PiiKind::ApiKey, s, s + len, 0.95));
    }
    if key_is(b"sig") && eq >= 4 && matches!(b[eq - 4], b'&' | b'?') {
        let len = run_len(b, s, 101, |c| c.is_ascii_alphanumeric() || matches!(c, b'%' | b'+' | b'/' | b'='));
        let query = &b[eq.saturating_sub(512)..eq];
        let signed = memmem::find(query, b"sv=").is_some_and(|k| k == 0 || matches!(query[k - 1], b'?' | b'&'));
        return ((40..=100).contains(&len) && signed && random(&b[s..s + len])).then(|| hit(PiiKind::ApiKey, s, s + len, 0.9));
    }
    None
}

/// Azure AD client secret: three characters of `[A-Za-z0-9_~.]`, a digit, `Q~`, then 31 to 34
/// of `[A-Za-z0-9_~.-]`; from the `~` at `tilde`.
pub(super) fn azure_client_secret(b: &[u8], tilde: usize) -> Option<PiiMatch> {
    let head = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'~' | b'.');
    if tilde < 5 || b[tilde - 1] != b'Q' || !b[tilde - 2].is_ascii_digit() || !(tilde - 5..tilde - 2).all(|k| head(b[k])) {
        return None;
    }
    let start = tilde - 5;
    if start > 0 && (head(b[start - 1]) || b[start - 1] == b'-') {
        return None;
    }
    let mut len = run_len(b, tilde + 1, 36, |c| head(c) || c == b'-');
    while len > 0 && b[tilde + len] == b'.' {
        len -= 1;
    }
    let end = tilde + 1 + len;
    ((31..=34).contains(&len) && random(&b[tilde + 1..end])).then(|| hit(PiiKind::ApiKey, start, end, 0.9))
}

/// Mailchimp API key: 32 lower-case hex digits, `-us`, the data centre number; from the `-`.
pub(super) fn mailchimp(b: &[u8], dash: usize) -> Option<PiiMatch> {
    let dc = run_len(b, dash + 3, 3, |c| c.is_ascii_digit());
    let end = dash + 3 + dc;
    if !b[dash + 1..].starts_with(b"us") || !(1..=2).contains(&dc) || is_word(at(b, end)) || dash < 32 {
        return None;
    }
    let start = dash - 32;
    let key = &b[start..dash];
    let hex = key.iter().all(|&c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c));
    (hex && (start == 0 || !is_word(b[start - 1])) && random(key)).then(|| hit(PiiKind::ApiKey, start, end, 0.85))
}

/// Telegram bot token: the bot's numeric id, `:`, then 35 characters starting with `A`; from
/// the first digit at `start`.
pub(super) fn telegram(b: &[u8], start: usize, digits: usize) -> Option<PiiMatch> {
    let s = start + digits + 1;
    if !(5..=16).contains(&digits) || at(b, s - 1) != b':' || at(b, s) != b'A' {
        return None;
    }
    let len = run_len(b, s, 36, url64);
    (len == 35 && random(&b[s..s + len])).then(|| hit(PiiKind::ApiKey, start, s + len, 0.9))
}

/// Discord bot token: base64 of the bot's numeric user id (17–20 digits), `.`, a 6-character
/// timestamp, `.`, a 27–38 character HMAC. The first segment must decode to digits.
pub(super) fn discord_bot(b: &[u8], start: usize) -> Option<PiiMatch> {
    let id = run_len(b, start, 29, url64);
    if !(23..=28).contains(&id) || at(b, start + id) != b'.' {
        return None;
    }
    let t0 = start + id + 1;
    let t = run_len(b, t0, 8, url64);
    if !(6..=7).contains(&t) || at(b, t0 + t) != b'.' {
        return None;
    }
    let h0 = t0 + t + 1;
    let h = run_len(b, h0, 39, url64);
    let end = h0 + h;
    if !(27..=38).contains(&h) || (at(b, end) == b'.' && url64(at(b, end + 1))) {
        return None;
    }
    let mut digits = 0;
    let numeric = crate::base64::decode_each(&b[start..start + id], |c| {
        digits += 1;
        c.is_ascii_digit()
    });
    (numeric && (17..=20).contains(&digits) && random(&b[h0..end])).then(|| hit(PiiKind::ApiKey, start, end, 0.9))
}

/// Words naming Heroku (`HEROKU_API_KEY` starts with one), Cloudflare and Datadog, whose keys
/// have shapes plenty of other values have (a UUID, 32, 37 or 40 hex digits, 40 base64url
/// bytes).
const HEROKU_CONTEXT: Keywords = Keywords::new(&[b"heroku"]);
const CLOUDFLARE_CONTEXT: Keywords = Keywords::new(&[b"cloudflare", b"cf_api_token", b"cf-api-token", b"cf_api_key", b"cf_token"]);
const DATADOG_CONTEXT: Keywords = Keywords::new(&[b"datadog", b"dd_api_key", b"dd_app_key", b"dd_application_key", b"dd-api-key", b"dd-application-key"]);
/// Bytes before a token searched for its provider's word.
const PROVIDER_WINDOW: usize = 40;

/// Whether a token starting at `i` may have one of [`keyed`]'s shapes, by the bytes where its
/// length ends: three compares for a word that has none.
#[inline]
pub(super) fn may_be_keyed(b: &[u8], i: usize) -> bool {
    let ends_at = |len: usize| url64(at(b, i + len - 1)) && !url64(at(b, i + len));
    at(b, i + 8) == b'-' || ends_at(32) || ends_at(37) || ends_at(40)
}

/// Keys known by their shape and their provider's word before them only: a Heroku API key (a
/// UUID), a Cloudflare API token (40 of `[A-Za-z0-9_-]`) or Global API Key (37 lower-case hex
/// digits), a Datadog API key (32 hex digits) or application key (40 hex digits). The same
/// shapes without the word (build ids, commit hashes, checksums, a hash cut short) are left
/// alone. The Global API Key is also known by the header it is sent in, `X-Auth-Key`, with no
/// provider word at all (see [`auth_key_header`]).
#[inline(never)]
pub(super) fn keyed(b: &[u8], start: usize) -> Option<PiiMatch> {
    if start > 0 && (url64(b[start - 1]) || b[start - 1] == b'.') {
        return None;
    }
    let hex = |c: u8| c.is_ascii_hexdigit();
    let len = run_len(b, start, 41, url64);
    let token = &b[start..start + len];
    let end = start + len;
    if at(b, end) == b'.' && is_word(at(b, end + 1)) {
        return None;
    }
    let uuid = len == 36 && token.iter().enumerate().all(|(k, &c)| if matches!(k, 8 | 13 | 18 | 23) { c == b'-' } else { hex(c) });
    let lower_hex = || token.iter().all(|&c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c));
    let found = if uuid {
        HEROKU_CONTEXT.before(b, start, PROVIDER_WINDOW)
    } else if (len == 32 || len == 40) && lower_hex() {
        DATADOG_CONTEXT.before(b, start, PROVIDER_WINDOW) || (len == 40 && CLOUDFLARE_CONTEXT.before(b, start, PROVIDER_WINDOW))
    } else if len == 37 {
        lower_hex() && (CLOUDFLARE_CONTEXT.before(b, start, PROVIDER_WINDOW) || auth_key_header(b, start))
    } else {
        len == 40 && CLOUDFLARE_CONTEXT.before(b, start, PROVIDER_WINDOW)
    };
    (found && random(token)).then(|| hit(PiiKind::ApiKey, start, end, 0.9))
}

/// Whether the token at `start` is the value of an `X-Auth-Key` header, the one Cloudflare's API
/// reads the Global API Key from: `X-Auth-Key: …`, quoted in a curl line (`-H "X-Auth-Key: …"`)
/// or in a JSON map of headers (`"X-Auth-Key": "…"`). The name must end at the colon and start
/// the header (`X-Auth-Keyring:` and `My-X-Auth-Key:` do not count). The `X-Auth-Email` header
/// sent beside it is not needed: a 37-hex value under this name is the key on its own. Reads
/// at most 15 bytes back.
fn auth_key_header(b: &[u8], start: usize) -> bool {
    const NAME: &[u8] = b"x-auth-key";
    // Spaces and quotes: up to three between the colon and the value, one before the colon.
    let skip = |mut k: usize, max: usize| {
        let from = k;
        while k > 0 && from - k < max && matches!(b[k - 1], b' ' | b'\t' | b'"' | b'\'') {
            k -= 1;
        }
        k
    };
    let colon = skip(start, 3);
    if colon == 0 || b[colon - 1] != b':' {
        return false;
    }
    let end = skip(colon - 1, 1);
    end >= NAME.len() && b[end - NAME.len()..end].eq_ignore_ascii_case(NAME) && (end == NAME.len() || !url64(b[end - NAME.len() - 1]))
}

/// Words that put a 40-character token in AWS's context.
const AWS_CONTEXT: Keywords = Keywords::new(&[b"aws", b"amazon", b"secretaccesskey", b"secret_access_key", b"secret access key"]);

/// Whether a byte belongs to an AWS secret access key (`[A-Za-z0-9/+]`).
pub(super) fn aws_secret_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'/' || c == b'+'
}

/// AWS secret access key: exactly 40 of `[A-Za-z0-9/+]` with upper case, lower case and a
/// digit, and an AWS word in the 80 bytes before it. Without that context a 40-character
/// token is left alone (commit hashes, base64 data).
pub(super) fn aws_secret(b: &[u8], start: usize) -> Option<PiiMatch> {
    let end = start + 40;
    if (start > 0 && (aws_secret_byte(b[start - 1]) || b[start - 1] == b'=')) || b.len() < end || aws_secret_byte(at(b, end)) || at(b, end) == b'=' {
        return None;
    }
    let key = &b[start..end];
    let (mut upper, mut lower, mut digit) = (false, false, false);
    for &c in key {
        if !aws_secret_byte(c) {
            return None;
        }
        upper |= c.is_ascii_uppercase();
        lower |= c.is_ascii_lowercase();
        digit |= c.is_ascii_digit();
    }
    (upper && lower && digit && AWS_CONTEXT.before(b, start, 80)).then(|| hit(PiiKind::ApiKey, start, end, 0.9))
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn keys(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    fn one_key(text: &str, key: &str) {
        assert_eq!(keys(text), vec![(PiiKind::ApiKey, key)], "{text}");
    }

    #[test]
    fn webhook_urls() {
        let slack = "https://hooks.slack.com/services/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";
        let discord = "https://discord.com/api/webhooks/908477427903990558/3pDBrPeLvsRPc0iZRibXqaaakHKn_GU0lDBEzBASbngCzJlJYivz6Xv3LKzANbck7kkV";
        for url in [slack, discord] {
            one_key(&format!("POST to {url} when the build fails."), url);
            one_key(&format!("WEBHOOK_URL=\"{url}\""), url);
            one_key(&format!("curl -X POST -d @msg.json {url}?wait=true"), url);
        }
        one_key(&discord.replace("discord.com", "discordapp.com"), &discord.replace("discord.com", "discordapp.com"));
        for t in [
            // The documented placeholder, the bare host, a channel link, another path.
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "see https://hooks.slack.com/services/ for details",
            "https://discord.com/channels/908477427903990558/908477427903990559",
            "https://discord.com/api/webhooks/123/short",
            "https://hooks.slack.com/services/TLYK4D1XH/B8ITXQDLTZV/<token>",
        ] {
            assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn dotted_tokens() {
        for k in [
            "dp.pt.csrzouH4XQpDTvO8p1LHpNapYdrDq2OIgujdz9v6kpd",
            "hvs.6LedegcyTp301ITL28-UOh6hG41-z-Gnx5NVzaLZV85bgZbkT8FS5oIb54QaHM5buSb3B_CZ2vSnktGNdESQ8sRD0S6TY4J",
            "hvb.WIvKocfGhtK3JvxUW8JgYjSzL_o0VKMRkjTFG8ddD-bsr6xwqZ1YAgh25d3ewZIpQjhqn3T1xtIBJp9-pvaZTKZng9u0kG5dO1kU-lssbwNnULQCcvpLwq5HwFIMBj3dxlxEP3RSm77J",
            "56nhsqaozxceyk.atlasv1.acv7xefrrftbh2yl_bixgons4k0f06evgyo75fgwk5maavu6a5ro-sfrwiqi-h18dzs",
        ] {
            one_key(&format!("token {k} end"), k);
            one_key(&format!("export TOKEN=\"{k}\""), k);
            one_key(&format!("The token is {k}."), k);
        }
        for t in [
            "dp.pt.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "dp.pt.short123",
            "hvs.CAESIshort",
            "the dp.pt. prefix and hvs. tokens",
            "module.atlasv1.config",
            "e.g. hvs.<token> or dp.st.<token>",
        ] {
            assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn provider_keys_known_by_their_context() {
        let heroku = "6f3c2d1e-9b8a-4c7d-a5e6-0f1b2c3d4e5f";
        one_key(&format!("HEROKU_API_KEY={heroku}"), heroku);
        one_key(&format!("heroku authorizations token: {heroku}"), heroku);
        let cf = "Y4d9kq2ZxW7mN1pR5tV8bC3fG6hJ0lK2sD4aE7u_";
        one_key(&format!("export CF_API_TOKEN={cf}"), cf);
        one_key(&format!("Cloudflare API token {cf}"), cf);
        let datadog_api = "3f9a1c7e5b2d4086a1c3e5f7092b4d6e";
        let datadog_application = "8e2c4a6f0b1d3e5a7c9f1b3d5e7a9c0b2d4f6a8e";
        one_key(&format!("DD_API_KEY={datadog_api}"), datadog_api);
        one_key(&format!("DD_APP_KEY: {datadog_application}"), datadog_application);
        one_key(&format!("datadog api key {datadog_api}"), datadog_api);
        // The same shapes without the provider's word, or with another provider's.
        for t in [
            format!("request id {heroku}"),
            format!("build {heroku} done"),
            format!("token {cf}"),
            format!("checksum {datadog_api}"),
            format!("commit {datadog_application}"),
            format!("HEROKU_API_KEY={datadog_api}"),
            format!("DD_API_KEY={heroku}"),
            format!("heroku app {heroku}.herokuapp.com"),
            format!("CF_API_TOKEN={}", "abcdefghijklmnopqrstuvwxyzabcdefghijklmn"),
        ] {
            assert!(keys(&t).iter().all(|&(k, _)| k != PiiKind::ApiKey), "{t}: {:?}", keys(&t));
        }
    }

    #[test]
    fn cloudflare_global_api_key_after_its_word() {
        let k = "138fabb4442d3ffc427e10c2fe014d3088faf";
        one_key(&format!("CLOUDFLARE_API_KEY={k}"), k);
        one_key(&format!("export CF_API_KEY=\"{k}\""), k);
        one_key(&format!("Cloudflare global API key: {k}"), k);
        one_key(&format!("cloudflare:\n  email: ops\n  api_key: {k}"), k);
        for t in [
            // 37 hex digits with no Cloudflare word: a hash cut short.
            format!("sha256 prefix {k} matched"),
            format!("commit {k}"),
            // 36 and 38 hex digits after the word.
            format!("CF_API_KEY={}", &k[..36]),
            format!("CF_API_KEY={k}0"),
            // Upper case, glued to a file name, a run of one digit.
            format!("CF_API_KEY={}", k.to_ascii_uppercase()),
            format!("cloudflare log {k}.gz"),
            format!("CF_API_KEY={}", "0".repeat(37)),
            // The word further back than the window.
            format!("Cloudflare was mentioned in the first part of this note; later on, checksum {k}"),
        ] {
            assert!(keys(&t).iter().all(|&(kind, _)| kind != PiiKind::ApiKey), "{t}: {:?}", keys(&t));
        }
    }

    #[test]
    fn cloudflare_global_api_key_in_its_header() {
        let k = "138fabb4442d3ffc427e10c2fe014d3088faf";
        one_key(&format!("X-Auth-Key: {k}"), k);
        one_key(&format!("x-auth-key:{k}"), k);
        let curl = format!("curl -X GET \"https://api.example.net/client/v4/zones\" -H \"X-Auth-Email: ops@example.org\" -H \"X-Auth-Key: {k}\"");
        assert_eq!(keys(&curl), vec![(PiiKind::Email, "ops@example.org"), (PiiKind::ApiKey, k)]);
        one_key(&format!("curl https://api.example.net/v4/zones -H 'X-Auth-Key: {k}'"), k);
        one_key(&format!("{{\"X-Auth-Key\": \"{k}\", \"Content-Type\": \"application/json\"}}"), k);
        one_key(&format!("X-Auth-Key: {k} (the Cloudflare account's global key)"), k);
        for t in [
            // 36 and 38 hex digits, upper case, a word, a placeholder.
            format!("X-Auth-Key: {}", &k[..36]),
            format!("X-Auth-Key: {k}0"),
            format!("X-Auth-Key: {}", k.to_ascii_uppercase()),
            "X-Auth-Key: required for every request".to_string(),
            "-H \"X-Auth-Key: $CF_KEY\"".to_string(),
            // Another header whose name starts or ends the same way.
            format!("X-Auth-Keyring: {k}"),
            format!("My-X-Auth-Key: {k}"),
            format!("X-Auth-Key-Id: {k}"),
            // The name away from the colon, or the value glued to more.
            format!("X-Auth-Key is sent later; digest: {k}"),
            format!("X-Auth-Key: {k}.gz"),
        ] {
            assert!(keys(&t).iter().all(|&(kind, _)| kind != PiiKind::ApiKey), "{t}: {:?}", keys(&t));
        }
    }

    #[test]
    fn vault_legacy_service_tokens() {
        let k = "s.Qf1s5zigZ4LX6vwFhK2wqpnA";
        one_key(&format!("VAULT_TOKEN={k}"), k);
        one_key(&format!("vault login {k}"), k);
        one_key(&format!("token: \"{k}\""), k);
        for t in [
            // Ordinary `s.` text: fields, calls, paths, abbreviations.
            "let n = s.lengthOfTheLongestSubstring;",
            "s.getAbsolutePathName2ForFile(x)",
            "return s.Qf1s5zigZ4LX6vwFhK2wqpnA.trim",
            "obj.s.Qf1s5zigZ4LX6vwFhK2wqpnA",
            "s.Qf1s5zigZ4LX6vwFhK2wqpnAx",
            "s.Qf1s5zigZ4LX6vwFhK2wqpn",
            "s.qf1s5zigz4lx6vwfhk2wqpna",
            "s.AAAAAAAAAAAAAAAAAAAAAAA1",
            "see s.ExampleTokenValueHereABC",
        ] {
            assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn azure_keys_and_signatures() {
        let key = "aykewCxDuKCCAsab2xTI6ESt1DmnF5s3w/RFNsYh0CRTaQV9uB3A7l/KC/NsLEEnh4M8Kqc9zFbKhOCNDLA59A==";
        let conn = format!("DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={key};EndpointSuffix=core.windows.net");
        one_key(&conn, key);
        let bus = "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=Xq3mJ8vR2pL5tN9wK4zB7cF1hD6sG0aY+eU2iO8rT5k=";
        one_key(bus, "Xq3mJ8vR2pL5tN9wK4zB7cF1hD6sG0aY+eU2iO8rT5k=");
        let sig = "lKZJzrHvEXyDTAQjhKg3gI86r4S2AfYpQLLZWK8%2BVKc%3D";
        let sas = format!("https://acme.blob.core.windows.net/logs/a.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&spr=https&sig={sig}");
        one_key(&sas, sig);
        let secret = "aX28Q~mnb6FcwpEYgF6x8BuDKwyxVvHR-ToIUkEq";
        one_key(&format!("client_secret={secret}"), secret);
        one_key(&format!("\"ClientSecret\": \"{secret}\""), secret);
        for t in [
            "AccountKey=<storage-account-key>;",
            "AccountKey=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx==",
            // `sig=` with no SAS query around it.
            "https://example.org/page?sig=lKZJzrHvEXyDTAQjhKg3gI86r4S2AfYpQLLZWK8%2BVKc%3D",
            "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
            "client_secret=bP88Q~xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ] {
            assert!(keys(t).iter().all(|(k, _)| *k != PiiKind::ApiKey), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn mailchimp_telegram_and_discord_bot() {
        for k in [
            "b37efa64f96677444ac5a63f8e93117c-us14",
            "3915207085:AA_NgZ7UWyGfGnqreYEPkz_IREzKjWAzBAh",
            "NjAwNTY2NDAyMDc5NjU5MjU2MQ.hlVA5h.vCCKh7QnlLFTjGCR6IlB2uMbnzdMiUyxjNQmeE",
        ] {
            one_key(&format!("token {k} end"), k);
            one_key(&format!("BOT_TOKEN=\"{k}\""), k);
            one_key(&format!("The token is {k}."), k);
        }
        for t in [
            // Mailchimp: upper-case hex, 31 digits, no data centre.
            "B37EFA64F96677444AC5A63F8E93117C-us14",
            "b37efa64f96677444ac5a63f8e93117-us14",
            "b37efa64f96677444ac5a63f8e93117c-usa",
            // Telegram: too short after the colon, not `A`, a time.
            "3915207085:AA_NgZ7UWyGfGnqreYEPkz",
            "3915207085:BB_NgZ7UWyGfGnqreYEPkz_IREzKjWAzBAh",
            "at 10:30 the job ran",
            // Discord: the first segment is not the base64 of a number.
            "SGVsbG8gd29ybGQgZnJvbSBtZQ.hlVA5h.vCCKh7QnlLFTjGCR6IlB2uMbnzdMiUyxjNQmeE",
            "NjAwNTY2NDAyMDc5NjU5MjU2MQ.hlVA5h.short",
            "MyClass.method.call()",
        ] {
            assert!(keys(t).is_empty(), "{t}: {:?}", keys(t));
        }
    }

    #[test]
    fn aws_secret_needs_aws_context() {
        let s = "DkjlmUoaYaLZVPvfCnABW1Z9gVPgZ36he38xhZ+h";
        one_key(&format!("AWS secret access key: {s}"), s);
        let sts = format!("{{\"AccessKeyId\": \"ASIAXC7HO000VKFVOM1B\", \"SecretAccessKey\": \"{s}\"}}");
        assert_eq!(keys(&sts), vec![(PiiKind::ApiKey, "ASIAXC7HO000VKFVOM1B"), (PiiKind::ApiKey, s)]);
        one_key(&format!("[default]\naws_secret_access_key = {s}"), s);
        one_key("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        // A key may start with digits, or with `+` or `/`.
        one_key("aws_secret=7Hq2mZ0pX9vL4kR8sT1wY6bN3cF5dG0jA2eU8iO4", "7Hq2mZ0pX9vL4kR8sT1wY6bN3cF5dG0jA2eU8iO4");
        one_key("the AWS secret key +e+aBeJkpCP7LrF9IxqU4YMY/dl+rzCgdjH1np9T", "+e+aBeJkpCP7LrF9IxqU4YMY/dl+rzCgdjH1np9T");
        for t in [
            // No AWS context: a 40-character token alone.
            format!("checksum {s} ok"),
            // A commit hash next to AWS words, base64 glued to more of it.
            "aws commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904".to_string(),
            format!("aws blob {s}{s}"),
            "aws key xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".to_string(),
        ] {
            assert!(keys(&t).is_empty(), "{t}: {:?}", keys(&t));
        }
    }
}
