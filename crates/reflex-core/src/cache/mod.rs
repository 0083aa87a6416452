//! The in-process cache tier: TTL + LRU with byte-size accounting.
//!
//! CONTRACT: time is passed in (`now_ms`, milliseconds since the Unix epoch) so tests control it.
//! Values are opaque strings (the service stores serialised JSON).
//!
//! ```
//! use reflex_core::cache::Cache;
//! let mut cache = Cache::new(1_000, 1 << 20);
//! assert!(cache.set("k", "{\"answer\":42}", 60_000, 0));
//! assert_eq!(&*cache.get("k", 59_999).unwrap().value, "{\"answer\":42}");
//! assert!(cache.get("k", 60_000).is_none()); // expired at created + ttl
//! ```
//!
//! Every operation is O(1): expired entries are dropped when a lookup finds them or when they
//! reach the LRU end during eviction, never by scanning; [`Cache::purge_expired`] is the O(n)
//! sweep for a timer that wants the memory back sooner.

mod lru;
mod tier;

pub(crate) use lru::LruMap;
pub use tier::{CacheTier, Refused};

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
    /// Entries held, including expired ones not yet found.
    pub entries: u64,
    /// Sum of key and value lengths (UTF-8 bytes) over the held entries.
    pub bytes: u64,
    /// Live entries dropped to make room.
    pub evictions: u64,
    /// Expired entries dropped, whether found by a lookup, at the LRU end or by a purge.
    pub expirations: u64,
}

/// Bounded by entry count and by bytes (key + value lengths); the least recently used entry is
/// evicted first, expired entries are never returned.
pub struct Cache {
    max_entries: usize,
    max_bytes: usize,
    map: LruMap<Entry>,
    bytes: usize,
    hits: u64,
    misses: u64,
    evictions: u64,
    expirations: u64,
}

impl Entry {
    /// Live strictly before `expires_at_ms`.
    fn is_expired(&self, now_ms: u64) -> bool {
        now_ms >= self.expires_at_ms
    }
}

impl Cache {
    #[must_use]
    pub fn new(max_entries: usize, max_bytes: usize) -> Self {
        Cache {
            max_entries,
            max_bytes,
            map: LruMap::new(),
            bytes: 0,
            hits: 0,
            misses: 0,
            evictions: 0,
            expirations: 0,
        }
    }

    /// Returns a live entry and marks it most recently used; counts a hit or a miss.
    pub fn get(&mut self, key: &str, now_ms: u64) -> Option<Entry> {
        let Some(slot) = self.map.find(key) else {
            self.misses += 1;
            return None;
        };
        if self.map.value(slot).is_expired(now_ms) {
            self.drop_slot(slot);
            self.expirations += 1;
            self.misses += 1;
            return None;
        }
        self.map.touch(slot);
        self.hits += 1;
        Some(self.map.value(slot).clone())
    }

    /// Stores `value` for `ttl_ms`; returns false when the entry alone exceeds `max_bytes`.
    ///
    /// Also false, storing nothing, when `max_entries` is 0 or `ttl_ms` is 0 (the entry would be
    /// born expired). A refused `set` still removes an older value under `key`, so a failed
    /// replace never leaves the stale value answering. `ttl_ms = u64::MAX` never expires.
    pub fn set(&mut self, key: &str, value: &str, ttl_ms: u64, now_ms: u64) -> bool {
        let size = key.len() + value.len();
        let existing = self.map.find(key);
        if let Some(slot) = existing {
            if self.map.value(slot).is_expired(now_ms) {
                self.drop_slot(slot);
                self.expirations += 1;
            } else if size > self.max_bytes || self.max_entries == 0 || ttl_ms == 0 {
                self.drop_slot(slot);
            }
        }
        if size > self.max_bytes || self.max_entries == 0 || ttl_ms == 0 {
            return false;
        }
        let entry = Entry {
            value: Arc::from(value),
            created_at_ms: now_ms,
            expires_at_ms: now_ms.saturating_add(ttl_ms),
        };
        if let Some(slot) = self.map.find(key) {
            let old = std::mem::replace(self.map.value_mut(slot), entry);
            self.bytes = self.bytes - old.value.len() + value.len();
            self.map.touch(slot);
        } else {
            self.map.insert(key, entry);
            self.bytes += size;
        }
        // The new entry is the most recent and fits alone, so this stops before reaching it.
        while self.map.len() > self.max_entries || self.bytes > self.max_bytes {
            let Some(lru) = self.map.lru() else { break };
            if self.map.value(lru).is_expired(now_ms) {
                self.expirations += 1;
            } else {
                self.evictions += 1;
            }
            self.drop_slot(lru);
        }
        true
    }

    /// Removes `key`; true when a live entry was there.
    pub fn delete(&mut self, key: &str, now_ms: u64) -> bool {
        let Some(slot) = self.map.find(key) else {
            return false;
        };
        let expired = self.map.value(slot).is_expired(now_ms);
        self.drop_slot(slot);
        if expired {
            self.expirations += 1;
        }
        !expired
    }

    /// Drops every expired entry; O(n), for a periodic timer. Returns how many went.
    pub fn purge_expired(&mut self, now_ms: u64) -> usize {
        let mut freed = 0;
        let purged = self.map.remove_where(|key, entry| {
            let expired = entry.is_expired(now_ms);
            if expired {
                freed += key.len() + entry.value.len();
            }
            expired
        });
        self.bytes -= freed;
        self.expirations += purged as u64;
        purged
    }

    /// Drops every entry; the counters stay.
    pub fn clear(&mut self) {
        self.map.clear();
        self.bytes = 0;
    }

    /// Entries held, including expired ones not yet found.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.len() == 0
    }

    #[must_use]
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits,
            misses: self.misses,
            entries: self.map.len() as u64,
            bytes: self.bytes as u64,
            evictions: self.evictions,
            expirations: self.expirations,
        }
    }

    fn drop_slot(&mut self, slot: lru::Slot) {
        let size = self.map.key(slot).len();
        let entry = self.map.remove(slot);
        self.bytes -= size + entry.value.len();
    }
}

#[cfg(test)]
mod tests;
