//! engine.check on cold caches, timed call by call: each call follows a walk of 1 MiB (as in
//! `cold`), and the median of the calls' own times is printed, so a busy machine's preemptions
//! (which move `cold`'s best-of-five differences by tenths of a µs) fall outside the median.
//!
//! `cargo run --release -p reflex-core --example cold_median [calls, default 20000] [KiB walked, default 1024]
//! [stage: injection, pii, route or key; default the whole check]`
use std::hint::black_box;
use std::time::Instant;

#[path = "common/bench_texts.rs"]
mod bench_texts;
#[path = "common/stage.rs"]
mod stage;

fn main() {
    let calls: usize = std::env::args().nth(1).map_or(20_000, |s| s.parse().expect("a number of calls"));
    let kib: usize = std::env::args().nth(2).map_or(1024, |s| s.parse().expect("KiB to walk"));
    let mut junk = vec![0u8; kib << 10];
    let engine = stage::engine();
    let stage = std::env::args().nth(3).unwrap_or_default();
    let run = |t: &str| stage::run(stage.as_str(), &engine, t);
    for name in ["pii", "typographic", "clean", "attack"] {
        let text = bench_texts::text(name);
        let mut times = Vec::with_capacity(calls);
        for _ in 0..calls {
            stage::evict(&mut junk);
            let t = Instant::now();
            run(black_box(&text));
            times.push(t.elapsed().as_nanos());
        }
        times.sort_unstable();
        let at = |q: usize| times[q * (calls - 1) / 100] as f64 / 1e3;
        println!("{name:<12} check cold: median {:>6.2} µs  p25 {:>6.2}  p75 {:>6.2}", at(50), at(25), at(75));
    }
}
