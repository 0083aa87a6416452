//! Prints, for every corpus text and every frozen test literal, what each injection pattern row
//! matches in the text's detection form: the reference the plain TypeScript port of the rows
//! (`bench/baseline/same/rows.ts`) is checked against by `test/bench/same-rows.test.ts`.
//!
//! `cargo build --release -q -p reflex-core --example row_matches`
//!
//! One JSON line a text: `norm` (the normalised form), `rows` (for each row with a match, its
//! index and the matched substrings, in order) and `armed` (the rows whose trigger words, and
//! `needs` words if any, occur: the core's own trigger pass), then the same three for the ROT13
//! of the normalised form (`rot`, `rotRows`, `rotArmed`), which the detector also searches.
//! Every row is run on every form, armed or not, so the regexes are compared on all of them;
//! matches dropped by the row's `unless` words (the core's `Rule::keeps`) are left out. Each row's source is
//! compiled with `regex::Regex::new`: the same matches as the core's configured engine.
//!
//! With `--stdin`, the texts are read from standard input instead, one JSON string a line, and
//! searched as given (not normalised): the test sends texts sampled from the rows' own regexes.

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;
#[path = "common/json.rs"]
mod json;

use std::fmt::Write as _;

use std::io::{BufRead as _, Write as _};

use corpus_eval::{all_texts, parse_json};
use json::quote;
use reflex_core::injection::{normalized_form, rot13, row_keeps, row_sources, rows_armed};
use regex::Regex;

/// `"rows": {...}, "armed": [...]` for `text` (with the given key names).
fn report(rows: &[Regex], text: &str, rows_key: &str, armed_key: &str) -> String {
    let mut found = Vec::new();
    let on: Vec<String> = rows_armed(text).iter().map(usize::to_string).collect();
    for (i, re) in rows.iter().enumerate() {
        let hits: Vec<String> = re.find_iter(text).filter(|m| row_keeps(i, text, m.end())).map(|m| quote(m.as_str())).collect();
        if !hits.is_empty() {
            found.push(format!("\"{i}\": [{}]", hits.join(", ")));
        }
    }
    format!("{}: {{{}}}, {}: [{}]", quote(rows_key), found.join(", "), quote(armed_key), on.join(", "))
}

fn main() {
    let rows: Vec<Regex> =
        row_sources().iter().map(|r| Regex::new(&r.source).unwrap_or_else(|e| panic!("{}: {e}", r.source))).collect();
    let given = std::env::args().any(|a| a == "--stdin");
    let texts: Vec<String> = if given {
        std::io::stdin()
            .lock()
            .lines()
            .map(|l| {
                let l = l.expect("stdin");
                parse_json(&l).ok().and_then(|j| j.as_str().map(str::to_string)).unwrap_or_else(|| panic!("not a JSON string: {l}"))
            })
            .collect()
    } else {
        let mut texts = all_texts();
        // `\n` stands for a line break: one text a line.
        texts.extend(include_str!("injection_dump_texts.txt").lines().map(|l| l.replace("\\n", "\n")));
        texts
    };
    let mut out = String::new();
    let mut stdout = std::io::stdout().lock();
    for text in &texts {
        let norm = if given { text.clone() } else { normalized_form(text).0 };
        let rot = rot13(&norm);
        out.clear();
        let _ = writeln!(
            out,
            "{{\"norm\": {}, {}, \"rot\": {}, {}}}",
            quote(&norm),
            report(&rows, &norm, "rows", "armed"),
            quote(&rot),
            report(&rows, &rot, "rotRows", "rotArmed"),
        );
        stdout.write_all(out.as_bytes()).expect("stdout");
    }
}
