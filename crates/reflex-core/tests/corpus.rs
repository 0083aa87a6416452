//! The labelled detection corpus in `test/corpus/`: the corpus is checked for soundness on
//! every run, and the detectors are held to the quality floors in `DETECTOR_FLOORS`.
//! `cargo run --release -p reflex-core --example corpus_report` prints the full figures.

#[path = "common/corpus_eval.rs"]
mod corpus_eval;

use std::fmt::Write as _;

use corpus_eval::checksums;
use corpus_eval::{
    corpus_dir, floor_failures, load_injection, load_pii, render_injection, render_pii,
    score_injection, score_injection_with, score_pii, score_pii_with, trim_value,
    validate_injection, validate_pii, validate_pii_checksums, Entity, PiiItem, PiiScores,
    DETECTOR_FLOORS, PII_TYPES,
};
use reflex_core::injection::{Family, InjectionMatch, InjectionReport};
use reflex_core::pii::{PiiKind, PiiMatch};
use reflex_core::severity::Severity;

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

#[test]
fn pii_corpus_is_sound() {
    let items = load_pii(&corpus_dir().join("pii.jsonl")).unwrap();
    let errs = validate_pii(&items);
    assert!(errs.is_empty(), "PII corpus problems:\n{}", errs.join("\n"));
}

/// The held-out PII items (written apart from `pii.jsonl`, to check that detector rules
/// generalise): format only, no floors. `-- --ignored --nocapture pii_holdout_report` prints figures.
#[test]
fn pii_holdout_is_sound() {
    let items = load_pii(&corpus_dir().join("pii-holdout.jsonl")).unwrap();
    let main = load_pii(&corpus_dir().join("pii.jsonl")).unwrap();
    let mut errs: Vec<String> = validate_pii(&items).into_iter().filter(|e| !e.starts_with("only ") && !e.starts_with("type ")).collect();
    errs.extend(validate_pii_checksums(&items));
    errs.extend(items.iter().filter(|i| main.iter().any(|m| m.id == i.id || m.text == i.text)).map(|i| format!("{} repeats pii.jsonl", i.id)));
    assert!(items.len() >= 30 && errs.is_empty(), "PII holdout problems:\n{}", errs.join("\n"));
}

#[test]
#[ignore = "prints figures only"]
fn pii_holdout_report() {
    let items = load_pii(&corpus_dir().join("pii-holdout.jsonl")).unwrap();
    println!("{}", render_pii(&score_pii(&items), true));
}

#[test]
fn pii_values_pass_their_checksums_and_look_alikes_fail() {
    let items = load_pii(&corpus_dir().join("pii.jsonl")).unwrap();
    let errs = validate_pii_checksums(&items);
    assert!(
        errs.is_empty(),
        "PII checksum problems:\n{}",
        errs.join("\n")
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
fn injection_corpus_is_sound() {
    let items = load_injection(&corpus_dir().join("injection.jsonl")).unwrap();
    let errs = validate_injection(&items);
    assert!(
        errs.is_empty(),
        "injection corpus problems:\n{}",
        errs.join("\n")
    );
}

/// The held-out items (written before tuning the rules) share the format; the size floors
/// of the main corpus do not apply to them.
#[test]
fn injection_holdout_is_well_formed() {
    let items = load_injection(&corpus_dir().join("injection-holdout.jsonl")).unwrap();
    let errs: Vec<String> = validate_injection(&items)
        .into_iter()
        .filter(|e| !e.starts_with("only ") && !e.starts_with("family "))
        .collect();
    assert!(errs.is_empty(), "holdout problems:\n{}", errs.join("\n"));
}

/// `cargo test --release -p reflex-core --test corpus -- --ignored --nocapture holdout`
#[test]
#[ignore = "prints the holdout figures; no floors"]
fn injection_holdout_figures() {
    let items = load_injection(&corpus_dir().join("injection-holdout.jsonl")).unwrap();
    println!("{}", render_injection(&score_injection(&items), true));
}

#[test]
fn value_trimming_ignores_surrounding_punctuation_only() {
    assert_eq!(trim_value(" (212) 555-0187, "), "212) 555-0187");
    assert_eq!(trim_value("'N0tS0S3cret!'"), "N0tS0S3cret");
    assert_eq!(trim_value("a.b@c.d."), "a.b@c.d");
}

#[test]
fn scorer_gives_a_perfect_detector_full_marks() {
    let items = load_pii(&corpus_dir().join("pii.jsonl")).unwrap();
    let s = score_pii_with(&items, pii_oracle(&items, 0));
    let micro = PiiScores::micro(&s.strict);
    assert_eq!((micro.fp, micro.fn_), (0, 0));
    assert!((micro.f1() - 1.0).abs() < 1e-9);
    assert_eq!(s.strict.len(), PII_TYPES.len());

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

#[test]
fn scorer_counts_injection_rates() {
    let items = load_injection(&corpus_dir().join("injection.jsonl")).unwrap();
    let verdict = |text: &str| {
        let it = items.iter().find(|i| i.text == text).unwrap();
        let fam = Family::ALL
            .iter()
            .copied()
            .find(|f| Some(f.as_str()) == it.family.as_deref());
        // Attacks are blocked; benign "quote" items reach medium only.
        let severity = match (it.attack, it.category.as_deref()) {
            (true, _) => Severity::High,
            (false, Some("quote")) => Severity::Medium,
            _ => Severity::None,
        };
        let matches = fam
            .map(|family| {
                vec![InjectionMatch {
                    family,
                    start: 0,
                    end: text.len(),
                    severity,
                    confidence: 0.9,
                }]
            })
            .unwrap_or_default();
        InjectionReport {
            matches,
            score: 0.9,
            severity,
        }
    };
    let s = score_injection_with(&items, verdict);
    assert_eq!(s.attacks.high, s.attacks.n);
    assert_eq!(s.benign.high, 0);
    assert_eq!(s.benign.medium, s.per_category["quote"].n);
    assert!(s
        .per_family
        .values()
        .all(|r| r.family_agrees == r.n && r.n >= 8));
    assert!(s.missed.is_empty() && s.false_alarms.is_empty());
}

#[test]
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
