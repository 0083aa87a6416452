/**
 * Which detectors of the PII port run where (crates/reflex-core/src/pii/dispatch.rs): at a word
 * (by its first character and shape) and at a trigger character (`@ = : - + (`). The routing is
 * part of the core's decisions, not only its speed: a digit inside a longer token or inside a
 * number already reported starts nothing, and each digit-run shape reaches only the detectors
 * that could accept it.
 *
 * ```ts
 * const out: Hit[] = []
 * scanWord('card 4111111111111111', 5, out) // 21, the end of the word
 * out[0]?.type // 'CREDIT_CARD'
 * ```
 */
import { dobNamed, dobNumeric } from './pii-dob.js'
import { findEmail, findIpv4, findIpv6, findMac } from './pii-network.js'
import { findCard, findIban, findNhs, findPassport, findSsn } from './pii-numbers.js'
import { findCliShort, findCredential } from './pii-password.js'
import { findPhone } from './pii-phone.js'
import { findProse } from './pii-prose.js'
import { at, insideCluster, isAlpha, isDigit, isHex, isLower, isUpper, isWord, runLen, type Hit } from './pii-scan.js'
import { findApiKey, findPrivateKey } from './pii-secrets.js'
import { findWallet } from './pii-wallet.js'

function push(out: Hit[], m: Hit | undefined): void {
  if (m !== undefined) out.push(m)
}

/** Runs the detectors for the word starting at `start`; returns where the word ends. */
export function scanWord(t: string, start: number, out: Hit[]): number {
  // Plain prose (`the`, `The`): letters only, no capital after the first. Every detector that
  // can start on a letter needs a digit, `_`, an inner capital or a `:`/`-`/`.` after the word,
  // so plain words only get the month-name check and the credential-noun check.
  const c = t.charCodeAt(start)
  let plain = isAlpha(c)
  let i = start + 1
  while (i < t.length && isWord(t.charCodeAt(i))) {
    plain &&= isLower(t.charCodeAt(i))
    i++
  }
  const next = at(t, i)
  if (plain && next !== 58 && next !== 45 && !(next === 46 && i - start === 4)) {
    if (isUpper(c)) push(out, dobNamed(t, start))
    // Credential nouns ("password", "Passwort", "contraseña", "mot de passe"…).
    if ('pckws'.includes(String.fromCharCode(c | 0x20)) && i - start >= 2 && i - start <= 10) findProse(t, start, i, out)
  } else {
    wordStart(t, start, out)
  }
  return i
}

/** Runs the detectors that start at the trigger character `t[i]`. */
export function scanTrigger(t: string, i: number, out: Hit[]): void {
  switch (t[i]) {
    case '@':
      findEmail(t, i, out)
      break
    case '=':
      findCredential(t, i, out)
      break
    case ':':
      findCredential(t, i, out)
      if (t[i + 1] === ':') push(out, findIpv6(t, i))
      break
    case '-':
      push(out, findPrivateKey(t, i))
      if (t[i + 1] === 'p') push(out, findCliShort(t, i))
      break
    case '+':
    case '(':
      push(out, findPhone(t, i))
      break
  }
}

/** The detectors that can start at the word beginning at `i`. */
function wordStart(t: string, i: number, out: Hit[]): void {
  const c = t.charCodeAt(i)
  if (isDigit(c)) {
    // Inside a longer token, or inside a number already reported: a match starting here would
    // lose the overlap anyway. A credential value is the exception: a card inside it outranks it.
    const last = out[out.length - 1]
    if (insideCluster(t, i) || (last !== undefined && last.type !== 'PASSWORD' && last.start < i && i < last.end)) return
    // Route on the leading digit run and the character after it.
    const run = runLen(t, i, 20, isDigit)
    const next = at(t, i + run)
    const letter = isAlpha(next)
    const hexLetter = letter && isHex(next)
    const after = at(t, i + run + 1)
    // A separator followed by another digit group: `4111 1111`, `415-555`.
    const grouped = (next === 32 || next === 45) && isDigit(after)
    if (run <= 3 && next === 46 && isDigit(after)) push(out, findIpv4(t, i))
    if (run <= 4 && (next === 58 || hexLetter)) push(out, findIpv6(t, i))
    if (run <= 4 && (((next === 58 || next === 45 || next === 46) && isHex(after)) || hexLetter)) push(out, findMac(t, i))
    if (!letter && next !== 95) {
      if (run >= 12 || (run === 4 && grouped)) push(out, findCard(t, i))
      if (run === 9 || (run === 3 && grouped)) {
        push(out, findSsn(t, i))
        push(out, findNhs(t, i))
      } else if (run === 10) {
        push(out, findNhs(t, i))
      }
      if (run >= 7 || grouped || (next === 46 && isDigit(after))) push(out, findPhone(t, i))
      // `15/01/1990`, `14-Mar-1987`; `15 January`, `3. April`.
      const dateSep = (next === 45 || next === 47 || next === 46) && (isDigit(after) || (isAlpha(after) && run <= 2))
      const monthNext = (next === 32 && isAlpha(after)) || (next === 46 && after === 32 && run <= 2)
      if ((run === 4 || run <= 2) && (dateSep || monthNext)) push(out, dobNumeric(t, i))
    }
    // `2nd of September 1996`, `21st March 1990`.
    if (run <= 2 && (next === 115 || next === 110 || next === 114 || next === 116)) push(out, dobNumeric(t, i))
    if ((!letter && run >= 6 && run <= 9) || isUpper(next)) push(out, findPassport(t, i))
    if ((c === 48 && next === 120) || ((c === 49 || c === 51) && letter)) push(out, findWallet(t, i))
  } else if (isUpper(c)) {
    push(out, findApiKey(t, i))
    push(out, findIban(t, i))
    push(out, findWallet(t, i))
    push(out, dobNamed(t, i))
    push(out, findPassport(t, i))
    if (c <= 70 && !insideCluster(t, i)) {
      push(out, findMac(t, i))
      push(out, findIpv6(t, i))
    }
  } else {
    push(out, findApiKey(t, i))
    push(out, findWallet(t, i))
    if (c >= 97 && c <= 102 && !insideCluster(t, i)) {
      push(out, findMac(t, i))
      push(out, findIpv6(t, i))
    }
  }
}
