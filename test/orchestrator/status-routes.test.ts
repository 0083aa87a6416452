import { type AddressInfo, createServer, type Socket } from 'node:net'
import t from 'tap'
import { freePort } from '../helpers/free-port.js'
import { orchestratorUrl, postJson } from '../helpers/servers.js'

const REDIS_URL = process.env.REDIS_URL

t.test('health lists each dependency; ready says ready', async (t) => {
  const base = await orchestratorUrl(t)
  for (const path of ['/api/v1/health', '/health']) {
    const res = await fetch(`${base}${path}`)
    t.equal(res.status, 200)
    const body = await res.json()
    t.equal(body.status, 'healthy')
    t.match(body.dependencies, { database: 'up', database_kind: 'pglite', job_queue: 'up', reflex: 'up', redis: 'disabled' })
  }
  t.same(await (await fetch(`${base}/ready`)).json(), { ready: true })
})

t.test('a Qdrant that takes the connection and never answers is reported down within the probe time', async (t) => {
  // Accepts and holds every connection: no refusal to notice, only silence.
  const held: Socket[] = []
  const silent = createServer((socket) => void held.push(socket))
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const socket of held) socket.destroy()
    silent.close()
  })
  const { port } = silent.address() as AddressInfo
  const base = await orchestratorUrl(t, { QDRANT_URL: `http://127.0.0.1:${port}` })
  const started = Date.now()
  const res = await fetch(`${base}/api/v1/health`)
  t.ok(Date.now() - started < 4000, `answered in ${Date.now() - started} ms`)
  t.equal(res.status, 200, 'Qdrant is not required for the task service')
  t.match(await res.json(), { status: 'degraded', dependencies: { database: 'up', qdrant: 'down' } })
})

t.test('health reports each check it made, with its latency', async (t) => {
  const body = await (await fetch(`${await orchestratorUrl(t)}/api/v1/health`)).json()
  for (const name of ['database', 'job_queue', 'reflex']) t.match(body.checks[name], { status: 'up', latency_ms: Number }, name)
  t.same(body.checks.redis, { status: 'disabled', latency_ms: 0 })
  t.notOk('rate_limit_redis' in body.checks)
})

t.test(
  'Redis is pinged: up when it answers, down (and the service degraded, still 200) when it does not',
  { skip: REDIS_URL ? false : 'REDIS_URL is not set' },
  async (t) => {
    const up = await (await fetch(`${await orchestratorUrl(t, { REDIS_URL: REDIS_URL! })}/api/v1/health`)).json()
    t.match(up.checks.redis, { status: 'up', latency_ms: Number })
    t.equal(up.status, 'healthy')

    const gone = `redis://127.0.0.1:${await freePort()}`
    const res = await fetch(`${await orchestratorUrl(t, { REDIS_URL: gone })}/api/v1/health`)
    t.equal(res.status, 200)
    const down = await res.json()
    t.equal(down.status, 'degraded')
    t.match(down.checks.redis, { status: 'down', error: 'check failed' })
    t.equal(down.dependencies.redis, 'down')
  },
)

t.test('metrics are Prometheus text with HTTP, task and reflex series', async (t) => {
  const base = await orchestratorUrl(t)
  await postJson(`${base}/api/v1/tasks`, { goal: 'Count the words in this sentence' })
  for (const path of ['/api/v1/metrics', '/metrics']) {
    const res = await fetch(`${base}${path}`)
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/plain/)
    const text = await res.text()
    t.match(text, /ganglion_http_requests_total\{service="orchestrator",method="POST",route="\/api\/v1\/tasks",status="201"\} 1/)
    t.match(text, /ganglion_tasks_created_total\{status="queued"\} 1/)
    t.match(text, /ganglion_reflex_checks \d+/)
    t.match(text, /ganglion_step_dispatch_seconds_bucket/)
    t.match(text, /ganglion_queue_jobs\{queue="task.run",state="queued"\} \d+/)
  }
})

t.test('/docs serves the interactive documentation and openapi.yaml', async (t) => {
  const base = await orchestratorUrl(t)
  const page = await fetch(`${base}/docs`)
  t.equal(page.status, 200)
  t.match(await page.text(), /SwaggerUIBundle/)
  const spec = await fetch(`${base}/docs/openapi.yaml`)
  t.match(await spec.text(), /^openapi: 3\.0/)
  t.equal((await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)).status, 200)
  t.equal((await fetch(`${base}/docs/assets/nothing.js`)).status, 404)
})
