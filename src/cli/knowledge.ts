/**
 * `ganglion knowledge add <file…> | search "<query>" | list | rm <id…>`: the knowledge API
 * (src/orchestrator/knowledge-routes.ts) from a terminal. Files are read as UTF-8 text and sent as
 * documents titled with their file name, in requests of at most 100 documents and about 512 KiB.
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { CliError } from './client.js'
import { clientOf, type GlobalOptions, handle, printJson, wholeNumber } from './command.js'
import { EXIT } from './exit-codes.js'
import { oneLine, table } from './tasks.js'

const BATCH_BYTES = 512 * 1024
const BATCH_DOCUMENTS = 100

interface Document {
  title: string
  text: string
}

interface Ingested {
  document_id: string
  title: string | null
  chunks: number
  flagged: number
}

async function readDocument(path: string): Promise<Document> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (err) {
    throw new CliError(`${path}: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`, EXIT.USAGE)
  }
  if (bytes.includes(0)) throw new CliError(`${path}: not a text file (it holds NUL bytes)`, EXIT.USAGE)
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  if (text.trim() === '') throw new CliError(`${path}: empty`, EXIT.USAGE)
  return { title: basename(path).slice(0, 500) || 'document', text }
}

/** Documents in requests the body limit takes: a document larger than a batch goes alone. */
function batches(docs: readonly Document[]): Document[][] {
  const out: Document[][] = []
  let current: Document[] = []
  let size = 0
  for (const doc of docs) {
    const bytes = Buffer.byteLength(JSON.stringify(doc))
    if (current.length > 0 && (size + bytes > BATCH_BYTES || current.length === BATCH_DOCUMENTS)) {
      out.push(current)
      current = []
      size = 0
    }
    current.push(doc)
    size += bytes
  }
  if (current.length > 0) out.push(current)
  return out
}

export function addKnowledge(files: string[], opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    const api = clientOf(opts)
    const docs = await Promise.all(files.map(readDocument))
    const documents: Ingested[] = []
    for (const batch of batches(docs)) {
      const res = await api.request<{ documents: Ingested[] }>('POST', '/api/v1/knowledge', { documents: batch })
      documents.push(...res.documents)
    }
    if (opts.json) return printJson({ documents })
    const rows = documents.map((d) => [d.document_id, String(d.chunks), String(d.flagged), oneLine(d.title ?? '-', 60)])
    process.stdout.write(table(['ID', 'CHUNKS', 'FLAGGED', 'TITLE'], rows))
    const flagged = documents.reduce((n, d) => n + d.flagged, 0)
    if (flagged > 0)
      process.stderr.write(`${flagged} passages were flagged as prompt injection: search shows them, tasks never receive them.\n`)
  })
}

interface Hit {
  document_id: string
  title: string | null
  text: string
  score: number
  injection: unknown
}

export interface SearchOptions extends GlobalOptions {
  limit?: string
}

export function searchKnowledge(query: string, opts: SearchOptions): Promise<void> {
  return handle(async () => {
    const k = wholeNumber('--limit', opts.limit ?? '5', 1, 50)
    const res = await clientOf(opts).request<{ query: string; results: Hit[] }>('POST', '/api/v1/knowledge/search', { query, k })
    if (opts.json) return printJson(res)
    if (res.results.length === 0) {
      process.stderr.write('No matches.\n')
      return
    }
    for (const hit of res.results) {
      const flag = hit.injection ? ' [flagged: prompt injection]' : ''
      process.stdout.write(`${hit.score.toFixed(4)}  ${hit.document_id}  ${oneLine(hit.title ?? '-', 60)}${flag}\n`)
      process.stdout.write(`        ${oneLine(hit.text, 160)}\n`)
    }
  })
}

export interface KnowledgeListOptions extends GlobalOptions {
  limit?: string
  page?: string
}

export function listKnowledge(opts: KnowledgeListOptions): Promise<void> {
  return handle(async () => {
    const query = new URLSearchParams({
      page_size: String(wholeNumber('--limit', opts.limit ?? '20', 1, 100)),
      page: String(wholeNumber('--page', opts.page ?? '1', 1, 1_000_000)),
    })
    const page = await clientOf(opts).request<{ data: Array<Ingested & { created_at: string }> }>('GET', `/api/v1/knowledge?${query}`)
    if (opts.json) return printJson(page)
    if (page.data.length === 0) {
      process.stderr.write('No documents.\n')
      return
    }
    const rows = page.data.map((d) => [d.document_id, String(d.chunks), d.created_at, oneLine(d.title ?? '-', 60)])
    process.stdout.write(table(['ID', 'CHUNKS', 'CREATED', 'TITLE'], rows))
  })
}

export function removeKnowledge(ids: string[], opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    const api = clientOf(opts)
    const removed: unknown[] = []
    for (const id of ids) {
      removed.push(await api.request('DELETE', `/api/v1/knowledge/${encodeURIComponent(id)}`))
      if (!opts.json) process.stdout.write(`Deleted document ${id}\n`)
    }
    if (opts.json) printJson(ids.length === 1 ? removed[0] : { deleted: removed })
  })
}
