/**
 * Dates of birth of the PII port (crates/reflex-core/src/pii/dob.rs): a calendar date
 * (`1990-01-15`, `15/01/1990`, `15 January 1990`, `January 15, 1990`, `3. April 1979`,
 * `7 de julio de 1993`, `2nd of September 1996`, `14-Mar-1987`) reported only when "born",
 * "DOB", "date of birth", "Geburtsdatum", "né le"… comes shortly before. Month names in English,
 * German, French, Spanish, Italian and Portuguese.
 *
 * ```ts
 * dobNumeric('DOB: 1990-01-15', 5)?.end // 15
 * dobNamed('born March 3rd, 1985', 5)?.type // 'DATE_OF_BIRTH'
 * ```
 */
import { at, cleanEnd, hit, isAlpha, isDigit, Keywords, startsWithAnyCase, asciiLower, type Hit } from './pii-scan.js'

const CONTEXT = new Keywords([
  'born', 'dob', 'd.o.b', 'date of birth', 'birth date', 'birthdate', 'birthday', 'birth', 'b. ',
  // de, nl
  'geburtsdatum', 'geburtstag', 'geboren', 'geb. ', 'geboortedatum',
  // es, pt, it
  'nacimiento', 'nacido', 'nacida', 'nascimento', 'nasceu', 'nascita', 'nato il', 'nata il',
  // fr
  'naissance', 'né le', 'née le', 'né en', 'née en',
])
const MONTHS: readonly string[] = [
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december', 'sept',
  // de
  'januar', 'februar', 'märz', 'mai', 'juni', 'juli', 'oktober', 'dezember',
  // fr
  'janvier', 'février', 'mars', 'avril', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre',
  // es
  'enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre',
  'noviembre', 'diciembre',
  // it
  'gennaio', 'febbraio', 'aprile', 'maggio', 'giugno', 'luglio', 'settembre', 'ottobre', 'dicembre',
  // pt
  'janeiro', 'fevereiro', 'março', 'maio', 'junho', 'julho', 'setembro', 'outubro', 'novembro', 'dezembro',
]
/** "Birthday party", "birthday dinner"…: an event on a date, not somebody's date of birth. */
const EVENTS = new Keywords([
  'birthday party', 'birthday cake', 'birthday card', 'birthday gift', 'birthday present', 'birthday dinner',
  'birthday lunch', 'birthday celebration', 'birthday drinks', 'birthday bash',
])
/** These still mean a date of birth next to an event word. */
const NAMED = new Keywords(['born', 'dob', 'date of birth'])
const ORDINALS = new Set(['st', 'nd', 'rd', 'th'])

function confirm(t: string, start: number, end: number): Hit | undefined {
  const context = CONTEXT.before(t, start, 40) && (!EVENTS.before(t, start, 40) || NAMED.before(t, start, 40))
  return context ? hit('DATE_OF_BIRTH', start, end, 0.85) : undefined
}

/** Up to `max` digits at `i`: [value, count]. */
function number(t: string, i: number, max: number): [number, number] {
  let v = 0
  let n = 0
  while (n < max && isDigit(at(t, i + n))) {
    v = v * 10 + (t.charCodeAt(i + n) - 48)
    n++
  }
  return [v, n]
}

const yearOk = (y: number): boolean => y >= 1900 && y <= 2099
const dayMonthOk = (d: number, m: number): boolean => m >= 1 && m <= 12 && d >= 1 && d <= 31

/** `YYYY-MM-DD`, `DD/MM/YYYY`, `MM/DD/YYYY` (or `.`/`-`), or a day before a month name. */
export function dobNumeric(t: string, start: number): Hit | undefined {
  const [first, firstLen] = number(t, start, 4)
  const sep = at(t, start + firstLen)
  if (firstLen <= 2) {
    const after = start + firstLen
    if (sep === 32) return dayMonthYear(t, start, first, after)
    if (sep === 46 && at(t, after + 1) === 32) return dayMonthYear(t, start, first, after + 1)
    if (ORDINALS.has(t.slice(after, after + 2)) && at(t, after + 2) === 32) return dayMonthYear(t, start, first, after + 2)
  }
  if (sep !== 45 && sep !== 47 && sep !== 46) return undefined
  if (firstLen <= 2 && isAlpha(at(t, start + firstLen + 1))) return dayNameYear(t, start, first, start + firstLen + 1, sep)
  const [mid, midLen] = number(t, start + firstLen + 1, 2)
  const secondSep = start + firstLen + 1 + midLen
  if (midLen === 0 || at(t, secondSep) !== sep) return undefined
  const [last, lastLen] = number(t, secondSep + 1, 4)
  const end = secondSep + 1 + lastLen
  let ok = false
  if (firstLen === 4 && (lastLen === 1 || lastLen === 2)) ok = yearOk(first) && dayMonthOk(last, mid)
  else if (firstLen <= 2 && lastLen === 4) ok = yearOk(last) && (dayMonthOk(first, mid) || dayMonthOk(mid, first))
  // `04/07/85`: a two-digit year, taken only because the context says "born"/"DOB".
  else if (firstLen <= 2 && lastLen === 2) ok = sep !== 45 && (dayMonthOk(first, mid) || dayMonthOk(mid, first))
  if (!ok || !cleanEnd(t, end)) return undefined
  return confirm(t, start, end)
}

/** `14-Mar-1987`, `14/March/1987`: the same separator around a month name. */
function dayNameYear(t: string, start: number, day: number, i: number, sep: number): Hit | undefined {
  const ml = monthAt(t, i)
  if (ml === undefined || at(t, i + ml) !== sep || day < 1 || day > 31) return undefined
  const [y, ly] = number(t, i + ml + 1, 4)
  const end = i + ml + 1 + ly
  if (!(ly === 4 && yearOk(y) && cleanEnd(t, end))) return undefined
  return confirm(t, start, end)
}

/**
 * A month name (ASCII letters in any case) or a three-letter abbreviation at `i`: its length.
 * The word runs over ASCII letters and non-ASCII units; "three letters" counts UTF-8 bytes, as
 * the core does (so `mär` is not an abbreviation of `märz`).
 */
function monthAt(t: string, i: number): number | undefined {
  let len = 0
  let bytes = 0
  for (;;) {
    const c = at(t, i + len)
    if (!(isAlpha(c) || c >= 0x80)) break
    const size = c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3
    if (bytes + size > 12) break
    bytes += size
    len++
  }
  const word = asciiLower(t.slice(i, i + len))
  const abbreviation = bytes === 3
  const found = MONTHS.some((m) => word === m || (abbreviation && m.length >= 3 && m.startsWith(word)))
  return found ? len : undefined
}

/** ` of ` / ` de ` / ` del ` at `k` (a space first): the offset of its last space, else `k`. */
function skipParticle(t: string, k: number): number {
  for (const p of [' of ', ' de ', ' del ']) {
    if (startsWithAnyCase(t, k, p)) return k + p.length - 1
  }
  return k
}

/** `15 January 1990`, `15 Jan 1990`, `15 de enero de 1990`, from the space at `i`. */
function dayMonthYear(t: string, start: number, day: number, from: number): Hit | undefined {
  const i = skipParticle(t, from)
  const ml = monthAt(t, i + 1)
  if (ml === undefined) return undefined
  let k = i + 1 + ml
  if (at(t, k) === 46) k++
  if (at(t, k) === 44) k++
  if (at(t, k) !== 32) return undefined
  k = skipParticle(t, k)
  const [y, ly] = number(t, k + 1, 4)
  const end = k + 1 + ly
  if (!(ly === 4 && yearOk(y) && day >= 1 && day <= 31 && cleanEnd(t, end))) return undefined
  return confirm(t, start, end)
}

/** Whether a word starting with unit `first` may start a month name for `dobNamed`. */
export function mayNameMonth(first: number): boolean {
  return 'JFMASOND'.includes(String.fromCharCode(first))
}

/** `January 15, 1990`, `Jan. 15 1990`, `March 3rd, 1985`. */
export function dobNamed(t: string, start: number): Hit | undefined {
  if (!mayNameMonth(t.charCodeAt(start))) return undefined
  // Cheap shape first: a word of 3–9 letters, then `Jan. 1` or `January 1`.
  let word = 0
  while (word < 10 && isAlpha(at(t, start + word))) word++
  const gap = at(t, start + word) === 46 ? 1 : 0
  if (word < 3 || word > 9 || at(t, start + word + gap) !== 32 || !isDigit(at(t, start + word + gap + 1))) return undefined
  const ml = monthAt(t, start)
  if (ml === undefined) return undefined
  let k = start + ml
  if (at(t, k) === 46) k++
  if (at(t, k) !== 32) return undefined
  const [day, ld] = number(t, k + 1, 2)
  k += 1 + ld
  if (ld === 0 || day < 1 || day > 31) return undefined
  if (ORDINALS.has(t.slice(k, k + 2))) k += 2
  if (at(t, k) === 44) k++
  if (at(t, k) !== 32) return undefined
  const [y, ly] = number(t, k + 1, 4)
  const end = k + 1 + ly
  if (!(ly === 4 && yearOk(y) && cleanEnd(t, end))) return undefined
  return confirm(t, start, end)
}
