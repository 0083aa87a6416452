import t from 'tap'
import { InProcessArmEndpoint } from '../../../src/arms/in-process-endpoint.js'
import { ArmRegistry } from '../../../src/arms/registry.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { echoArm } from './echo-arm.js'
import { makeHost } from './servers.js'

t.test('listing the arms at any rate probes each arm at most once per reuse window', async (t) => {
  const verifier = (await CapabilityIssuer.open({})).localVerifier()
  let probes = 0
  let status: 'healthy' | 'unhealthy' = 'healthy'
  const arm = echoArm({
    name: 'judge',
    health: async () => {
      probes++
      return { status, checks: {} }
    },
  })
  const registry = await ArmRegistry.open({
    builtin: new Map([['judge', { endpoint: new InProcessArmEndpoint(makeHost(arm, verifier)), location: 'in-process' }]]),
    probeReuseMs: 300,
  })
  t.teardown(() => registry.close())

  const lists = await Promise.all(Array.from({ length: 20 }, () => registry.list()))
  t.equal(probes, 1, 'twenty concurrent lists shared one health check')
  t.ok(lists.every((l) => l[0]!.health.status === 'healthy' && l[0]!.capability?.arm_id === 'judge'))
  await registry.list()
  t.equal(probes, 1, 'a list inside the window reuses the answer')

  status = 'unhealthy'
  await new Promise((r) => setTimeout(r, 350))
  const later = await registry.list()
  t.equal(probes, 2, 'after the window the arm is asked again')
  t.equal(later[0]!.health.status, 'unhealthy')
})

t.test('a caller that gives up does not cancel the probe others wait on', async (t) => {
  const verifier = (await CapabilityIssuer.open({})).localVerifier()
  let probes = 0
  const arm = echoArm({
    name: 'judge',
    health: async () => {
      probes++
      await new Promise((r) => setTimeout(r, 200))
      return { status: 'healthy', checks: {} }
    },
  })
  const registry = await ArmRegistry.open({
    builtin: new Map([['judge', { endpoint: new InProcessArmEndpoint(makeHost(arm, verifier)), location: 'in-process' }]]),
  })
  t.teardown(() => registry.close())

  const quitter = new AbortController()
  const first = registry.list(quitter.signal)
  const second = registry.list()
  quitter.abort(new Error('client went away'))
  await t.rejects(first, /client went away/)
  const list = await second
  t.equal(list[0]!.health.status, 'healthy')
  t.equal(probes, 1)
})
