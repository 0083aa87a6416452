// Stand-ins for the retriever's stores where a test is about the arm, not the search: they record
// what they were asked and answer what the test set.
import type { EpisodicMemory, SimilarTask } from '../../../src/arms/memory.js'
import type { KnowledgeStore, SearchHit } from '../../../src/stores/knowledge-store.js'
import type { TenantScope } from '../../../src/stores/tenant.js'

export function fakeKnowledge(
  hits: SearchHit[] = [],
  ok = true,
): KnowledgeStore & { queries: Array<{ tenant: TenantScope; query: string; k: number }> } {
  const queries: Array<{ tenant: TenantScope; query: string; k: number }> = []
  return {
    queries,
    async ingest() {
      return []
    },
    async search(tenant, query, opts) {
      queries.push({ tenant, query, k: opts.k })
      return hits.slice(0, opts.k)
    },
    async get() {
      return undefined
    },
    async delete() {
      return false
    },
    async list() {
      return { items: [], total: 0 }
    },
    async check() {
      return ok ? { ok: true, detail: 'fake' } : { ok: false, detail: 'connection refused' }
    },
  }
}

export function fakeMemory(similar: SimilarTask[] = []): EpisodicMemory & { asked: Array<{ tenant: string; goal: string; k: number }> } {
  const asked: Array<{ tenant: string; goal: string; k: number }> = []
  return {
    asked,
    async remember() {},
    async similar(tenant, goal, k) {
      asked.push({ tenant, goal, k })
      return similar.slice(0, k)
    },
  }
}

export function hit(text: string, extra: Partial<SearchHit> = {}): SearchHit {
  return {
    document_id: 'd1',
    chunk_id: 'd1:0',
    position: 0,
    title: null,
    source: null,
    text,
    score: 1 / 61,
    fts_rank: 1,
    vector_rank: 1,
    injection: null,
    ...extra,
  }
}
