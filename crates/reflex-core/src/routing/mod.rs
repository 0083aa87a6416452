//! Routing hints: where a checked request should go next and which arms it probably needs.
//!
//! CONTRACT: pure function of the text and the check's verdicts.
//!
//! ```
//! use reflex_core::routing::{route, Complexity, Route};
//! let hint = route("Search the docs for the rate limit, then write a script to test it.", false, false, false);
//! assert_eq!(hint.route, Route::Orchestrator);
//! assert_eq!(hint.complexity, Complexity::Moderate);
//! assert_eq!(hint.suggested_arms, ["planner", "retriever", "coder", "judge"]);
//! ```
//!
//! One pass over the bytes, no regex, no allocation: words are matched
//! against small keyword tables (ASCII case-folded, so "SEARCH" counts), and cheap shape
//! signals are counted on the way. The hints only steer the planner, so they favour being
//! cheap and predictable over being clever.

mod classes;
mod keywords;
mod scan;

#[cfg(test)]
use classes::is_word_byte;
#[cfg(test)]
use keywords::KEYWORDS;

/// Where the request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Cache,
    Orchestrator,
    Blocked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complexity {
    Simple,
    Moderate,
    Complex,
}

/// Arms by name: planner, executor, coder, judge, guardian, retriever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routing {
    pub route: Route,
    pub complexity: Complexity,
    pub suggested_arms: Arms,
}

/// The suggested arms, at most the six, in a fixed array: a `Vec` cost every check, a clean text
/// included, a malloc and a free (~150 instructions). Reads as a slice.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Arms {
    names: [&'static str; 6],
    len: usize,
}

impl Arms {
    fn push(&mut self, arm: &'static str) {
        self.names[self.len] = arm;
        self.len += 1;
    }
}

impl std::ops::Deref for Arms {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        &self.names[..self.len]
    }
}

impl std::fmt::Debug for Arms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<const N: usize> PartialEq<[&str; N]> for Arms {
    fn eq(&self, other: &[&str; N]) -> bool {
        **self == *other
    }
}

impl Route {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Route::Cache => "cache",
            Route::Orchestrator => "orchestrator",
            Route::Blocked => "blocked",
        }
    }
}

impl Complexity {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Complexity::Simple => "simple",
            Complexity::Moderate => "moderate",
            Complexity::Complex => "complex",
        }
    }
}

/// Suggests a route, a complexity and arms for `text`.
///
/// Arms come in a fixed order: planner (for moderate and complex requests), then retriever,
/// executor, coder, judge, guardian as their keywords appear; guardian also when `pii_found`.
/// They are computed whatever the route, so a caller can log what a blocked request wanted.
#[must_use]
pub fn route(text: &str, cache_hit: bool, blocked: bool, pii_found: bool) -> Routing {
    let route = if blocked {
        Route::Blocked
    } else if cache_hit {
        Route::Cache
    } else {
        Route::Orchestrator
    };
    let signals = Signals::scan(text);
    let complexity = signals.complexity();
    let mut suggested_arms = Arms::default();
    if complexity != Complexity::Simple {
        suggested_arms.push("planner");
    }
    for (arm, wanted) in [
        ("retriever", signals.retriever),
        ("executor", signals.executor),
        ("coder", signals.coder),
        ("judge", signals.judge),
        ("guardian", signals.guardian || pii_found),
    ] {
        if wanted {
            suggested_arms.push(arm);
        }
    }
    Routing {
        route,
        complexity,
        suggested_arms,
    }
}

/// What one pass over the text counted.
#[derive(Debug, Default, PartialEq)]
#[allow(clippy::struct_excessive_bools)] // one flag per arm is the plainest shape here
struct Signals {
    bytes: usize,
    sentences: u32,
    clauses: u32,
    sequencing: u32,
    list_items: u32,
    code_fences: u32,
    retriever: bool,
    executor: bool,
    coder: bool,
    judge: bool,
    guardian: bool,
}

/// Words the scan cares about; everything else is `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    Retriever,
    Executor,
    Coder,
    Judge,
    Guardian,
    /// "then", "finally", …: the request is a sequence of steps.
    Sequence,
    // Halves of two-word phrases.
    Look,
    Up,
    Fix,
    Bug,
    Article,
    Personal,
    Data,
    After,
    That,
    Other,
}

/// What the words read so far leave open for the next one: the first half of a two-word
/// phrase ("look" up, "fix" bug, "fix the" bug, "personal" data, "after" that), or a
/// sequence word (so that "then after that" counts one step, not two). One small state in
/// place of the two previous words: a word the scan skips on its first letters resets it to `None`
/// and needs nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phrase {
    None,
    /// The previous word was a sequence word. Ordered before the phrase halves: up to here
    /// the next word counts only if it is a keyword that stands alone.
    Sequence,
    Look,
    Fix,
    FixArticle,
    Personal,
    After,
    /// "after" right after a sequence word.
    SequenceAfter,
}

/// Reads the word starting at `bytes[0]`; returns its length and what it is.
#[cfg(test)]
fn read_word(bytes: &[u8]) -> (usize, Word) {
    let len = classes::word_len(bytes);
    (len, if len == 0 { Word::Other } else { keywords::classify(bytes, len) })
}

impl Signals {
    /// Counts `word`, read while `phrase` was open; returns what it leaves open.
    fn note(&mut self, word: Word, phrase: Phrase) -> Phrase {
        match word {
            Word::Retriever => self.retriever = true,
            Word::Executor => self.executor = true,
            Word::Coder => self.coder = true,
            Word::Judge => self.judge = true,
            Word::Guardian => self.guardian = true,
            Word::Sequence => {
                self.sequencing += 1;
                return Phrase::Sequence;
            }
            Word::Look => return Phrase::Look,
            Word::Fix => return Phrase::Fix,
            Word::Personal => return Phrase::Personal,
            Word::After if phrase == Phrase::Sequence => return Phrase::SequenceAfter,
            Word::After => return Phrase::After,
            Word::Article if phrase == Phrase::Fix => return Phrase::FixArticle,
            Word::Up if phrase == Phrase::Look => self.retriever = true,
            Word::Bug if matches!(phrase, Phrase::Fix | Phrase::FixArticle) => self.coder = true,
            Word::Data if phrase == Phrase::Personal => self.guardian = true,
            // "and then after that" is one step, not two.
            Word::That if phrase == Phrase::After => self.sequencing += 1,
            _ => {}
        }
        Phrase::None
    }

    fn complexity(&self) -> Complexity {
        let arms = [
            self.retriever,
            self.executor,
            self.coder,
            self.judge,
            self.guardian,
        ]
        .iter()
        .filter(|&&wanted| wanted)
        .count();
        let score = tier(self.bytes, 300, 1_000)
            + tier(self.sentences as usize, 3, 6)
            + tier(self.clauses as usize, 3, usize::MAX)
            + tier(self.sequencing as usize, 1, 2)
            + tier(self.list_items as usize, 2, 4)
            + tier(self.code_fences as usize, 1, usize::MAX)
            + tier(arms, 2, 3);
        match score {
            0 | 1 => Complexity::Simple,
            2 | 3 => Complexity::Moderate,
            _ => Complexity::Complex,
        }
    }
}

/// 0 below `one`, 1 from `one`, 2 from `two`.
fn tier(value: usize, one: usize, two: usize) -> u32 {
    u32::from(value >= one) + u32::from(value >= two)
}

/// The length of a list marker at the start of a line ("- ", "* ", "+ ", "1. ", "12) "), if any.
fn list_marker(line: &[u8]) -> Option<usize> {
    if let [b'-' | b'*' | b'+', b' ', ..] = line {
        return Some(2);
    }
    let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
    let after = line.get(digits..digits + 2)?;
    ((1..=3).contains(&digits) && matches!(after, [b'.' | b')', b' '])).then_some(digits + 2)
}

#[cfg(test)]
mod tests;
