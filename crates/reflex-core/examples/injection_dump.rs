//! Prints the whole injection report (every match with its offsets, severity and confidence,
//! the score and the overall severity) for a large fixed set of texts, one line each: diff the
//! output of two builds to check that a change to the detector leaves what it reports alone.
//!
//! `cargo run --release -p reflex-core --example injection_dump > before.txt`
//!
//! The texts: every corpus item (injection and PII, holdouts included), each also inside
//! ordinary English (before it, after it, around it), the string literals of the injection tests
//! and of the pattern table as they stood on 2026-11-24 (`injection_dump_texts.txt`, frozen so
//! that editing either file does not change the set), and mixtures of all these cut at arbitrary
//! character boundaries, so matches sit at every distance from the edges of the text and from
//! each other.

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;

use std::fmt::Write as _;

use corpus_eval::all_texts;
use reflex_core::injection;

const ENGLISH: &str = "The quarterly planning meeting moved to Thursday afternoon because the \
design review ran long. Please read the attached notes before then: they cover the migration of \
the billing service. Keep the tone plain and avoid internal project names. ";

/// `s` cut to at most `n` bytes, at a character boundary.
fn cut(s: &str, n: usize) -> &str {
    let mut n = n.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    &s[..n]
}

pub(crate) fn texts() -> Vec<String> {
    let mut base = all_texts();
    // `\n` stands for a line break: one text a line.
    base.extend(include_str!("injection_dump_texts.txt").lines().map(|l| l.replace("\\n", "\n")));
    let mut out = Vec::new();
    for t in &base {
        out.push(t.clone());
        out.push(format!("{ENGLISH}{t}"));
        out.push(format!("{t} {ENGLISH}"));
        out.push(format!("{ENGLISH}{t} {ENGLISH}"));
    }
    // Mixtures: pieces of three to six texts, each cut at a pseudo-random length.
    let mut state = 2_024u32;
    let mut next = |n: usize| {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (state >> 8) as usize % n
    };
    for _ in 0..3_000 {
        let mut t = String::new();
        for _ in 0..3 + next(4) {
            let piece = &base[next(base.len())];
            let from = next(piece.len() + 1);
            let from = (from..=piece.len()).find(|&i| piece.is_char_boundary(i)).unwrap_or(0);
            t.push_str(cut(&piece[from..], 20 + next(200)));
            t.push_str([" ", "", ". ", "\n"][next(4)]);
        }
        out.push(t);
    }
    out
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let show: Option<usize> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let mut line = String::new();
    for (n, t) in texts().iter().enumerate() {
        if show.is_some_and(|s| s != n) {
            continue;
        }
        if show.is_some() {
            println!("{t:?}");
        }
        line.clear();
        // A panic is part of the behaviour to compare: print it and go on.
        let Ok(r) = std::panic::catch_unwind(|| injection::detect(t)) else {
            println!("{n} PANIC");
            continue;
        };
        let _ = write!(line, "{n} {:?} {:?}", r.severity, r.score);
        for m in &r.matches {
            let _ = write!(line, " [{} {}..{} {:?} {:?}]", m.family.as_str(), m.start, m.end, m.severity, m.confidence);
        }
        println!("{line}");
    }
}
