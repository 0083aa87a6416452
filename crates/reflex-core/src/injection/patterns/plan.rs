//! What the search needs of each row, worked out once when the table is built: the trigger
//! words that anchor its starts (`starts`), its required words (`required`) and which of them
//! the trigger pass finds, the common literals searched for on their own (`Scans`), and the
//! anchored rows' lazy DFAs. The search itself: `search`.

use super::super::required::required;
use super::super::starts::{self, Anchor, Cover};
use super::anchors::{Anchors, Leads};
use super::limit;
use super::search::{Required, Scans};
use super::{Words, WORDS};

use std::cmp::Reverse;

use memchr::memmem;

use regex_automata::hybrid::dfa::DFA;

/// The shortest prefix added as a word of its own to anchor a row: shorter ones are too
/// common to narrow the search.
const MIN_ANCHOR: usize = 3;
/// Prefixes too common in English to anchor anything: each would be a hit every few words
/// (measured: with them the trigger pass costs more on plain English than the rows save).
const COMMON: &[&str] = &["the", "and", "all", "any", "are", "for", "was", "can", "not", "you"];
/// Literals found by a substring search of their own where rows begin with them (`Scans`):
/// `you` is in `COMMON`, `ai` shorter than `MIN_ANCHOR`, so no trigger word marks them, and
/// the rows that begin with them (`\b(?:you are|you're) …`, `\b(?:ai|llm|assistant|bot|…)s?
/// …`) searched the whole text. The other common words (`the`, `and`…) are so frequent that
/// their rows would search the whole text anyway after the scan (measured: scanning them all
/// cost plain English 0.4k instructions a call and saved the attack text less than `you`).
const SCANNED: &[&str] = &["you", "ai"];
/// What `Table::build` keeps for the search: for each word the rows it anchors (row, offset),
/// the rows that are anchored, for each row its sets of required words, and the common words
/// rows begin with.
pub(super) type Plan = (Anchors, [u64; WORDS], Vec<Required>, Scans);

/// `ids` (sorted) as (block, bits) pairs of a word bit set.
fn blocks(ids: &[u16]) -> Vec<(u16, u64)> {
    let mut out: Vec<(u16, u64)> = Vec::new();
    for &w in ids {
        let (block, bit) = (w / 64, 1u64 << (w % 64));
        match out.last_mut() {
            Some(last) if last.0 == block => last.1 |= bit,
            _ => out.push((block, bit)),
        }
    }
    out
}

/// A word of the trigger pass that shows where `lit` occurs: a word inside it, or `lit` itself
/// added as a word that arms nothing; `None` when `lit` is too short or too common for that
/// (`wordable`). A caller that needs several literals asks `wordable` of each first, so a word
/// is added only for a use that happens.
fn word_for(lit: Vec<u8>, cover: &Cover, words: &mut Words) -> Option<Anchor> {
    if let Some(a) = cover.best(&lit) {
        return Some(a);
    }
    let w = String::from_utf8(lit).ok()?;
    own_word(w.as_bytes()).then(|| Anchor { word: words.add_anchor(&w), offset: 0 })
}

/// Whether `word_for` has a word for `lit`.
fn wordable(lit: &[u8], cover: &Cover) -> bool {
    cover.best(lit).is_some() || (std::str::from_utf8(lit).is_ok() && own_word(lit))
}

/// Whether `lit` is long and rare enough to be a word of its own.
fn own_word(lit: &[u8]) -> bool {
    lit.len() >= MIN_ANCHOR && !COMMON.iter().any(|c| c.as_bytes() == lit)
}

/// The one required set of a row that may add words to the trigger pass: the likeliest to
/// veto the row, the set whose shortest literal is longest (short literals are common), of
/// those that a trigger hit does not already imply (each of the row's triggers holds one of its
/// literals: the row is only armed when one occurs, so such a set never vetoes it). Every
/// other set is checked by the pass only when words already in it cover the set, and otherwise
/// by a substring search of its literals when the row would run: on plain English most hits
/// of the pass were of words only such sets named ("please", "review", "customer", …), each
/// costing its lookup and bookkeeping, for rows that are seldom armed there.
pub(super) fn vetoing(sets: &[Vec<Vec<u8>>], triggers: &[&str]) -> Option<usize> {
    let implied = |set: &Vec<Vec<u8>>| {
        triggers.iter().all(|t| set.iter().any(|l| memmem::find(t.as_bytes(), l).is_some()))
    };
    // Then the set of fewer literals, then the first.
    sets.iter()
        .enumerate()
        .filter(|(_, set)| !implied(set))
        .max_by_key(|(k, set)| (set.iter().map(Vec::len).min(), Reverse(set.len()), Reverse(*k)))
        .map(|(k, _)| k)
}

/// A word already in the pass that shows where `lit` occurs: one inside it, or `lit` itself.
fn existing_word(lit: &[u8], cover: &Cover, words: &Words) -> Option<u16> {
    // (A linear search of the words: only when the table is built.)
    if let Some(a) = cover.best(lit) {
        return Some(a.word);
    }
    words.words.iter().position(|w| w.as_bytes() == lit).and_then(|i| u16::try_from(i).ok())
}

/// Works out the anchors and required words of each row (`sources[i]` is row `i`'s regex),
/// adding to `words` the literals no word covers.
pub(super) fn plan(sources: &[String], triggers: &[&[&str]], words: &mut Words) -> Plan {
    let cover = Cover::new(&words.words);
    let mut lists: Vec<(usize, Vec<(Anchor, Leads)>)> = Vec::new();
    let mut scans = Scans { finders: Vec::new(), of: vec![Vec::new(); sources.len()] };
    let mut common: Vec<&str> = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        let Some(prefixes) = starts::prefixes(src) else { continue };
        if !prefixes.iter().all(|lit| SCANNED.iter().any(|w| w.as_bytes() == lit.as_slice()) || wordable(lit, &cover)) {
            continue;
        }
        let mut list: Vec<(Anchor, Vec<u8>)> = Vec::new();
        let mut own: Vec<u16> = Vec::new();
        for lit in prefixes {
            if let Some(w) = SCANNED.iter().find(|w| w.as_bytes() == lit.as_slice()) {
                let k = common.iter().position(|c| c == w).unwrap_or_else(|| {
                    common.push(w);
                    common.len() - 1
                });
                own.push(k as u16);
                continue;
            }
            // Some: every literal is `wordable` (checked above).
            let at = word_for(lit.clone(), &cover, words);
            list.extend(at.map(|a| (a, lit[..usize::from(a.offset)].to_vec())));
        }
        // Each anchor once, with the distinct bytes the literals hold before its word.
        let mut anchors: Vec<(Anchor, Leads)> = Vec::new();
        for (a, pre) in list {
            let k = anchors.iter().position(|e| e.0 == a).unwrap_or_else(|| {
                anchors.push((a, Vec::new()));
                anchors.len() - 1
            });
            if !anchors[k].1.iter().any(|p| **p == *pre) {
                anchors[k].1.push(pre.into_boxed_slice());
            }
        }
        own.dedup();
        lists.push((i, anchors));
        scans.of[i] = own;
    }
    scans.finders = common.iter().map(|w| memmem::Finder::new(w.as_bytes()).into_owned()).collect();
    let mut needed: Vec<Required> = Vec::with_capacity(sources.len());
    for (i, (src, triggers)) in sources.iter().zip(triggers).enumerate() {
        let mut req = Required::default();
        let all = required(src);
        let veto = vetoing(&all, triggers);
        let mut implied = Vec::new();
        for (k, set) in all.into_iter().enumerate() {
            let ids: Option<Vec<u16>> = if Some(k) == veto {
                if set.iter().all(|lit| wordable(lit, &cover)) {
                    set.into_iter().map(|lit| word_for(lit, &cover, words).map(|a| a.word)).collect()
                } else {
                    None
                }
            } else {
                let ids: Option<Vec<u16>> = set.iter().map(|lit| existing_word(lit, &cover, words)).collect();
                // Searched only where the pass could have held it: a literal too short or too
                // common for a word of its own is everywhere.
                if ids.is_none() && set.iter().all(|lit| wordable(lit, &cover)) {
                    req.searched.push(set.into_iter().map(Vec::into_boxed_slice).collect());
                }
                ids
            };
            if let Some(mut ids) = ids {
                ids.sort_unstable();
                ids.dedup();
                let anchors = lists.iter().find(|(row, _)| *row == i).map(|(_, list)| list.as_slice());
                implied.push(anchors.is_some_and(|l| !l.is_empty() && l.iter().all(|(a, _)| ids.contains(&a.word))));
                req.seen.push(blocks(&ids));
            }
        }
        req.late = (limit::late(&req.seen, &implied), limit::late(&req.seen, &vec![false; implied.len()]));
        needed.push(req);
    }
    let mut anchor_of = vec![Vec::new(); words.words.len()];
    let mut anchored = [0u64; WORDS];
    for (i, list) in lists {
        anchored[i / 64] |= 1 << (i % 64);
        for (Anchor { word, offset }, pre) in list {
            anchor_of[usize::from(word)].push((i as u16, offset, pre));
        }
    }
    (Anchors::new(&anchor_of), anchored, needed, scans)
}

/// The anchored rows' lazy DFAs (`starts::forward`), `None` for the other rows.
pub(super) fn forwards(sources: &[String], anchored: &[u64; WORDS]) -> Vec<Option<DFA>> {
    let is = |i: usize| anchored[i / 64] & (1 << (i % 64)) != 0;
    sources.iter().enumerate().map(|(i, src)| if is(i) { starts::forward(src) } else { None }).collect()
}
