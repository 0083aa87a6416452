//! Prints the detection-quality figures on the labelled corpus in `test/corpus/` as Markdown:
//! the test split's figures, the train split's headline beside them for reference.
//!
//! `cargo run --release -p reflex-core --example corpus_report [-- --details]`
//! (`--details` also lists every PII error, every attack under the FPR ≤ 2 % threshold and every
//! benign item at or above it, test split).

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;

use corpus_eval::{
    evaluate, floor_failures, load_corpus, render_injection, render_pii, validate_corpus,
    DETECTOR_FLOORS,
};

fn main() {
    let details = std::env::args().any(|a| a == "--details");
    let corpus = load_corpus().unwrap_or_else(|e| panic!("{e}"));
    let problems = validate_corpus(&corpus);
    let ev = evaluate(&corpus, true);

    println!("# Reflex detection quality on the labelled corpus\n");
    let count = |split: &str| {
        (
            corpus.injection_items(split).len(),
            corpus.pii_items(split).len(),
        )
    };
    let ((inj_test, pii_test), (inj_train, pii_train)) = (count("test"), count("train"));
    println!(
        "Corpus: {} injection items ({inj_test} test, {inj_train} train), {} PII items ({pii_test} test, \
{pii_train} train). Figures are on the test split.\n",
        corpus.injection.len(),
        corpus.pii.len()
    );
    if !problems.is_empty() {
        println!("**Corpus problems:**\n");
        for p in &problems {
            println!("- {p}");
        }
        println!();
    }
    println!(
        "{}",
        render_injection(&ev.injection_test, &ev.injection_train, details)
    );
    println!("{}", render_pii(&ev.pii_test, &ev.pii_curve, details));
    let f = DETECTOR_FLOORS;
    let failures = floor_failures(&ev.pii_test, &ev.injection_test, f);
    println!("## Floors (test split)\n");
    println!(
        "Injection TPR at FPR ≤ 2 % ≥ {:.2}, at FPR ≤ 1 % ≥ {:.2}; PII micro F1 ≥ {:.2}, precision ≥ {:.2}: {}",
        f.injection_tpr_at_2pct_fpr,
        f.injection_tpr_at_1pct_fpr,
        f.pii_micro_f1,
        f.pii_micro_precision,
        if failures.is_empty() {
            "all met".to_string()
        } else {
            format!("NOT met ({})", failures.join("; "))
        }
    );
}
