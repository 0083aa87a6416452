//! The check endpoint: one `POST /api/v1/check` exchange from the request body's bytes to the
//! reply's, for a server whose rate limiter and cache tier are in this process. Reading the body,
//! taking the token, checking, looking the key up and writing the reply in one pass costs a third
//! of doing each step through the JavaScript boundary (see `docs/performance.md`).
//!
//! ```
//! use std::sync::Arc;
//! use reflex_core::cache::CacheTier;
//! use reflex_core::detector::{Detector, DetectorConfig};
//! use reflex_core::endpoint::{Answer, CheckEndpoint};
//! use reflex_core::ratelimit::{Limit, Limiter};
//! let endpoint = CheckEndpoint {
//!     detector: Arc::new(Detector::new(DetectorConfig::default())),
//!     cache: Arc::new(CacheTier::new(1_000, 1 << 20)),
//!     limiter: Arc::new(Limiter::new(1_000)),
//!     per_user: Limit { capacity: 100, window_ms: 60_000 },
//! };
//! let mut reply = String::new();
//! let answer = endpoint.answer(br#"{"text": "hello", "user_id": "u1"}"#, "req-1", 0, &mut reply);
//! let Answer::Answered { decision, head } = answer else { panic!() };
//! assert_eq!(decision.remaining, 99);
//! assert!(reply[..head].starts_with("req-1\r\ncontent-type: application/json"));
//! assert!(reply[head..].starts_with(r#"{"request_id":"req-1","status":"success""#));
//! ```

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use crate::cache::CacheTier;
use crate::decimal::push_uint;
use crate::detector::{CheckOptions, Detector};
use crate::json::{self, Reader};
use crate::ratelimit::{Decision, Limit, Limiter};
use crate::reply;

/// The body the endpoint takes: a JSON object with `text` and `user_id` and any of the three
/// boolean flags, each once, nothing else. Any other body is left to the caller's own parsing and
/// validation, so its errors are the caller's: this only has to agree with `JSON.parse` and the
/// caller's schema on the bodies it takes.
pub struct CheckRequest<'a> {
    /// Borrowed from the body unless it holds escapes.
    pub text: Cow<'a, str>,
    pub user_id: Cow<'a, str>,
    pub options: CheckOptions,
    pub use_cache: bool,
}

/// The schema's bounds count characters, and a string has at most as many characters as UTF-8
/// bytes: one within these byte counts is within the schema, and one beyond them is left to it.
const MAX_TEXT_BYTES: usize = 100_000;
const MAX_USER_ID_BYTES: usize = 256;

impl<'a> CheckRequest<'a> {
    /// The body when it is the one the endpoint takes (see the type); None for any other.
    #[must_use]
    pub fn read(bytes: &'a [u8]) -> Option<Self> {
        let mut r = Reader::new(bytes);
        let (mut text, mut user_id) = (None, None);
        let mut flags = [None; 3];
        r.expect(b'{')?;
        loop {
            r.expect(b'"')?;
            let key = r.key()?;
            r.expect(b':')?;
            match key {
                b"text" if text.is_none() => text = Some(r.string()?),
                b"user_id" if user_id.is_none() => user_id = Some(r.string()?),
                b"check_pii" | b"check_injection" | b"use_cache" => {
                    let flag = &mut flags[usize::from(key == b"check_injection") + 2 * usize::from(key == b"use_cache")];
                    if flag.is_some() {
                        return None;
                    }
                    *flag = Some(r.boolean()?);
                }
                _ => return None,
            }
            match r.next_byte()? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
        if !r.end() {
            return None;
        }
        let (text, user_id) = (text?, user_id?);
        if text.is_empty() || text.len() > MAX_TEXT_BYTES || user_id.is_empty() || user_id.len() > MAX_USER_ID_BYTES {
            return None;
        }
        let [pii, injection, cache] = flags.map(|f| f.unwrap_or(true));
        Some(CheckRequest { text, user_id, options: CheckOptions { check_pii: pii, check_injection: injection }, use_cache: cache })
    }
}

/// What [`CheckEndpoint::answer`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not the body the endpoint takes (see [`CheckRequest`]): nothing was taken or written.
    Declined,
    /// The user's bucket is empty: nothing was checked or written.
    Refused(Decision),
    /// The reply is written: its head's `head` bytes, then its body (see [`CheckEndpoint::answer`]).
    Answered { decision: Decision, head: usize },
}

/// The detector, the cache tier and the limiter a check runs against.
pub struct CheckEndpoint {
    pub detector: Arc<Detector>,
    pub cache: Arc<CacheTier>,
    pub limiter: Arc<Limiter>,
    /// Each user's bucket: the token comes from `user:<user_id>`.
    pub per_user: Limit,
}

impl CheckEndpoint {
    /// Answers the request `body`: takes a token from the user's bucket, checks the text, looks its
    /// key up in the cache tier (unless `use_cache` is false; a hit's text is remembered by the
    /// detector) and writes the reply into `out` (cleared first): its head (see [`head`]), then its
    /// JSON body, `request_id` first, the check's fields, then `processing_time_ms`, the time spent
    /// here. `now_ms` is the clock the limiter and the cache read.
    pub fn answer(&self, body: &[u8], request_id: &str, now_ms: u64, out: &mut String) -> Answer {
        let started = Instant::now();
        let Some(req) = CheckRequest::read(body) else { return Answer::Declined };
        let mut key = String::with_capacity(5 + req.user_id.len());
        key.push_str("user:");
        key.push_str(&req.user_id);
        let decision = self.limiter.take(&key, self.per_user, 1, now_ms);
        if !decision.allowed {
            return Answer::Refused(decision);
        }
        let checked = self.detector.check(&req.text, req.options);
        let cached = if req.use_cache { self.cache.get(&checked.cache_key, now_ms) } else { None };
        if cached.is_some() {
            self.detector.remember(&req.text, req.options, &checked);
        }
        out.clear();
        out.reserve(2 * request_id.len() + reply::check_reply_room(&checked, cached.as_ref()) + 192);
        let head = head(out, request_id, &decision);
        out.push_str("{\"request_id\":");
        json::string(out, request_id);
        reply::check_reply_fields(out, &checked, cached.as_ref());
        out.push_str(",\"processing_time_ms\":");
        json::millis(out, started.elapsed().as_secs_f64() * 1000.0);
        out.push('}');
        Answer::Answered { decision, head }
    }
}

/// The reply's head as one header's value, for a server that writes it in one piece (uWS writes a
/// value as it is given): the request id, then for each other header `\r\n`, its name, `: ` and
/// its value: the content type and `RateLimit-Limit`, `-Remaining` and `-Reset` (whole seconds,
/// rounded up). Written only for a request id of printable ASCII, so no value can break a line;
/// returns its length, 0 when not written.
pub fn head(out: &mut String, request_id: &str, d: &Decision) -> usize {
    if request_id.is_empty() || !request_id.bytes().all(|b| (0x20..=0x7e).contains(&b)) {
        return 0;
    }
    let start = out.len();
    out.push_str(request_id);
    out.push_str("\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: ");
    push_uint(out, d.limit.into());
    out.push_str("\r\nratelimit-remaining: ");
    push_uint(out, d.remaining.into());
    out.push_str("\r\nratelimit-reset: ");
    push_uint(out, d.reset_ms.div_ceil(1000));
    out.len() - start
}

#[cfg(test)]
mod tests;
