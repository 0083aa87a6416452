//! The reflex layer's pure core: personal-data detection and redaction, prompt-injection
//! detection, cache-key normalisation, token-bucket rate limiting, a TTL + LRU cache and
//! routing hints. No napi, no I/O: `crates/reflex-node` converts and calls into this crate.
//!
//! ```
//! use reflex_core::pii;
//! let found = pii::detect("mail me at ada@example.com");
//! assert_eq!(found[0].kind.as_str(), "EMAIL");
//! ```
//!
//! Offsets inside the core are byte offsets into the UTF-8 `&str`; [`utf16`] converts them to
//! the UTF-16 code-unit offsets JavaScript expects, once, at the edge of [`engine`].
#![forbid(unsafe_code)]

mod base64;
pub mod cache;
pub mod decimal;
pub mod engine;
pub mod injection;
mod lanes;
pub mod memo;
pub mod normalize;
pub mod pii;
pub mod ratelimit;
pub mod routing;
pub mod severity;
#[cfg(test)]
mod test_rng;
pub mod utf16;
