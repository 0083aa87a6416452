//! The texts `normalize_dump` prints and `normal_forms` gives the TypeScript port: corpus items
//! and paragraphs of `docs/*.md`, each rewritten by a fixed pseudo-random sequence (dashes, curly
//! quotes, no-break spaces, accented names, look-alikes, invisible and full-width characters,
//! spaced-out letters…). `#[path = "common/rewrites.rs"] mod rewrites;` beside
//! `mod corpus_eval;` (`../tests/common/corpus_eval.rs`), which it reads the corpus with.

use crate::corpus_eval::{all_texts, corpus_dir};

/// Pieces dropped between words or in place of a space.
const INSERTS: &[&str] = &[
    " — ", "—", " – ", "’", "‘", "“", "”", "…", "\u{A0}", "José", "Müller", "Ærø", "naïve", "façade",
    "Zoë", "ﬁnal", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{202E}", "\u{2066}", "\u{00AD}", "ｉｇｎｏｒｅ", "Ｘ",
    "е", "о", "а", "р", "Ιgnοre", "игнорируй", "все", "привет", "αβγ", "東京", "ال", "i g n o r e",
    "i.g.n.o.r.e", "a b c d", "\t", "\r\n", "e\u{301}", "\u{301}", "\u{308}x", "1gn0r3", "·", "\u{3000}",
    "a·b·c·d", "x — y — z — w", "İ", "ß", "ǅ", "½", "™", "\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}",
    "ø", "ł", "«", "»", "″", "′", "ı", "\u{64B}", "ｒｅｖｅａｌ", "ѕуѕtеm", "рrоmрt",
];

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

fn base_texts() -> Vec<String> {
    let mut base = all_texts();
    let docs = corpus_dir().join("../../docs");
    let mut names: Vec<_> = std::fs::read_dir(&docs)
        .unwrap_or_else(|e| panic!("{}: {e}", docs.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    names.sort();
    for p in names {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        base.extend(text.split("\n\n").filter(|s| s.len() > 40).map(str::to_string));
    }
    base
}

/// `text` rewritten by `rng`: typographic swaps, and inserts at word edges or inside words.
fn mix(text: &str, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let rate = 1 + rng.next(40);
    for (i, c) in text.char_indices() {
        let roll = rng.next(rate * 8);
        match c {
            '\'' if roll < 4 => out.push('’'),
            '"' if roll < 4 => out.push(if i % 2 == 0 { '“' } else { '”' }),
            '.' if roll < 2 && text[i..].starts_with(". ") => out.push_str(" —"),
            ' ' if roll < 2 => out.push('\u{A0}'),
            'a'..='z' | 'A'..='Z' if roll == 0 => {
                // A look-alike or a full-width letter for this one.
                match rng.next(4) {
                    0 if c == 'o' => out.push('о'),
                    0 if c == 'e' => out.push('е'),
                    1 => out.push(char::from_u32(u32::from(c) - 0x21 + 0xFF01).unwrap_or(c)),
                    2 => {
                        out.push(c);
                        out.push('\u{301}');
                    }
                    _ => out.push(c),
                }
            }
            _ => out.push(c),
        }
        if roll == 1 || (roll == 2 && c == ' ') {
            out.push_str(INSERTS[rng.next(INSERTS.len())]);
        }
    }
    out
}

/// The rewritten texts, in a fixed order: three rewrites of each base text, then 800 texts of a
/// few rewritten pieces joined, so a non-ASCII character sits far from most of the ASCII around it.
pub fn texts() -> Vec<String> {
    let base = base_texts();
    let mut rng = Rng(0x5eed_0007);
    let mut texts: Vec<String> = Vec::new();
    for t in &base {
        for _ in 0..3 {
            texts.push(mix(t, &mut rng));
        }
    }
    for _ in 0..800 {
        let mut t = String::new();
        for _ in 0..=rng.next(6) {
            t.push_str(&mix(&base[rng.next(base.len())], &mut rng));
            t.push(' ');
        }
        texts.push(t);
    }
    texts
}
