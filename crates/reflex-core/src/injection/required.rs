//! Literals a row's every match must hold, so a row whose regex cannot match is not run.
//!
//! A row is armed by any of its trigger words anywhere in the text: "void" inside "avoid"
//! arms the "… instructions you were given are void" row on ordinary English. Its regex also
//! needs, in the same match, an object ("instructions", "rules", …) and "you". Each such
//! part is a set of literals one of which every match contains; when no literal of some set
//! occurs in the text, the regex cannot match anywhere and running it would find nothing. One
//! set a row (`patterns::search::vetoing`) is found by the same trigger pass (each literal
//! covered by a trigger word inside it, or made a word of its own), so its check is a few bit
//! tests; so is any other set whose literals the pass finds anyway. The rest are looked for in
//! the text only before a search of the whole text, which costs more than the lookups.

use regex_syntax::hir::{Hir, HirKind};

/// The most literals one set may hold; a larger set is dropped (it proves little).
const MAX_SET: usize = 64;

/// Sets of literals, each such that every match of `src` contains one of its literals.
pub(crate) fn required(src: &str) -> Vec<Vec<Vec<u8>>> {
    let Ok(hir) = regex_syntax::ParserBuilder::new().utf8(true).build().parse(src) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    parts(&hir, &mut out);
    out
}

/// Every part of a concatenation must match, so each part's set is required on its own.
fn parts(hir: &Hir, out: &mut Vec<Vec<Vec<u8>>>) {
    match hir.kind() {
        HirKind::Concat(subs) => subs.iter().for_each(|h| parts(h, out)),
        HirKind::Capture(c) => parts(&c.sub, out),
        HirKind::Repetition(r) if r.min >= 1 => parts(&r.sub, out),
        _ => {
            if let Some(set) = one(hir) {
                out.push(set);
            }
        }
    }
}

/// One set of literals every match of `hir` contains one of, or `None`.
fn one(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    match hir.kind() {
        HirKind::Literal(l) => Some(vec![l.0.to_vec()]),
        HirKind::Capture(c) => one(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => one(&r.sub),
        // Any part will do; the one whose shortest literal is longest is the most selective.
        HirKind::Concat(subs) => subs
            .iter()
            .filter_map(one)
            .max_by_key(|set| set.iter().map(Vec::len).min().unwrap_or(0)),
        HirKind::Alternation(subs) => {
            let mut set: Vec<Vec<u8>> = Vec::new();
            for s in subs {
                for lit in one(s)? {
                    if !set.contains(&lit) {
                        set.push(lit);
                    }
                }
            }
            (set.len() <= MAX_SET).then_some(set)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use regex_automata::meta::Regex;

    use super::required;

    fn strs(sets: &[Vec<Vec<u8>>]) -> Vec<Vec<String>> {
        sets.iter().map(|s| s.iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect()).collect()
    }

    #[test]
    fn every_part_of_a_concatenation_is_required() {
        let got = strs(&required(r"(?-u:\b)(?:the[^a-z0-9]*)?(?:rules|orders)[^a-z0-9]*you[^a-z0-9]*(?:are void|no longer)"));
        assert_eq!(got, [vec!["rules", "orders"], vec!["you"], vec!["are void", "no longer"]]);
        // An optional part, a class or a look-around proves nothing.
        assert!(required(r"(?:x)?[a-z]+\b").is_empty());
        // A branch without a literal spoils the whole alternation.
        assert!(required(r"(?:void|[0-9]+)").is_empty());
    }

    #[test]
    fn a_text_without_a_required_literal_has_no_match() {
        // Checked by brute force on a few texts: a match holds one literal of every set.
        let src = r"(?:the |all )?(?:rules|orders) (?:that )?you (?:were|got) (?:are|is) (?:void|null)";
        let re = Regex::new(src).unwrap();
        let sets = required(src);
        for text in ["all rules you were are void", "orders that you got is null", "avoid the rules", "you got void"] {
            let has_all = sets.iter().all(|set| set.iter().any(|l| text.as_bytes().windows(l.len()).any(|w| w == &l[..])));
            if !has_all {
                assert!(re.find(text).is_none(), "{text:?}");
            }
        }
        assert!(re.find("all rules you were are void").is_some());
    }
}
