//! engine.check with the caches cold: between calls a buffer larger than L2 is walked, as an HTTP
//! request's own work would. Prints thrash alone, thrash + check, and the difference.
//!
//! `cargo run --release -p reflex-core --example cold [KiB walked between calls, default 1024]`
use reflex_core::engine::{CheckOptions, Engine, EngineConfig};
use std::hint::black_box;
use std::time::Instant;
#[path = "common/bench_texts.rs"]
mod bench_texts;
#[path = "common/stage.rs"]
mod stage;

fn main() {
    let kb: usize = std::env::args().nth(1).map_or(1024, |s| s.parse().unwrap());
    let mut junk = vec![0u8; kb * 1024];
    let engine = Engine::new(EngineConfig::default());
    let all = CheckOptions {
        use_cache: false,
        ..CheckOptions::default()
    };
    for name in ["pii", "typographic", "clean", "attack"] {
        let text = bench_texts::text(name);
        let mut run = |check: bool| {
            let n = 5_000;
            let mut best = f64::MAX;
            for _ in 0..5 {
                let t = Instant::now();
                for _ in 0..n {
                    stage::evict(&mut junk);
                    if check {
                        black_box(engine.check(black_box(&text), all, 0));
                    }
                }
                best = best.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
            }
            best
        };
        let a = run(false);
        let b = run(true);
        println!(
            "{name:<8} thrash {a:>7.2} µs  thrash+check {b:>7.2} µs  check cold {:>6.2} µs",
            b - a
        );
    }
}
