//! Prints, for every corpus text and every frozen test literal, what each injection pattern row
//! matches in the text's detection form: the reference the plain TypeScript port of the rows
//! (`bench/baseline/same/rows.ts`) is checked against by `test/bench/same-rows.test.ts`.
//!
//! `cargo build --release -q -p reflex-core --example row_matches`
//!
//! One JSON line a text: `norm` (the normalised form), `rows` (for each row with a match, its
//! index and the matched substrings, in order) and `armed` (the rows whose trigger words, and
//! `needs` words if any, occur), then the same three for the ROT13 of the normalised form
//! (`rot`, `rotRows`, `rotArmed`), which the detector also searches. Every row is run on every
//! form, armed or not, so the regexes are compared on all of them; matches dropped by the row's
//! `unless` words (`Rule::keeps`, reimplemented here) are left out. Each row's source is
//! compiled with `regex::Regex::new`: the same matches as the core's configured engine.
//!
//! With `--stdin`, the texts are read from standard input instead, one JSON string a line, and
//! searched as given (not normalised): the test sends texts sampled from the rows' own regexes.

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;

use std::fmt::Write as _;

use std::io::{BufRead as _, Write as _};

use corpus_eval::{all_texts, parse_json};
use reflex_core::injection::{normalized_form, row_sources, RowSource};
use regex::Regex;

/// `s` as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `Rule::keeps`: false when, past any run of ' ', ',' and '-', an `unless` word follows.
fn keeps(row: &RowSource, text: &str, end: usize) -> bool {
    let rest = text[end..].trim_start_matches([' ', ',', '-']);
    !row.unless.iter().any(|u| rest.starts_with(u))
}

/// Whether the prefilter would run the row: a trigger word occurs and, if it has `needs`,
/// one of those too.
fn armed(row: &RowSource, text: &str) -> bool {
    row.triggers.iter().any(|t| text.contains(t))
        && (row.needs.is_empty() || row.needs.iter().any(|t| text.contains(t)))
}

/// Rotates ASCII letters by 13, as the core's ROT13 rescan does.
fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => (c as u8 + 13) as char,
            'n'..='z' | 'N'..='Z' => (c as u8 - 13) as char,
            _ => c,
        })
        .collect()
}

/// `"rows": {...}, "armed": [...]` for `text` (with the given key names).
fn report(rows: &[(RowSource, Regex)], text: &str, rows_key: &str, armed_key: &str) -> String {
    let mut found = Vec::new();
    let mut on = Vec::new();
    for (i, (row, re)) in rows.iter().enumerate() {
        if armed(row, text) {
            on.push(i.to_string());
        }
        let hits: Vec<String> =
            re.find_iter(text).filter(|m| keeps(row, text, m.end())).map(|m| quote(m.as_str())).collect();
        if !hits.is_empty() {
            found.push(format!("\"{i}\": [{}]", hits.join(", ")));
        }
    }
    format!("{}: {{{}}}, {}: [{}]", quote(rows_key), found.join(", "), quote(armed_key), on.join(", "))
}

fn main() {
    let rows: Vec<(RowSource, Regex)> = row_sources()
        .into_iter()
        .map(|r| {
            let re = Regex::new(&r.source).unwrap_or_else(|e| panic!("{}: {e}", r.source));
            (r, re)
        })
        .collect();
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
