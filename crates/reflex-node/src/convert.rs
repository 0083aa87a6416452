//! Core results → `#[napi(object)]` values. Field names become camelCase in JavaScript; the
//! HTTP layer renames them to the wire's `snake_case` (or uses `json.rs`, which writes them
//! directly).

use std::sync::Arc;

use napi_derive::napi;
use reflex_core::cache::{CacheStats, Entry};
use reflex_core::engine::{CheckOutcome, CheckStats, InjectionFinding, PiiFinding};
use reflex_core::ratelimit::Decision;
use reflex_core::routing::Routing;

#[napi(object)]
pub struct PiiMatch {
    /// `EMAIL`, `PHONE`, `CREDIT_CARD`, …
    #[napi(js_name = "type")]
    pub kind: String,
    /// UTF-16 offsets: `text.slice(start, end) === matchedText`.
    pub start: u32,
    pub end: u32,
    pub matched_text: String,
    pub confidence: f64,
}

#[napi(object)]
pub struct InjectionMatch {
    /// `instruction_override`, `prompt_leak`, `jailbreak`, …
    #[napi(js_name = "type")]
    pub family: String,
    pub start: u32,
    pub end: u32,
    pub matched_text: String,
    /// none, low, medium, high or critical.
    pub severity: String,
    pub confidence: f64,
}

#[napi(object)]
pub struct RoutingHint {
    /// cache, orchestrator or blocked.
    pub route: String,
    /// simple, moderate or complex.
    pub complexity: String,
    pub suggested_arms: Vec<String>,
}

#[napi(object)]
pub struct CachedValue {
    /// The stored value, serialised JSON.
    pub value: String,
    pub created_at_ms: f64,
    pub expires_at_ms: f64,
}

#[napi(object)]
pub struct CheckResult {
    pub cache_key: String,
    /// The in-process tier's entry for `cacheKey`, when there is one (and `useCache` was set).
    pub cached: Option<CachedValue>,
    pub pii_matches: Vec<PiiMatch>,
    pub redacted_text: String,
    pub injection_score: f64,
    pub severity: String,
    pub injection_matches: Vec<InjectionMatch>,
    pub blocked: bool,
    pub routing: RoutingHint,
}

#[napi(object)]
pub struct RedactResult {
    pub redacted_text: String,
    pub pii_matches: Vec<PiiMatch>,
}

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

#[napi(object)]
pub struct CacheTierStats {
    pub hits: f64,
    pub misses: f64,
    pub entries: f64,
    pub bytes: f64,
    pub evictions: f64,
    pub expirations: f64,
}

#[napi(object)]
pub struct CheckCounters {
    pub checks: f64,
    pub blocked: f64,
    pub pii_detected: f64,
    pub injection_detected: f64,
}

pub fn pii_match(f: PiiFinding) -> PiiMatch {
    PiiMatch {
        kind: f.kind.as_str().to_string(),
        start: f.start as u32,
        end: f.end as u32,
        matched_text: f.matched_text,
        confidence: f64::from(f.confidence),
    }
}

fn injection_match(f: InjectionFinding) -> InjectionMatch {
    InjectionMatch {
        family: f.family.as_str().to_string(),
        start: f.start as u32,
        end: f.end as u32,
        matched_text: f.matched_text,
        severity: f.severity.as_str().to_string(),
        confidence: f64::from(f.confidence),
    }
}

pub fn routing_hint(r: &Routing) -> RoutingHint {
    RoutingHint {
        route: r.route.as_str().to_string(),
        complexity: r.complexity.as_str().to_string(),
        suggested_arms: r.suggested_arms.iter().map(|a| (*a).to_string()).collect(),
    }
}

pub fn cached_value(e: Entry) -> CachedValue {
    CachedValue { value: e.value.to_string(), created_at_ms: e.created_at_ms as f64, expires_at_ms: e.expires_at_ms as f64 }
}

/// A JavaScript-held entry back into the core's form.
#[allow(clippy::cast_sign_loss)] // timestamps come from `cached_value` above: finite, positive
pub fn entry(c: CachedValue) -> Entry {
    Entry { value: c.value.into(), created_at_ms: c.created_at_ms as u64, expires_at_ms: c.expires_at_ms as u64 }
}

pub fn check_result(o: CheckOutcome) -> CheckResult {
    // Taken when this outcome is the findings' only holder; copied when the memo shares them.
    let found = Arc::try_unwrap(o.found).unwrap_or_else(|shared| (*shared).clone());
    CheckResult {
        routing: routing_hint(&found.routing),
        cache_key: o.cache_key,
        cached: o.cached.map(cached_value),
        pii_matches: found.pii.into_iter().map(pii_match).collect(),
        redacted_text: found.redacted_text,
        injection_score: f64::from(found.injection_score),
        severity: found.injection_severity.as_str().to_string(),
        injection_matches: found.injection.into_iter().map(injection_match).collect(),
        blocked: found.blocked,
    }
}

pub fn decision(d: Decision) -> RateLimitDecision {
    RateLimitDecision {
        allowed: d.allowed,
        limit: d.limit,
        remaining: d.remaining,
        reset_ms: d.reset_ms as f64,
        retry_after_ms: d.retry_after_ms as f64,
    }
}

pub fn cache_stats(s: CacheStats) -> CacheTierStats {
    CacheTierStats {
        hits: s.hits as f64,
        misses: s.misses as f64,
        entries: s.entries as f64,
        bytes: s.bytes as f64,
        evictions: s.evictions as f64,
        expirations: s.expirations as f64,
    }
}

pub fn check_counters(s: CheckStats) -> CheckCounters {
    CheckCounters {
        checks: s.checks as f64,
        blocked: s.blocked as f64,
        pii_detected: s.pii_detected as f64,
        injection_detected: s.injection_detected as f64,
    }
}
