import pino from 'pino'
import t from 'tap'
import { armAddressPolicy } from '../../../src/arms/arm-address.js'
import { HttpArmClient } from '../../../src/arms/arm-client.js'
import { ArmHost } from '../../../src/arms/arm-host.js'
import { registerArmRoutes } from '../../../src/arms/arm-server.js'
import { InProcessArmEndpoint } from '../../../src/arms/in-process-endpoint.js'
import { ArmRegistry } from '../../../src/arms/registry.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { createHttpApp } from '../../../src/http/app.js'
import { OfflineProvider } from '../../../src/llm/offline-provider.js'
import { echoArm } from './echo-arm.js'
import { makeHost, serveArm } from './servers.js'

// The arms these tests register listen on loopback: the allowance a deployment would set.
const LOOPBACK = armAddressPolicy(['127.0.0.0/8'])

t.test('the registry lists each arm with its capability and health; an arm that does not answer is unhealthy', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const verifier = issuer.localVerifier()
  const deadUrl = 'http://127.0.0.1:9' // discard port: nothing listens
  const registry = await ArmRegistry.open({
    addresses: LOOPBACK,
    builtin: new Map([
      ['judge', { endpoint: new InProcessArmEndpoint(makeHost(echoArm({ name: 'judge' }), verifier)), location: 'in-process' }],
      ['coder', { endpoint: new HttpArmClient(deadUrl), location: deadUrl }],
    ]),
    healthTimeoutMs: 1500, // 500 ms was outlasted by a healthy arm on a loaded machine; the list stays under 3 s
  })
  t.teardown(() => registry.close())

  const translatorUrl = await serveArm(t, makeHost(echoArm({ name: 'translator' }), verifier))
  const entry = await registry.register({ name: 'translator', url: translatorUrl })
  t.match(entry, { name: 'translator', builtin: false, location: translatorUrl, health: { status: 'healthy', arm: 'translator' } })
  t.equal(entry.capability?.endpoint, translatorUrl)
  t.equal(entry.capability?.arm_id, 'translator')

  // an arm that registers and then dies
  const app = createHttpApp({ name: 'ghost', bodyLimitBytes: 1 << 20, logger: pino({ level: 'silent' }) })
  registerArmRoutes(app, new ArmHost(echoArm({ name: 'ghost' }), { verifier, llm: new OfflineProvider(), endpoint: 'x', version: '1' }))
  const ghostUrl = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`
  await registry.register({ name: 'ghost', url: ghostUrl })
  await app.close()

  const started = Date.now()
  const list = await registry.list()
  t.ok(Date.now() - started < 3000, 'health checks run in parallel, each bounded')
  t.same(
    list.map((a) => a.name),
    ['coder', 'ghost', 'judge', 'translator'],
  )
  const by = Object.fromEntries(list.map((a) => [a.name, a]))
  t.match(by.judge, { builtin: true, location: 'in-process', capability: { endpoint: 'in-process' }, health: { status: 'healthy' } })
  t.match(by.coder, { builtin: true, location: deadUrl, capability: null, health: { status: 'unhealthy', checks: { reachable: false } } })
  t.match(by.ghost, { builtin: false, health: { status: 'unhealthy' } })
  t.match(by.translator, { health: { status: 'healthy' } })

  t.ok(registry.get('translator'), 'a registered arm can be called')
  t.ok(registry.get('judge'))
  t.equal(registry.get('nobody'), undefined)
})
