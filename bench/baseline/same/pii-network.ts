/**
 * Network identifiers of the PII port (crates/reflex-core/src/pii/{ip,mac,email}.rs): IPv4
 * (real octets, not a version number), IPv6 (RFC 4291 text form), MAC addresses and e-mail
 * addresses (not a URL's userinfo, not an scp/ssh login).
 *
 * ```ts
 * findIpv4('ip 10.0.0.1', 3)?.end // 11
 * const out: Hit[] = []; findEmail('mail ada@example.com', 8, out); out[0]?.start // 5
 * ```
 */
import { at, backBy, bytesBetween, hit, isAlnum, isDigit, isHex, isSpace, isWord, prevWord, unitBytes, type Hit } from './pii-scan.js'

const VERSION_WORDS = new Set(['version', 'ver', 'v', 'release', 'build', 'firmware', 'rev', 'revision', 'update', 'patch'])

/** A dotted quad at `start`, not followed by more dotted digits, not after "version" & co. */
export function findIpv4(t: string, start: number): Hit | undefined {
  const end = parseV4(t, start)
  if (end === undefined) return undefined
  // `:8080` (a port) may follow; more dotted or dashed digits may not.
  const next = at(t, end)
  if (isWord(next) || ((next === 46 || next === 45) && isDigit(at(t, end + 1)))) return undefined
  if (VERSION_WORDS.has(prevWord(t, start))) return undefined
  return hit('IP_ADDRESS', start, end, 0.9)
}

/** Four decimal octets 0–255 without leading zeros at `start`: the end, else undefined. */
function parseV4(t: string, start: number): number | undefined {
  let i = start
  for (let octet = 0; octet < 4; octet++) {
    if (octet > 0) {
      if (at(t, i) !== 46) return undefined
      i++
    }
    const s = i
    let v = 0
    while (i - s < 4 && isDigit(at(t, i))) {
      v = v * 10 + (t.charCodeAt(i) - 48)
      i++
    }
    const len = i - s
    if (len === 0 || len > 3 || v > 255 || (len > 1 && t.charCodeAt(s) === 48)) return undefined
  }
  return i
}

/** An IPv6 address at `start` (which may be the `::` of `::1`). */
export function findIpv6(t: string, start: number): Hit | undefined {
  let i = start
  let groups = 0
  let compressed = false
  let hexDigits = 0
  let hasDecimal = false
  if (at(t, i) === 58) {
    const before = start > 0 ? t.charCodeAt(start - 1) : 0
    if (at(t, i + 1) !== 58 || (start > 0 && (before === 58 || isAlnum(before)))) return undefined
    compressed = true
    i += 2
  }
  for (;;) {
    const s = i
    while (i - s < 5 && isHex(at(t, i))) i++
    const len = i - s
    if (len === 0) {
      // Only valid straight after `::` (`fe80::`), and then the address ends here.
      if (!compressed || at(t, i - 1) !== 58) return undefined
      break
    }
    if (len > 4) return undefined
    if (at(t, i) === 46) {
      // Embedded IPv4 tail: the last 32 bits.
      const end = parseV4(t, s)
      if (end === undefined) return undefined
      groups += 2
      hasDecimal = true
      hexDigits += 4
      i = end
      break
    }
    groups++
    if (groups > 8) return undefined
    hexDigits += len
    hasDecimal ||= /[0-9]/.test(t.slice(s, i))
    if (at(t, i) === 58 && at(t, i + 1) === 58) {
      if (compressed) return undefined
      compressed = true
      i += 2
    } else if (at(t, i) === 58 && isHex(at(t, i + 1))) {
      i++
    } else {
      break
    }
  }
  const countOk = compressed ? groups <= 7 : groups === 8
  // `a::b`, `dead::beef`, `std::io`: valid in theory, never in practice.
  const leading = t.charCodeAt(start) === 58
  if (!countOk || !hasDecimal || (hexDigits < 3 && !leading) || groups === 0) return undefined
  const next = at(t, i)
  if (isWord(next) || (next === 58 && isHex(at(t, i + 1)))) return undefined
  return hit('IP_ADDRESS', start, i, compressed ? 0.85 : 0.9)
}

/** Six hex pairs joined by one of `:` `-` throughout, or the Cisco form `0011.2233.4455`. */
export function findMac(t: string, start: number): Hit | undefined {
  const hex = (i: number): boolean => isHex(at(t, i))
  const sep = at(t, start + 2)
  let end: number
  if ((sep === 58 || sep === 45) && hex(start) && hex(start + 1)) {
    for (let k = 0; k < 6; k++) {
      const p = start + k * 3
      if (!(hex(p) && hex(p + 1) && (k === 5 || at(t, p + 2) === sep))) return undefined
    }
    end = start + 17
  } else if (at(t, start + 4) === 46) {
    for (let k = 0; k < 3; k++) {
      const p = start + k * 5
      if (!(hex(p) && hex(p + 1) && hex(p + 2) && hex(p + 3) && (k === 2 || at(t, p + 4) === 46))) return undefined
    }
    end = start + 14
  } else {
    return undefined
  }
  const next = at(t, end)
  if (isWord(next) || ((next === sep || next === 46) && hex(end + 1))) return undefined
  return hit('MAC_ADDRESS', start, end, 0.9)
}

// ---- e-mail ------------------------------------------------------------------------------

/** Local-part units: ASCII alphanumerics, `._%+-'` and anything non-ASCII (RFC 6531). */
const isLocal = (c: number): boolean => isAlnum(c) || c >= 0x80 || c === 46 || c === 95 || c === 37 || c === 43 || c === 45 || c === 39
/** Rust's `char::is_alphanumeric`: Unicode alphabetic or numeric. */
const ALPHANUMERIC = /[\p{Alphabetic}\p{N}]/u
const REMOTE_COMMANDS = new Set(['ssh', 'scp', 'sftp', 'rsync', 'mosh', 'ssh-copy-id'])

/** The address around the `@` at `at`, pushed to `out`. */
export function findEmail(t: string, atSign: number, out: Hit[]): void {
  // At most 64 bytes of local part, as the core counts them, in whole characters: the core
  // drops a character its limit cuts in two.
  let s = atSign
  let bytes = 0
  while (s > 0 && isLocal(t.charCodeAt(s - 1)) && bytes + unitBytes(t.charCodeAt(s - 1)) <= 64) {
    bytes += unitBytes(t.charCodeAt(s - 1))
    s--
  }
  // Half of a surrogate pair taken: the character did not fit.
  if (s < atSign && (t.charCodeAt(s) & 0xfc00) === 0xdc00) s++
  // Trim leading punctuation (an em dash, a curly quote) before the address.
  if (s < atSign && !isAlnum(t.charCodeAt(s))) {
    const head = t.slice(s, atSign)
    const first = head.search(ALPHANUMERIC)
    s += first < 0 ? head.length : first
  }
  if (s === atSign || t.charCodeAt(atSign - 1) === 46 || t.slice(s, atSign).includes('..')) return
  let e = atSign + 1
  let labelStart = e
  let lastDot = 0
  while (e < t.length && e - atSign <= 255) {
    const c = t.charCodeAt(e)
    if (isAlnum(c) || (c === 45 && e > labelStart)) {
      e++
    } else if (c === 46 && e > labelStart && t.charCodeAt(e - 1) !== 45 && isAlnum(at(t, e + 1))) {
      lastDot = e
      e++
      labelStart = e
    } else {
      break
    }
  }
  if (lastDot === 0 || t.charCodeAt(e - 1) === 45) return
  const tld = t.slice(lastDot + 1, e)
  if (tld.length < 2 || !/^[A-Za-z]+$/.test(tld)) return
  if (urlUserinfo(t, atSign) || remoteLogin(t, s, e)) return
  out.push(hit('EMAIL', s, e, 0.97))
}

/** `scheme://user:secret@host`: no `/` between the `://` and the `@`. */
function urlUserinfo(t: string, atSign: number): boolean {
  const from = backBy(t, atSign, 256)
  for (let k = atSign - 1; k >= from; k--) {
    const c = t.charCodeAt(k)
    if (c === 47) return k >= 2 && t.charCodeAt(k - 1) === 47 && t.charCodeAt(k - 2) === 58
    if (isSpace(c) || '"\'<>(`'.includes(t[k] as string)) return false
  }
  return false
}

/** `git@github.com:org/repo` (a `:` glued to the host) or the argument of `ssh`, `scp`… */
function remoteLogin(t: string, s: number, e: number): boolean {
  if (at(t, e) === 58 && !isSpace(at(t, e + 1)) && e + 1 < t.length) return true
  const from = backBy(t, s, 200)
  const nl = t.lastIndexOf('\n', s - 1)
  // Where the core's 200 bytes start inside a character, its first "word" is that
  // character's tail glued to what follows: never a command.
  if (nl < from && from > 0 && bytesBetween(t, from, s) < 200) return false
  const line = nl >= from ? nl + 1 : from
  // The line's first word, past a prompt (`$`, `#`, `>`) and `sudo`.
  const first = t
    .slice(line, s)
    .split(/[ \t]/)
    .find((w) => w !== '' && w !== '$' && w !== '#' && w !== '>' && w !== 'sudo')
  return first !== undefined && REMOTE_COMMANDS.has(first)
}
