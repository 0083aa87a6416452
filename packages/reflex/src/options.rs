//! What crosses the boundary as objects: options mirrored as `#[napi(object)]` structs (their `///`
//! docs become `JSDoc` in the generated `.d.ts`), converted into core types with `TryFrom`, and the
//! small results (stats, a cache entry, a limiter's decision).

use napi_derive::napi;
use reflex_core::cache::{CacheStats, Entry};
use reflex_core::detector::{CheckOptions, CheckStats, DetectorConfig};
use reflex_core::pii::RedactMode;
use reflex_core::ratelimit::{self, Decision};
use reflex_core::severity::Severity;

use crate::errors::{invalid_option, CodedError};

/// How a detector judges and remembers; every field is optional.
#[napi(object)]
#[derive(Default)]
pub struct DetectorOptions {
    /// Injection severity at which a check is blocked: low, medium, high (default) or critical.
    pub block_level: Option<String>,
    /// When given (0..1), a check is blocked when its injection score reaches it, instead of by
    /// the block level.
    pub injection_threshold: Option<f64>,
    /// Least confidence (0..1) of personal data reported and redacted (default 0.4).
    pub pii_threshold: Option<f64>,
    /// Results kept for texts checked again (default 4096; 0 keeps none).
    pub memo_max_entries: Option<f64>,
    /// Most bytes those results hold (default 32 MiB).
    pub memo_max_bytes: Option<f64>,
}

impl TryFrom<DetectorOptions> for DetectorConfig {
    type Error = CodedError;

    fn try_from(o: DetectorOptions) -> Result<Self, Self::Error> {
        let defaults = DetectorConfig::default();
        let block_level = match o.block_level.as_deref() {
            None => defaults.block_level,
            Some(name) => match Severity::parse(name) {
                Some(level) if level > Severity::None => level,
                _ => return Err(invalid_option(format!("blockLevel must be low, medium, high or critical, not {name:?}"))),
            },
        };
        Ok(DetectorConfig {
            block_level,
            injection_threshold: threshold("injectionThreshold", o.injection_threshold)?,
            pii_threshold: threshold("piiThreshold", o.pii_threshold)?.unwrap_or(defaults.pii_threshold),
            memo_max_entries: count("memoMaxEntries", o.memo_max_entries, defaults.memo_max_entries)?,
            memo_max_bytes: count("memoMaxBytes", o.memo_max_bytes, defaults.memo_max_bytes)?,
        })
    }
}

/// Which detectors a check runs (each defaults to true), and thresholds of its own (0..1; the
/// detector's when absent).
#[napi(object)]
#[derive(Default, Clone, Copy)]
pub struct CheckFlags {
    pub check_pii: Option<bool>,
    pub check_injection: Option<bool>,
    /// Blocks when the injection score reaches it, instead of the detector's threshold or level.
    pub injection_threshold: Option<f64>,
    /// Least confidence of personal data reported and redacted.
    pub pii_threshold: Option<f64>,
}

impl TryFrom<CheckFlags> for CheckOptions {
    type Error = CodedError;

    fn try_from(f: CheckFlags) -> Result<Self, Self::Error> {
        Ok(CheckOptions {
            check_pii: f.check_pii.unwrap_or(true),
            check_injection: f.check_injection.unwrap_or(true),
            injection_threshold: threshold("injectionThreshold", f.injection_threshold)?,
            pii_threshold: threshold("piiThreshold", f.pii_threshold)?,
        })
    }
}

/// A threshold from a JavaScript number: finite, from 0 to 1.
#[allow(clippy::cast_possible_truncation)] // checked: 0 ..= 1, where an f32 is as fine as a threshold needs
pub fn threshold(name: &str, value: Option<f64>) -> Result<Option<f32>, CodedError> {
    match value {
        None => Ok(None),
        Some(t) if (0.0..=1.0).contains(&t) => Ok(Some(t as f32)),
        Some(t) => Err(invalid_option(format!("{name} must be a finite number from 0 to 1, not {t}"))),
    }
}

/// How `redact` replaces what it finds.
#[napi(object)]
#[derive(Default)]
pub struct RedactOptions {
    /// placeholder (default: `[EMAIL_1]`), mask, redact (`[REDACTED]`), remove or hash.
    pub mode: Option<String>,
    /// With mask: how many trailing alphanumerics stay visible (default 4).
    pub keep_last: Option<f64>,
    /// With hash: the salt mixed into each digest (default empty).
    pub salt: Option<String>,
    /// Least confidence (0..1) of personal data redacted (default the detector's).
    pub pii_threshold: Option<f64>,
}

impl RedactOptions {
    /// The redaction's own threshold, if it gives one.
    pub fn pii_threshold(&self) -> Result<Option<f32>, CodedError> {
        threshold("piiThreshold", self.pii_threshold)
    }
}

impl TryFrom<RedactOptions> for RedactMode {
    type Error = CodedError;

    fn try_from(o: RedactOptions) -> Result<Self, Self::Error> {
        Ok(match o.mode.as_deref().unwrap_or("placeholder") {
            "placeholder" => RedactMode::Placeholder,
            "mask" => RedactMode::Mask { keep_last: count("keepLast", o.keep_last, 4)? },
            "redact" => RedactMode::Redact,
            "remove" => RedactMode::Remove,
            "hash" => RedactMode::Hash { salt: o.salt.unwrap_or_default() },
            other => return Err(invalid_option(format!("mode must be placeholder, mask, redact, remove or hash, not {other:?}"))),
        })
    }
}

/// Counters of the checks since the detector was made.
#[napi(object)]
pub struct DetectorStats {
    pub checks: f64,
    pub blocked: f64,
    pub pii_detected: f64,
    pub injection_detected: f64,
}

impl From<CheckStats> for DetectorStats {
    fn from(s: CheckStats) -> Self {
        DetectorStats { checks: s.checks as f64, blocked: s.blocked as f64, pii_detected: s.pii_detected as f64, injection_detected: s.injection_detected as f64 }
    }
}

/// How a cache tier is bounded; every field is optional.
#[napi(object)]
#[derive(Default)]
pub struct CacheTierOptions {
    /// Most entries held (default 100000).
    pub max_entries: Option<f64>,
    /// Most bytes of keys and values held (default 256 MiB).
    pub max_bytes: Option<f64>,
}

impl CacheTierOptions {
    /// The bounds: entries, then bytes.
    pub fn bounds(&self) -> Result<(usize, usize), CodedError> {
        Ok((count("maxEntries", self.max_entries, 100_000)?, count("maxBytes", self.max_bytes, 256 * 1024 * 1024)?))
    }
}

/// A stored value and its lifetime.
#[napi(object)]
pub struct CacheEntry {
    /// The stored JSON text.
    pub value: String,
    pub created_at_ms: f64,
    pub expires_at_ms: f64,
}

impl From<Entry> for CacheEntry {
    fn from(e: Entry) -> Self {
        CacheEntry { value: e.value.to_string(), created_at_ms: e.created_at_ms as f64, expires_at_ms: e.expires_at_ms as f64 }
    }
}

#[napi(object)]
pub struct CacheTierStats {
    pub hits: f64,
    pub misses: f64,
    /// Entries held, expired ones not yet dropped included.
    pub entries: f64,
    /// Bytes of keys and values held.
    pub bytes: f64,
    /// Live entries dropped to make room.
    pub evictions: f64,
    /// Expired entries dropped.
    pub expirations: f64,
}

impl From<CacheStats> for CacheTierStats {
    fn from(s: CacheStats) -> Self {
        CacheTierStats {
            hits: s.hits as f64,
            misses: s.misses as f64,
            entries: s.entries as f64,
            bytes: s.bytes as f64,
            evictions: s.evictions as f64,
            expirations: s.expirations as f64,
        }
    }
}

/// How a rate limiter is bounded.
#[napi(object)]
#[derive(Default)]
pub struct RateLimiterOptions {
    /// Most buckets held (default 100000); full buckets go first when more arrive.
    pub max_keys: Option<f64>,
}

impl RateLimiterOptions {
    pub fn max_keys(&self) -> Result<usize, CodedError> {
        count("maxKeys", self.max_keys, 100_000)
    }
}

/// A bucket: `capacity` tokens, refilled continuously over `windowMs`.
#[napi(object)]
#[derive(Clone, Copy)]
pub struct Limit {
    /// Tokens a full bucket holds, and the count allowed per window (an integer, at least 1).
    pub capacity: f64,
    /// Milliseconds an empty bucket takes to fill (at least 1).
    pub window_ms: f64,
}

impl TryFrom<Limit> for ratelimit::Limit {
    type Error = CodedError;

    fn try_from(l: Limit) -> Result<Self, Self::Error> {
        let capacity = u32_count("capacity", l.capacity)?;
        if capacity < 1 {
            return Err(invalid_option("capacity must be at least 1, not 0".into()));
        }
        Ok(ratelimit::Limit { capacity, window_ms: positive_ms("windowMs", l.window_ms)? })
    }
}

/// The outcome of one `take`, with what the `RateLimit-*` and `Retry-After` headers need.
#[napi(object)]
pub struct RateLimitDecision {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    /// Milliseconds until the bucket is full again.
    pub reset_ms: f64,
    /// Milliseconds until the request could pass; 0 when allowed.
    pub retry_after_ms: f64,
}

impl From<Decision> for RateLimitDecision {
    fn from(d: Decision) -> Self {
        RateLimitDecision { allowed: d.allowed, limit: d.limit, remaining: d.remaining, reset_ms: d.reset_ms as f64, retry_after_ms: d.retry_after_ms as f64 }
    }
}

/// Whole milliseconds from a JavaScript number of them: at least 1, and finite.
#[allow(clippy::cast_sign_loss)] // guarded: only finite values of at least 1 are cast
pub fn positive_ms(name: &str, ms: f64) -> Result<u64, CodedError> {
    if ms.is_finite() && ms >= 1.0 {
        Ok(ms as u64)
    } else {
        Err(invalid_option(format!("{name} must be a finite number of at least 1 ms, not {ms}")))
    }
}

/// A count or size from a JavaScript number: a whole number from 0 up, `default` when absent. napi
/// would read a negative number into an unsigned one by wrapping it (-1 as 4294967295), so counts
/// cross as numbers and are checked here.
#[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)] // checked: whole, 0 ..= 2^53
pub fn count(name: &str, value: Option<f64>, default: usize) -> Result<usize, CodedError> {
    match value {
        None => Ok(default),
        Some(n) if n.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&n) => Ok(n as usize),
        Some(n) => Err(invalid_option(format!("{name} must be a whole number from 0, not {n}"))),
    }
}

/// [`count`] of an unsigned 32-bit one, which must be given.
pub fn u32_count(name: &str, value: f64) -> Result<u32, CodedError> {
    let n = count(name, Some(value), 0)?;
    u32::try_from(n).map_err(|_| invalid_option(format!("{name} must be at most {}, not {n}", u32::MAX)))
}
