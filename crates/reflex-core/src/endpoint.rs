//! The check endpoint: one `POST /api/v1/check` exchange from the request body's bytes to the
//! reply's, for a server whose cache tier is in this process. Reading the body, checking, looking
//! the answer up and writing the reply in one pass costs a third of doing each step through the
//! JavaScript boundary (see `docs/performance.md`). The caller has already taken the request's
//! rate-limit token; its numbers go into the reply's head.
//!
//! ```
//! use std::sync::Arc;
//! use reflex_core::cache::CacheTier;
//! use reflex_core::detector::{Detector, DetectorConfig};
//! use reflex_core::endpoint::{Answer, AnswerKeys, CheckEndpoint, HeadLimits};
//! let endpoint = CheckEndpoint {
//!     detector: Arc::new(Detector::new(DetectorConfig::default())),
//!     cache: Arc::new(CacheTier::new(1_000, 1 << 20)),
//!     keys: AnswerKeys::new(b"a server secret"),
//! };
//! let mut reply = String::new();
//! let limits = HeadLimits { limit: 100, remaining: 99, reset_ms: 600 };
//! let answer = endpoint.answer(br#"{"text": "hello"}"#, "req-1", "acme", Some(limits), 0, &mut reply);
//! let Answer::Answered { head } = answer else { panic!() };
//! assert!(reply[..head].starts_with("req-1\r\ncontent-type: application/json"));
//! assert!(reply[..head].ends_with("ratelimit-remaining: 99\r\nratelimit-reset: 1"));
//! assert!(reply[head..].starts_with(r#"{"request_id":"req-1","status":"success""#));
//! ```

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::cache::CacheTier;
use crate::decimal::push_uint;
use crate::detector::{CheckOptions, Detector};
use crate::json::{self, Reader};
use crate::reply;

/// The body the endpoint takes: a JSON object with `text`, and optionally `user_id`, any of the
/// three boolean flags and the two thresholds (numbers from 0 to 1), each once, nothing else. Any other body is left to the caller's own
/// parsing and validation, so its errors are the caller's: this only has to agree with
/// `JSON.parse` and the caller's schema on the bodies it takes. (`user_id` is read and checked, but
/// it selects nothing: who is asking comes from the request's credential.)
pub struct CheckRequest<'a> {
    /// Borrowed from the body unless it holds escapes.
    pub text: Cow<'a, str>,
    pub user_id: Option<Cow<'a, str>>,
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
        let mut thresholds = [None; 2];
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
                b"injection_threshold" | b"pii_threshold" => {
                    let threshold = &mut thresholds[usize::from(key == b"pii_threshold")];
                    if threshold.is_some() {
                        return None;
                    }
                    *threshold = Some(fraction(r.float()?)?);
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
        let text = text?;
        if text.is_empty() || text.len() > MAX_TEXT_BYTES {
            return None;
        }
        if user_id.as_ref().is_some_and(|u| u.is_empty() || u.len() > MAX_USER_ID_BYTES) {
            return None;
        }
        let [pii, injection, cache] = flags.map(|f| f.unwrap_or(true));
        let [injection_threshold, pii_threshold] = thresholds;
        let options = CheckOptions { check_pii: pii, check_injection: injection, injection_threshold, pii_threshold };
        Some(CheckRequest { text, user_id, options, use_cache: cache })
    }
}

/// A threshold as the schema takes it, a number from 0 to 1; None for any other (its 400 is the
/// caller's).
#[allow(clippy::cast_possible_truncation)] // 0 ..= 1: an f32 holds it to well past the thousandth compared
fn fraction(n: f64) -> Option<f32> {
    (0.0..=1.0).contains(&n).then_some(n as f32)
}

/// What [`CheckEndpoint::answer`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not the body the endpoint takes (see [`CheckRequest`]): nothing was checked or written.
    Declined,
    /// The reply is written: its head's `head` bytes, then its body (see [`CheckEndpoint::answer`]).
    Answered { head: usize },
}

/// The rate-limit numbers the reply's head carries: the request's bucket after its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadLimits {
    pub limit: u32,
    pub remaining: u32,
    pub reset_ms: u64,
}

/// Where a tenant's stored answer to a text lives in a cache: a keyed hash (HMAC-SHA-256 with a
/// server secret) of the tenant, the check's options and the exact text. A client can neither
/// compute another tenant's key nor plant a value under one, and a differently worded text never
/// shares an answer (the normalised `cache_key` a check reports is not used for answers).
#[derive(Clone)]
pub struct AnswerKeys(Hmac<Sha256>);

impl AnswerKeys {
    #[must_use]
    pub fn new(secret: &[u8]) -> Self {
        AnswerKeys(Hmac::new_from_slice(secret).unwrap_or_else(|_| unreachable!("HMAC takes a key of any length")))
    }

    /// The key of `tenant`'s answer to `text` checked with `options`: `ans:` and 32 hex characters.
    #[must_use]
    pub fn key(&self, tenant: &str, text: &str, options: CheckOptions) -> String {
        let mut mac = self.0.clone();
        // The tenant's length first: no tenant and text can be cut to read as another pair.
        mac.update(&(tenant.len() as u64).to_le_bytes());
        mac.update(tenant.as_bytes());
        mac.update(&[options.key_flags()]);
        mac.update(text.as_bytes());
        let digest = mac.finalize().into_bytes();
        let mut key = String::with_capacity(36);
        key.push_str("ans:");
        for b in &digest[..16] {
            key.push(char::from(HEX[usize::from(b >> 4)]));
            key.push(char::from(HEX[usize::from(b & 15)]));
        }
        key
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The detector and the cache tier a check runs against, and how answers are keyed in the tier.
pub struct CheckEndpoint {
    pub detector: Arc<Detector>,
    pub cache: Arc<CacheTier>,
    pub keys: AnswerKeys,
}

impl CheckEndpoint {
    /// Answers the request `body` for `tenant`: checks the text, looks up `tenant`'s stored answer
    /// to it in the cache tier (unless `use_cache` is false; a hit's text is remembered by the
    /// detector) and writes the reply into `out` (cleared first): its head (see [`head`]), then its
    /// JSON body, `request_id` first, the check's fields, then `processing_time_ms`, the time spent
    /// here. `now_ms` is the clock the cache reads.
    pub fn answer(&self, body: &[u8], request_id: &str, tenant: &str, limits: Option<HeadLimits>, now_ms: u64, out: &mut String) -> Answer {
        let started = Instant::now();
        let Some(req) = CheckRequest::read(body) else { return Answer::Declined };
        let checked = self.detector.check(&req.text, req.options);
        let cached = if req.use_cache { self.cache.get(&self.keys.key(tenant, &req.text, req.options), now_ms) } else { None };
        if cached.is_some() {
            self.detector.remember(&req.text, req.options, &checked);
        }
        out.clear();
        out.reserve(2 * request_id.len() + reply::check_reply_room(&checked, cached.as_ref()) + 192);
        let head = head(out, request_id, limits);
        out.push_str("{\"request_id\":");
        json::string(out, request_id);
        reply::check_reply_fields(out, &checked, cached.as_ref());
        out.push_str(",\"processing_time_ms\":");
        json::millis(out, started.elapsed().as_secs_f64() * 1000.0);
        out.push('}');
        Answer::Answered { head }
    }
}

/// The reply's head as one header's value, for a server that writes it in one piece (uWS writes a
/// value as it is given): the request id, then for each other header `\r\n`, its name, `: ` and
/// its value: the content type and, given `limits`, `RateLimit-Limit`, `-Remaining` and `-Reset`
/// (whole seconds, rounded up). Written only for a request id of printable ASCII, so no value can
/// break a line; returns its length, 0 when not written.
pub fn head(out: &mut String, request_id: &str, limits: Option<HeadLimits>) -> usize {
    if request_id.is_empty() || !request_id.bytes().all(|b| (0x20..=0x7e).contains(&b)) {
        return 0;
    }
    let start = out.len();
    out.push_str(request_id);
    out.push_str("\r\ncontent-type: application/json; charset=utf-8");
    if let Some(l) = limits {
        out.push_str("\r\nratelimit-limit: ");
        push_uint(out, l.limit.into());
        out.push_str("\r\nratelimit-remaining: ");
        push_uint(out, l.remaining.into());
        out.push_str("\r\nratelimit-reset: ");
        push_uint(out, l.reset_ms.div_ceil(1000));
    }
    out.len() - start
}

#[cfg(test)]
mod tests;
