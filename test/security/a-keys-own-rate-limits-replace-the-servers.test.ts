// An API key may carry its own rate limits, writes and reads apart: a gateway that screens a whole
// deployment's traffic from one key needs far more than a person's budget, or none (0). A key
// without its own keeps the server's, and nobody else's limits change.
import { ADMIN_TOKEN, nonce, onEachBackend } from './tenants-fixture.js'

onEachBackend(
  "a key's own rate limits replace the server's, and 0 switches them off",
  async (t, service) => {
    const admin = service.as(ADMIN_TOKEN)
    const create = async (body: Record<string, unknown>) => {
      const res = await admin.post('/api/v1/api-keys', { tenant: 'acme', role: 'member', name: `k-${nonce()}`, ...body })
      t.equal(res.status, 201)
      return (await res.json()) as { key: string; rate_limit: number | null; read_rate_limit: number | null }
    }
    const plain = await create({})
    const gateway = await create({ rate_limit: 4, read_rate_limit: 0 })
    t.same([plain.rate_limit, plain.read_rate_limit], [null, null], 'no limits of its own: the server decides')
    t.same([gateway.rate_limit, gateway.read_rate_limit], [4, 0])

    const write = (key: string) => service.as(key).post('/api/v1/tasks', { goal: `What is 2 + 2? ${nonce()}` })
    const statuses = async (key: string, n: number) => {
      const out: number[] = []
      for (let i = 0; i < n; i++) out.push((await write(key)).status)
      return out
    }
    t.same(await statuses(plain.key, 3), [201, 201, 429], "the server's two writes a minute")
    t.same(await statuses(gateway.key, 5), [201, 201, 201, 201, 429], 'its own four')
    const refused = await write(gateway.key)
    t.equal(refused.headers.get('ratelimit-limit'), '4')
    t.equal(((await refused.json()) as { error: { code: string } }).error.code, 'RATE_LIMIT')

    const reads: number[] = []
    for (let i = 0; i < 6; i++) reads.push((await service.as(gateway.key).get('/api/v1/tasks')).status)
    t.same(reads, [200, 200, 200, 200, 200, 200], 'read_rate_limit 0: reads are not limited')
    const plainReads: number[] = []
    for (let i = 0; i < 3; i++) plainReads.push((await service.as(plain.key).get('/api/v1/tasks')).status)
    t.same(plainReads, [200, 200, 429], "the plain key still has the server's two reads")
  },
  { env: { RATE_LIMIT_PER_USER: '2', RATE_LIMIT_READS_PER_USER: '2' } },
)

onEachBackend('rate limits that are not whole numbers from 0 to 10^9 are refused, naming the field', async (t, service) => {
  const admin = service.as(ADMIN_TOKEN)
  for (const [field, value] of [
    ['rate_limit', -1],
    ['rate_limit', 1.5],
    ['rate_limit', 'lots'],
    ['read_rate_limit', 1e10],
    ['read_rate_limit', null],
  ] as const) {
    const res = await admin.post('/api/v1/api-keys', { tenant: 'acme', role: 'member', name: 'x', [field]: value })
    const body = (await res.json()) as { error: { code: string; details: { field: string } } }
    t.same([res.status, body.error.code, body.error.details.field], [400, 'VALIDATION_ERROR', field], `${field}: ${JSON.stringify(value)}`)
  }
  const list = (await (await admin.get('/api/v1/api-keys')).json()) as { data: unknown[] }
  t.same(list.data, [], 'no key was created')
})
