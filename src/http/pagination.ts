/**
 * List endpoints: `page`, `page_size`, `sort_by`, `order` in, the spec's envelope out.
 *
 * ```ts
 * const q = parsePageQuery(ctx.query, { sortFields: ['created_at', 'status'], defaultSort: 'created_at' })
 * const { rows, total } = await store.list({ limit: q.pageSize, offset: q.offset, sortBy: q.sortBy, order: q.order })
 * return { body: pageEnvelope(rows, total, q) }
 * ```
 *
 * page ≥ 1 (default 1), page_size 1..100 (default 20), order asc|desc (default desc), sort_by one
 * of the listed fields. Anything else is a 400 naming the parameter; a parameter given twice too.
 */
import { HttpError } from './errors.js'

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

export type SortOrder = 'asc' | 'desc'

export interface PageQuery {
  page: number
  pageSize: number
  sortBy: string
  order: SortOrder
  /** Rows to skip: (page - 1) × pageSize. */
  offset: number
}

export interface PageEnvelope<T> {
  data: T[]
  pagination: { page: number; page_size: number; total_pages: number; total_items: number }
}

export interface PageQueryOptions {
  sortFields: readonly string[]
  defaultSort: string
  /** Default `desc`. */
  defaultOrder?: SortOrder
}

export function parsePageQuery(query: URLSearchParams, opts: PageQueryOptions): PageQuery {
  const page = integer(query, 'page', 1, Number.MAX_SAFE_INTEGER, 1)
  const pageSize = integer(query, 'page_size', 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE)

  const sortBy = single(query, 'sort_by') ?? opts.defaultSort
  if (!opts.sortFields.includes(sortBy)) throw HttpError.validation('sort_by', `must be one of ${opts.sortFields.join(', ')}`)

  const order = single(query, 'order') ?? opts.defaultOrder ?? 'desc'
  if (order !== 'asc' && order !== 'desc') throw HttpError.validation('order', 'must be one of asc, desc')

  return { page, pageSize, sortBy, order, offset: (page - 1) * pageSize }
}

/** The envelope for one page of `items` out of `total` items; `page` is the parsed query. */
export function pageEnvelope<T>(items: T[], total: number, page: Pick<PageQuery, 'page' | 'pageSize'>): PageEnvelope<T> {
  return {
    data: items,
    pagination: { page: page.page, page_size: page.pageSize, total_pages: Math.ceil(total / page.pageSize), total_items: total },
  }
}

function single(query: URLSearchParams, name: string): string | undefined {
  const all = query.getAll(name)
  if (all.length > 1) throw HttpError.validation(name, 'must be given at most once')
  return all[0]
}

function integer(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = single(query, name)
  if (raw === undefined) return fallback
  if (!/^\d{1,16}$/.test(raw)) throw HttpError.validation(name, `must be an integer between ${min} and ${max}`)
  const n = Number(raw)
  if (n < min || n > max) throw HttpError.validation(name, `must be an integer between ${min} and ${max}`)
  return n
}
