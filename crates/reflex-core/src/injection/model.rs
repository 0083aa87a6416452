//! The learned stage: a logistic model over hashed features of the normalised text and the
//! rule hits, read from the weights compiled into the crate (`model/weights.bin`, written by
//! `examples/train_injection.rs`).
//!
//! One pass over the normalised text (`features::walk`) adds up the quantised weights of its
//! features in an `i32`, keeping the running sums at each place the text may be cut. The text
//! term of any stretch is `scale × sum ÷ √max(count, 64)` (squashed into ±4), so the whole text and every window
//! (`windows`) are scored from the same sums, without hashing anything twice. With the rule
//! features (`DENSE`: the rule score, the rule severity, each family's strongest match):
//!
//! ```text
//! z(stretch) = bias + 4·tanh(scale·sum/√max(count, 64) / 4) + Σ dense·rules
//! logit      = a·z(whole) + c·max(0, max z(window) − z(whole)) + d
//! score      = 1 / (1 + e^−logit)
//! ```
//!
//! `a`, `c` and `d` are fitted on out-of-fold predictions of the training split, so the score
//! reads as a probability; the severity bands are thresholds on the logit chosen there too. The
//! rules' own severity is a floor: a text the rules find `high` scores at least the lowest logit
//! of the `high` band, so no attack the rules block is let through by the model. The floor can
//! have a price, which `npm run train:injection` prints: a benign text a rule finds `high` (an
//! attack phrase quoted in a security course) is blocked whatever the model says. With the
//! current rules and weights a floor from `high` costs nothing at 1 % or 2 % FPR on the
//! out-of-fold predictions against a floor from `critical` only. It stays, so that what a rule
//! match says is what the verdict does.
//!
//! Integer sums and `f32` arithmetic in a fixed order, and an `exp` of basic operations only,
//! give the same score on every platform.

mod features;
mod windows;

use std::sync::OnceLock;

use crate::severity::Severity;

pub(crate) use features::{walk, Visit, BITS};
pub(crate) use windows::each as each_window;

/// The rule features: rule score, rule severity ÷ 4, and each rule family's strongest match
/// (confidence × severity weight), in `Family::ALL` order.
pub const DENSE: usize = 12;

/// Identifies the file.
pub(crate) const MAGIC: [u8; 8] = *b"GNGLINJ\0";
/// The layout of the file; a new layout is a new version.
pub(crate) const VERSION: u32 = 2;
/// The feature set: bits for byte 3-grams, byte 5-grams, words, word pairs.
pub(crate) const FEATURE_SET: u32 = 1 << 3 | 1 << 5 | 1 << 8 | 1 << 9;

/// The parameters the weights file carries besides the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The value of one quantisation step of the table.
    pub scale: f32,
    pub bias: f32,
    pub dense: [f32; DENSE],
    /// The combination of whole-text and window logits: `a`, `c`, `d`.
    pub stack: [f32; 3],
    /// Logit thresholds of the bands low, medium, high, critical.
    pub bands: [f32; 4],
}

/// A model: its parameters and its table of quantised weights, `1 << BITS` of them.
#[derive(Clone, Debug)]
pub struct Weights<T> {
    pub params: Params,
    pub table: T,
}

/// The configuration fields of the header.
const CONFIG: usize = 8;
const HEADER: usize = 8 + 4 * (CONFIG + 1) + 8 + 4 * (2 + DENSE + 3 + 4);

/// The configuration fields of the header: everything that decides which features a text has
/// and how their sum becomes a logit, as this code does it. Weights trained under any other
/// value are refused.
fn config() -> [u32; CONFIG] {
    [
        VERSION,
        features::BITS,
        FEATURE_SET,
        features::LONG_RUN as u32,
        windows::WINDOW as u32,
        MIN_COUNT,
        TEXT_LIMIT.to_bits(),
        features::REPEAT_RULE,
    ]
}

impl<T: AsRef<[u8]>> Weights<T> {
    /// The file form: magic, the configuration (format version, table bits, feature set, cut
    /// run, window, short-text minimum, text-logit limit, repeated-run rule), the dense count,
    /// the hash seed, the parameters (little-endian `f32`), then the
    /// table, one signed byte per slot.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let p = &self.params;
        let mut out = Vec::with_capacity(HEADER + self.table.as_ref().len());
        out.extend_from_slice(&MAGIC);
        for v in config() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(DENSE as u32).to_le_bytes());
        out.extend_from_slice(&features::SEED.to_le_bytes());
        let floats = [p.scale, p.bias]
            .into_iter()
            .chain(p.dense)
            .chain(p.stack)
            .chain(p.bands);
        for f in floats {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(self.table.as_ref());
        out
    }
}

impl<'a> Weights<&'a [u8]> {
    /// Reads a weights file; `None` unless it was written for this code's features.
    #[must_use]
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        if bytes.len() != HEADER + (1 << features::BITS) || bytes[..8] != MAGIC {
            return None;
        }
        let four = |i: usize| -> [u8; 4] { [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]] };
        let want = config();
        let dense_at = 8 + 4 * CONFIG;
        if (0..CONFIG).any(|k| u32::from_le_bytes(four(8 + 4 * k)) != want[k])
            || u32::from_le_bytes(four(dense_at)) != DENSE as u32
        {
            return None;
        }
        let seed = u64::from(u32::from_le_bytes(four(dense_at + 4)))
            | u64::from(u32::from_le_bytes(four(dense_at + 8))) << 32;
        if seed != features::SEED {
            return None;
        }
        let f = |k: usize| f32::from_le_bytes(four(dense_at + 12 + 4 * k));
        let mut dense = [0.0; DENSE];
        for (k, d) in dense.iter_mut().enumerate() {
            *d = f(2 + k);
        }
        let at = 2 + DENSE;
        let params = Params {
            scale: f(0),
            bias: f(1),
            dense,
            stack: [f(at), f(at + 1), f(at + 2)],
            bands: [f(at + 3), f(at + 4), f(at + 5), f(at + 6)],
        };
        Some(Weights {
            params,
            table: &bytes[HEADER..],
        })
    }
}

static FILE: &[u8] = include_bytes!("model/weights.bin");

/// The compiled-in model, or `None` when the file does not match this code (then the rules
/// alone give the verdict; a test keeps the two in step).
pub(crate) fn weights() -> Option<&'static Weights<&'static [u8]>> {
    static W: OnceLock<Option<Weights<&'static [u8]>>> = OnceLock::new();
    W.get_or_init(|| Weights::parse(FILE)).as_ref()
}

/// The model's verdict on a text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Verdict {
    pub score: f32,
    pub severity: Severity,
    /// The best window's byte range in the normalised text (the whole text when it has none).
    pub span: (usize, usize),
}

/// A stretch with fewer features than this (a text of under about 20 bytes) is read as if it
/// had this many: a few words alone say little, and must not swing the score.
const MIN_COUNT: u32 = 64;

/// One stretch's text term.
#[must_use]
pub fn text_term(sum: f32, count: u32) -> f32 {
    sum / (count.max(MIN_COUNT) as f32).sqrt()
}

/// The most a stretch's text can add to or take from its logit: a text unlike any in training
/// (one symbol over and over) must not decide the verdict alone.
const TEXT_LIMIT: f32 = 4.0;

/// A stretch's text logit: `scale × text_term`, squashed into `±TEXT_LIMIT` by
/// `L·tanh(x/L)` (as `L·(2σ(2x/L) − 1)`). A smooth squash rather than a cut: texts past the
/// limit keep their order, where a cut would give them all one score and leave no threshold
/// between the attacks and the benign texts among them.
#[must_use]
pub fn text_logit(scale: f32, sum: f32, count: u32) -> f32 {
    let x = scale * text_term(sum, count);
    TEXT_LIMIT * (2.0 * sigmoid(2.0 * x / TEXT_LIMIT) - 1.0)
}

/// The combined logit from the whole text's `z` and the best window's.
#[must_use]
pub fn combine(stack: &[f32; 3], whole: f32, window: f32) -> f32 {
    stack[0] * whole + stack[1] * (window - whole).max(0.0) + stack[2]
}

/// `1 / (1 + e^−x)` from basic operations only (the platform's `exp` may differ in the last bit).
#[must_use]
pub fn sigmoid(x: f32) -> f32 {
    let x = f64::from(x).clamp(-40.0, 40.0);
    // e^−x = 2^k · e^r with |r| ≤ ln 2 / 2, e^r by its series.
    let y = -x;
    let k = (y / std::f64::consts::LN_2).round();
    let r = y - k * std::f64::consts::LN_2;
    let mut term = 1.0f64;
    let mut sum = 1.0f64;
    for n in 1..=12 {
        term *= r / f64::from(n);
        sum += term;
    }
    let two_k = f64::from_bits((k as i64 + 1023).cast_unsigned() << 52);
    (1.0 / (1.0 + sum * two_k)) as f32
}

/// The severity band of a logit.
#[must_use]
pub fn band(bands: &[f32; 4], logit: f32) -> Severity {
    match bands.iter().filter(|&&t| logit >= t).count() {
        0 => Severity::None,
        1 => Severity::Low,
        2 => Severity::Medium,
        3 => Severity::High,
        _ => Severity::Critical,
    }
}

/// The running sum of the weights of a text's features, and its value at each cut.
struct Sums<'w> {
    table: &'w [u8],
    sum: i32,
    count: u32,
    /// (byte offset, sum, count) at every boundary, the text's start and end included.
    cuts: Vec<(usize, i32, u32)>,
}

impl Visit for Sums<'_> {
    #[inline]
    fn feature(&mut self, slot: u32) {
        self.sum += i32::from(self.table[slot as usize].cast_signed());
        self.count += 1;
    }

    fn cut(&mut self, at: usize) {
        self.cuts.push((at, self.sum, self.count));
    }
}

/// The rule severity from which the rules' verdict is a floor on the score: every one.
pub(crate) const RULE_FLOOR: Severity = Severity::Low;

/// Scores the normalised `text` with the rule features `rules`; the score is at least the
/// lowest of the band of `floor` (the rules' own severity) when that is `RULE_FLOOR` or above.
pub(crate) fn score(
    w: &Weights<&[u8]>,
    text: &str,
    rules: &[f32; DENSE],
    floor: Severity,
) -> Verdict {
    let p = &w.params;
    let mut sums = Sums {
        table: w.table,
        sum: 0,
        count: 0,
        cuts: Vec::with_capacity(2 + text.len() / 64),
    };
    sums.cuts.push((0, 0, 0));
    walk(text.as_bytes(), &mut sums);
    let Sums {
        sum,
        count,
        mut cuts,
        ..
    } = sums;
    if cuts.last().is_none_or(|c| c.0 < text.len()) {
        cuts.push((text.len(), sum, count));
    }
    let dense: f32 = p
        .dense
        .iter()
        .zip(rules)
        .fold(0.0, |acc, (w, r)| acc + w * r);
    let z = |s: i32, n: u32| p.bias + text_logit(p.scale, s as f32, n) + dense;
    let whole = z(sum, count);
    let bounds: Vec<usize> = cuts.iter().map(|c| c.0).collect();
    let mut best: Option<(f32, usize, usize)> = None;
    each_window(&bounds, |a, b| {
        let zw = z(cuts[b].1 - cuts[a].1, cuts[b].2 - cuts[a].2);
        if best.is_none_or(|w| zw > w.0) {
            best = Some((zw, cuts[a].0, cuts[b].0));
        }
    });
    let best = best.unwrap_or((whole, 0, text.len()));
    let mut logit = combine(&p.stack, whole, best.0);
    if floor >= RULE_FLOOR {
        // The rules' verdict is a floor: the lowest logit of its band.
        logit = logit.max(p.bands[floor as usize - 1]);
    }
    Verdict {
        score: sigmoid(logit),
        severity: band(&p.bands, logit),
        span: (best.1, best.2),
    }
}

#[cfg(test)]
mod tests {
    use super::{band, sigmoid, weights, Weights, FILE};
    use crate::severity::Severity;

    #[test]
    fn the_compiled_weights_match_the_feature_configuration() {
        let w = weights().expect(
            "model/weights.bin does not match the code's features: run `npm run train:injection`",
        );
        assert_eq!(
            Weights::parse(&w.to_bytes()).map(|p| p.params),
            Some(w.params.clone())
        );
        assert_eq!(w.to_bytes(), FILE);
        let b = w.params.bands;
        assert!(b.windows(2).all(|p| p[0] < p[1]), "bands {b:?}");
    }

    #[test]
    fn sigmoid_is_the_logistic_function() {
        for x in [-30.0f32, -5.0, -1.0, -0.1, 0.0, 0.3, 2.0, 9.0, 50.0] {
            let want = 1.0 / (1.0 + f64::from(-x).exp());
            assert!((f64::from(sigmoid(x)) - want).abs() < 1e-6, "{x}");
        }
    }

    #[test]
    fn bands_count_the_thresholds_passed() {
        let b = [-1.0, 0.0, 1.0, 2.0];
        assert_eq!(band(&b, -2.0), Severity::None);
        assert_eq!(band(&b, -0.5), Severity::Low);
        assert_eq!(band(&b, 1.5), Severity::High);
        assert_eq!(band(&b, 9.0), Severity::Critical);
    }
}
