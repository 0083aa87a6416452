import t from 'tap'
import { runCheck } from '../../src/reflex/check-route.js'
import type { ReflexDeps } from '../../src/reflex/deps.js'
import { createEngine } from '../../src/reflex/engine.js'
import type { Ctx } from '../../src/http/app.js'
import type { CacheEntry } from '../../src/stores/cache-store.js'
import type { Decision, Limit, RateLimitStore } from '../../src/stores/rate-limit-store.js'

const engine = createEngine()
const ctx = { ip: '203.0.113.9', requestId: 'req-1' } as unknown as Ctx
const limits = { perIp: 2, perUser: 5, windowMs: 60_000 }

/** A store that counts its calls; `sync` gives it a `takeSync` (in-process), else only `take` (Redis). */
function store(sync: boolean, allowed = true) {
  const calls = { take: 0, takeSync: 0 }
  const decide = (limit: Limit): Decision => ({ allowed, limit: limit.capacity, remaining: allowed ? 1 : 0, resetMs: 1_000, retryAfterMs: allowed ? 0 : 30_000 })
  const s: RateLimitStore = {
    take: async (_key, limit) => {
      calls.take++
      return decide(limit)
    },
  }
  if (sync) {
    s.takeSync = (_key, limit) => {
      calls.takeSync++
      return decide(limit)
    }
  }
  return { s, calls }
}

function deps(limiter: RateLimitStore, shared: boolean, entry?: CacheEntry) {
  const gets: string[] = []
  const cache = {
    shared,
    get: async (key: string) => {
      gets.push(key)
      return entry
    },
  }
  return { d: { engine, cache, limiter, limits } as unknown as ReflexDeps, gets }
}

t.test('an in-process limiter and no shared tier: one takeSync, no promise', async (t) => {
  const { s, calls } = store(true)
  const { d, gets } = deps(s, false)
  const out = runCheck(d, ctx, { text: 'hello there' }, 0)
  t.notOk(out instanceof Promise)
  t.same(calls, { take: 0, takeSync: 1 })
  t.same(gets, [])
  t.equal((await out).headers?.['RateLimit-Limit'], '2')
})

t.test('a limiter without takeSync (Redis) is asked through take, and its refusal stands', async (t) => {
  const { s, calls } = store(false, false)
  const { d } = deps(s, false)
  const out = runCheck(d, ctx, { text: 'hello there' }, 0)
  t.ok(out instanceof Promise, 'the Redis path is asynchronous')
  await t.rejects(out as Promise<unknown>, { code: 'RATE_LIMIT', status: 429 })
  t.same(calls, { take: 1, takeSync: 0 })
})

t.test('an in-process limiter with a shared tier: one token, then the shared lookup', async (t) => {
  const { s, calls } = store(true)
  const text = 'hello there'
  const now = Date.now()
  const entry = { key: 'k', valueJson: '{"a":1}', createdAt: new Date(now), expiresAt: new Date(now + 60_000) }
  const { d, gets } = deps(s, true, entry)
  const reply = await runCheck(d, ctx, { text }, 0)
  t.same(calls, { take: 0, takeSync: 1 }, 'the token is not taken twice')
  t.same(gets, [engine.cacheKey(text, { checkPii: true, checkInjection: true, useCache: true })])
  t.match(JSON.parse(reply.raw as string), { request_id: 'req-1', cached_value: { a: 1 } })
})

t.test('a refusal by takeSync is thrown before any lookup', async (t) => {
  const { s, calls } = store(true, false)
  const { d, gets } = deps(s, true)
  t.throws(() => runCheck(d, ctx, { text: 'x' }, 0), { code: 'RATE_LIMIT', status: 429 })
  t.same(calls, { take: 0, takeSync: 1 })
  t.same(gets, [])
})
