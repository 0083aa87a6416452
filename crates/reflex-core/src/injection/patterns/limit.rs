//! The last position where a row's match can start, from where its required words last occur.
//!
//! Every match of a row holds a literal of each of its required sets (`required`), and each
//! set the trigger pass checks (`Required::seen`) names words found inside those literals. So
//! a match starting at `s` holds a hit of one of each set's words at `s` or after: a start past
//! the last hit of some set cannot match. The trigger pass gives every hit, so the last hit of
//! each word is known once per text, and a row's limit is a few bit tests and lookups; its
//! starts past the limit are dropped before the anchored search. On the attack bench text 35 of
//! the 104 searches that found nothing started after the last "instructions", "now" or "you"
//! their row needs (each about 180 instructions in the lazy DFA's search and 20 around it).
//!
//! One set a row is looked at (`late`): the lookups of all of a row's sets cost about what the
//! searches they saved did (the attack text 4.5k instructions a call against 6.6k saved).

/// Each word's last hit in a text, kept between calls: an entry is valid for the call whose
/// stamp it holds, so a call reads and writes only the words it hit and nothing is cleared.
pub(super) struct Lasts {
    stamp: u32,
    /// For each word its stamp (high half) and last hit (low half): an entry of an earlier
    /// text has a smaller stamp, so the largest of an entry and a hit is the word's last hit
    /// in this text, one compare a hit.
    of: Vec<u64>,
}

impl Lasts {
    pub const fn new() -> Lasts {
        Lasts { stamp: 0, of: Vec::new() }
    }

    /// Records `hits` (word, start), in whatever order (the trigger pass promises none), as
    /// the hits of a new text. Only when a row is to be limited: plain English seldom gets
    /// here, and keeping the last hits in the pass that builds the chains cost it 0.2k.
    #[inline(never)]
    pub fn record(&mut self, words: usize, hits: &[(u16, u32)]) {
        self.of.resize(words, 0);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 texts: stamps would repeat, so every entry is made stale once.
            self.of.iter_mut().for_each(|e| *e = 0);
            self.stamp = 1;
        }
        let stamp = u64::from(self.stamp) << 32;
        for &(w, at) in hits {
            let e = &mut self.of[usize::from(w)];
            *e = (*e).max(stamp | u64::from(at));
        }
    }

    /// The last hit of `word`, which the recorded hits must hold.
    #[inline]
    fn of(&self, word: usize) -> u32 {
        self.of[word] as u32
    }
}

/// Which set of `sets` limits a row's starts: of those not `implied` (known to have a hit at
/// or after every start), the one of fewest blocks, then of fewest words: each block is a
/// test a call, and a set of few words is the likeliest to have its last hit early. One set a
/// row: looking at all of them cost the attack bench text more than the searches it saved.
pub(super) fn late(sets: &[Vec<(u16, u64)>], implied: &[bool]) -> Option<u16> {
    let words = |set: &[(u16, u64)]| set.iter().map(|b| b.1.count_ones()).sum::<u32>();
    let k = (0..sets.len()).filter(|&k| !implied[k]).min_by_key(|&k| (sets[k].len(), words(&sets[k])))?;
    u16::try_from(k).ok()
}

/// The last hit of a word of `set` (a set of `Required::seen`), given the words the text holds
/// (`seen`) and their last hits (`last`, recorded for this text), or any hit at `upto` or
/// later (the row's last candidate start: such a hit vetoes none of them). 0 if no word of the
/// set occurs (`holds` has vetoed such a row already).
#[inline]
pub(super) fn last_from(set: &[(u16, u64)], seen: &[u64], last: &Lasts, upto: u32) -> u32 {
    let mut found = 0;
    for &(block, bits) in set {
        let mut m = seen[usize::from(block)] & bits;
        while m != 0 {
            let at = last.of(usize::from(block) * 64 + m.trailing_zeros() as usize);
            if at >= upto {
                return at;
            }
            found = found.max(at);
            m &= m - 1;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::table;
    use super::{last_from, late, Lasts};

    /// No match of any row starts past the last hit of any of its sets (the chosen `late` one
    /// among them): on the corpus lines, the frozen test texts and their ROT13 forms, every row
    /// tried whatever the triggers arm.
    #[test]
    fn no_match_starts_past_a_sets_last_hit() {
        let texts = super::super::test_texts();
        let t = table();
        let words = t.anchors.words();
        let (mut matched, mut limiting) = (0usize, 0usize);
        let mut last = Lasts::new();
        for text in super::super::search_forms(&texts) {
            let armed = t.arm(&text);
            let mut seen = vec![0u64; words.div_ceil(64)];
            for &(w, _) in &armed.hits {
                seen[usize::from(w) / 64] |= 1 << (w % 64);
            }
            // Shared by all texts, as between calls.
            last.record(words, &armed.hits);
            for (i, (_, re)) in t.rules.iter().enumerate() {
                let starts: Vec<usize> = re.find_iter(&text).map(|m| m.start()).collect();
                for set in &t.required[i].seen {
                    let lim = last_from(set, &seen, &last, u32::MAX) as usize;
                    if let Some(&s) = starts.last() {
                        assert!(s <= lim, "row {i}: a match at {s}, past {lim}, on {text:?}");
                        matched += 1;
                    } else {
                        limiting += usize::from(lim + 1 < text.len());
                    }
                }
            }
        }
        // The texts do exercise it: many matches, and many sets whose last hit is before the end.
        assert!(matched > 500 && limiting > 1000, "{matched} sets of matching rows, {limiting} limiting");
    }

    /// The chosen set is never one the anchors imply; then the one of fewest blocks and words.
    #[test]
    fn late_picks_the_smallest_set_the_anchors_do_not_imply() {
        let sets = vec![vec![(0, 0b1)], vec![(0, 0b110), (1, 0b1)], vec![(2, 0b11)]];
        assert_eq!(late(&sets, &[false, false, false]), Some(0));
        assert_eq!(late(&sets, &[true, false, false]), Some(2));
        assert_eq!(late(&sets, &[true, false, true]), Some(1));
        assert_eq!(late(&sets, &[true, true, true]), None);
        assert_eq!(late(&[], &[]), None);
    }

    /// Each word's last hit, whatever the order of the hits and whatever an earlier text left;
    /// a set's last hit is its words' latest, or any at or after `upto`.
    #[test]
    fn lasts_keep_each_words_last_hit() {
        let mut last = Lasts::new();
        last.record(128, &[(3, 90), (70, 95), (5, 99)]);
        last.record(128, &[(3, 10), (70, 40), (3, 30), (70, 20), (5, 0)]);
        assert_eq!((last.of(70), last.of(3), last.of(5)), (40, 30, 0));
        let seen = [1 << 3 | 1 << 5, 1 << 6];
        let set = [(0u16, 1u64 << 3 | 1 << 4), (1, 1 << 6)];
        assert_eq!(last_from(&set, &seen, &last, u32::MAX), 40);
        assert_eq!(last_from(&set, &seen, &last, 25), 30);
        assert_eq!(last_from(&[(0, 1 << 4)], &seen, &last, u32::MAX), 0);
        // Stamps wrap: every entry is stale after.
        last.stamp = u32::MAX;
        last.record(128, &[(3, 7)]);
        assert_eq!((last.stamp, last.of(3), last.of(70)), (1, 7, 0));
    }
}
