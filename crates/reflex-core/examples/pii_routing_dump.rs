//! Prints `pii::detect` and `routing::route` for the texts of `injection_dump` (corpus items
//! alone and inside English, frozen literals, mixtures) and the bench texts, one line each:
//! diff two builds' output to check that a change to PII detection or routing leaves the
//! results alone.
//!
//! `cargo run --release -p reflex-core --example pii_routing_dump > before.txt`

#[allow(dead_code)] // its `main` is not ours; only `texts` is used
#[path = "injection_dump.rs"]
mod injection_dump;

use std::fmt::Write as _;

use reflex_core::{pii, routing};

fn main() {
    let mut texts = injection_dump::texts();
    // Case, keyword and shape variants for routing: every text upper-cased too.
    let upper: Vec<String> = texts.iter().map(|t| t.to_uppercase()).collect();
    texts.extend(upper);
    let mut line = String::new();
    for (n, t) in texts.iter().enumerate() {
        line.clear();
        for flags in [(false, false, false), (true, false, true)] {
            let r = routing::route(t, flags.0, flags.1, flags.2);
            let _ = write!(line, "{n} {} {} {:?} |", r.route.as_str(), r.complexity.as_str(), r.suggested_arms);
        }
        for m in pii::detect(t) {
            let _ = write!(line, " [{} {}..{} {:?}]", m.kind.as_str(), m.start, m.end, m.confidence);
        }
        println!("{line}");
    }
}
