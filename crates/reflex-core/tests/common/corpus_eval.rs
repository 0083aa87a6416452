//! Shared by `tests/corpus.rs` and `examples/corpus_report.rs` (each includes it with
//! `#[path = ...] mod corpus_eval;`): loads the labelled corpora in `test/corpus/`, checks
//! the corpus itself, runs the detectors over it and renders the figures as Markdown.
//! The corpus lines are read with the crate's own JSON reader (`reflex_core::json`).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use reflex_core::injection;
use reflex_core::json::{self, Value as Json};
use reflex_core::pii;
use reflex_core::severity::Severity;

// ---------------------------------------------------------------------------------------------
// Corpus items
// ---------------------------------------------------------------------------------------------

pub const PII_TYPES: [&str; 14] = [
    "EMAIL",
    "PHONE",
    "CREDIT_CARD",
    "SSN",
    "IBAN",
    "IP_ADDRESS",
    "MAC_ADDRESS",
    "CRYPTO_WALLET",
    "API_KEY",
    "PRIVATE_KEY",
    "PASSWORD",
    "DATE_OF_BIRTH",
    "UK_NHS",
    "PASSPORT",
];
pub const FAMILIES: [&str; 10] = [
    "instruction_override",
    "prompt_leak",
    "jailbreak",
    "system_impersonation",
    "delimiter_spoofing",
    "embedded_instruction",
    "tool_abuse",
    "goal_hijack",
    "payload_splitting",
    "encoded_payload",
];
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

/// The minimums the corpus itself must meet (checked by the non-ignored validation test).
pub const MIN_PII_ITEMS: usize = 250;
pub const MIN_PII_NEGATIVE_ITEMS: usize = 100;
pub const MIN_PII_ENTITIES_PER_TYPE: usize = 5;
pub const MIN_INJECTION_ITEMS: usize = 250;
pub const MIN_ATTACKS: usize = 110;
pub const MIN_BENIGN: usize = 120;
pub const MIN_PER_FAMILY: usize = 8;
pub const MIN_OBFUSCATED_ATTACKS: usize = 30;
pub const MIN_ATTACK_LANGUAGES_BESIDES_EN: usize = 10;

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
}

#[derive(Clone, Debug)]
pub struct InjectionItem {
    pub id: String,
    pub text: String,
    pub attack: bool,
    pub family: Option<String>,
    pub obfuscation: String,
    pub lang: String,
    pub category: Option<String>,
    pub note: String,
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
        let v = json::parse(line).ok_or_else(|| format!("{}:{}: not one JSON document", path.display(), n + 1))?;
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
            obfuscation: req_str(&v, "obfuscation", line)?,
            lang: req_str(&v, "lang", line)?,
            category: opt_str(&v, "category", line)?,
            note: req_str(&v, "note", line)?,
        });
    }
    Ok(out)
}

/// The text of every corpus item, training and holdout: the injection files', then the PII
/// files' (the dump examples build their texts from these).
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
// Corpus validation
// ---------------------------------------------------------------------------------------------

/// Everything wrong with the PII corpus (empty when it is sound).
pub fn validate_pii(items: &[PiiItem]) -> Vec<String> {
    let mut errs = Vec::new();
    let mut seen = HashSet::new();
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    for it in items {
        if !seen.insert(it.id.as_str()) {
            errs.push(format!("duplicate id {}", it.id));
        }
        if it.note.trim().is_empty() {
            errs.push(format!("{}: empty note", it.id));
        }
        for e in &it.entities {
            if !PII_TYPES.contains(&e.kind.as_str()) {
                errs.push(format!("{}: unknown type {}", it.id, e.kind));
            }
            if e.value.is_empty() || !it.text.contains(&e.value) {
                errs.push(format!(
                    "{}: value {:?} does not occur in the text",
                    it.id, e.value
                ));
            }
            *per_type.entry(e.kind.as_str()).or_default() += 1;
        }
    }
    if items.len() < MIN_PII_ITEMS {
        errs.push(format!(
            "only {} PII items, need {MIN_PII_ITEMS}",
            items.len()
        ));
    }
    let negatives = items.iter().filter(|i| i.entities.is_empty()).count();
    if negatives < MIN_PII_NEGATIVE_ITEMS {
        errs.push(format!(
            "only {negatives} PII items without entities, need {MIN_PII_NEGATIVE_ITEMS}"
        ));
    }
    for t in PII_TYPES {
        let n = per_type.get(t).copied().unwrap_or(0);
        if n < MIN_PII_ENTITIES_PER_TYPE {
            errs.push(format!(
                "type {t} has {n} labelled entities, need {MIN_PII_ENTITIES_PER_TYPE}"
            ));
        }
    }
    errs
}

/// Everything wrong with the injection corpus (empty when it is sound).
pub fn validate_injection(items: &[InjectionItem]) -> Vec<String> {
    let mut errs = Vec::new();
    let mut seen = HashSet::new();
    let mut texts = HashSet::new();
    let mut per_family: BTreeMap<&str, usize> = BTreeMap::new();
    let mut langs = BTreeSet::new();
    for it in items {
        if !seen.insert(it.id.as_str()) {
            errs.push(format!("duplicate id {}", it.id));
        }
        if !texts.insert(it.text.as_str()) {
            errs.push(format!("{}: duplicate text", it.id));
        }
        if it.text.trim().is_empty() || it.note.trim().is_empty() || it.lang.is_empty() {
            errs.push(format!("{}: empty text, note or lang", it.id));
        }
        if !OBFUSCATIONS.contains(&it.obfuscation.as_str()) {
            errs.push(format!("{}: unknown obfuscation {}", it.id, it.obfuscation));
        }
        match (it.attack, it.family.as_deref(), it.category.as_deref()) {
            (true, Some(f), _) if FAMILIES.contains(&f) => {
                *per_family.entry(f).or_default() += 1;
                if it.lang != "en" {
                    langs.insert(it.lang.as_str());
                }
            }
            (true, f, _) => errs.push(format!("{}: attack with unknown family {f:?}", it.id)),
            (false, None, Some(c)) if !c.is_empty() => {}
            (false, _, _) => errs.push(format!(
                "{}: benign items need family null and a category",
                it.id
            )),
        }
    }
    let attacks = items.iter().filter(|i| i.attack).count();
    let benign = items.len() - attacks;
    let obfuscated = items
        .iter()
        .filter(|i| i.attack && i.obfuscation != "none")
        .count();
    for (what, have, need) in [
        ("injection items", items.len(), MIN_INJECTION_ITEMS),
        ("attacks", attacks, MIN_ATTACKS),
        ("benign items", benign, MIN_BENIGN),
        ("obfuscated attacks", obfuscated, MIN_OBFUSCATED_ATTACKS),
        (
            "non-English attack languages",
            langs.len(),
            MIN_ATTACK_LANGUAGES_BESIDES_EN,
        ),
    ] {
        if have < need {
            errs.push(format!("only {have} {what}, need {need}"));
        }
    }
    for f in FAMILIES {
        let n = per_family.get(f).copied().unwrap_or(0);
        if n < MIN_PER_FAMILY {
            errs.push(format!("family {f} has {n} attacks, need {MIN_PER_FAMILY}"));
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

pub fn score_pii(items: &[PiiItem]) -> PiiScores {
    score_pii_with(items, pii::detect)
}

/// Scores any detector with the signature of `pii::detect` (the tests feed it oracles).
pub fn score_pii_with(items: &[PiiItem], detect: impl Fn(&str) -> Vec<pii::PiiMatch>) -> PiiScores {
    let mut s = PiiScores::default();
    for t in PII_TYPES {
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

// ---------------------------------------------------------------------------------------------
// Injection scoring
// ---------------------------------------------------------------------------------------------

/// One row of a detection table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rate {
    pub n: usize,
    /// Items whose report reached `Severity::High` (blocked by default).
    pub high: usize,
    /// Items whose report reached `Severity::Medium`.
    pub medium: usize,
    /// Attacks only: flagged at ≥ Medium and some match carries the labelled family.
    pub family_agrees: usize,
}

impl Rate {
    pub fn at_high(&self) -> f64 {
        ratio0(self.high, self.n)
    }
    pub fn at_medium(&self) -> f64 {
        ratio0(self.medium, self.n)
    }
}

/// `num / den`, 0 for an empty denominator.
pub fn ratio0(num: usize, den: usize) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

#[derive(Clone, Debug, Default)]
pub struct InjectionScores {
    pub attacks: Rate,
    pub benign: Rate,
    pub per_family: BTreeMap<String, Rate>,
    pub per_obfuscation: BTreeMap<String, Rate>,
    pub per_lang: BTreeMap<String, Rate>,
    pub per_category: BTreeMap<String, Rate>,
    /// Attacks not blocked and benign items blocked: (id, severity, text).
    pub missed: Vec<(String, &'static str, String)>,
    pub false_alarms: Vec<(String, &'static str, String)>,
}

fn bump(r: &mut Rate, high: bool, medium: bool, agrees: bool) {
    r.n += 1;
    r.high += usize::from(high);
    r.medium += usize::from(medium);
    r.family_agrees += usize::from(agrees);
}

pub fn score_injection(items: &[InjectionItem]) -> InjectionScores {
    score_injection_with(items, injection::detect)
}

/// Scores any detector with the signature of `injection::detect`.
pub fn score_injection_with(
    items: &[InjectionItem],
    detect: impl Fn(&str) -> injection::InjectionReport,
) -> InjectionScores {
    let mut s = InjectionScores::default();
    for f in FAMILIES {
        s.per_family.insert(f.to_string(), Rate::default());
    }
    for it in items {
        let report = detect(&it.text);
        let high = report.severity >= Severity::High;
        let medium = report.severity >= Severity::Medium;
        if it.attack {
            let fam = it.family.clone().unwrap_or_default();
            let agrees = medium && report.matches.iter().any(|m| m.family.as_str() == fam);
            bump(&mut s.attacks, high, medium, agrees);
            bump(s.per_family.entry(fam).or_default(), high, medium, agrees);
            bump(
                s.per_obfuscation.entry(it.obfuscation.clone()).or_default(),
                high,
                medium,
                agrees,
            );
            bump(
                s.per_lang.entry(it.lang.clone()).or_default(),
                high,
                medium,
                agrees,
            );
            if !high {
                s.missed
                    .push((it.id.clone(), report.severity.as_str(), it.text.clone()));
            }
        } else {
            bump(&mut s.benign, high, medium, false);
            bump(
                s.per_category
                    .entry(it.category.clone().unwrap_or_default())
                    .or_default(),
                high,
                medium,
                false,
            );
            if high {
                s.false_alarms
                    .push((it.id.clone(), report.severity.as_str(), it.text.clone()));
            }
        }
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Floors and rendering
// ---------------------------------------------------------------------------------------------

/// Quality floors a real detector must meet on this corpus.
#[derive(Clone, Copy, Debug)]
pub struct Floors {
    pub pii_micro_f1: f64,
    pub injection_tpr_high: f64,
    pub benign_fpr_high: f64,
}

pub const DETECTOR_FLOORS: Floors = Floors {
    pii_micro_f1: 0.90,
    injection_tpr_high: 0.85,
    benign_fpr_high: 0.05,
};

/// Every floor the scores miss (empty when all are met).
pub fn floor_failures(pii: &PiiScores, inj: &InjectionScores, floors: Floors) -> Vec<String> {
    let mut out = Vec::new();
    let f1 = PiiScores::micro(&pii.strict).f1();
    if f1 < floors.pii_micro_f1 {
        out.push(format!("PII micro F1 {f1:.3} < {:.2}", floors.pii_micro_f1));
    }
    let tpr = inj.attacks.at_high();
    if tpr < floors.injection_tpr_high {
        out.push(format!(
            "injection TPR (>= high) {tpr:.3} < {:.2}",
            floors.injection_tpr_high
        ));
    }
    let fpr = inj.benign.at_high();
    if fpr > floors.benign_fpr_high {
        out.push(format!(
            "benign FPR (>= high) {fpr:.3} > {:.2}",
            floors.benign_fpr_high
        ));
    }
    out
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
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

pub fn render_pii(s: &PiiScores, details: bool) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "## PII detection\n");
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
        row(&mut o, k, *c, s.lenient.get(k).copied().unwrap_or_default());
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
    if details && !s.errors.is_empty() {
        let _ = writeln!(o, "\n### PII errors (strict)\n");
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

fn rate_table(
    o: &mut String,
    title: &str,
    col: &str,
    map: &BTreeMap<String, Rate>,
    with_family: bool,
) {
    let _ = writeln!(o, "\n### {title}\n");
    if with_family {
        let _ = writeln!(o, "| {col} | items | ≥ high | ≥ medium | family agrees |");
        let _ = writeln!(o, "|---|---:|---:|---:|---:|");
    } else {
        let _ = writeln!(o, "| {col} | items | ≥ high | ≥ medium |");
        let _ = writeln!(o, "|---|---:|---:|---:|");
    }
    for (k, r) in map {
        if with_family {
            let _ = writeln!(
                o,
                "| {k} | {} | {} | {} | {} |",
                r.n,
                pct(r.at_high()),
                pct(r.at_medium()),
                pct(ratio0(r.family_agrees, r.medium))
            );
        } else {
            let _ = writeln!(
                o,
                "| {k} | {} | {} | {} |",
                r.n,
                pct(r.at_high()),
                pct(r.at_medium())
            );
        }
    }
}

pub fn render_injection(s: &InjectionScores, details: bool) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "## Prompt-injection detection\n");
    let _ = writeln!(
        o,
        "Attacks: {} items, detection rate {} at ≥ high (blocked), {} at ≥ medium.  \nBenign: {} items, false-positive rate {} at ≥ high, {} at ≥ medium.",
        s.attacks.n,
        pct(s.attacks.at_high()),
        pct(s.attacks.at_medium()),
        s.benign.n,
        pct(s.benign.at_high()),
        pct(s.benign.at_medium())
    );
    rate_table(
        &mut o,
        "Detection rate per family (attacks)",
        "family",
        &s.per_family,
        true,
    );
    rate_table(
        &mut o,
        "Detection rate per obfuscation (attacks)",
        "obfuscation",
        &s.per_obfuscation,
        false,
    );
    rate_table(
        &mut o,
        "Detection rate per language (attacks)",
        "lang",
        &s.per_lang,
        false,
    );
    rate_table(
        &mut o,
        "False-positive rate per benign category",
        "category",
        &s.per_category,
        false,
    );
    let _ = writeln!(o, "\n\"family agrees\": of the attacks flagged at ≥ medium, the share with a match of the labelled family.");
    if details {
        let _ = writeln!(o, "\n### Attacks not blocked\n");
        for (id, sev, t) in &s.missed {
            let _ = writeln!(o, "- `{id}` ({sev}): {}", one_line(t, 90));
        }
        let _ = writeln!(o, "\n### Benign items blocked\n");
        for (id, sev, t) in &s.false_alarms {
            let _ = writeln!(o, "- `{id}` ({sev}): {}", one_line(t, 90));
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
