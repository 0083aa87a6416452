//! The in-process cache tier: TTL + LRU with byte-size accounting.
//!
//! CONTRACT: time is passed in (`now_ms`, milliseconds since the Unix epoch) so tests control it.
//! Values are opaque strings (the service stores serialised JSON).

use std::sync::Arc;

/// One stored value and its timing.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub value: Arc<str>,
    pub created_at_ms: u64,
    pub expires_at_ms: u64,
}

/// Counters since start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    pub entries: u64,
    pub bytes: u64,
    pub evictions: u64,
    pub expirations: u64,
}

/// Bounded by entry count and by bytes (key + value lengths); the least recently used entry is
/// evicted first, expired entries are never returned.
pub struct Cache {
    max_entries: usize,
    max_bytes: usize,
}

impl Cache {
    #[must_use]
    pub fn new(max_entries: usize, max_bytes: usize) -> Self {
        Cache { max_entries, max_bytes }
    }

    /// Returns a live entry and marks it most recently used; counts a hit or a miss.
    pub fn get(&mut self, key: &str, now_ms: u64) -> Option<Entry> {
        let _ = (key, now_ms, self.max_entries, self.max_bytes);
        None
    }

    /// Stores `value` for `ttl_ms`; returns false when the entry alone exceeds `max_bytes`.
    pub fn set(&mut self, key: &str, value: &str, ttl_ms: u64, now_ms: u64) -> bool {
        let _ = (key, value, ttl_ms, now_ms);
        false
    }

    /// Removes `key`; true when a live entry was there.
    pub fn delete(&mut self, key: &str, now_ms: u64) -> bool {
        let _ = (key, now_ms);
        false
    }

    #[must_use]
    pub fn stats(&self) -> CacheStats {
        CacheStats::default()
    }
}
