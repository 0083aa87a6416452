//! The check route's hot path in one call: take the rate-limit token, run the check, and answer
//! the whole reply, head and body.
//!
//! ```js
//! const decision = new Float64Array(6)
//! const handle = engine.requestHandle() // once, kept beside the engine
//! const reply = checkRequest(handle, text, 0b111, 'req-1', 'user:u1', 100, 60_000, 0.01, decision)
//! // reply: the head (decision[5] bytes), then the `/api/v1/check` JSON; null when decision[0] === 0 (refused)
//! ```
//!
//! Separate calls cost the route more than the work they do (bench/RESULTS.md): the decision
//! came back as a five-property object, the flags went in as one, the body came back as a JS
//! string that was spliced and encoded to UTF-8 again on its way to the socket, and the head was
//! a JS string built from the decision's numbers. Here every argument is a primitive, the decision
//! is written into the caller's `Float64Array`, and the head and body are written in Rust
//! (`head`, `json::check_fields`) and copied once: into a new `Buffer`, or for `checkRequestBody`
//! into the route's own, reused one.

// Only napi's registration reaches the two calls, and test builds leave that out.
#![cfg_attr(test, allow(dead_code))]

use std::cell::RefCell;
use std::time::Instant;

use napi::bindgen_prelude::{BufferSlice, Env, External, Result, Uint8ArraySlice};
use napi_derive::napi;
use reflex_core::decimal::push_uint;
use reflex_core::engine::{CheckOptions, CheckOutcome};
use reflex_core::ratelimit::Decision;

use crate::engine::{self, now_ms, EngineHandle};
use crate::json;
use crate::text::ShortText;

mod check_body;

use check_body::{CHECK_INJECTION, CHECK_PII, USE_CACHE};

/// The caller's `Float64Array`, written in place. Named, because napi-derive reads a `&mut`
/// argument as a class instance; through the alias it converts with napi's typed-array slice.
pub(crate) type Numbers<'a> = &'a mut [f64];
/// The caller's `Uint8Array` (a `Buffer`), written in place; named for the same reason.
type Bytes<'a> = &'a mut [u8];

/// `engine` is `ReflexEngine#requestHandle()`. Takes one token from `limitKey`'s bucket (`capacity` per `windowMs`), writes the decision into
/// `decision` (allowed 1/0, limit, remaining, resetMs, retryAfterMs, the head's length) and, when
/// allowed, checks `text` with `flags` (bit 1 PII, 2 injection, 4 cache) and returns the reply: its
/// head (see `head`; none, length 0, for a request id that is not printable ASCII), then the
/// `/api/v1/check` body, `request_id` first, `processing_time_ms` last (`elapsedMs` before the call
/// plus the time spent here). Null when refused: the check does not run.
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // one call per request is the point: primitives only, nothing built on either side
pub fn check_request<'env>(
    env: &'env Env,
    #[napi(ts_arg_type = "ExternalObject<'EngineHandle'>")] engine: &External<EngineHandle>,
    text: String,
    flags: u32,
    request_id: String,
    limit_key: String,
    capacity: u32,
    window_ms: f64,
    elapsed_ms: f64,
    #[napi(ts_arg_type = "Float64Array")] decision: Numbers<'_>,
) -> Result<Option<BufferSlice<'env>>> {
    let entered = Instant::now();
    // Checked before the token is taken: a call that fails must not spend one.
    let Some(decision) = decision.get_mut(..NUMBERS) else {
        return Err(napi::Error::from_reason("checkRequest: decision must hold 6 numbers"));
    };
    let d = take(engine, &limit_key, capacity, window_ms);
    if !d.allowed {
        decision.copy_from_slice(&numbers(&d, 0));
        return Ok(None);
    }
    let check = engine.core().check(&text, options(flags), now_ms());
    let ms = elapsed_ms + entered.elapsed().as_secs_f64() * 1000.0;
    BODY.with_borrow_mut(|out| {
        out.clear();
        let head = reply(out, &request_id, &d, &check, ms);
        decision.copy_from_slice(&numbers(&d, head));
        let buffer = BufferSlice::copy_from(env, out.as_bytes());
        forget_large(out);
        Ok(Some(buffer?))
    })
}

/// `checkRequest` from the request body's bytes, for the usual body (`request/check_body.rs`: a
/// JSON object with `text` and `user_id`, any of the three boolean flags, nothing else). The token
/// comes from `user:<user_id>`'s bucket of `capacity` per `windowMs`. `out` (the caller's, reused
/// from call to call) holds the decision's six numbers (as `checkRequest`'s, native byte order;
/// read them through a `Float64Array` over its first 48 bytes) and then room for the reply. For any
/// other body nothing is taken, the decision's first number is -1, and the caller decodes and
/// validates the body itself, so its errors stay the validator's. The reply (head, then body, as
/// `checkRequest`'s) is written after the decision and its length returned; longer than the room,
/// it is left for `lastReply()`. -1 when refused or not the usual body (the decision says which).
/// One array for both: napi's reading of a typed array cost ~550 instructions a call.
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // as check_request
pub fn check_request_body(
    #[napi(ts_arg_type = "ExternalObject<'EngineHandle'>")] engine: &External<EngineHandle>,
    json: Uint8ArraySlice<'_>,
    #[napi(ts_arg_type = "string")] request_id: ShortText,
    capacity: u32,
    window_ms: f64,
    elapsed_ms: f64,
    #[napi(ts_arg_type = "Uint8Array")] out: Bytes<'_>,
) -> Result<i64> {
    let entered = Instant::now();
    let Some((decision, room)) = out.split_at_mut_checked(DECISION_BYTES) else {
        return Err(napi::Error::from_reason("checkRequestBody: out must hold the decision's 48 bytes"));
    };
    let Some(parsed) = check_body::parse(&json) else {
        write_numbers(decision, &[-1.0]);
        return Ok(-1);
    };
    let d = take_for_user(engine, &parsed.user_id, capacity, window_ms);
    if !d.allowed {
        write_numbers(decision, &numbers(&d, 0));
        return Ok(-1);
    }
    // The text is read where it lies in the body when it has no escapes (the usual case).
    let check = engine.core().check(&parsed.text, options(parsed.flags), now_ms());
    let ms = elapsed_ms + entered.elapsed().as_secs_f64() * 1000.0;
    let (len, head) = reply_into(room, request_id.as_str(), &d, &check, ms);
    write_numbers(decision, &numbers(&d, head));
    Ok(len)
}

/// The decision's numbers: allowed (1/0), limit, remaining, resetMs, retryAfterMs, and the length
/// of the reply's head.
const NUMBERS: usize = 6;
/// The bytes ahead of `checkRequestBody`'s reply that hold its decision.
const DECISION_BYTES: usize = NUMBERS * 8;

/// `numbers` into `bytes` as a `Float64Array` over them reads them.
fn write_numbers(bytes: &mut [u8], numbers: &[f64]) {
    for (to, n) in bytes.chunks_exact_mut(8).zip(numbers) {
        to.copy_from_slice(&n.to_ne_bytes());
    }
}

/// The reply of the last `checkRequestBody` whose body did not fit its `out`, as a `Buffer`.
#[napi(catch_unwind)]
pub fn last_reply(env: &Env) -> Result<BufferSlice<'_>> {
    BODY.with_borrow_mut(|body| {
        let buffer = BufferSlice::copy_from(env, body.as_bytes());
        forget_large(body);
        buffer
    })
}

thread_local! {
    /// The rate-limit key `user:<id>`, rebuilt in place each call: a fresh `String` cost a malloc
    /// and a free, ~150 instructions of the check miss.
    static LIMIT_KEY: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A user id longer than this does not keep the key's buffer.
const KEPT_LIMIT_KEY: usize = 256;

/// `take` for the bucket `user:<user_id>`.
fn take_for_user(engine: &EngineHandle, user_id: &str, capacity: u32, window_ms: f64) -> Decision {
    LIMIT_KEY.with_borrow_mut(|key| {
        key.clear();
        key.push_str("user:");
        key.push_str(user_id);
        let decision = take(engine, key, capacity, window_ms);
        if key.capacity() > KEPT_LIMIT_KEY {
            *key = String::new();
        }
        decision
    })
}

/// Takes the token.
fn take(engine: &EngineHandle, key: &str, capacity: u32, window_ms: f64) -> Decision {
    engine::take(engine.core(), key, capacity, window_ms, 1)
}

/// `d` as the caller reads it (see `NUMBERS`), with a head of `head` bytes.
fn numbers(d: &Decision, head: usize) -> [f64; NUMBERS] {
    [
        if d.allowed { 1.0 } else { 0.0 },
        f64::from(d.limit),
        f64::from(d.remaining),
        d.reset_ms as f64,
        d.retry_after_ms as f64,
        head as f64,
    ]
}

fn options(flags: u32) -> CheckOptions {
    CheckOptions {
        check_pii: flags & CHECK_PII != 0,
        check_injection: flags & CHECK_INJECTION != 0,
        use_cache: flags & USE_CACHE != 0,
    }
}

thread_local! {
    /// The last reply's bytes, reused: allocating 2 KB afresh cost a twentieth of a memoised hit.
    static BODY: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A reply larger than this does not keep its buffer.
const KEPT_BODY: usize = 64 * 1024;

/// The reply: `head`, then `body`; the head's length.
fn reply(out: &mut String, request_id: &str, d: &Decision, check: &CheckOutcome, ms: f64) -> usize {
    let head = head(out, request_id, d);
    body(out, request_id, check, ms);
    head
}

/// The reply (see `reply`) written into the caller's `out` when it fits: its length either way,
/// and the head's. One that does not fit stays in `BODY` for `last_reply`. Creating a `Buffer`
/// per reply cost a third of a memoised hit's native call; the caller's buffer is made once.
fn reply_into(out: &mut [u8], request_id: &str, d: &Decision, check: &CheckOutcome, ms: f64) -> (i64, usize) {
    BODY.with_borrow_mut(|text| {
        text.clear();
        let head = reply(text, request_id, d, check, ms);
        let len = text.len();
        if let Some(room) = out.get_mut(..len) {
            room.copy_from_slice(text.as_bytes());
            forget_large(text);
        }
        (i64::try_from(len).unwrap_or(i64::MAX), head)
    })
}

/// The reply's head as uWS takes it in one header's value (src/http/app.ts, `Reply.head`): the
/// request id, which goes after `x-request-id: `, then for each other header `\r\n`, its name in
/// lower case, `: ` and its value: the content type and the three `RateLimit-*` headers of
/// `decide` (src/http/rate-limit.ts), the bytes the same reply's `headers` would give. Built in
/// JavaScript and encoded by uWS it cost ~1.5k instructions a request (bench/RESULTS.md). Written
/// only for a request id of printable ASCII (as the service's always is), so no value can break a
/// line; returns its length, 0 when not written.
fn head(out: &mut String, request_id: &str, d: &Decision) -> usize {
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

fn forget_large(body: &mut String) {
    if body.capacity() > KEPT_BODY {
        *body = String::new();
    }
}

/// `{"request_id":"…",` + the check body after its `{` + `,"processing_time_ms":N}`, the
/// splice `check-route.ts` does around `checkJson`, written in one pass.
fn body(out: &mut String, request_id: &str, check: &CheckOutcome, ms: f64) {
    out.reserve(request_id.len() + json::check_fields_room(check) + 32);
    out.push_str("{\"request_id\":");
    json::string(out, request_id);
    out.push(',');
    json::check_fields(out, check);
    out.push_str(",\"processing_time_ms\":");
    json::millis(out, ms);
    out.push('}');
}

#[cfg(test)]
mod tests {
    use reflex_core::engine::{CheckOptions, Engine, EngineConfig};
    use reflex_core::ratelimit::Decision;

    use super::{body, head};
    use crate::json;

    #[test]
    fn splices_the_request_id_and_the_time_around_the_check_body() {
        let engine = Engine::new(EngineConfig::default());
        let text = "Mail \"bob@example.com\" now";
        let opts = CheckOptions::default();
        engine.cache_set(&Engine::cache_key(text, opts), "{\"a\":1}", 60_000, 0);
        for now in [1, 2] {
            // The first hit serialises its findings, the second (memoised) reuses them.
            let check = engine.check(text, opts, now);
            let mut out = String::new();
            body(&mut out, "a\"b\\c\u{1}", &check, 0.12345);
            let expected = format!("{{\"request_id\":\"a\\\"b\\\\c\\u0001\",{},\"processing_time_ms\":0.123}}", &json::check_body(&check)[1..]);
            assert_eq!(out, expected);
            assert!(out.contains("\"cache_hit\":true,\"cache_key\":\"") && out.contains("\"cached_value\":{\"a\":1},\"pii_detected\":true"));
        }
    }

    #[test]
    fn the_head_is_the_request_id_then_a_line_per_header() {
        let d = |reset_ms| Decision { allowed: true, limit: 1000, remaining: 999, reset_ms, retry_after_ms: 0 };
        let mut out = String::from("{");
        assert_eq!(head(&mut out, "req-1", &d(59_001)), out.len() - 1);
        assert_eq!(
            out,
            "{req-1\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: 1000\r\nratelimit-remaining: 999\r\nratelimit-reset: 60"
        );
        // Whole seconds up, as `decide` (src/http/rate-limit.ts) rounds them.
        for (ms, seconds) in [(0, "0"), (1, "1"), (1_000, "1"), (1_001, "2")] {
            out.clear();
            head(&mut out, "r", &d(ms));
            assert!(out.ends_with(&format!("ratelimit-reset: {seconds}")), "{ms} ms: {out}");
        }
    }

    #[test]
    fn no_head_for_a_request_id_that_could_break_a_line() {
        let d = Decision { allowed: true, limit: 1, remaining: 0, reset_ms: 1, retry_after_ms: 0 };
        for id in ["", "a\r\nb", "a\nb", "tab\there", "caf\u{e9}", "del\u{7f}"] {
            let mut out = String::from("kept");
            assert_eq!(head(&mut out, id, &d), 0, "{id:?}");
            assert_eq!(out, "kept");
        }
        let mut out = String::new();
        assert!(head(&mut out, " !~ printable ", &d) > 0);
    }
}
