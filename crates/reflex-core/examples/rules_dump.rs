//! Prints the injection pattern rows as JSON, as the plain TypeScript baseline of the addon bench
//! reads them (`bench/baseline/same/rows.json`): each row's family, severity, confidence,
//! trigger words, `needs` and `unless` words and the regex source the core compiles, then the
//! words that arm the ROT13 rescan and the two joins of split literals.
//!
//! `cargo run --release -q -p reflex-core --example rules_dump > bench/baseline/same/rows.json`
//!
//! `tests/rows_json.rs` checks that the committed file is this output.

#[path = "common/json.rs"]
mod json;

use json::quote;
use reflex_core::injection::{row_sources, scan_triggers};

fn list(words: &[&str]) -> String {
    let items: Vec<String> = words.iter().map(|w| quote(w)).collect();
    format!("[{}]", items.join(", "))
}

/// The whole file.
#[must_use]
pub fn rows_json() -> String {
    let rows: Vec<String> = row_sources()
        .iter()
        .map(|r| {
            format!(
                "    {{\"family\": {}, \"severity\": {}, \"confidence\": {}, \"triggers\": {}, \"needs\": {}, \"unless\": {}, \"source\": {}}}",
                quote(r.family.as_str()),
                quote(r.severity.as_str()),
                r.confidence,
                list(r.triggers),
                list(r.needs),
                list(r.unless),
                quote(&r.source),
            )
        })
        .collect();
    let [rot13, join, assign] = scan_triggers();
    format!(
        "{{\n  \"rows\": [\n{}\n  ],\n  \"rot13\": {},\n  \"join\": {},\n  \"assign\": {}\n}}\n",
        rows.join(",\n"),
        list(rot13),
        list(join),
        list(assign)
    )
}

#[allow(dead_code)] // also compiled into tests/rows_json.rs, which calls `rows_json` only
fn main() {
    print!("{}", rows_json());
}
