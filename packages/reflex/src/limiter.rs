//! `RateLimiter`: token buckets by key.

use std::sync::Arc;

use napi_derive::napi;
use reflex_core::ratelimit::Limiter as Core;

use crate::errors::CodedError;
use crate::now_ms;
use crate::options::{Limit, RateLimitDecision, RateLimiterOptions};

#[napi]
pub struct RateLimiter {
    pub(crate) inner: Arc<Core>,
}

#[napi]
impl RateLimiter {
    #[napi(catch_unwind, constructor)]
    pub fn new(options: Option<RateLimiterOptions>) -> Self {
        RateLimiter { inner: Arc::new(Core::new(options.unwrap_or_default().max_keys())) }
    }

    /// Takes `cost` tokens (default 1) from `key`'s bucket, which holds `limit.capacity` and
    /// refills over `limit.windowMs`. Throws `REFLEX_ERR_INVALID_OPTION` for a capacity under 1 or
    /// a window under 1 ms.
    #[napi(catch_unwind)]
    pub fn take(&self, key: String, limit: Limit, cost: Option<u32>) -> Result<RateLimitDecision, CodedError> {
        Ok(self.inner.take(&key, limit.try_into()?, cost.unwrap_or(1), now_ms()).into())
    }
}
