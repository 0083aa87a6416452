//! The detection results of recent cache hits, by exact text and check flags.
//!
//! A cache hit still answers with the detection fields of *its own* text (docs/decisions.md:
//! texts that share a normalised key can differ in offsets and findings), so a hit used to run
//! both detectors again. Detection is a pure function of the text and the flags, so the result
//! of the exact same text can be reused: the memo is keyed by a hash of the text and the flags
//! and keeps the text itself, compared in full before a result is reused. It keeps the text's
//! cache key too, so a repeated hit is recognised before its key is computed: normalising and
//! hashing the text was a larger share of a hit than reading the memo.
//!
//! Only hits are memoised: a text with a cache entry was, by definition, seen before and is
//! likely to come again, whereas most misses are unique and would only churn the memo (and a
//! memo of misses would make a repeated miss cost less than the detection it reports).
//!
//! Bounded by entries and by bytes (texts up to [`MAX_TEXT`] bytes); the oldest entry goes first.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use xxhash_rust::xxh3::xxh3_128_with_seed;

use crate::engine::Findings;

/// Longer texts are not memoised: their detection is costlier, but each would take a large
/// share of the byte budget.
pub const MAX_TEXT: usize = 16 * 1024;

/// The findings of one text checked with one set of flags, with the text they belong to and its
/// cache key (`Engine::cache_key` of the two).
#[derive(Clone, Debug)]
pub struct Detected {
    pub text: Box<str>,
    pub flags: u8,
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
    /// Insertion order, for eviction.
    order: VecDeque<u128>,
    bytes: usize,
    max_entries: usize,
    max_bytes: usize,
}

fn key(text: &str, flags: u8) -> u128 {
    xxh3_128_with_seed(text.as_bytes(), u64::from(flags))
}

impl Memo {
    #[must_use]
    pub fn new(max_entries: usize, max_bytes: usize) -> Memo {
        Memo { map: HashMap::new(), order: VecDeque::new(), bytes: 0, max_entries, max_bytes }
    }

    /// The memoised result for exactly `text` checked with `flags`.
    #[must_use]
    pub fn get(&self, text: &str, flags: u8) -> Option<&Detected> {
        if text.len() > MAX_TEXT || self.max_entries == 0 {
            return None;
        }
        self.map.get(&key(text, flags)).filter(|d| *d.text == *text && d.flags == flags)
    }

    pub fn insert(&mut self, detected: Detected) {
        let size = detected.bytes();
        if detected.text.len() > MAX_TEXT || self.max_entries == 0 || size > self.max_bytes {
            return;
        }
        let k = key(&detected.text, detected.flags);
        if let Some(old) = self.map.insert(k, detected) {
            // A hash collision or a re-insert: the newer result replaces the older in place.
            self.bytes -= old.bytes();
        } else {
            self.order.push_back(k);
        }
        self.bytes += size;
        while self.map.len() > self.max_entries || self.bytes > self.max_bytes {
            let Some(oldest) = self.order.pop_front() else { break };
            if let Some(gone) = self.map.remove(&oldest) {
                self.bytes -= gone.bytes();
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

    use super::{Detected, Memo};
    use crate::engine::{Findings, Rendered};
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
        Detected { text: text.into(), flags, cache_key: "k".into(), found: Arc::new(found) }
    }

    #[test]
    fn exact_text_and_flags_only() {
        let mut memo = Memo::new(8, 1 << 20);
        memo.insert(detected("Hello there", 3));
        assert!(memo.get("Hello there", 3).is_some());
        assert!(memo.get("hello there", 3).is_none(), "same cache key, different text");
        assert!(memo.get("Hello there", 1).is_none(), "different flags");
    }

    #[test]
    fn bounded_by_entries_and_bytes() {
        let mut memo = Memo::new(2, 1 << 20);
        for t in ["a", "b", "c"] {
            memo.insert(detected(t, 3));
        }
        assert_eq!(memo.len(), 2);
        assert!(memo.get("a", 3).is_none() && memo.get("c", 3).is_some());
        let mut small = Memo::new(100, 2_000);
        for i in 0..10 {
            small.insert(detected(&format!("{i}{}", "x".repeat(300)), 3));
        }
        assert!(small.len() < 10 && !small.is_empty());
        let mut off = Memo::new(0, 1 << 20);
        off.insert(detected("a", 3));
        assert!(off.get("a", 3).is_none());
    }
}
