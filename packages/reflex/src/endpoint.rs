//! The check endpoint: a whole `POST /api/v1/check` exchange in one call
//! (`reflex_core::endpoint`), for a server whose cache tier is in this process; and the keys
//! tenants' stored answers live under.
//!
//! Two functions over an `External` rather than a class: napi reads an `External` argument for a
//! fraction of what unwrapping a class instance costs (a type-tag check, a property lookup and a
//! borrow guard per call), a tenth of a cache hit's whole request.

// Reached only through napi's registration, which a test build leaves out.
#![cfg_attr(test, allow(dead_code))]

use std::cell::RefCell;

use napi::bindgen_prelude::{Buffer, Either, External, Uint8ArraySlice};
use napi_derive::napi;
use reflex_core::endpoint::{Answer, AnswerKeys as CoreKeys, CheckEndpoint as Core, HeadLimits};

use crate::cache::CacheTier;
use crate::detector::Detector;
use crate::errors::CodedError;
use crate::now_ms;
use crate::options::{u32_count, CheckFlags};

/// The caller's `Uint8Array`, written in place. Named, because napi-derive reads a `&mut`
/// argument as a class instance; through the alias it converts as a typed array.
type Bytes<'a> = &'a mut [u8];

/// The bytes of `out` ahead of the reply: the head's length, as a float64.
const HEAD_BYTES: usize = 8;

/// A reply buffer grown past this is not kept for the next call.
const KEPT_REPLY: usize = 64 * 1024;

pub struct CheckEndpoint {
    inner: Core,
    /// The last reply, its memory kept for the next one.
    reply: RefCell<String>,
}

/// The keys tenants' stored answers live under in a cache (see `reflex_core::endpoint::AnswerKeys`).
#[napi]
pub struct AnswerKeys {
    inner: CoreKeys,
}

#[napi]
impl AnswerKeys {
    /// Keys keyed by `secret`, a server secret of at least 16 bytes.
    #[napi(catch_unwind, constructor)]
    pub fn new(secret: Buffer) -> Self {
        AnswerKeys { inner: CoreKeys::new(&secret) }
    }

    /// The key of `tenant`'s answer to `text` checked with `flags`: `ans:` and 32 hex characters.
    /// The thresholds judge a check and are not part of it: the answer to a text is the same
    /// under any of them.
    #[napi(catch_unwind)]
    pub fn key(&self, tenant: String, text: String, flags: Option<CheckFlags>) -> std::result::Result<String, CodedError> {
        Ok(self.inner.key(&tenant, &text, flags.unwrap_or_default().try_into()?))
    }
}

/// An endpoint answering with `detector` from `cache`, answers keyed by `keys`.
#[napi(catch_unwind, ts_return_type = "ExternalObject<'CheckEndpoint'>")]
pub fn check_endpoint(detector: &Detector, cache: &CacheTier, keys: &AnswerKeys) -> External<CheckEndpoint> {
    let inner = Core { detector: detector.inner.clone(), cache: cache.inner.clone(), keys: keys.inner.clone() };
    External::new(CheckEndpoint { inner, reply: RefCell::new(String::new()) })
}

/// Answers the request `body` for `tenant` (see `reflex_core::endpoint`), the head carrying the
/// rate-limit numbers `limit`, `remaining` and `resetMs` (none when `limit` is negative). `out`,
/// the caller's and reused, receives the head's length in its first 8 bytes (a float64) and the
/// reply after them: its head, then its body. Returns the reply's length, or the reply itself when
/// it is longer than the room; -1 when the body is not one the endpoint takes (parse and validate
/// it yourself).
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // one call a request: primitives only, nothing built on either side
pub fn answer_check(
    #[napi(ts_arg_type = "ExternalObject<'CheckEndpoint'>")] endpoint: &External<CheckEndpoint>,
    body: Uint8ArraySlice<'_>,
    request_id: String,
    tenant: String,
    limit: f64,
    remaining: f64,
    reset_ms: f64,
    #[napi(ts_arg_type = "Uint8Array")] out: Bytes<'_>,
) -> Either<i64, Buffer> {
    let limits = head_limits(limit, remaining, reset_ms);
    let mut reply = endpoint.reply.borrow_mut();
    let (numbers, room) = out.split_at_mut(HEAD_BYTES.min(out.len()));
    match endpoint.inner.answer(&body, &request_id, &tenant, limits, now_ms(), &mut reply) {
        Answer::Declined => Either::A(-1),
        Answer::Answered { head } => {
            if let Some(at) = numbers.get_mut(..8) {
                at.copy_from_slice(&(head as f64).to_ne_bytes());
            }
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

/// The head's rate-limit numbers; none for a negative `limit` or numbers out of range.
#[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)] // checked: finite and from 0
fn head_limits(limit: f64, remaining: f64, reset_ms: f64) -> Option<HeadLimits> {
    if limit < 0.0 {
        return None;
    }
    let reset_ms = if reset_ms.is_finite() && reset_ms >= 0.0 { reset_ms as u64 } else { 0 };
    Some(HeadLimits { limit: u32_count("limit", limit).ok()?, remaining: u32_count("remaining", remaining).ok()?, reset_ms })
}
