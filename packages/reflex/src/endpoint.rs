//! The check endpoint: a whole `POST /api/v1/check` exchange in one call
//! (`reflex_core::endpoint`), for a server whose limiter and cache tier are in this process.
//!
//! Two functions over an `External` rather than a class: napi reads an `External` argument for a
//! fraction of what unwrapping a class instance costs (a type-tag check, a property lookup and a
//! borrow guard per call), a tenth of a cache hit's whole request.

use std::cell::RefCell;

use napi::bindgen_prelude::{Buffer, Either, External, Uint8ArraySlice};
use napi_derive::napi;
use reflex_core::endpoint::{Answer, CheckEndpoint as Core};
use reflex_core::ratelimit::Decision;

use crate::cache::CacheTier;
use crate::detector::Detector;
use crate::errors::CodedError;
use crate::limiter::RateLimiter;
use crate::now_ms;
use crate::options::Limit;

/// The caller's `Uint8Array`, written in place. Named, because napi-derive reads a `&mut`
/// argument as a class instance; through the alias it converts as a typed array.
type Bytes<'a> = &'a mut [u8];

/// The bytes of `out` ahead of the reply: the decision's six numbers.
const DECISION_BYTES: usize = 6 * 8;

/// A reply buffer grown past this is not kept for the next call.
const KEPT_REPLY: usize = 64 * 1024;

pub struct CheckEndpoint {
    inner: Core,
    /// The last reply, its memory kept for the next one.
    reply: RefCell<String>,
}

/// An endpoint answering with `detector`, `cache` and `limiter`; each user's bucket is `perUser`.
#[napi(catch_unwind, ts_return_type = "ExternalObject<'CheckEndpoint'>")]
pub fn check_endpoint(detector: &Detector, cache: &CacheTier, limiter: &RateLimiter, per_user: Limit) -> Result<External<CheckEndpoint>, CodedError> {
    let inner = Core {
        detector: detector.inner.clone(),
        cache: cache.inner.clone(),
        limiter: limiter.inner.clone(),
        per_user: per_user.try_into()?,
    };
    Ok(External::new(CheckEndpoint { inner, reply: RefCell::new(String::new()) }))
}

/// Answers the request `body` (see `reflex_core::endpoint`). `out`, the caller's and reused,
/// receives six numbers in its first 48 bytes (allowed 1/0, limit, remaining, resetMs,
/// retryAfterMs, the head's length; as a `Float64Array` over them reads them) and the reply after
/// them: its head, then its body. Returns the reply's length, or the reply itself when it is
/// longer than the room; -1 when the body is not one the endpoint takes (nothing was taken: parse
/// and validate it yourself); -2 when the user's bucket is empty (nothing was checked).
#[napi(catch_unwind)]
pub fn answer_check(
    #[napi(ts_arg_type = "ExternalObject<'CheckEndpoint'>")] endpoint: &External<CheckEndpoint>,
    body: Uint8ArraySlice<'_>,
    request_id: String,
    #[napi(ts_arg_type = "Uint8Array")] out: Bytes<'_>,
) -> Either<i64, Buffer> {
    let mut reply = endpoint.reply.borrow_mut();
    let (decision, room) = out.split_at_mut(DECISION_BYTES.min(out.len()));
    match endpoint.inner.answer(&body, &request_id, now_ms(), &mut reply) {
        Answer::Declined => Either::A(-1),
        Answer::Refused(d) => {
            write_decision(decision, &d, 0);
            Either::A(-2)
        }
        Answer::Answered { decision: d, head } => {
            write_decision(decision, &d, head);
            let answer = match room.get_mut(..reply.len()) {
                Some(to) => {
                    to.copy_from_slice(reply.as_bytes());
                    Either::A(i64::try_from(reply.len()).unwrap_or(i64::MAX))
                }
                None => Either::B(reply.as_bytes().to_vec().into()),
            };
            if reply.capacity() > KEPT_REPLY {
                *reply = String::new();
            }
            answer
        }
    }
}

fn write_decision(to: &mut [u8], d: &Decision, head: usize) {
    let numbers = [f64::from(u8::from(d.allowed)), f64::from(d.limit), f64::from(d.remaining), d.reset_ms as f64, d.retry_after_ms as f64, head as f64];
    for (bytes, n) in to.chunks_exact_mut(8).zip(numbers) {
        bytes.copy_from_slice(&n.to_ne_bytes());
    }
}
