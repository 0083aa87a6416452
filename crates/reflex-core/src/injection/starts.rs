//! Where a pattern row's matches can start, so its regex runs only there.
//!
//! Every match of a row begins with one of a finite set of literals (the prefixes literal
//! extraction gives; `\bignore (…)` begins with `ignore`). When each of those literals holds
//! a trigger word at a known offset, every match start sits at that offset before a trigger
//! hit, and the trigger pass has already found all of those. Searching anchored at those
//! candidates, in order and skipping the ones inside a previous match, gives exactly what
//! `find_iter` over the whole text gives: `find_iter` reports the leftmost start where an
//! anchored match exists, and every such start is a candidate. Rows with a prefix no trigger
//! word covers (`(?:^|[.!?]\s)…`, a class of letters first) keep the whole-text search.
//!
//! Why: the attack bench text arms 57 rows, and one search over the whole kilobyte costs each
//! of them 0.1–2.7 µs even where it finds nothing; an anchored search stops within a few bytes
//! of a candidate that does not match.

use aho_corasick::{AhoCorasick, MatchKind};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::meta::Regex;
use regex_automata::nfa::thompson;
use regex_automata::{util::syntax, Anchored, Input};
use regex_syntax::hir::literal::Extractor;
use regex_syntax::hir::{Hir, HirKind, Look};

/// A trigger word (its id) that occurs `offset` bytes after the start of every match that
/// begins with one of the literals it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Anchor {
    pub word: u16,
    pub offset: u16,
}

/// The literals every match of the regex `src` begins with, or `None` when a match could begin
/// with anything (the empty literal among them, or too many to list).
pub(crate) fn prefixes(src: &str) -> Option<Vec<Vec<u8>>> {
    // Parsed as `regex` parses it (Unicode and UTF-8 on), so the literals are the real ones.
    let hir = regex_syntax::ParserBuilder::new().utf8(true).build().parse(src).ok()?;
    let mut ex = Extractor::new();
    // More room than the prefilter defaults: longer literals hold more of the words.
    ex.limit_total(2_000).limit_literal_len(64);
    let seq = ex.extract(&hir);
    let lits: Vec<Vec<u8>> = seq.literals()?.iter().map(|l| l.as_bytes().to_vec()).collect();
    // No literal would mean no match at all; keep the plain search rather than trust that.
    (!lits.is_empty() && lits.iter().all(|l| !l.is_empty())).then_some(lits)
}

/// Whether every match of the regex `src` begins at a line start (`(?m)^` first, outside any
/// alternation): then it is searched only at the text's start and after each `\n`. The
/// delimiter row `(?m)^[\s>*#]*(?:human|user|assistant|ai)\s?:` searched the whole text
/// through its reverse-suffix strategy, 2k instructions a call on the attack bench text, which
/// has no newline.
pub(crate) fn at_line_starts(src: &str) -> bool {
    let Ok(hir) = regex_syntax::ParserBuilder::new().utf8(true).build().parse(src) else { return false };
    match hir.kind() {
        HirKind::Concat(parts) => matches!(parts.first().map(Hir::kind), Some(HirKind::Look(Look::StartLF))),
        HirKind::Look(Look::StartLF) => true,
        _ => false,
    }
}

/// The text's start and every position after a `\n`, in order.
pub(crate) fn line_starts(text: &str, out: &mut Vec<usize>) {
    out.push(0);
    out.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
}

/// Whether `text` begins with `lit`, compared a byte at a time: the literals compared at a
/// candidate start are a few bytes and most differ within the first one or two, where
/// `starts_with` (and `==`) called `bcmp` for each.
pub(crate) fn begins_with(text: &[u8], lit: &[u8]) -> bool {
    text.len() >= lit.len() && text.iter().zip(lit).all(|(a, b)| a == b)
}

/// Whether a row's regex should run its own literal prefilter when it searches a whole text:
/// not when a match may begin with a single byte (the `a` of `a i`, the `i` of `i want`).
/// The prefilter then stops at nearly every word holding that letter and the search
/// restarts there, tens of instructions a byte (the `ai … without any restrictions` row: 43k
/// of the 316k the attack bench text cost), where the lazy DFA alone reads about ten.
/// Matches are the same either way; only the work differs.
pub(crate) fn prefilter_pays(src: &str) -> bool {
    prefixes(src).is_none_or(|lits| lits.iter().all(|l| l.len() > 1))
}

/// Finds which of a fixed list of words lie inside a literal.
pub(crate) struct Cover {
    ac: AhoCorasick,
}

impl Cover {
    pub fn new<S: AsRef<str>>(words: &[S]) -> Cover {
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(words.iter().map(AsRef::as_ref))
            .expect("trigger words");
        Cover { ac }
    }

    /// The longest word inside `lit` (the rarest, so the fewest candidates), leftmost first.
    pub fn best(&self, lit: &[u8]) -> Option<Anchor> {
        let mut best: Option<(usize, Anchor)> = None;
        for m in self.ac.find_overlapping_iter(lit) {
            let longer = best.is_none_or(|(len, a)| m.len() > len || (m.len() == len && m.start() < usize::from(a.offset)));
            if longer {
                let anchor = Anchor { word: u16::try_from(m.pattern().as_usize()).ok()?, offset: u16::try_from(m.start()).ok()? };
                best = Some((m.len(), anchor));
            }
        }
        best.map(|(_, a)| a)
    }
}

/// A row's lazy DFA for anchored forward searches alone, built from the same source and
/// syntax as its `meta::Regex`. An anchored search needs only the end of the match (the start
/// is the anchor), and going through the meta regex to get it cost about 140 instructions of
/// its ~400 a search (strategy dispatch, its cache pool, the reverse-search plumbing); the
/// attack bench text makes 94 such searches a call. `None` when the DFA cannot be built; a
/// search it gives up on (a non-ASCII byte under a Unicode `\b`) goes to the meta regex.
pub(crate) fn forward(src: &str) -> Option<DFA> {
    DFA::builder()
        .configure(DFA::config().cache_capacity(2 * (1 << 20)).unicode_word_boundary(true))
        .syntax(syntax::Config::new().utf8(true))
        .thompson(thompson::Config::new().nfa_size_limit(Some(10 * (1 << 20))))
        .build(src)
        .ok()
}

/// Calls `found(start, end)` for each match of `re` in `text`, as `re.find_iter(text)` would,
/// searching anchored at `starts` only (sorted, no duplicates), which must include every
/// position where a match can start. `dfa` (the row's `forward` DFA and a cache of it) finds
/// the ends where it can.
pub(crate) fn each_match(
    re: &Regex,
    mut dfa: Option<(&DFA, &mut Cache)>,
    text: &str,
    starts: &[usize],
    mut found: impl FnMut(usize, usize),
) {
    let mut next = 0;
    // One input for all the searches, its start moved to each candidate: the span starts at
    // `s`, the haystack stays whole, so `\b` still sees the byte before.
    let mut input = Input::new(text).anchored(Anchored::Yes);
    for &s in starts {
        if s < next || s > text.len() {
            continue;
        }
        input.set_start(s);
        let end = match dfa.as_mut().map(|(d, c)| d.try_search_fwd(c, &input)) {
            Some(Ok(half)) => half.map(|h| h.offset()),
            None | Some(Err(_)) => re.search(&input).map(|m| m.end()),
        };
        if let Some(e) = end {
            found(s, e);
            // Every literal is non-empty, so is every match: the next search starts at its end.
            next = e.max(s + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use regex_automata::meta::Regex;

    use super::{at_line_starts, each_match, forward, line_starts, prefilter_pays, prefixes, Anchor, Cover};

    #[test]
    fn prefixes_hold_words_at_known_offsets() {
        let lits = prefixes(r"(?-u:\b)(?:ignore|ignoring|disregard)[^a-z0-9]*all").unwrap();
        assert_eq!(lits, [&b"ignore"[..], b"ignoring", b"disregard"]);
        let cover = Cover::new(&["ignor", "gnore", "disregard", "all", "i"]);
        // The longest word wins; "gnore" is as long as "ignor" but further in.
        assert_eq!(cover.best(b"ignore"), Some(Anchor { word: 0, offset: 0 }));
        assert_eq!(cover.best(b"xdisregard"), Some(Anchor { word: 2, offset: 1 }));
        assert_eq!(cover.best(b"forget"), None);
        // An optional start gives both literals.
        assert_eq!(prefixes(r"(?:x)?ignore").unwrap(), [&b"xignore"[..], b"ignore"]);
        // A class of letters first, or anything first: a match could begin anywhere.
        assert_eq!(prefixes(r"[a-z]+ ignore"), None);
        assert_eq!(prefixes(r".*ignore"), None);
    }

    /// A Unicode `\b` makes the DFA give up at a non-ASCII byte: the meta regex takes over.
    #[test]
    fn a_search_the_dfa_gives_up_on_goes_to_the_regex() {
        let src = r"\bab[\W_]*c";
        let re = Regex::new(src).unwrap();
        let dfa = forward(src).unwrap();
        for text in ["ab\u{e9}c ab c", "\u{e9}ab c", "ab \u{2014} c"] {
            let want: Vec<(usize, usize)> = re.find_iter(text).map(|m| (m.start(), m.end())).collect();
            let starts: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            let mut got = Vec::new();
            each_match(&re, Some((&dfa, &mut dfa.create_cache())), text, &starts, |s, e| got.push((s, e)));
            assert_eq!(got, want, "{text:?}");
        }
    }

    /// Searched at line starts only, a `(?m)^` row finds what `find_iter` finds.
    #[test]
    fn a_row_beginning_at_a_line_start_is_searched_after_each_newline() {
        assert!(!at_line_starts(r"(?m)^a|b"));
        assert!(!at_line_starts(r"(?m)(?:^|x)a"));
        assert!(!at_line_starts(r"^a"));
        let src = r"(?m)^[\s>*#]*(?:human|ai)(?-u:\s)?:";
        assert!(at_line_starts(src));
        let re = Regex::new(src).unwrap();
        let dfa = forward(src).unwrap();
        for text in ["ai: x\n> human: y\r\n  ai :z", "x ai: y\nai:", "\n\n\nhuman:", "", "say human: hi"] {
            let want: Vec<(usize, usize)> = re.find_iter(text).map(|m| (m.start(), m.end())).collect();
            let mut starts = Vec::new();
            line_starts(text, &mut starts);
            let mut got = Vec::new();
            each_match(&re, Some((&dfa, &mut dfa.create_cache())), text, &starts, |s, e| got.push((s, e)));
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn a_one_byte_literal_turns_the_prefilter_off() {
        assert!(!prefilter_pays(r"(?-u:\b)(?:ai|a[^a-z0-9]*i|bot)s? x"));
        assert!(prefilter_pays(r"(?-u:\b)(?:ai|bot)s? x"));
        // No literal list at all: the regex chooses for itself.
        assert!(prefilter_pays(r"[a-z]+ x"));
    }

    #[test]
    fn anchored_searches_find_what_find_iter_finds() {
        let src = r"(?-u:\b)ab[^a-z0-9]*c|bcd";
        let re = Regex::new(src).unwrap();
        let dfa = forward(src).unwrap();
        for text in ["ab c abc xabc bcd abcd", "abcd", "ab  c", "", "xab c"] {
            let want: Vec<(usize, usize)> = re.find_iter(text).map(|m| (m.start(), m.end())).collect();
            let starts: Vec<usize> = (0..=text.len()).collect();
            // Through the meta regex alone, and through the DFA.
            let mut got = Vec::new();
            each_match(&re, None, text, &starts, |s, e| got.push((s, e)));
            assert_eq!(got, want, "{text:?}");
            let mut got = Vec::new();
            each_match(&re, Some((&dfa, &mut dfa.create_cache())), text, &starts, |s, e| got.push((s, e)));
            assert_eq!(got, want, "{text:?} (DFA)");
        }
    }
}
