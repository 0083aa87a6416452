/**
 * Keys and tokens of the PII port (crates/reflex-core/src/pii/secrets.rs): provider API keys by
 * documented prefix and alphabet, SendGrid keys, JWTs (three base64url segments whose header
 * decodes to a JSON object naming `"alg"`) and PEM private-key blocks (BEGIN through END).
 *
 * ```ts
 * findApiKey('AKIAZ7Q2M4XKD9PLW3RT', 0)?.confidence // 0.97
 * findPrivateKey('-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----', 0)?.type // 'PRIVATE_KEY'
 * ```
 */
import { at, hit, isAlnum, isDigit, isSpace, isUpper, runLen, type Hit } from './pii-scan.js'

/** `[A-Za-z0-9_-]`: base64url and most token alphabets. */
const url64 = (c: number): boolean => isAlnum(c) || c === 95 || c === 45
/** `[0-9a-f]` */
const lowerHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102)
/** `[A-Z0-9]` */
const upperAlnum = (c: number): boolean => isUpper(c) || isDigit(c)

interface Rule {
  prefix: string
  body: (c: number) => boolean
  min: number
  max: number
  confidence: number
}

const rule = (prefix: string, body: (c: number) => boolean, min: number, max: number, confidence: number): Rule => ({ prefix, body, min, max, confidence })

/** In the core's order: the first rule whose prefix matches is the only one tried. */
const RULES: readonly Rule[] = [
  rule('AKIA', upperAlnum, 16, 16, 0.97),
  rule('ASIA', upperAlnum, 16, 16, 0.95),
  rule('AIza', url64, 35, 35, 0.95),
  rule('ghp_', isAlnum, 36, 255, 0.97),
  rule('gho_', isAlnum, 36, 255, 0.97),
  rule('ghu_', isAlnum, 36, 255, 0.97),
  rule('ghs_', isAlnum, 36, 255, 0.97),
  rule('ghr_', isAlnum, 36, 255, 0.97),
  rule('github_pat_', url64, 40, 255, 0.97),
  rule('xoxb-', url64, 10, 255, 0.95),
  rule('xoxa-', url64, 10, 255, 0.95),
  rule('xoxp-', url64, 10, 255, 0.95),
  rule('xoxr-', url64, 10, 255, 0.95),
  rule('xoxs-', url64, 10, 255, 0.95),
  rule('sk_live_', isAlnum, 16, 255, 0.97),
  rule('sk_test_', isAlnum, 16, 255, 0.9),
  rule('rk_live_', isAlnum, 16, 255, 0.97),
  rule('rk_test_', isAlnum, 16, 255, 0.9),
  rule('pk_live_', isAlnum, 16, 255, 0.85),
  rule('whsec_', isAlnum, 24, 255, 0.95),
  rule('xapp-', url64, 20, 255, 0.95),
  rule('glpat-', url64, 20, 255, 0.97),
  rule('glptt-', url64, 20, 255, 0.95),
  rule('gldt-', url64, 20, 255, 0.95),
  rule('npm_', isAlnum, 36, 36, 0.95),
  rule('hf_', isAlnum, 34, 34, 0.95),
  rule('shpat_', lowerHex, 32, 32, 0.97),
  rule('shpss_', lowerHex, 32, 32, 0.97),
  rule('shpca_', lowerHex, 32, 32, 0.97),
  rule('shppa_', lowerHex, 32, 32, 0.97),
  rule('dop_v1_', lowerHex, 64, 64, 0.97),
  rule('doo_v1_', lowerHex, 64, 64, 0.97),
  rule('dor_v1_', lowerHex, 64, 64, 0.97),
  rule('pypi-AgEIcHlwaS5vcmc', url64, 50, 255, 0.97),
  rule('GOCSPX-', url64, 28, 28, 0.95),
  rule('sq0atp-', url64, 22, 22, 0.95),
  rule('sq0csp-', url64, 43, 43, 0.95),
  rule('SK', lowerHex, 32, 32, 0.9),
  rule('key-', isAlnum, 32, 32, 0.85),
  // Longest first: `sk-ant-` and `sk-proj-` before the plain OpenAI `sk-`.
  rule('sk-ant-', url64, 20, 255, 0.97),
  rule('sk-proj-', url64, 20, 255, 0.97),
  rule('sk-', url64, 20, 255, 0.9),
]

/** The first two characters a key or token can start with (the core's cheap gate). */
const GATE = /^(?:A[KSI]|g[hil]|x[oa]|[srp]k|[ep]y|[ws]h|np|hf|do|GO|SK|ke|sq)/

/** A provider key, SendGrid key or JWT starting at `start`. */
export function findApiKey(t: string, start: number): Hit | undefined {
  const two = t.slice(start, start + 2)
  if (two === 'SG') return sendgrid(t, start)
  if (!GATE.test(two)) return undefined
  if (t.startsWith('eyJ', start)) return jwt(t, start)
  const r = RULES.find((x) => t.startsWith(x.prefix, start))
  if (r === undefined) return undefined
  const s = start + r.prefix.length
  const len = runLen(t, s, r.max + 1, r.body)
  if (len < r.min || len > r.max) return undefined
  const end = s + len
  // A key glued to more word characters is something else.
  if (url64(at(t, end))) return undefined
  return random(t.slice(s, end)) ? hit('API_KEY', start, end, r.confidence) : undefined
}

/**
 * Real keys are random: letters and digits mixed, or (long all-letter bodies) both cases; and
 * not a documentation placeholder with `EXAMPLE` in it.
 */
function random(token: string): boolean {
  const digit = /[0-9]/.test(token)
  const upper = /[A-Z]/.test(token)
  const lower = /[a-z]/.test(token)
  const mixed = (digit && (upper || lower)) || (upper && lower && token.length >= 20)
  return mixed && !token.includes('EXAMPLE')
}

/** SendGrid: `SG.` + 22 base64url + `.` + 43 base64url. */
function sendgrid(t: string, start: number): Hit | undefined {
  if (at(t, start + 2) !== 46) return undefined
  const id = start + 3
  if (runLen(t, id, 23, url64) !== 22 || at(t, id + 22) !== 46) return undefined
  const secret = id + 23
  const end = secret + 43
  return runLen(t, secret, 44, url64) === 43 && random(t.slice(id, end)) ? hit('API_KEY', start, end, 0.95) : undefined
}

function jwt(t: string, start: number): Hit | undefined {
  const h = runLen(t, start, 2048, url64)
  if (h < 10 || at(t, start + h) !== 46) return undefined
  const p0 = start + h + 1
  const p = runLen(t, p0, 1 << 16, url64)
  if (p === 0 || at(t, p0 + p) !== 46) return undefined
  const s0 = p0 + p + 1
  const end = s0 + runLen(t, s0, 4096, url64)
  if (at(t, end) === 46 || at(t, end) === 61) return undefined
  return headerNamesAlg(t.slice(start, start + h)) ? hit('API_KEY', start, end, 0.95) : undefined
}

/**
 * Decodes unpadded base64 of either alphabet, as the core's `base64::decode_each`: undefined
 * when a character is outside both alphabets or the output would pass `limit` bytes.
 */
export function decodeBase64(s: string, limit: number): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]*$/.test(s)) return undefined
  const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return bytes.length > limit ? undefined : bytes
}

/** The base64url header decodes to a JSON object with `"alg"`. */
function headerNamesAlg(seg: string): boolean {
  const json = decodeBase64(seg, 1536)
  return json !== undefined && json[0] === 0x7b && json.includes('"alg"')
}

/** A PEM private-key block from its `-----BEGIN …PRIVATE KEY-----` line through the END line. */
export function findPrivateKey(t: string, start: number): Hit | undefined {
  if (!t.startsWith('-----BEGIN ', start)) return undefined
  const nl = t.indexOf('\n', start)
  const lineEnd = nl < 0 ? t.length : nl
  const header = t.slice(start, trimEnd(t, lineEnd))
  if (!(header.endsWith('PRIVATE KEY-----') || header.endsWith('PRIVATE KEY BLOCK-----'))) return undefined
  // Keys are a few KB; looking no further keeps many unterminated headers linear.
  const limit = Math.min(t.length, lineEnd + 16 * 1024)
  const endLine = t.slice(lineEnd, limit).indexOf('-----END ')
  let end: number
  if (endLine >= 0) {
    const e = lineEnd + endLine + 9
    // Through the closing dashes of the END line.
    const dashes = t.indexOf('-----', e)
    end = dashes < 0 ? t.length : dashes + 5
  } else {
    // Truncated block: the header and the base64 body after it, less trailing whitespace.
    let e = lineEnd
    while (e < limit && isPemBody(t.charCodeAt(e))) e++
    end = trimEnd(t, e)
  }
  return hit('PRIVATE_KEY', start, end, 0.99)
}

/** A PEM body unit: base64 characters and line breaks. */
const isPemBody = (c: number): boolean => isAlnum(c) || c === 43 || c === 47 || c === 61 || c === 10 || c === 13

/** `end` moved back over ASCII whitespace. */
function trimEnd(t: string, end: number): number {
  while (end > 0 && isSpace(t.charCodeAt(end - 1))) end--
  return end
}
