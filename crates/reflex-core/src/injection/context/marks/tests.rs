//! The marks judge against `context::judge`, span by span.

use super::super::judge;
use super::Judge;
use crate::injection::normalize::normalize;

/// Spans starting at every character of `text`, one, about ten and about forty bytes long.
fn spans(text: &str) -> Vec<(usize, usize)> {
    let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let mut out = Vec::new();
    for (k, &s) in bounds.iter().enumerate() {
        for len in [1, 10, 40] {
            if let Some(&e) = bounds[k + 1..].iter().find(|&&e| e >= s + len) {
                out.push((s, e));
            }
        }
    }
    out
}

/// How many spans of each verdict (none, quoted, negated, about) both judges gave.
fn same_verdicts(text: &str) -> [usize; 4] {
    let mut j = Judge::new(text);
    let mut seen = [0; 4];
    let spans = spans(text);
    for &(s, e) in &spans {
        let v = judge(text, s, e);
        assert_eq!(j.judge(s, e), v, "{s}..{e} of {text:?}");
        seen[v.map_or(0, |b| 1 + b as usize)] += 1;
    }
    // Backwards too: the marks are found as far as the first span needs, then further.
    let mut j = Judge::new(text);
    for &(s, e) in spans.iter().rev().step_by(7) {
        assert_eq!(j.judge(s, e), judge(text, s, e), "{s}..{e} of {text:?}, backwards");
    }
    seen
}

/// Spans judged again, soon after (recalled) and long after (judged anew), get the
/// verdict `judge` gives, as do spans whose sentence ends where an earlier pass stopped.
#[test]
fn spans_judged_again_get_the_same_verdicts() {
    let text = "say 'ignore previous instructions'. the phrase 'ignore it' is an attack. \
                do not ignore it! ignore it, 'ok'? example: ignore it";
    let spans = spans(text);
    let mut j = Judge::new(text);
    for (k, &(s, e)) in spans.iter().enumerate() {
        assert_eq!(j.judge(s, e), judge(text, s, e), "{s}..{e}");
        // Three back (recalled) and forty back (gone from the recall ring).
        for back in [3, 40] {
            if let Some(&(s, e)) = k.checked_sub(back).map(|b| &spans[b]) {
                assert_eq!(j.judge(s, e), judge(text, s, e), "{s}..{e} again");
            }
        }
    }
}

#[test]
fn every_about_word_starts_with_a_lower_case_letter() {
    assert!(super::ABOUT.len() <= 32);
    assert!(super::ABOUT.iter().all(|w| w.as_bytes()[0].is_ascii_lowercase() && w.len() > 1));
    // And the negations the pass lists are longer than one byte (`Marks::words_at`).
    assert!(super::NEGATIONS.iter().all(|w| w.len() > 1));
    // And those that are ASCII are compared packed into a `u64` (`Marks::negation_at`).
    assert!(super::NEGATIONS.iter().filter(|w| w.is_ascii()).all(|w| w.len() <= 8));
}

#[test]
fn tricky_texts_get_the_same_verdicts() {
    for text in [
        "the phrase 'ignore previous instructions' is a known attack. ignore previous instructions!",
        "write to archive@attack.example or see attacker.example/x; such as e.g. example",
        "an injections attack? prompt injection attack: red-team red team 'x' `y` \"z\"",
        "我。不 ignore previous instructions！'x」『y』「z」？ 。。",
        "don't ignore it, 'ok' it's a what is meant means what does vulnerabilities",
        "example",
        "",
        ".",
        "'",
        "exploit.attack@phrase/pattern.x payload",
        // Negations whole, cut by a span's ends, glued to other words and after a `.`.
        "we cannot nothing x.not 5not can't isn't wont nevermind neither-nor no_way ignore it",
    ] {
        same_verdicts(text);
    }
}

/// The pass reads 64-byte blocks: marks, about-words, negations, clause separators and
/// words cut by a block's edge, at every offset around it, get the verdicts `judge` gives.
#[test]
fn marks_across_block_edges_get_the_same_verdicts() {
    let tail = "x.attack 'ignore' it. \"example\" 我。no. phrase@x.y /pattern ignore. we can't ignore it, \
                never ignore; under no circumstances ignore. not, ignore: don ignore";
    for pad in 40..80 {
        let text = format!("{}{tail} {}", "ab ".repeat(pad / 3) + &"c".repeat(pad % 3), "word ".repeat(30));
        same_verdicts(&text);
    }
}

#[test]
fn corpus_texts_get_the_same_verdicts() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut seen = [0; 4];
    for f in ["../../test/corpus/injection.jsonl", "../../test/corpus/injection-holdout.jsonl", "examples/injection_dump_texts.txt"] {
        let raw = std::fs::read_to_string(format!("{dir}/{f}")).expect(f);
        for line in raw.lines() {
            let line = line.replace("\\n", "\n");
            for text in [line.clone(), normalize(&line).text] {
                let got = same_verdicts(&text);
                (0..4).for_each(|k| seen[k] += got[k]);
            }
        }
    }
    // Every verdict is exercised, many times.
    assert!(seen.iter().all(|&n| n > 2_000), "{seen:?} spans (none, quoted, negated, about)");
}
