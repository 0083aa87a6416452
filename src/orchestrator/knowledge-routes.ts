/**
 * The knowledge API: ingest documents, search them, list, read and delete (the retriever's store).
 *
 * ```ts
 * registerKnowledgeRoutes(app, { knowledge })
 * // POST /api/v1/knowledge        { documents: [{ title, text, source, metadata }] } → 201 { documents: [{ document_id, title, chunks }] }
 * // POST /api/v1/knowledge/search { query, k }                                       → 200 { query, results: [hit…] }
 * // GET  /api/v1/knowledge?page=1&page_size=20                                       → 200 the page envelope
 * // GET | DELETE /api/v1/knowledge/{document_id}                                     → 200 | 404
 * ```
 *
 * A request of many large documents is also held to the service's body limit (413 beyond it).
 * Ingest screens each document for prompt injection (knowledge-store.ts): the owner sees the
 * flagged passages here, in the ingest answer's `flagged` count, a document's `flagged_passages`
 * and each search hit's `injection`; the retriever never hands them on.
 * Documents are their tenant's (request-scope.ts): ingested into the caller's tenant, and found,
 * listed, read and deleted only there; another tenant's document is a 404.
 */
import Type from 'typebox'
import type { Ctx, HttpApp, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { pageEnvelope, parsePageQuery } from '../http/pagination.js'
import { compileSchema } from '../http/validate.js'
import { LlmError } from '../llm/provider.js'
import type { KnowledgeStore } from '../stores/knowledge-store.js'
import { VectorIndexUnavailableError } from '../stores/vector-index.js'
import { tenantToRead, tenantToWrite } from './request-scope.js'

export interface KnowledgeRouteDeps {
  knowledge: KnowledgeStore
}

export const MAX_DOCUMENT_CHARS = 1_000_000

export const IngestRequest = Type.Object(
  {
    documents: Type.Array(
      Type.Object(
        {
          title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          text: Type.String({ minLength: 1, maxLength: MAX_DOCUMENT_CHARS }),
          source: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
          metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
)
export type IngestRequest = Type.Static<typeof IngestRequest>

export const KnowledgeSearchRequest = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2000 }),
    k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5 })),
  },
  { additionalProperties: false },
)
export type KnowledgeSearchRequest = Type.Static<typeof KnowledgeSearchRequest>

const parseIngest = compileSchema(IngestRequest)
const parseSearch = compileSchema(KnowledgeSearchRequest)

/**
 * The rule the schema cannot say: text that is only white space. NUL characters, which
 * PostgreSQL text cannot hold, the HTTP layer refuses in every stored body (http/storable-text.ts).
 */
function checkTexts(req: IngestRequest): void {
  req.documents.forEach((doc, i) => {
    if (doc.text.trim() === '') throw HttpError.validation(`documents[${i}].text`, 'must contain a non-space character')
  })
}

/** An embedder that is a remote model, or Qdrant keeping the vectors, can be down: that is a 503, not a 500. */
function embedderError(err: unknown): never {
  if (err instanceof LlmError && err.retryable)
    throw new HttpError('SERVICE_UNAVAILABLE', `The embeddings model is unavailable: ${err.message}`)
  if (err instanceof VectorIndexUnavailableError) throw vectorsUnavailable(err)
  throw err
}

/** 503 naming the vector store, with Retry-After: nothing was changed, the same request may be sent again. */
function vectorsUnavailable(err: VectorIndexUnavailableError): HttpError {
  return new HttpError(
    'SERVICE_UNAVAILABLE',
    `The vector store (${err.dependency}) is unavailable; nothing was changed, try again later`,
    { field: err.dependency, constraint: 'must be reachable' },
    { 'retry-after': String(VECTORS_RETRY_AFTER_SECONDS) },
  )
}

const VECTORS_RETRY_AFTER_SECONDS = 5

function documentId(ctx: Ctx): string {
  return ctx.params.document_id ?? ''
}

function notFound(id: string): HttpError {
  return HttpError.notFound('document_id', `No document with id ${JSON.stringify(id)}`)
}

export function registerKnowledgeRoutes(app: HttpApp, deps: KnowledgeRouteDeps): void {
  const { knowledge } = deps

  app.route(
    'POST',
    '/api/v1/knowledge',
    async (ctx: Ctx): Promise<Reply> => {
      const req = parseIngest(ctx.body)
      checkTexts(req)
      const documents = await knowledge.ingest(tenantToWrite(ctx), req.documents, ctx.signal).catch(embedderError)
      return { status: 201, body: { documents } }
    },
    { permission: 'knowledge:write' },
  )

  app.route(
    'POST',
    '/api/v1/knowledge/search',
    async (ctx: Ctx): Promise<Reply> => {
      const req = parseSearch(ctx.body)
      const results = await knowledge
        .search(tenantToRead(ctx), req.query, { k: req.k ?? 5, signal: ctx.signal, withFlagged: true })
        .catch(embedderError)
      return { body: { query: req.query, results } }
    },
    { permission: 'knowledge:read' },
  )

  app.route(
    'GET',
    '/api/v1/knowledge',
    async (ctx: Ctx): Promise<Reply> => {
      const q = parsePageQuery(ctx.query, { sortFields: ['created_at'], defaultSort: 'created_at' })
      const { items, total } = await knowledge.list(tenantToRead(ctx), { limit: q.pageSize, offset: q.offset, order: q.order })
      return { body: pageEnvelope(items, total, q) }
    },
    { permission: 'knowledge:read' },
  )

  app.route(
    'GET',
    '/api/v1/knowledge/:document_id',
    async (ctx: Ctx): Promise<Reply> => {
      const id = documentId(ctx)
      const doc = await knowledge.get(tenantToRead(ctx), id)
      if (!doc) throw notFound(id)
      return { body: doc }
    },
    { permission: 'knowledge:read' },
  )

  app.route(
    'DELETE',
    '/api/v1/knowledge/:document_id',
    async (ctx: Ctx): Promise<Reply> => {
      const id = documentId(ctx)
      if (!(await knowledge.delete(tenantToRead(ctx), id).catch(embedderError))) throw notFound(id)
      return { body: { document_id: id, deleted: true } }
    },
    { permission: 'knowledge:write' },
  )
}
