//! Prints, for a few thousand mostly-ASCII texts with typographic and look-alike characters
//! mixed in, the detection form the injection normaliser builds, the original span of each of
//! its bytes, and the whole injection report: diff the output of two builds to check that a
//! change to the normaliser leaves all three alone. `injection_dump` holds few such texts.
//!
//! `cargo run --release -q -p reflex-core --example normalize_dump > before.txt`
//!
//! The texts: corpus items and paragraphs of `docs/*.md`, each rewritten a few ways by a fixed
//! pseudo-random sequence: dashes, curly quotes, ellipses, no-break spaces, accented names,
//! Cyrillic and Greek look-alikes, zero-width, bidi and tag characters, full-width letters,
//! combining marks, tabs, and spaced-out letters next to any of these.

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;
#[path = "common/rewrites.rs"]
mod rewrites;

use std::fmt::Write as _;

use reflex_core::injection;

fn main() {
    let texts = rewrites::texts();
    let mut line = String::new();
    for (n, t) in texts.iter().enumerate() {
        let (form, spans) = injection::normalized_form(t);
        line.clear();
        let _ = write!(line, "{n} {t:?}\n  {form:?}\n  ");
        for (s, e) in spans {
            let _ = write!(line, "{s}-{e} ");
        }
        let r = injection::detect(t);
        let _ = write!(line, "\n  {:?} {:.6}", r.severity, r.score);
        for m in &r.matches {
            let _ = write!(line, " [{} {}..{} {:?} {:.6}]", m.family.as_str(), m.start, m.end, m.severity, m.confidence);
        }
        println!("{line}");
    }
}
