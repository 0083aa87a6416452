/**
 * Credentials of the PII port (crates/reflex-core/src/pii/password.rs), found from each `=` or
 * `:`: assignments whose key names a credential (`password=…`, `"passwd": "…"`,
 * `DB_PASSWORD := '…'`, `Passwort: …`), a URL's userinfo (`postgres://user:secret@host`),
 * `curl -u user:secret`, `Authorization: Basic <base64>`; and from a `-`: `mysql -psecret`.
 * The match covers the value only. An AWS secret access key under an `aws…secret…` key is an
 * API_KEY. Prose ("the password is …") is in ./pii-prose.ts.
 *
 * ```ts
 * const out: Hit[] = []
 * findCredential('password=hunter2', 8, out)
 * out[0] // { type: 'PASSWORD', start: 9, end: 16, confidence: 0.85 }
 * ```
 */
import { plausible, readValue, secretShape } from './pii-credential-values.js'
import { decodeBase64 } from './pii-secrets.js'
import { asciiLower, at, hit, isAlnum, isSpace, Keywords, startsWithAnyCase, unitBytes, type Hit } from './pii-scan.js'

/** Key words that make any key a credential wherever they appear (`dbpassword`, `userPasswd`). */
const STRONG: readonly string[] = [
  'password', 'passwd', 'passphrase', 'passcode', 'apikey', 'api_key', 'api-key', 'access_token', 'auth_token',
  'passwort', 'kennwort', 'wachtwoord', 'contrasena', 'contraseña', 'senha',
]
/** Key words that must stand as their own part of the key (`pwd`, `db_pass`, not `bypass`). */
const PARTS: readonly string[] = ['pwd', 'pass', 'secret', 'pw']
const AWS = new Keywords(['aws'])
/** `[A-Za-z0-9/+]{40}`: an AWS secret access key's shape. */
const AWS_SECRET = /^[A-Za-z0-9/+]{40}$/

/** The credential assigned at the separator `sep` (`=` or `:`), pushed to `out`. */
export function findCredential(t: string, sep: number, out: Hit[]): void {
  const s = t.charCodeAt(sep)
  const prev = sep > 0 ? t.charCodeAt(sep - 1) : 0
  // `==`, `!=`, `<=`, `>=` are comparisons; the `=` of `:=` was handled at the `:`.
  if (s === 61 && (prev === 61 || prev === 33 || prev === 60 || prev === 62 || prev === 58 || at(t, sep + 1) === 61)) return
  if (s === 58 && at(t, sep + 1) !== 47) {
    const m = userinfo(t, sep)
    if (m !== undefined) {
      out.push(m)
      return
    }
  }
  const span = keySpan(t, sep)
  if (span === undefined) return
  const [from, keyEnd] = span
  // `${DB_PASS:-default}`, `$PASSWORD:`: a variable reference, not an assignment.
  if (from > 0 && (t[from - 1] === '$' || (t[from - 1] === '{' && from > 1 && t[from - 2] === '$'))) return
  const key = t.slice(from, keyEnd)
  let i = sep + 1
  if ((s === 58 && at(t, i) === 61) || (s === 61 && at(t, i) === 62)) i++
  while (at(t, i) === 32 || at(t, i) === 9) i++
  const motDePasse = asciiLower(key) === 'passe' && from >= 7 && startsWithAnyCase(t, from - 7, 'mot de ')
  if (!namesCredential(key) && !motDePasse) {
    if (s === 58) {
      const m = basicAuth(t, key, i) ?? curlUser(t, from, sep)
      if (m !== undefined) out.push(m)
    }
    return
  }
  const found = readValue(t, i)
  if (found === undefined) return
  const [start, end, quoted] = found
  const v = t.slice(start, end)
  const lowerKey = asciiLower(key)
  // `aws_secret_access_key = …`, or `AWS secret: …` where "aws" is a word before the key.
  const aws = lowerKey.includes('secret') && (lowerKey.includes('aws') || AWS.before(t, from, 16))
  if (aws && AWS_SECRET.test(v)) {
    out.push(hit('API_KEY', start, end, 0.95))
    return
  }
  if (!plausible(v, quoted)) return
  out.push(hit('PASSWORD', start, end, quoted ? 0.9 : 0.85))
}

const isKeyUnit = (c: number): boolean => isAlnum(c) || c === 95 || c === 45 || c === 46

/** The key just before `sep` (skipping spaces and one closing quote): [from, end]. */
function keySpan(t: string, sep: number): [number, number] | undefined {
  let from = sep
  while (from > 0 && (t[from - 1] === ' ' || t[from - 1] === '\t')) from--
  if (from > 0 && (t[from - 1] === '"' || t[from - 1] === "'")) from--
  const end = from
  // At most 48 bytes of key, counted in UTF-8 as the core does.
  let bytes = 0
  while (from > 0 && bytes < 48 && isKeyUnit(t.charCodeAt(from - 1))) {
    from--
    bytes++
  }
  // A key may end in a non-ASCII letter (`contraseña`): take the rest of that word.
  while (from > 0 && bytes < 48 && t.charCodeAt(from - 1) >= 0x80) {
    do {
      bytes += unitBytes(t.charCodeAt(from - 1))
      from--
    } while (from > 0 && bytes < 48 && (isAlnum(t.charCodeAt(from - 1)) || t.charCodeAt(from - 1) >= 0x80))
  }
  // Past 48 bytes the core's key starts inside a character, which no alphanumeric precedes.
  const cut = bytes > 48
  if (from === end || (!cut && from > 0 && isAlnum(t.charCodeAt(from - 1)))) return undefined
  return [from, end]
}

const isPartSep = (c: string | undefined): boolean => c === '_' || c === '-' || c === '.'

/** Whether the key (any case) holds a STRONG word anywhere or a PARTS word as a whole part. */
function namesCredential(key: string): boolean {
  const lower = asciiLower(key)
  for (let k = 0; k + 1 < lower.length; k++) {
    if (STRONG.some((w) => lower.startsWith(w, k))) return true
    const startsPart = k === 0 || isPartSep(lower[k - 1])
    if (startsPart && PARTS.some((w) => lower.startsWith(w, k) && (k + w.length === lower.length || isPartSep(lower[k + w.length])))) {
      return true
    }
  }
  return false
}

const isUserUnit = (c: number): boolean => isAlnum(c) || c === 46 || c === 95 || c === 45 || c === 37 || c === 43 || c === 126
/** Units that end a URL's userinfo secret. */
const USERINFO_END = new Set(['@', '/', '?', '#', '"', "'", '<', '>'])

/** `scheme://user:secret@host` (the user may be empty): the secret after the user's `:`. */
function userinfo(t: string, sep: number): Hit | undefined {
  let k = sep
  while (k > 0 && sep - k < 64 && isUserUnit(t.charCodeAt(k - 1))) k--
  if (!(k >= 3 && t.startsWith('://', k - 3))) return undefined
  const start = sep + 1
  let e = start
  while (e < t.length && e - start < 256 && !isSpace(t.charCodeAt(e)) && !USERINFO_END.has(t[e] as string)) e++
  if (at(t, e) !== 64 || !(isAlnum(at(t, e + 1)) || at(t, e + 1) === 91)) return undefined
  return plausible(t.slice(start, e), false) ? hit('PASSWORD', start, e, 0.9) : undefined
}

/** `curl -u user:secret`, `--user user:secret`: the secret after the user's `:`. */
function curlUser(t: string, from: number, sep: number): Hit | undefined {
  const flag = (f: string): boolean => from > f.length && t.startsWith(f, from - f.length) && (t[from - f.length - 1] === ' ' || t[from - f.length - 1] === '\t')
  if (!(flag('-u ') || flag('--user ') || flag('--user=')) || t[sep - 1] === ' ') return undefined
  const found = readValue(t, sep + 1)
  if (found === undefined) return undefined
  const [start, end, quoted] = found
  return plausible(t.slice(start, end), quoted) ? hit('PASSWORD', start, end, 0.85) : undefined
}

/** `[A-Za-z0-9+/=]{0,1024}` from the sticky position: a Basic-auth token. */
const BASIC_TOKEN = /[A-Za-z0-9+/=]{0,1024}/y

/** `Authorization: Basic <base64 of user:secret>`: the whole token is the credential. */
function basicAuth(t: string, key: string, i: number): Hit | undefined {
  const lowerKey = asciiLower(key)
  if (lowerKey !== 'authorization' && lowerKey !== 'proxy-authorization') return undefined
  if (!startsWithAnyCase(t, i, 'basic ')) return undefined
  const start = i + 6
  BASIC_TOKEN.lastIndex = start
  const len = BASIC_TOKEN.exec(t)?.[0].length ?? 0
  const end = start + len
  return len >= 8 && decodesToUserSecret(t.slice(start, end)) ? hit('PASSWORD', start, end, 0.9) : undefined
}

/** Base64 (up to the first `=`) decoding to printable ASCII with a `:` before a non-empty secret. */
function decodesToUserSecret(token: string): boolean {
  const body = token.split('=')[0] as string
  const bytes = decodeBase64(body, Infinity)
  if (bytes === undefined || !bytes.every((x) => x >= 0x20 && x < 0x7f)) return false
  const colon = bytes.indexOf(0x3a)
  return colon >= 0 && colon < bytes.length - 1
}

/** `mysql -u root -psecret`, `-p'secret'`: a password glued to a `-p` flag at `dash`. */
export function findCliShort(t: string, dash: number): Hit | undefined {
  if (!(dash === 0 || t[dash - 1] === ' ' || t[dash - 1] === '\t') || t[dash + 1] !== 'p') return undefined
  const found = readValue(t, dash + 2)
  if (found === undefined) return undefined
  const [start, end, quoted] = found
  const v = t.slice(start, end)
  return plausible(v, quoted) && (quoted || secretShape(v)) ? hit('PASSWORD', start, end, 0.8) : undefined
}
