/**
 * Validated numbers of the PII port (crates/reflex-core/src/pii/{card,ssn,nhs,iban,passport}.rs): payment
 * cards (issuer ranges, lengths, groupings, Luhn), US SSNs (area/group/serial rules, context for
 * undashed forms), UK NHS numbers (mod-11, context), IBANs (registry lengths, mod-97) and
 * passport numbers (shape after a context word).
 *
 * ```ts
 * findCard('pay 4111 1111 1111 1111', 4)?.end // 23
 * luhn([4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) // true
 * ```
 */
import { at, cleanEnd, hit, isAlnum, isDigit, isUpper, isWord, Keywords, readDigits, same, type Hit } from './pii-scan.js'

// ---- cards -------------------------------------------------------------------------------

/** A card number at `start`: 12–19 digits grouped by spaces or dashes, issuer and Luhn valid. */
export function findCard(t: string, start: number): Hit | undefined {
  const d = readDigits(t, start, 19, ' -')
  if (d.overflow || d.digits.length < 12 || !cleanEnd(t, d.end)) return undefined
  if (d.groups.length > 1 && !groupingOk(d.groups)) return undefined
  if (!issuerOk(d.digits) || !luhn(d.digits)) return undefined
  return hit('CREDIT_CARD', start, d.end, d.groups.length > 1 ? 0.97 : 0.93)
}

/** Printed groupings: fours (the last may be 1–4 long), Amex 4-6-5, Diners 4-6-4. */
function groupingOk(g: number[]): boolean {
  const last = g[g.length - 1] as number
  const head = g.slice(0, -1)
  return (head.every((x) => x === 4) && last >= 1 && last <= 4) || same(g, [4, 6, 5]) || same(g, [4, 6, 4])
}

function prefix(d: number[], n: number): number {
  let v = 0
  for (let k = 0; k < n; k++) v = v * 10 + (d[k] as number)
  return v
}

/** Issuer identification ranges with the lengths each issuer uses. */
function issuerOk(d: number[]): boolean {
  const len = d.length
  const p2 = prefix(d, 2)
  const p3 = prefix(d, 3)
  const p4 = prefix(d, 4)
  const p6 = prefix(d, 6)
  const between = (x: number, lo: number, hi: number): boolean => x >= lo && x <= hi
  switch (d[0]) {
    case 4: // Visa
      return len === 13 || len === 16 || len === 19
    case 5: // Mastercard
      return between(p2, 51, 55) && len === 16
    case 2: // Mastercard 2-series
      return between(p4, 2221, 2720) && len === 16
    case 3:
      return (
        ((p2 === 34 || p2 === 37) && len === 15) || // Amex
        (between(p4, 3528, 3589) && between(len, 16, 19)) || // JCB
        ((between(p3, 300, 305) || p2 === 36 || p2 === 38 || p2 === 39) && between(len, 14, 19)) // Diners
      )
    case 6:
      return (
        ((p4 === 6011 || between(p3, 644, 649) || p2 === 65 || between(p6, 622126, 622925)) && between(len, 16, 19)) || // Discover
        (p2 === 62 && between(len, 16, 19)) // UnionPay
      )
    default:
      return false
  }
}

/** The Luhn check over a number's digits. */
export function luhn(d: readonly number[]): boolean {
  let sum = 0
  for (let k = 0; k < d.length; k++) {
    const x = d[d.length - 1 - k] as number
    sum += k % 2 === 1 ? (x * 2 > 9 ? x * 2 - 9 : x * 2) : x
  }
  return sum % 10 === 0
}

// ---- SSN ---------------------------------------------------------------------------------

const SSN_CONTEXT = new Keywords(['ssn', 'social security', 'ss#', 'ss #', 'soc sec'])

/** `AAA-GG-SSSS`; a spaced or undelimited nine-digit number only after a context word. */
export function findSsn(t: string, start: number): Hit | undefined {
  const d = readDigits(t, start, 9, '- ')
  if (d.overflow || d.digits.length !== 9 || !cleanEnd(t, d.end)) return undefined
  const shaped = same(d.groups, [3, 2, 4])
  if (!(shaped || d.groups.length === 1) || !ssnRulesOk(d.digits)) return undefined
  const context = SSN_CONTEXT.before(t, start, 40)
  const dashed = shaped && d.sep === 45
  if (!dashed && !context) return undefined
  return hit('SSN', start, d.end, dashed && context ? 0.97 : 0.85)
}

/** Area not 000, 666 or 900–999; group not 00; serial not 0000. */
export function ssnRulesOk(d: readonly number[]): boolean {
  const area = prefix(d as number[], 3)
  const group = (d[3] as number) * 10 + (d[4] as number)
  const serial = prefix(d.slice(5), 4)
  return area !== 0 && area !== 666 && area < 900 && group !== 0 && serial !== 0
}

// ---- NHS ---------------------------------------------------------------------------------

const NHS_CONTEXT = new Keywords(['nhs', 'health service', 'patient number'])

/** Ten digits (3-3-4 or run together), mod-11 check digit, after "NHS" or similar. */
export function findNhs(t: string, start: number): Hit | undefined {
  const d = readDigits(t, start, 10, ' -')
  if (d.overflow || d.digits.length !== 10 || !cleanEnd(t, d.end)) return undefined
  if (!(d.groups.length === 1 || same(d.groups, [3, 3, 4])) || !nhsCheckOk(d.digits)) return undefined
  return NHS_CONTEXT.before(t, start, 40) ? hit('UK_NHS', start, d.end, 0.92) : undefined
}

/** Weights 10..2 over the first nine digits; 11 - sum mod 11 (11 → 0, 10 invalid) is the tenth. */
export function nhsCheckOk(d: readonly number[]): boolean {
  let sum = 0
  for (let k = 0; k < 9; k++) sum += (d[k] as number) * (10 - k)
  let check = 11 - (sum % 11)
  if (check === 11) check = 0
  return check !== 10 && check === d[9]
}

// ---- IBAN --------------------------------------------------------------------------------

/** IBAN length per country (SWIFT IBAN registry). */
const IBAN_LENGTHS = new Map<string, number>(
  Object.entries({
    AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22,
    CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22,
    GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30,
    KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20,
    MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22,
    RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
    UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
  }),
)

/** An IBAN at `start`: compact, or printed with single spaces every four characters. */
export function findIban(t: string, start: number): Hit | undefined {
  if (!(isUpper(at(t, start + 1)) && isDigit(at(t, start + 2)) && isDigit(at(t, start + 3)))) return undefined
  const want = IBAN_LENGTHS.get(t.slice(start, start + 2))
  if (want === undefined) return undefined
  let chars = ''
  let i = start
  let spaced = false
  while (chars.length < want) {
    const c = at(t, i)
    const n = chars.length
    if (isDigit(c) || isUpper(c)) {
      chars += t[i]
      i++
    } else if (c === 32 && n > 0 && n % 4 === 0 && (n === 4 || spaced) && at(t, i - 1) !== 32) {
      spaced = true
      i++
    } else {
      return undefined
    }
  }
  if (isAlnum(at(t, i))) return undefined
  return mod97(chars) ? hit('IBAN', start, i, 0.97) : undefined
}

/** First four characters moved to the end, letters as 10..35: the remainder mod 97 is 1. */
export function mod97(s: string): boolean {
  let rem = 0
  for (const ch of s.slice(4) + s.slice(0, 4)) {
    const c = ch.charCodeAt(0)
    rem = isDigit(c) ? (rem * 10 + (c - 48)) % 97 : (rem * 100 + (c - 65) + 10) % 97
  }
  return rem === 1
}

// ---- passport ----------------------------------------------------------------------------

const PASSPORT_CONTEXT = new Keywords(['passport', 'passport no', 'passport number', 'reisepass', 'passeport', 'pasaporte'])

/** Six to nine capitals and digits (four digits or more, three letters at most) after "passport". */
export function findPassport(t: string, start: number): Hit | undefined {
  let end = start
  let digits = 0
  let letters = 0
  while (end - start < 10) {
    const c = at(t, end)
    if (isDigit(c)) digits++
    else if (isUpper(c)) letters++
    else break
    end++
  }
  const len = end - start
  if (len < 6 || len > 9 || digits < 4 || letters > 3 || isWord(at(t, end))) return undefined
  return PASSPORT_CONTEXT.before(t, start, 40) ? hit('PASSPORT', start, end, 0.75) : undefined
}
