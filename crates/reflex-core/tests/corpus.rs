//! The labelled detection corpus in `test/corpus/`: the corpus is checked for soundness on
//! every run (its items, the train/test split, the checksums), the scorer is checked on made-up
//! detectors, and the detectors are held to the floors in `DETECTOR_FLOORS` on the test split.
//! `cargo run --release -p reflex-core --example corpus_report` prints the full figures.

#[path = "common/corpus_eval.rs"]
mod corpus_eval;

use std::fmt::Write as _;

use corpus_eval::checksums;
use corpus_eval::{
    auc, family_group, floor_failures, load_corpus, render_injection, render_pii, score_injection,
    score_injection_with, score_pii_with, split_of, threshold_at_fpr, trim_value, validate_corpus,
    validate_pii_checksums, Corpus, Entity, InjectionFigures, InjectionItem, PiiItem,
    PiiPredictions, PiiScores, DETECTOR_FLOORS,
};
use reflex_core::injection::InjectionReport;
use reflex_core::pii::{PiiKind, PiiMatch};

fn kind(name: &str) -> PiiKind {
    *PiiKind::ALL.iter().find(|k| k.as_str() == name).unwrap()
}

/// A detector that reports exactly the labelled entities, each cut short by `shrink` bytes.
fn pii_oracle(items: &[PiiItem], shrink: usize) -> impl Fn(&str) -> Vec<PiiMatch> + '_ {
    move |text| {
        let it = items.iter().find(|i| i.text == text).unwrap();
        let mut from = std::collections::HashMap::new();
        it.entities
            .iter()
            .map(|e| {
                let pos = from.entry(e.value.clone()).or_insert(0usize);
                let start = *pos + text[*pos..].find(&e.value).unwrap();
                *pos = start + e.value.len();
                let mut end = start + e.value.len() - shrink;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                PiiMatch {
                    kind: kind(&e.kind),
                    start,
                    end,
                    confidence: 1.0,
                }
            })
            .collect()
    }
}

fn corpus() -> Corpus {
    load_corpus().unwrap()
}

#[test]
fn corpus_is_sound_and_split_by_the_rule() {
    let c = corpus();
    let errs = validate_corpus(&c);
    assert!(errs.is_empty(), "corpus problems:\n{}", errs.join("\n"));
    let test = c.injection_items("test").len();
    let share = test as f64 / c.injection.len() as f64;
    assert!((0.2..0.4).contains(&share), "test share {share}");
}

#[test]
fn pii_values_pass_their_checksums_and_look_alikes_fail() {
    let items: Vec<PiiItem> = corpus().pii.into_iter().map(|(_, i)| i).collect();
    let errs = validate_pii_checksums(&items);
    assert!(
        errs.is_empty(),
        "PII checksum problems:\n{}",
        errs.join("\n")
    );
}

/// The same keys as `scripts/corpus-split.mjs` gives (Node's `crypto`).
#[test]
fn split_rule_matches_the_script() {
    assert_eq!(split_of(None, "a"), "test"); // fd1088ae: 4245719214 % 100 = 14
    assert_eq!(split_of(None, "k29"), "test"); // % 100 = 29, the last test value
    assert_eq!(split_of(None, "k17"), "train"); // % 100 = 30
    assert_eq!(split_of(None, "pii-iban-003"), "train"); // 97
                                                         // The group decides when there is one.
    assert_eq!(split_of(Some("a"), "pii-iban-003"), "test");
}

fn injection_item(id: &str, text: &str, attack: bool, split: Option<&str>) -> InjectionItem {
    InjectionItem {
        id: id.into(),
        text: text.into(),
        attack,
        family: Some(if attack { "direct" } else { "chat" }.into()),
        obfuscation: None,
        lang: "en".into(),
        category: None,
        note: None,
        group: None,
        split: split.map(str::to_string),
    }
}

#[test]
fn validation_catches_wrong_splits_and_repeated_ids() {
    let mut c = corpus();
    let (file, mut item) = c.injection[0].clone();
    item.text.push_str(" (another text)");
    c.injection.push(("other.jsonl".into(), item.clone()));
    let wrong = if split_of(None, "k29") == "test" {
        "train"
    } else {
        "test"
    };
    c.injection.push((
        file.clone(),
        injection_item("k29", "a text of its own", true, Some(wrong)),
    ));
    c.injection
        .push((file, injection_item("k17", "one more text", false, None)));
    let errs = validate_corpus(&c);
    assert!(
        errs.iter()
            .any(|e| e.contains("duplicate id") && e.contains(&item.id)),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(|e| e.contains("k29: split train")),
        "{errs:?}"
    );
    assert!(errs.iter().any(|e| e.contains("k17: no split")), "{errs:?}");
    assert_eq!(errs.len(), 3, "{errs:?}");
}

#[test]
fn threshold_is_the_lowest_score_within_the_fpr_bound() {
    let attacks = [0.95, 0.8, 0.6, 0.4];
    // 100 benign: one at 0.9, two tied at 0.7, the rest 0.
    let mut benign = vec![0.0f32; 97];
    benign.extend([0.9, 0.7, 0.7]);
    // 1 % allows one benign: the tie block at 0.7 would make it three, so the threshold moves
    // above the block, to the next score of any item (0.8).
    let t1 = threshold_at_fpr(&attacks, &benign, 0.01);
    assert!((t1 - 0.8).abs() < 1e-6, "{t1}");
    // 2 % allows two: still the block would flag three.
    assert!((threshold_at_fpr(&attacks, &benign, 0.02) - 0.8).abs() < 1e-6);
    // 3 % allows three: the block fits, and the threshold goes down to the next score below
    // it that keeps the zeros out (the attack at 0.4); the benign items at 0.7 are flagged.
    assert!((threshold_at_fpr(&attacks, &benign, 0.03) - 0.4).abs() < 1e-6);
    // 0 %: above the highest benign score.
    assert!((threshold_at_fpr(&attacks, &benign, 0.0) - 0.95).abs() < 1e-6);
    // The threshold can be a benign item's own score: that item counts as flagged.
    let mut one_high = vec![0.0f32; 98];
    one_high.extend([0.9, 0.7]);
    assert!((threshold_at_fpr(&[0.95], &one_high, 0.01) - 0.9).abs() < 1e-6);
    // No score above the highest benign one: nothing is flagged.
    assert!(threshold_at_fpr(&[0.5], &[1.0, 0.0], 0.0).is_infinite());
}

#[test]
fn auc_counts_ties_as_half() {
    assert!((auc(&[0.9, 0.8], &[0.1, 0.2]) - 1.0).abs() < 1e-12);
    assert!(auc(&[0.1], &[0.9]).abs() < 1e-12);
    assert!((auc(&[0.5, 0.5], &[0.5]) - 0.5).abs() < 1e-12);
    assert!((auc(&[0.9, 0.5], &[0.5, 0.1]) - 0.875).abs() < 1e-12);
}

#[test]
fn families_sum_into_their_groups() {
    assert_eq!(family_group("instruction_override"), "direct");
    assert_eq!(family_group("prompt_leak"), "extraction");
    assert_eq!(family_group("embedded_instruction"), "indirect");
    assert_eq!(family_group("payload_splitting"), "obfuscated");
    assert_eq!(family_group("something_new"), "something_new");
}

#[test]
fn scorer_reads_both_scores_per_row() {
    let items: Vec<InjectionItem> = (0..200)
        .map(|i| injection_item(&format!("i{i}"), &format!("text {i}"), i < 50, Some("test")))
        .collect();
    // The combined score ranks every attack above every benign item; the rules see nothing.
    let combined = |t: &str| {
        let n: usize = t[5..].parse().unwrap();
        InjectionReport {
            score: if n < 50 { 0.9 } else { 0.1 },
            ..InjectionReport::default()
        }
    };
    let f = InjectionFigures::new(score_injection_with(&items, combined, |_: &str| {
        InjectionReport::default()
    }));
    assert_eq!((f.combined.attacks, f.combined.benign), (50, 150));
    assert!((f.combined.tpr1 - 1.0).abs() < 1e-12 && f.combined.fpr1 == 0.0);
    assert!((f.combined.auc - 1.0).abs() < 1e-12);
    assert!(f.rules.tpr2 == 0.0 && (f.rules.auc - 0.5).abs() < 1e-12);
    let rows = f.rows(|s| s.family.clone());
    assert_eq!(rows.len(), 2);
    let direct = &rows.iter().find(|r| r.0 == "direct").unwrap().3;
    assert!((direct[0][0] - 1.0).abs() < 1e-12 && direct[1][0] == 0.0);
}

/// The floors, on the test split of the whole corpus. In a debug build the detectors take
/// most of this test's time over the test split's texts.
#[test]
fn detectors_meet_quality_floors() {
    let c = corpus();
    let pii_items = c.pii_items("test");
    let pii = PiiPredictions::new(&pii_items).score(&pii_items, 0.0);
    let inj = InjectionFigures::new(score_injection(&c.injection_items("test")));
    let failures = floor_failures(&pii, &inj, DETECTOR_FLOORS);
    assert!(
        failures.is_empty(),
        "quality floors not met: {}\n\n{}\n{}",
        failures.join("; "),
        render_injection(&inj, &inj, false),
        render_pii(&pii, &[], false)
    );
}

#[test]
fn checksum_validation_catches_mislabelled_items() {
    let item = |text: &str, ents: &[(&str, &str)]| PiiItem {
        id: "t".into(),
        text: text.into(),
        entities: ents
            .iter()
            .map(|(k, v)| Entity {
                kind: (*k).into(),
                value: (*v).into(),
            })
            .collect(),
        note: "n".into(),
        group: None,
        split: Some("test".into()),
    };
    let bad = [
        item("card 4111 1111 1111 1111 here", &[]),
        item("ssn 219-09-9999.", &[]),
        item("IBAN GB82 WEST 1234 5698 7654 32 please", &[]),
        item("pay bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq now", &[]),
        item("NHS number 943 476 5919", &[]),
        item(
            "IBAN GB83 WEST 1234 5698 7654 32",
            &[("IBAN", "GB83 WEST 1234 5698 7654 32")],
        ),
        item(
            "addr 0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            &[(
                "CRYPTO_WALLET",
                "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            )],
        ),
    ];
    for it in &bad {
        assert_eq!(
            validate_pii_checksums(std::slice::from_ref(it)).len(),
            1,
            "not caught: {}",
            it.text
        );
    }
    let good = [
        item("card 4111 1111 1111 1112 fails Luhn", &[]),
        item(
            "IBAN GB82 WEST 1234 5698 7654 32",
            &[("IBAN", "GB82 WEST 1234 5698 7654 32")],
        ),
        item("ssn 912-09-9999 is an ITIN-range number", &[]),
    ];
    for it in &good {
        assert!(
            validate_pii_checksums(std::slice::from_ref(it)).is_empty(),
            "false alarm: {}",
            it.text
        );
    }
}

#[test]
fn checksum_helpers_match_published_vectors() {
    fn hex(b: &[u8]) -> String {
        b.iter().fold(String::new(), |mut s, x| {
            let _ = write!(s, "{x:02x}");
            s
        })
    }
    assert_eq!(
        hex(&checksums::sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&checksums::keccak256(b"")),
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    );
    // EIP-55 test vectors.
    for a in [
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ] {
        assert!(checksums::eip55(a), "{a}");
    }
    assert!(!checksums::eip55(
        "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    ));
    assert!(checksums::base58check("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"));
    assert!(!checksums::base58check(
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"
    ));
    // A widely published v0 address and a BIP-350 (bech32m, v1) test vector.
    assert!(checksums::bech32(
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    ));
    assert!(!checksums::bech32(
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp"
    ));
    assert!(checksums::bech32(
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"
    ));
    assert!(!checksums::bech32(
        "bc1qw508d6qejxtdg4c5r5zz8uq9vyxjg2kqvy9wpw"
    ));
    assert!(
        checksums::iban("GB82 WEST 1234 5698 7654 32")
            && !checksums::iban("GB83 WEST 1234 5698 7654 32")
    );
    assert!(checksums::nhs("943 476 5919") && !checksums::nhs("943 476 5918"));
    assert!(checksums::luhn("4111 1111 1111 1111") && !checksums::luhn("4111 1111 1111 1112"));
    assert!(
        checksums::ssn("219-09-9999")
            && !checksums::ssn("666-09-9999")
            && !checksums::ssn("912-09-9999")
    );
}

#[test]
fn value_trimming_ignores_surrounding_punctuation_only() {
    assert_eq!(trim_value(" (212) 555-0187, "), "212) 555-0187");
    assert_eq!(trim_value("'N0tS0S3cret!'"), "N0tS0S3cret");
    assert_eq!(trim_value("a.b@c.d."), "a.b@c.d");
}

#[test]
fn scorer_gives_a_perfect_detector_full_marks() {
    let items: Vec<PiiItem> = corpus().pii.into_iter().map(|(_, i)| i).collect();
    let s = score_pii_with(&items, pii_oracle(&items, 0));
    let micro = PiiScores::micro(&s.strict);
    assert_eq!((micro.fp, micro.fn_), (0, 0));
    assert!((micro.f1() - 1.0).abs() < 1e-9);
    assert_eq!(s.strict.len(), PiiKind::ALL.len());

    // Spans cut short by 3 bytes miss the strict match but still overlap (lenient).
    let s = score_pii_with(&items, pii_oracle(&items, 3));
    assert_eq!(PiiScores::micro(&s.strict).tp, 0);
    assert_eq!(PiiScores::micro(&s.lenient).fn_, 0);

    // A detector that flags every text as an EMAIL covering the whole text: each negative counts.
    let s = score_pii_with(&items, |t: &str| {
        vec![PiiMatch {
            kind: PiiKind::Email,
            start: 0,
            end: t.len(),
            confidence: 0.5,
        }]
    });
    assert_eq!(s.negative_items_flagged, s.negative_items);
    assert!(s.strict["EMAIL"].fp >= s.negative_items);
}
