//! The detection results of recent cache hits, by exact text, check flags and thresholds.
//!
//! A cache hit still answers with the detection fields of *its own* text (docs/decisions.md:
//! texts that share a normalised key can differ in offsets and findings), so a hit used to run
//! both detectors again. Detection is a pure function of the text, the flags and the thresholds
//! the check is judged by ([`Judging`]), so the result of the exact same text can be reused: the
//! memo is keyed by a hash of the text and the judging and keeps the text itself, compared in full before a result is reused. It keeps the text's
//! cache key too, so a repeated hit is recognised before its key is computed: normalising and
//! hashing the text was a larger share of a hit than reading the memo.
//!
//! Only what a caller asks to keep is memoised ([`crate::detector::Detector::remember`]: the
//! check endpoint keeps cache hits): a text with a cache entry was, by definition, seen before
//! and is likely to come again, whereas most misses are unique and would only churn the memo.
//!
//! Bounded by entries and by bytes (texts up to [`MAX_TEXT`] bytes); the oldest entry goes first.
//!
//! Most lookups are misses (a miss of the cache never finds its text here), and hashing the
//! whole text for the map cost a miss ~1k instructions. So the memo also counts its texts by a
//! sample (length, judging and three words of the text) in a table of counters: a text whose
//! sample's counter is zero is not here, found without reading the text. A sample that matches
//! only means the map is asked as before, so texts made to share samples cost no more than
//! before either.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use xxhash_rust::xxh3::xxh3_128_with_seed;

use crate::detector::{thousandths, Findings};

/// Longer texts are not memoised: their detection is costlier, but each would take a large
/// share of the byte budget.
pub const MAX_TEXT: usize = 16 * 1024;

/// What a check's findings depend on besides its text: the detectors it ran (the cache key's
/// flags) and the thresholds in force, the check's own or else the detector's, in the thousandths
/// they are compared in (see [`thousandths`]). Two checks of one text share a memoised result
/// only when their judging is equal, which is exactly when they would judge it alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judging {
    flags: u8,
    /// The injection threshold; [`NO_THRESHOLD`] when the block level decides.
    injection: u16,
    /// The least confidence of personal data reported.
    pii: u16,
}

/// No injection threshold (thresholds run from 0 to 1000 thousandths).
const NO_THRESHOLD: u16 = u16::MAX;

impl Judging {
    #[must_use]
    pub fn new(flags: u8, injection_threshold: Option<f32>, pii_threshold: f32) -> Self {
        Judging { flags, injection: injection_threshold.map_or(NO_THRESHOLD, thousandths), pii: thousandths(pii_threshold) }
    }

    /// The injection threshold in thousandths, when there is one.
    #[must_use]
    pub fn injection_threshold(self) -> Option<u16> {
        (self.injection != NO_THRESHOLD).then_some(self.injection)
    }

    /// The least confidence of personal data reported, in thousandths.
    #[must_use]
    pub fn pii_threshold(self) -> u16 {
        self.pii
    }

    /// All of it in one word, for hashing: distinct judgings, distinct seeds.
    fn seed(self) -> u64 {
        u64::from(self.flags) | u64::from(self.injection) << 8 | u64::from(self.pii) << 24
    }
}

/// The findings of one text checked with one judging, with the text they belong to and its
/// cache key (`Detector::cache_key` of the text and the judging's flags).
#[derive(Clone, Debug)]
pub struct Detected {
    pub text: Box<str>,
    pub judging: Judging,
    pub cache_key: Box<str>,
    pub found: Arc<Findings>,
}

impl Detected {
    /// Roughly the heap bytes held: the two texts, the key and the matched snippets.
    fn bytes(&self) -> usize {
        let f = &self.found;
        self.text.len()
            + self.cache_key.len()
            + f.redacted_text.len()
            + f.pii.iter().map(|m| m.matched_text.len() + 64).sum::<usize>()
            + f.injection.iter().map(|m| m.matched_text.len() + 64).sum::<usize>()
            + 256
    }
}

pub struct Memo {
    map: HashMap<u128, Detected>,
    /// Memoised texts by `sample` (see the module header): a power of two of counters, eight per
    /// entry the memo holds at most, so a text not here finds a zero seven times in eight.
    samples: Box<[u32]>,
    /// Insertion order, for eviction.
    order: VecDeque<u128>,
    bytes: usize,
    max_entries: usize,
    max_bytes: usize,
}

fn key(text: &str, judging: Judging) -> u128 {
    xxh3_128_with_seed(text.as_bytes(), judging.seed())
}

/// The counters a memo of `max_entries` keeps (see `Memo::samples`); a slot count past the
/// default memo's is not needed for the filter to pay.
fn sample_slots(max_entries: usize) -> usize {
    if max_entries == 0 {
        return 0;
    }
    max_entries.saturating_mul(8).clamp(64, 1 << 16).next_power_of_two()
}

/// A word of `bytes` from `at`, short at the end (zero-filled).
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    let end = bytes.len().min(at + 8);
    if let Some(part) = bytes.get(at..end) {
        w[..part.len()].copy_from_slice(part);
    }
    u64::from_le_bytes(w)
}

/// `text`'s counter in a table of `slots` (a power of two): its length, `judging` and the words
/// at its start, middle and end, mixed. Not keyed: a collision only costs the map lookup.
fn sample(text: &str, judging: Judging, slots: usize) -> usize {
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    let b = text.as_bytes();
    let n = b.len();
    let mut h = ((n as u64) << 8 ^ judging.seed()).wrapping_mul(MIX);
    for w in [word(b, 0), word(b, n / 2), word(b, n.saturating_sub(8))] {
        h = (h ^ w).wrapping_mul(MIX).rotate_left(31);
    }
    // The high bits are the best mixed; `slots` is at most 2^16.
    (h.wrapping_mul(MIX) >> 48) as usize & (slots - 1)
}

impl Memo {
    #[must_use]
    pub fn new(max_entries: usize, max_bytes: usize) -> Memo {
        let samples = vec![0; sample_slots(max_entries)].into_boxed_slice();
        Memo { map: HashMap::new(), samples, order: VecDeque::new(), bytes: 0, max_entries, max_bytes }
    }

    /// The memoised result for exactly `text` judged by `judging`.
    #[must_use]
    pub fn get(&self, text: &str, judging: Judging) -> Option<&Detected> {
        if text.len() > MAX_TEXT || self.max_entries == 0 || self.samples[sample(text, judging, self.samples.len())] == 0 {
            return None;
        }
        self.map.get(&key(text, judging)).filter(|d| *d.text == *text && d.judging == judging)
    }

    /// Counts `d` in (`add`) or out of its sample's counter.
    fn count(&mut self, d: &Detected, add: bool) {
        let slot = sample(&d.text, d.judging, self.samples.len());
        let c = &mut self.samples[slot];
        *c = if add { *c + 1 } else { *c - 1 };
    }

    pub fn insert(&mut self, detected: Detected) {
        let size = detected.bytes();
        if detected.text.len() > MAX_TEXT || self.max_entries == 0 || size > self.max_bytes {
            return;
        }
        let k = key(&detected.text, detected.judging);
        self.count(&detected, true);
        if let Some(old) = self.map.insert(k, detected) {
            // A hash collision or a re-insert: the newer result replaces the older in place.
            self.bytes -= old.bytes();
            self.count(&old, false);
        } else {
            self.order.push_back(k);
        }
        self.bytes += size;
        while self.map.len() > self.max_entries || self.bytes > self.max_bytes {
            let Some(oldest) = self.order.pop_front() else { break };
            if let Some(gone) = self.map.remove(&oldest) {
                self.bytes -= gone.bytes();
                self.count(&gone, false);
            }
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{Detected, Judging, Memo};
    use crate::detector::{Findings, Rendered};
    use crate::routing::route;
    use crate::severity::Severity;

    fn detected(text: &str, flags: u8) -> Detected {
        let found = Findings {
            pii: Vec::new(),
            redacted_text: text.to_string(),
            injection_score: 0.0,
            injection_severity: Severity::None,
            injection: Vec::new(),
            blocked: false,
            routing: route(text, true, false, false),
            rendered: Rendered::default(),
        };
        Detected { text: text.into(), judging: j(flags), cache_key: "k".into(), found: Arc::new(found) }
    }

    fn j(flags: u8) -> Judging {
        Judging::new(flags, None, 0.4)
    }

    #[test]
    fn exact_text_and_flags_only() {
        let mut memo = Memo::new(8, 1 << 20);
        memo.insert(detected("Hello there", 3));
        assert!(memo.get("Hello there", j(3)).is_some());
        assert!(memo.get("hello there", j(3)).is_none(), "same cache key, different text");
        assert!(memo.get("Hello there", j(1)).is_none(), "different flags");
    }

    #[test]
    fn each_threshold_has_its_own_result() {
        let mut memo = Memo::new(8, 1 << 20);
        let mut strict = detected("Hello there", 3);
        strict.judging = Judging::new(3, Some(0.5), 0.4);
        memo.insert(strict);
        assert!(memo.get("Hello there", Judging::new(3, Some(0.5), 0.4)).is_some());
        for other in [Judging::new(3, None, 0.4), Judging::new(3, Some(0.6), 0.4), Judging::new(3, Some(0.5), 0.9)] {
            assert!(memo.get("Hello there", other).is_none(), "{other:?}");
        }
        memo.insert(detected("Hello there", 3));
        assert_eq!(memo.len(), 2, "the same text judged two ways is two entries");
        assert_eq!(Judging::new(3, Some(0.5), 0.25).injection_threshold(), Some(500));
        assert_eq!(Judging::new(3, None, 0.25).injection_threshold(), None);
        assert_eq!(Judging::new(3, None, 0.25).pii_threshold(), 250);
        // Thresholds that judge alike are one judging.
        assert_eq!(Judging::new(3, Some(0.5), 0.4), Judging::new(3, Some(0.500_01), 0.4));
        assert_ne!(Judging::new(3, Some(0.5), 0.4), Judging::new(3, Some(0.501), 0.4));
    }

    #[test]
    fn texts_sharing_a_sample_are_still_told_apart() {
        // Same length and the same words at the start, middle and end: the same counter.
        let a = format!("{}{}{}{}{}", "s".repeat(8), "a".repeat(20), "m".repeat(8), "b".repeat(20), "e".repeat(8));
        let b = a.replacen("aaaa", "zzzz", 1);
        let slots = super::sample_slots(8);
        assert_eq!(super::sample(&a, j(3), slots), super::sample(&b, j(3), slots));
        let mut memo = Memo::new(8, 1 << 20);
        memo.insert(detected(&a, 3));
        assert!(memo.get(&a, j(3)).is_some() && memo.get(&b, j(3)).is_none());
        memo.insert(detected(&b, 3));
        assert_eq!(memo.get(&b, j(3)).map(|d| &*d.text), Some(b.as_str()));
    }

    #[test]
    fn evicted_texts_leave_no_count_behind() {
        let mut memo = Memo::new(4, 1 << 20);
        for i in 0..40 {
            memo.insert(detected(&format!("text number {i}"), 3));
            memo.insert(detected(&format!("text number {i}"), 3)); // a re-insert replaces in place
        }
        assert_eq!(memo.len(), 4);
        assert_eq!(memo.samples.iter().map(|&c| c as usize).sum::<usize>(), 4);
        for i in 36..40 {
            assert!(memo.get(&format!("text number {i}"), j(3)).is_some());
        }
        for t in ["", "a", "short", "text number 1"] {
            assert!(memo.get(t, j(3)).is_none(), "{t}");
        }
    }

    #[test]
    fn bounded_by_entries_and_bytes() {
        let mut memo = Memo::new(2, 1 << 20);
        for t in ["a", "b", "c"] {
            memo.insert(detected(t, 3));
        }
        assert_eq!(memo.len(), 2);
        assert!(memo.get("a", j(3)).is_none() && memo.get("c", j(3)).is_some());
        let mut small = Memo::new(100, 2_000);
        for i in 0..10 {
            small.insert(detected(&format!("{i}{}", "x".repeat(300)), 3));
        }
        assert!(small.len() < 10 && !small.is_empty());
        let mut off = Memo::new(0, 1 << 20);
        off.insert(detected("a", 3));
        assert!(off.get("a", j(3)).is_none());
    }
}
