//! Whole-word, case-insensitive search for a list of literal terms (a guardian's blocked terms)
//! in one Aho-Corasick pass: time linear in the text, whatever the terms.
//!
//! ```
//! use reflex_core::terms::Terms;
//! let terms = Terms::new(&["Project Falcon", "project"]).unwrap();
//! // UTF-16 offsets of each match; `cat` is no whole word of `category`
//! assert_eq!(terms.find("a PROJECT  falcon, a project, category"), vec![(2, 17), (21, 28)]);
//! ```
//!
//! It matches as the JavaScript pattern `(?<![\p{L}\p{N}_])(?:t1|t2|…)(?![\p{L}\p{N}_])` with the
//! flags `giu`, each term's inner white space read as `\s+`, the terms longest first. To do that
//! with literals only, the text and each term are rewritten the same way into bytes: each char
//! becomes its simple case fold, each run of white space one space, and two marker bytes that UTF-8
//! never holds stand where a term may end (before a char that is no letter, digit or `_`, and at
//! the end) and where one may start (after such a char, and at the start). A term becomes its
//! rewrite from its start marker to its end marker, so every match leftmost-longest search finds
//! in the text is a whole word: a longer term whose end is inside a word does not match, and the
//! shorter one that fits is found instead.

use std::collections::HashMap;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange, HirKind};

/// Marks a place a term may end: the next char is no word char, or the text ends.
const END: u8 = 0xFE;
/// Marks a place a term may start: the char before is no word char, or the text starts.
const START: u8 = 0xFF;

/// A compiled list of terms.
pub struct Terms {
    automaton: Option<AhoCorasick>,
}

/// A term list the automaton cannot hold (too large for its state ids).
#[derive(Debug)]
pub struct TermsError(pub String);

impl Terms {
    /// Compiles `terms`; an empty term, or one of white space only, matches nothing.
    ///
    /// # Errors
    /// When the automaton for the terms would exceed its size limits.
    pub fn new<S: AsRef<str>>(terms: &[S]) -> Result<Self, TermsError> {
        let mut folds = Folds::default();
        let mut patterns = Vec::with_capacity(terms.len());
        for term in terms {
            let mut bytes = Vec::new();
            rewrite(term.as_ref().trim_matches(is_space), &mut folds, &mut bytes, |_, _| {});
            // keep what lies between the term's own start marker and its end marker
            let from = bytes.iter().position(|&b| b == START);
            let to = bytes.iter().rposition(|&b| b == END);
            if let (Some(from), Some(to)) = (from, to) {
                if to > from + 1 {
                    patterns.push(bytes[from..=to].to_vec());
                }
            }
        }
        if patterns.is_empty() {
            return Ok(Terms { automaton: None });
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&patterns)
            .map_err(|e| TermsError(e.to_string()))?;
        Ok(Terms { automaton: Some(automaton) })
    }

    /// The whole-word matches in `text`, left to right and not overlapping, as UTF-16
    /// `(start, end)` offsets.
    #[must_use]
    pub fn find(&self, text: &str) -> Vec<(u32, u32)> {
        let Some(automaton) = &self.automaton else {
            return Vec::new();
        };
        let mut folds = Folds::default();
        let mut bytes = Vec::with_capacity(text.len() + text.len() / 4);
        rewrite(text, &mut folds, &mut bytes, |_, _| {});
        let spans: Vec<(usize, usize)> = automaton.find_iter(&bytes).map(|m| (m.start(), m.end() - 1)).collect();
        if spans.is_empty() {
            return Vec::new();
        }
        // a second pass names the UTF-16 offset of each marker a match starts or ends on
        let mut found = Vec::with_capacity(spans.len());
        let mut next = 0;
        let mut start = 0;
        bytes.clear();
        rewrite(text, &mut folds, &mut bytes, |at, offset| {
            let Some(&(from, to)) = spans.get(next) else { return };
            if at == from {
                start = offset;
            }
            if at == to {
                found.push((start, offset));
                next += 1;
            }
        });
        found
    }
}

/// Writes `text`'s rewrite to `out` (see the module's note), calling `mark(index, offset)` with
/// the index in `out` and the UTF-16 offset in `text` of every marker it writes.
fn rewrite(text: &str, folds: &mut Folds, out: &mut Vec<u8>, mut mark: impl FnMut(usize, u32)) {
    let mut offset = 0u32;
    let mut after_word = false;
    let mut in_space = false;
    for c in text.chars() {
        let here = offset;
        offset += c.len_utf16() as u32;
        let space = is_space(c);
        if space && in_space {
            continue;
        }
        in_space = space;
        let word = !space && is_word(c);
        if !word {
            mark(out.len(), here);
            out.push(END);
        }
        if !after_word {
            mark(out.len(), here);
            out.push(START);
        }
        after_word = word;
        let folded = if space { ' ' } else { folds.fold(c) };
        let mut buffer = [0; 4];
        out.extend_from_slice(folded.encode_utf8(&mut buffer).as_bytes());
    }
    mark(out.len(), offset);
    out.push(END);
}

/// JavaScript's `\s`: its white space and line terminators.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{b}'
            | '\u{c}'
            | '\r'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// A letter, a digit (any `\p{N}`) or `_`.
fn is_word(c: char) -> bool {
    static WORD: OnceLock<Vec<(char, char)>> = OnceLock::new();
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    let ranges = WORD.get_or_init(|| {
        let hir = regex_syntax::parse(r"[\p{L}\p{N}_]").expect("a valid class");
        match hir.kind() {
            HirKind::Class(regex_syntax::hir::Class::Unicode(class)) => {
                class.ranges().iter().map(|r| (r.start(), r.end())).collect()
            }
            _ => Vec::new(),
        }
    });
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Simple case folding, one representative per class of chars that fold together (the smallest,
/// lowercased when ASCII), as JavaScript's `iu` flags compare them; remembered per char.
#[derive(Default)]
struct Folds {
    known: HashMap<char, char>,
}

impl Folds {
    fn fold(&mut self, c: char) -> char {
        if c.is_ascii() {
            return c.to_ascii_lowercase();
        }
        *self.known.entry(c).or_insert_with(|| {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
            class.case_fold_simple();
            let least = class.ranges().first().map_or(c, ClassUnicodeRange::start);
            least.to_ascii_lowercase()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Terms;

    fn found(terms: &[&str], text: &str) -> Vec<String> {
        let units: Vec<u16> = text.encode_utf16().collect();
        Terms::new(terms)
            .unwrap()
            .find(text)
            .into_iter()
            .map(|(s, e)| String::from_utf16(&units[s as usize..e as usize]).unwrap())
            .collect()
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(found(&["cat"], "cat category bobcat cat_x cat."), vec!["cat", "cat"]);
    }

    #[test]
    fn longest_first_and_falls_back_to_a_shorter_term() {
        assert_eq!(found(&["project", "project falcon"], "Project Falcon"), vec!["Project Falcon"]);
        assert_eq!(found(&["project", "project falcon"], "project falconx"), vec!["project"]);
    }

    #[test]
    fn inner_white_space_matches_any_run() {
        assert_eq!(found(&["project falcon"], "project\n\t falcon"), vec!["project\n\t falcon"]);
        assert_eq!(found(&["project  falcon"], "project falcon"), vec!["project falcon"]);
    }

    #[test]
    fn punctuation_terms_and_adjacent_matches() {
        assert_eq!(found(&["p.o."], "send to P.O. box"), vec!["P.O."]);
        assert_eq!(found(&["."], ".."), vec![".", "."]);
        assert_eq!(found(&["a", "b"], "a b"), vec!["a", "b"]);
    }

    #[test]
    fn unicode_case_and_offsets() {
        assert_eq!(found(&["straße"], "die STRASSE, die Straße"), vec!["Straße"]);
        assert_eq!(found(&["σοφία"], "😀 ΣΟΦΊΑ"), vec!["ΣΟΦΊΑ"]);
        assert_eq!(found(&["kelvin"], "\u{212a}elvin"), vec!["\u{212a}elvin"]);
        assert_eq!(found(&["é"], "café é"), vec!["é"]);
    }

    #[test]
    fn empty_terms_match_nothing() {
        assert!(found(&["", "  "], "anything").is_empty());
        assert!(found(&[], "anything").is_empty());
    }
}
