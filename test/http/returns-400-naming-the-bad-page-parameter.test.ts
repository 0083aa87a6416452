import t from 'tap'
import { pageEnvelope, parsePageQuery } from '../../src/http/pagination.js'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('a list route answers 400 naming the bad parameter, else the envelope', async (t) => {
  const items = Array.from({ length: 45 }, (_, i) => ({ n: i }))
  const { url } = await startApp(t, (app) =>
    app.route(
      'GET',
      '/api/v1/tasks',
      (ctx) => {
        const q = parsePageQuery(ctx.query, { sortFields: ['created_at'], defaultSort: 'created_at' })
        return { body: pageEnvelope(items.slice(q.offset, q.offset + q.pageSize), items.length, q) }
      },
      { permission: 'public' },
    ),
  )

  for (const [qs, field] of [
    ['page=0', 'page'],
    ['page_size=500', 'page_size'],
    ['sort_by=secret', 'sort_by'],
    ['order=sideways', 'order'],
  ] as const) {
    const res = await fetch(`${url}/api/v1/tasks?${qs}`)
    t.equal(res.status, 400, qs)
    const error = await errorOf(res)
    t.equal(error.code, 'VALIDATION_ERROR')
    t.equal(error.details.field, field)
  }

  const page = await fetch(`${url}/api/v1/tasks?page=3&page_size=20`)
  t.same(await page.json(), { data: items.slice(40), pagination: { page: 3, page_size: 20, total_pages: 3, total_items: 45 } })
})
