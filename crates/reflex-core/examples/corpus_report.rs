//! Prints the detection-quality figures on the labelled corpus in `test/corpus/` as Markdown.
//!
//! `cargo run --release -p reflex-core --example corpus_report [-- --details]`
//! (`--details` also lists every PII error and every missed attack / blocked benign item).

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;

use corpus_eval::{
    corpus_dir, floor_failures, load_injection, load_pii, render_injection, render_pii,
    score_injection, score_pii, validate_injection, validate_pii, DETECTOR_FLOORS,
};

fn main() {
    let details = std::env::args().any(|a| a == "--details");
    let dir = corpus_dir();
    let pii_items = load_pii(&dir.join("pii.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    let inj_items = load_injection(&dir.join("injection.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    let mut problems = validate_pii(&pii_items);
    problems.extend(validate_injection(&inj_items));

    let pii = score_pii(&pii_items);
    let inj = score_injection(&inj_items);

    println!("# Reflex detection quality on the labelled corpus\n");
    println!(
        "Corpus: {} PII items ({} with no entity), {} injection items ({} attacks, {} benign).\n",
        pii_items.len(),
        pii_items.iter().filter(|i| i.entities.is_empty()).count(),
        inj_items.len(),
        inj_items.iter().filter(|i| i.attack).count(),
        inj_items.iter().filter(|i| !i.attack).count()
    );
    if !problems.is_empty() {
        println!("**Corpus problems:**\n");
        for p in &problems {
            println!("- {p}");
        }
        println!();
    }
    println!("{}", render_pii(&pii, details));
    println!("{}", render_injection(&inj, details));
    let failures = floor_failures(&pii, &inj, DETECTOR_FLOORS);
    println!("## Floors\n");
    println!(
        "PII micro F1 ≥ {:.2}, injection TPR (≥ high) ≥ {:.2}, benign FPR (≥ high) ≤ {:.2}: {}",
        DETECTOR_FLOORS.pii_micro_f1,
        DETECTOR_FLOORS.injection_tpr_high,
        DETECTOR_FLOORS.benign_fpr_high,
        if failures.is_empty() {
            "all met".to_string()
        } else {
            format!("NOT met ({})", failures.join("; "))
        }
    );
}
