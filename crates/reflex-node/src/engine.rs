//! `ReflexEngine`: one object holding the core engine (detectors, cache tier, rate limiter).
//! Each check comes as a sync method and, for large texts, an `AsyncTask` on the libuv pool.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use napi::bindgen_prelude::{AsyncTask, Env, External, Result, Task, ToNapiValue, TypeName};
use napi_derive::napi;
use reflex_core::engine::{CheckOptions, CheckOutcome, Engine, EngineConfig};
use reflex_core::pii::RedactMode;
use reflex_core::ratelimit::{Decision, Limit};

use crate::convert::{self, CachedValue, CacheTierStats, CheckCounters, CheckResult, RateLimitDecision, RedactResult};
use crate::errors::{self, CodedError};
use crate::json;
use crate::options::{check_options, flat_options, CheckFlags, EngineOptions, RedactOptions};
use crate::packed;
use crate::request::Numbers;
use crate::text::{Answer, Text};

/// Milliseconds from a JavaScript number; negative, NaN and infinite values become 0.
#[allow(clippy::cast_sign_loss)] // guarded: only finite positive values are cast
fn millis(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        ms as u64
    } else {
        0
    }
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

#[napi]
pub struct ReflexEngine {
    inner: Arc<Engine>,
}

#[napi]
impl ReflexEngine {
    /// Throws `REFLEX_ERR_INVALID_OPTION` for an unknown block level.
    #[napi(catch_unwind, constructor)]
    pub fn new(options: Option<EngineOptions>) -> std::result::Result<Self, CodedError> {
        let config = EngineConfig::try_from(options.unwrap_or_default())?;
        Ok(ReflexEngine { inner: Arc::new(Engine::new(config)) })
    }

    /// The configured block level: low, medium, high or critical.
    #[napi(catch_unwind, getter)]
    pub fn block_level(&self) -> String {
        self.inner.config().block_level.as_str().to_string()
    }

    /// Checks `text`: in-process cache lookup, personal data, injection, routing.
    #[napi(catch_unwind)]
    pub fn check(&self, text: String, flags: Option<CheckFlags>) -> CheckResult {
        convert::check_result(self.inner.check(&text, check_options(flags), now_ms()))
    }

    /// `check` on the libuv thread pool, for large texts.
    #[napi(catch_unwind, ts_return_type = "Promise<CheckResult>")]
    pub fn check_async(&self, text: String, flags: Option<CheckFlags>) -> AsyncTask<CheckTask<CheckResult>> {
        AsyncTask::new(CheckTask { engine: Arc::clone(&self.inner), text, options: check_options(flags), answer: convert::check_result })
    }

    /// `check`'s result as JSON (the same fields as `CheckResult`) on the libuv thread pool, for
    /// large texts: the TypeScript wrapper's `checkAsync` parses it, which costs less than
    /// building the objects here.
    #[napi(catch_unwind, ts_return_type = "Promise<string>")]
    pub fn check_result_json_async(&self, text: String, flags: Option<CheckFlags>) -> AsyncTask<CheckTask<String>> {
        let answer = |o: CheckOutcome| json::check_result(&o);
        AsyncTask::new(CheckTask { engine: Arc::clone(&self.inner), text, options: check_options(flags), answer })
    }

    /// `check` written as the wire's JSON body without its closing brace (see `json.rs`).
    #[napi(catch_unwind, ts_return_type = "string")]
    pub fn check_json(&self, #[napi(ts_arg_type = "string")] text: Text, flags: Option<CheckFlags>) -> Answer {
        Answer(json::check_body(&self.inner.check(&text.0, check_options(flags), now_ms())))
    }

    /// `checkJson` with the flags as separate arguments (each defaults to true), which the
    /// TypeScript wrapper calls: napi reads an object's properties by name, interning each name
    /// on every call, and that cost as much as hashing the text for the key.
    #[napi(catch_unwind, ts_return_type = "string")]
    pub fn check_json_flat(&self, #[napi(ts_arg_type = "string")] text: Text, check_pii: Option<bool>, check_injection: Option<bool>, use_cache: Option<bool>) -> Answer {
        let options = flat_options(check_pii, check_injection, use_cache);
        Answer(json::check_body(&self.inner.check(&text.0, options, now_ms())))
    }

    /// `check` for the TypeScript wrapper to rebuild from numbers (see `packed.rs`): writes
    /// `out` and returns the strings, or, when the result does not fit `out`, returns
    /// `checkResultJsonAsync`'s JSON with `out[0]` = 0 and `out[1]` = the numbers it needed.
    #[napi(catch_unwind, ts_return_type = "string")]
    pub fn check_packed(
        &self,
        #[napi(ts_arg_type = "string")] text: Text,
        check_pii: Option<bool>,
        check_injection: Option<bool>,
        use_cache: Option<bool>,
        #[napi(ts_arg_type = "Float64Array")] out: Numbers<'_>,
    ) -> Answer {
        let options = flat_options(check_pii, check_injection, use_cache);
        Answer(packed::write(&self.inner.check(&text.0, options, now_ms()), &text.0, out))
    }

    /// `cacheKey` with the flags as separate arguments, as `checkJsonFlat`.
    #[napi(catch_unwind, ts_return_type = "string")]
    #[allow(clippy::unused_self)] // a method, so JavaScript reaches it on the engine like the rest
    pub fn cache_key_flat(&self, #[napi(ts_arg_type = "string")] text: Text, check_pii: Option<bool>, check_injection: Option<bool>, use_cache: Option<bool>) -> Answer {
        Answer(Engine::cache_key(&text.0, flat_options(check_pii, check_injection, use_cache)))
    }

    /// `checkJson` with the cache entry the caller found in a shared tier (`null`: none); the
    /// in-process tier is not consulted.
    #[napi(catch_unwind)]
    pub fn check_json_with_entry(&self, text: String, flags: Option<CheckFlags>, cached: Option<CachedValue>) -> String {
        let entry = cached.map(convert::entry);
        json::check_body(&self.inner.check_with_entry(&text, check_options(flags), entry))
    }

    /// `checkJsonWithEntry` with the flags as separate arguments and the cache key the caller
    /// already computed for its lookup in the shared tier (`cacheKeyFlat` of the same text and
    /// flags; not computed again), as the check route's shared-tier path calls it.
    #[napi(catch_unwind, ts_return_type = "string")]
    pub fn check_json_with_entry_flat(
        &self,
        #[napi(ts_arg_type = "string")] text: Text,
        check_pii: Option<bool>,
        check_injection: Option<bool>,
        use_cache: Option<bool>,
        #[napi(ts_arg_type = "string")] cache_key: Text,
        cached: Option<CachedValue>,
    ) -> Answer {
        let options = flat_options(check_pii, check_injection, use_cache);
        let entry = cached.map(convert::entry);
        Answer(json::check_body(&self.inner.check_with_entry_keyed(&text.0, options, cache_key.0, entry)))
    }

    /// The cache key a check of `text` with `flags` uses (32 hex characters).
    #[napi(catch_unwind)]
    #[allow(clippy::unused_self)] // a method, so JavaScript reaches it on the engine like the rest
    pub fn cache_key(&self, text: String, flags: Option<CheckFlags>) -> String {
        Engine::cache_key(&text, check_options(flags))
    }

    /// Finds personal data and redacts it. Throws `REFLEX_ERR_INVALID_OPTION` for an unknown mode.
    #[napi(catch_unwind)]
    pub fn redact(&self, text: String, options: Option<RedactOptions>) -> std::result::Result<RedactResult, CodedError> {
        let mode = RedactMode::try_from(options.unwrap_or_default())?;
        let (redacted_text, found) = self.inner.redact(&text, &mode);
        Ok(RedactResult { redacted_text, pii_matches: found.into_iter().map(convert::pii_match).collect() })
    }

    /// The in-process tier's live entry for `key`, or null.
    #[napi(catch_unwind)]
    pub fn cache_get(&self, key: String) -> Option<CachedValue> {
        self.inner.cache_get(&key, now_ms()).map(convert::cached_value)
    }

    /// Stores serialised JSON `value` for `ttlSeconds`; false when it is larger than the tier.
    #[napi(catch_unwind)]
    pub fn cache_set(&self, key: String, value: String, ttl_seconds: f64) -> bool {
        let ttl_ms = millis(ttl_seconds * 1000.0);
        self.inner.cache_set(&key, &value, ttl_ms, now_ms())
    }

    /// Removes `key`; true when a live entry was there.
    #[napi(catch_unwind)]
    pub fn cache_delete(&self, key: String) -> bool {
        self.inner.cache_delete(&key, now_ms())
    }

    #[napi(catch_unwind)]
    pub fn cache_stats(&self) -> CacheTierStats {
        convert::cache_stats(self.inner.cache_stats())
    }

    /// Takes `cost` (default 1) tokens from `key`'s bucket of `capacity` per `windowMs`.
    #[napi(catch_unwind)]
    pub fn rate_limit(&self, key: String, capacity: u32, window_ms: f64, cost: Option<u32>) -> RateLimitDecision {
        convert::decision(take(&self.inner, &key, capacity, window_ms, cost.unwrap_or(1)))
    }

    /// This engine for `checkRequest` and `checkRequestBody`; keep it beside the engine.
    #[napi(catch_unwind, ts_return_type = "ExternalObject<'EngineHandle'>")]
    pub fn request_handle(&self) -> External<EngineHandle> {
        External::new(EngineHandle(Arc::clone(&self.inner)))
    }

    #[napi(catch_unwind)]
    pub fn check_counters(&self) -> CheckCounters {
        convert::check_counters(self.inner.check_stats())
    }
}

/// The engine as `request.rs`'s calls take it (`requestHandle()`): napi reads an `External` for
/// a fraction of what unwrapping a class instance costs (a type-tag check, an unwrap and a borrow
/// registered per call: an eighth of a memoised hit's call).
pub struct EngineHandle(Arc<Engine>);

impl EngineHandle {
    pub(crate) fn core(&self) -> &Engine {
        &self.0
    }
}

/// `rateLimit`'s take, for a key the caller holds as `&str`.
pub(crate) fn take(engine: &Engine, key: &str, capacity: u32, window_ms: f64, cost: u32) -> Decision {
    let limit = Limit { capacity, window_ms: millis(window_ms).max(1) };
    engine.rate_limit(key, limit, cost, now_ms())
}

/// A check on the libuv thread pool, answered as `answer` writes it: `check_async`'s object,
/// `check_result_json_async`'s JSON.
pub struct CheckTask<T> {
    engine: Arc<Engine>,
    text: String,
    options: CheckOptions,
    answer: fn(CheckOutcome) -> T,
}

impl<T: ToNapiValue + TypeName + Send + 'static> Task for CheckTask<T> {
    type Output = T;
    type JsValue = T;

    fn compute(&mut self) -> Result<Self::Output> {
        errors::unless_panic(|| (self.answer)(self.engine.check(&self.text, self.options, now_ms())))
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
        Ok(output)
    }
}
