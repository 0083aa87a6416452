/**
 * The knowledge store port: documents in, chunks out by hybrid search (the retriever arm's store).
 *
 * ```ts
 * const [doc] = await knowledge.ingest('acme', [{ title: 'Runbook', text: longText, source: 'wiki/runbook' }])
 * const hits = await knowledge.search('acme', 'restart the ingest worker', { k: 5 })
 * hits[0] // { document_id, chunk_id, title, source, text, score, fts_rank: 1, vector_rank: 3, … }
 * await knowledge.get('other-tenant', doc.document_id) // undefined: not there for another tenant
 * await knowledge.delete('acme', doc.document_id)
 * ```
 *
 * Every document, and each of its chunks, belongs to the tenant it was ingested into; every
 * method but `ingest` takes a `TenantScope` (src/stores/tenant.ts) and sees that tenant's only:
 * another tenant's document is missing (undefined, false), its chunks are never search hits.
 * `ANY_TENANT` lifts the filter, for an admin's request only.
 *
 * Ingest screens every chunk for prompt injection (injected-passages.ts): a flagged chunk is split
 * so each injected sentence is a chunk of its own, stored with its `injection`, and the clean text
 * around it stays in clean chunks. Search leaves flagged chunks out unless asked for them.
 *
 * Search fuses two ranked lists, full text and vector similarity, by reciprocal rank: a chunk's
 * score is Σ 1/(60 + rank) over the lists it is in, so agreement between them beats a high place
 * in one. Scores are for ordering only; they are not probabilities.
 *
 * Left out on purpose: updating a document in place (delete and ingest again: chunks and vectors
 * are derived), filtering by metadata, and re-embedding after an embedder change (a maintenance
 * job; until then old chunks are found by full text only).
 */

import type { Injection } from '../injected-passages.js'
import type { TenantScope } from './tenant.js'

export interface NewDocument {
  title?: string
  text: string
  /** Where it came from (a URL, a path); shown with every hit. */
  source?: string
  /** Any JSON object, kept as given. */
  metadata?: object
}

export interface IngestedDocument {
  document_id: string
  title: string | null
  /** How many chunks it was split into. */
  chunks: number
  /** How many of them are passages flagged as prompt injection. */
  flagged: number
}

export interface KnowledgeDocument extends IngestedDocument {
  source: string | null
  metadata: Record<string, unknown>
  /** Characters of the text. */
  chars: number
  created_at: string
}

export interface StoredDocument extends KnowledgeDocument {
  text: string
  /** Its passages flagged as prompt injection, in order: stored and shown here, never given to a model. */
  flagged_passages: FlaggedPassage[]
}

export interface FlaggedPassage {
  chunk_id: string
  /** Where the passage begins in the document's text, UTF-16 code units. */
  start: number
  text: string
  severity: string
  families: string[]
}

export interface SearchHit {
  document_id: string
  chunk_id: string
  /** The chunk's place in its document, from 0. */
  position: number
  title: string | null
  source: string | null
  text: string
  /** Reciprocal rank fusion score: Σ 1/(60 + rank). */
  score: number
  /** 1-based rank in the full-text list, null when full text did not find it. */
  fts_rank: number | null
  /** 1-based rank in the vector list, null when it was not among the nearest. */
  vector_rank: number | null
  /** What the detector found when the chunk is a passage flagged as prompt injection; null for a clean one. */
  injection: Injection | null
}

export interface SearchOptions {
  k: number
  signal?: AbortSignal
  /**
   * Flagged passages among the hits too, each with its `injection`: for the owner's own search.
   * Default false: they are left out and the k best clean chunks come back, which is what the
   * retriever hands to arms and models.
   */
  withFlagged?: boolean
}

export interface ListOptions {
  limit: number
  offset: number
  /** By created_at; default `desc` (newest first). */
  order?: 'asc' | 'desc'
}

export interface KnowledgeStore {
  /** Chunks, embeds and stores the documents in `tenant`, all or none. */
  ingest(tenant: string, docs: readonly NewDocument[], signal?: AbortSignal): Promise<IngestedDocument[]>
  /** The `k` best chunks of the tenant's documents, best first; [] for a query nothing matches. */
  search(tenant: TenantScope, query: string, opts: SearchOptions): Promise<SearchHit[]>
  get(tenant: TenantScope, documentId: string): Promise<StoredDocument | undefined>
  /** True when it existed in the tenant. Its chunks go with it. */
  delete(tenant: TenantScope, documentId: string): Promise<boolean>
  list(tenant: TenantScope, opts: ListOptions): Promise<{ items: KnowledgeDocument[]; total: number }>
  /** Deletes every document of `tenant`, with their chunks and vectors; how many documents there were. */
  deleteTenant?(tenant: string): Promise<number>
  /** Store reachable and which vector path it uses, for health checks; never throws. */
  check(): Promise<{ ok: boolean; detail: string }>
}

/** The k of reciprocal rank fusion: damps the weight of the very first places. */
export const RRF_K = 60

/**
 * Reciprocal rank fusion of ranked lists of ids (best first): each id scores Σ 1/(RRF_K + rank)
 * over the lists it appears in; ties go to the better best rank, then to the id.
 */
export function fuseRanks(lists: readonly (readonly string[])[]): Array<{ id: string; score: number; ranks: (number | null)[] }> {
  const fused = new Map<string, { id: string; score: number; ranks: (number | null)[] }>()
  lists.forEach((list, which) => {
    list.forEach((id, i) => {
      let entry = fused.get(id)
      if (!entry) fused.set(id, (entry = { id, score: 0, ranks: lists.map(() => null) }))
      if (entry.ranks[which] !== null) return // a list names each id once; keep its best place
      entry.ranks[which] = i + 1
      entry.score += 1 / (RRF_K + i + 1)
    })
  })
  const best = (e: { ranks: (number | null)[] }) => Math.min(...e.ranks.map((r) => r ?? Infinity))
  return [...fused.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
