import t from 'tap'
import { postJson, reflexUrl } from '../helpers/servers.js'

t.test('a stored value is read back, then deleted', async (t) => {
  const base = await reflexUrl(t)
  const set = await postJson(`${base}/api/v1/cache`, { key: 'greeting', value: { text: 'hello', n: [1, 2] }, ttl_seconds: 60 })
  t.equal(set.status, 201)
  const stored = await set.json()
  t.equal(stored.key, 'greeting')
  t.equal(stored.ttl_seconds, 60)
  t.ok(Date.parse(stored.expires_at) > Date.now())

  for (const path of ['/api/v1/cache/greeting', '/cache/greeting']) {
    const got = await fetch(`${base}${path}`)
    t.equal(got.status, 200, path)
    const entry = await got.json()
    t.same(entry.value, { text: 'hello', n: [1, 2] })
    t.ok(entry.ttl_remaining_seconds > 55 && entry.ttl_remaining_seconds <= 60)
    t.ok(Date.parse(entry.created_at) <= Date.now())
  }

  const del = await fetch(`${base}/api/v1/cache/greeting`, { method: 'DELETE' })
  t.same(await del.json(), { key: 'greeting', deleted: true })
  t.equal((await fetch(`${base}/api/v1/cache/greeting`)).status, 404)
  t.equal((await fetch(`${base}/api/v1/cache/greeting`, { method: 'DELETE' })).status, 404)
})

t.test('the default time-to-live is CACHE_TTL', async (t) => {
  const base = await reflexUrl(t, { CACHE_TTL: '120' })
  const stored = await (await postJson(`${base}/api/v1/cache`, { key: 'k', value: null })).json()
  t.equal(stored.ttl_seconds, 120)
  t.same((await (await fetch(`${base}/api/v1/cache/k`)).json()).value, null)
})

t.test('keys with reserved characters round-trip through the path', async (t) => {
  const base = await reflexUrl(t)
  const key = 'user:42/query?x=1 ünï'
  await postJson(`${base}/api/v1/cache`, { key, value: 1 })
  const got = await fetch(`${base}/api/v1/cache/${encodeURIComponent(key)}`)
  t.equal(got.status, 200)
  t.equal((await got.json()).key, key)
})

t.test('bad cache requests name the field', async (t) => {
  const base = await reflexUrl(t)
  const cases: Array<[unknown, string]> = [
    [{ value: 1 }, 'key'],
    [{ key: '', value: 1 }, 'key'],
    [{ key: 'k'.repeat(513), value: 1 }, 'key'],
    [{ key: 'k' }, 'value'],
    [{ key: 'k', value: 1, ttl_seconds: 0 }, 'ttl_seconds'],
    [{ key: 'k', value: 1, ttl_seconds: 1.5 }, 'ttl_seconds'],
    [{ key: 'k', value: 1, extra: true }, 'extra'],
  ]
  for (const [body, field] of cases) {
    const res = await postJson(`${base}/api/v1/cache`, body)
    t.equal(res.status, 400, JSON.stringify(body).slice(0, 60))
    t.equal((await res.json()).error.details.field, field)
  }
  const long = await fetch(`${base}/api/v1/cache/${'k'.repeat(513)}`)
  t.equal(long.status, 400)
})

t.test('a value larger than the body limit is a 413', async (t) => {
  const base = await reflexUrl(t, { BODY_LIMIT_BYTES: '4096' })
  const res = await postJson(`${base}/api/v1/cache`, { key: 'big', value: 'v'.repeat(10_000) })
  t.equal(res.status, 413)
})

t.test('a value nested deeper than the cache takes is a 400 naming the value', async (t) => {
  const base = await reflexUrl(t)
  let value: unknown = 1
  for (let i = 0; i < 300; i++) value = [value]
  const res = await postJson(`${base}/api/v1/cache`, { key: 'deep', value })
  t.equal(res.status, 400)
  t.match((await res.json()).error, { code: 'VALIDATION_ERROR', details: { field: 'value' } })
  t.equal((await fetch(`${base}/api/v1/cache/deep`)).status, 404, 'nothing stored')
})
