// A registered arm receives task data and is called from inside the orchestrator's network: its
// URL passes http_fetch's address policy (public addresses only) unless ARM_URL_ALLOW_PRIVATE
// names the network. Refused at registration (400 on `url`, by address or by a name resolving to
// one) and at every call (a name that resolves elsewhere later is refused then).
import type { LookupAddress } from 'node:dns'
import t from 'tap'
import { armAddressPolicy } from '../../src/arms/arm-address.js'
import { HttpArmClient } from '../../src/arms/arm-client.js'
import { ArmRegistry } from '../../src/arms/registry.js'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { StepError } from '../../src/step-errors.js'
import { openSql } from '../../src/stores/open-sql.js'
import { executeRequest } from '../arms/arm-context-fixture.js'
import { echoArm } from '../arms/host/echo-arm.js'
import { makeHost, serveArm } from '../arms/host/servers.js'
import { ADMIN_TOKEN, onEachBackend } from '../security/tenants-fixture.js'

const register = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v1/arms/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }

async function refusal(res: Response): Promise<{ status: number; code: string; field?: string; constraint?: string }> {
  const { error } = (await res.json()) as { error: { code: string; details: { field?: string; constraint?: string } } }
  return { status: res.status, code: error.code, field: error.details.field, constraint: error.details.constraint }
}

onEachBackend('registration refuses loopback, link-local, metadata and names resolving to them', async (t, service) => {
  const issuer = await CapabilityIssuer.open({})
  const live = await serveArm(t, makeHost(echoArm({ name: 'translator' }), issuer.localVerifier()))
  const port = new URL(live).port

  t.equal((await register(service.base, { name: 'translator', url: live })).status, 401, 'no credential')
  const member = await register(service.base, { name: 'translator', url: live }, { authorization: 'Bearer tenant-a-member' })
  t.equal(member.status, 403, "a member's credential")
  const hostile = await register(service.base, { name: 'translator', url: 'file:///etc/passwd' }, admin)
  t.match(await refusal(hostile), { status: 400, code: 'VALIDATION_ERROR', field: 'url' }, 'a URL that is not http')

  const policy = 'must resolve to public addresses only, or to networks ARM_URL_ALLOW_PRIVATE names'
  for (const url of [live, `http://localhost:${port}`, 'http://169.254.169.254/latest', 'http://[::1]:9', 'http://10.0.0.7:9000']) {
    const res = await register(service.base, { name: 'translator', url }, admin)
    t.same(await refusal(res), { status: 400, code: 'VALIDATION_ERROR', field: 'url', constraint: policy }, url)
  }
  const listed = (await (await fetch(`${service.base}/api/v1/arms`, { headers: admin })).json()) as { data: Array<{ name: string }> }
  t.notOk(
    listed.data.some((a) => a.name === 'translator'),
    'nothing was registered',
  )
})

onEachBackend(
  'ARM_URL_ALLOW_PRIVATE lets a loopback arm register, and only on the networks it names',
  async (t, service) => {
    const issuer = await CapabilityIssuer.open({})
    const live = await serveArm(t, makeHost(echoArm({ name: 'translator' }), issuer.localVerifier()))
    t.equal((await register(service.base, { name: 'translator', url: live }, admin)).status, 201, 'loopback, allowed')
    const metadata = await register(service.base, { name: 'metadata', url: 'http://169.254.169.254/' }, admin)
    t.match(await refusal(metadata), { status: 400, field: 'url' }, 'the metadata address stays refused')
  },
  { env: { ARM_URL_ALLOW_PRIVATE: '127.0.0.0/8' } },
)

t.test('a name that resolves to a refused address later is refused at call time', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const live = new URL(await serveArm(t, makeHost(echoArm({ name: 'translator' }), issuer.localVerifier())))
  let answer = '127.0.0.1'
  const addresses = armAddressPolicy(['127.0.0.1/32'], async (): Promise<LookupAddress[]> => [{ address: answer, family: 4 }])
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  // Two orchestrators on one database: one registers the arm, the other connects to it afresh.
  const [a, b] = await Promise.all([
    ArmRegistry.open({ builtin: new Map(), sql, addresses }),
    ArmRegistry.open({ builtin: new Map(), sql, addresses }),
  ])
  t.teardown(() => Promise.all([a.close(), b.close()]))
  await a.register({ name: 'translator', url: `http://arm.test:${live.port}` })
  const { token } = await issuer.sign({
    arm: 'translator',
    taskId: 'task-1',
    tenant: 'default',
    stepId: 's1',
    scope: ['echo'],
    ttlSeconds: 60,
  })
  const request = executeRequest({ tool: 'echo', input: { n: 1 } })
  const call = (registry: ArmRegistry) =>
    registry
      .get('translator')!
      .execute(request, token, AbortSignal.timeout(5000))
      .catch((e: unknown) => e)
  t.match(await call(a), { status: 'completed' }, 'called while it resolves to 127.0.0.1')

  for (const address of ['127.0.0.2', '169.254.169.254']) {
    answer = address
    await b.reload()
    const err = await call(b)
    t.ok(err instanceof StepError, `a step error: ${String(err)}`)
    t.match(err, { code: 'ADDRESS_NOT_ALLOWED', retryable: false }, `refused once it resolves to ${address}`)
  }
})

t.test('a client for a refused address calls nothing', async (t) => {
  const client = new HttpArmClient('http://169.254.169.254', { addresses: armAddressPolicy() })
  t.match(await client.health(AbortSignal.timeout(1000)).catch((e: unknown) => e), { code: 'ADDRESS_NOT_ALLOWED', retryable: false })
})
