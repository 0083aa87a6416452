//! Token-bucket rate limiting, one bucket per key.
//!
//! CONTRACT: time is passed in (`now_ms`). A limit of N per window refills continuously at
//! N / window; a full bucket holds N tokens.
//!
//! ```
//! use reflex_core::ratelimit::{Limit, RateLimiter};
//! let mut limiter = RateLimiter::new(10_000);
//! let limit = Limit { capacity: 2, window_ms: 1_000 };
//! assert!(limiter.take("ada", limit, 1, 0).allowed);
//! assert!(limiter.take("ada", limit, 1, 0).allowed);
//! let refused = limiter.take("ada", limit, 1, 0);
//! assert!(!refused.allowed);
//! assert_eq!(refused.retry_after_ms, 500); // one token refills every 500 ms
//! ```
//!
//! Arithmetic is exact: a bucket's level is kept in "token-milliseconds" (tokens × `window_ms`),
//! so refilling for `t` ms adds exactly `t × capacity` and no float rounding drifts the
//! `Retry-After` a caller is told.

use std::sync::Mutex;

use crate::cache::LruMap;
use crate::sync::lock;

/// The limit a bucket follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// Tokens a full bucket holds (the burst), also the count allowed per window.
    pub capacity: u32,
    /// The window over which `capacity` tokens refill, in milliseconds.
    pub window_ms: u64,
}

/// The outcome of one `take`, with what the `RateLimit-*` and `Retry-After` headers need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    /// Milliseconds until the bucket is full again.
    pub reset_ms: u64,
    /// Milliseconds until `cost` tokens are available; 0 when allowed.
    pub retry_after_ms: u64,
}

/// Buckets by key; idle full buckets are dropped so memory stays bounded by `max_keys`.
///
/// When a new key arrives and `max_keys` buckets exist, buckets that have refilled completely
/// are dropped first (a full bucket is what a new key gets anyway, so nothing is lost): every
/// full bucket at the least-recently-used end, else the first full one among the next
/// [`FULL_SCAN`]. Only when none is found is the least recently used bucket evicted, which does
/// forget its debt; [`RateLimiter::evictions`] counts those. [`RateLimiter::purge`] is the O(n)
/// sweep for a timer.
pub struct RateLimiter {
    max_keys: usize,
    buckets: LruMap<Bucket>,
    evictions: u64,
}

/// A [`RateLimiter`] many threads use through `&self`.
pub struct Limiter(Mutex<RateLimiter>);

impl Limiter {
    #[must_use]
    pub fn new(max_keys: usize) -> Self {
        Limiter(Mutex::new(RateLimiter::new(max_keys)))
    }

    /// See [`RateLimiter::take`].
    pub fn take(&self, key: &str, limit: Limit, cost: u32, now_ms: u64) -> Decision {
        lock(&self.0).take(key, limit, cost, now_ms)
    }
}

/// How many buckets past the LRU end a full-at-capacity `take` inspects for a refilled one;
/// bounds the worst case of a `take` to a few hundred nanoseconds.
pub const FULL_SCAN: usize = 16;

struct Bucket {
    /// Tokens × `limit.window_ms` held at `last_ms`.
    level: u128,
    last_ms: u64,
    limit: Limit,
}

impl Limit {
    /// A full bucket's level in token-milliseconds.
    fn full(self) -> u128 {
        u128::from(self.capacity) * u128::from(self.window_ms)
    }
}

impl Bucket {
    fn new(limit: Limit, now_ms: u64) -> Self {
        Bucket {
            level: limit.full(),
            last_ms: now_ms,
            limit,
        }
    }

    /// The level at `now_ms`, without storing it. A clock that steps back refills nothing.
    fn level_at(&self, now_ms: u64) -> u128 {
        let elapsed = u128::from(now_ms.saturating_sub(self.last_ms));
        let refilled = self
            .level
            .saturating_add(elapsed * u128::from(self.limit.capacity));
        refilled.min(self.limit.full())
    }

    fn is_full_at(&self, now_ms: u64) -> bool {
        self.level_at(now_ms) == self.limit.full()
    }

    /// Brings the bucket to `now_ms` under `limit`, carrying its tokens over if the limit changed.
    fn advance(&mut self, limit: Limit, now_ms: u64) {
        let level = self.level_at(now_ms);
        self.level = if limit == self.limit {
            level
        } else if self.limit.window_ms == 0 {
            limit.full()
        } else {
            // Same token count in the new unit, capped at the new capacity.
            level
                .checked_mul(u128::from(limit.window_ms))
                .map_or(limit.full(), |scaled| {
                    (scaled / u128::from(self.limit.window_ms)).min(limit.full())
                })
        };
        self.limit = limit;
        self.last_ms = self.last_ms.max(now_ms);
    }
}

impl RateLimiter {
    /// At most `max_keys` buckets are held; 0 is taken as 1 so a limiter always limits.
    #[must_use]
    pub fn new(max_keys: usize) -> Self {
        RateLimiter {
            max_keys: max_keys.max(1),
            buckets: LruMap::new(),
            evictions: 0,
        }
    }

    /// Takes `cost` tokens from `key`'s bucket if it has them.
    pub fn take(&mut self, key: &str, limit: Limit, cost: u32, now_ms: u64) -> Decision {
        let slot = if let Some(slot) = self.buckets.find(key) {
            self.buckets.touch(slot);
            self.buckets.value_mut(slot).advance(limit, now_ms);
            slot
        } else {
            if self.buckets.len() >= self.max_keys {
                self.make_room(now_ms);
            }
            self.buckets.insert(key, Bucket::new(limit, now_ms))
        };
        decide(self.buckets.value_mut(slot), cost)
    }

    /// Drops every bucket that has refilled completely; O(n), for a periodic timer. Returns
    /// how many went.
    pub fn purge(&mut self, now_ms: u64) -> usize {
        self.buckets
            .remove_where(|_, bucket| bucket.is_full_at(now_ms))
    }

    /// Buckets held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.buckets.len() == 0
    }

    /// Buckets that still owed tokens when dropped for room (their keys got a fresh burst).
    #[must_use]
    pub fn evictions(&self) -> u64 {
        self.evictions
    }

    fn make_room(&mut self, now_ms: u64) {
        let mut freed = false;
        // Full buckets at the LRU end: each is removed once, so this is amortised O(1).
        while let Some(lru) = self.buckets.lru() {
            if !self.buckets.value(lru).is_full_at(now_ms) {
                break;
            }
            self.buckets.remove(lru);
            freed = true;
        }
        if freed {
            return;
        }
        let mut cursor = self
            .buckets
            .lru()
            .and_then(|lru| self.buckets.more_recent(lru));
        for _ in 0..FULL_SCAN {
            let Some(slot) = cursor else { break };
            if self.buckets.value(slot).is_full_at(now_ms) {
                self.buckets.remove(slot);
                return;
            }
            cursor = self.buckets.more_recent(slot);
        }
        if let Some(lru) = self.buckets.lru() {
            self.buckets.remove(lru);
            self.evictions += 1;
        }
    }
}

/// Applies one take to a bucket already advanced to now.
fn decide(bucket: &mut Bucket, cost: u32) -> Decision {
    let Limit {
        capacity,
        window_ms,
    } = bucket.limit;
    let window = u128::from(window_ms);
    let rate = u128::from(capacity); // token-milliseconds refilled per millisecond
    let need = u128::from(cost) * window;
    let allowed = cost <= capacity && bucket.level >= need;
    if allowed {
        bucket.level -= need;
    }
    let retry_after_ms = if allowed {
        0
    } else if cost > capacity {
        window_ms
    } else {
        ms(div_ceil(need - bucket.level, rate))
    };
    // A zero window refills instantly: the bucket is always full.
    let remaining = bucket
        .level
        .checked_div(window)
        .map_or(capacity, |tokens| u32::try_from(tokens).unwrap_or(capacity));
    let reset_ms = if rate == 0 {
        0
    } else {
        ms(div_ceil(bucket.limit.full() - bucket.level, rate))
    };
    Decision {
        allowed,
        limit: capacity,
        remaining,
        reset_ms,
        retry_after_ms,
    }
}

/// `a / b` rounded up; callers guarantee `b > 0` wherever `a > 0`.
fn div_ceil(a: u128, b: u128) -> u128 {
    if a == 0 {
        0
    } else {
        (a - 1) / b + 1
    }
}

/// Token-millisecond quotients are at most `window_ms` milliseconds, so this never saturates
/// in practice.
fn ms(value: u128) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE_PER_SECOND: Limit = Limit {
        capacity: 5,
        window_ms: 1_000,
    };

    #[test]
    fn bursts_to_capacity_then_refuses() {
        let mut limiter = RateLimiter::new(100);
        for remaining in (0..5).rev() {
            let decision = limiter.take("k", FIVE_PER_SECOND, 1, 0);
            assert!(decision.allowed);
            assert_eq!(
                (decision.limit, decision.remaining, decision.retry_after_ms),
                (5, remaining, 0)
            );
            assert_eq!(decision.reset_ms, u64::from(5 - remaining) * 200);
        }
        let refused = limiter.take("k", FIVE_PER_SECOND, 1, 0);
        assert_eq!(
            refused,
            Decision {
                allowed: false,
                limit: 5,
                remaining: 0,
                reset_ms: 1_000,
                retry_after_ms: 200
            }
        );
    }

    #[test]
    fn refills_continuously_with_time() {
        let mut limiter = RateLimiter::new(100);
        assert!(limiter.take("k", FIVE_PER_SECOND, 5, 0).allowed);
        assert!(!limiter.take("k", FIVE_PER_SECOND, 1, 199).allowed);
        let later = limiter.take("k", FIVE_PER_SECOND, 1, 200);
        assert!(later.allowed);
        assert_eq!((later.remaining, later.reset_ms), (0, 1_000));
        let half = limiter.take("k", FIVE_PER_SECOND, 1, 300);
        assert_eq!(
            (half.allowed, half.retry_after_ms, half.reset_ms),
            (false, 100, 900)
        );
        let full = limiter.take("k", FIVE_PER_SECOND, 0, 5_000);
        assert_eq!(
            (full.remaining, full.reset_ms),
            (5, 0),
            "refill stops at capacity"
        );
    }

    #[test]
    fn retry_after_is_exact_for_uneven_rates_and_costs() {
        let mut limiter = RateLimiter::new(100);
        let three = Limit {
            capacity: 3,
            window_ms: 1_000,
        }; // one token per 333⅓ ms
        assert!(limiter.take("k", three, 3, 0).allowed);
        assert_eq!(limiter.take("k", three, 1, 0).retry_after_ms, 334);
        assert_eq!(limiter.take("k", three, 1, 333).retry_after_ms, 1);
        assert!(limiter.take("k", three, 1, 334).allowed);

        let ten_per_minute = Limit {
            capacity: 10,
            window_ms: 60_000,
        };
        assert!(limiter.take("m", ten_per_minute, 10, 0).allowed);
        let refused = limiter.take("m", ten_per_minute, 3, 1_000);
        assert_eq!(refused.retry_after_ms, 17_000);
        assert!(!limiter.take("m", ten_per_minute, 3, 17_999).allowed);
        assert!(limiter.take("m", ten_per_minute, 3, 18_000).allowed);
    }

    #[test]
    fn a_cost_above_capacity_is_never_allowed_and_takes_nothing() {
        let mut limiter = RateLimiter::new(100);
        let refused = limiter.take("k", FIVE_PER_SECOND, 6, 0);
        assert_eq!(
            (refused.allowed, refused.retry_after_ms, refused.remaining),
            (false, 1_000, 5)
        );
        assert_eq!(limiter.take("k", FIVE_PER_SECOND, 5, 0).remaining, 0);
    }

    #[test]
    fn keys_are_independent() {
        let mut limiter = RateLimiter::new(100);
        assert!(limiter.take("a", FIVE_PER_SECOND, 5, 0).allowed);
        assert!(!limiter.take("a", FIVE_PER_SECOND, 1, 0).allowed);
        let b = limiter.take("b", FIVE_PER_SECOND, 1, 0);
        assert_eq!((b.allowed, b.remaining), (true, 4));
    }

    #[test]
    fn memory_stays_bounded_under_many_keys() {
        let mut limiter = RateLimiter::new(100);
        for i in 0..10_000u64 {
            limiter.take(&format!("user-{i}"), FIVE_PER_SECOND, 1, i / 10);
            assert!(limiter.len() <= 100);
        }
        assert_eq!(limiter.len(), 100);
    }

    #[test]
    fn refilled_buckets_make_room_before_any_is_evicted() {
        let one = Limit {
            capacity: 1,
            window_ms: 100,
        };
        let mut limiter = RateLimiter::new(3);
        limiter.take("a", one, 1, 0); // full again at 100
        limiter.take("b", one, 1, 50); // full again at 150
        limiter.take("c", one, 1, 150); // full again at 250
        limiter.take("d", one, 1, 160);
        assert_eq!(
            (limiter.len(), limiter.evictions()),
            (2, 0),
            "a and b dropped, nothing lost"
        );
        assert!(!limiter.take("c", one, 1, 160).allowed, "c kept its debt");

        // A refilled bucket behind a busy LRU end is found by the scan.
        let slow = Limit {
            capacity: 1,
            window_ms: 10_000,
        };
        let mut limiter = RateLimiter::new(3);
        limiter.take("slow", slow, 1, 0);
        limiter.take("quick", one, 1, 0);
        limiter.take("other", slow, 1, 0);
        limiter.take("new", one, 1, 200);
        assert_eq!(limiter.evictions(), 0);
        assert!(
            !limiter.take("slow", slow, 1, 200).allowed,
            "slow kept its debt"
        );
        assert_eq!(limiter.len(), 3);
    }

    #[test]
    fn the_least_recently_used_debtor_goes_last() {
        let mut limiter = RateLimiter::new(2);
        limiter.take("a", FIVE_PER_SECOND, 5, 0);
        limiter.take("b", FIVE_PER_SECOND, 5, 0);
        limiter.take("a", FIVE_PER_SECOND, 1, 0); // a is now the most recent
        limiter.take("c", FIVE_PER_SECOND, 1, 0);
        assert_eq!(limiter.evictions(), 1);
        assert!(!limiter.take("a", FIVE_PER_SECOND, 1, 0).allowed, "a kept");
        assert!(
            limiter.take("b", FIVE_PER_SECOND, 5, 0).allowed,
            "b was evicted: fresh bucket"
        );
    }

    #[test]
    fn purge_drops_only_full_buckets() {
        let mut limiter = RateLimiter::new(100);
        limiter.take("a", FIVE_PER_SECOND, 1, 0);
        limiter.take("b", FIVE_PER_SECOND, 5, 900);
        assert_eq!(limiter.purge(1_000), 1);
        assert_eq!(limiter.len(), 1);
        assert_eq!(limiter.take("b", FIVE_PER_SECOND, 0, 1_000).remaining, 0);
    }

    #[test]
    fn a_changed_limit_carries_the_tokens_over() {
        let mut limiter = RateLimiter::new(100);
        limiter.take("k", FIVE_PER_SECOND, 3, 0); // 2 tokens left
        let wider = Limit {
            capacity: 10,
            window_ms: 2_000,
        };
        let decision = limiter.take("k", wider, 0, 0);
        assert_eq!(
            (decision.remaining, decision.limit, decision.reset_ms),
            (2, 10, 1_600)
        );
        let narrower = Limit {
            capacity: 1,
            window_ms: 1_000,
        };
        assert_eq!(
            limiter.take("k", narrower, 0, 0).remaining,
            1,
            "capped at the new capacity"
        );
    }

    #[test]
    fn a_clock_stepping_back_refills_nothing() {
        let mut limiter = RateLimiter::new(100);
        limiter.take("k", FIVE_PER_SECOND, 5, 10_000);
        assert!(!limiter.take("k", FIVE_PER_SECOND, 1, 5_000).allowed);
        assert!(!limiter.take("k", FIVE_PER_SECOND, 1, 10_199).allowed);
        assert!(limiter.take("k", FIVE_PER_SECOND, 1, 10_200).allowed);
    }

    #[test]
    fn degenerate_limits_do_not_panic() {
        let mut limiter = RateLimiter::new(0);
        let closed = Limit {
            capacity: 0,
            window_ms: 1_000,
        };
        let d = limiter.take("k", closed, 1, 0);
        assert_eq!(
            (d.allowed, d.remaining, d.retry_after_ms, d.reset_ms),
            (false, 0, 1_000, 0)
        );
        let instant = Limit {
            capacity: 3,
            window_ms: 0,
        };
        for _ in 0..10 {
            assert!(limiter.take("k", instant, 3, 0).allowed);
        }
        assert!(!limiter.take("k", instant, 4, 0).allowed);
        let huge = Limit {
            capacity: u32::MAX,
            window_ms: u64::MAX,
        };
        let d = limiter.take("h", huge, u32::MAX, u64::MAX);
        assert_eq!((d.allowed, d.remaining, d.reset_ms), (true, 0, u64::MAX));
    }
}
