//! Times each stage of a check on the three 1 KB bench texts (bench/texts.ts), in a tight loop:
//! a quick read of where the native time goes without criterion's long runs.
//!
//! `cargo run --release -p reflex-core --example stages`

use std::hint::black_box;
use std::time::Instant;

use reflex_core::detector::{CheckOptions, Detector, DetectorConfig};
use reflex_core::{injection, normalize, pii, routing};

#[path = "common/bench_texts.rs"]
mod bench_texts;

fn time(label: &str, text: &str, f: &dyn Fn(&str)) {
    for _ in 0..2_000 {
        f(text);
    }
    let n = 20_000;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n {
            f(black_box(text));
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
    }
    println!("{label:<40} {best:>8.2} µs");
}

fn main() {
    let texts = ["pii", "typographic", "clean", "attack"].map(|name| (name, bench_texts::text(name)));
    let detector = Detector::new(DetectorConfig::default());
    let all = CheckOptions::default();
    let neither = CheckOptions { check_pii: false, check_injection: false, ..CheckOptions::default() };
    for (name, text) in &texts {
        println!("── {name} ({} bytes)", text.len());
        time("detector.check", text, &|t| {
            black_box(detector.check(t, all));
        });
        time("detector.check, neither detector", text, &|t| {
            black_box(detector.check(t, neither));
        });
        time("injection::detect", text, &|t| {
            black_box(injection::detect(t));
        });
        time("pii::detect", text, &|t| {
            black_box(pii::detect(t));
        });
        time("cache_key", text, &|t| {
            black_box(normalize::cache_key(t, 3));
        });
        time("routing::route", text, &|t| {
            black_box(routing::route(t, false, false, false));
        });
    }
}
