//! `Detector`: `check`, `redact` and `cacheKey`, each check a sync call and an `AsyncTask` on the
//! libuv pool for large texts.

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Env, Result, Task};
use napi_derive::napi;
use reflex_core::detector::{thousandths, CheckOptions, Detector as Core};
use reflex_core::pii::RedactMode;
use reflex_core::reply;

use crate::errors::{unless_panic, CodedError};
use crate::options::{CheckFlags, DetectorOptions, DetectorStats, RedactOptions};

#[napi]
pub struct Detector {
    pub(crate) inner: Arc<Core>,
}

fn check_impl(core: &Core, text: &str, options: CheckOptions) -> String {
    reply::check_result(&core.check(text, options))
}

fn redact_impl(core: &Core, text: &str, mode: &RedactMode, pii_threshold: Option<f32>) -> String {
    let (redacted, found) = core.redact(text, mode, pii_threshold);
    reply::redact_result(&redacted, &found)
}

#[napi]
impl Detector {
    /// Throws `REFLEX_ERR_INVALID_OPTION` for an unknown block level or a threshold outside 0..1.
    #[napi(catch_unwind, constructor)]
    pub fn new(options: Option<DetectorOptions>) -> std::result::Result<Self, CodedError> {
        Ok(Detector { inner: Arc::new(Core::new(options.unwrap_or_default().try_into()?)) })
    }

    /// The block level: low, medium, high or critical.
    #[napi(catch_unwind, getter)]
    pub fn block_level(&self) -> String {
        self.inner.config().block_level.as_str().to_string()
    }

    /// The injection threshold, when one is set (a check is then blocked by score), to the
    /// thousandth it is compared in.
    #[napi(catch_unwind, getter)]
    pub fn injection_threshold(&self) -> Option<f64> {
        self.inner.config().injection_threshold.map(|t| f64::from(thousandths(t)) / 1000.0)
    }

    /// The least confidence of personal data reported, to the thousandth it is compared in.
    #[napi(catch_unwind, getter)]
    pub fn pii_threshold(&self) -> f64 {
        f64::from(thousandths(self.inner.config().pii_threshold)) / 1000.0
    }

    /// The check of `text` as JSON: the `/api/v1/check` reply's fields less the cache's.
    /// Throws `REFLEX_ERR_INVALID_OPTION` for a threshold outside 0..1.
    #[napi(catch_unwind)]
    pub fn check(&self, text: String, flags: Option<CheckFlags>) -> std::result::Result<String, CodedError> {
        Ok(check_impl(&self.inner, &text, flags.unwrap_or_default().try_into()?))
    }

    /// `check` on the libuv pool.
    #[napi(catch_unwind, ts_return_type = "Promise<string>")]
    pub fn check_async(&self, text: String, flags: Option<CheckFlags>) -> std::result::Result<AsyncTask<CheckTask>, CodedError> {
        Ok(AsyncTask::new(CheckTask { core: Arc::clone(&self.inner), text, options: flags.unwrap_or_default().try_into()? }))
    }

    /// The personal data in `text` and the text redacted, as JSON (the `/filter/pii` reply).
    /// Throws `REFLEX_ERR_INVALID_OPTION` for an unknown mode or a threshold outside 0..1.
    #[napi(catch_unwind)]
    pub fn redact(&self, text: String, options: Option<RedactOptions>) -> std::result::Result<String, CodedError> {
        let options = options.unwrap_or_default();
        let pii_threshold = options.pii_threshold()?;
        Ok(redact_impl(&self.inner, &text, &options.try_into()?, pii_threshold))
    }

    /// `redact` on the libuv pool.
    #[napi(catch_unwind, ts_return_type = "Promise<string>")]
    pub fn redact_async(&self, text: String, options: Option<RedactOptions>) -> std::result::Result<AsyncTask<RedactTask>, CodedError> {
        let options = options.unwrap_or_default();
        let pii_threshold = options.pii_threshold()?;
        Ok(AsyncTask::new(RedactTask { core: Arc::clone(&self.inner), text, mode: options.try_into()?, pii_threshold }))
    }

    /// The cache key a check of `text` with `flags` has (32 hex characters; the thresholds judge
    /// a check, not the text it is about, and are not part of it).
    #[napi(catch_unwind)]
    #[allow(clippy::unused_self)] // a method, so JavaScript reaches it on the detector like the rest
    pub fn cache_key(&self, text: String, flags: Option<CheckFlags>) -> std::result::Result<String, CodedError> {
        Ok(Core::cache_key(&text, flags.unwrap_or_default().try_into()?))
    }

    /// Counters of the checks since the detector was made.
    #[napi(catch_unwind)]
    pub fn stats(&self) -> DetectorStats {
        self.inner.stats().into()
    }
}

pub struct CheckTask {
    core: Arc<Core>,
    text: String,
    options: CheckOptions,
}

impl Task for CheckTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        unless_panic(|| check_impl(&self.core, &self.text, self.options))
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

pub struct RedactTask {
    core: Arc<Core>,
    text: String,
    mode: RedactMode,
    pii_threshold: Option<f32>,
}

impl Task for RedactTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        unless_panic(|| redact_impl(&self.core, &self.text, &self.mode, self.pii_threshold))
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}
