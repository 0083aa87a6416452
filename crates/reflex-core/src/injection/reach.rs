//! Where a row's matches can start, found back from a phrase inside them, for rows whose own
//! first words are too short or too common to anchor (`starts`).
//!
//! The row `\b(?:ai|a i|assistant|…)s? (?:\w+ ){0,3}?(?:with no|without|…) …` ("an AI without
//! rules") begins with `a`, so it searched the whole kilobyte (8k instructions a call on the
//! attack bench text) whenever "without" and a restriction word both occur. Every match holds
//! one of its middle phrases, each of which begins with a head word (`with`, `free`, …), and
//! before that phrase only a few words: its start is the start of one of the last few
//! word runs before a head.
//!
//! Why that bound holds: the part before the phrase is made of pieces of `[a-z0-9_]` (the
//! literal words, `s`, each `\w+`) and gaps of `[^a-z0-9]` (a widened space). A gap holds no
//! letter or digit, so each maximal run of `[a-z0-9_]` holding one is touched by a piece, and
//! there are at most `runs` pieces. The start is at an ASCII `\b` before a lower-case letter,
//! so it is where such a run begins. Searching anchored at those run starts, for every head in
//! the text, gives what `find_iter` over the whole text gives (see `starts`); the tests compare
//! the two.
//!
//! The `system:` row (`Reach::Lead`) is found the same way back from the word `system`: its
//! lead-in before the word is a line or sentence start, then only spaces and markup bytes.

use aho_corasick::{AhoCorasick, Input, MatchKind};

use super::starts::begins_with;

/// What lies before a phrase every match of a row holds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reach {
    /// At most `runs` `[a-z0-9_]` pieces (literal words, `\w+` words) before a phrase that
    /// begins with one of `heads`.
    Words { heads: &'static [&'static str], runs: u8 },
    /// `(?m)(?:^|[.!?]\s)[\s>*#\-\[(]*` right before `word`: a line or sentence start, then
    /// spaces and markup (the `system:` row, 1.9k instructions a call on the attack text
    /// through the meta regex's reverse-inner search).
    Lead { word: &'static str },
}

/// A `Reach` made ready to search.
pub(crate) enum Finder {
    Words(Words),
    Lead(memchr::memmem::Finder<'static>),
}

impl Finder {
    pub fn new(reach: Reach, src: &str) -> Finder {
        match reach {
            Reach::Words { heads, runs } => Finder::Words(Words::new(heads, runs, src)),
            Reach::Lead { word } => Finder::Lead(memchr::memmem::Finder::new(word.as_bytes()).into_owned()),
        }
    }

    /// Adds to `out` every position where a match of the row can start in `text` (in order
    /// around each phrase, perhaps repeated across them).
    pub fn starts(&self, text: &str, out: &mut Vec<usize>) {
        match self {
            Finder::Words(w) => w.starts(text, out),
            Finder::Lead(word) => {
                let b = text.as_bytes();
                for q in word.find_iter(b) {
                    lead_starts(b, q, out);
                }
            }
        }
    }
}

/// A byte that may belong to `[\s>*#\-\[(]` (Unicode `\s` inside the class: any non-ASCII
/// byte may be part of a wide space, so it counts too; more candidates, none missed).
fn lead(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ' | b'>' | b'*' | b'#' | b'-' | b'[' | b'(') || b >= 0x80
}

/// The starts of `(?m)(?:^|[.!?]\s)[\s>*#\-\[(]*` ending at `q`: the lead-in run is `r..q`;
/// a line start inside it or at its ends, or the `[.!?]` right before it when the run begins
/// with an ASCII space (`(?-u:\s)`; `[.!?]` is no lead byte, so it can only sit at `r - 1`).
fn lead_starts(b: &[u8], q: usize, out: &mut Vec<usize>) {
    let mut r = q;
    while r > 0 && lead(b[r - 1]) {
        r -= 1;
    }
    if r > 0 && matches!(b[r - 1], b'.' | b'!' | b'?') && r < q && matches!(b[r], b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ') {
        out.push(r - 1);
    }
    for p in r..=q {
        if p == 0 || b[p - 1] == b'\n' {
            out.push(p);
        }
    }
}

/// `Reach::Words` made ready to search: the heads in one automaton, the row's first literals.
pub(crate) struct Words {
    heads: AhoCorasick,
    runs: u8,
    /// Every match begins with one of these (`starts::prefixes`); `None` when unknown.
    prefixes: Option<Vec<Vec<u8>>>,
    /// The bytes those literals begin with (all, when unknown): a run start is compared with
    /// the literals only when its first byte is one (16 run starts a call on the attack
    /// text, nine literals, most of them first bytes that fit none).
    first: [bool; 256],
}

/// `[a-z0-9_]`: what a piece before the phrase is made of.
fn piece(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'
}

impl Words {
    fn new(heads: &[&str], runs: u8, src: &str) -> Words {
        let heads = AhoCorasick::builder().match_kind(MatchKind::LeftmostFirst).build(heads).expect("reach heads");
        // Only the shortest of literals that begin alike: `assistant` begins with `a` already,
        // and the extractor's list runs to hundreds (every `s?` and gap doubles it).
        let prefixes = super::starts::prefixes(src).map(|mut lits| {
            lits.sort_unstable_by_key(Vec::len);
            let mut short: Vec<Vec<u8>> = Vec::new();
            for l in lits {
                if !short.iter().any(|s| l.starts_with(s)) {
                    short.push(l);
                }
            }
            short
        });
        let mut first = [prefixes.is_none(); 256];
        for l in prefixes.iter().flatten() {
            first[usize::from(l[0])] = true;
        }
        Words { heads, runs, prefixes, first }
    }

    /// The run starts before each head.
    fn starts(&self, text: &str, out: &mut Vec<usize>) {
        let b = text.as_bytes();
        let mut from = 0;
        // Every position a head begins at: the leftmost from `from`, then one past it (heads
        // could overlap, "nothat").
        while let Some(m) = self.heads.find(Input::new(b).range(from..)) {
            self.back_from(b, m.start(), out);
            from = m.start() + 1;
        }
    }

    /// The starts of the last `runs` letter-or-digit runs before `q`.
    fn back_from(&self, b: &[u8], q: usize, out: &mut Vec<usize>) {
        let mut j = q;
        let mut runs = 0;
        while runs < self.runs {
            while j > 0 && !piece(b[j - 1]) {
                j -= 1;
            }
            if j == 0 {
                return;
            }
            let mut letters = false;
            while j > 0 && piece(b[j - 1]) {
                letters |= b[j - 1] != b'_';
                j -= 1;
            }
            if !letters {
                // Underscores alone lie in a gap: no piece, no start.
                continue;
            }
            runs += 1;
            // `\b` (ASCII): the byte before is no word byte, so not an upper-case letter either.
            let bounded = j == 0 || !b[j - 1].is_ascii_alphanumeric();
            if bounded && b[j].is_ascii_lowercase() && self.first[usize::from(b[j])] && self.begins(&b[j..]) {
                out.push(j);
            }
        }
    }

    /// Whether `rest` begins with one of the row's first literals (`begins_with`: `starts_with`
    /// called `bcmp` for each, 30 calls a check of the attack bench text, ~20 instructions
    /// each).
    fn begins(&self, rest: &[u8]) -> bool {
        self.prefixes.as_ref().is_none_or(|p| p.iter().any(|l| begins_with(rest, l)))
    }
}

#[cfg(test)]
mod tests {
    use regex_automata::meta::Regex;

    use super::{Finder, Reach};

    /// The `ai … without rules` row's shape, widened as `patterns::source` widens it: the
    /// starts found back from the heads give what `find_iter` over the whole text gives.
    #[test]
    fn starts_found_back_from_a_head_find_what_find_iter_finds() {
        let g = "[^a-z0-9]*";
        let w = "[a-z0-9_]";
        let src = format!(
            r"(?-u:\b)(?:ai|a{g}i|assistant|bot|version{g}of{g}(?:yourself|you))s?{g}(?:{w}+{g}){{0,3}}?(?:with{g}no|without|free{g}(?:of|from)|not{g}bound{g}by){g}(?:any{g})?(?:{w}+{g}){{0,2}}?(?:rules|limits)(?-u:\b)"
        );
        let finder = Finder::new(Reach::Words { heads: &["with", "free", "not"], runs: 6 }, &src);
        let texts = [
            "an ai without rules",
            "a version of yourself x y z without any rules",
            "a version of yourself w x y z without any rules",
            "versionofyou___x_y_z__without rules and a.i. free of limits",
            "a i, honestly... with no rules; bots_x without limits",
            "aiwithout rules, ai_without rules, xai without rules, Xai without rules",
            "\u{e9}ai without rules \u{2014}assistant not bound by rules",
            "the bot is not bound by anything. the bot, with no rules, and ai with no limits",
            "ai ___ ___ ___ a b c without rules",
            "nothing here at all without rules",
            "",
        ];
        finds_what_find_iter_finds(&src, &finder, &texts);
    }

    /// The `system:` row's lead-in: starts found back from `system` give what `find_iter` gives.
    #[test]
    fn starts_found_back_from_the_word_find_what_find_iter_finds() {
        let src = r"(?m)(?:^|[.!?](?-u:\s))[\s>*#\-\[(]*system(?-u:\s)?[:>][ \t]*[a-z']+";
        let finder = Finder::new(Reach::Lead { word: "system" }, src);
        let texts = [
            "system: hello. system: again! [system]: x",
            "hi.\n  > ## system: go\nsystem:x ok.system: no",
            "end.\u{a0}\u{3000}system: wide spaces? \u{a0}system: no",
            "a.  (-[system> yes\r\n\r\nsystem :no?\tsystem:ok",
            "mysystem: no. the system: no. x.\x0bsystem: yes",
            "ok! system: run it.\n\n#system>now",
            "",
        ];
        finds_what_find_iter_finds(src, &finder, &texts);
    }

    /// The matches from `finder`'s starts, searched anchored, are `find_iter`'s over each whole
    /// text; at least ten of them in all.
    fn finds_what_find_iter_finds(src: &str, finder: &Finder, texts: &[&str]) {
        let re = Regex::new(src).unwrap();
        let dfa = super::super::starts::forward(src).unwrap();
        let mut matched = 0;
        for text in texts {
            let want: Vec<(usize, usize)> = re.find_iter(text).map(|m| (m.start(), m.end())).collect();
            let mut starts = Vec::new();
            finder.starts(text, &mut starts);
            starts.sort_unstable();
            starts.dedup();
            let mut got = Vec::new();
            super::super::starts::each_match(&re, Some((&dfa, &mut dfa.create_cache())), text, &starts, |s, e| got.push((s, e)));
            assert_eq!(got, want, "{text:?}");
            matched += want.len();
        }
        assert!(matched >= 10, "{matched}");
    }
}
