//! The labelled detection corpus in `test/corpus/`: the corpus is checked for soundness on
//! every run, and the detectors are held to the quality floors in `DETECTOR_FLOORS`.
//! `cargo run --release -p reflex-core --example corpus_report` prints the full figures.

#[path = "common/corpus_eval.rs"]
mod corpus_eval;

use corpus_eval::{
    corpus_dir, floor_failures, load_injection, load_pii, parse_json, render_injection, render_pii, score_injection,
    score_pii, trim_value, validate_injection, validate_pii, Json, DETECTOR_FLOORS,
};

#[test]
fn pii_corpus_is_sound() {
    let items = load_pii(&corpus_dir().join("pii.jsonl")).unwrap();
    let errs = validate_pii(&items);
    assert!(errs.is_empty(), "PII corpus problems:\n{}", errs.join("\n"));
}

#[test]
fn injection_corpus_is_sound() {
    let items = load_injection(&corpus_dir().join("injection.jsonl")).unwrap();
    let errs = validate_injection(&items);
    assert!(errs.is_empty(), "injection corpus problems:\n{}", errs.join("\n"));
}

#[test]
fn json_reader_handles_escapes() {
    let v = parse_json(r#"{"a": "x\"y\\n\u00e9\ud83d\ude00", "b": [1, null, true], "c": {}}"#).unwrap();
    assert_eq!(v.get("a").and_then(Json::as_str), Some("x\"y\\n\u{e9}\u{1f600}"));
    assert_eq!(v.get("b"), Some(&Json::Arr(vec![Json::Num(1.0), Json::Null, Json::Bool(true)])));
    assert!(parse_json(r#"{"a": "unterminated}"#).is_err());
    assert!(parse_json(r#"{"a": 1} x"#).is_err());
}

#[test]
fn value_trimming_ignores_surrounding_punctuation_only() {
    assert_eq!(trim_value(" (212) 555-0187, "), "212) 555-0187");
    assert_eq!(trim_value("'N0tS0S3cret!'"), "N0tS0S3cret");
    assert_eq!(trim_value("a.b@c.d."), "a.b@c.d");
}

#[test]
#[ignore = "enable once the detectors land"]
fn detectors_meet_quality_floors() {
    let pii_items = load_pii(&corpus_dir().join("pii.jsonl")).unwrap();
    let inj_items = load_injection(&corpus_dir().join("injection.jsonl")).unwrap();
    let pii = score_pii(&pii_items);
    let inj = score_injection(&inj_items);
    let failures = floor_failures(&pii, &inj, DETECTOR_FLOORS);
    assert!(
        failures.is_empty(),
        "quality floors not met: {}\n\n{}\n{}",
        failures.join("; "),
        render_pii(&pii, true),
        render_injection(&inj, true)
    );
}
