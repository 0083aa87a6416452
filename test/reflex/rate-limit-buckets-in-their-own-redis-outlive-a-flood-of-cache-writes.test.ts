/**
 * RATE_LIMIT_REDIS_URL over two real Redis servers, configured as a deployment should: the cache's
 * tiny and allkeys-lru, the limits' noeviction. A flood of cache writes evicts whatever the cache
 * Redis holds, and so a bucket kept there; a bucket kept in the limits Redis stays, and its caller
 * stays refused. Starts both servers itself on free ports; skips, saying so, without redis-server.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createConnection, createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { postJson, startServices } from '../helpers/servers.js'

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0
/** The bucket of an anonymous caller's writes from 127.0.0.1 (src/http/rate-limit.ts). */
const BUCKET = 'ganglion:rl:w:ip:127.0.0.1'

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function answers(port: number): Promise<boolean> {
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

interface Server {
  url: string
  client: Redis
  process: ChildProcess
}

async function redisServer(t: Test, policy: string, maxmemory: string): Promise<Server> {
  const port = await freePort()
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
  const child = spawn('redis-server', [...args, '--maxmemory', maxmemory, '--maxmemory-policy', policy], { stdio: 'ignore' })
  t.teardown(() => {
    child.kill('SIGKILL')
  })
  const deadline = Date.now() + 5000
  while (!(await answers(port))) {
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`)
    await sleep(50)
  }
  const client = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 })
  client.on('error', () => {})
  t.teardown(() => client.disconnect())
  return { url: `redis://127.0.0.1:${port}`, client, process: child }
}

/** Writes 16 KiB values into `cache` until `bucket` is gone from it or `bytes` have been written. */
async function flood(cache: Redis, bucketHolder: Redis, bytes: number): Promise<number> {
  const value = 'x'.repeat(16 * 1024)
  let written = 0
  for (let i = 0; written < bytes; i++) {
    const batch = cache.pipeline()
    for (let j = 0; j < 64; j++) batch.set(`ganglion:cache:flood-${i}-${j}`, value)
    await batch.exec()
    written += 64 * value.length
    if ((await bucketHolder.exists(BUCKET)) === 0) break
  }
  return written
}

async function spend(t: Test, base: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) t.equal((await postJson(`${base}/api/v1/check`, { text: `hello ${i}` })).status, 200)
  t.equal((await postJson(`${base}/api/v1/check`, { text: 'one more' })).status, 429, 'the bucket is empty')
}

async function clientNames(redis: Redis): Promise<string[]> {
  const list = (await redis.client('LIST')) as string
  return [...list.matchAll(/ name=(\S*)/g)].map((m) => m[1] ?? '').filter((name) => name.startsWith('ganglion'))
}

if (!hasRedisServer) {
  t.skip('redis-server not on PATH: these tests start their own two Redis servers', () => {})
} else {
  t.test('buckets in a noeviction Redis of their own outlive a flood that empties the allkeys-lru cache', async (t) => {
    const cache = await redisServer(t, 'allkeys-lru', '2mb')
    const limits = await redisServer(t, 'noeviction', '64mb')
    const running = await startServices(
      t,
      { reflex: true },
      { REDIS_URL: cache.url, RATE_LIMIT_REDIS_URL: limits.url, RATE_LIMIT_PER_IP: '3' },
    )
    const base = `http://127.0.0.1:${running.ports.reflex}`

    await spend(t, base, 3)
    t.equal(await limits.client.exists(BUCKET), 1, 'the bucket is in the limits Redis')
    t.equal(await cache.client.exists(BUCKET), 0, 'and not in the cache Redis')
    t.same((await clientNames(cache.client)).sort(), ['ganglion'], 'the cache has its own connection')
    t.same((await clientNames(limits.client)).sort(), ['ganglion-limits'], 'the limits have theirs')

    const written = await flood(cache.client, limits.client, 16 * 1024 * 1024)
    t.ok(written >= 16 * 1024 * 1024, `${written >> 20} MiB written into a 2 MiB cache`)
    const evicted = Number(/evicted_keys:(\d+)/.exec(await cache.client.info('stats'))?.[1])
    t.ok(evicted > 0, `the cache Redis evicted ${evicted} keys`)
    t.equal(await limits.client.exists(BUCKET), 1, 'the bucket is still there')
    const refused = await postJson(`${base}/api/v1/check`, { text: 'after the flood' })
    t.equal(refused.status, 429, 'the caller is still refused')

    const health = await (await fetch(`${base}/api/v1/health`)).json()
    t.same(health.dependencies, { addon: 'up', redis: 'up', rate_limit_redis: 'up' })
    t.equal(health.status, 'healthy')

    await running.close()
    t.same(await clientNames(limits.client), [], 'closing the service closes the limits connection')
    t.same(await clientNames(cache.client), [], 'and the cache connection')
  })

  t.test('with one allkeys-lru Redis for both, the same flood evicts the bucket and refills the allowance', async (t) => {
    const cache = await redisServer(t, 'allkeys-lru', '2mb')
    const running = await startServices(t, { reflex: true }, { REDIS_URL: cache.url, RATE_LIMIT_PER_IP: '3' })
    const base = `http://127.0.0.1:${running.ports.reflex}`

    await spend(t, base, 3)
    t.same(await clientNames(cache.client), ['ganglion'], 'one URL, one connection')
    t.equal(await cache.client.exists(BUCKET), 1, 'the bucket is in the cache Redis')
    const written = await flood(cache.client, cache.client, 64 * 1024 * 1024)
    t.equal(await cache.client.exists(BUCKET), 0, `the bucket was evicted after ${written >> 20} MiB of cache writes`)
    t.equal((await postJson(`${base}/api/v1/check`, { text: 'after the flood' })).status, 200, 'a fresh allowance')

    const health = await (await fetch(`${base}/api/v1/health`)).json()
    t.same(health.dependencies, { addon: 'up', redis: 'up' }, 'no second Redis to report')
  })

  t.test('a limits Redis that dies degrades the health of both services, which keep limiting locally', async (t) => {
    const cache = await redisServer(t, 'allkeys-lru', '2mb')
    const limits = await redisServer(t, 'noeviction', '64mb')
    const running = await startServices(
      t,
      { reflex: true, orchestrator: true },
      { REDIS_URL: cache.url, RATE_LIMIT_REDIS_URL: limits.url, RATE_LIMIT_PER_IP: '2' },
    )
    const reflex = `http://127.0.0.1:${running.ports.reflex}`
    const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
    t.match((await (await fetch(`${orchestrator}/api/v1/health`)).json()).dependencies, { redis: 'up', rate_limit_redis: 'up' })

    limits.client.disconnect()
    limits.process.kill('SIGKILL')
    await once(limits.process, 'exit')
    const deadline = Date.now() + 5000
    let reflexHealth = await (await fetch(`${reflex}/api/v1/health`)).json()
    while (reflexHealth.dependencies.rate_limit_redis !== 'down' && Date.now() < deadline) {
      await sleep(50)
      reflexHealth = await (await fetch(`${reflex}/api/v1/health`)).json()
    }
    t.equal(reflexHealth.status, 'degraded')
    t.same(reflexHealth.dependencies, { addon: 'up', redis: 'up', rate_limit_redis: 'down' })
    const orchestratorHealth = await (await fetch(`${orchestrator}/api/v1/health`)).json()
    t.equal(orchestratorHealth.status, 'degraded')
    t.match(orchestratorHealth.dependencies, { redis: 'up', rate_limit_redis: 'down' })

    await spend(t, reflex, 2)
  })
}
