//! The pattern table: one row per phrase shape, matched on the normalised (lower-case,
//! accent-free, de-obfuscated) text.
//!
//! In a pattern a plain space stands for `[\W_]*`: any run of non-word characters, including
//! none, so `ignore all previous` also matches the joined `ignoreallprevious` left by spaced-out
//! letters. Rows marked `raw` are used as written (commands, markup, URLs).
//!
//! Each row names trigger words; the row's regex only runs when one pass over the text
//! (`triggers`, exact like an overlapping Aho-Corasick search, cheaper per byte) finds one of
//! them, which keeps clean text on a single linear scan. Most rows then search only where the
//! trigger hits say a match can start (`starts`).

use std::sync::OnceLock;

use regex_automata::meta::{self, Regex};
use regex_automata::util::syntax;

use super::reach::{self, Reach};
use super::triggers::Triggers;
use super::Family;
use crate::severity::Severity;

mod anchors;
mod limit;
mod plan;
mod rules;
mod search;

use rules::RULES;

pub(crate) struct Rule {
    pub family: Family,
    pub severity: Severity,
    pub confidence: f32,
    triggers: &'static [&'static str],
    /// When not empty, one of these must occur too: keeps rows whose triggers are common
    /// words ("your", "new", "ai") off clean text.
    needs: &'static [&'static str],
    pattern: &'static str,
    /// Spaces in `pattern` are literal instead of widened to a flexible gap.
    raw: bool,
    /// Words that, right after a match, make it an everyday phrase ("you're now free *to*
    /// leave", "assistant *manager*"): the match is dropped.
    unless: &'static [&'static str],
    /// Where matches can start when the row's first words cannot anchor it (`reach`).
    reach: Option<Reach>,
    /// The severity of a match that opens the text, when it differs: a text that begins with
    /// its own `System:` label is an operator's prompt, not a message pretending to be one.
    opening: Option<Severity>,
}

impl Rule {
    const fn and(self, needs: &'static [&'static str]) -> Rule {
        Rule { needs, ..self }
    }

    const fn unless(self, unless: &'static [&'static str]) -> Rule {
        Rule { unless, ..self }
    }

    const fn reach(self, heads: &'static [&'static str], runs: u8) -> Rule {
        Rule { reach: Some(Reach::Words { heads, runs }), ..self }
    }

    const fn lead(self, word: &'static str) -> Rule {
        Rule { reach: Some(Reach::Lead { word }), ..self }
    }

    const fn opening(self, severity: Severity) -> Rule {
        Rule { opening: Some(severity), ..self }
    }

    /// The severity of a match at `start` of the text scanned at `depth` (0: the text itself).
    pub fn severity_at(&self, start: usize, depth: u8) -> Severity {
        match self.opening {
            Some(s) if start == 0 && depth == 0 => s,
            _ => self.severity,
        }
    }

    /// False when the words right after the match turn it into an everyday phrase.
    pub fn keeps(&self, text: &str, end: usize) -> bool {
        if self.unless.is_empty() {
            return true;
        }
        // Bytes, not chars: the three skipped are ASCII. Each word compared byte by byte
        // (`begins_with`): `starts_with` called `memcmp` for each (~1.2k instructions of the
        // attack text's check).
        let rest = &text.as_bytes()[end..];
        let rest = &rest[rest.iter().position(|b| !matches!(b, b' ' | b',' | b'-')).unwrap_or(rest.len())..];
        !self.unless.iter().any(|u| super::starts::begins_with(rest, u.as_bytes()))
    }
}

const fn rule(
    family: Family,
    severity: Severity,
    confidence: f32,
    triggers: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule { family, severity, confidence, triggers, needs: &[], pattern, raw: false, unless: &[], reach: None, opening: None }
}

/// A `rule` whose spaces stay literal: not widened to the gap pattern that lets words sit apart.
const fn raw(
    family: Family,
    severity: Severity,
    confidence: f32,
    triggers: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule { raw: true, ..rule(family, severity, confidence, triggers, pattern) }
}


/// Trigger words whose ROT13 form, found in the text, starts a ROT13 rescan.
const ROT13_TRIGGERS: &[&str] = &[
    "ignore", "disregard", "instructions", "previous", "system prompt", "jailbreak", "reveal your",
    "you are now", "restrictions", "password", "api key", "send the", "your rules",
];

/// Requests to put fragments together: the quoted fragments of the text are joined and
/// rescanned.
/// (Kept distinct from row triggers: one automaton word arms one thing.)
const JOIN_TRIGGERS: &[&str] =
    &["combine", "concatenat", "join ", "joined", " together", "merge ", "glue", "assemble"];

/// Assignments of short string literals, the raw material of split payloads.
const ASSIGN_TRIGGERS: &[&str] = &["='", "= '", "=\"", "= \""];

pub(crate) struct Table {
    pub rules: Vec<(&'static Rule, Regex)>,
    /// For each trigger word, the rows it anchors and at which offset into their matches.
    anchors: anchors::Anchors,
    /// The rows whose matches can only start at anchors.
    anchored: [u64; WORDS],
    /// Short or common literals some rows begin with, found by a substring search of their own
    /// (`search::Scans`), and for each row the ones it begins with.
    scans: search::Scans,
    /// For each anchored row, its lazy DFA for the anchored searches (`starts::forward`).
    forward: Vec<Option<regex_automata::hybrid::dfa::DFA>>,
    /// For each row with a `reach`, its finder of starts.
    reach: Vec<Option<reach::Finder>>,
    /// The rows with starts of their own: a `reach`, or matches that begin at a line start
    /// (`starts::at_line_starts`). Also in `anchored`.
    own: [u64; WORDS],
    /// For each row, sets of words of which every match holds one (a word of each set, or
    /// a word inside it): a row with a set none of whose words occur cannot match. Most are
    /// checked by the words the trigger pass saw, some by substring searches (`plan::vetoing`).
    required: Vec<search::Required>,
    /// All trigger words, ASCII and not (Cyrillic, CJK, Arabic…): the window filter costs the
    /// same per byte whatever the number of words, so one pass serves both.
    words: Automaton,
    /// The rows that also need one of their `needs` words.
    with_needs: [u64; WORDS],
}

/// Rows are armed in a bit set of this many 64-bit words.
const WORDS: usize = 3;

struct Automaton {
    finder: Triggers,
    /// For each word, its entry in `sets`: what a hit of it arms. Most words arm nothing (the
    /// anchors) or one row, so the distinct sets are few and a hit ORs one of them in.
    set_of: Vec<u16>,
    sets: Vec<ArmSet>,
}

/// What a hit of a word arms, as the bits it sets.
#[derive(Clone, Default, PartialEq)]
struct ArmSet {
    bits: [u64; WORDS],
    needs: [u64; WORDS],
    rot13: bool,
    assign: bool,
    join: bool,
}

impl ArmSet {
    fn of(arm: &Arm) -> ArmSet {
        let mut set = ArmSet::default();
        match arm {
            Arm::Rules(v) => {
                for &(i, need) in v {
                    let bits = if need { &mut set.needs } else { &mut set.bits };
                    bits[usize::from(i) / 64] |= 1 << (i % 64);
                }
            }
            Arm::Rot13 => set.rot13 = true,
            Arm::Assign => set.assign = true,
            Arm::Join => set.join = true,
        }
        set
    }
}

#[derive(Clone)]
enum Arm {
    /// (row, whether the word is one of the row's `needs` rather than its triggers)
    Rules(Vec<(u16, bool)>),
    Rot13,
    Assign,
    Join,
}

/// What one prefilter pass found: the rows to run and the extra scans to do.
#[derive(Default)]
pub(crate) struct Armed {
    bits: [u64; WORDS],
    /// Every trigger hit: (word, start).
    hits: Vec<(u16, u32)>,
    needs: [u64; WORDS],
    pub rot13: bool,
    pub assign: bool,
    /// A "combine / join / put together" request: quoted fragments are joined and rescanned.
    pub join: bool,
}

impl Armed {
    pub fn rules(&self) -> impl Iterator<Item = usize> + '_ {
        // By the set bits, lowest first: the attack text arms 57 of 192 (testing each cost 2k
        // instructions a call).
        (0..WORDS).flat_map(move |k| {
            let mut bits = self.bits[k];
            std::iter::from_fn(move || {
                let i = bits.trailing_zeros() as usize;
                bits &= bits.wrapping_sub(1);
                (i < 64).then_some(k * 64 + i)
            })
        })
    }
}

/// Rotates ASCII letters by 13; everything else, and so every byte offset, stays.
#[must_use]
pub(crate) fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => (c as u8 + 13) as char,
            'n'..='z' | 'N'..='Z' => (c as u8 - 13) as char,
            _ => c,
        })
        .collect()
}

/// The texts the rows' search tests run on: the corpus lines and the frozen test and pattern
/// literals (`\n` in a line stands for a line break).
#[cfg(test)]
pub(crate) fn test_texts() -> Vec<String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut texts = Vec::new();
    for f in ["../../test/corpus/injection.jsonl", "../../test/corpus/injection-holdout.jsonl", "examples/injection_dump_texts.txt"] {
        let raw = std::fs::read_to_string(format!("{dir}/{f}")).expect(f);
        texts.extend(raw.lines().map(|l| l.replace("\\n", "\n")));
    }
    texts
}

/// The forms of `texts` the rows' search tests run on: each text as the detector searches it
/// (normalised), its ROT13 first.
#[cfg(test)]
pub(crate) fn search_forms(texts: &[String]) -> Vec<String> {
    texts
        .iter()
        .flat_map(|text| {
            let norm = crate::injection::normalize::normalize(text).text;
            [rot13(&norm), norm]
        })
        .collect()
}

#[derive(Default)]
struct Words {
    words: Vec<String>,
    arms: Vec<Arm>,
}

impl Words {
    /// Adds `word` (once) and returns its id.
    fn add(&mut self, word: &str, arm: Option<Arm>, row: (u16, bool)) -> usize {
        let at = self.words.iter().position(|w| w == word).unwrap_or_else(|| {
            self.words.push(word.to_string());
            self.arms.push(arm.clone().unwrap_or(Arm::Rules(Vec::new())));
            self.words.len() - 1
        });
        if let (None, Arm::Rules(v)) = (arm, &mut self.arms[at]) {
            v.push(row);
        }
        at
    }

    /// A word that only marks where some row can start: it arms nothing.
    fn add_anchor(&mut self, word: &str) -> u16 {
        let at = self.add(word, Some(Arm::Rules(Vec::new())), (0, false));
        u16::try_from(at).expect("at most 65,535 trigger words")
    }

    fn build(self) -> Automaton {
        // Set 0 is the empty one, so a word that only anchors costs a compare.
        let mut sets = vec![ArmSet::default()];
        let set_of = self
            .arms
            .iter()
            .map(|arm| {
                let set = ArmSet::of(arm);
                let at = sets.iter().position(|s| *s == set).unwrap_or_else(|| {
                    sets.push(set);
                    sets.len() - 1
                });
                u16::try_from(at).expect("at most 65,535 distinct sets")
            })
            .collect();
        Automaton { finder: Triggers::new(&self.words), set_of, sets }
    }
}

impl Automaton {
    fn arm(&self, text: &str, ascii: bool, armed: &mut Armed) {
        self.finder.each_known(text.as_bytes(), ascii, |id, at| {
            // Texts are far below 4 GiB; a longer one loses the hits past that, and its rows
            // then search the whole text (see `Table::each_match`).
            if let Ok(at) = u32::try_from(at) {
                armed.hits.push((id, at));
            }
            let k = usize::from(self.set_of[usize::from(id)]);
            if k == 0 {
                return;
            }
            let set = &self.sets[k];
            for w in 0..WORDS {
                armed.bits[w] |= set.bits[w];
                armed.needs[w] |= set.needs[w];
            }
            // Only at a word start: a rotated word inside a long token (base64, a hash) is
            // chance, and a ROT13 rescan costs a whole second pass.
            if set.rot13 {
                armed.rot13 |= at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric();
            }
            armed.assign |= set.assign;
            armed.join |= set.join;
        });
    }
}

/// The regex source of a row. ASCII rows (English and the accent-stripped Latin languages)
/// use ASCII classes and boundaries: the normalised text is lower case, Unicode `\b` and `\w`
/// would only make the DFA larger and push non-ASCII haystacks onto the slow engines.
fn source(r: &Rule) -> String {
    let gap = if r.pattern.is_ascii() { "[^a-z0-9]*" } else { r"[\W_]*" };
    let ascii = r.pattern.is_ascii();
    let mut src = String::with_capacity(r.pattern.len() * 2);
    // Outside character classes only: `[^)\s]` keeps its `\s`.
    let mut class = false;
    let mut chars = r.pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next().unwrap_or('\\');
                match (ascii && !class, e) {
                    (true, 'b') => src.push_str(r"(?-u:\b)"),
                    (true, 'w') => src.push_str("[a-z0-9_]"),
                    (true, 's') => src.push_str(r"(?-u:\s)"),
                    _ => {
                        src.push('\\');
                        src.push(e);
                    }
                }
            }
            '[' if !class => {
                class = true;
                src.push(c);
                // A `]` or `^]` right after the opening bracket is a literal.
                if r.pattern[r.pattern.len() - chars.as_str().len()..].starts_with(']') {
                    src.push(chars.next().unwrap_or(']'));
                }
            }
            ']' if class => {
                class = false;
                src.push(c);
            }
            ' ' if !r.raw && !class => src.push_str(gap),
            _ => src.push(c),
        }
    }
    src
}

impl Table {
    fn build() -> Table {
        assert!(RULES.len() <= WORDS * 64, "Armed holds {} rows", WORDS * 64);
        let mut words = Words::default();
        let mut rules = Vec::with_capacity(RULES.len());
        let mut with_needs = [0u64; WORDS];
        let mut sources = Vec::with_capacity(RULES.len());
        for (i, r) in RULES.iter().enumerate() {
            let src = source(r);
            let re = compile(&src).unwrap_or_else(|e| panic!("pattern {i}: {e}"));
            rules.push((r, re));
            sources.push(src);
            if !r.needs.is_empty() {
                with_needs[i / 64] |= 1 << (i % 64);
            }
            let words_of = r.triggers.iter().map(|t| (t, false)).chain(r.needs.iter().map(|t| (t, true)));
            for (t, need) in words_of {
                words.add(t, None, (i as u16, need));
            }
        }
        for t in ROT13_TRIGGERS {
            words.add(&rot13(t), Some(Arm::Rot13), (0, false));
        }
        for t in ASSIGN_TRIGGERS {
            words.add(t, Some(Arm::Assign), (0, false));
        }
        for t in JOIN_TRIGGERS {
            words.add(t, Some(Arm::Join), (0, false));
        }
        let triggers: Vec<&[&str]> = RULES.iter().map(|r| r.triggers).collect();
        let (anchors, mut anchored, needed, scans) = plan::plan(&sources, &triggers, &mut words);
        let reach: Vec<Option<reach::Finder>> =
            RULES.iter().zip(&sources).map(|(r, src)| r.reach.map(|h| reach::Finder::new(h, src))).collect();
        let mut own = [0u64; WORDS];
        for (i, src) in sources.iter().enumerate() {
            if reach[i].is_some() || super::starts::at_line_starts(src) {
                own[i / 64] |= 1 << (i % 64);
            }
        }
        // Searched anchored like the rows anchored by trigger words, at their own starts.
        for k in 0..WORDS {
            anchored[k] |= own[k];
        }
        let forward = plan::forwards(&sources, &anchored);
        Table { rules, anchors, anchored, scans, forward, reach, own, required: needed, words: words.build(), with_needs }
    }

    /// One pass over `text`: which rows can match, and whether ROT13 or split-literal scans
    /// are worth doing.
    #[cfg(test)] // the scan knows whether its text is ASCII: `arm_known`
    pub fn arm(&self, text: &str) -> Armed {
        self.arm_known(text, text.is_ascii())
    }

    /// As `arm`, when the text is known to be ASCII (`ascii`) or may not be (false): the
    /// normaliser has read the text once already.
    pub fn arm_known(&self, text: &str, ascii: bool) -> Armed {
        // Room for the hits of a KB (the attack bench text has ~90) without growing, yet under
        // glibc's per-thread cache of small blocks (1,032 bytes) for a 1 KB text: at 144
        // entries every call took malloc's slower path.
        let mut armed = Armed { hits: Vec::with_capacity(16 + text.len() / 12), ..Armed::default() };
        self.words.arm(text, ascii || text.is_ascii(), &mut armed);
        for k in 0..WORDS {
            armed.bits[k] &= armed.needs[k] | !self.with_needs[k];
        }
        armed
    }
}

/// A row's regex, configured as `regex::Regex::new` configures it (the matches stay the same),
/// without the literal prefilter where a one-byte literal makes it cost more than it saves
/// (`starts::prefilter_pays`).
fn compile(src: &str) -> Result<Regex, Box<meta::BuildError>> {
    Regex::builder()
        .configure(
            Regex::config()
                .nfa_size_limit(Some(10 * (1 << 20)))
                .hybrid_cache_capacity(2 * (1 << 20))
                .utf8_empty(true)
                .auto_prefilter(super::starts::prefilter_pays(src)),
        )
        .syntax(syntax::Config::new().utf8(true))
        .build(src)
        .map_err(Box::new)
}

pub(crate) fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::build)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_pattern_compiles() {
        let t = super::table();
        assert_eq!(t.rules.len(), super::RULES.len());
    }
}
