//! `test/corpus/pii-formats.jsonl`: obfuscated and internationalised e-mail addresses, card
//! issuers and their context, SSN, NHS and national mobile layouts, and the look-alikes that must
//! not be reported. Checked here with the default reporting threshold (confidence 0.4) applied:
//! every split is sound, every id is new to the corpus, and the items are detected as labelled.

#[path = "common/corpus_eval.rs"]
mod corpus_eval;

use corpus_eval::checksums::sha256;
use corpus_eval::{corpus_dir, load_pii, render_pii, score_pii_with, validate_pii, PiiItem, PiiScores};
use reflex_core::json::Value as Json;
use reflex_core::pii;

/// The confidence below which a match is neither reported nor redacted by default.
const THRESHOLD: f32 = 0.4;

fn items() -> Vec<PiiItem> {
    load_pii(&corpus_dir().join("pii-formats.jsonl")).unwrap_or_else(|e| panic!("{e}"))
}

fn raw_lines() -> Vec<Json> {
    let text = std::fs::read_to_string(corpus_dir().join("pii-formats.jsonl")).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| reflex_core::json::parse(l).expect("a JSON line")).collect()
}

fn reported(text: &str) -> Vec<pii::PiiMatch> {
    pii::detect(text).into_iter().filter(|m| m.confidence >= THRESHOLD).collect()
}

fn score(split: &str) -> PiiScores {
    let lines = raw_lines();
    let items: Vec<PiiItem> = items().into_iter().zip(&lines).filter(|(_, v)| v.get("split").and_then(Json::as_str) == Some(split)).map(|(i, _)| i).collect();
    score_pii_with(&items, reported)
}

#[test]
fn items_are_sound_and_new_to_the_corpus() {
    let items = items();
    let errs: Vec<String> = validate_pii(&items).into_iter().filter(|e| !e.contains(" need ")).collect();
    assert!(errs.is_empty(), "{errs:#?}");
    let mut others = Vec::new();
    for f in ["pii.jsonl", "pii-holdout.jsonl"] {
        others.extend(load_pii(&corpus_dir().join(f)).unwrap().into_iter().map(|i| i.id));
    }
    for it in &items {
        assert!(!others.contains(&it.id), "{} is already in the corpus", it.id);
        let neg = it.id.starts_with("pii-neg-");
        assert_eq!(neg, it.entities.is_empty(), "{}: hard negatives carry no entity here", it.id);
    }
}

/// `split` is `test` iff the first four bytes of SHA-256("ganglion-corpus-split-1:" + key), big
/// endian, mod 100 are below 30; `key` is the item's `group`, else its `id`.
#[test]
fn splits_follow_the_corpus_rule() {
    for v in raw_lines() {
        let id = v.get("id").and_then(Json::as_str).unwrap();
        let key = v.get("group").and_then(Json::as_str).unwrap_or(id);
        let h = sha256(format!("ganglion-corpus-split-1:{key}").as_bytes());
        let want = if u32::from_be_bytes([h[0], h[1], h[2], h[3]]) % 100 < 30 { "test" } else { "train" };
        assert_eq!(v.get("split").and_then(Json::as_str), Some(want), "{id}");
    }
}

#[test]
fn every_item_is_detected_as_labelled() {
    for split in ["train", "test"] {
        let s = score(split);
        let micro = PiiScores::micro(&s.strict);
        eprintln!("{split}: {}", render_pii(&s, false));
        assert!(s.errors.is_empty(), "{split}: {:#?}", s.errors);
        assert_eq!(micro.fp, 0, "{split}");
    }
}
