//! JSON strings for the examples that print JSON lines for the TypeScript side
//! (`rules_dump`, `row_matches`, `normal_forms`): `#[path = "common/json.rs"] mod json;`.

#![allow(dead_code)] // each example uses one or both

use std::fmt::Write as _;

/// Appends `s` to `out` as a JSON string: quotes and backslashes escaped, control characters
/// and U+2028/U+2029 as `\uXXXX` (valid JSON, and safe to read as JavaScript source too).
pub fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `s` as a JSON string (see `push_string`).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_string(&mut out, s);
    out
}
