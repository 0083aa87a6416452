#![allow(clippy::many_single_char_names)] // the maths reads as written on paper
//! Trains the injection detector's learned stage and writes its weights to
//! `src/injection/model/weights.bin` (`npm run train:injection`).
//!
//! Reads every `test/corpus/injection*.jsonl` (or those of the directory given as an argument),
//! keeps the items whose `split` is `train` (an item without a `split` gets the corpus rule's),
//! and fits a logistic model over the learned stage's own features (`injection::learn`):
//! `AdaGrad` over the items in a fixed-seed order, L2 regularisation, on one thread, so running it
//! twice writes the same bytes; the model kept is the mean of those at the end of each epoch of
//! the second half. The regularisation, the number of epochs and the weight of the texts not
//! from public datasets are chosen by 5-fold cross-validation inside the training split (folds
//! by `group`, else `id`), on the out-of-fold figures of the public texts; the out-of-fold
//! predictions of the chosen setting fit the whole/window combination (`stack`) and the severity
//! bands. Prints the cross-validated figures; `--check` trains and compares with the file
//! instead of writing it.

#[path = "../tests/common/corpus_eval.rs"]
mod corpus_eval;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use reflex_core::injection::learn::{self, Params, Sample, Weights, DENSE};
use sha2::{Digest, Sha256};

const FOLDS: usize = 5;
const SEED: u64 = 20_261_128;
/// Severity bands: the share of out-of-fold benign training items at or above each threshold
/// (low, medium, high, critical), in ten-thousandths.
const BAND_FPR: [usize; 4] = [1_000, 300, 100, 25];

struct Item {
    key: String,
    /// From public datasets (`corpus_eval::is_public`): written by others, the nearest the
    /// corpus has to the texts the detector will meet.
    public: bool,
    attack: bool,
    family: String,
    lang: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or_else(|| root.join("../../test/corpus"), PathBuf::from);
    let (items, texts) = load(&dir);
    let pos = items.iter().filter(|i| i.attack).count();
    println!(
        "train split: {} items ({pos} attacks, {} benign) from {}",
        items.len(),
        items.len() - pos,
        dir.display()
    );
    let samples: Vec<Sample> = texts.iter().map(|t| learn::sample(t)).collect();
    let rows: Vec<Rows> = samples.iter().map(Rows::of).collect();
    let labels: Vec<bool> = items.iter().map(|i| i.attack).collect();
    let folds: Vec<usize> = items.iter().map(|i| fold(&i.key)).collect();
    let public: Vec<bool> = items.iter().map(|i| i.public).collect();

    // The weight of the texts written for this corpus is chosen with the rest. They are most of
    // the non-English and hard-negative texts, but they share their writers with one another,
    // and at full weight the model learns those writers' habits: the choice is made on the
    // out-of-fold figures of the public texts alone.
    let grid = [(1e-6f32, 12usize, 1.0f32), (1e-6, 12, 0.5), (1e-6, 12, 0.25), (1e-6, 12, 0.1)];
    let mut best: Option<Chosen> = None;
    for (lambda, epochs, others) in grid {
        let setting = Setting {
            lambda,
            epochs,
            others,
        };
        let oof = out_of_fold(&setting, &samples, &rows, &labels, &public, &folds);
        let stack = fit_stack(&oof, &labels);
        let logits: Vec<f32> = oof
            .iter()
            .map(|&(w, x)| learn::combine(&stack, w, x))
            .collect();
        let whole: Vec<f32> = oof.iter().map(|o| o.0).collect();
        let (t1, t2) = (tpr_at(&logits, &labels, 100), tpr_at(&logits, &labels, 200));
        let only = |v: &[f32]| -> (Vec<f32>, Vec<bool>) {
            (0..v.len())
                .filter(|&i| public[i])
                .map(|i| (v[i], labels[i]))
                .unzip()
        };
        let (pl, py) = only(&logits);
        let (p1, p2) = (tpr_at(&pl, &py, 100), tpr_at(&pl, &py, 200));
        println!(
            "  lambda {lambda:e}, {epochs} epochs, others ×{others}: whole text TPR {:.3} @1% / {:.3} @2% FPR; with windows {t1:.3} / {t2:.3}; public texts alone {p1:.3} / {p2:.3}",
            tpr_at(&whole, &labels, 100),
            tpr_at(&whole, &labels, 200),
        );
        let m = p1 + p2;
        if best.as_ref().is_none_or(|b| m > b.0) {
            best = Some((m, setting, oof));
        }
    }
    let (_, setting, oof) = best.expect("a setting");
    let stack = fit_stack(&oof, &labels);
    let logits: Vec<f32> = oof
        .iter()
        .map(|&(w, x)| learn::combine(&stack, w, x))
        .collect();
    let bands = bands(&logits, &labels);
    println!(
        "chosen: lambda {:e}, {} epochs, others ×{}; stack {stack:?}; bands (logit) {bands:?}",
        setting.lambda, setting.epochs, setting.others
    );
    report(&items, &logits, &labels, &bands);
    floors(&samples, &logits, &labels, &bands);

    let all: Vec<usize> = (0..items.len()).collect();
    let model = fit(&setting, &rows, &labels, &public, &all);
    let weights = quantise(&model, stack, bands);
    let bytes = weights.to_bytes();
    let out = root.join("src/injection/model/weights.bin");
    if check {
        let same = std::fs::read(&out).is_ok_and(|b| b == bytes);
        println!(
            "{}: {}",
            out.display(),
            if same { "identical" } else { "DIFFERS" }
        );
        std::process::exit(i32::from(!same));
    }
    std::fs::write(&out, &bytes).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    println!("wrote {} ({} bytes)", out.display(), bytes.len());
}

/// A setting's figure of merit, the setting, and its out-of-fold (whole, window) logits.
type Chosen = (f64, Setting, Vec<(f32, f32)>);

/// The training items and their texts, in file and line order, read as the corpus report and
/// tests read them (`corpus_eval`: one reader, one split rule, one meaning of public).
fn load(dir: &Path) -> (Vec<Item>, Vec<String>) {
    let (mut items, mut texts) = (Vec::new(), Vec::new());
    for f in corpus_eval::corpus_files(dir, "injection") {
        let all = corpus_eval::load_injection(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for i in all {
            let split = i
                .split
                .as_deref()
                .unwrap_or_else(|| corpus_eval::split_of(i.group.as_deref(), &i.id));
            if split != "train" {
                continue;
            }
            let family = if i.attack {
                i.family_name().to_string()
            } else {
                format!("benign {}", i.family_name())
            };
            items.push(Item {
                key: i.group.clone().unwrap_or_else(|| i.id.clone()),
                public: corpus_eval::is_public(&i.id),
                attack: i.attack,
                family,
                lang: i.lang,
            });
            texts.push(i.text);
        }
    }
    (items, texts)
}

fn fold(key: &str) -> usize {
    let h = Sha256::digest(format!("ganglion-injection-fold:{key}").as_bytes());
    (u32::from_be_bytes([h[0], h[1], h[2], h[3]]) as usize) % FOLDS
}

/// A text's whole-text features: distinct slots with their value (count ÷ √total).
struct Row {
    slots: Vec<(u32, f32)>,
    rules: [f32; DENSE],
}

/// A text's rows: the whole text's and its windows'.
struct Rows {
    whole: Row,
    windows: Vec<Row>,
}

impl Rows {
    fn of(s: &Sample) -> Rows {
        let windows = learn::windows(&s.bounds)
            .into_iter()
            .map(|(a, b)| Row::of(&s.slots[s.before[a]..s.before[b]], s.rules))
            .collect();
        Rows {
            whole: Row::of(&s.slots, s.rules),
            windows,
        }
    }
}

impl Row {
    fn of(slots: &[u32], rules: [f32; DENSE]) -> Row {
        let mut sorted = slots.to_vec();
        sorted.sort_unstable();
        let norm = learn::text_term(1.0, slots.len() as u32);
        let mut slots: Vec<(u32, f32)> = Vec::new();
        for x in sorted {
            match slots.last_mut() {
                Some(l) if l.0 == x => l.1 += norm,
                _ => slots.push((x, norm)),
            }
        }
        Row { slots, rules }
    }
}

#[derive(Clone, Copy)]
struct Setting {
    lambda: f32,
    epochs: usize,
    /// The weight of an item not from public datasets (a public one weighs 1).
    others: f32,
}

/// A model in floating point.
struct Model {
    table: Vec<f32>,
    dense: [f32; DENSE],
    bias: f32,
}

/// `AdaGrad`'s running sums of squared gradients.
struct Squares {
    table: Vec<f32>,
    dense: [f32; DENSE],
    bias: f32,
}

impl Model {
    fn z(&self, r: &Row) -> f32 {
        r.slots
            .iter()
            .fold(self.bias, |a, &(x, v)| a + self.table[x as usize] * v)
            + self
                .dense
                .iter()
                .zip(&r.rules)
                .fold(0.0, |a, (w, x)| a + w * x)
    }

    /// One `AdaGrad` step on row `r` with label `y`; `(wp, wn)` weigh attacks and benign items.
    fn step(&mut self, r: &Row, y: bool, lambda: f32, g2: &mut Squares, (wp, wn): (f32, f32)) {
        const RATE: f32 = 0.5;
        let p = learn::sigmoid(self.z(r));
        let err = if y { (p - 1.0) * wp } else { p * wn };
        for &(x, v) in &r.slots {
            let k = x as usize;
            let g = err * v + lambda * self.table[k];
            g2.table[k] += g * g;
            self.table[k] -= RATE * g / g2.table[k].sqrt();
        }
        for k in 0..DENSE {
            let g = err * r.rules[k] + lambda * self.dense[k];
            g2.dense[k] += g * g;
            self.dense[k] -= RATE * g / g2.dense[k].sqrt();
        }
        g2.bias += err * err;
        self.bias -= RATE * err / g2.bias.sqrt();
    }
}

/// A small deterministic generator (xorshift64*), for the order of the items in each epoch.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn fit(s: &Setting, rows: &[Rows], labels: &[bool], public: &[bool], on: &[usize]) -> Model {
    let size = 1usize << learn::BITS;
    let mut m = Model {
        table: vec![0.0; size],
        dense: [0.0; DENSE],
        bias: 0.0,
    };
    let mut g2 = Squares {
        table: vec![1e-6f32; size],
        dense: [1e-6; DENSE],
        bias: 1e-6,
    };
    let mut avg = Mean {
        sum: Model {
            table: vec![0.0; size],
            dense: [0.0; DENSE],
            bias: 0.0,
        },
        n: 0.0,
    };
    let mut order = on.to_vec();
    let mut rng = Rng(SEED);
    // Attacks and benign items weigh the same in total, each item by its own weight.
    let weight = |i: usize| if public[i] { 1.0 } else { s.others };
    let total: f32 = on.iter().map(|&i| weight(i)).sum();
    let pos: f32 = on.iter().filter(|&&i| labels[i]).map(|&i| weight(i)).sum();
    let neg = (total - pos).max(f32::MIN_POSITIVE);
    let (wp, wn) = (total / (2.0 * pos.max(f32::MIN_POSITIVE)), total / (2.0 * neg));
    for epoch in 0..s.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for &i in &order {
            // A long attack is learned from its worst window only, from the second epoch on:
            // the document around the instruction is no sign of an attack, and the first epoch
            // (short attacks, benign documents) teaches what the worst window looks like.
            let long_attack = labels[i] && !rows[i].windows.is_empty();
            if !long_attack {
                m.step(&rows[i].whole, labels[i], s.lambda, &mut g2, (wp * weight(i), wn * weight(i)));
            }
            if epoch > 0 || !long_attack {
                let worst = rows[i]
                    .windows
                    .iter()
                    .max_by(|a, b| m.z(a).total_cmp(&m.z(b)));
                if let Some(w) = worst {
                    m.step(w, labels[i], s.lambda, &mut g2, (wp * weight(i), wn * weight(i)));
                }
            }
        }
        // The model returned is the mean of the models at the end of each epoch of the second
        // half: one item more or less in the corpus reshuffles every epoch, and a single
        // epoch's end moves the test figures by several points; the mean moves them less.
        if 2 * (epoch + 1) > s.epochs {
            avg.add(&m);
        }
    }
    avg.mean()
}

/// A running sum of models, for their mean.
struct Mean {
    sum: Model,
    n: f32,
}

impl Mean {
    fn add(&mut self, m: &Model) {
        for (a, w) in self.sum.table.iter_mut().zip(&m.table) {
            *a += w;
        }
        for (a, w) in self.sum.dense.iter_mut().zip(&m.dense) {
            *a += w;
        }
        self.sum.bias += m.bias;
        self.n += 1.0;
    }

    fn mean(mut self) -> Model {
        let n = self.n.max(1.0);
        for a in &mut self.sum.table {
            *a /= n;
        }
        for a in &mut self.sum.dense {
            *a /= n;
        }
        self.sum.bias /= n;
        self.sum
    }
}

/// The model as the crate reads it: the table in signed bytes of one step each.
fn quantise(m: &Model, stack: [f32; 3], bands: [f32; 4]) -> Weights<Vec<u8>> {
    let top = m.table.iter().fold(0.0f32, |a, w| a.max(w.abs()));
    let scale = if top > 0.0 { top / 127.0 } else { 1.0 };
    let table = m
        .table
        .iter()
        .map(|w| ((w / scale).round().clamp(-127.0, 127.0) as i8).cast_unsigned())
        .collect();
    Weights {
        params: Params {
            scale,
            bias: m.bias,
            dense: m.dense,
            stack,
            bands,
        },
        table,
    }
}

/// The whole-text and best-window logits of a sample under quantised weights, computed as the
/// crate computes them.
fn zs(w: &Weights<Vec<u8>>, s: &Sample) -> (f32, f32) {
    let p = &w.params;
    let dense = p
        .dense
        .iter()
        .zip(&s.rules)
        .fold(0.0f32, |a, (w, r)| a + w * r);
    let mut sums = Vec::with_capacity(s.bounds.len());
    let mut acc = 0i32;
    let mut k = 0usize;
    for &before in &s.before {
        while k < before {
            acc += i32::from(w.table[s.slots[k] as usize].cast_signed());
            k += 1;
        }
        sums.push(acc);
    }
    let z = |sum: i32, n: usize| p.bias + learn::text_logit(p.scale, sum as f32, n as u32) + dense;
    let last = s.bounds.len() - 1;
    let whole = z(sums[last], s.before[last]);
    let best = learn::windows(&s.bounds)
        .into_iter()
        .map(|(a, b)| z(sums[b] - sums[a], s.before[b] - s.before[a]))
        .fold(None, |m: Option<f32>, v| Some(m.map_or(v, |m| m.max(v))));
    (whole, best.unwrap_or(whole))
}

fn out_of_fold(
    s: &Setting,
    samples: &[Sample],
    rows: &[Rows],
    labels: &[bool],
    public: &[bool],
    folds: &[usize],
) -> Vec<(f32, f32)> {
    let mut oof = vec![(0.0, 0.0); rows.len()];
    for f in 0..FOLDS {
        let on: Vec<usize> = (0..rows.len()).filter(|&i| folds[i] != f).collect();
        let w = quantise(&fit(s, rows, labels, public, &on), [1.0, 0.0, 0.0], [0.0; 4]);
        for i in (0..rows.len()).filter(|&i| folds[i] == f) {
            oof[i] = zs(&w, &samples[i]);
        }
    }
    oof
}

/// Fits `a·whole + c·max(0, window − whole) + d` to the labels (Newton's method, three
/// parameters, a little ridge).
fn fit_stack(oof: &[(f32, f32)], labels: &[bool]) -> [f32; 3] {
    let mut th = [1.0f64, 0.0, 0.0];
    for _ in 0..100 {
        let mut g = [0.0f64; 3];
        let mut h = [[0.0f64; 3]; 3];
        for (&(w, x), &y) in oof.iter().zip(labels) {
            let f = [f64::from(w), f64::from((x - w).max(0.0)), 1.0];
            let z = th[0] * f[0] + th[1] * f[1] + th[2];
            let p = f64::from(learn::sigmoid(z as f32));
            let e = p - f64::from(u8::from(y));
            for a in 0..3 {
                g[a] += e * f[a];
                for b in 0..3 {
                    h[a][b] += p * (1.0 - p) * f[a] * f[b];
                }
            }
        }
        for a in 0..3 {
            g[a] += th[a];
            h[a][a] += 1.0;
        }
        let d = solve3(h, g);
        // Damped: a step of at most 1 in any parameter.
        let big = d.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for a in 0..3 {
            th[a] -= d[a] / big;
        }
    }
    [th[0] as f32, th[1].max(0.0) as f32, th[2] as f32]
}

/// Solves `h·x = g` by Cramer's rule.
fn solve3(h: [[f64; 3]; 3], g: [f64; 3]) -> [f64; 3] {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(h);
    let mut x = [0.0; 3];
    for (c, xc) in x.iter_mut().enumerate() {
        let mut m = h;
        for r in 0..3 {
            m[r][c] = g[r];
        }
        *xc = det(m) / d;
    }
    x
}

/// The logit thresholds at which `BAND_FPR` of the benign items score at or above.
fn bands(logits: &[f32], labels: &[bool]) -> [f32; 4] {
    let mut benign: Vec<f32> = logits
        .iter()
        .zip(labels)
        .filter(|(_, &y)| !y)
        .map(|(&z, _)| z)
        .collect();
    benign.sort_by(|a, b| b.total_cmp(a));
    let mut out = [0.0f32; 4];
    for (k, fpr) in BAND_FPR.iter().enumerate() {
        let allowed = benign.len() * *fpr / 10_000;
        // Just above the first benign logit past the allowed number.
        let t = benign.get(allowed).map_or(f32::MIN, |&z| next_up(z));
        out[k] = if k > 0 { t.max(next_up(out[k - 1])) } else { t };
    }
    out
}

fn next_up(x: f32) -> f32 {
    if x >= 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

/// The share of attacks at or above the threshold that lets `fpr` ten-thousandths of the benign
/// items through.
fn tpr_at(logits: &[f32], labels: &[bool], fpr: usize) -> f64 {
    let mut benign: Vec<f32> = logits
        .iter()
        .zip(labels)
        .filter(|(_, &y)| !y)
        .map(|(&z, _)| z)
        .collect();
    benign.sort_by(|a, b| b.total_cmp(a));
    let allowed = benign.len() * fpr / 10_000;
    let t = benign.get(allowed).map_or(f32::MIN, |&z| next_up(z));
    let pos: Vec<f32> = logits
        .iter()
        .zip(labels)
        .filter(|(_, &y)| y)
        .map(|(&z, _)| z)
        .collect();
    pos.iter().filter(|&&z| z >= t).count() as f64 / pos.len().max(1) as f64
}

/// What the rules' severity as a floor on the score (`RULE_FLOOR` in `injection/model.rs`) does to
/// the out-of-fold figures, from each level up.
fn floors(samples: &[Sample], logits: &[f32], labels: &[bool], bands: &[f32; 4]) {
    for (name, from) in [("none", 5u8), ("critical", 4), ("high", 3), ("medium", 2)] {
        let floored: Vec<f32> = logits
            .iter()
            .zip(samples)
            .map(|(&z, s)| {
                // The rule severity, stored as a quarter of its level (0 to 4).
                let level = (1..=4u8).filter(|&k| s.rules[1] * 4.0 >= f32::from(k) - 0.5).count();
                let severity = u8::try_from(level).unwrap_or(0);
                if severity >= from {
                    z.max(bands[usize::from(severity) - 1])
                } else {
                    z
                }
            })
            .collect();
        println!(
            "rule severity as a floor from {name}: TPR {:.3} @1% / {:.3} @2% FPR (out of fold)",
            tpr_at(&floored, labels, 100),
            tpr_at(&floored, labels, 200)
        );
    }
}

/// Out-of-fold rates at the `high` band by family and language.
fn report(items: &[Item], logits: &[f32], labels: &[bool], bands: &[f32; 4]) {
    println!(
        "cross-validated (out of fold): TPR {:.3} @1% FPR, {:.3} @2% FPR",
        tpr_at(logits, labels, 100),
        tpr_at(logits, labels, 200)
    );
    let mut by: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (i, it) in items.iter().enumerate() {
        let hit = logits[i] >= bands[2];
        for k in [
            format!("family {}", it.family),
            format!(
                "lang {} {}",
                it.lang,
                if it.attack { "attack" } else { "benign" }
            ),
        ] {
            let e = by.entry(k).or_default();
            e.0 += usize::from(hit);
            e.1 += 1;
        }
    }
    println!("at the high band (flagged / items):");
    for (k, (hit, n)) in by {
        println!("  {k:<32} {hit:>5} / {n:<5} {:.3}", hit as f64 / n as f64);
    }
}
