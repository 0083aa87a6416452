/**
 * The embedder port: text in, vectors out, for the knowledge store and episodic memory.
 *
 * ```ts
 * const embedder = new HashingEmbedder()                 // default: deterministic, no model
 * const [v] = await embedder.embed(['count the lines'])  // 384 numbers, unit length
 * const remote = providerEmbedder(provider, 'text-embedding-3-small') // id 'openai/text-embedding-3-small'
 * ```
 *
 * Vectors of different embedders live in different spaces and are never compared: stores keep
 * `id` beside every vector and search only the rows of their own embedder. Changing the embedder
 * therefore means re-ingesting (full-text search keeps working on the old rows meanwhile).
 */
import { LlmError, type LlmProvider } from './provider.js'

export interface Embedder {
  /** Names the vector space (`hashing-384-v1`, `openai/text-embedding-3-small`). */
  readonly id: string
  /** Length of every vector; 0 until a provider embedder has seen its first reply. */
  readonly dimensions: number
  /** One vector per text, in order, at unit length (zero for a text with nothing to embed): stores take the dot product as the cosine. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
}

/** `v` scaled to unit length (a zero vector stays zero), so cosine similarity is a dot product. */
export function l2Normalise(v: readonly number[]): number[] {
  let sum = 0
  for (const x of v) sum += x * x
  const norm = Math.sqrt(sum)
  return norm === 0 ? [...v] : v.map((x) => x / norm)
}

/**
 * The configured model provider's embeddings endpoint as an Embedder. Pass the redacting layer
 * as `provider` when it is remote: personal data must not leave in ingested text either.
 * Replies are checked (one vector per text, one length throughout) and normalised.
 */
export function providerEmbedder(provider: LlmProvider, model: string): Embedder {
  const embed = provider.embed?.bind(provider)
  if (!embed) throw new LlmError('LLM_UNSUPPORTED', `the ${provider.provider} provider has no embeddings endpoint`)
  let dimensions = 0
  return {
    id: `${provider.provider}/${model}`,
    get dimensions() {
      return dimensions
    },
    async embed(texts, signal) {
      if (texts.length === 0) return []
      const vectors = await embed(texts, signal)
      if (vectors.length !== texts.length)
        throw new LlmError('LLM_BAD_OUTPUT', `embeddings: ${vectors.length} vectors for ${texts.length} texts`, false)
      for (const v of vectors) {
        if (dimensions === 0) dimensions = v.length
        if (v.length !== dimensions || v.length === 0)
          throw new LlmError('LLM_BAD_OUTPUT', `embeddings: a vector of ${v.length} dimensions, expected ${dimensions}`, false)
      }
      return vectors.map(l2Normalise)
    },
  }
}
