//! Personal-data detection and redaction.
//!
//! CONTRACT (the engine and the napi glue rely on these names; the detectors behind them are
//! free to change): `detect` returns matches sorted by `start`, non-overlapping, with byte
//! offsets into `text`; every validator-backed type (cards, SSN, IBAN, wallets…) only reports
//! numbers that pass their checksum or rules.
//!
//! ```
//! use reflex_core::pii::{detect, redact, RedactMode};
//! let text = "card 4111 1111 1111 1111, mail ada@example.com";
//! let found = detect(text);
//! assert_eq!(redact(text, &found, &RedactMode::Placeholder), "card [CREDIT_CARD_1], mail [EMAIL_1]");
//! ```
//!
//! Confidence (`PiiMatch::confidence`, 0..1) says how sure a detector is; a caller reporting or
//! redacting only from a threshold (0.4 by default) drops the rest. The rule: a validated
//! checksum or a structure no ordinary text has is near 1; a shape without a checksum needs a
//! context word nearby and scores lower; a number that passes a check by chance as often as
//! ordinary numbers do scores below 0.4 without its context word.
//!
//! | kind | with context | without context |
//! |---|---|---|
//! | `CREDIT_CARD` (issuer prefix, length, Luhn) | 0.97 grouped, 0.95 unbroken | 0.6 grouped, 0.2 unbroken |
//! | SSN (area, group and serial rules) | 0.97 dashed; 0.85 dotted, spaced or unbroken | 0.85 dashed; else not reported |
//! | `UK_NHS` (mod-11 check digit) | 0.92 | not reported |
//! | PHONE | 0.8–0.95 | 0.88 `+CC`; 0.8 North American; 0.78 CN/BR mobiles; 0.72 trunk-0 national; 0.7 IN; 0.6 MX; other shapes not reported |
//! | EMAIL | 0.97; 0.9 obfuscated (`[at]`, `[dot]`, ` AT `); 0.8 spoken in lower case (` at `, ` dot `, a common TLD) | the same |
//! | IBAN (mod-97), keys and wallets (checksums, prefixes) | 0.85–0.97 | the same |
//! | `API_KEY` known by shape and provider word only (Heroku UUID, Cloudflare 40 or 37 lower-case hex, Datadog 32/40 hex; the 37 hex also as the value of an `X-Auth-Key` header) | 0.9 | not reported |
//! | `DRIVER_LICENSE` (no check digit; UK DVLA numbers carry a birth date) | 0.85 DVLA, 0.7 other layouts; a number starting with two letters (`TR538172`) only right after the licence phrase | not reported |
//! | `IN_GSTIN` (base-36 check character) | 0.97 | 0.9 |
//! | `SG_UEN` (check letter) | 0.9 digit-led, 0.95 `T09LL0001D` layout | 0.7 `T09LL0001D` layout; digit-led layouts not reported |
//! | `IT_VAT_CODE` (Luhn, office code) | 0.9 bare or after `IT `, 0.95 `IT`-prefixed | 0.85 `IT`-prefixed; bare not reported |
//! | `KR_BRN` (check digit), `NG_NIN` (Verhoeff), `CA_SIN` (Luhn) | 0.9 | not reported |
//! | `IP_ADDRESS`, `MAC_ADDRESS` | 0.85–0.9 | the same |
//! | `DATE_OF_BIRTH`, PASSPORT | 0.85, 0.75 | not reported |
//! | PASSWORD | 0.8–0.9 (a credential key or noun is its context) | not reported |
//!
//! Card context is a card word ("card", "visa", "CVV", "expiry", "payment", "tarjeta", "Karte",
//! "kort"…, and "карта", "信用卡", "カード", "카드", "بطاقة"… in other scripts) within 48 bytes
//! before the number or 24 after it: the 62nd Fibonacci number,
//! 4052739537881, passes Luhn with a Visa prefix and is reported at 0.2 without one.
//!
//! How it stays fast: one pass over the bytes, a block at a time (`stops`). Only the words some
//! detector could start on (not plain lower-case prose, but for credential nouns and a spoken
//! address's ` dot `) and a handful of trigger bytes
//! (`@ = : - + (`, and the brackets of an obfuscated `[at]`) are looked at; each detector first
//! checks a cheap shape (a digit, a known prefix, two letters and two digits…) and only then
//! validates.
//! Context words ("phone", "ssn", "born"…) are looked up in a small window before a candidate,
//! never across the whole text. Clean text allocates nothing.
//!
//! Overlaps: every detector reports freely, then `resolve` keeps one match per span, preferring
//! the more specific kind, then the longer match, then the earlier one. Rank, high to low:
//! `PRIVATE_KEY` > `API_KEY` = `CRYPTO_WALLET` > `CREDIT_CARD` = IBAN = EMAIL > SSN = `UK_NHS` =
//! `MAC_ADDRESS` = the checksum-validated national identifiers (`IN_AADHAAR`, `AU_TFN`, `AU_ABN`,
//! `AU_ACN`, `AU_MEDICARE`, `ES_NIF`, `ES_NIE`, `IT_FISCAL_CODE`, `PL_PESEL`, `SG_NRIC`, `KR_RRN`,
//! `FI_PERSONAL_ID`, `TH_TNIN`, `SG_UEN`, `IT_VAT_CODE`, `IN_GSTIN`, `KR_BRN`, `NG_NIN`, `CA_SIN`) >
//! `IP_ADDRESS` = `DATE_OF_BIRTH` > PASSPORT = the identifiers
//! known by structure and context only (`UK_NINO`, `IN_PAN`, `US_ITIN`, `DRIVER_LICENSE`) >
//! PASSWORD > PHONE. So a JWT, provider key, card or wallet assigned to `password=` is reported
//! as that, not as `PASSWORD`; an e-mail's domain is never also something else; an NHS number
//! with its context beats the phone shape it also has; a PEM block swallows whatever key-like
//! lines it contains.

mod card;
mod dispatch;
mod dob;
mod email;
mod iban;
mod ip;
mod mac;
mod national;
mod nhs;
mod passport;
mod password;
mod phone;
mod redact;
mod scan;
mod secret_rules;
mod secret_shapes;
mod secrets;
mod ssn;
mod stops;
mod wallet;

/// The kinds of personal data reported; `as_str` gives the upper-snake name used over HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PiiKind {
    Email,
    Phone,
    CreditCard,
    Ssn,
    Iban,
    IpAddress,
    MacAddress,
    CryptoWallet,
    ApiKey,
    PrivateKey,
    Password,
    DateOfBirth,
    UkNhs,
    Passport,
    UkNino,
    InAadhaar,
    InPan,
    AuTfn,
    AuAbn,
    AuAcn,
    AuMedicare,
    EsNif,
    EsNie,
    ItFiscalCode,
    PlPesel,
    SgNric,
    KrRrn,
    UsItin,
    FiPersonalId,
    DriverLicense,
    ThTnin,
    SgUen,
    ItVatCode,
    InGstin,
    KrBrn,
    NgNin,
    CaSin,
}

impl PiiKind {
    pub const ALL: [PiiKind; 37] = [
        PiiKind::Email,
        PiiKind::Phone,
        PiiKind::CreditCard,
        PiiKind::Ssn,
        PiiKind::Iban,
        PiiKind::IpAddress,
        PiiKind::MacAddress,
        PiiKind::CryptoWallet,
        PiiKind::ApiKey,
        PiiKind::PrivateKey,
        PiiKind::Password,
        PiiKind::DateOfBirth,
        PiiKind::UkNhs,
        PiiKind::Passport,
        PiiKind::UkNino,
        PiiKind::InAadhaar,
        PiiKind::InPan,
        PiiKind::AuTfn,
        PiiKind::AuAbn,
        PiiKind::AuAcn,
        PiiKind::AuMedicare,
        PiiKind::EsNif,
        PiiKind::EsNie,
        PiiKind::ItFiscalCode,
        PiiKind::PlPesel,
        PiiKind::SgNric,
        PiiKind::KrRrn,
        PiiKind::UsItin,
        PiiKind::FiPersonalId,
        PiiKind::DriverLicense,
        PiiKind::ThTnin,
        PiiKind::SgUen,
        PiiKind::ItVatCode,
        PiiKind::InGstin,
        PiiKind::KrBrn,
        PiiKind::NgNin,
        PiiKind::CaSin,
    ];

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            PiiKind::Email => "EMAIL",
            PiiKind::Phone => "PHONE",
            PiiKind::CreditCard => "CREDIT_CARD",
            PiiKind::Ssn => "SSN",
            PiiKind::Iban => "IBAN",
            PiiKind::IpAddress => "IP_ADDRESS",
            PiiKind::MacAddress => "MAC_ADDRESS",
            PiiKind::CryptoWallet => "CRYPTO_WALLET",
            PiiKind::ApiKey => "API_KEY",
            PiiKind::PrivateKey => "PRIVATE_KEY",
            PiiKind::Password => "PASSWORD",
            PiiKind::DateOfBirth => "DATE_OF_BIRTH",
            PiiKind::UkNhs => "UK_NHS",
            PiiKind::Passport => "PASSPORT",
            PiiKind::UkNino => "UK_NINO",
            PiiKind::InAadhaar => "IN_AADHAAR",
            PiiKind::InPan => "IN_PAN",
            PiiKind::AuTfn => "AU_TFN",
            PiiKind::AuAbn => "AU_ABN",
            PiiKind::AuAcn => "AU_ACN",
            PiiKind::AuMedicare => "AU_MEDICARE",
            PiiKind::EsNif => "ES_NIF",
            PiiKind::EsNie => "ES_NIE",
            PiiKind::ItFiscalCode => "IT_FISCAL_CODE",
            PiiKind::PlPesel => "PL_PESEL",
            PiiKind::SgNric => "SG_NRIC",
            PiiKind::KrRrn => "KR_RRN",
            PiiKind::UsItin => "US_ITIN",
            PiiKind::FiPersonalId => "FI_PERSONAL_ID",
            PiiKind::DriverLicense => "DRIVER_LICENSE",
            PiiKind::ThTnin => "TH_TNIN",
            PiiKind::SgUen => "SG_UEN",
            PiiKind::ItVatCode => "IT_VAT_CODE",
            PiiKind::InGstin => "IN_GSTIN",
            PiiKind::KrBrn => "KR_BRN",
            PiiKind::NgNin => "NG_NIN",
            PiiKind::CaSin => "CA_SIN",
        }
    }
}

/// One finding; `start..end` are byte offsets into the scanned text.
#[derive(Clone, Debug, PartialEq)]
pub struct PiiMatch {
    pub kind: PiiKind,
    pub start: usize,
    pub end: usize,
    /// 0..1: how sure the detector is (validated checksums near 1, context-only guesses lower).
    pub confidence: f32,
}

/// How `redact` replaces each match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedactMode {
    /// `[EMAIL_1]`, `[EMAIL_2]`…, numbered per kind and per call; the same value gets the same number.
    Placeholder,
    /// Every character but the last `keep_last` alphanumerics replaced by `*`.
    Mask { keep_last: usize },
    /// `[REDACTED]`.
    Redact,
    /// Removed entirely.
    Remove,
    /// `[EMAIL:<first 12 hex of sha256(salt || value)>]`.
    Hash { salt: String },
}

/// Finds personal data in `text`.
#[must_use]
pub fn detect(text: &str) -> Vec<PiiMatch> {
    let mut out = Vec::new();
    detect_into(text, &mut out);
    out
}

/// [`detect`] into `out` (cleared first), so a caller checking text after text can keep one
/// vector instead of allocating and freeing one per text.
pub fn detect_into(text: &str, out: &mut Vec<PiiMatch>) {
    out.clear();
    let b = text.as_bytes();
    // Where the last word looked at ended: later marks inside it have nothing left to add.
    let mut done = 0;
    for from in (0..b.len()).step_by(stops::BLOCK) {
        let mut marks = stops::stops(b, from);
        while marks != 0 {
            let at = from + marks.trailing_zeros() as usize;
            marks &= marks - 1;
            if at < done {
                continue;
            }
            let c = b[at];
            if scan::is_word(c) {
                // A letter starting a word only counts, as far as this mark goes, for what a
                // plain word gets: the month-name check (capitals), the credential-noun check
                // and a spoken address's ` dot `. Whatever else makes the word count (a capital or digit inside, a `:`
                // after it…) is marked at its own byte, and so is a lower-case letter inside
                // a word after a capital or a digit.
                let initial = at == 0 || !scan::is_word(b[at - 1]);
                if c.is_ascii_lowercase() && !initial {
                    continue;
                }
                if initial && c.is_ascii_alphabetic() && !dob::may_name_month(c) && !password::may_be_noun(b, at) && !email::may_be_spoken_dot(b, at) {
                    continue;
                }
                done = dispatch::word(b, start_of_word(b, at), out);
                continue;
            }
            // `:`, `-` and, after a four-letter word, `.` change what the word before them is.
            if matches!(c, b':' | b'-') && at > 0 && scan::is_word(b[at - 1]) {
                let start = start_of_word(b, at - 1);
                if start >= done {
                    done = dispatch::word(b, start, out);
                }
            } else if c == b'.' && at >= done + 4 && b[at - 4..at].iter().all(|&w| scan::is_word(w)) && (at == 4 || !scan::is_word(b[at - 5])) {
                done = dispatch::word(b, at - 4, out);
            }
            dispatch::trigger(b, at, out);
        }
    }
    resolve(out);
}

/// The start of the word holding `b[at]`.
fn start_of_word(b: &[u8], at: usize) -> usize {
    let mut start = at;
    while start > 0 && scan::is_word(b[start - 1]) {
        start -= 1;
    }
    start
}

/// How specific a kind is: on overlap the higher rank wins (validated, structured formats over
/// shape-only guesses; a credential value loses to the provider key or e-mail it contains).
fn rank(kind: PiiKind) -> u8 {
    match kind {
        PiiKind::PrivateKey => 10,
        PiiKind::ApiKey | PiiKind::CryptoWallet => 9,
        PiiKind::CreditCard | PiiKind::Iban | PiiKind::Email => 8,
        // With the national identifiers validated by a checksum or a check character.
        PiiKind::Ssn
        | PiiKind::UkNhs
        | PiiKind::MacAddress
        | PiiKind::InAadhaar
        | PiiKind::AuTfn
        | PiiKind::AuAbn
        | PiiKind::AuAcn
        | PiiKind::AuMedicare
        | PiiKind::EsNif
        | PiiKind::EsNie
        | PiiKind::ItFiscalCode
        | PiiKind::PlPesel
        | PiiKind::SgNric
        | PiiKind::KrRrn
        | PiiKind::FiPersonalId
        | PiiKind::ThTnin
        | PiiKind::SgUen
        | PiiKind::ItVatCode
        | PiiKind::InGstin
        | PiiKind::KrBrn
        | PiiKind::NgNin
        | PiiKind::CaSin => 7,
        PiiKind::IpAddress | PiiKind::DateOfBirth => 6,
        // Identifiers known by their structure and a context word only.
        PiiKind::Passport | PiiKind::UkNino | PiiKind::InPan | PiiKind::UsItin | PiiKind::DriverLicense => 5,
        PiiKind::Password => 4,
        PiiKind::Phone => 3,
    }
}

/// Keeps one match per span: by rank, then length, then position; leaves them sorted by start.
fn resolve(found: &mut Vec<PiiMatch>) {
    // Detectors mostly report in text order without overlap (an e-mail, then a phone): then
    // every match is kept and the order by start is the one they came in. Seen in one pass,
    // which keeps the two sorts and the overlap loop (eight cache lines of code, cold between
    // requests) off the common case.
    if found.windows(2).all(|w| w[0].start < w[1].start && w[0].end <= w[1].start) {
        return;
    }
    if found.len() > 1 {
        found.sort_by(|a, b| {
            rank(b.kind)
                .cmp(&rank(a.kind))
                .then((b.end - b.start).cmp(&(a.end - a.start)))
                .then(a.start.cmp(&b.start))
        });
        // Kept matches are moved to the front, in order, so no second vector is allocated.
        let mut kept = 0;
        if found.len() <= 32 {
            for i in 0..found.len() {
                let m = &found[i];
                if found[..kept].iter().all(|k| m.end <= k.start || m.start >= k.end) {
                    found.swap(kept, i);
                    kept += 1;
                }
            }
        } else {
            // Kept spans are disjoint, so only the one starting last before `m.end` can clash:
            // O(log n) per candidate on a 100 000-character text full of numbers.
            let mut taken = std::collections::BTreeMap::new();
            for i in 0..found.len() {
                let m = &found[i];
                if taken.range(..m.end).next_back().is_none_or(|(_, &end)| end <= m.start) {
                    taken.insert(m.start, m.end);
                    found.swap(kept, i);
                    kept += 1;
                }
            }
        }
        found.truncate(kept);
        found.sort_by_key(|m| m.start);
    }
}

/// Replaces every match (as returned by [`detect`] on the same text) according to `mode`.
#[must_use]
pub fn redact(text: &str, matches: &[PiiMatch], mode: &RedactMode) -> String {
    redact::apply(text, matches, mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(PiiKind, &str)> {
        detect(text).into_iter().map(|m| (m.kind, &text[m.start..m.end])).collect()
    }

    #[test]
    fn mixed_text_sorted_with_byte_offsets() {
        let text = "Ünïcødé → ada@example.com, 📞 +1 415 555 2671, IBAN DE89 3704 0044 0532 0130 00, ip 192.168.0.1";
        let found = detect(text);
        assert_eq!(
            spans(text),
            vec![
                (PiiKind::Email, "ada@example.com"),
                (PiiKind::Phone, "+1 415 555 2671"),
                (PiiKind::Iban, "DE89 3704 0044 0532 0130 00"),
                (PiiKind::IpAddress, "192.168.0.1"),
            ]
        );
        assert_eq!(found[0].start, text.find("ada@").unwrap());
        assert!(found.windows(2).all(|w| w[0].end <= w[1].start));
    }

    #[test]
    fn overlap_keeps_the_more_specific_kind() {
        // The NHS number also has a North American phone shape.
        assert_eq!(spans("NHS number 943 476 5919"), vec![(PiiKind::UkNhs, "943 476 5919")]);
        // A JWT assigned to a credential key is reported once, as the key it is.
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
        let text = format!("password={jwt}");
        assert_eq!(spans(&text), vec![(PiiKind::ApiKey, jwt)]);
        // A private key block swallows the key-looking lines inside it.
        let pem = "-----BEGIN PRIVATE KEY-----\nAKIAIOSFODNN7EXAMPLE\n-----END PRIVATE KEY-----";
        assert_eq!(spans(pem), vec![(PiiKind::PrivateKey, pem)]);
        // So does a card or a wallet address.
        assert_eq!(spans("password=4111 1111 1111 1111"), vec![(PiiKind::CreditCard, "4111 1111 1111 1111")]);
        let eth = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        assert_eq!(spans(&format!("pwd: {eth}")), vec![(PiiKind::CryptoWallet, eth)]);
        // An e-mail as a password value stays an e-mail.
        assert_eq!(spans("pass: bob@example.org"), vec![(PiiKind::Email, "bob@example.org")]);
    }

    #[test]
    fn values_right_after_a_label_colon() {
        assert_eq!(spans("card:4111111111111111"), vec![(PiiKind::CreditCard, "4111111111111111")]);
        assert_eq!(spans("ip:10.0.0.1"), vec![(PiiKind::IpAddress, "10.0.0.1")]);
        assert_eq!(spans("SSN:078-05-1120"), vec![(PiiKind::Ssn, "078-05-1120")]);
        assert_eq!(spans("at 10:30:45"), vec![]);
    }

    #[test]
    fn resolve_prefers_rank_then_length() {
        let m = |kind, start, end| PiiMatch { kind, start, end, confidence: 0.5 };
        let mut out = vec![m(PiiKind::Phone, 0, 12), m(PiiKind::Ssn, 2, 11), m(PiiKind::Phone, 20, 25), m(PiiKind::Phone, 20, 30)];
        resolve(&mut out);
        assert_eq!(out, vec![m(PiiKind::Ssn, 2, 11), m(PiiKind::Phone, 20, 30)]);
    }

    #[test]
    fn resolve_keeps_matches_already_in_order() {
        let m = |kind, start, end| PiiMatch { kind, start, end, confidence: 0.5 };
        let apart = vec![m(PiiKind::Phone, 0, 5), m(PiiKind::Email, 5, 9), m(PiiKind::Ssn, 12, 20)];
        let mut out = apart.clone();
        resolve(&mut out);
        assert_eq!(out, apart);
        // Out of order, or overlapping: sorted and resolved as before.
        let mut out = vec![m(PiiKind::Email, 5, 9), m(PiiKind::Phone, 0, 5)];
        resolve(&mut out);
        assert_eq!(out, vec![m(PiiKind::Phone, 0, 5), m(PiiKind::Email, 5, 9)]);
        let mut out = vec![m(PiiKind::Phone, 0, 6), m(PiiKind::Email, 5, 9)];
        resolve(&mut out);
        assert_eq!(out, vec![m(PiiKind::Email, 5, 9)]);
    }

    #[test]
    fn clean_prose_has_nothing() {
        let text = "Version 1.2.3.4 shipped on 2024-01-15 (order 123456, ISBN 978-3-16-148410-0). \
                    The build id is 550e8400-e29b-41d4-a716-446655440000 and it took 12.5 s at 10:30:00. \
                    Call the meeting by 3pm; total: 4,500 units; ratio 16:9; see RFC 4291.";
        assert_eq!(spans(text), vec![]);
    }

    #[test]
    fn many_matches_resolve_like_few() {
        use std::fmt::Write as _;
        let mut text = String::new();
        for i in 0..200 {
            let _ = write!(text, "host 10.0.{}.{} mail u{i}@x.org; ", i % 250, (i * 7) % 250);
        }
        let found = detect(&text);
        assert_eq!(found.len(), 400);
        assert!(found.windows(2).all(|w| w[0].end <= w[1].start));
    }

    #[test]
    fn pathological_inputs_stay_linear() {
        let headers = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n".repeat(3000);
        let t = std::time::Instant::now();
        let found = detect(&headers);
        assert!(!found.is_empty());
        let colons = "1:".repeat(50_000);
        let _ = detect(&colons);
        let digits = "4".repeat(100_000);
        assert!(detect(&digits).is_empty());
        // Generous: a debug build on a busy machine; quadratic behaviour would take minutes.
        assert!(t.elapsed() < std::time::Duration::from_secs(10));
    }

    /// Pseudo-random texts built from the bytes detectors care about: never a panic, and the
    /// contract (sorted, non-overlapping, char boundaries) always holds.
    #[test]
    fn contract_holds_on_noise() {
        const PARTS: &[&str] = &[
            "4", "1", "0", "9", "5", " ", "-", ".", ":", "::", "@", "=", "+", "(", ")", "/", "a", "F", "x", "é", "📞", "\n",
            "password=", "ssn ", "born ", "NHS ", "passport ", "bc1q", "0x", "eyJ", "AKIA", "sk-", "ghp_", "DE89", "-----BEGIN ",
            "PRIVATE KEY-----", "-----END ", "\"", "'", "call ", "January ", ".com",
        ];
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d_u64);
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..next() % 60 {
                text.push_str(PARTS[(next() % PARTS.len() as u64) as usize]);
            }
            let found = detect(&text);
            for m in &found {
                assert!(m.start < m.end && text.is_char_boundary(m.start) && text.is_char_boundary(m.end), "{text:?} {m:?}");
            }
            assert!(found.windows(2).all(|w| w[0].end <= w[1].start), "{text:?}");
            let _ = redact(&text, &found, &RedactMode::Mask { keep_last: 2 });
        }
    }
}
