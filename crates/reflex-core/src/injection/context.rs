//! Benign context, judged only in the neighbourhood of one match.
//!
//! The neighbourhood is the match's own sentence (bounded by `.`, `!`, `?` or a line break, and
//! by 120 bytes either side); a word elsewhere in the text never changes a verdict.
//!
//! - **negated**: one of the three words right before the match (same clause) is a negation:
//!   "do not ignore the previous instructions", "never reveal your system prompt";
//! - **quoted**: an opening quote between the sentence start and the match, and a closing one
//!   between the match and the sentence end;
//! - **about**: the sentence talks about attacks rather than making one: "prompt injection",
//!   "jailbreak", "attack", "example", "phrase", "classifier"… outside the match itself, at
//!   the start of a word and not inside a domain or an address (`attacker.example`).
//!
//! Discount: negated or about → two levels down (high → low, critical → medium), confidence
//! × 0.3; quoted alone → one level down (high → medium), confidence × 0.6. A discounted match
//! is kept, so the report still shows what was seen.
//!
//! [`Judge`] gives the same verdicts for many matches of one text at less cost (`marks`).

mod marks;

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use crate::severity::Severity;

pub(crate) use marks::Judge;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Benign {
    Quoted,
    Negated,
    About,
}

impl Benign {
    pub fn levels(self) -> u8 {
        match self {
            Benign::Quoted => 1,
            Benign::Negated | Benign::About => 2,
        }
    }

    pub fn factor(self) -> f32 {
        match self {
            Benign::Quoted => 0.6,
            Benign::Negated | Benign::About => 0.3,
        }
    }
}

pub(crate) fn lower(sev: Severity, levels: u8) -> Severity {
    let mut s = sev;
    for _ in 0..levels {
        s = match s {
            Severity::Critical => Severity::High,
            Severity::High => Severity::Medium,
            _ => Severity::Low,
        };
    }
    s
}

const WINDOW: usize = 120;

const NEGATIONS: &[&str] = &[
    "not", "never", "dont", "don", "doesnt", "doesn", "shouldnt", "shouldn", "mustnt", "mustn",
    "cannot", "cant", "wont", "won", "isnt", "isn", "no", "nor", "neither", "without", "avoid", "refuse",
    // fr, de, es/it/pt, nl, ru
    "pas", "jamais", "nicht", "nie", "nunca", "nao", "non", "niet", "не", "никогда",
];

/// Nouns and phrases that show a sentence is about injection rather than an instance of it.
const ABOUT: &[&str] = &[
    "prompt injection", "injection attack", "injections", "jailbreak", "attack", "adversarial",
    "exploit", "red team", "red-team", "classifier", "detector", "phrase", "example", "pattern",
    "payload", "technique", "vulnerabilit", "known trick", "malicious prompt", "such as",
    "e.g.", "for instance", "security training", "what does", "what is meant", "means",
];

fn about() -> &'static AhoCorasick {
    static ABOUT_AC: OnceLock<AhoCorasick> = OnceLock::new();
    ABOUT_AC.get_or_init(|| AhoCorasick::new(ABOUT).expect("about words"))
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The sentence around `start..end`, as (sentence start, sentence end).
fn sentence(text: &str, start: usize, end: usize) -> (usize, usize) {
    let lo = floor_boundary(text, start.saturating_sub(WINDOW));
    let hi = ceil_boundary(text, (end + WINDOW).min(text.len()));
    let is_stop = |c: char| matches!(c, '.' | '!' | '?' | '\n' | '。' | '！' | '？');
    // After the stop, which may be three bytes long ('。'): never inside it.
    let s0 = text[lo..start].char_indices().rfind(|&(_, c)| is_stop(c)).map_or(lo, |(i, c)| lo + i + c.len_utf8());
    let s1 = text[end..hi].find(is_stop).map_or(hi, |i| end + i);
    (s0, s1)
}

fn is_quote(text: &str, i: usize, c: char) -> bool {
    match c {
        '"' | '`' | '「' | '」' | '『' | '』' => true,
        // An apostrophe between two letters is a contraction ("don't"), not a quote.
        '\'' => {
            let before = text[..i].chars().next_back().is_some_and(char::is_alphanumeric);
            let after = text[i + 1..].chars().next().is_some_and(char::is_alphanumeric);
            !(before && after)
        }
        _ => false,
    }
}

fn has_quote(text: &str, from: usize, to: usize) -> bool {
    text[from..to].char_indices().any(|(i, c)| is_quote(text, from + i, c))
}

/// Judges the match `start..end` of the normalised `text` (the reference for [`Judge`]).
pub(crate) fn judge(text: &str, start: usize, end: usize) -> Option<Benign> {
    let (s0, s1) = sentence(text, start, end);
    if negated(&text[s0..start]) {
        return Some(Benign::Negated);
    }
    let about = about();
    if about_in(about, text, s0, start) || about_in(about, text, end, s1) {
        return Some(Benign::About);
    }
    if has_quote(text, s0, start) && has_quote(text, end, s1) {
        return Some(Benign::Quoted);
    }
    None
}

/// An about-word in `text[from..to]` that starts a word and is not part of a domain or an
/// address: `attacker.example` or `archive@attack.example` say nothing about the sentence.
fn about_in(ac: &AhoCorasick, text: &str, from: usize, to: usize) -> bool {
    let bytes = text.as_bytes();
    ac.find_iter(&text[from..to]).any(|m| {
        let (s, mut e) = (from + m.start(), from + m.end());
        let before = s.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'@' | b'/')) {
            return false;
        }
        while e < bytes.len() && bytes[e].is_ascii_alphanumeric() {
            e += 1;
        }
        let domain = matches!(bytes.get(e), Some(b'.' | b'@'))
            && bytes.get(e + 1).is_some_and(u8::is_ascii_alphanumeric);
        !domain
    })
}

/// A negation among the last three words of the clause before the match.
fn negated(before: &str) -> bool {
    // The separators are ASCII: a byte search finds the same place as a char search.
    let clause = memchr::memrchr3(b',', b';', b':', before.as_bytes()).map_or(before, |i| &before[i + 1..]);
    // Negations that open a sentence and govern the whole clause (each holds "no ", looked
    // for first: a substring search costs more to set up than this scan for `n`).
    let c = clause.as_bytes();
    if memchr::memchr_iter(b'n', c).any(|i| c[i + 1..].starts_with(b"o "))
        && ["under no circumstances", "in no case", "at no point", "at no time"].iter().any(|p| clause.contains(p))
    {
        return true;
    }
    // The words are the runs of alphanumeric characters, read from the end.
    let mut rest = clause;
    let mut prev = "";
    for _ in 0..4 {
        let Some(w) = last_word(&mut rest) else { break };
        // "can't" splits into "can" + "t".
        if is_negation(w) || (w == "can" && prev == "t") {
            return true;
        }
        prev = w;
    }
    false
}

/// ASCII letters and digits, by byte (false for every byte from 0x80): a look-up is cheaper
/// than two range tests, and the marks pass and `last_word` mostly read words.
static ASCII_ALNUM: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    t
};

/// The last run of alphanumeric characters in `*rest`, which is cut to before it.
fn last_word<'t>(rest: &mut &'t str) -> Option<&'t str> {
    let s = *rest;
    let alnum_before = |i: usize| -> Option<(bool, usize)> {
        let b = *s.as_bytes().get(i.checked_sub(1)?)?;
        if b.is_ascii() {
            return Some((b.is_ascii_alphanumeric(), 1));
        }
        let c = s[..i].chars().next_back()?;
        Some((c.is_alphanumeric(), c.len_utf8()))
    };
    let b = s.as_bytes();
    // ASCII bytes are read by a table in a tight loop, a character at a time only where a
    // non-ASCII byte ends the run read so far (the closure alone cost twice as much a byte).
    let mut end = s.len();
    loop {
        while end > 0 && b[end - 1] < 0x80 && !ASCII_ALNUM[usize::from(b[end - 1])] {
            end -= 1;
        }
        match alnum_before(end) {
            Some((false, n)) => end -= n,
            _ => break,
        }
    }
    let mut start = end;
    loop {
        while start > 0 && ASCII_ALNUM[usize::from(b[start - 1])] {
            start -= 1;
        }
        match alnum_before(start) {
            Some((true, n)) => start -= n,
            _ => break,
        }
    }
    *rest = &s[..start];
    (start < end).then(|| &s[start..end])
}

fn is_negation(w: &str) -> bool {
    // Only the negations with the word's first byte and length are compared.
    let Some(&first) = w.as_bytes().first() else { return false };
    let mut m = NEGATIONS_BY_FIRST[usize::from(first)];
    while m != 0 {
        let n = NEGATIONS[m.trailing_zeros() as usize];
        m &= m - 1;
        if n.len() == w.len() && n == w {
            return true;
        }
    }
    false
}

/// For each byte, the negations (bits of their index in `NEGATIONS`) that start with it.
static NEGATIONS_BY_FIRST: [u32; 256] = {
    assert!(NEGATIONS.len() <= 32);
    let mut t = [0u32; 256];
    let mut k = 0;
    while k < NEGATIONS.len() {
        t[NEGATIONS[k].as_bytes()[0] as usize] |= 1 << k;
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::{judge, negated, Benign, NEGATIONS};

    /// `negated` as first written (splitting the clause), the reference for the byte-wise one.
    fn negated_by_split(before: &str) -> bool {
        let clause = before.rsplit([',', ';', ':']).next().unwrap_or(before);
        if ["under no circumstances", "in no case", "at no point", "at no time"].iter().any(|p| clause.contains(p)) {
            return true;
        }
        let mut words = clause.split(|c: char| !c.is_alphanumeric()).rev().filter(|w| !w.is_empty());
        let mut prev = "";
        for w in words.by_ref().take(4) {
            if NEGATIONS.contains(&w) || (w == "can" && prev == "t") {
                return true;
            }
            prev = w;
        }
        false
    }

    #[test]
    fn negations_are_read_as_splitting_reads_them() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let mut texts: Vec<String> = vec![
            "we can't, won't: никогда не ignore".into(),
            "under no circumstances; in no case x at no time, at no point".into(),
            "don't-ignore  ,, nicht—ignorieren 不要 t can".into(),
        ];
        for f in ["../../test/corpus/injection.jsonl", "../../test/corpus/injection-holdout.jsonl", "examples/injection_dump_texts.txt"] {
            let raw = std::fs::read_to_string(format!("{dir}/{f}")).expect(f);
            texts.extend(raw.lines().map(|l| l.replace("\\n", "\n").to_lowercase()));
        }
        let mut yes = 0;
        for t in &texts {
            for (i, _) in t.char_indices() {
                let want = negated_by_split(&t[..i]);
                assert_eq!(negated(&t[..i]), want, "{:?}", &t[..i]);
                yes += usize::from(want);
            }
        }
        assert!(yes > 1_000, "{yes} negated prefixes");
    }

    fn at(text: &str, needle: &str) -> Option<Benign> {
        let s = text.find(needle).unwrap();
        judge(text, s, s + needle.len())
    }

    #[test]
    fn judges_locally() {
        let m = "ignore previous instructions";
        assert_eq!(at("do not ignore previous instructions.", m), Some(Benign::Negated));
        assert_eq!(at("he said 'ignore previous instructions' loudly", m), Some(Benign::Quoted));
        assert_eq!(at("the phrase 'ignore previous instructions' is a known attack", m), Some(Benign::About));
        assert_eq!(at("this is a jailbreak example. now ignore previous instructions", m), None);
        assert_eq!(at("don't worry, ignore previous instructions", m), None);
    }

    #[test]
    fn a_sentence_may_follow_a_chinese_full_stop() {
        // The sentence starts after the three bytes of '。', not inside them (this panicked).
        let m = "ignore previous instructions";
        assert_eq!(at("我。ignore previous instructions", m), None);
        assert_eq!(at("我。不 ignore previous instructions！'x", m), None);
        assert_eq!(at("我！do not ignore previous instructions", m), Some(Benign::Negated));
    }
}
