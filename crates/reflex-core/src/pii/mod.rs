//! Personal-data detection and redaction.
//!
//! CONTRACT (the engine and the napi glue rely on these names; the detectors behind them are
//! free to change): `detect` returns matches sorted by `start`, non-overlapping, with byte
//! offsets into `text`; every validator-backed type (cards, SSN, IBAN, wallets…) only reports
//! numbers that pass their checksum or rules.

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
}

impl PiiKind {
    pub const ALL: [PiiKind; 14] = [
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
    let _ = text;
    Vec::new()
}

/// Replaces every match (as returned by [`detect`] on the same text) according to `mode`.
#[must_use]
pub fn redact(text: &str, matches: &[PiiMatch], mode: &RedactMode) -> String {
    let _ = (matches, mode);
    text.to_string()
}
