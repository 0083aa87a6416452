//! [`Cache`] behind a lock, for a tier shared by threads (the binding's calls, and a check on the
//! libuv pool).

use std::sync::Mutex;

use super::{Cache, CacheStats, Entry};
use crate::json;
use crate::sync::lock;

/// A [`Cache`] of JSON values many threads use through `&self`. A check reply carries a hit's
/// value as it is stored, so only whole JSON documents are taken.
pub struct CacheTier(Mutex<Cache>);

/// Why [`CacheTier::set`] stored nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The value is not one JSON document (or nests deeper than [`json::MAX_DEPTH`]).
    NotJson,
    /// The entry alone is larger than the tier (or the tier holds no entries, or the lifetime is 0).
    TooLarge,
}

impl CacheTier {
    #[must_use]
    pub fn new(max_entries: usize, max_bytes: usize) -> Self {
        CacheTier(Mutex::new(Cache::new(max_entries, max_bytes)))
    }

    pub fn get(&self, key: &str, now_ms: u64) -> Option<Entry> {
        lock(&self.0).get(key, now_ms)
    }

    /// Stores the JSON `value` under `key` for `ttl_ms` (see [`Cache::set`]); the JSON is checked
    /// before the lock is taken.
    ///
    /// # Errors
    ///
    /// [`Refused`] says why nothing was stored.
    pub fn set(&self, key: &str, value: &str, ttl_ms: u64, now_ms: u64) -> Result<(), Refused> {
        if !json::is_value(value.as_bytes()) {
            return Err(Refused::NotJson);
        }
        if lock(&self.0).set(key, value, ttl_ms, now_ms) { Ok(()) } else { Err(Refused::TooLarge) }
    }

    pub fn delete(&self, key: &str, now_ms: u64) -> bool {
        lock(&self.0).delete(key, now_ms)
    }

    #[must_use]
    pub fn stats(&self) -> CacheStats {
        lock(&self.0).stats()
    }
}
