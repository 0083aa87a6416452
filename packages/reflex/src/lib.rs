//! The Node.js binding of `reflex-core`: each call converts its arguments, calls the core and
//! converts the answer back. No logic lives here; the typed API over it is `lib/` (TypeScript). The
//! exports of its own are for the executor's sandbox, shipped here so the service needs no second
//! native module: its seccomp programs (`seccomp.rs`) and the step that keeps the service's
//! inherited descriptors from the commands it starts (`descriptors.rs`).
//!
//! ```js
//! import { Detector } from './bindings/index.js'
//! const detector = new Detector({ blockLevel: 'high' })
//! JSON.parse(detector.check('mail ada@example.com', null)).pii_matches[0].type // 'EMAIL'
//! ```
//!
//! Results cross as the core's JSON (`reflex_core::reply`), the one shape every caller sees:
//! building nested objects through napi cost more than the check itself. Errors carry a stable
//! `code` (`REFLEX_ERR_*`, see `errors.rs`). Every export is `catch_unwind`, and work on the libuv
//! pool goes through `errors::unless_panic`, so a panic throws instead of ending the process.

// `#[napi]` functions receive owned values: napi-derive converts each JS argument into one.
#![allow(clippy::needless_pass_by_value)]
// napi-derive's generated glue allows `unsafe` for itself; this crate's own code has none but
// two `fcntl` calls (`descriptors.rs`, which says why they are sound).
#![deny(unsafe_code)]

mod cache;
mod descriptors;
mod detector;
mod endpoint;
mod errors;
mod limiter;
mod options;
mod seccomp;
mod terms;

use std::time::{SystemTime, UNIX_EPOCH};

use napi_derive::napi;

/// The crate version, so a service can report which binding it loaded.
#[napi(catch_unwind)]
#[must_use]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The clock the cache tier and the limiter read: milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}
