/**
 * A seeded xorshift64 generator, as the Rust core's tests use for their noise: the same seed
 * gives the same sequence, so a random test fails the same way every run.
 *
 * ```ts
 * const next = xorshift(0x2545f4914f6cdd1dn)
 * next(10) // a number in 0..9
 * ```
 */
export function xorshift(seed: bigint): (below: number) => number {
  let x = seed
  return (below) => {
    x ^= (x << 13n) & 0xffffffffffffffffn
    x ^= x >> 7n
    x ^= (x << 17n) & 0xffffffffffffffffn
    return Number(x % BigInt(below))
  }
}
