//! The judge of many matches in one text: where the sentence stops, the quotes and the
//! about-words are found once, in one pass over the text (as far as the matches' sentences
//! reach), and each match then looks them up instead of re-reading its sentence (the attack
//! bench text has twenty matches, whose sentences overlap).
//!
//! Every verdict is the one `super::judge` gives (a test compares them at every span of many
//! texts):
//! - a stop or a quote is one character, and whether it counts depends only on the text
//!   around it, never on the span being judged, so a sorted list of them answers "is there one
//!   between here and there" exactly;
//! - an about-word counts only after a byte that is not a letter, digit, `.`, `@` or `/`, and
//!   not before a domain, again a property of the text alone. When no such word lies in a span,
//!   the about-word search over the span could only report words that do not count, so its
//!   answer is "no"; otherwise the search itself runs, so that its own way of picking among
//!   overlapping words decides, as before.
//! - a negation is read from the same pass's 64-byte block masks (letters and digits, clause
//!   separators): the clause's last four words are found by bit scans; a span with a non-ASCII
//!   byte or a `no ` goes to `negated` itself. The pass also lists where a word that is a
//!   negation (or `can`, of "can't") starts, again a property of the text alone: a span that
//!   holds none, and cuts no word at either end, has no negation among its last words.

use crate::lanes::{self, eq, within};

use super::{about, about_in, ceil_boundary, floor_boundary, is_negation, is_quote, negated, Benign, ABOUT, ASCII_ALNUM, NEGATIONS, WINDOW};

/// For each letter a..z, the about-words (bits of their index in `ABOUT`) that start with it.
const ABOUT_BY_FIRST: [u32; 26] = {
    let mut t = [0u32; 26];
    let mut k = 0;
    while k < ABOUT.len() {
        // Every about-word starts with a lower-case ASCII letter (checked by a test).
        let first = ABOUT[k].as_bytes()[0];
        if first.is_ascii_lowercase() {
            t[(first - b'a') as usize] |= 1 << k;
        }
        k += 1;
    }
    t
};

/// For each letter a..z, the second bytes (bit `byte % 32`) of the about-words that start with
/// it: most words of a text start like no about-word ("the", "to", "please"), and one test
/// of their second byte passes them by (letters collide with a few punctuation bytes modulo
/// 32, which only costs a comparison).
const ABOUT_SECOND: [u32; 26] = {
    let mut t = [0u32; 26];
    let mut k = 0;
    while k < ABOUT.len() {
        let w = ABOUT[k].as_bytes();
        if w[0].is_ascii_lowercase() {
            t[(w[0] - b'a') as usize] |= 1 << (w[1] % 32);
        }
        k += 1;
    }
    t
};

/// For each letter a..z, the second bytes (bit `byte % 32`) of the ASCII negations and of `can`
/// that start with it, as `ABOUT_SECOND` for the about-words.
const NEGATION_SECOND: [u32; 26] = {
    let mut t = [0u32; 26];
    let mut k = 0;
    while k <= NEGATIONS.len() {
        let w = if k == NEGATIONS.len() { "can".as_bytes() } else { NEGATIONS[k].as_bytes() };
        if w[0].is_ascii_lowercase() {
            t[(w[0] - b'a') as usize] |= 1 << (w[1] % 32);
        }
        k += 1;
    }
    t
};

/// Up to eight bytes as one little-endian number (zero past the last): words of at most eight
/// letters or digits compare equal exactly when their packed forms do.
const fn pack(w: &[u8]) -> u64 {
    let mut v = 0;
    let mut k = 0;
    while k < w.len() && k < 8 {
        v |= (w[k] as u64) << (8 * k);
        k += 1;
    }
    v
}

/// `NEGATIONS` and `can` packed (`pack`), sorted; zero for the negations longer than eight
/// bytes, which no ASCII word `Marks::negation_at` looks for is (every ASCII negation is eight
/// bytes at most: a test).
const PACKED_NEGATIONS: [u64; NEGATIONS.len() + 1] = {
    let mut t = [0u64; NEGATIONS.len() + 1];
    let mut k = 0;
    while k < NEGATIONS.len() {
        if NEGATIONS[k].len() <= 8 {
            t[k] = pack(NEGATIONS[k].as_bytes());
        }
        k += 1;
    }
    t[NEGATIONS.len()] = pack(b"can");
    // Sorted by insertion, for the binary search.
    let mut k = 1;
    while k < t.len() {
        let mut j = k;
        while j > 0 && t[j - 1] > t[j] {
            let x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
            j -= 1;
        }
        k += 1;
    }
    t
};

/// Stops, quotes and about-words of one text, by byte offset, found from its start up to
/// where a judgement has needed them so far (a match's sentence never reaches further than
/// 120 bytes past it: the English after the attack bench text's matches is not read).
#[derive(Default)]
struct Marks {
    /// (start, length) of each sentence stop.
    stops: Vec<(u32, u32)>,
    /// The start of each character that counts as a quote.
    quotes: Vec<u32>,
    /// (start, end) of each about-word that counts, wherever it lies.
    about: Vec<(u32, u32)>,
    /// The start of each ASCII word that is a negation or `can`.
    negations: Vec<u32>,
    /// Where the pass stopped: every mark starting before it is listed.
    upto: usize,
    /// The classes `negated` reads of each 64-byte block the pass has read.
    blocks: Vec<Block>,
}

/// Bit `k` for byte `64 n + k` of block `n`: a letter or digit (ASCII), a clause separator
/// (`,` `;` `:`), a byte that sends `Marks::negated` to `negated` (non-ASCII, or an `n`
/// starting `no `).
#[derive(Clone, Copy)]
struct Block {
    alnum: u64,
    seps: u64,
    odd: u64,
}

/// Judges the matches of one normalised text, finding its marks on the first call.
pub(crate) struct Judge<'t> {
    text: &'t str,
    marks: Marks,
    /// The last `RECALL` spans judged and their verdicts (slot `n % RECALL` for the `n`-th):
    /// rows of one family often match the same span (three of the attack bench text's twenty
    /// matches), and a look-up here costs less than judging again. A fixed ring: a `Vec` cost
    /// more in allocations than it saved.
    done: [(u32, u32, Option<Benign>); RECALL],
    judged: usize,
}

/// How many verdicts a `Judge` recalls.
const RECALL: usize = 8;

impl<'t> Judge<'t> {
    pub fn new(text: &'t str) -> Judge<'t> {
        Judge { text, marks: Marks::default(), done: [(0, 0, None); RECALL], judged: 0 }
    }

    /// The verdict `super::judge(text, start, end)` gives.
    pub fn judge(&mut self, start: usize, end: usize) -> Option<Benign> {
        let text = self.text;
        // Offsets are kept as u32; a text past 4 GiB is judged the slow way.
        if u32::try_from(text.len()).is_err() {
            return super::judge(text, start, end);
        }
        let (start32, end32) = (start as u32, end as u32);
        let recalled = &self.done[..self.judged.min(RECALL)];
        if let Some(&(_, _, verdict)) = recalled.iter().find(|d| d.0 == start32 && d.1 == end32) {
            return verdict;
        }
        let verdict = self.judge_anew(start, end);
        self.done[self.judged % RECALL] = (start32, end32, verdict);
        self.judged += 1;
        verdict
    }

    fn judge_anew(&mut self, start: usize, end: usize) -> Option<Benign> {
        let text = self.text;
        let lo = floor_boundary(text, start.saturating_sub(WINDOW));
        let hi = ceil_boundary(text, (end + WINDOW).min(text.len()));
        let marks = &mut self.marks;
        // The sentence ends at the first stop from `end` on: the marks past it are not needed.
        if marks.stops.last().is_none_or(|&(p, _)| (p as usize) < end) {
            marks.find(text, hi, end);
        }
        let (start32, end32) = (start as u32, end as u32);
        // The last stop in lo..start and the first in end..hi, as `super::sentence` finds them.
        let k = marks.stops.partition_point(|&(p, _)| p < start32);
        let s0 = match k.checked_sub(1).map(|k| marks.stops[k]) {
            Some((p, len)) if p as usize >= lo => (p + len) as usize,
            _ => lo,
        };
        let s1 = match marks.stops.get(marks.stops.partition_point(|&(p, _)| p < end32)) {
            Some(&(p, _)) if (p as usize) < hi => p as usize,
            _ => hi,
        };
        if marks.negated(text, s0, start) {
            return Some(Benign::Negated);
        }
        let ac = about();
        if (marks.about_within(s0, start) && about_in(ac, text, s0, start))
            || (marks.about_within(end, s1) && about_in(ac, text, end, s1))
        {
            return Some(Benign::About);
        }
        if marks.quote_within(s0, start) && marks.quote_within(end, s1) {
            return Some(Benign::Quoted);
        }
        None
    }
}

impl Marks {
    /// Goes on with the pass until every mark starting before `to` is listed, or until it
    /// has listed a stop at `stop` or later (every mark before that stop is then listed).
    ///
    /// Sixty-four bytes at a time: their classes as bit masks (`block_classes`), and only the
    /// bytes that can be a mark (a stop, a quote, the first byte of a multi-byte one) or begin
    /// an about-word (a lower-case letter starting a word after a byte that allows one) are
    /// read. Reading every byte cost about 16 instructions a byte on the attack bench text (9k
    /// of its judging).
    fn find(&mut self, text: &str, to: usize, stop: usize) {
        let bytes = text.as_bytes();
        if self.upto == 0 {
            // A stop about every 60 bytes: room for a kilobyte's without growing; and a
            // kilobyte's blocks (growing the list from 4 to 16 cost 900 instructions a call).
            self.stops.reserve(16 + to / 64);
            self.blocks.reserve(16);
        }
        while self.upto < to {
            // Blocks at multiples of 64, so `blocks[k]` is bytes 64k.. (a pass that goes on
            // from inside a block reads its classes again and skips what it has listed).
            let base = self.upto & !63;
            let c = block_classes(bytes, base);
            if base / 64 == self.blocks.len() {
                self.blocks.push(Block { alnum: c.alnum, seps: c.seps, odd: c.odd });
            }
            // Whether the byte before the block is a letter or digit, or one after which no
            // about-word counts (`about_in`): a word start reads the byte before it.
            let before = base.checked_sub(1).map(|i| bytes[i]);
            let alnum_in = u64::from(before.is_some_and(|b| ASCII_ALNUM[usize::from(b)]));
            let closes_in = u64::from(matches!(before, Some(b'.' | b'@' | b'/')));
            // Lower-case letters starting a word; about-words count only after some bytes.
            let words = c.lower & !(c.alnum << 1 | alnum_in);
            let starts = words & !(c.closes << 1 | closes_in);
            let n = (to - base).min(64);
            let live = (if n == 64 { !0 } else { (1u64 << n) - 1 }) & (!0u64 << (self.upto - base));
            let mut events = (words | c.special) & live;
            while events != 0 {
                let k = events.trailing_zeros() as usize;
                events &= events - 1;
                let i = base + k;
                if words >> k & 1 == 1 {
                    self.words_at(text, i, starts >> k & 1 == 1);
                } else if self.mark(text, i) && i >= stop {
                    self.upto = i + 1;
                    return;
                }
            }
            self.upto = base + n;
        }
    }

    /// `super::negated(&text[s0..start])`, read from the blocks' masks: the clause starts
    /// after the last `,`, `;` or `:`, and its last four words are the last runs of letters and
    /// digits, each found by a bit scan instead of a byte at a time. A span holding a non-ASCII
    /// byte (whose characters may be letters) or a `no ` (the phrases "under no
    /// circumstances"…) is read by `negated` itself, as is one the pass has not reached.
    ///
    /// Most spans hold no negation at all: the pass's list of negation words says so at the
    /// cost of a binary search, where finding the clause's last words cost ~250 instructions
    /// (17 of the attack text's matches, none negated: 4.6k of its check).
    fn negated(&self, text: &str, s0: usize, start: usize) -> bool {
        if s0 >= start || (start - 1) / 64 >= self.blocks.len() || self.last(|b| b.odd, s0, start).is_some() {
            return negated(&text[s0..start]);
        }
        // A word cut by either end of the span may read as a negation ("cannot" cut to "not").
        let b = text.as_bytes();
        let cuts = |p: usize| p > 0 && p < b.len() && ASCII_ALNUM[usize::from(b[p - 1])] && ASCII_ALNUM[usize::from(b[p])];
        if !cuts(s0) && !cuts(start) {
            let k = self.negations.partition_point(|&p| (p as usize) < s0);
            if self.negations.get(k).is_none_or(|&p| p as usize >= start) {
                return false;
            }
        }
        let clause = self.last(|b| b.seps, s0, start).map_or(s0, |i| i + 1);
        let mut end = start;
        let mut prev = "";
        for _ in 0..4 {
            let Some(e) = self.last(|b| b.alnum, clause, end) else { break };
            let s = self.last(|b| !b.alnum, clause, e).map_or(clause, |i| i + 1);
            let w = &text[s..=e];
            // "can't" splits into "can" + "t".
            if is_negation(w) || (w == "can" && prev == "t") {
                return true;
            }
            prev = w;
            end = s;
        }
        false
    }

    /// The last position in `lo..hi` whose bit is set in `mask` of its block (`hi` within
    /// the blocks read).
    fn last(&self, mask: impl Fn(&Block) -> u64, lo: usize, hi: usize) -> Option<usize> {
        if lo >= hi {
            return None;
        }
        let mut k = (hi - 1) / 64;
        let mut m = mask(&self.blocks[k]) & (!0u64 >> (63 - (hi - 1) % 64));
        loop {
            let base = k * 64;
            if lo > base {
                m &= !0u64 << (lo - base);
            }
            if m != 0 {
                return Some(base + 63 - m.leading_zeros() as usize);
            }
            if base <= lo {
                return None;
            }
            k -= 1;
            m = mask(&self.blocks[k]);
        }
    }

    /// Lists the stop or quote that begins at `i` (a byte of `block_classes`' `special`), if
    /// any; true for a stop.
    fn mark(&mut self, text: &str, i: usize) -> bool {
        let bytes = text.as_bytes();
        let at = i as u32;
        let (stop, quote) = match bytes[i] {
            b'.' | b'!' | b'?' | b'\n' => (Some(1), false),
            b'"' | b'`' => (None, true),
            b'\'' => (None, is_quote(text, i, '\'')),
            // 。 (e3 80 82) stops; 「」『』 (e3 80 8c..8f) quote.
            0xE3 if bytes.get(i + 1) == Some(&0x80) => match bytes.get(i + 2) {
                Some(0x82) => (Some(3), false),
                Some(0x8C..=0x8F) => (None, true),
                _ => (None, false),
            },
            // ！ (ef bc 81) and ？ (ef bc 9f) stop.
            0xEF if bytes.get(i + 1) == Some(&0xBC) && matches!(bytes.get(i + 2), Some(0x81 | 0x9F)) => (Some(3), false),
            _ => (None, false),
        };
        if quote {
            self.quotes.push(at);
        }
        if let Some(len) = stop {
            self.stops.push((at, len));
        }
        stop.is_some()
    }

    /// Records what starts at `i`, a lower-case letter beginning a word: a negation (or `can`),
    /// and when `about` (after a byte that allows one) the about-words that are not part of a
    /// domain or an address. One test of its first two bytes passes most words by.
    fn words_at(&mut self, text: &str, i: usize, about: bool) {
        let bytes = text.as_bytes();
        let letter = usize::from(bytes[i] - b'a');
        // Every about-word and negation is longer than one byte (checked by a test).
        let Some(&second) = bytes.get(i + 1) else { return };
        let second = 1 << (second % 32);
        if NEGATION_SECOND[letter] & second != 0 {
            self.negation_at(bytes, i);
        }
        if !about || ABOUT_SECOND[letter] & second == 0 {
            return;
        }
        let mut first = ABOUT_BY_FIRST[letter];
        while first != 0 {
            let w = ABOUT[first.trailing_zeros() as usize].as_bytes();
            first &= first - 1;
            // Compared in place: the words are short, a call to `memcmp` costs more.
            if bytes.len() - i < w.len() || (1..w.len()).any(|k| bytes[i + k] != w[k]) {
                continue;
            }
            let mut e = i + w.len();
            while e < bytes.len() && bytes[e].is_ascii_alphanumeric() {
                e += 1;
            }
            let domain = matches!(bytes.get(e), Some(b'.' | b'@')) && bytes.get(e + 1).is_some_and(u8::is_ascii_alphanumeric);
            if !domain {
                self.about.push((i as u32, (i + w.len()) as u32));
            }
        }
    }

    /// Lists the word starting at `i` when it is a negation or `can`: the word's bytes, packed
    /// into a number, are looked for among the negations packed the same way (`is_negation` on
    /// the word as a `str`, then the packed words of its first letter one by one, cost ~140
    /// instructions a word: "now", "new" and "note" have eleven negations to pass).
    #[inline(never)] // one word in eight gets here
    fn negation_at(&mut self, bytes: &[u8], i: usize) {
        let mut e = i + 1;
        while e < bytes.len() && e - i <= 8 && ASCII_ALNUM[usize::from(bytes[e])] {
            e += 1;
        }
        let len = e - i;
        if len > 8 {
            return;
        }
        let word = match bytes.get(i..i + 8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight bytes")) & (!0u64 >> (64 - 8 * len)),
            None => pack(&bytes[i..e]),
        };
        if PACKED_NEGATIONS.binary_search(&word).is_ok() {
            self.negations.push(i as u32);
        }
    }

    /// An about-word that counts lies wholly inside `from..to`.
    fn about_within(&self, from: usize, to: usize) -> bool {
        let k = self.about.partition_point(|&(s, _)| (s as usize) < from);
        self.about[k..].iter().take_while(|&&(s, _)| (s as usize) < to).any(|&(_, e)| e as usize <= to)
    }

    /// A quote starts inside `from..to`.
    fn quote_within(&self, from: usize, to: usize) -> bool {
        let k = self.quotes.partition_point(|&q| (q as usize) < from);
        self.quotes.get(k).is_some_and(|&q| (q as usize) < to)
    }
}

/// The classes of one 64-byte block, bit `k` for byte `k`.
struct Classes {
    /// ASCII letters and digits.
    alnum: u64,
    lower: u64,
    /// The bytes `Marks::mark` reads: stops, quotes, the lead bytes of the CJK ones.
    special: u64,
    /// `.`, `@`, `/`: no about-word counts right after one.
    closes: u64,
    /// `,` `;` `:`.
    seps: u64,
    /// Non-ASCII bytes, and each `n` that begins `no `.
    odd: u64,
}

/// The classes of the 64 bytes of `bytes` from `base` (bytes past the end read as zero, in no
/// class).
fn block_classes(bytes: &[u8], base: usize) -> Classes {
    let rest = &bytes[base..];
    let mut padded = [0u8; 64];
    let block = if let Some(b) = rest.get(..64) {
        b
    } else {
        padded[..rest.len()].copy_from_slice(rest);
        &padded
    };
    let lower = lanes::mask64(block, |v| within(v, b'a', b'z'));
    let alnum = lanes::mask64(block, |v| lanes::letters(v) | within(v, b'0', b'9'));
    let special = lanes::mask64(block, |v| {
        eq(v, b'.') | eq(v, b'!') | eq(v, b'?') | eq(v, b'\n') | eq(v, b'"') | eq(v, b'`') | eq(v, b'\'') | eq(v, 0xE3) | eq(v, 0xEF)
    });
    let closes = lanes::mask64(block, |v| eq(v, b'.') | eq(v, b'@') | eq(v, b'/'));
    let seps = lanes::mask64(block, |v| eq(v, b',') | eq(v, b';') | eq(v, b':'));
    // The top bit of each lane: the non-ASCII bytes.
    let high = lanes::mask64(block, |v| v);
    // `no `: an `n`, an `o` one byte on, a space two on (the two bytes past the block too).
    let at = |k: usize, c: u8| u64::from(bytes.get(base + 64 + k) == Some(&c));
    let n = lanes::mask64(block, |v| eq(v, b'n'));
    let o = lanes::mask64(block, |v| eq(v, b'o')) >> 1 | at(0, b'o') << 63;
    let space = lanes::mask64(block, |v| eq(v, b' ')) >> 2 | at(0, b' ') << 62 | at(1, b' ') << 63;
    Classes { alnum, lower, special, closes, seps, odd: high | (n & o & space) }
}

#[cfg(test)]
mod tests;
