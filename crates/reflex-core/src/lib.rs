//! The reflex layer's pure core: personal-data detection and redaction, prompt-injection
//! detection, cache-key normalisation, token-bucket rate limiting, a TTL + LRU cache, routing
//! hints, and the check's JSON form. No napi, no I/O: the Node binding (`packages/reflex`)
//! converts and calls into this crate.
//!
//! ```
//! use reflex_core::pii;
//! let found = pii::detect("mail me at ada@example.com");
//! assert_eq!(found[0].kind.as_str(), "EMAIL");
//! ```
//!
//! Offsets inside the core are byte offsets into the UTF-8 `&str`; [`utf16`] converts them to
//! the UTF-16 code-unit offsets JavaScript expects, once, at the edge of [`detector`].
#![forbid(unsafe_code)]

mod base64;
pub mod cache;
pub mod decimal;
pub mod detector;
pub mod endpoint;
pub mod injection;
pub mod json;
pub mod linear_regex;
mod lanes;
pub mod memo;
pub mod normalize;
pub mod pii;
pub mod ratelimit;
pub mod reply;
pub mod routing;
pub mod severity;
mod sync;
pub mod terms;
#[cfg(test)]
mod test_rng;
pub mod utf16;
