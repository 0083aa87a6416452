/**
 * The default embedder: feature hashing, so it needs no model, no network and no warm-up, and the
 * same text always gives the same vector on every machine.
 *
 * ```ts
 * const embedder = new HashingEmbedder()          // id 'hashing-384-v1'
 * const [a, b] = await embedder.embed(['photography tips', 'tips from photographers'])
 * ```
 *
 * Text is normalised (NFKC, lower case, accents dropped) and split into words. Features, each
 * hashed (FNV-1a) to one of `dimensions` slots with a sign from another bit of the hash so
 * collisions cancel on average rather than pile up:
 * - each word (weight 1) and each pair of adjacent words (0.5): what the texts say;
 * - each character trigram of `#word#` (0.3 each, so a word's trigrams weigh about as much as
 *   the word): `photography` and `photographers` share most of theirs, which is how it finds
 *   inflected and compound forms that a stemmer splits apart.
 * The sum is L2-normalised. It measures shared vocabulary, not meaning: synonyms with no letters
 * in common stay far apart. Configure a provider embedder for that.
 *
 * Changing the features is a new `id` (`-v2`): stored vectors of the old one are then ignored.
 */
import type { Embedder } from './embedder.js'
import { l2Normalise } from './embedder.js'

export const HASHING_DEFAULT_DIMENSIONS = 384

const WORD_WEIGHT = 1
const BIGRAM_WEIGHT = 0.5
const TRIGRAM_WEIGHT = 0.3
const WORD = /[\p{L}\p{N}]+/gu
const MARKS = /\p{M}+/gu

export class HashingEmbedder implements Embedder {
  readonly id: string

  constructor(readonly dimensions = HASHING_DEFAULT_DIMENSIONS) {
    if (!Number.isInteger(dimensions) || dimensions < 16 || dimensions > 16_384)
      throw new RangeError(`HashingEmbedder dimensions must be an integer in 16..16384, got ${dimensions}`)
    this.id = `hashing-${dimensions}-v1`
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted()
    return texts.map((text) => this.embedOne(text))
  }

  /** The vector of one text, synchronously. */
  embedOne(text: string): number[] {
    const v = new Array<number>(this.dimensions).fill(0)
    const words = wordsOf(text)
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!
      this.add(v, `w:${word}`, WORD_WEIGHT)
      if (i > 0) this.add(v, `b:${words[i - 1]} ${word}`, BIGRAM_WEIGHT)
      const marked = `#${word}#`
      for (let j = 0; j + 3 <= marked.length; j++) this.add(v, `t:${marked.slice(j, j + 3)}`, TRIGRAM_WEIGHT)
    }
    return l2Normalise(v)
  }

  private add(v: number[], feature: string, weight: number): void {
    const h = fnv1a(feature)
    // The low bits pick the slot, the top bit the sign.
    const slot = (h & 0x7fffffff) % this.dimensions
    v[slot]! += h & 0x80000000 ? -weight : weight
  }
}

/** Lower-case words with accents removed: `Café-Crème` → `cafe`, `creme`. */
export function wordsOf(text: string): string[] {
  const folded = text.normalize('NFKC').toLowerCase().normalize('NFD').replace(MARKS, '')
  return [...folded.matchAll(WORD)].map(([w]) => w)
}

/** 32-bit FNV-1a over the UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
