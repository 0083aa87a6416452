import t from 'tap'
import { HttpError } from '../../src/http/errors.js'
import { pageEnvelope, parsePageQuery } from '../../src/http/pagination.js'

const opts = { sortFields: ['created_at', 'status'], defaultSort: 'created_at' }
const parse = (qs: string) => parsePageQuery(new URLSearchParams(qs), opts)

function fieldOf(qs: string): string | undefined {
  try {
    parse(qs)
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return err.details.field
    throw err
  }
  return undefined
}

t.test('defaults to page 1 of 20, newest first', async (t) => {
  t.same(parse(''), { page: 1, pageSize: 20, sortBy: 'created_at', order: 'desc', offset: 0 })
  t.same(parse('page=3&page_size=100&sort_by=status&order=asc'), { page: 3, pageSize: 100, sortBy: 'status', order: 'asc', offset: 200 })
})

t.test('names the parameter that is out of range, not an integer or unknown', async (t) => {
  for (const qs of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=', 'page=1&page=2']) t.equal(fieldOf(qs), 'page', qs)
  for (const qs of ['page_size=0', 'page_size=101', 'page_size=2e1', 'page_size= 5']) t.equal(fieldOf(qs), 'page_size', qs)
  for (const qs of ['sort_by=password', 'sort_by=']) t.equal(fieldOf(qs), 'sort_by', qs)
  for (const qs of ['order=up', 'order=DESC']) t.equal(fieldOf(qs), 'order', qs)
})

t.test('wraps a page in the envelope of the spec', async (t) => {
  t.same(pageEnvelope(['a', 'b'], 45, parse('page=3&page_size=20')), {
    data: ['a', 'b'],
    pagination: { page: 3, page_size: 20, total_pages: 3, total_items: 45 },
  })
  t.same(pageEnvelope([], 0, parse('')).pagination, { page: 1, page_size: 20, total_pages: 0, total_items: 0 })
})
