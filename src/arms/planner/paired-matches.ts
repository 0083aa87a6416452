import type { LinearExecArray, LinearPattern } from '../../linear-pattern.js'

/** A match of a global regex or of a linear pattern. */
export type Match = RegExpExecArray | LinearExecArray

/**
 * What `start(.+?)end` finds, in one pass: each match of `start`, then the nearest match of `end`
 * after it with no `stop` character between. A backtracking engine runs `(.+?)` to the end of the
 * text from every start that has no end, so a text of many starts takes quadratic time; here each
 * list is read once and the pointers only move forward.
 *
 * ```ts
 * pairedMatches('find cats in the kb', /\bfind\s+/gi, /\bin\s+the\s+kb\b/gi, /\n/g, 1)
 * // [['find cats in the kb', 'cats'] with index 0]
 * ```
 *
 * `start`, `end` and `stop` must carry the `g` flag (or be linear patterns). Matches do not overlap: a start inside the
 * previous match is skipped, as a global regex would skip it.
 */
export function pairedMatches(
  text: string,
  start: RegExp | LinearPattern,
  end: RegExp | LinearPattern,
  stop: RegExp,
  minGap: number,
): RegExpExecArray[] {
  const every = (re: RegExp | LinearPattern): Match[] => (re instanceof RegExp ? [...text.matchAll(re)] : re.execAll(text))
  const ends = every(end)
  const stops = [...text.matchAll(stop)].map((m) => m.index)
  const found: RegExpExecArray[] = []
  let e = 0
  let s = 0
  let after = 0
  for (const m of every(start)) {
    if (m.index < after) continue
    const gapFrom = m.index + m[0]!.length
    while (e < ends.length && ends[e]!.index < gapFrom + minGap) e++
    if (e === ends.length) break
    while (s < stops.length && stops[s]! < gapFrom) s++
    const close = ends[e]!
    if (s < stops.length && stops[s]! < close.index) continue
    after = close.index + close[0]!.length
    const pair: [string, string] = [text.slice(m.index, after), text.slice(gapFrom, close.index)]
    found.push(Object.assign(pair, { index: m.index, input: text, groups: undefined }))
  }
  return found
}
