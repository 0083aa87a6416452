//! Options mirrored at the boundary: `#[napi(object)]` structs (their `///` docs become `JSDoc` in
//! the generated `.d.ts`) converted into core types with `TryFrom`.

use napi_derive::napi;
use reflex_core::engine::{CheckOptions, EngineConfig};
use reflex_core::pii::RedactMode;
use reflex_core::severity::Severity;

use crate::errors::{invalid_option, CodedError};

/// How the engine is sized; every field is optional.
#[napi(object)]
#[derive(Default)]
pub struct EngineOptions {
    /// Most entries the in-process cache tier holds (default 100000).
    pub cache_max_entries: Option<u32>,
    /// Most bytes (keys + values) the in-process cache tier holds (default 256 MiB).
    pub cache_max_bytes: Option<f64>,
    /// Most rate-limit buckets kept in memory (default 100000).
    pub rate_limit_max_keys: Option<u32>,
    /// Injection severity at which a check is blocked: low, medium, high (default) or critical.
    pub block_level: Option<String>,
}

impl TryFrom<EngineOptions> for EngineConfig {
    type Error = CodedError;

    fn try_from(o: EngineOptions) -> Result<Self, Self::Error> {
        let defaults = EngineConfig::default();
        let block_level = match o.block_level.as_deref() {
            None => defaults.block_level,
            Some(name) => match Severity::parse(name) {
                Some(level) if level > Severity::None => level,
                _ => return Err(invalid_option(format!("blockLevel must be low, medium, high or critical, not {name:?}"))),
            },
        };
        Ok(EngineConfig {
            cache_max_entries: o.cache_max_entries.map_or(defaults.cache_max_entries, |n| n as usize),
            cache_max_bytes: o.cache_max_bytes.map_or(defaults.cache_max_bytes, f64_to_usize),
            ratelimit_max_keys: o.rate_limit_max_keys.map_or(defaults.ratelimit_max_keys, |n| n as usize),
            block_level,
            ..defaults
        })
    }
}

/// Which parts of a check run; each defaults to true.
#[napi(object)]
#[derive(Default, Clone, Copy)]
pub struct CheckFlags {
    pub check_pii: Option<bool>,
    pub check_injection: Option<bool>,
    pub use_cache: Option<bool>,
}

/// Missing flags (or no flags object at all) mean "on".
pub fn check_options(f: Option<CheckFlags>) -> CheckOptions {
    let f = f.unwrap_or_default();
    flat_options(f.check_pii, f.check_injection, f.use_cache)
}

/// The flags passed one by one; missing ones mean "on".
pub fn flat_options(check_pii: Option<bool>, check_injection: Option<bool>, use_cache: Option<bool>) -> CheckOptions {
    CheckOptions {
        check_pii: check_pii.unwrap_or(true),
        check_injection: check_injection.unwrap_or(true),
        use_cache: use_cache.unwrap_or(true),
    }
}

/// How `redact` replaces what it finds.
#[napi(object)]
#[derive(Default)]
pub struct RedactOptions {
    /// placeholder (default: `[EMAIL_1]`), mask, redact (`[REDACTED]`), remove or hash.
    pub mode: Option<String>,
    /// With mask: how many trailing alphanumerics stay visible (default 4).
    pub keep_last: Option<u32>,
    /// With hash: the salt mixed into each digest (default empty).
    pub salt: Option<String>,
}

impl TryFrom<RedactOptions> for RedactMode {
    type Error = CodedError;

    fn try_from(o: RedactOptions) -> Result<Self, Self::Error> {
        Ok(match o.mode.as_deref().unwrap_or("placeholder") {
            "placeholder" => RedactMode::Placeholder,
            "mask" => RedactMode::Mask { keep_last: o.keep_last.unwrap_or(4) as usize },
            "redact" => RedactMode::Redact,
            "remove" => RedactMode::Remove,
            "hash" => RedactMode::Hash { salt: o.salt.unwrap_or_default() },
            other => {
                return Err(invalid_option(format!(
                    "mode must be placeholder, mask, redact, remove or hash, not {other:?}"
                )))
            }
        })
    }
}

/// JavaScript numbers arrive as f64; negative or NaN sizes fall back to zero.
#[allow(clippy::cast_sign_loss)] // guarded: negative and NaN values are clamped to 0 first
fn f64_to_usize(n: f64) -> usize {
    if n.is_nan() || n <= 0.0 {
        0
    } else {
        n as usize
    }
}
