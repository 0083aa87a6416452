//! The engine: one check of a text composed from the detectors, the cache tier and routing,
//! plus the rate limiter, behind one object the binding wraps.
//!
//! ```
//! use reflex_core::engine::{CheckOptions, Engine, EngineConfig};
//! let engine = Engine::new(EngineConfig::default());
//! let out = engine.check("hello", CheckOptions::default(), 0);
//! assert!(!out.blocked);
//! ```

use std::cell::RefCell;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use crate::cache::{Cache, CacheStats, Entry};
use crate::injection::{self, Family};
use crate::memo::{Detected, Memo};
use crate::pii::{self, PiiKind, PiiMatch, RedactMode};
use crate::ratelimit::{Decision, Limit, RateLimiter};
use crate::routing::{self, Routing};
use crate::severity::Severity;
use crate::utf16::Utf16Map;
use crate::normalize;

/// Sizes and thresholds fixed at construction.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub cache_max_entries: usize,
    pub cache_max_bytes: usize,
    pub ratelimit_max_keys: usize,
    /// A check whose injection severity reaches this level is blocked.
    pub block_level: Severity,
    /// Cache hits whose detection result is kept for the exact same text (0: none); see
    /// [`crate::memo`].
    pub memo_max_entries: usize,
    pub memo_max_bytes: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            cache_max_entries: 100_000,
            cache_max_bytes: 256 * 1024 * 1024, // 256 MiB
            ratelimit_max_keys: 100_000,
            block_level: Severity::High,
            memo_max_entries: 4_096,
            memo_max_bytes: 32 * 1024 * 1024, // 32 MiB
        }
    }
}

/// Which parts of a check run.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    pub check_pii: bool,
    pub check_injection: bool,
    pub use_cache: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { check_pii: true, check_injection: true, use_cache: true }
    }
}

impl CheckOptions {
    /// The bit set mixed into the cache key, so differently-flagged checks never share an entry.
    #[must_use]
    pub fn key_flags(self) -> u8 {
        u8::from(self.check_pii) | u8::from(self.check_injection) << 1
    }
}

/// A personal-data finding with UTF-16 offsets and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct PiiFinding {
    pub kind: PiiKind,
    pub start: usize,
    pub end: usize,
    pub matched_text: String,
    pub confidence: f32,
}

/// An injection finding with UTF-16 offsets and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct InjectionFinding {
    pub family: Family,
    pub start: usize,
    pub end: usize,
    pub matched_text: String,
    pub severity: Severity,
    pub confidence: f32,
}

/// What the detectors found in one text with one set of flags: a check less its cache fields.
/// Offsets are UTF-16 code units.
#[derive(Clone, Debug)]
pub struct Findings {
    pub pii: Vec<PiiFinding>,
    pub redacted_text: String,
    pub injection_score: f32,
    pub injection_severity: Severity,
    pub injection: Vec<InjectionFinding>,
    pub blocked: bool,
    pub routing: Routing,
    /// The binding's serialised form of these fields, written on first use.
    pub rendered: Rendered,
}

/// A serialised form of some findings, written once by whoever serialises them (the binding
/// writes its wire JSON here). A memoised hit shares its findings, so it then sends bytes it
/// already has instead of escaping the redacted text and printing every number again. One form
/// per findings: a second serialiser would read the first one's bytes.
#[derive(Default)]
pub struct Rendered(OnceLock<Box<str>>);

impl Rendered {
    /// The stored form, or `render`'s, stored.
    pub fn get_or_init(&self, render: impl FnOnce() -> String) -> &str {
        self.0.get_or_init(|| render().into_boxed_str())
    }
}

/// A clone is made to be changed (tests plant findings that way), so it starts without a form.
impl Clone for Rendered {
    fn clone(&self) -> Self {
        Rendered::default()
    }
}

impl std::fmt::Debug for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "Rendered(..)" } else { "Rendered(None)" })
    }
}

/// Everything one check found. The findings are shared with the memo, so a memoised hit reuses
/// them without a copy; they read through `Deref` (`outcome.pii`).
#[derive(Clone, Debug)]
pub struct CheckOutcome {
    pub cache_key: String,
    pub cached: Option<Entry>,
    pub found: Arc<Findings>,
}

impl Deref for CheckOutcome {
    type Target = Findings;

    fn deref(&self) -> &Findings {
        &self.found
    }
}

/// Counters of checks since start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    pub checks: u64,
    pub blocked: u64,
    pub pii_detected: u64,
    pub injection_detected: u64,
}

/// The engine; shareable across threads (the binding's async forms run on the libuv pool).
pub struct Engine {
    config: EngineConfig,
    cache: Mutex<Cache>,
    limiter: Mutex<RateLimiter>,
    memo: Mutex<Memo>,
    checks: AtomicU64,
    blocked: AtomicU64,
    pii_detected: AtomicU64,
    injection_detected: AtomicU64,
}

/// A poisoned lock only means another thread panicked mid-operation; the structures stay
/// consistent enough to keep serving, which beats failing every later request.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Engine {
    /// Builds the engine and warms the detectors' pattern tables (built lazily on first use,
    /// tens of milliseconds), so no request pays for them.
    #[must_use]
    pub fn new(config: EngineConfig) -> Self {
        let _ = injection::detect("");
        let _ = pii::detect("");
        Engine {
            cache: Mutex::new(Cache::new(config.cache_max_entries, config.cache_max_bytes)),
            limiter: Mutex::new(RateLimiter::new(config.ratelimit_max_keys)),
            memo: Mutex::new(Memo::new(config.memo_max_entries, config.memo_max_bytes)),
            config,
            checks: AtomicU64::new(0),
            blocked: AtomicU64::new(0),
            pii_detected: AtomicU64::new(0),
            injection_detected: AtomicU64::new(0),
        }
    }

    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The cache key a check of `text` with `options` uses.
    #[must_use]
    pub fn cache_key(text: &str, options: CheckOptions) -> String {
        normalize::cache_key(text, options.key_flags())
    }

    /// Checks `text`: cache lookup, personal data, injection, routing.
    pub fn check(&self, text: &str, options: CheckOptions, now_ms: u64) -> CheckOutcome {
        if !options.use_cache {
            return self.detect(text, options, Self::cache_key(text, options), None);
        }
        // A text memoised on an earlier hit brings its key: the lookup is the same one, without
        // normalising and hashing the text again.
        let flags = options.key_flags();
        let memoised = lock(&self.memo).get(text, flags).map(|d| (String::from(&*d.cache_key), Arc::clone(&d.found)));
        let Some((cache_key, found)) = memoised else {
            let cache_key = Self::cache_key(text, options);
            let cached = lock(&self.cache).get(&cache_key, now_ms);
            return self.detect(text, options, cache_key, cached);
        };
        let cached = lock(&self.cache).get(&cache_key, now_ms);
        if cached.is_none() {
            // The entry expired or went: a miss, detected afresh as any other.
            return self.detect(text, options, cache_key, None);
        }
        self.count(found.blocked, !found.pii.is_empty(), !found.injection.is_empty());
        CheckOutcome { cache_key, cached, found }
    }

    /// Checks `text` with a cache entry the caller already looked up (in a shared tier the
    /// engine cannot reach); the in-process tier is not consulted.
    pub fn check_with_entry(&self, text: &str, options: CheckOptions, cached: Option<Entry>) -> CheckOutcome {
        self.check_with_entry_keyed(text, options, Self::cache_key(text, options), cached)
    }

    /// [`Engine::check_with_entry`] with the key the caller computed for its lookup, which must be
    /// `Engine::cache_key(text, options)` (not checked again: that is the work saved).
    pub fn check_with_entry_keyed(&self, text: &str, options: CheckOptions, cache_key: String, cached: Option<Entry>) -> CheckOutcome {
        debug_assert_eq!(cache_key, Self::cache_key(text, options));
        // A hit on the exact same text reuses its detection (see `memo`): same fields, same
        // counters, without running the detectors again.
        let memoised =
            if cached.is_some() { lock(&self.memo).get(text, options.key_flags()).map(|d| Arc::clone(&d.found)) } else { None };
        if let Some(found) = memoised {
            self.count(found.blocked, !found.pii.is_empty(), !found.injection.is_empty());
            return CheckOutcome { cache_key, cached, found };
        }
        self.detect(text, options, cache_key, cached)
    }

    /// Runs the detectors and routing; a hit's result goes into the memo.
    fn detect(&self, text: &str, options: CheckOptions, cache_key: String, cached: Option<Entry>) -> CheckOutcome {
        let map = Utf16Map::new(text);

        let (pii, redacted_text) = if options.check_pii {
            with_matches(text, |found| (pii_findings(text, &map, found), pii::redact(text, found, &RedactMode::Placeholder)))
        } else {
            (Vec::new(), text.to_string())
        };

        let (injection, injection_score, injection_severity) = if options.check_injection {
            let report = injection::detect(text);
            let findings = report
                .matches
                .iter()
                .map(|m| InjectionFinding {
                    family: m.family,
                    start: map.offset(m.start),
                    end: map.offset(m.end),
                    matched_text: text[m.start..m.end].to_string(),
                    severity: m.severity,
                    confidence: m.confidence,
                })
                .collect();
            (findings, report.score, report.severity)
        } else {
            (Vec::new(), 0.0, Severity::None)
        };

        let blocked = injection_severity >= self.config.block_level && injection_severity > Severity::None;
        let routing = routing::route(text, cached.is_some(), blocked, !pii.is_empty());

        self.count(blocked, !pii.is_empty(), !injection.is_empty());
        let rendered = Rendered::default();
        let found = Arc::new(Findings { pii, redacted_text, injection_score, injection_severity, injection, blocked, routing, rendered });
        if cached.is_some() {
            // Copied before the lock is taken: other checks on the libuv pool wait on it.
            let detected = Detected { text: text.into(), flags: options.key_flags(), cache_key: cache_key.as_str().into(), found: Arc::clone(&found) };
            lock(&self.memo).insert(detected);
        }
        CheckOutcome { cache_key, cached, found }
    }

    #[cfg(test)]
    fn memo_len(&self) -> usize {
        lock(&self.memo).len()
    }

    fn count(&self, blocked: bool, pii: bool, injection: bool) {
        self.checks.fetch_add(1, Ordering::Relaxed);
        if blocked {
            self.blocked.fetch_add(1, Ordering::Relaxed);
        }
        if pii {
            self.pii_detected.fetch_add(1, Ordering::Relaxed);
        }
        if injection {
            self.injection_detected.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Finds personal data and redacts it with `mode`.
    #[must_use]
    pub fn redact(&self, text: &str, mode: &RedactMode) -> (String, Vec<PiiFinding>) {
        let found = pii::detect(text);
        let redacted = pii::redact(text, &found, mode);
        (redacted, pii_findings(text, &Utf16Map::new(text), &found))
    }

    pub fn cache_get(&self, key: &str, now_ms: u64) -> Option<Entry> {
        lock(&self.cache).get(key, now_ms)
    }

    pub fn cache_set(&self, key: &str, value: &str, ttl_ms: u64, now_ms: u64) -> bool {
        lock(&self.cache).set(key, value, ttl_ms, now_ms)
    }

    pub fn cache_delete(&self, key: &str, now_ms: u64) -> bool {
        lock(&self.cache).delete(key, now_ms)
    }

    #[must_use]
    pub fn cache_stats(&self) -> CacheStats {
        lock(&self.cache).stats()
    }

    pub fn rate_limit(&self, key: &str, limit: Limit, cost: u32, now_ms: u64) -> Decision {
        lock(&self.limiter).take(key, limit, cost, now_ms)
    }

    #[must_use]
    pub fn check_stats(&self) -> CheckStats {
        CheckStats {
            checks: self.checks.load(Ordering::Relaxed),
            blocked: self.blocked.load(Ordering::Relaxed),
            pii_detected: self.pii_detected.load(Ordering::Relaxed),
            injection_detected: self.injection_detected.load(Ordering::Relaxed),
        }
    }
}

thread_local! {
    /// The personal-data matches of the check running on this thread, before they become
    /// findings: one vector kept between checks instead of one allocated and freed per check.
    static MATCHES: RefCell<Vec<PiiMatch>> = const { RefCell::new(Vec::new()) };
}

/// A vector that grew past this many matches (a long text full of numbers) is not kept.
const MATCHES_KEPT: usize = 64;

/// Calls `use_them` with the personal data found in `text`.
fn with_matches<R>(text: &str, use_them: impl FnOnce(&[PiiMatch]) -> R) -> R {
    MATCHES.with(|kept| match kept.try_borrow_mut() {
        Ok(mut found) => {
            pii::detect_into(text, &mut found);
            let result = use_them(&found);
            if found.capacity() > MATCHES_KEPT {
                *found = Vec::new();
            }
            result
        }
        // Not reached (nothing here checks text from inside a check); a vector of its own then.
        Err(_) => use_them(&pii::detect(text)),
    })
}

fn pii_findings(text: &str, map: &Utf16Map<'_>, found: &[PiiMatch]) -> Vec<PiiFinding> {
    found
        .iter()
        .map(|m| PiiFinding {
            kind: m.kind,
            start: map.offset(m.start),
            end: map.offset(m.end),
            matched_text: text[m.start..m.end].to_string(),
            confidence: m.confidence,
        })
        .collect()
}

#[cfg(test)]
mod tests;
