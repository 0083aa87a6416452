//! A cache hit on one 1 KB text, repeated: the sequence `Engine::check` runs for the check
//! route's hit (memo, cache lookup, counters), for instruction counts.
//!
//! `valgrind --tool=callgrind --callgrind-out-file=/tmp/hit.cg target/release/examples/hit 20000`

use std::hint::black_box;

use reflex_core::engine::{CheckOptions, Engine, EngineConfig};

#[path = "common/bench_texts.rs"]
mod bench_texts;

fn main() {
    let calls: u64 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    // The bench's English with an e-mail address and a phone number (bench/texts.ts).
    let text = bench_texts::text("pii");
    let engine = Engine::new(EngineConfig::default());
    let opts = CheckOptions::default();
    engine.cache_set(&Engine::cache_key(&text, opts), "{\"answer\":\"a stored task result\"}", 3_600_000, 0);
    let mut hits = 0;
    for now in 0..calls {
        hits += u64::from(black_box(engine.check(black_box(&text), opts, now)).cached.is_some());
    }
    println!("{hits} hits of {calls} checks, {} memoised", engine.cache_stats().hits.saturating_sub(1));
}
