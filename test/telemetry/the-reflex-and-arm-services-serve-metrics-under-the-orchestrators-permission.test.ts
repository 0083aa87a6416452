// The reflex layer and an arm service answer GET /metrics (and /api/v1/metrics) in Prometheus text,
// with their HTTP series and (the reflex layer) the cache counters per tier, under the permission
// the orchestrator's /metrics needs: 401 without a credential, 403 for a role without `metrics`.
import t, { type Test } from 'tap'
import type { Principal, Role } from '../../src/auth/principal.js'
import { postJson, startServices } from '../helpers/servers.js'

const ADMIN_TOKEN = 'metrics-admin-token-0123456789'
// `tenant:role` tokens, as the tests' own verifier reads them.
const byToken = {
  accepts: (token: string) => token.includes(':'),
  verify: async (token: string): Promise<Principal> => {
    const [tenant, role] = token.split(':') as [string, Role]
    return { id: `test:${token}`, tenant, roles: [role], via: 'api-key' }
  },
}
const auth = { AUTH: 'required', ADMIN_TOKEN }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** The value of one series line in Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

async function refusals(t: Test, base: string): Promise<void> {
  for (const path of ['/metrics', '/api/v1/metrics']) {
    const none = await fetch(`${base}${path}`)
    t.equal(none.status, 401, `${path} without a credential`)
    t.match(await none.json(), { error: { code: 'UNAUTHORIZED', details: { field: 'authorization' } } })
    const member = await fetch(`${base}${path}`, { headers: bearer('acme:member') })
    t.equal(member.status, 403, `${path} for a member`)
    t.match(await member.json(), { error: { code: 'FORBIDDEN', details: { field: 'authorization' } } })
  }
}

const { DATABASE_URL } = process.env
const noDatabase = DATABASE_URL ? false : 'the reflex layer with AUTH=required checks keys in a shared PostgreSQL: needs DATABASE_URL'

t.test(
  'the reflex layer: Prometheus text with cache counters that move, behind the metrics permission',
  { skip: noDatabase },
  async (t) => {
    const running = await startServices(t, { reflex: true }, { ...auth, DATABASE_URL: DATABASE_URL! }, { verifiers: [byToken] })
    const base = `http://127.0.0.1:${running.ports.reflex}`
    await refusals(t, base)

    const scrape = async () => {
      const res = await fetch(`${base}/metrics`, { headers: bearer(ADMIN_TOKEN) })
      t.equal(res.status, 200)
      t.match(res.headers.get('content-type'), /^text\/plain/)
      return res.text()
    }
    const miss = 'ganglion_cache_requests_total{tier="memory",result="miss"}'
    const hit = 'ganglion_cache_requests_total{tier="memory",result="hit"}'
    const before = await scrape()
    t.equal(sample(before, hit), 0, 'no hit yet')
    const missesBefore = sample(before, miss) ?? 0
    t.equal(sample(before, 'ganglion_cache_evictions_total{tier="memory"}'), 0)

    t.equal((await fetch(`${base}/api/v1/cache/greeting`, { headers: bearer(ADMIN_TOKEN) })).status, 404)
    const set = await postJson(`${base}/api/v1/cache`, { key: 'greeting', value: { text: 'hello' }, ttl_seconds: 60 }, bearer(ADMIN_TOKEN))
    t.equal(set.status, 201)
    t.equal((await fetch(`${base}/api/v1/cache/greeting`, { headers: bearer(ADMIN_TOKEN) })).status, 200)

    const after = await scrape()
    t.equal(sample(after, miss), missesBefore + 1, 'the lookup that found nothing is a miss')
    t.equal(sample(after, hit), 1, 'the one that found the entry is a hit')
    t.match(after, /ganglion_http_requests_total\{service="reflex",method="GET",route="\/api\/v1\/cache\/:key",status="404"\} 1/)
    t.match(after, /ganglion_http_request_duration_seconds_bucket\{le="[^"]+",service="reflex",method="POST",route="\/api\/v1\/cache"\}/)
  },
)

t.test('an arm service: Prometheus text with its HTTP series, behind the metrics permission', async (t) => {
  const running = await startServices(t, { arm: { name: 'executor', port: 0 } }, auth, { verifiers: [byToken] })
  const base = `http://127.0.0.1:${running.ports.arm}`
  await refusals(t, base)
  t.equal((await fetch(`${base}/health`)).status, 200, 'the arm itself answers as before')

  const res = await fetch(`${base}/api/v1/metrics`, { headers: bearer(ADMIN_TOKEN) })
  t.equal(res.status, 200)
  const text = await res.text()
  t.match(text, /ganglion_http_requests_total\{service="arm-executor",method="GET",route="\/health",status="200"\} 1/)
  t.match(text, /ganglion_http_requests_total\{service="arm-executor",method="GET",route="\/metrics",status="401"\} 1/)
  t.match(text, /ganglion_process_cpu_seconds_total/)
  t.notMatch(text, /ganglion_cache_requests_total/, 'an arm has no cache to count')
})
