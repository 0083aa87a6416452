import t from 'tap'
import { armAddressPolicy } from '../../../src/arms/arm-address.js'
import { ArmRegistry } from '../../../src/arms/registry.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { HttpError } from '../../../src/http/errors.js'
import { echoArm } from './echo-arm.js'
import { makeHost, serve, serveArm } from './servers.js'

// The arms these tests register listen on loopback: the allowance a deployment would set.
const LOOPBACK = armAddressPolicy(['127.0.0.0/8'])

t.test('registration refuses built-in names (409), bad names and URLs (400) and arms that do not answer (400)', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const registry = await ArmRegistry.open({ addresses: LOOPBACK, builtin: new Map(), healthTimeoutMs: 500 })
  const url = await serveArm(t, makeHost(echoArm({ name: 'translator' }), issuer.localVerifier()))
  const refusal = async (input: unknown) => {
    const err = await registry.register(input).then(
      () => undefined,
      (e: unknown) => e,
    )
    if (!(err instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(err)}`)
    return { status: err.status, field: err.details.field }
  }

  t.same(await refusal({ name: 'executor', url }), { status: 409, field: 'name' }, 'a built-in name')
  t.same(await refusal({ name: 'Bad Name', url }), { status: 400, field: 'name' })
  t.same(await refusal({ name: 'translator' }), { status: 400, field: 'url' })
  for (const bad of ['not a url', 'ftp://example.com/arm', 'http://user:pw@example.com']) {
    t.same(await refusal({ name: 'translator', url: bad }), { status: 400, field: 'url' }, bad)
  }
  t.same(await refusal({ name: 'translator', url: 'http://127.0.0.1:9' }), { status: 400, field: 'url' }, 'nothing listening')

  const sick = await serveArm(
    t,
    makeHost(echoArm({ name: 'sick', health: async () => ({ status: 'unhealthy', checks: { model: false } }) }), issuer.localVerifier()),
  )
  t.same(await refusal({ name: 'sick', url: sick }), { status: 400, field: 'url' }, 'reports itself unhealthy')

  // healthy, but /capabilities serves something else
  const odd = await serve(t, (app) => {
    app.route('GET', '/health', () => ({ body: { status: 'healthy', arm: 'odd', version: '1', checks: {} } }), { permission: 'public' })
    app.route('GET', '/capabilities', () => ({ body: { tools: ['x'] } }), { permission: 'public' })
  })
  t.same(await refusal({ name: 'odd', url: odd }), { status: 400, field: 'capability' })
  t.same(await refusal({ name: 'odd', url: odd, capability: { arm_id: 'odd' } }), { status: 400, field: 'capability.name' })

  // the same arm with its capability given: accepted, endpoint set to the URL
  const given = {
    arm_id: 'odd',
    name: 'Odd',
    description: '',
    capabilities: ['x'],
    input_schema: {},
    output_schema: {},
    cost_tier: 'low' as const,
  }
  const entry = await registry.register({ name: 'odd', url: `${odd}/`, capability: given })
  t.same(entry.capability, { ...given, endpoint: odd })
})
