//! One stage of a check by name, for the examples that time or count one (`check_loop`,
//! `cold_median`, `rotation`), and the walk that makes a check's caches cold (`check_loop`,
//! `cold`, `cold_median`): `#[path = "common/stage.rs"] mod stage;`.
//!
//! `injection`, `pii`, `route` (routing alone) or `key` (the cache key); `none` does nothing (a
//! loop's own cost); anything else is the whole `engine.check`, without the cache.

#![allow(dead_code)] // each example uses some of it

use std::hint::black_box;

use reflex_core::engine::{CheckOptions, Engine, EngineConfig};
use reflex_core::{injection, normalize, pii, routing};

/// The engine the whole check runs on, with its tables built.
pub fn engine() -> Engine {
    Engine::new(EngineConfig::default())
}

/// Runs `stage` on `text` with `engine`, its result kept from the optimiser.
pub fn run(stage: &str, engine: &Engine, text: &str) {
    match stage {
        "injection" => drop(black_box(injection::detect(text))),
        "pii" => drop(black_box(pii::detect(text))),
        "route" => drop(black_box(routing::route(text, false, false, false))),
        "key" => drop(black_box(normalize::cache_key(text, 3))),
        "none" => {}
        _ => drop(black_box(engine.check(text, CheckOptions { use_cache: false, ..CheckOptions::default() }, 0))),
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
