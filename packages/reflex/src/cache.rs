//! `CacheTier`: the in-process TTL + LRU tier of JSON values.

use std::sync::Arc;

use napi_derive::napi;
use reflex_core::cache::{CacheTier as Core, Refused};

use crate::errors::{self, CodedError};
use crate::now_ms;
use crate::options::{positive_ms, CacheEntry, CacheTierOptions, CacheTierStats};

#[napi]
pub struct CacheTier {
    pub(crate) inner: Arc<Core>,
}

#[napi]
impl CacheTier {
    /// Throws `REFLEX_ERR_INVALID_OPTION` for a bound that is not a whole number from 0.
    #[napi(catch_unwind, constructor)]
    pub fn new(options: Option<CacheTierOptions>) -> Result<Self, CodedError> {
        let (entries, bytes) = options.unwrap_or_default().bounds()?;
        Ok(CacheTier { inner: Arc::new(Core::new(entries, bytes)) })
    }

    /// The live entry under `key`, or null; a lookup counts a hit or a miss.
    #[napi(catch_unwind)]
    pub fn get(&self, key: String) -> Option<CacheEntry> {
        self.inner.get(&key, now_ms()).map(Into::into)
    }

    /// Stores the JSON text `value` under `key` for `ttlMs` milliseconds (at least 1). Throws
    /// `REFLEX_ERR_INVALID_VALUE` when `value` is not one JSON document,
    /// `REFLEX_ERR_VALUE_TOO_LARGE` when the entry alone is larger than the tier, and
    /// `REFLEX_ERR_INVALID_OPTION` for a lifetime under 1 ms.
    #[napi(catch_unwind)]
    pub fn set(&self, key: String, value: String, ttl_ms: f64) -> Result<(), CodedError> {
        let ttl = positive_ms("ttlMs", ttl_ms)?;
        self.inner.set(&key, &value, ttl, now_ms()).map_err(|refused| match refused {
            Refused::NotJson => errors::invalid_value("the value must be one JSON document".into()),
            Refused::TooLarge => errors::too_large(format!("the entry under {key:?} is larger than the tier holds")),
        })
    }

    /// Removes `key`; true when a live entry was there.
    #[napi(catch_unwind)]
    pub fn delete(&self, key: String) -> bool {
        self.inner.delete(&key, now_ms())
    }

    #[napi(catch_unwind)]
    pub fn stats(&self) -> CacheTierStats {
        self.inner.stats().into()
    }
}
