//! Regular expressions matched by the `regex` crate's engines: time linear in the text whatever
//! the pattern (no backtracking, no look-around, no back-references), for patterns that run over
//! client text and that a backtracking engine could stall on.
//!
//! ```
//! use reflex_core::linear_regex::LinearRegex;
//! let re = LinearRegex::new(r"(?i)^exit\s+code\s+(\d+)$").unwrap();
//! let found = re.captures("Exit code 3").unwrap();
//! assert_eq!(found.groups, vec![Some("Exit code 3".into()), Some("3".into())]);
//! ```

use regex::{Captures, Regex, RegexBuilder};

use crate::utf16::Utf16Map;

/// A match: where it starts (in UTF-16 units, as JavaScript counts) and its groups' text, the
/// whole match first (`None` for a group that took no part).
#[derive(Debug, PartialEq, Eq)]
pub struct Found {
    pub index: usize,
    pub groups: Vec<Option<String>>,
}

/// Compiled programs larger than this are refused (the crate's default is 10 MiB).
const SIZE_LIMIT: usize = 4 << 20;

pub struct LinearRegex(Regex);

impl LinearRegex {
    /// Compiles `pattern` in the `regex` crate's syntax (flags inline, as `(?i)`).
    ///
    /// # Errors
    /// The parser's message for a pattern it refuses or one past the size limit.
    pub fn new(pattern: &str) -> Result<Self, String> {
        RegexBuilder::new(pattern).size_limit(SIZE_LIMIT).build().map(LinearRegex).map_err(|e| e.to_string())
    }

    /// The leftmost-first match.
    #[must_use]
    pub fn captures(&self, text: &str) -> Option<Found> {
        let caps = self.0.captures(text)?;
        Some(found(&caps, &Utf16Map::new(text)))
    }

    /// Every match, left to right and not overlapping.
    #[must_use]
    pub fn captures_all(&self, text: &str) -> Vec<Found> {
        let offsets = Utf16Map::new(text);
        self.0.captures_iter(text).map(|caps| found(&caps, &offsets)).collect()
    }

    #[must_use]
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

fn found(caps: &Captures, offsets: &Utf16Map) -> Found {
    let start = caps.get(0).map_or(0, |m| m.start());
    Found { index: offsets.offset(start), groups: caps.iter().map(|g| g.map(|m| m.as_str().to_string())).collect() }
}

#[cfg(test)]
mod tests {
    use super::{Found, LinearRegex};

    #[test]
    fn groups_that_took_no_part_are_none() {
        let re = LinearRegex::new(r"^(a)|(b)$").unwrap();
        assert_eq!(re.captures("b").unwrap().groups, vec![Some("b".into()), None, Some("b".into())]);
        assert_eq!(re.captures("c"), None);
    }

    #[test]
    fn every_match_with_its_utf16_index() {
        let re = LinearRegex::new(r"x(\d)").unwrap();
        let all = re.captures_all("😀x1 éx2");
        assert_eq!(
            all,
            vec![
                Found { index: 2, groups: vec![Some("x1".into()), Some("1".into())] },
                Found { index: 6, groups: vec![Some("x2".into()), Some("2".into())] },
            ]
        );
    }

    #[test]
    fn ascii_word_boundaries_are_allowed() {
        let re = LinearRegex::new(r"(?i)(?-u:\b)fib(?-u:\b)").unwrap();
        assert!(re.is_match("the FIB number"));
        assert!(!re.is_match("fibonacci"));
    }

    #[test]
    fn look_around_is_refused() {
        assert!(LinearRegex::new(r"(?<!a)b").is_err());
    }

    #[test]
    fn a_nested_quantifier_runs_in_linear_time() {
        let re = LinearRegex::new(r"^(a+)+$").unwrap();
        let text = format!("{}!", "a".repeat(100_000));
        let started = std::time::Instant::now();
        assert!(!re.is_match(&text));
        assert!(started.elapsed().as_secs() < 2);
    }
}
