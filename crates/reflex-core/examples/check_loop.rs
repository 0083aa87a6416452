//! Runs one stage of a check N times on one of the 1 KB bench texts, for instruction counts
//! under callgrind (noise-free where wall times are not):
//!
//! `valgrind --tool=callgrind --toggle-collect=check_loop::measured \
//!     target/release/examples/check_loop <stage> <text> [n]`
//!
//! stage: `check`, `json`, `injection`, `pii`, `route` or `key`; text: `clean`, `pii`, `typographic` or `attack`
//! (as in bench/texts.ts and examples/stages.rs), or `file:<path>` for any other text.
//!
//! A fourth argument `cold` walks 1 MiB between calls (as an HTTP request's own work does): with `--cache-sim=yes` the misses per call are then those of a check
//! on cold caches. The walk is counted too; take it out with a run of stage `none`.

use std::hint::black_box;

#[path = "common/bench_texts.rs"]
mod bench_texts;
#[path = "common/stage.rs"]
mod stage;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let stage = args.get(1).map_or("check", String::as_str);
    let text = bench_texts::text(args.get(2).map_or("clean", String::as_str));
    let n: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let cold = args.get(4).is_some_and(|a| a == "cold");
    let detector = stage::detector();
    // One call outside the measured loop, so the tables built on first use stay out of it.
    let run = |t: &str| stage::run(stage, &detector, t);
    run(&text);
    let mut junk = vec![0u8; if cold { 1 << 20 } else { 0 }];
    measured(&run, &text, n, &mut junk);
}

/// The loop alone, for `--toggle-collect=check_loop::measured` (counts without the setup).
#[inline(never)]
fn measured(run: &dyn Fn(&str), text: &str, n: usize, junk: &mut [u8]) {
    for _ in 0..n {
        stage::evict(junk);
        run(black_box(text));
    }
}
