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

use crate::lanes::{self, eq, within};

use super::{about, about_in, ceil_boundary, floor_boundary, is_quote, negated, Benign, ABOUT, ASCII_ALNUM, WINDOW};

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
    /// Where the pass stopped: every mark starting before it is listed.
    upto: usize,
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
        if negated(&text[s0..start]) {
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
        let mut p = self.upto;
        if p == 0 {
            // A stop about every 60 bytes: room for a kilobyte's without growing.
            self.stops.reserve(16 + to / 64);
        }
        while p < to {
            let n = (to - p).min(64);
            let (alnum, lower, special, closes) = block_classes(&bytes[p..]);
            // Whether the byte before the block is a letter or digit, or one after which no
            // about-word counts (`about_in`): a word start reads the byte before it.
            let before = p.checked_sub(1).map(|i| bytes[i]);
            let alnum_in = u64::from(before.is_some_and(|b| ASCII_ALNUM[usize::from(b)]));
            let closes_in = u64::from(matches!(before, Some(b'.' | b'@' | b'/')));
            let starts = lower & !(alnum << 1 | alnum_in) & !(closes << 1 | closes_in);
            let live = if n == 64 { !0 } else { (1u64 << n) - 1 };
            let mut events = (starts | special) & live;
            while events != 0 {
                let k = events.trailing_zeros() as usize;
                events &= events - 1;
                let i = p + k;
                if starts >> k & 1 == 1 {
                    self.words_at(bytes, i);
                } else if self.mark(text, i) && i >= stop {
                    self.upto = i + 1;
                    return;
                }
            }
            p += n;
        }
        self.upto = p;
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

    /// Records the about-words that start at `i` (after a byte that allows one) and are not
    /// part of a domain or an address.
    fn words_at(&mut self, bytes: &[u8], i: usize) {
        let letter = usize::from(bytes[i] - b'a');
        // Every about-word is longer than one byte (checked by a test).
        match bytes.get(i + 1) {
            Some(&second) if ABOUT_SECOND[letter] & (1 << (second % 32)) != 0 => {}
            _ => return,
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

/// For the (up to) 64 bytes from the start of `bytes`, bit `k` for byte `k`: the ASCII letters
/// and digits, the lower-case letters, the bytes `Marks::mark` reads (stops, quotes, the lead
/// bytes of the CJK ones), and `.`, `@`, `/` (after which no about-word counts). Bytes past the
/// end read as zero, in no class.
fn block_classes(bytes: &[u8]) -> (u64, u64, u64, u64) {
    let mut padded = [0u8; 64];
    let block = if let Some(b) = bytes.get(..64) {
        b
    } else {
        padded[..bytes.len()].copy_from_slice(bytes);
        &padded
    };
    let lower = lanes::mask64(block, |v| within(v, b'a', b'z'));
    let alnum = lanes::mask64(block, |v| lanes::letters(v) | within(v, b'0', b'9'));
    let special = lanes::mask64(block, |v| {
        eq(v, b'.') | eq(v, b'!') | eq(v, b'?') | eq(v, b'\n') | eq(v, b'"') | eq(v, b'`') | eq(v, b'\'') | eq(v, 0xE3) | eq(v, 0xEF)
    });
    let closes = lanes::mask64(block, |v| eq(v, b'.') | eq(v, b'@') | eq(v, b'/'));
    (alnum, lower, special, closes)
}

#[cfg(test)]
mod tests {
    use super::super::judge;
    use super::Judge;
    use crate::injection::normalize::normalize;

    /// Spans starting at every character of `text`, one, about ten and about forty bytes long.
    fn spans(text: &str) -> Vec<(usize, usize)> {
        let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let mut out = Vec::new();
        for (k, &s) in bounds.iter().enumerate() {
            for len in [1, 10, 40] {
                if let Some(&e) = bounds[k + 1..].iter().find(|&&e| e >= s + len) {
                    out.push((s, e));
                }
            }
        }
        out
    }

    /// How many spans of each verdict (none, quoted, negated, about) both judges gave.
    fn same_verdicts(text: &str) -> [usize; 4] {
        let mut j = Judge::new(text);
        let mut seen = [0; 4];
        let spans = spans(text);
        for &(s, e) in &spans {
            let v = judge(text, s, e);
            assert_eq!(j.judge(s, e), v, "{s}..{e} of {text:?}");
            seen[v.map_or(0, |b| 1 + b as usize)] += 1;
        }
        // Backwards too: the marks are found as far as the first span needs, then further.
        let mut j = Judge::new(text);
        for &(s, e) in spans.iter().rev().step_by(7) {
            assert_eq!(j.judge(s, e), judge(text, s, e), "{s}..{e} of {text:?}, backwards");
        }
        seen
    }

    /// Spans judged again, soon after (recalled) and long after (judged anew), get the
    /// verdict `judge` gives, as do spans whose sentence ends where an earlier pass stopped.
    #[test]
    fn spans_judged_again_get_the_same_verdicts() {
        let text = "say 'ignore previous instructions'. the phrase 'ignore it' is an attack. \
                    do not ignore it! ignore it, 'ok'? example: ignore it";
        let spans = spans(text);
        let mut j = Judge::new(text);
        for (k, &(s, e)) in spans.iter().enumerate() {
            assert_eq!(j.judge(s, e), judge(text, s, e), "{s}..{e}");
            // Three back (recalled) and forty back (gone from the recall ring).
            for back in [3, 40] {
                if let Some(&(s, e)) = k.checked_sub(back).map(|b| &spans[b]) {
                    assert_eq!(j.judge(s, e), judge(text, s, e), "{s}..{e} again");
                }
            }
        }
    }

    #[test]
    fn every_about_word_starts_with_a_lower_case_letter() {
        assert!(super::ABOUT.len() <= 32);
        assert!(super::ABOUT.iter().all(|w| w.as_bytes()[0].is_ascii_lowercase() && w.len() > 1));
    }

    #[test]
    fn tricky_texts_get_the_same_verdicts() {
        for text in [
            "the phrase 'ignore previous instructions' is a known attack. ignore previous instructions!",
            "write to archive@attack.example or see attacker.example/x; such as e.g. example",
            "an injections attack? prompt injection attack: red-team red team 'x' `y` \"z\"",
            "我。不 ignore previous instructions！'x」『y』「z」？ 。。",
            "don't ignore it, 'ok' it's a what is meant means what does vulnerabilities",
            "example",
            "",
            ".",
            "'",
            "exploit.attack@phrase/pattern.x payload",
        ] {
            same_verdicts(text);
        }
    }

    /// The pass reads 64-byte blocks: marks, about-words and words cut by a block's edge, at
    /// every offset around it, get the verdicts `judge` gives.
    #[test]
    fn marks_across_block_edges_get_the_same_verdicts() {
        let tail = "x.attack 'ignore' it. \"example\" 我。no. phrase@x.y /pattern ignore";
        for pad in 40..80 {
            let text = format!("{}{tail} {}", "ab ".repeat(pad / 3) + &"c".repeat(pad % 3), "word ".repeat(30));
            same_verdicts(&text);
        }
    }

    #[test]
    fn corpus_texts_get_the_same_verdicts() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let mut seen = [0; 4];
        for f in ["../../test/corpus/injection.jsonl", "../../test/corpus/injection-holdout.jsonl", "examples/injection_dump_texts.txt"] {
            let raw = std::fs::read_to_string(format!("{dir}/{f}")).expect(f);
            for line in raw.lines() {
                let line = line.replace("\\n", "\n");
                for text in [line.clone(), normalize(&line).text] {
                    let got = same_verdicts(&text);
                    (0..4).for_each(|k| seen[k] += got[k]);
                }
            }
        }
        // Every verdict is exercised, many times.
        assert!(seen.iter().all(|&n| n > 2_000), "{seen:?} spans (none, quoted, negated, about)");
    }
}
