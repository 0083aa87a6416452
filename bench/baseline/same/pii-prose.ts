/**
 * Credentials in prose for the PII port (crates/reflex-core/src/pii/password.rs, `prose` and
 * `netrc`), from a credential noun found by the word scan: "the wifi password for guests is
 * Mango-Tree-42", "Das Passwort lautet: …", "la contraseña es …", "mot de passe : …",
 * `--password secret`, `<password>secret</password>`, `login ada password Qm7#vT2p`.
 *
 * ```ts
 * const out: Hit[] = []
 * findProse('the password is hunter2', 4, 12, out)
 * out[0]?.start // 16
 * ```
 */
import { plausible, readValue, secretShape } from './pii-credential-values.js'
import { asciiLower, at, hit, isAlpha, isSpace, runBytes, startsWithAnyCase, unitBytes, type Hit } from './pii-scan.js'

/** Nouns that introduce a credential in a sentence. */
const NOUNS = new Set(['password', 'passwort', 'passwd', 'passphrase', 'passcode', 'pwd', 'pw', 'kennwort', 'senha', 'wachtwoord', 'contrasena'])
/** Words that make the noun a modifier ("password policy is …"): the sentence is about something else. */
const COMPOUNDS = new Set([
  'policy', 'policies', 'manager', 'field', 'hash', 'hashes', 'length', 'strength', 'requirement',
  'requirements', 'reset', 'rule', 'rules', 'prompt', 'box', 'input', 'format', 'complexity', 'expiry',
  'expiration', 'history', 'change', 'recovery', 'hint', 'protection', 'generator', 'vault', 'store',
])
/** Verbs that link such a noun to its value, in the languages of NOUNS. */
const LINKS = new Set(['is', 'was', 'ist', 'lautet', 'war', 'es', 'est', 'era', 'é', 'blijft', 'wordt'])
const NETRC_WORDS = ['login', 'user', 'username']

const isBlank = (c: number): boolean => c === 32 || c === 9

/** Length of the run from `i` of units that are not `stop`, over at most 257 bytes. */
function runUntil(t: string, i: number, stop: (c: number) => boolean): number {
  // A character crossing the limit is taken whole: the value is then over 256 bytes, too long
  // for `plausible`, as the core's cut one is.
  return runBytes(t, i, 257, (c) => !stop(c))[0]
}

/** The credential introduced by the plain word `t[start..end)`, pushed to `out`. */
export function findProse(t: string, start: number, end: number, out: Hit[]): void {
  const word = asciiLower(t.slice(start, end))
  let after = end
  let noun: boolean
  if (word === 'passe') {
    noun = start >= 7 && startsWithAnyCase(t, start - 7, 'mot de ')
  } else if (word === 'contrase') {
    const rest = t.slice(after, after + 2)
    noun = rest === 'ña' || rest === 'ÑA'
    after += 2
  } else {
    noun = NOUNS.has(word)
  }
  if (!noun) return
  if (start > 0 && t[start - 1] === '<' && t[after] === '>') {
    const v0 = after + 1
    const len = runUntil(t, v0, (c) => c === 60 || c === 10)
    if (t[v0 + len] === '<' && t[v0 + len + 1] === '/' && plausible(t.slice(v0, v0 + len), true)) {
      out.push(hit('PASSWORD', v0, v0 + len, 0.85))
    }
    return
  }
  if (!isBlank(at(t, after))) return
  if (start >= 2 && t.startsWith('--', start - 2)) {
    let i = after
    while (isBlank(at(t, i))) i++
    const found = readValue(t, i)
    if (found !== undefined) {
      const [vs, ve, quoted] = found
      const v = t.slice(vs, ve)
      if (t[vs] !== '-' && plausible(v, quoted) && (quoted || secretShape(v))) out.push(hit('PASSWORD', vs, ve, 0.8))
    }
    return
  }
  // `.netrc` style, `login ada password Qm7#vT2p`: the value right after the noun.
  if (start >= 7 && netrc(t, start)) {
    const i = after + 1
    const len = runUntil(t, i, isSpace)
    const v = t.slice(i, i + len)
    if (plausible(v, false) && secretShape(v)) out.push(hit('PASSWORD', i, i + len, 0.8))
    return
  }
  const i = linkedValueStart(t, after)
  if (i === undefined) return
  let vs: number
  let ve: number
  let quoted: boolean
  if (t[i] === '"' || t[i] === "'" || t[i] === '`') {
    const found = readValue(t, i)
    if (found === undefined) return
    ;[vs, ve, quoted] = found
  } else {
    ;[vs, ve, quoted] = [i, i + runUntil(t, i, isSpace), false]
    // A sentence's closing punctuation is not part of the value.
    while (ve > vs && '.,;:?)"\''.includes(t[ve - 1] as string)) ve--
  }
  const v = t.slice(vs, ve)
  if (plausible(v, quoted) && (quoted || secretShape(v))) out.push(hit('PASSWORD', vs, ve, 0.8))
}

/**
 * Up to six words ("for the guest network") after the noun, then a linking verb or a colon, in
 * the same clause: where the value starts (past blanks and a "now "), else undefined.
 */
function linkedValueStart(t: string, after: number): number | undefined {
  let i = after
  let linked = false
  for (let n = 0; n < 7; n++) {
    while (isBlank(at(t, i))) i++
    if (at(t, i) === 58) {
      i++
      linked = true
      break
    }
    const w0 = i
    // Words of at most 24 bytes; one the core cuts inside a character ends the search.
    const [len, bytes] = runBytes(t, i, 24, (c) => isAlpha(c) || c >= 0x80)
    i += len
    const next = at(t, i)
    if (len === 0 || bytes > 24 || !(isBlank(next) || next === 58)) return undefined
    const w = asciiLower(t.slice(w0, i))
    if (n === 0 && COMPOUNDS.has(w)) return undefined
    if (LINKS.has(w)) {
      linked = true
      while (isBlank(at(t, i))) i++
      if (at(t, i) === 58) i++
      break
    }
  }
  if (!linked) return undefined
  while (isBlank(at(t, i))) i++
  if (startsWithAnyCase(t, i, 'now ')) i += 4
  return i
}

/** `login <user> ` or `user <user> ` just before the noun at `start` (a `.netrc` line). */
function netrc(t: string, start: number): boolean {
  let k = start - 1
  if (t[k] !== ' ') return false
  const userEnd = k
  let bytes = 0
  while (k > 0 && !isSpace(t.charCodeAt(k - 1)) && bytes < 64) {
    bytes += unitBytes(t.charCodeAt(k - 1))
    k--
  }
  // Past 64 bytes the core stops inside a character, not after a space.
  if (k === userEnd || k === 0 || bytes > 64 || t[k - 1] !== ' ') return false
  const headEnd = k - 1
  return NETRC_WORDS.some(
    (w) => headEnd >= w.length && startsWithAnyCase(t, headEnd - w.length, w) && (headEnd === w.length || isSpace(t.charCodeAt(headEnd - w.length - 1))),
  )
}
