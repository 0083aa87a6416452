//! Times one stage of a check on a set of texts two ways with the same calls: each text checked
//! R times in a row, and the texts in turn. The instructions are the same; the difference is
//! what the branch predictor learns from a text repeated (bench loops) and cannot from a text
//! that differs from check to check (real traffic).
//!
//! `cargo run --release -p reflex-core --example rotation -- <file> [stage] [repeats] [rounds]`
//!
//! file: texts one a line, `\n` in a line standing for a line break (as in
//! `injection_dump_texts.txt`); stage: `engine` (default), `injection`, `pii`, `route` or `key`,
//! as in `check_loop`; repeats: R, the times each text is checked in a row (default 16);
//! rounds: the timings of each way, whose medians are printed (default 7).
//!
//! Times are the thread's CPU time (`/proc/thread-self/schedstat`), not wall time, so that
//! other work on a shared machine counts less. The kernel updates that figure at scheduler
//! events only, so each timing is stretched to at least 200 ms (an error of ~2 %).

use std::hint::black_box;
use std::time::Duration;

#[path = "common/stage.rs"]
mod stage;

/// The shortest timing: the CPU-time figure moves in scheduler ticks.
const MIN_TIMING: Duration = Duration::from_millis(200);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: rotation <file of texts, one a line> [stage] [repeats] [rounds]");
        std::process::exit(2);
    };
    let stage = args.get(2).map_or("engine", String::as_str);
    let repeats: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(16).max(1);
    let rounds: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(7).max(1);
    let file = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let texts: Vec<String> = file.lines().filter(|l| !l.is_empty()).map(|l| l.replace("\\n", "\n")).collect();
    assert!(!texts.is_empty(), "{path}: no texts");

    let engine = stage::engine();
    let run = |t: &str| stage::run(stage, &engine, t);

    // Warm up (tables built on first use, caches, frequency) and find how many passes over the
    // set make a timing of at least MIN_TIMING.
    let mut passes = 1;
    loop {
        let spent = cpu_time(|| in_turn(&run, &texts, repeats * passes));
        if spent >= MIN_TIMING {
            break;
        }
        passes *= 2;
    }
    let calls = texts.len() * repeats * passes;
    let mut repeated = Vec::with_capacity(rounds);
    let mut turned = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        repeated.push(cpu_time(|| in_a_row(&run, &texts, repeats, passes)));
        turned.push(cpu_time(|| in_turn(&run, &texts, repeats * passes)));
    }
    let per_call = |times: &mut Vec<Duration>| median(times).as_secs_f64() * 1e9 / calls as f64;
    let (a, b) = (per_call(&mut repeated), per_call(&mut turned));
    println!(
        "{stage}: {} texts, {calls} calls a timing, {rounds} rounds (median ns a call, thread CPU time)",
        texts.len()
    );
    println!("each text {repeats} times in a row: {a:>9.0}");
    println!("texts in turn:           {b:>9.0}");
    println!("ratio in turn / in a row: {:.2}", b / a);
}

/// Each text `repeats` times in a row, then the next; the whole set `passes` times.
fn in_a_row(run: &dyn Fn(&str), texts: &[String], repeats: usize, passes: usize) {
    for _ in 0..passes {
        for t in texts {
            for _ in 0..repeats {
                run(black_box(t));
            }
        }
    }
}

/// The texts one after the other, the whole set `passes` times.
fn in_turn(run: &dyn Fn(&str), texts: &[String], passes: usize) {
    for _ in 0..passes {
        for t in texts {
            run(black_box(t));
        }
    }
}

fn cpu_time(work: impl FnOnce()) -> Duration {
    let before = thread_cpu();
    work();
    thread_cpu().saturating_sub(before)
}

/// Nanoseconds this thread has spent on a CPU: the first field of its schedstat.
fn thread_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("/proc/thread-self/schedstat");
    let ns = stat.split_whitespace().next().and_then(|f| f.parse().ok()).expect("schedstat's first field");
    Duration::from_nanos(ns)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}
