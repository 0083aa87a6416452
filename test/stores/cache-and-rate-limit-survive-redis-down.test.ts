/**
 * Redis down, hung, and back: the cache keeps answering from the in-process tier and the limiter
 * from the in-process buckets, within the command timeout, and both recover by themselves.
 *
 * Starts its own redis-server on a private port (so it can kill and stop it without touching the
 * shared one); those tests skip, saying so, when redis-server is not on PATH.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createConnection, createServer } from 'node:net'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { CacheTier, RateLimiter } from '@ganglion/reflex'
import t from 'tap'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import { RedisCacheStore } from '../../src/stores/redis-cache-store.js'
import { connectRedis, type RedisConnection } from '../../src/stores/redis-client.js'
import { RedisRateLimitStore } from '../../src/stores/redis-rate-limit-store.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'

const prefix = 'ganglion-test:redis-down:'
const limit = { capacity: 2, windowMs: 60_000 }

function stores(redis: RedisConnection) {
  const cache = new TieredCacheStore(new MemoryCacheStore(new CacheTier()), new RedisCacheStore(redis, { prefix }))
  const limits = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()), { prefix })
  return { cache, limits }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => socket.write('PING\r\n'))
    socket.setTimeout(200, () => socket.destroy())
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data.toString().startsWith('+PONG'))
    })
    socket.once('error', () => resolve(false))
    socket.once('close', () => resolve(false))
  })
}

async function until(what: string, check: () => boolean | Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline) {
    if (await check()) return
    await sleep(20)
  }
  throw new Error(`${what}: not within ${withinMs} ms`)
}

async function timed<T>(op: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now()
  const result = await op()
  return [result, performance.now() - start]
}

t.test('with nothing listening on the Redis port, every call is answered locally at once', async (t) => {
  const port = await freePort()
  const [redis, connectMs] = await timed(() => connectRedis(`redis://127.0.0.1:${port}`, { connectTimeoutMs: 200, maxBackoffMs: 200 }))
  t.teardown(() => redis.close())
  t.ok(connectMs < 1000, `connectRedis returns without Redis (${connectMs.toFixed(0)} ms)`)
  const { cache, limits } = stores(redis)
  t.match(cache.health(), { redis: 'down', last_error: /ECONNREFUSED/ })

  const [decisions, ms] = await timed(async () => {
    await cache.set('k', '"v"', 60)
    t.equal((await cache.get('k'))?.valueJson, '"v"', 'the local tier answers')
    t.equal(await cache.get('missing'), undefined)
    t.equal(await cache.delete('k'), true)
    return [await limits.take('ip', limit), await limits.take('ip', limit), await limits.take('ip', limit)]
  })
  t.ok(ms < 90, `no call waited on the network (${ms.toFixed(1)} ms for all)`)
  t.same(
    decisions.map((d) => d.allowed),
    [true, true, false],
    'local limits hold: never unlimited',
  )
  t.match(limits.health(), { redis: 'down', fallback_decisions: 3 })
  const stats = await cache.stats()
  t.match(stats.tiers[1], { tier: 'redis', available: false })
})

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0

if (!hasRedisServer) {
  t.skip('redis-server not on PATH: the kill, hang and recovery tests need one to stop', () => {})
} else {
  const children = new Set<ChildProcess>()
  t.teardown(() => {
    for (const child of children) child.kill('SIGKILL')
  })
  const startRedis = async (port: number): Promise<ChildProcess> => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    })
    children.add(child)
    child.once('exit', () => children.delete(child))
    await until('redis-server answers', () => ping(port), 5000)
    return child
  }
  const options = { commandTimeoutMs: 100, backoffMs: 50, maxBackoffMs: 200 }

  t.test('Redis killed mid-test: answers stay local and fast, and Redis is used again once back', async (t) => {
    const port = await freePort()
    let server = await startRedis(port)
    const redis = await connectRedis(`redis://127.0.0.1:${port}`, options)
    t.teardown(() => redis.close())
    const { cache, limits } = stores(redis)
    await cache.set('before', '"1"', 60)
    t.ok(await redis.client.exists(`${prefix}cache:before`), 'written through to Redis')
    t.equal((await limits.take('user', limit)).allowed, true)
    t.match(limits.health(), { redis: 'up', fallback_decisions: 0 })

    server.kill('SIGKILL')
    await once(server, 'exit')
    const [, firstMs] = await timed(async () => {
      t.equal((await cache.get('before'))?.valueJson, '"1"', 'served by the local tier')
      await cache.set('during', '"2"', 60)
      t.equal(await cache.get('nowhere'), undefined)
      await limits.take('user', limit)
    })
    t.ok(firstMs < 200, `the first calls after the kill are bounded (${firstMs.toFixed(1)} ms)`)
    await until('health says down', () => cache.health().redis === 'down', 1000)
    t.match(limits.health(), { redis: 'down' })
    t.ok(limits.health().fallback_decisions >= 1, 'the limiter fell back to the in-process bucket')

    const [, loopMs] = await timed(async () => {
      for (let i = 0; i < 100; i++) await cache.get(`miss-${i}`)
    })
    t.ok(loopMs < 250, `100 misses while down cost no network waits (${loopMs.toFixed(1)} ms)`)

    server = await startRedis(port)
    await until('health says up again', () => cache.health().redis === 'up', 5000)
    t.same(limits.health().redis, 'up')
    await cache.set('after', '"3"', 60)
    t.ok(await redis.client.exists(`${prefix}cache:after`), 'writes reach Redis again')
    const fallbacks = limits.health().fallback_decisions
    await limits.take('user', limit)
    t.equal(limits.health().fallback_decisions, fallbacks, 'decisions come from Redis again')
  })

  t.test('a hung Redis costs one command timeout, then nothing; stale values are dropped on recovery', async (t) => {
    const port = await freePort()
    const server = await startRedis(port)
    const redis = await connectRedis(`redis://127.0.0.1:${port}`, options)
    t.teardown(() => redis.close())
    const { cache, limits } = stores(redis)
    await cache.set('k', '"old"', 60)

    server.kill('SIGSTOP')
    t.teardown(() => server.kill('SIGCONT'))
    const [entry, setMs] = await timed(() => cache.set('k', '"new"', 60))
    t.equal(entry.valueJson, '"new"', 'the set succeeds on the local tier')
    t.ok(setMs >= 80 && setMs < 400, `bounded by the 100 ms command timeout (${setMs.toFixed(0)} ms)`)
    t.match(cache.health(), { redis: 'down', last_error: /timed out/, remote_failures: 1, pending_invalidations: 1 })

    const [, loopMs] = await timed(async () => {
      for (let i = 0; i < 20; i++) await cache.get(`miss-${i}`)
      await limits.take('hung', limit)
    })
    // Under the 100 ms a single call to the hung Redis would cost.
    t.ok(loopMs < 90, `with the circuit open nothing waits (${loopMs.toFixed(1)} ms)`)
    t.equal((await cache.get('k'))?.valueJson, '"new"')

    server.kill('SIGCONT')
    await until('health says up again', () => cache.health().redis === 'up', 3000)
    await until('invalidations flushed', () => cache.health().pending_invalidations === 0, 1000)
    // Another instance, with an empty local tier, must not be handed the value from before the hang.
    const other = new TieredCacheStore(new MemoryCacheStore(new CacheTier()), new RedisCacheStore(redis, { prefix }))
    t.equal(await other.get('k'), undefined, 'the stale Redis value was deleted')
    t.equal((await cache.get('k'))?.valueJson, '"new"', 'the local value stands')
  })
}
