//! Shared by `tests/corpus.rs` and `examples/corpus_report.rs` (each includes it with
//! `#[path = ...] mod corpus_eval;`): loads the labelled corpus in `test/corpus/` (every
//! `injection*.jsonl` and `pii*.jsonl`), checks the corpus itself and its train/test split,
//! runs the detectors over it and renders the figures as Markdown.
//! The corpus lines are read with the crate's own JSON reader (`reflex_core::json`).
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use reflex_core::injection;
use reflex_core::json::{self, Value as Json};
use reflex_core::pii::{self, PiiKind};
use reflex_core::severity::Severity;
use sha2::{Digest, Sha256};

// ---------------------------------------------------------------------------------------------
// Corpus items
// ---------------------------------------------------------------------------------------------

pub const OBFUSCATIONS: [&str; 9] = [
    "none",
    "zero_width",
    "homoglyph",
    "leet",
    "spaced",
    "base64",
    "hex",
    "rot13",
    "mixed",
];

/// The minimums the corpus as a whole must meet (checked by the validation test).
pub const MIN_PII_ITEMS: usize = 250;
pub const MIN_PII_NEGATIVE_ITEMS: usize = 100;
pub const MIN_ATTACKS: usize = 1_000;
pub const MIN_BENIGN: usize = 1_000;

#[derive(Clone, Debug)]
pub struct Entity {
    pub kind: String,
    pub value: String,
}

#[derive(Clone, Debug)]
pub struct PiiItem {
    pub id: String,
    pub text: String,
    pub entities: Vec<Entity>,
    pub note: String,
    pub group: Option<String>,
    /// `train` or `test`; `None` when the line has no `split` (a corpus error).
    pub split: Option<String>,
}

#[derive(Clone, Debug)]
pub struct InjectionItem {
    pub id: String,
    pub text: String,
    pub attack: bool,
    /// The attack family; on benign items the kind of text (`chat`, `document`, …), if given.
    pub family: Option<String>,
    pub obfuscation: Option<String>,
    pub lang: String,
    /// Benign items written for this corpus carry a category instead of a family.
    pub category: Option<String>,
    pub note: Option<String>,
    pub group: Option<String>,
    pub split: Option<String>,
}

impl InjectionItem {
    /// The row an item falls in: its family, or for benign items without one, its category.
    pub fn family_name(&self) -> &str {
        self.family
            .as_deref()
            .or(self.category.as_deref())
            .unwrap_or("unlabelled")
    }
}

/// `test/corpus/` seen from this crate.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/corpus")
}

fn lines(path: &Path) -> Result<Vec<(usize, Json)>, String> {
    let raw = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in raw.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v = json::parse(line)
            .ok_or_else(|| format!("{}:{}: not one JSON document", path.display(), n + 1))?;
        out.push((n + 1, v));
    }
    Ok(out)
}

fn req_str(v: &Json, key: &str, line: usize) -> Result<String, String> {
    v.get(key)
        .and_then(Json::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("line {line}: missing string field `{key}`"))
}

fn opt_str(v: &Json, key: &str, line: usize) -> Result<Option<String>, String> {
    match v.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("line {line}: `{key}` must be a string or null")),
    }
}

pub fn load_pii(path: &Path) -> Result<Vec<PiiItem>, String> {
    let mut out = Vec::new();
    for (line, v) in lines(path)? {
        let Some(Json::Array(ents)) = v.get("entities") else {
            return Err(format!("line {line}: `entities` must be an array"));
        };
        let mut entities = Vec::new();
        for e in ents {
            entities.push(Entity {
                kind: req_str(e, "type", line)?,
                value: req_str(e, "value", line)?,
            });
        }
        out.push(PiiItem {
            id: req_str(&v, "id", line)?,
            text: req_str(&v, "text", line)?,
            entities,
            note: req_str(&v, "note", line)?,
            group: opt_str(&v, "group", line)?,
            split: opt_str(&v, "split", line)?,
        });
    }
    Ok(out)
}

pub fn load_injection(path: &Path) -> Result<Vec<InjectionItem>, String> {
    let mut out = Vec::new();
    for (line, v) in lines(path)? {
        let label = req_str(&v, "label", line)?;
        let attack = match label.as_str() {
            "attack" => true,
            "benign" => false,
            other => {
                return Err(format!(
                    "line {line}: label `{other}` is neither attack nor benign"
                ))
            }
        };
        out.push(InjectionItem {
            id: req_str(&v, "id", line)?,
            text: req_str(&v, "text", line)?,
            attack,
            family: opt_str(&v, "family", line)?,
            obfuscation: opt_str(&v, "obfuscation", line)?,
            lang: req_str(&v, "lang", line)?,
            category: opt_str(&v, "category", line)?,
            note: opt_str(&v, "note", line)?,
            group: opt_str(&v, "group", line)?,
            split: opt_str(&v, "split", line)?,
        });
    }
    Ok(out)
}

/// Every corpus file: `injection*.jsonl` and `pii*.jsonl` in `dir`, by name.
pub fn corpus_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with(prefix) && Path::new(n).extension().is_some_and(|e| e == "jsonl")
            })
        })
        .collect();
    out.sort();
    out
}

/// The whole corpus, every file read, with the file each item came from.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pub pii: Vec<(String, PiiItem)>,
    pub injection: Vec<(String, InjectionItem)>,
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub fn load_corpus() -> Result<Corpus, String> {
    let dir = corpus_dir();
    let mut c = Corpus::default();
    for p in corpus_files(&dir, "injection") {
        let name = file_name(&p);
        let items = load_injection(&p).map_err(|e| format!("{name}: {e}"))?;
        c.injection
            .extend(items.into_iter().map(|i| (name.clone(), i)));
    }
    for p in corpus_files(&dir, "pii") {
        let name = file_name(&p);
        let items = load_pii(&p).map_err(|e| format!("{name}: {e}"))?;
        c.pii.extend(items.into_iter().map(|i| (name.clone(), i)));
    }
    Ok(c)
}

impl Corpus {
    pub fn pii_items(&self, split: &str) -> Vec<PiiItem> {
        self.pii
            .iter()
            .filter(|(_, i)| i.split.as_deref() == Some(split))
            .map(|(_, i)| i.clone())
            .collect()
    }
    pub fn injection_items(&self, split: &str) -> Vec<InjectionItem> {
        self.injection
            .iter()
            .filter(|(_, i)| i.split.as_deref() == Some(split))
            .map(|(_, i)| i.clone())
            .collect()
    }
}

/// The text of every item of the four files the injection dump has always read (its output
/// is diffed between builds, so its set of texts stays fixed): the injection files', then the
/// PII files'.
pub fn all_texts() -> Vec<String> {
    let dir = corpus_dir();
    let mut texts: Vec<String> = Vec::new();
    for f in ["injection.jsonl", "injection-holdout.jsonl"] {
        let items = load_injection(&dir.join(f)).unwrap_or_else(|e| panic!("{e}"));
        texts.extend(items.into_iter().map(|i| i.text));
    }
    for f in ["pii.jsonl", "pii-holdout.jsonl"] {
        let items = load_pii(&dir.join(f)).unwrap_or_else(|e| panic!("{e}"));
        texts.extend(items.into_iter().map(|i| i.text));
    }
    texts
}

// ---------------------------------------------------------------------------------------------
// The split
// ---------------------------------------------------------------------------------------------

/// The one train/test split (`scripts/corpus-split.mjs` writes it into the files): an item is
/// `test` iff the first four bytes of SHA-256(`SPLIT_SALT` + key), read as a big-endian `u32`,
/// mod 100 are below `TEST_PERCENT`. The key is the item's `group` if it has one, else its `id`.
pub const SPLIT_SALT: &str = "ganglion-corpus-split-1:";
pub const TEST_PERCENT: u32 = 30;

pub fn split_of(group: Option<&str>, id: &str) -> &'static str {
    let key = group.unwrap_or(id);
    let digest = Sha256::new()
        .chain_update(SPLIT_SALT.as_bytes())
        .chain_update(key.as_bytes())
        .finalize();
    let head = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
    if head % 100 < TEST_PERCENT {
        "test"
    } else {
        "train"
    }
}

// ---------------------------------------------------------------------------------------------
// Corpus validation
// ---------------------------------------------------------------------------------------------

/// Every `PiiKind` name the crate knows.
pub fn pii_kind_names() -> Vec<&'static str> {
    PiiKind::ALL.iter().map(|k| k.as_str()).collect()
}

/// Everything wrong with the corpus as a whole (empty when it is sound): each item's split is
/// present and follows the rule, ids are unique across all files, injection texts are unique
/// across the injection files, PII types are `PiiKind` names and values occur in their text.
pub fn validate_corpus(c: &Corpus) -> Vec<String> {
    let mut errs = Vec::new();
    let mut ids: HashMap<&str, &str> = HashMap::new();
    let check_split =
        |errs: &mut Vec<String>, file: &str, id: &str, group: Option<&str>, split: Option<&str>| {
            let want = split_of(group, id);
            match split {
                None => errs.push(format!(
                "{file}: {id}: no split (the rule gives {want}; run node scripts/corpus-split.mjs)"
            )),
                Some(s) if s != want => {
                    errs.push(format!("{file}: {id}: split {s}, the rule gives {want}"));
                }
                Some(_) => {}
            }
        };
    // (file, id, group, split) of every item, injection and PII alike.
    let keys = c
        .injection
        .iter()
        .map(|(f, it)| (f, &it.id, &it.group, &it.split))
        .chain(c.pii.iter().map(|(f, it)| (f, &it.id, &it.group, &it.split)));
    for (file, id, group, split) in keys {
        if let Some(other) = ids.insert(id.as_str(), file.as_str()) {
            errs.push(format!("{file}: duplicate id {id} (also in {other})"));
        }
        check_split(&mut errs, file, id, group.as_deref(), split.as_deref());
    }
    errs.extend(validate_injection(&c.injection));
    errs.extend(validate_pii(&c.pii));
    errs
}

/// Everything wrong with the PII items (empty when they are sound).
pub fn validate_pii(items: &[(String, PiiItem)]) -> Vec<String> {
    let kinds = pii_kind_names();
    let mut errs = Vec::new();
    for (file, it) in items {
        if it.note.trim().is_empty() {
            errs.push(format!("{file}: {}: empty note", it.id));
        }
        for e in &it.entities {
            if !kinds.contains(&e.kind.as_str()) {
                errs.push(format!("{file}: {}: unknown type {}", it.id, e.kind));
            }
            if e.value.is_empty() || !it.text.contains(&e.value) {
                errs.push(format!(
                    "{file}: {}: value {:?} does not occur in the text",
                    it.id, e.value
                ));
            }
        }
    }
    if items.len() < MIN_PII_ITEMS {
        errs.push(format!(
            "only {} PII items, need {MIN_PII_ITEMS}",
            items.len()
        ));
    }
    let negatives = items.iter().filter(|(_, i)| i.entities.is_empty()).count();
    if negatives < MIN_PII_NEGATIVE_ITEMS {
        errs.push(format!(
            "only {negatives} PII items without entities, need {MIN_PII_NEGATIVE_ITEMS}"
        ));
    }
    errs
}

/// Everything wrong with the injection items (empty when they are sound).
pub fn validate_injection(items: &[(String, InjectionItem)]) -> Vec<String> {
    let mut errs = Vec::new();
    let mut texts: HashMap<&str, &str> = HashMap::new();
    for (file, it) in items {
        if let Some(other) = texts.insert(it.text.as_str(), it.id.as_str()) {
            errs.push(format!("{file}: {}: same text as {other}", it.id));
        }
        if it.text.trim().is_empty() || it.lang.is_empty() {
            errs.push(format!("{file}: {}: empty text or lang", it.id));
        }
        if it.note.as_deref().is_some_and(|n| n.trim().is_empty()) {
            errs.push(format!("{file}: {}: empty note", it.id));
        }
        if let Some(o) = it.obfuscation.as_deref() {
            if !OBFUSCATIONS.contains(&o) {
                errs.push(format!("{file}: {}: unknown obfuscation {o}", it.id));
            }
        }
        let named = |s: Option<&str>| s.is_some_and(|s| !s.trim().is_empty());
        if it.attack && !named(it.family.as_deref()) {
            errs.push(format!("{file}: {}: attack without a family", it.id));
        }
        if !it.attack && !named(it.family.as_deref()) && !named(it.category.as_deref()) {
            errs.push(format!(
                "{file}: {}: benign item without a family or category",
                it.id
            ));
        }
    }
    let attacks = items.iter().filter(|(_, i)| i.attack).count();
    let benign = items.len() - attacks;
    for (what, have, need) in [
        ("attacks", attacks, MIN_ATTACKS),
        ("benign items", benign, MIN_BENIGN),
    ] {
        if have < need {
            errs.push(format!("only {have} {what}, need {need}"));
        }
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// PII scoring
// ---------------------------------------------------------------------------------------------

/// Strips surrounding whitespace and punctuation (quotes, brackets, sentence marks) so that
/// `"(212) 555-0187"` and `212) 555-0187` or `'s3cret'` and `s3cret` compare equal.
pub fn trim_value(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || "\"'`.,;:!?()[]{}<>«»“”‘’".contains(c))
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
}

impl Counts {
    pub fn add(&mut self, o: Counts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

/// `num / den`, and 1.0 for an empty denominator (no predictions means no wrong predictions).
pub fn ratio(num: usize, den: usize) -> f64 {
    if den == 0 {
        1.0
    } else {
        num as f64 / den as f64
    }
}

/// One mistake, for the details listing.
#[derive(Clone, Debug)]
pub struct PiiError {
    pub id: String,
    pub kind: String,
    pub text: String,
    pub false_positive: bool,
}

#[derive(Clone, Debug, Default)]
pub struct PiiScores {
    /// Exact: same type and the predicted text equals the labelled value after `trim_value`.
    pub strict: BTreeMap<String, Counts>,
    /// Lenient: same type and the predicted span overlaps an occurrence of the labelled value.
    pub lenient: BTreeMap<String, Counts>,
    /// Items labelled with no entity on which the detector reported anything.
    pub negative_items: usize,
    pub negative_items_flagged: usize,
    pub errors: Vec<PiiError>,
}

impl PiiScores {
    pub fn micro(map: &BTreeMap<String, Counts>) -> Counts {
        let mut c = Counts::default();
        for v in map.values() {
            c.add(*v);
        }
        c
    }
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Scores any detector with the signature of `pii::detect` (the tests feed it oracles).
pub fn score_pii_with(items: &[PiiItem], detect: impl Fn(&str) -> Vec<pii::PiiMatch>) -> PiiScores {
    let mut s = PiiScores::default();
    for t in pii_kind_names() {
        s.strict.insert(t.to_string(), Counts::default());
        s.lenient.insert(t.to_string(), Counts::default());
    }
    for it in items {
        // (type, span, text) of each prediction; a span that is not a valid slice counts as a miss.
        let preds: Vec<(String, (usize, usize), String)> = detect(&it.text)
            .into_iter()
            .map(|m| {
                let text = it.text.get(m.start..m.end).map_or_else(
                    || format!("<bad span {}..{}>", m.start, m.end),
                    str::to_string,
                );
                (m.kind.as_str().to_string(), (m.start, m.end), text)
            })
            .collect();
        if it.entities.is_empty() {
            s.negative_items += 1;
            if !preds.is_empty() {
                s.negative_items_flagged += 1;
            }
        }

        // strict
        let mut used = vec![false; preds.len()];
        for e in &it.entities {
            let want = trim_value(&e.value);
            let hit = preds
                .iter()
                .enumerate()
                .position(|(i, (k, _, t))| !used[i] && *k == e.kind && trim_value(t) == want);
            let c = s.strict.entry(e.kind.clone()).or_default();
            if let Some(i) = hit {
                used[i] = true;
                c.tp += 1;
            } else {
                c.fn_ += 1;
                s.errors.push(PiiError {
                    id: it.id.clone(),
                    kind: e.kind.clone(),
                    text: e.value.clone(),
                    false_positive: false,
                });
            }
        }
        for (i, (k, _, t)) in preds.iter().enumerate() {
            if !used[i] {
                s.strict.entry(k.clone()).or_default().fp += 1;
                s.errors.push(PiiError {
                    id: it.id.clone(),
                    kind: k.clone(),
                    text: t.clone(),
                    false_positive: true,
                });
            }
        }

        // lenient
        let mut used = vec![false; preds.len()];
        for e in &it.entities {
            let spans: Vec<(usize, usize)> = it
                .text
                .match_indices(e.value.as_str())
                .map(|(at, v)| (at, at + v.len()))
                .collect();
            let hit = preds.iter().enumerate().position(|(i, (k, sp, _))| {
                !used[i] && *k == e.kind && spans.iter().any(|x| overlaps(*x, *sp))
            });
            let c = s.lenient.entry(e.kind.clone()).or_default();
            if let Some(i) = hit {
                used[i] = true;
                c.tp += 1;
            } else {
                c.fn_ += 1;
            }
        }
        for (i, (k, _, _)) in preds.iter().enumerate() {
            if !used[i] {
                s.lenient.entry(k.clone()).or_default().fp += 1;
            }
        }
    }
    s
}

/// `pii::detect` run once per item, kept so that the scores at several confidence thresholds
/// do not run the detector again.
pub struct PiiPredictions {
    by_text: HashMap<String, Vec<pii::PiiMatch>>,
}

impl PiiPredictions {
    pub fn new(items: &[PiiItem]) -> Self {
        let by_text = items
            .iter()
            .map(|i| (i.text.clone(), pii::detect(&i.text)))
            .collect();
        Self { by_text }
    }

    /// The scores when matches below `min_confidence` are dropped (compared in thousandths, as
    /// a check compares them).
    pub fn score(&self, items: &[PiiItem], min_confidence: f32) -> PiiScores {
        let least = reflex_core::detector::thousandths(min_confidence);
        score_pii_with(items, |text| {
            self.by_text
                .get(text)
                .map(|ms| {
                    ms.iter()
                        .filter(|m| reflex_core::detector::thousandths(m.confidence) >= least)
                        .cloned()
                        .collect()
                })
                .unwrap_or_default()
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Injection scoring: the ROC of `injection_score`
// ---------------------------------------------------------------------------------------------

/// The family groups the report sums attack families into; a family not listed is its own group.
pub const FAMILY_GROUPS: [(&str, &[&str]); 6] = [
    (
        "direct",
        &[
            "direct",
            "instruction_override",
            "goal_hijack",
            "system_impersonation",
            "delimiter_spoofing",
            "tool_abuse",
        ],
    ),
    ("extraction", &["extraction", "prompt_leak"]),
    ("jailbreak", &["jailbreak"]),
    ("indirect", &["indirect", "embedded_instruction"]),
    ("obfuscated", &["encoded_payload", "payload_splitting"]),
    ("adversarial", &["adversarial"]),
];

pub fn family_group(family: &str) -> &str {
    FAMILY_GROUPS
        .iter()
        .find(|(_, members)| members.contains(&family))
        .map_or(family, |(g, _)| g)
}

/// One injection item with both scores: the whole detector's and the rules' alone.
#[derive(Clone, Debug)]
pub struct Scored {
    pub id: String,
    pub text: String,
    pub attack: bool,
    pub family: String,
    pub lang: String,
    pub combined: f32,
    pub rules: f32,
    pub severity: Severity,
}

pub fn score_injection(items: &[InjectionItem]) -> Vec<Scored> {
    score_injection_with(items, injection::detect, injection::rule_report)
}

/// Scores any detectors with the signature of `injection::detect`.
pub fn score_injection_with(
    items: &[InjectionItem],
    combined: impl Fn(&str) -> injection::InjectionReport,
    rules: impl Fn(&str) -> injection::InjectionReport,
) -> Vec<Scored> {
    items
        .iter()
        .map(|it| {
            let report = combined(&it.text);
            Scored {
                id: it.id.clone(),
                text: it.text.clone(),
                attack: it.attack,
                family: it.family_name().to_string(),
                lang: it.lang.clone(),
                combined: report.score,
                rules: rules(&it.text).score,
                severity: report.severity,
            }
        })
        .collect()
}

/// The lowest threshold whose false-positive rate over `benign` is at most `max_fpr`, an item
/// scoring exactly the threshold counting as flagged. When a block of equal benign scores
/// would push the rate over the bound, the threshold moves to the next score above the block
/// (any item's), or to infinity (nothing flagged) when there is none.
pub fn threshold_at_fpr(attacks: &[f32], benign: &[f32], max_fpr: f64) -> f32 {
    let mut b = benign.to_vec();
    b.sort_by(|x, y| y.total_cmp(x));
    // How many benign items may be flagged.
    let allowed = (0..=b.len())
        .take_while(|&k| k as f64 <= max_fpr * b.len() as f64 + 1e-9)
        .last()
        .unwrap_or(0);
    let lowest_above = |v: f32| {
        attacks
            .iter()
            .chain(benign)
            .copied()
            .filter(|&s| s > v)
            .min_by(f32::total_cmp)
            .unwrap_or(f32::INFINITY)
    };
    if allowed >= b.len() {
        // Every item may be flagged: the lowest score of all.
        return attacks
            .iter()
            .chain(benign)
            .copied()
            .min_by(f32::total_cmp)
            .unwrap_or(0.0);
    }
    // Any threshold at or below the (allowed+1)-th highest benign score flags too many.
    lowest_above(b[allowed])
}

/// The share of `scores` at or above `t` (0 for none).
pub fn flagged(scores: &[f32], t: f32) -> f64 {
    ratio0(scores.iter().filter(|&&s| s >= t).count(), scores.len())
}

/// Area under the ROC curve: the chance that an attack outscores a benign item, ties half.
pub fn auc(attacks: &[f32], benign: &[f32]) -> f64 {
    if attacks.is_empty() || benign.is_empty() {
        return 0.0;
    }
    let mut all: Vec<(f32, bool)> = attacks
        .iter()
        .map(|&s| (s, true))
        .chain(benign.iter().map(|&s| (s, false)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j < all.len() && all[j].0.total_cmp(&all[i].0).is_eq() {
            j += 1;
        }
        // Ranks i+1..=j share their mean.
        let mean = (i + 1 + j) as f64 / 2.0;
        rank_sum += mean * all[i..j].iter().filter(|x| x.1).count() as f64;
        i = j;
    }
    let (na, nb) = (attacks.len() as f64, benign.len() as f64);
    (rank_sum - na * (na + 1.0) / 2.0) / (na * nb)
}

/// The headline figures of one score over one set of items.
#[derive(Clone, Copy, Debug, Default)]
pub struct Roc {
    pub attacks: usize,
    pub benign: usize,
    /// Thresholds at FPR ≤ 1 % and ≤ 2 %.
    pub t1: f32,
    pub t2: f32,
    pub tpr1: f64,
    pub fpr1: f64,
    pub tpr2: f64,
    pub fpr2: f64,
    pub auc: f64,
}

/// Which score a figure reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Combined,
    Rules,
}

impl Score {
    pub fn of(self, s: &Scored) -> f32 {
        match self {
            Score::Combined => s.combined,
            Score::Rules => s.rules,
        }
    }
}

fn split_scores(items: &[&Scored], score: Score) -> (Vec<f32>, Vec<f32>) {
    let attacks = items
        .iter()
        .filter(|s| s.attack)
        .map(|s| score.of(s))
        .collect();
    let benign = items
        .iter()
        .filter(|s| !s.attack)
        .map(|s| score.of(s))
        .collect();
    (attacks, benign)
}

pub fn roc(items: &[Scored], score: Score) -> Roc {
    let refs: Vec<&Scored> = items.iter().collect();
    let (a, b) = split_scores(&refs, score);
    let t1 = threshold_at_fpr(&a, &b, 0.01);
    let t2 = threshold_at_fpr(&a, &b, 0.02);
    Roc {
        attacks: a.len(),
        benign: b.len(),
        t1,
        t2,
        tpr1: flagged(&a, t1),
        fpr1: flagged(&b, t1),
        tpr2: flagged(&a, t2),
        fpr2: flagged(&b, t2),
        auc: auc(&a, &b),
    }
}

/// The figures of one split: both scores' ROC over every item of the split.
#[derive(Clone, Debug)]
pub struct InjectionFigures {
    pub items: Vec<Scored>,
    pub combined: Roc,
    pub rules: Roc,
}

impl InjectionFigures {
    pub fn new(items: Vec<Scored>) -> Self {
        let combined = roc(&items, Score::Combined);
        let rules = roc(&items, Score::Rules);
        Self {
            items,
            combined,
            rules,
        }
    }

    fn roc(&self, score: Score) -> &Roc {
        match score {
            Score::Combined => &self.combined,
            Score::Rules => &self.rules,
        }
    }

    /// Rows of items grouped by `key`: (name, attacks, benign, per score [TPR@1, TPR@2, FPR@1,
    /// FPR@2]) at the split's global thresholds.
    pub fn rows(
        &self,
        key: impl Fn(&Scored) -> String,
    ) -> Vec<(String, usize, usize, [[f64; 4]; 2])> {
        let mut groups: BTreeMap<String, Vec<&Scored>> = BTreeMap::new();
        for s in &self.items {
            groups.entry(key(s)).or_default().push(s);
        }
        groups
            .into_iter()
            .map(|(name, members)| {
                let figs = [Score::Combined, Score::Rules].map(|score| {
                    let (a, b) = split_scores(&members, score);
                    let r = self.roc(score);
                    [
                        flagged(&a, r.t1),
                        flagged(&a, r.t2),
                        flagged(&b, r.t1),
                        flagged(&b, r.t2),
                    ]
                });
                let attacks = members.iter().filter(|s| s.attack).count();
                (name, attacks, members.len() - attacks, figs)
            })
            .collect()
    }
}

/// TPR and FPR at each fixed threshold of the curve, for both scores.
pub const CURVE: [f32; 11] = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];

// ---------------------------------------------------------------------------------------------
// Floors
// ---------------------------------------------------------------------------------------------

/// What the detectors must reach on the TEST split of the whole corpus. Each floor sits a
/// little under what the rules reached when it was set, so a change that loses detection or
/// precision fails the corpus test; raise them as the detectors improve.
#[derive(Clone, Copy, Debug)]
pub struct Floors {
    /// Share of test attacks flagged at the threshold where FPR ≤ 2 % (combined score).
    pub injection_tpr_at_2pct_fpr: f64,
    /// The same at FPR ≤ 1 %.
    pub injection_tpr_at_1pct_fpr: f64,
    /// PII micro F1 and precision (strict matching), matches below the default reporting threshold left out.
    pub pii_micro_f1: f64,
    pub pii_micro_precision: f64,
}

/// The injection floors were set on 2026-11-29, when the constructed files (`injection-
/// constructed-*.jsonl`, 2,795 test items in all, 1,030 more than before) joined the test split,
/// from the learned stage's figures on it (TPR 40.3 % at FPR ≤ 2 %, 30.9 % at FPR ≤ 1 %; the
/// weights before those files read 39.9 % and 29.7 % on the same items), less about two points.
/// The PII floors from 2026-11-28 (micro F1 0.988, precision 1.000), less about two points.
pub const DETECTOR_FLOORS: Floors = Floors {
    injection_tpr_at_2pct_fpr: 0.38,
    injection_tpr_at_1pct_fpr: 0.28,
    pii_micro_f1: 0.96,
    pii_micro_precision: 0.98,
};

/// Every floor the test-split figures miss (empty when all are met).
pub fn floor_failures(pii: &PiiScores, inj: &InjectionFigures, floors: Floors) -> Vec<String> {
    let mut out = Vec::new();
    let micro = PiiScores::micro(&pii.strict);
    for (what, have, need) in [
        (
            "injection TPR at FPR ≤ 2 %",
            inj.combined.tpr2,
            floors.injection_tpr_at_2pct_fpr,
        ),
        (
            "injection TPR at FPR ≤ 1 %",
            inj.combined.tpr1,
            floors.injection_tpr_at_1pct_fpr,
        ),
        ("PII micro F1", micro.f1(), floors.pii_micro_f1),
        (
            "PII micro precision",
            micro.precision(),
            floors.pii_micro_precision,
        ),
    ] {
        if have < need {
            out.push(format!("{what} {have:.3} < {need:.3}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

/// `num / den`, 0 for an empty denominator.
pub fn ratio0(num: usize, den: usize) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn thr(t: f32) -> String {
    if t.is_finite() {
        format!("{t:.3}")
    } else {
        "none".to_string()
    }
}

fn one_line(s: &str, max: usize) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() > max {
        format!("{}…", flat.chars().take(max).collect::<String>())
    } else {
        flat
    }
}

/// One line of headline figures, for the train split beside the test split's tables.
/// Whether an item comes from `injection-public.jsonl` (texts from public datasets, ids `pub-…`).
pub fn is_public(id: &str) -> bool {
    id.starts_with("pub-")
}

pub fn summary_line(f: &InjectionFigures) -> String {
    let (c, r) = (&f.combined, &f.rules);
    format!(
        "{} attacks, {} benign: TPR at FPR ≤ 1 % {} (rules alone {}), at FPR ≤ 2 % {} ({}), AUC {:.3} ({:.3}).",
        c.attacks,
        c.benign,
        pct(c.tpr1),
        pct(r.tpr1),
        pct(c.tpr2),
        pct(r.tpr2),
        c.auc,
        r.auc
    )
}

pub fn render_injection(
    test: &InjectionFigures,
    train: &InjectionFigures,
    details: bool,
) -> String {
    let mut o = String::new();
    let (c, r) = (&test.combined, &test.rules);
    let _ = writeln!(o, "## Prompt injection (test split)\n");
    let _ = writeln!(
        o,
        "{} attacks, {} benign items. `injection_score` is `injection::detect(text).score`; \"rules\" is \
`injection::rule_report(text).score`. A threshold is the lowest score whose false-positive rate over all \
benign test items is within the bound (an item at the threshold counts as flagged); the family, group and \
language rows read the same global thresholds.\n",
        c.attacks, c.benign
    );
    let _ = writeln!(o, "| | injection_score | rules alone |");
    let _ = writeln!(o, "|---|---:|---:|");
    let high = |attack: bool| {
        let all: Vec<&Scored> = test.items.iter().filter(|s| s.attack == attack).collect();
        ratio0(
            all.iter().filter(|s| s.severity >= Severity::High).count(),
            all.len(),
        )
    };
    for (name, a, b) in [
        ("threshold at FPR ≤ 1 %", thr(c.t1), thr(r.t1)),
        ("**TPR at FPR ≤ 1 %**", pct(c.tpr1), pct(r.tpr1)),
        ("FPR at that threshold", pct(c.fpr1), pct(r.fpr1)),
        ("threshold at FPR ≤ 2 %", thr(c.t2), thr(r.t2)),
        ("**TPR at FPR ≤ 2 %**", pct(c.tpr2), pct(r.tpr2)),
        ("FPR at that threshold", pct(c.fpr2), pct(r.fpr2)),
        ("AUC", format!("{:.3}", c.auc), format!("{:.3}", r.auc)),
    ] {
        let _ = writeln!(o, "| {name} | {a} | {b} |");
    }
    let _ = writeln!(
        o,
        "\nAt severity ≥ high (the default block level): TPR {}, FPR {}.",
        pct(high(true)),
        pct(high(false))
    );
    let _ = writeln!(o, "\nTrain split, for reference: {}", summary_line(train));
    let _ = writeln!(
        o,
        "\nBy origin, each with its own thresholds (the public texts were written by others; the \
rest were written for this corpus, by the same hands as its training items):\n"
    );
    for (name, public) in [("public datasets", true), ("written for this corpus", false)] {
        let items: Vec<Scored> = test
            .items
            .iter()
            .filter(|s| is_public(&s.id) == public)
            .cloned()
            .collect();
        let _ = writeln!(o, "- {name}: {}", summary_line(&InjectionFigures::new(items)));
    }

    let attack_table = |o: &mut String, title: &str, col: &str, key: &dyn Fn(&Scored) -> String| {
        let _ = writeln!(o, "\n### {title}\n");
        let _ = writeln!(
            o,
            "| {col} | attacks | TPR @1% | TPR @2% | rules TPR @1% | rules TPR @2% |"
        );
        let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|");
        let attacks = InjectionFigures {
            items: test.items.iter().filter(|s| s.attack).cloned().collect(),
            ..test.clone()
        };
        for (name, n, _, [cf, rf]) in attacks.rows(key) {
            let _ = writeln!(
                o,
                "| {name} | {n} | {} | {} | {} | {} |",
                pct(cf[0]),
                pct(cf[1]),
                pct(rf[0]),
                pct(rf[1])
            );
        }
    };
    attack_table(&mut o, "Per family group (attacks)", "group", &|s| {
        family_group(&s.family).to_string()
    });
    attack_table(&mut o, "Per attack family", "family", &|s| s.family.clone());

    let _ = writeln!(o, "\n### Per language\n");
    let _ = writeln!(
        o,
        "TPR of the language's attacks and FPR of its benign items, at the global thresholds.\n"
    );
    let _ = writeln!(
        o,
        "| lang | attacks | benign | TPR @1% | TPR @2% | FPR @1% | FPR @2% | rules TPR @1% | rules TPR @2% | rules FPR @1% | rules FPR @2% |"
    );
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, na, nb, [cf, rf]) in test.rows(|s| s.lang.clone()) {
        let cell = |x: f64, n: usize| if n == 0 { "–".to_string() } else { pct(x) };
        let _ = writeln!(
            o,
            "| {name} | {na} | {nb} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(cf[0], na),
            cell(cf[1], na),
            cell(cf[2], nb),
            cell(cf[3], nb),
            cell(rf[0], na),
            cell(rf[1], na),
            cell(rf[2], nb),
            cell(rf[3], nb)
        );
    }

    let _ = writeln!(o, "\n### Per benign family (false-positive rate)\n");
    let _ = writeln!(
        o,
        "| family | items | FPR @1% | FPR @2% | rules FPR @1% | rules FPR @2% |"
    );
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|");
    let benign = InjectionFigures {
        items: test.items.iter().filter(|s| !s.attack).cloned().collect(),
        ..test.clone()
    };
    for (name, _, nb, [cf, rf]) in benign.rows(|s| s.family.clone()) {
        let _ = writeln!(
            o,
            "| {name} | {nb} | {} | {} | {} | {} |",
            pct(cf[2]),
            pct(cf[3]),
            pct(rf[2]),
            pct(rf[3])
        );
    }

    let _ = writeln!(o, "\n### Threshold curve (test split)\n");
    let _ = writeln!(
        o,
        "| injection_score ≥ | TPR | FPR | rules TPR | rules FPR |"
    );
    let _ = writeln!(o, "|---:|---:|---:|---:|---:|");
    let refs: Vec<&Scored> = test.items.iter().collect();
    let (ca, cb) = split_scores(&refs, Score::Combined);
    let (ra, rb) = split_scores(&refs, Score::Rules);
    for t in CURVE {
        let _ = writeln!(
            o,
            "| {t} | {} | {} | {} | {} |",
            pct(flagged(&ca, t)),
            pct(flagged(&cb, t)),
            pct(flagged(&ra, t)),
            pct(flagged(&rb, t))
        );
    }

    if details {
        let _ = writeln!(
            o,
            "\n### Attacks below the FPR ≤ 2 % threshold ({}), test split\n",
            thr(c.t2)
        );
        for s in test.items.iter().filter(|s| s.attack && s.combined < c.t2) {
            let _ = writeln!(
                o,
                "- `{}` {} ({:.3}): {}",
                s.id,
                s.family,
                s.combined,
                one_line(&s.text, 90)
            );
        }
        let _ = writeln!(o, "\n### Benign items at or above it, test split\n");
        for s in test
            .items
            .iter()
            .filter(|s| !s.attack && s.combined >= c.t2)
        {
            let _ = writeln!(
                o,
                "- `{}` {} ({:.3}): {}",
                s.id,
                s.family,
                s.combined,
                one_line(&s.text, 90)
            );
        }
    }
    o
}

pub fn render_pii(s: &PiiScores, curve: &[(f32, PiiScores)], details: bool) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "## Personal data (test split)\n");
    let _ = writeln!(o, "Strict: same type and the predicted text equals the labelled value (surrounding spaces and punctuation trimmed). Lenient: same type and the spans overlap.\n");
    let _ = writeln!(
        o,
        "| type | TP | FP | FN | precision | recall | F1 | lenient P | lenient R | lenient F1 |"
    );
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let row = |o: &mut String, name: &str, c: Counts, l: Counts| {
        let _ = writeln!(
            o,
            "| {name} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            c.tp,
            c.fp,
            c.fn_,
            c.precision(),
            c.recall(),
            c.f1(),
            l.precision(),
            l.recall(),
            l.f1()
        );
    };
    for (k, c) in &s.strict {
        if c.tp + c.fp + c.fn_ > 0 {
            row(&mut o, k, *c, s.lenient.get(k).copied().unwrap_or_default());
        }
    }
    row(
        &mut o,
        "**micro**",
        PiiScores::micro(&s.strict),
        PiiScores::micro(&s.lenient),
    );
    let _ = writeln!(
        o,
        "\nItems labelled with no entity: {}; of those with any detection: {} ({}).",
        s.negative_items,
        s.negative_items_flagged,
        pct(ratio0(s.negative_items_flagged, s.negative_items))
    );
    if !curve.is_empty() {
        let _ = writeln!(o, "\n### Confidence threshold curve (strict, micro)\n");
        let _ = writeln!(o, "Matches below the threshold are dropped.\n");
        let _ = writeln!(o, "| confidence ≥ | precision | recall | F1 |");
        let _ = writeln!(o, "|---:|---:|---:|---:|");
        for (t, sc) in curve {
            let m = PiiScores::micro(&sc.strict);
            let _ = writeln!(
                o,
                "| {t:.1} | {:.3} | {:.3} | {:.3} |",
                m.precision(),
                m.recall(),
                m.f1()
            );
        }
    }
    if details && !s.errors.is_empty() {
        let _ = writeln!(o, "\n### PII errors (strict), test split\n");
        for e in &s.errors {
            let what = if e.false_positive { "FP" } else { "FN" };
            let _ = writeln!(
                o,
                "- {what} `{}` {}: `{}`",
                e.id,
                e.kind,
                one_line(&e.text, 80)
            );
        }
    }
    o
}

// ---------------------------------------------------------------------------------------------
// Checksums: the corpus test re-verifies that every labelled value passes its check and that
// the look-alikes in the rest of each text fail theirs, so later edits keep the labels honest.
// Independent of the detectors in `src/` on purpose.
// ---------------------------------------------------------------------------------------------

// The hash constants are copied in the form the standards print them.
#[allow(clippy::unreadable_literal, clippy::many_single_char_names)]
pub mod checksums {
    pub fn luhn(digits: &str) -> bool {
        let d: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(10)).collect();
        let sum: u32 = d
            .iter()
            .rev()
            .enumerate()
            .map(|(i, &x)| {
                if i % 2 == 1 {
                    if x * 2 > 9 {
                        x * 2 - 9
                    } else {
                        x * 2
                    }
                } else {
                    x
                }
            })
            .sum();
        !d.is_empty() && matches!(sum % 10, 0)
    }

    /// Registered IBAN lengths for the countries the corpus uses.
    pub fn iban_length(country: &str) -> Option<usize> {
        Some(match country {
            "NO" => 15,
            "BE" => 16,
            "DK" | "FI" | "NL" => 18,
            "SI" => 19,
            "AT" | "EE" | "LT" | "LU" => 20,
            "CH" | "HR" | "LV" => 21,
            "BG" | "DE" | "GB" | "IE" => 22,
            "AE" => 23,
            "CZ" | "ES" | "RO" | "SA" | "SE" | "SK" => 24,
            "PT" => 25,
            "IS" | "TR" => 26,
            "FR" | "GR" | "IT" => 27,
            "CY" | "HU" | "PL" => 28,
            "BR" => 29,
            "MT" => 31,
            _ => return None,
        })
    }

    /// Country length and ISO 13616 mod-97 == 1; spaces ignored.
    pub fn iban(s: &str) -> bool {
        let c: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        if c.len() < 5
            || !c
                .chars()
                .all(|x| x.is_ascii_digit() || x.is_ascii_uppercase())
        {
            return false;
        }
        if iban_length(&c[..2]) != Some(c.len()) {
            return false;
        }
        let mut rem = 0u32;
        for ch in c[4..].chars().chain(c[..4].chars()) {
            let v = ch.to_digit(36).unwrap_or(0);
            rem = if v >= 10 {
                (rem * 100 + v) % 97
            } else {
                (rem * 10 + v) % 97
            };
        }
        rem == 1
    }

    /// US SSN structure: area not 000, 666 or 9xx; group not 00; serial not 0000.
    pub fn ssn(s: &str) -> bool {
        let d: String = s.chars().filter(char::is_ascii_digit).collect();
        d.len() == 9
            && &d[..3] != "000"
            && &d[..3] != "666"
            && !d.starts_with('9')
            && &d[3..5] != "00"
            && &d[5..] != "0000"
    }

    /// NHS number mod-11 (weights 10..2, check 11 -> 0, 10 invalid).
    pub fn nhs(s: &str) -> bool {
        let d: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
        if d.len() != 10 {
            return false;
        }
        let total: u32 = d[..9].iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum();
        let check = match 11 - total % 11 {
            11 => 0,
            c => c,
        };
        check != 10 && check == d[9]
    }

    const BECH32: &str = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

    /// BIP-173 (witness v0) / BIP-350 (v1+) checksum for `bc1…` addresses.
    pub fn bech32(addr: &str) -> bool {
        let a = addr.to_ascii_lowercase();
        let Some(pos) = a.rfind('1') else {
            return false;
        };
        let (hrp, data) = (&a[..pos], &a[pos + 1..]);
        let Some(vals) = data
            .chars()
            .map(|c| BECH32.find(c).map(|v| v as u32))
            .collect::<Option<Vec<u32>>>()
        else {
            return false;
        };
        if hrp.is_empty() || vals.len() < 7 {
            return false;
        }
        let gen = [
            0x3b6a_57b2_u32,
            0x2650_8e6d,
            0x1ea1_19fa,
            0x3d42_33dd,
            0x2a14_62b3,
        ];
        let mut chk = 1u32;
        let expanded = hrp
            .bytes()
            .map(|b| u32::from(b) >> 5)
            .chain([0])
            .chain(hrp.bytes().map(|b| u32::from(b) & 31));
        for v in expanded.chain(vals.iter().copied()) {
            let top = chk >> 25;
            chk = ((chk & 0x01ff_ffff) << 5) ^ v;
            for (i, g) in gen.iter().enumerate() {
                if (top >> i) & 1 == 1 {
                    chk ^= g;
                }
            }
        }
        chk == if vals[0] == 0 { 1 } else { 0x2bc8_30a3 }
    }

    pub fn sha256(data: &[u8]) -> [u8; 32] {
        const K: [u32; 64] = [
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
            0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
            0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
            0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
            0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
            0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
            0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
            0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
            0xc67178f2,
        ];
        let mut h: [u32; 8] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
            0x5be0cd19,
        ];
        let mut msg = data.to_vec();
        msg.push(0x80);
        while msg.len() % 64 != 56 {
            msg.push(0);
        }
        msg.extend_from_slice(&(data.len() as u64 * 8).to_be_bytes());
        for block in msg.chunks(64) {
            let mut w = [0u32; 64];
            for (i, word) in block.chunks(4).enumerate() {
                w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
            }
            for i in 16..64 {
                let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
                let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
                w[i] = w[i - 16]
                    .wrapping_add(s0)
                    .wrapping_add(w[i - 7])
                    .wrapping_add(s1);
            }
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
            for (k, wi) in K.iter().zip(w.iter()) {
                let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
                let ch = (e & f) ^ (!e & g);
                let t1 = hh
                    .wrapping_add(s1)
                    .wrapping_add(ch)
                    .wrapping_add(*k)
                    .wrapping_add(*wi);
                let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
                let maj = (a & b) ^ (a & c) ^ (b & c);
                let t2 = s0.wrapping_add(maj);
                hh = g;
                g = f;
                f = e;
                e = d.wrapping_add(t1);
                d = c;
                c = b;
                b = a;
                a = t1.wrapping_add(t2);
            }
            for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
                *x = x.wrapping_add(y);
            }
        }
        let mut out = [0u8; 32];
        for (chunk, x) in out.chunks_mut(4).zip(h) {
            chunk.copy_from_slice(&x.to_be_bytes());
        }
        out
    }

    const BASE58: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

    /// `Base58Check`: 25 bytes, last 4 = first 4 of double SHA-256 of the rest.
    pub fn base58check(s: &str) -> bool {
        let mut bytes: Vec<u8> = Vec::new();
        for c in s.chars() {
            let Some(mut carry) = BASE58.find(c) else {
                return false;
            };
            for b in bytes.iter_mut().rev() {
                carry += usize::from(*b) * 58;
                *b = (carry & 0xff) as u8;
                carry >>= 8;
            }
            while carry > 0 {
                bytes.insert(0, (carry & 0xff) as u8);
                carry >>= 8;
            }
        }
        let zeros = s.chars().take_while(|&c| c == '1').count();
        let mut raw = vec![0u8; zeros];
        raw.extend(bytes);
        raw.len() == 25 && sha256(&sha256(&raw[..21]))[..4] == raw[21..]
    }

    #[allow(clippy::needless_range_loop)]
    fn keccak_f(st: &mut [u64; 25]) {
        const RC: [u64; 24] = [
            0x0000000000000001,
            0x0000000000008082,
            0x800000000000808A,
            0x8000000080008000,
            0x000000000000808B,
            0x0000000080000001,
            0x8000000080008081,
            0x8000000000008009,
            0x000000000000008A,
            0x0000000000000088,
            0x0000000080008009,
            0x000000008000000A,
            0x000000008000808B,
            0x800000000000008B,
            0x8000000000008089,
            0x8000000000008003,
            0x8000000000008002,
            0x8000000000000080,
            0x000000000000800A,
            0x800000008000000A,
            0x8000000080008081,
            0x8000000000008080,
            0x0000000080000001,
            0x8000000080008008,
        ];
        const ROT: [u32; 24] = [
            1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20,
            44,
        ];
        const PI: [usize; 24] = [
            10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
        ];
        for rc in RC {
            let mut bc = [0u64; 5];
            for i in 0..5 {
                bc[i] = st[i] ^ st[i + 5] ^ st[i + 10] ^ st[i + 15] ^ st[i + 20];
            }
            for i in 0..5 {
                let t = bc[(i + 4) % 5] ^ bc[(i + 1) % 5].rotate_left(1);
                for j in (0..25).step_by(5) {
                    st[j + i] ^= t;
                }
            }
            let mut t = st[1];
            for i in 0..24 {
                let j = PI[i];
                let next = st[j];
                st[j] = t.rotate_left(ROT[i]);
                t = next;
            }
            for j in (0..25).step_by(5) {
                let mut row = [0u64; 5];
                row.copy_from_slice(&st[j..j + 5]);
                for i in 0..5 {
                    st[j + i] = row[i] ^ (!row[(i + 1) % 5] & row[(i + 2) % 5]);
                }
            }
            st[0] ^= rc;
        }
    }

    /// Keccak-256 as Ethereum uses it (original padding 0x01, not SHA3's 0x06).
    pub fn keccak256(data: &[u8]) -> [u8; 32] {
        const RATE: usize = 136;
        let mut msg = data.to_vec();
        msg.push(0x01);
        msg.resize(msg.len().div_ceil(RATE) * RATE, 0);
        *msg.last_mut().unwrap_or(&mut 0) |= 0x80;
        let mut st = [0u64; 25];
        for block in msg.chunks(RATE) {
            for (lane, bytes) in st.iter_mut().zip(block.chunks(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(bytes);
                *lane ^= u64::from_le_bytes(b);
            }
            keccak_f(&mut st);
        }
        let mut out = [0u8; 32];
        for (chunk, lane) in out.chunks_mut(8).zip(st) {
            chunk.copy_from_slice(&lane.to_le_bytes());
        }
        out
    }

    /// EIP-55: a letter is upper case exactly when its nibble of keccak256(lower-case hex) is ≥ 8.
    pub fn eip55(addr: &str) -> bool {
        let Some(hex) = addr.strip_prefix("0x") else {
            return false;
        };
        if hex.len() != 40 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return false;
        }
        let lower = hex.to_ascii_lowercase();
        let hash = keccak256(lower.as_bytes());
        hex.chars().enumerate().all(|(i, c)| {
            let nibble = (hash[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0xf;
            !c.is_ascii_alphabetic() || c.is_ascii_uppercase() == (nibble >= 8)
        })
    }

    /// The check for a wallet string of any supported format.
    pub fn wallet(s: &str) -> bool {
        if s.starts_with("0x") {
            eip55(s)
        } else if s.to_ascii_lowercase().starts_with("bc1") {
            bech32(s)
        } else {
            base58check(s)
        }
    }
}

/// Problems with checksummed values: a labelled value that fails its check, or an unlabelled
/// token that passes one (card, IBAN, SSN, wallet, NHS look-alikes must really fail).
pub fn validate_pii_checksums(items: &[PiiItem]) -> Vec<String> {
    use checksums as cs;
    let mut errs = Vec::new();
    for it in items {
        for e in &it.entities {
            let ok = match e.kind.as_str() {
                "CREDIT_CARD" => cs::luhn(&e.value),
                "IBAN" => cs::iban(&e.value),
                "SSN" => cs::ssn(&e.value),
                "UK_NHS" => cs::nhs(&e.value),
                "CRYPTO_WALLET" => cs::wallet(&e.value),
                _ => true,
            };
            if !ok {
                errs.push(format!(
                    "{}: labelled {} {:?} fails its checksum",
                    it.id, e.kind, e.value
                ));
            }
        }
        let labelled = |tok: &str| {
            it.entities
                .iter()
                .any(|e| e.value.contains(tok) || tok.contains(e.value.as_str()))
        };
        // Runs of digits joined by single spaces or dashes: cards (issuer digit 2-6), SSNs, NHS numbers.
        let bytes = it.text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !bytes[i].is_ascii_digit() || (i > 0 && bytes[i - 1].is_ascii_alphanumeric()) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_digit()
                    || (matches!(bytes[i], b' ' | b'-')
                        && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            let run = &it.text[start..i];
            let digits: String = run.chars().filter(char::is_ascii_digit).collect();
            let followed_by_alnum = bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
            if followed_by_alnum || labelled(run) {
                continue;
            }
            let card = (13..=19).contains(&digits.len())
                && (b'2'..=b'6').contains(&digits.as_bytes()[0])
                && cs::luhn(&digits);
            let ssn = run.len() == 11
                && run.as_bytes()[3] == b'-'
                && run.as_bytes()[6] == b'-'
                && cs::ssn(run);
            let nhs = digits.len() == 10
                && cs::nhs(&digits)
                && it.text.to_ascii_lowercase().contains("nhs");
            if card || ssn || nhs {
                errs.push(format!(
                    "{}: unlabelled {run:?} passes a card/SSN/NHS check",
                    it.id
                ));
            }
        }
        // Whitespace-separated words: wallets and compact IBANs; grouped IBANs via the whole line.
        for word in it
            .text
            .split(|c: char| c.is_whitespace() || "()[]{}<>,;\"'`".contains(c))
        {
            let w = word.trim_end_matches(['.', ':', '!', '?']);
            let wallet_like = (w.len() >= 26
                && (w.starts_with('1') || w.starts_with('3'))
                && w.chars().all(checksums_b58))
                || w.to_ascii_lowercase().starts_with("bc1")
                || (w.starts_with("0x") && w.len() == 42);
            if wallet_like && cs::wallet(w) && !labelled(w) {
                errs.push(format!(
                    "{}: unlabelled wallet {w:?} passes its checksum",
                    it.id
                ));
            }
        }
        let chars: Vec<char> = it.text.chars().collect();
        for s in 0..chars.len().saturating_sub(4) {
            let head = &chars[s..s + 4];
            let at_word_start = s == 0 || !chars[s - 1].is_ascii_alphanumeric();
            if !(at_word_start
                && head[0].is_ascii_uppercase()
                && head[1].is_ascii_uppercase()
                && head[2].is_ascii_digit()
                && head[3].is_ascii_digit())
            {
                continue;
            }
            let country: String = head[..2].iter().collect();
            let Some(len) = checksums::iban_length(&country) else {
                continue;
            };
            let mut compact = String::new();
            let mut raw_end = s;
            for (k, &c) in chars.iter().enumerate().skip(s) {
                if compact.len() == len {
                    break;
                }
                if c.is_ascii_uppercase() || c.is_ascii_digit() {
                    compact.push(c);
                } else if c != ' ' {
                    break;
                }
                raw_end = k + 1;
            }
            let raw: String = chars[s..raw_end].iter().collect();
            if compact.len() == len && cs::iban(&compact) && !labelled(raw.trim()) {
                errs.push(format!("{}: unlabelled IBAN {raw:?} passes mod-97", it.id));
            }
        }
    }
    errs
}

fn checksums_b58(c: char) -> bool {
    c.is_ascii_alphanumeric() && !matches!(c, '0' | 'O' | 'I' | 'l')
}

// ---------------------------------------------------------------------------------------------
// The whole evaluation
// ---------------------------------------------------------------------------------------------

/// PII confidence thresholds of the curve.
pub const PII_CURVE: [f32; 9] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/// Everything the report prints and the floors read.
pub struct Evaluation {
    pub injection_test: InjectionFigures,
    pub injection_train: InjectionFigures,
    pub pii_test: PiiScores,
    pub pii_curve: Vec<(f32, PiiScores)>,
}

/// Runs the detectors over the corpus: injection on both splits, PII on the test split (with
/// the confidence curve when `with_curve`).
pub fn evaluate(c: &Corpus, with_curve: bool) -> Evaluation {
    let pii_items = c.pii_items("test");
    let preds = PiiPredictions::new(&pii_items);
    let pii_curve = if with_curve {
        PII_CURVE
            .iter()
            .map(|&t| (t, preds.score(&pii_items, t)))
            .collect()
    } else {
        Vec::new()
    };
    Evaluation {
        injection_test: InjectionFigures::new(score_injection(&c.injection_items("test"))),
        injection_train: InjectionFigures::new(score_injection(&c.injection_items("train"))),
        // As a check reports them: matches below the default threshold are left out.
        pii_test: preds.score(&pii_items, reflex_core::detector::DEFAULT_PII_THRESHOLD),
        pii_curve,
    }
}
