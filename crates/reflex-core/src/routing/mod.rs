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
//! One pass over the bytes, no regex, no allocation but the arms list: words are matched
//! against small keyword tables (ASCII case-folded, so "SEARCH" counts), and cheap shape
//! signals are counted on the way. The hints only steer the planner, so they favour being
//! cheap and predictable over being clever.

mod keywords;

use keywords::{classify, classify_head, may_stand_alone};
use crate::lanes;
use wide::u8x16;
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
    pub suggested_arms: Vec<&'static str>,
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
    let mut suggested_arms = Vec::with_capacity(6);
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
/// place of the two previous words: a word the scan skips on its shape resets it to `None`
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
    let len = word_len(bytes);
    (len, if len == 0 { Word::Other } else { classify(bytes, len) })
}

/// The length of the run of word bytes at the start of `bytes`, sixteen bytes at a time with
/// the block scan's own classes: the byte loop's exit, one per word at an unpredictable length,
/// was most of the scan's cost.
fn word_len(bytes: &[u8]) -> usize {
    let mut at = 0;
    loop {
        // Spaces (not word bytes) past the end.
        let mut sixteen = [b' '; 16];
        let rest = &bytes[at..];
        let n = rest.len().min(16);
        sixteen[..n].copy_from_slice(&rest[..n]);
        let run = (!lane_classes(lanes::load(&sixteen)).0).trailing_zeros() as usize;
        if run < 16 {
            return at + run;
        }
        at += 16;
    }
}

/// Word bytes, one at a time (what [`lane_classes`] is tested against): letters, digits, `_`, `'`
/// and any non-ASCII byte (so "naïve" stays one word).
#[cfg(test)]
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[usize::from(b)]
}

#[cfg(test)]
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'\'' || byte >= 0x80;
        b += 1;
    }
    table
};

fn is_space_or_end(bytes: &[u8], i: usize) -> bool {
    bytes.get(i).copied().unwrap_or(b' ').is_ascii_whitespace()
}

/// Bytes per block of the scan: one bit of a `u64` each.
const BLOCK: usize = 64;

/// Two masks over the first [`BLOCK`] bytes of `bytes` (spaces past its end), bit `k` for byte
/// `k`: the word bytes, and the bytes that are neither word bytes nor spaces (punctuation, line
/// breaks, tabs…). Sixteen bytes at a time in vector registers, each class one compare, and
/// one `movemask` per class gathers the bits (a multiply per eight bytes did it before).
fn block_masks(bytes: &[u8]) -> (u64, u64) {
    let mut padded = [b' '; BLOCK];
    let block = if let Some(block) = bytes.first_chunk::<BLOCK>() {
        block
    } else {
        padded[..bytes.len()].copy_from_slice(bytes);
        &padded
    };
    let (mut words, mut others) = (0, 0);
    for (n, sixteen) in block.chunks_exact(16).enumerate() {
        let (word, space) = lane_classes(lanes::load(sixteen));
        words |= u64::from(word) << (16 * n);
        others |= u64::from(!word & !space) << (16 * n);
    }
    (words, others)
}

/// The word bytes ([`is_word_byte`]) and the spaces of sixteen bytes, as bit masks.
fn lane_classes(v: u8x16) -> (u16, u16) {
    let marks = lanes::eq(v, b'_') | lanes::eq(v, b'\'');
    // A byte's top bit is set from 0x80: the bits of the bytes themselves are the non-ASCII.
    let word = lanes::bits(lanes::letters(v) | lanes::within(v, b'0', b'9') | marks) | lanes::bits(v);
    (word, lanes::bits(lanes::eq(v, b' ')))
}

/// Bits `from..to` set (`from <= to <= 64`).
fn bits(from: usize, to: usize) -> u64 {
    let below = |n: usize| if n >= 64 { u64::MAX } else { (1 << n) - 1 };
    below(to) & !below(from)
}

impl Signals {
    /// Goes block by block: two masks per block say where words start and where the few other
    /// bytes that count are, so the bytes between are never looked at one by one, and each
    /// word's length comes from the mask instead of from the word before it (a byte loop that
    /// chained every word to the previous one was most of a check's fixed cost). A block's
    /// words are read in a loop of their own, then its other bytes, up to a line break.
    fn scan(text: &str) -> Signals {
        let bytes = text.as_bytes();
        let mut s = Signals {
            bytes: bytes.len(),
            ..Signals::default()
        };
        let mut open_sentence = false;
        let mut phrase = Phrase::None;
        let mut i = s.line_start(bytes, 0, &mut open_sentence);
        // Invariant: the byte before `i` is not a word byte, so bit 0 of a block can start a word.
        'blocks: while i < bytes.len() {
            // The block and the 16 bytes after it (spaces past the end of the text), so that a
            // word inside the block is read from a fixed-size buffer, with no bounds to check.
            let rest = &bytes[i..];
            let block = if let Some(&block) = rest.first_chunk::<{ BLOCK + 16 }>() {
                block
            } else {
                let mut block = [b' '; BLOCK + 16];
                block[..rest.len()].copy_from_slice(rest);
                block
            };
            let (words, others) = block_masks(&block);
            // A line break ends the block: what follows it is read from the next line's start.
            let mut newline = BLOCK;
            let mut rest_others = others;
            while rest_others != 0 {
                let k = rest_others.trailing_zeros() as usize;
                rest_others &= rest_others - 1;
                if block[k] == b'\n' {
                    newline = k;
                    break;
                }
            }
            let below_newline = bits(0, newline);
            let starts = words & !(words << 1) & below_newline;
            // The words first, in a loop of their own (the few other bytes do not need them
            // in order, only whether a word came between two sentence stops: `starts` says).
            // The word running on past the block, if any, is read last and whole; the rest
            // end inside the block, where the mask gives their length.
            let last = BLOCK - (!words).leading_zeros() as usize;
            let runs_on = last < BLOCK && starts >> last & 1 == 1;
            let mut left = if runs_on { starts & !(1 << last) } else { starts };
            // Where each of those words ends, in the same order: the word running on past the
            // block ends at bit 63 here, and is left out.
            let mut ends = words & !(words >> 1) & below_newline & !(u64::from(runs_on) << 63);
            while left != 0 {
                let k = left.trailing_zeros() as usize;
                left &= left - 1;
                let end = ends.trailing_zeros() as usize;
                ends &= ends.wrapping_sub(1);
                // Most words are skipped on their shape: unless a phrase is open, only the
                // keywords that stand alone count.
                if phrase <= Phrase::Sequence && !may_stand_alone(block[k], block[end], end + 1 - k) {
                    phrase = Phrase::None;
                    continue;
                }
                let word = classify_head(block[k..k + 16].try_into().unwrap_or(&[0; 16]), end + 1 - k);
                phrase = s.note(word, phrase);
            }
            let mut next = i + BLOCK;
            if runs_on {
                // Most such words end within the 16 bytes read past the block; a longer one
                // is measured in the text.
                let past = (!lane_classes(lanes::load(&block[BLOCK..])).0).trailing_zeros() as usize;
                let at = i + last;
                let word = if past < 16 {
                    let len = BLOCK - last + past;
                    next = at + len;
                    classify_head(block[last..last + 16].try_into().unwrap_or(&[0; 16]), len)
                } else {
                    let len = word_len(&bytes[at..]);
                    next = at + len;
                    classify(&bytes[at..], len)
                };
                phrase = s.note(word, phrase);
            }
            // Then the other bytes up to the line break. A sentence is open at `k` when it was
            // at the block's start, or a word started since, and no full stop was counted after
            // that (`counted`: where the bytes after the last one counted in this block begin).
            let carried = open_sentence;
            let mut counted = 0;
            let is_open = |k: usize, counted: usize| (counted == 0 && carried) || starts & bits(counted, k) != 0;
            let mut left = others & below_newline;
            while left != 0 {
                let k = left.trailing_zeros() as usize;
                left &= left - 1;
                match block[k] {
                    b'.' | b'!' | b'?' if is_open(k, counted) && is_space_or_end(bytes, i + k + 1) => {
                        s.sentences += 1;
                        counted = k + 1;
                    }
                    b',' | b';' | b':' => s.clauses += 1,
                    _ => {}
                }
            }
            open_sentence = is_open(newline, counted);
            if newline < BLOCK {
                i = s.line_start(bytes, i + newline + 1, &mut open_sentence);
                continue 'blocks;
            }
            i = next;
        }
        if open_sentence {
            s.sentences += 1;
        }
        s
    }

    /// At the start of a line (`from`): skips the indent, counts a list marker or a code fence
    /// there, and returns where the scan goes on.
    fn line_start(&mut self, bytes: &[u8], from: usize, open_sentence: &mut bool) -> usize {
        let indent = bytes[from..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let i = from + indent;
        if let Some(marker_len) = list_marker(&bytes[i..]) {
            // A new item ends the previous one even without a full stop.
            self.sentences += u32::from(*open_sentence);
            *open_sentence = false;
            self.list_items += 1;
            return i + marker_len;
        }
        if bytes[i..].starts_with(b"```") || bytes[i..].starts_with(b"~~~") {
            self.code_fences += 1;
            return i + 3;
        }
        i
    }

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
