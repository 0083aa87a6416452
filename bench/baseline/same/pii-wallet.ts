/**
 * Cryptocurrency addresses of the PII port (crates/reflex-core/src/pii/wallet.rs), each with
 * its own checksum: Bitcoin base58check (`1…`, `3…`), segwit `bc1…` (bech32 for witness v0,
 * bech32m for v1+), Ethereum `0x` + 40 hex (mixed case must pass EIP-55, Keccak-256 below;
 * all-lower or all-upper carries no checksum and gets a lower confidence).
 *
 * ```ts
 * findWallet('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 0)?.confidence // 0.97
 * keccak256(Buffer.from('')).toString('hex').slice(0, 8) // 'c5d24601'
 * ```
 */
import { createHash } from 'node:crypto'
import { at, hit, isAlnum, isHex, isLower, isUpper, type Hit } from './pii-scan.js'

/** An address starting at `start`. */
export function findWallet(t: string, start: number): Hit | undefined {
  const c = t[start]
  if (c === '0' && at(t, start + 1) === 120) return ethereum(t, start)
  if (c === '1' || c === '3') return base58check(t, start)
  if (c === 'b' || c === 'B') return bech32(t, start)
  return undefined
}

/** End of the alphanumeric token from `start`, looking at no more than `max + 1` units. */
function tokenEnd(t: string, start: number, max: number): number {
  let e = start
  while (e - start <= max && isAlnum(at(t, e))) e++
  return e
}

function ethereum(t: string, start: number): Hit | undefined {
  const hex = start + 2
  const end = tokenEnd(t, hex, 40)
  const addr = t.slice(hex, end)
  if (end - hex !== 40 || at(t, end) === 95 || !/^[0-9A-Fa-f]+$/.test(addr)) return undefined
  const hasLower = /[a-f]/.test(addr)
  const hasUpper = /[A-F]/.test(addr)
  if (!(hasLower && hasUpper)) return hit('CRYPTO_WALLET', start, end, 0.75)
  // EIP-55: a letter is upper-case exactly when its nibble of keccak256(lower-case hex) >= 8.
  const hash = keccak256(Buffer.from(addr.toLowerCase(), 'ascii'))
  for (let i = 0; i < 40; i++) {
    const c = addr.charCodeAt(i)
    if (!(isLower(c) || isUpper(c))) continue
    const byte = hash[i >> 1] as number
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f
    if (isUpper(c) !== nibble >= 8) return undefined
  }
  return hit('CRYPTO_WALLET', start, end, 0.97)
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

function base58check(t: string, start: number): Hit | undefined {
  const end = tokenEnd(t, start, 35)
  const s = t.slice(start, end)
  if (s.length < 26 || s.length > 35 || at(t, end) === 95) return undefined
  // Decode into 25 bytes, big-endian; a carry out of the top byte means too long.
  const bytes = new Uint8Array(25)
  for (const ch of s) {
    let carry = BASE58.indexOf(ch)
    if (carry < 0) return undefined
    for (let k = 24; k >= 0; k--) {
      carry += (bytes[k] as number) * 58
      bytes[k] = carry & 0xff
      carry >>= 8
    }
    if (carry !== 0) return undefined
  }
  const leadingOnes = /^1*/.exec(s)?.[0].length ?? 0
  let leadingZeros = 0
  while (leadingZeros < 25 && bytes[leadingZeros] === 0) leadingZeros++
  if (leadingOnes !== leadingZeros || (bytes[0] !== 0x00 && bytes[0] !== 0x05)) return undefined
  const once = createHash('sha256').update(bytes.subarray(0, 21)).digest()
  const check = createHash('sha256').update(once).digest()
  return check.subarray(0, 4).equals(Buffer.from(bytes.subarray(21))) ? hit('CRYPTO_WALLET', start, end, 0.97) : undefined
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const BECH32M_CONST = 0x2bc830a3
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

function polymod(values: readonly number[]): number {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ (GEN[i] as number)) >>> 0
  }
  return chk
}

function bech32(t: string, start: number): Hit | undefined {
  if (!(t.startsWith('c1', start + 1) || t.startsWith('C1', start + 1))) return undefined
  const end = tokenEnd(t, start, 90)
  const s = t.slice(start, end)
  if (s.length < 14 || s.length > 74 || at(t, end) === 95) return undefined
  if (/[A-Z]/.test(s) && /[a-z]/.test(s)) return undefined
  const data: number[] = []
  for (const ch of s.slice(3).toLowerCase()) {
    const v = BECH32.indexOf(ch)
    if (v < 0) return undefined
    data.push(v)
  }
  // hrp "bc" expanded: high bits of each char, 0, low bits of each char.
  const check = polymod([3, 3, 0, 2, 3, ...data])
  const version = data[0] as number
  if (check !== (version === 0 ? 1 : BECH32M_CONST) || version > 16) return undefined
  // Witness program: the 5-bit groups between version and checksum, regrouped into bytes.
  const program = data.slice(1, data.length - 6)
  const bits = program.length * 5
  const len = Math.floor(bits / 8)
  const pad = bits % 8
  const last = program[program.length - 1]
  const tailZero = last !== undefined && (last & ((1 << pad) - 1)) === 0
  if (pad >= 5 || !tailZero || len < 2 || len > 40 || (version === 0 && len !== 20 && len !== 32)) return undefined
  return hit('CRYPTO_WALLET', start, end, 0.97)
}

// ---- Keccak-256 (the original padding, as Ethereum uses; not SHA3-256) ---------------------

const MASK = (1n << 64n) - 1n
const ROUND_CONSTANTS = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn,
  0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n,
  0x0000000080008009n, 0x000000008000000an, 0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n,
  0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
]
/** Rotation offsets, indexed by x + 5y. */
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

const rotl = (x: bigint, n: number): bigint => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & MASK)

function keccakF(a: bigint[]): void {
  const b = new Array<bigint>(25).fill(0n)
  const c = new Array<bigint>(5).fill(0n)
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++) c[x] = a[x]! ^ a[x + 5]! ^ a[x + 10]! ^ a[x + 15]! ^ a[x + 20]!
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1)
      for (let y = 0; y < 25; y += 5) a[x + y] = a[x + y]! ^ d
    }
    // rho and pi: b[y, 2x + 3y] = rot(a[x, y])
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y]!, ROTATIONS[x + 5 * y]!)
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 25; y += 5) a[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK & b[((x + 2) % 5) + y]!)
    }
    a[0] = a[0]! ^ rc
  }
}

/** Keccak-256 of `data` (rate 136 bytes, padding 0x01 … 0x80). */
export function keccak256(data: Uint8Array): Buffer {
  const rate = 136
  const padded = Buffer.alloc((Math.floor(data.length / rate) + 1) * rate)
  padded.set(data)
  padded[data.length] = (padded[data.length] as number) | 0x01
  padded[padded.length - 1] = (padded[padded.length - 1] as number) | 0x80
  const state = new Array<bigint>(25).fill(0n)
  for (let off = 0; off < padded.length; off += rate) {
    for (let k = 0; k < rate / 8; k++) state[k] = state[k]! ^ padded.readBigUInt64LE(off + 8 * k)
    keccakF(state)
  }
  const out = Buffer.alloc(32)
  for (let k = 0; k < 4; k++) out.writeBigUInt64LE(state[k]!, 8 * k)
  return out
}
