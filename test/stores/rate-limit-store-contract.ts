/**
 * The `RateLimitStore` contract, run against every adapter.
 *
 * ```ts
 * rateLimitStoreContract(t, async () => ({ store: new MemoryRateLimitStore(new RateLimiter()), close: async () => {} }))
 * ```
 *
 * Windows are short (1 s for 5 tokens: one token per 200 ms) so refill is observed in real time.
 * Keys are unique per test.
 */

import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Test } from 'tap'
import { RATE_LIMIT_ERRORS, type RateLimitStore } from '../../src/stores/rate-limit-store.js'
import type { StoreFixture } from './cache-store-contract.js'

const limit = { capacity: 5, windowMs: 1000 } // one token per 200 ms
/** For counting a burst: one token per 12 s, so no stall of a loaded machine refills one mid-burst. */
const slow = { capacity: 5, windowMs: 60_000 }

export function rateLimitStoreContract(t: Test, make: () => Promise<StoreFixture<RateLimitStore>>): void {
  const open = async (t: Test): Promise<RateLimitStore> => {
    const { store, close } = await make()
    t.teardown(close)
    return store
  }
  const key = (name: string) => `${name}:${randomUUID()}`

  t.test('a burst passes up to the capacity, then is refused with a retry-after', async (t) => {
    const store = await open(t)
    const k = key('burst')
    for (let i = 1; i <= slow.capacity; i++) {
      const d = await store.take(k, slow)
      t.equal(d.allowed, true, `request ${i} passes`)
      t.equal(d.limit, slow.capacity)
      t.equal(d.remaining, slow.capacity - i)
      t.equal(d.retryAfterMs, 0)
      t.ok(d.resetMs > 0 && d.resetMs <= slow.windowMs, `resetMs ${d.resetMs} within the window`)
    }
    const refused = await store.take(k, slow)
    t.equal(refused.allowed, false, 'the next one is refused')
    t.equal(refused.remaining, 0)
    // One token takes 12 s; a little went by during the burst.
    t.ok(refused.retryAfterMs > 11_000 && refused.retryAfterMs <= 12_000, `retryAfterMs ${refused.retryAfterMs} in (11 s, 12 s]`)
    t.ok(refused.resetMs >= refused.retryAfterMs && refused.resetMs <= slow.windowMs, 'resetMs ≥ retryAfterMs')
  })

  t.test('tokens come back with time', async (t) => {
    const store = await open(t)
    const k = key('refill')
    for (let i = 0; i < limit.capacity; i++) await store.take(k, limit)
    const refused = await store.take(k, limit)
    t.equal(refused.allowed, false)
    await sleep(refused.retryAfterMs + 30)
    const again = await store.take(k, limit)
    t.equal(again.allowed, true, 'passes once retry-after has elapsed')
    await sleep(limit.windowMs + 50)
    const full = await store.take(k, limit)
    t.equal(full.remaining, limit.capacity - 1, 'a whole window refills the bucket, and no further')
  })

  t.test('keys have independent buckets', async (t) => {
    const store = await open(t)
    const a = key('a')
    const b = key('b')
    for (let i = 0; i < limit.capacity; i++) await store.take(a, limit)
    t.equal((await store.take(a, limit)).allowed, false, 'a is exhausted')
    const d = await store.take(b, limit)
    t.equal(d.allowed, true, 'b is untouched')
    t.equal(d.remaining, limit.capacity - 1)
  })

  t.test('a cost counts as that many requests', async (t) => {
    const store = await open(t)
    const k = key('cost')
    const first = await store.take(k, limit, 3)
    t.equal(first.allowed, true)
    t.equal(first.remaining, 2)
    const second = await store.take(k, limit, 3)
    t.equal(second.allowed, false, 'only 2 left')
    t.ok(second.retryAfterMs > 0 && second.retryAfterMs <= 200, `one more token is ≤ 200 ms away (${second.retryAfterMs})`)
    t.equal(second.remaining, 2, 'a refusal takes nothing')
  })

  t.test('a cost above the capacity is never allowed and takes nothing', async (t) => {
    const store = await open(t)
    const k = key('too-costly')
    const d = await store.take(k, limit, limit.capacity + 1)
    t.equal(d.allowed, false)
    t.ok(d.retryAfterMs > 0, 'retry-after is positive')
    const after = await store.take(k, limit)
    t.equal(after.allowed, true)
    t.equal(after.remaining, limit.capacity - 1, 'the bucket was left full')
  })

  t.test('when the limit of a key changes, its tokens carry over, capped at the new capacity', async (t) => {
    const store = await open(t)
    const k = key('changed')
    t.equal((await store.take(k, limit, 3)).remaining, 2)
    t.equal((await store.take(k, { capacity: 10, windowMs: 2000 })).remaining, 1, 'two tokens carried, one taken')
    t.equal((await store.take(k, { capacity: 1, windowMs: 1000 }, 0)).remaining, 1, 'capped at the new capacity')
  })

  t.test('a limit that is not a positive integer capacity over a positive window is refused', async (t) => {
    const store = await open(t)
    const code = RATE_LIMIT_ERRORS.invalidLimit
    await t.rejects(store.take(key('bad'), { capacity: 0, windowMs: 1000 }), { code })
    await t.rejects(store.take(key('bad'), { capacity: 1.5, windowMs: 1000 }), { code })
    await t.rejects(store.take(key('bad'), { capacity: 5, windowMs: 0 }), { code })
    await t.rejects(store.take(key('bad'), limit, -1), { code })
  })
}
