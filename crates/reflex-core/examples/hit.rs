//! A cache hit on one 1 KB text, repeated: the sequence `Engine::check` runs for the check
//! route's hit (memo, cache lookup, counters), for instruction counts.
//!
//! `valgrind --tool=callgrind --callgrind-out-file=/tmp/hit.cg target/release/examples/hit 20000`

use std::hint::black_box;

use reflex_core::engine::{CheckOptions, Engine, EngineConfig};

/// English of the bench's kind (bench/texts.ts), with an e-mail address and a phone number.
fn text() -> String {
    let base = "The quarterly planning meeting moved to Thursday afternoon because the design review ran long. \
Please read the attached notes before then: they cover the migration of the billing service. ";
    let tail = "Questions to maria.lopez@example.com or call (415) 555-0132 before noon. ";
    let mut text = base.repeat(1024 / base.len() + 1);
    text.truncate(1024 - tail.len());
    text.push_str(tail);
    text
}

fn main() {
    let calls: u64 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let text = text();
    let engine = Engine::new(EngineConfig::default());
    let opts = CheckOptions::default();
    engine.cache_set(&Engine::cache_key(&text, opts), "{\"answer\":\"a stored task result\"}", 3_600_000, 0);
    let mut hits = 0;
    for now in 0..calls {
        hits += u64::from(black_box(engine.check(black_box(&text), opts, now)).cached.is_some());
    }
    println!("{hits} hits of {calls} checks, {} memoised", engine.cache_stats().hits.saturating_sub(1));
}
