//! Step 3 of `normalize`: per word, look-alikes and leetspeak folded, then everything
//! lower-cased, with each output byte mapped to the span of the unit it came from.

use super::{is_word, Normalized, Unit};

/// A Cyrillic or Greek letter that looks like a Latin one, in either case.
fn homoglyph(c: char) -> Option<char> {
    Some(match c {
        'а' | 'А' | 'α' | 'Α' => 'a',
        'В' | 'Β' | 'ь' => 'b',
        'с' | 'С' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'Е' | 'ё' | 'ε' | 'Ε' => 'e',
        'һ' | 'Н' | 'Η' => 'h',
        'і' | 'І' | 'ι' | 'Ι' | 'ӏ' => 'i',
        'ј' | 'Ј' => 'j',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'М' | 'Μ' => 'm',
        'Ν' | 'η' => 'n',
        'о' | 'О' | 'ο' | 'Ο' | 'σ' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' | 'Ѕ' => 's',
        'Т' | 'Τ' | 'τ' => 't',
        'υ' | 'μ' => 'u',
        'ν' | 'ѵ' => 'v',
        'ԝ' | 'ѡ' => 'w',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'у' | 'У' | 'γ' | 'Υ' => 'y',
        'Ζ' => 'z',
        _ => return None,
    })
}

/// Latin letters NFKD leaves alone but that read as plain ones.
pub(super) fn latin_extra(c: char) -> Option<char> {
    Some(match c {
        'ı' => 'i',
        'ø' | 'Ø' => 'o',
        'đ' | 'Đ' => 'd',
        'ł' | 'Ł' => 'l',
        '“' | '”' | '„' | '«' | '»' | '″' => '"',
        '‘' | '’' | '‚' | '′' => '\'',
        '\t' | '\r' => ' ',
        _ => return None,
    })
}

pub(super) fn leet(c: char, prev: Option<char>) -> Option<char> {
    Some(match c {
        // '1' reads as 'l' after a vowel or another l ("a11", "ru1es"), else as 'i' ("1gnore").
        '1' => match prev {
            Some('a' | 'e' | 'o' | 'u' | 'l') => 'l',
            _ => 'i',
        },
        '3' => 'e',
        '0' => 'o',
        '4' | '@' => 'a',
        '5' | '$' => 's',
        '7' => 't',
        '8' => 'b',
        '9' => 'g',
        _ => return None,
    })
}

pub(super) fn fold_words(units: &[Unit], original_len: usize) -> Normalized {
    let mut out = Normalized {
        text: String::with_capacity(units.len() + 8),
        starts: Vec::with_capacity(units.len() + 8),
        ends: Vec::with_capacity(units.len() + 8),
        from_ascii: false,
    };
    debug_assert!(u32::try_from(original_len).is_ok());
    let mut i = 0;
    while i < units.len() {
        if !is_word(units[i].ch) {
            let u = units[i];
            let c = latin_extra(u.ch).unwrap_or(u.ch);
            emit_lower(&mut out, c, u);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < units.len() && is_word(units[j].ch) {
            j += 1;
        }
        fold_word(&mut out, &units[i..j]);
        i = j;
    }
    out
}

pub(super) fn fold_word(out: &mut Normalized, word: &[Unit]) {
    let mut latin = 0usize;
    let mut glyphs = 0usize;
    let mut leets = 0usize;
    let mut digits = 0usize;
    let mut plain = true;
    for u in word {
        let c = u.ch;
        if c.is_ascii_alphabetic() {
            latin += 1;
        } else if homoglyph(c).is_some() {
            glyphs += 1;
            plain = false;
        } else if matches!(c, '0' | '1' | '3' | '4' | '5' | '7' | '8' | '9' | '@' | '$') {
            leets += 1;
        } else if c.is_ascii_digit() {
            digits += 1;
        } else if !c.is_ascii() {
            plain = false;
        }
    }
    if plain && leets == 0 {
        // Fast path: an ordinary ASCII word only needs lower-casing.
        for u in word {
            emit_lower(out, u.ch, *u);
        }
        return;
    }
    let fold_glyphs = glyphs > 0 && (latin > 0 || (glyphs >= 3 && glyphs == word.len()));
    let letters = latin + if fold_glyphs { glyphs } else { 0 };
    // Only words made of letters and leet digits fold ("4ll", "pr3v10u5", not "2nd" or "h264");
    // long tokens are ids, hashes or encodings, not words written in leetspeak.
    let fold_leet = leets > 0 && letters >= 1 && digits == 0 && word.len() <= 24;
    let mut prev: Option<char> = None;
    for u in word {
        let mut c = latin_extra(u.ch).unwrap_or(u.ch);
        if fold_glyphs {
            c = homoglyph(c).unwrap_or(c);
        }
        if fold_leet {
            c = leet(c, prev).unwrap_or(c);
        }
        let lower = c.to_ascii_lowercase();
        prev = Some(lower);
        emit_lower(out, c, *u);
    }
}

pub(super) fn emit_lower(out: &mut Normalized, c: char, u: Unit) {
    if c.is_ascii() {
        out.text.push(c.to_ascii_lowercase());
        out.starts.push(u.start);
        out.ends.push(u.end);
        return;
    }
    for l in c.to_lowercase() {
        let l = latin_extra(l).unwrap_or(l);
        out.text.push(l);
        for _ in 0..l.len_utf8() {
            out.starts.push(u.start);
            out.ends.push(u.end);
        }
    }
}
