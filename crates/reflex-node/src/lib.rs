//! napi glue for `reflex-core`: convert, call the core, convert back. No logic lives here.
//!
//! ```js
//! import { ReflexEngine } from '../bindings/index.js'
//! const engine = new ReflexEngine({ blockLevel: 'high' })
//! engine.check('mail ada@example.com').piiMatches[0].type // 'EMAIL'
//! ```
//!
//! Errors thrown to JavaScript carry a stable `code` (`REFLEX_ERR_*`, see `errors.rs`); the
//! TypeScript side switches on it, never on the message.

// `#[napi]` functions receive owned values: napi-derive converts each JS argument into one.
#![allow(clippy::needless_pass_by_value)]

mod convert;
mod engine;
mod errors;
mod json;
mod options;
mod packed;
mod plain;
mod request;
mod text;

use napi_derive::napi;

/// The crate version, so the service can report which addon it loaded.
#[napi(catch_unwind)]
#[must_use]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
