// The Qdrant server named by QDRANT_URL (.ci/run starts one), with collections of a fresh prefix
// per test file so files running in parallel on one server never see each other's points.
import { randomBytes } from 'node:crypto'
import { QdrantIndexes } from '../../src/stores/qdrant-vector-index.js'

export const QDRANT_URL = process.env.QDRANT_URL
export const SKIP_QDRANT = QDRANT_URL ? false : 'QDRANT_URL is not set: no Qdrant to test against'

/** Indexes under a prefix of their own; their collections are dropped in `t`'s teardown. */
export function freshQdrant(t: { teardown(fn: () => unknown): void }, prefix = 'test'): QdrantIndexes {
  const qdrant = new QdrantIndexes({ url: QDRANT_URL ?? '', prefix: `${prefix}_${randomBytes(4).toString('hex')}` })
  t.teardown(() => qdrant.dropAll())
  return qdrant
}
