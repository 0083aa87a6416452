import { armAddressPolicy } from '../../../src/arms/arm-address.js'
import { ArmRegistry } from '../../../src/arms/registry.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { onEachSql } from '../../auth/each-sql.js'
import { echoArm } from './echo-arm.js'
import { makeHost, serveArm } from './servers.js'

// The arms these tests register listen on loopback: the allowance a deployment would set.
const LOOPBACK = armAddressPolicy(['127.0.0.0/8'])

onEachSql('registrations persist for every orchestrator on the database', async (t, connect) => {
  const issuer = await CapabilityIssuer.open({})
  const url = await serveArm(t, makeHost(echoArm({ name: 'translator' }), issuer.localVerifier()))
  const url2 = await serveArm(t, makeHost(echoArm({ name: 'translator' }), issuer.localVerifier()))

  const a = await ArmRegistry.open({ addresses: LOOPBACK, builtin: new Map(), sql: await connect() })
  const b = await ArmRegistry.open({ addresses: LOOPBACK, builtin: new Map(), sql: await connect() })
  t.teardown(() => Promise.all([a.close(), b.close()]))
  t.equal(b.get('translator'), undefined)

  const first = await a.register({ name: 'translator', url })
  await b.reload()
  t.ok(b.get('translator'), 'another orchestrator finds it once it reloads the table')
  t.match(await b.list(), [{ name: 'translator', location: url, health: { status: 'healthy' } }])
  t.match(b.registered(), [{ name: 'translator', capability: { name: 'translator' } }], 'and offers it to the planner')

  const again = await a.register({ name: 'translator', url: url2 })
  t.equal(again.registered_at, first.registered_at, 're-registering keeps the first registration time')
  t.ok(again.updated_at! >= first.updated_at!)
  await b.reload()
  t.match(await b.list(), [{ name: 'translator', location: url2 }], 're-registering updates the URL everywhere')

  const c = await ArmRegistry.open({ addresses: LOOPBACK, builtin: new Map(), sql: await connect() })
  t.teardown(() => c.close())
  t.ok(c.get('translator'), 'a registry opened later loads it at start')
})
