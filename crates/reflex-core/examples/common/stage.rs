//! One stage of a check by name, for `check_loop`, and the walk that makes a check's caches cold:
//! `#[path = "common/stage.rs"] mod stage;`.
//!
//! `injection`, `pii`, `route` (routing alone), `key` (the cache key) or `json` (the whole check
//! written as the addon's answer); `none` does nothing (a loop's own cost); anything else is the
//! whole `detector.check`.

#![allow(dead_code)] // each example uses some of it

use std::hint::black_box;

use reflex_core::detector::{CheckOptions, Detector, DetectorConfig};
use reflex_core::{injection, normalize, pii, reply, routing};

/// The detector the whole check runs on, with its tables built.
pub fn detector() -> Detector {
    Detector::new(DetectorConfig::default())
}

/// Runs `stage` on `text` with `detector`, its result kept from the optimiser.
pub fn run(stage: &str, detector: &Detector, text: &str) {
    match stage {
        "injection" => drop(black_box(injection::detect(text))),
        "pii" => drop(black_box(pii::detect(text))),
        "route" => drop(black_box(routing::route(text, false, false, false))),
        "key" => drop(black_box(normalize::cache_key(text, 3))),
        "json" => drop(black_box(reply::check_result(&detector.check(text, CheckOptions::default())))),
        "none" => {}
        _ => drop(black_box(detector.check(text, CheckOptions::default()))),
    }
}

/// Touches every cache line of `junk`, evicting what a check left in the caches when `junk` is
/// larger than them (1 MiB: past L2), as an HTTP request's own work does between checks.
pub fn evict(junk: &mut [u8]) {
    for j in (0..junk.len()).step_by(64) {
        junk[j] = junk[j].wrapping_add(1);
    }
    black_box(junk);
}
