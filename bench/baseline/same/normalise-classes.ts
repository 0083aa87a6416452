/**
 * The character classes and tables of the injection normaliser (`normalise.ts`), ported from
 * `crates/reflex-core/src/injection/normalize.rs` and `normalize/fold.rs`.
 *
 * Characters are asked about by code point (a number), so that the loops read the text with
 * `codePointAt` and allocate nothing per character.
 */

// Rust's `char::is_alphanumeric`: the Alphabetic property or a number category (Nd, Nl, No).
const ALPHANUMERIC = /[\p{Alphabetic}\p{N}]/u

/**
 * Whether code point `cp` is part of a word: ASCII letters and digits, `@` and `$` (leet
 * signs), and any other alphanumeric character.
 *
 * @example isWordCode(0x40) // true ('@'); isWordCode(0x5f) // false ('_')
 */
export function isWordCode(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x40 || cp === 0x24
  }
  // As in Rust, the letters of the common scripts and the punctuation typeset text uses are
  // answered without the Unicode table search (the tests check the answer is the same).
  if (
    (cp >= 0x0400 && cp <= 0x0481) ||
    (cp >= 0x0391 && cp <= 0x03a1) ||
    (cp >= 0x03a3 && cp <= 0x03a9) ||
    (cp >= 0x03b1 && cp <= 0x03c9) ||
    (cp >= 0x0620 && cp <= 0x064a) ||
    (cp >= 0x3041 && cp <= 0x3096) ||
    (cp >= 0x30a1 && cp <= 0x30fa) ||
    (cp >= 0x4e00 && cp <= 0x9fef) ||
    (cp >= 0xac00 && cp <= 0xd7a3)
  ) {
    return true
  }
  if (
    (cp >= 0x2000 && cp <= 0x206f) ||
    (cp >= 0x3000 && cp <= 0x3004) ||
    (cp >= 0x3008 && cp <= 0x3020) ||
    (cp >= 0xff01 && cp <= 0xff0f) ||
    (cp >= 0xff1a && cp <= 0xff20)
  ) {
    return false
  }
  return ALPHANUMERIC.test(String.fromCodePoint(cp))
}

/**
 * Whether code point `cp` may separate spaced-out letters (`i.g.n.o.r.e`, `i g n o r e`).
 *
 * @example isSpacerCode(0x2e) // true ('.'); isSpacerCode(0x09) // false (tab)
 */
export function isSpacerCode(cp: number): boolean {
  switch (cp) {
    case 0x20: // space
    case 0x2e: // .
    case 0x2d: // -
    case 0x5f: // _
    case 0x2a: // *
    case 0x2f: // /
    case 0x7c: // |
    case 0x7e: // ~
    case 0xb7: // ·
    case 0x3000: // ideographic space
      return true
    default:
      return false
  }
}

// Cyrillic and Greek letters that look like a Latin one, in either case: [latin, look-alikes].
const HOMOGLYPH_ROWS: Array<[string, string]> = [
  ['a', '\u0430\u0410\u03B1\u0391'], // а А α Α
  ['b', '\u0412\u0392\u044C'], // В Β ь
  ['c', '\u0441\u0421\u03F2'], // с С ϲ
  ['d', '\u0501'], // ԁ
  ['e', '\u0435\u0415\u0451\u03B5\u0395'], // е Е ё ε Ε
  ['h', '\u04BB\u041D\u0397'], // һ Н Η
  ['i', '\u0456\u0406\u03B9\u0399\u04CF'], // і І ι Ι ӏ
  ['j', '\u0458\u0408'], // ј Ј
  ['k', '\u043A\u041A\u03BA\u039A'], // к К κ Κ
  ['m', '\u041C\u039C'], // М Μ
  ['n', '\u039D\u03B7'], // Ν η
  ['o', '\u043E\u041E\u03BF\u039F\u03C3'], // о О ο Ο σ
  ['p', '\u0440\u0420\u03C1\u03A1'], // р Р ρ Ρ
  ['q', '\u051B'], // ԛ
  ['s', '\u0455\u0405'], // ѕ Ѕ
  ['t', '\u0422\u03A4\u03C4'], // Т Τ τ
  ['u', '\u03C5\u03BC'], // υ μ
  ['v', '\u03BD\u0475'], // ν ѵ
  ['w', '\u051D\u0461'], // ԝ ѡ
  ['x', '\u0445\u0425\u03C7\u03A7'], // х Х χ Χ
  ['y', '\u0443\u0423\u03B3\u03A5'], // у У γ Υ
  ['z', '\u0396'], // Ζ
]

// Keyed by code point: a number hashes at once, a string sliced from the text must be hashed
// on each lookup.
const HOMOGLYPHS = new Map<number, string>()
for (const [latin, glyphs] of HOMOGLYPH_ROWS) {
  for (const g of glyphs) HOMOGLYPHS.set(g.charCodeAt(0), latin)
}

/**
 * The Latin letter the Cyrillic or Greek look-alike `cp` stands for, or undefined.
 *
 * @example homoglyph(0x43e) // 'o' (Cyrillic о)
 */
export function homoglyph(cp: number): string | undefined {
  return HOMOGLYPHS.get(cp)
}

// Latin letters NFKD leaves alone but that read as plain ones; typographic quotes; tab and CR.
const LATIN_EXTRA = new Map<number, string>([
  [0x0131, 'i'], // ı
  [0x00f8, 'o'], // ø
  [0x00d8, 'o'], // Ø
  [0x0111, 'd'], // đ
  [0x0110, 'd'], // Đ
  [0x0142, 'l'], // ł
  [0x0141, 'l'], // Ł
  [0x201c, '"'], // “
  [0x201d, '"'], // ”
  [0x201e, '"'], // „
  [0x00ab, '"'], // «
  [0x00bb, '"'], // »
  [0x2033, '"'], // ″
  [0x2018, "'"], // ‘
  [0x2019, "'"], // ’
  [0x201a, "'"], // ‚
  [0x2032, "'"], // ′
  [0x09, ' '], // tab
  [0x0d, ' '], // carriage return
])

/**
 * The plain character code point `cp` reads as (`ł` → `l`, `’` → `'`, tab → space), or
 * undefined.
 *
 * @example latinExtra(0x142) // 'l' (ł)
 */
export function latinExtra(cp: number): string | undefined {
  return LATIN_EXTRA.get(cp)
}

/**
 * The char code of the letter the leet sign `code` stands for, given the char code of the
 * folded character before it in the word (-1 at the start), or -1 when `code` is not a sign.
 *
 * @example leetCode(0x31, 0x61) // 0x6c: '1' after 'a' is 'l'; leetCode(0x31, -1) // 0x69 ('i')
 */
export function leetCode(code: number, prev: number): number {
  switch (code) {
    case 0x31: // '1' reads as 'l' after a vowel or another l ("a11", "ru1es"), else as 'i'.
      return prev === 0x61 || prev === 0x65 || prev === 0x6f || prev === 0x75 || prev === 0x6c ? 0x6c : 0x69
    case 0x33: // 3
      return 0x65 // e
    case 0x30: // 0
      return 0x6f // o
    case 0x34: // 4
    case 0x40: // @
      return 0x61 // a
    case 0x35: // 5
    case 0x24: // $
      return 0x73 // s
    case 0x37: // 7
      return 0x74 // t
    case 0x38: // 8
      return 0x62 // b
    case 0x39: // 9
      return 0x67 // g
    default:
      return -1
  }
}

/**
 * Whether `code` is one of the signs `leetCode` folds: words holding one may be leetspeak.
 *
 * @example isLeetSign(0x34) // true ('4'); isLeetSign(0x32) // false ('2')
 */
export function isLeetSign(code: number): boolean {
  return leetCode(code, -1) >= 0
}
