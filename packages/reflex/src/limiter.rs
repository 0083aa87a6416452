//! `RateLimiter`: token buckets by key.

use std::sync::Arc;

use napi_derive::napi;
use reflex_core::ratelimit::Limiter as Core;

use crate::errors::CodedError;
use crate::now_ms;
use crate::options::{u32_count, Limit, RateLimitDecision, RateLimiterOptions};

#[napi]
pub struct RateLimiter {
    pub(crate) inner: Arc<Core>,
}

#[napi]
impl RateLimiter {
    /// Throws `REFLEX_ERR_INVALID_OPTION` for a bound that is not a whole number from 0.
    #[napi(catch_unwind, constructor)]
    pub fn new(options: Option<RateLimiterOptions>) -> Result<Self, CodedError> {
        Ok(RateLimiter { inner: Arc::new(Core::new(options.unwrap_or_default().max_keys()?)) })
    }

    /// Takes `cost` tokens (default 1) from `key`'s bucket, which holds `limit.capacity` and
    /// refills over `limit.windowMs`. Throws `REFLEX_ERR_INVALID_OPTION` for a capacity under 1, a
    /// window under 1 ms or a cost that is not a whole number from 0.
    #[napi(catch_unwind)]
    pub fn take(&self, key: String, limit: Limit, cost: Option<f64>) -> Result<RateLimitDecision, CodedError> {
        let cost = u32_count("cost", cost.unwrap_or(1.0))?;
        Ok(self.inner.take(&key, limit.try_into()?, cost, now_ms()).into())
    }
}
