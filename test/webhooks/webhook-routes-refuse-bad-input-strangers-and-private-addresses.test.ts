// The webhook routes refuse what they must: no credential (401), a viewer subscribing (403), another
// tenant's subscription or task (404, as one that never existed), bad bodies (400 naming the field),
// and URLs the address policy refuses (loopback, the metadata address, a name resolving to
// loopback) without WEBHOOK_ALLOW_PRIVATE, for subscriptions (`url`) and tasks (`webhook_url`).
import { errorOf } from '../http/fixtures/start-app.js'
import { startReceiver } from './webhook-receiver.js'
import { notFound, onEachBackend, submit } from './webhooks-fixture.js'

onEachBackend('webhook routes refuse strangers, bad input and private addresses', {}, async (t, service) => {
  const member = service.as('tenant-a-member')
  const viewer = service.as('tenant-a-viewer')
  const receiver = await startReceiver(t)

  for (const [url, why] of [
    [receiver.url, 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'the metadata address'],
    ['http://localhost:9/hooks', 'a name resolving to loopback'],
    ['http://[::1]:9/', 'IPv6 loopback'],
    ['http://10.1.2.3/', 'a private network'],
  ] as const) {
    const res = await member.post('/api/v1/webhooks', { url, events: ['task.completed'] })
    t.equal(res.status, 400, `subscription to ${why}`)
    t.match(await errorOf(res), { code: 'VALIDATION_ERROR', details: { field: 'url', constraint: /WEBHOOK_ALLOW_PRIVATE/ } })
    const task = await member.post('/api/v1/tasks', { goal: 'Search the archive for the 2019 audit', webhook_url: url })
    t.equal(task.status, 400, `task webhook_url to ${why}`)
    t.match(await errorOf(task), { code: 'VALIDATION_ERROR', details: { field: 'webhook_url' } })
  }
  t.same((await (await member.get('/api/v1/tasks')).json()).data, [], 'no task was stored')

  const bad: Array<[unknown, string]> = [
    [{ events: ['task.completed'] }, 'url'],
    [{ url: 'ftp://example.com/', events: ['task.completed'] }, 'url'],
    [{ url: 'not a url', events: ['task.completed'] }, 'url'],
    [{ url: 'https://user:pw@example.com/', events: ['task.completed'] }, 'url'],
    [{ url: `https://example.com/${'a'.repeat(2048)}`, events: ['task.completed'] }, 'url'],
    [{ url: 'https://example.com/', events: [] }, 'events'],
    [{ url: 'https://example.com/', events: ['task.exploded'] }, 'events[0]'],
    [{ url: 'https://example.com/', events: ['task.failed', 'task.failed'] }, 'events'],
    [{ url: 'https://example.com/', events: 'task.failed' }, 'events'],
    [{ url: 'https://example.com/', events: ['task.failed'], description: '' }, 'description'],
    [{ url: 'https://example.com/', events: ['task.failed'], secret: 'mine' }, 'secret'],
    [{ url: 'https://example.com/\u0000', events: ['task.failed'] }, 'url'],
  ]
  for (const [body, field] of bad) {
    const res = await member.post('/api/v1/webhooks', body)
    t.equal(res.status, 400, JSON.stringify(body).slice(0, 80))
    t.match(await errorOf(res), { code: 'VALIDATION_ERROR', details: { field } })
  }
  for (const [webhook_url, why] of [
    ['javascript:alert(1)', 'another scheme'],
    [`https://example.com/${'a'.repeat(2048)}`, 'too long'],
    ['', 'empty'],
  ]) {
    const res = await member.post('/api/v1/tasks', { goal: 'x', webhook_url })
    t.equal(res.status, 400, `task webhook_url ${why}`)
    t.match(await errorOf(res), { code: 'VALIDATION_ERROR', details: { field: 'webhook_url' } })
  }
  t.equal((await (await member.get('/api/v1/webhooks')).json()).pagination.total_items, 0, 'nothing was stored')
  for (const query of ['page=0', 'page_size=101', 'sort_by=url', 'order=up']) {
    const res = await member.get(`/api/v1/webhooks?${query}`)
    t.equal(res.status, 400, query)
  }

  // Who may do what.
  const anonymous = await fetch(`${service.base}/api/v1/webhooks`)
  t.equal(anonymous.status, 401, 'no credential')
  const refused = await viewer.post('/api/v1/webhooks', { url: 'https://example.com/', events: ['task.completed'] })
  t.equal(refused.status, 403, 'a viewer cannot subscribe')
  t.match(await errorOf(refused), { code: 'FORBIDDEN' })
  t.equal((await viewer.get('/api/v1/webhook-secret')).status, 403, 'nor read the tenant secret')
  t.equal(
    (await member.post('/api/v1/webhooks', { url: 'https://example.com/', events: ['task.completed'] }, { 'X-Tenant': 'b' })).status,
    403,
  )
})

onEachBackend("another tenant's subscription and task read as not found", { WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' }, async (t, service) => {
  const member = service.as('tenant-a-member')
  const viewer = service.as('tenant-a-viewer')
  const stranger = service.as('tenant-b-member')
  const receiver = await startReceiver(t)
  const created = await member.post('/api/v1/webhooks', { url: receiver.url, events: ['task.completed'] })
  t.equal(created.status, 201)
  const { id } = (await created.json()) as { id: string }
  const task = await submit(member, { goal: 'Search the archive for the 2019 audit' })

  const missing = '00000000-0000-4000-8000-000000000000'
  for (const path of ['/api/v1/webhooks/{id}', '/api/v1/webhooks/{id}/deliveries']) {
    const theirs = await notFound(await stranger.get(path.replace('{id}', id)), id)
    t.equal(theirs.status, 404, `${path} of another tenant`)
    t.same(theirs, await notFound(await stranger.get(path.replace('{id}', missing)), missing), 'exactly as one that never existed')
  }
  t.equal((await stranger.delete(`/api/v1/webhooks/${id}`)).status, 404, 'another tenant cannot delete it')
  t.equal((await stranger.get(`/api/v1/tasks/${task.task_id}/webhook-deliveries`)).status, 404, "nor read a task's deliveries")
  t.same((await (await stranger.get('/api/v1/webhooks')).json()).data, [], 'nor list it')
  t.equal((await viewer.get(`/api/v1/webhooks/${id}`)).status, 200, 'a viewer of the tenant reads it')
  t.equal((await viewer.get(`/api/v1/webhooks/${id}/deliveries`)).status, 200, 'and its log')
  t.equal((await viewer.delete(`/api/v1/webhooks/${id}`)).status, 403, 'but cannot delete it')
  t.equal((await member.get(`/api/v1/webhooks/${id}`)).status, 200, 'it is still there')
})
