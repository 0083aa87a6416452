//! What `examples/train_injection.rs` needs to train the learned stage on exactly the features
//! it reads: a text's feature slots with its segment boundaries, and its rule features.
//! Not a stable interface.

pub use super::model::{band, combine, sigmoid, text_logit, text_term, Params, Weights, DENSE};

/// The table size, as a power of two.
pub const BITS: u32 = super::model::BITS;

/// A text as the learned stage reads it.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// The feature slots, in text order.
    pub slots: Vec<u32>,
    /// Segment boundaries (byte offsets of the normalised text, 0 and its length included)
    /// and, for each, how many of `slots` come before it.
    pub bounds: Vec<usize>,
    pub before: Vec<usize>,
    pub rules: [f32; DENSE],
}

/// Reads `text` as the learned stage does: normalised once, rules and features on that form.
#[must_use]
pub fn sample(text: &str) -> Sample {
    let norm = super::normalize::normalize(text);
    let report = super::rules_on(text, &norm);
    let mut s = Sample {
        rules: super::rule_features(&report),
        ..Sample::default()
    };
    s.bounds.push(0);
    s.before.push(0);
    let mut all = All {
        slots: Vec::with_capacity(3 * norm.text.len()),
        cuts: Vec::new(),
    };
    super::model::walk(norm.text.as_bytes(), &mut all);
    let All { slots, cuts } = all;
    for (at, before) in cuts {
        s.bounds.push(at);
        s.before.push(before);
    }
    if s.bounds.last().is_none_or(|&b| b < norm.text.len()) {
        s.bounds.push(norm.text.len());
        s.before.push(slots.len());
    }
    s.slots = slots;
    s
}

struct All {
    slots: Vec<u32>,
    cuts: Vec<(usize, usize)>,
}

impl super::model::Visit for All {
    fn feature(&mut self, slot: u32) {
        self.slots.push(slot);
    }

    fn cut(&mut self, at: usize) {
        self.cuts.push((at, self.slots.len()));
    }
}

/// The windows over `bounds`, as pairs of indexes into it (none for a short text).
#[must_use]
pub fn windows(bounds: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    super::model::each_window(bounds, |a, b| out.push((a, b)));
    out
}
