import t from 'tap'

import { ArmError } from '../../../src/arms/contract.js'
import { call, executor } from './executor-fixture.js'
import { fakeDns, loopbackServer } from './loopback-server.js'

// Far above the 300 ms timeouts and 100 ms aborts set here and well below the 10 s default timeout,
// so a loaded machine cannot fail it, and a timeout or abort that did not apply still does.
const SOON = 5_000

const seams = { fetchAllow: ['api.test'], lookup: fakeDns({ 'api.test': ['127.0.0.1'] }), testAllowAddresses: ['127.0.0.1'] }

t.test('a body past max_bytes is cut and marked truncated', async (t) => {
  const { port } = await loopbackServer(t, (_req, res) => res.end('x'.repeat(5000)))
  const out = (await call(executor(seams), 'http_fetch', { url: `http://api.test:${port}/`, max_bytes: 100 })) as {
    body: string
    truncated: boolean
  }
  t.equal(out.body, 'x'.repeat(100))
  t.equal(out.truncated, true)
})

t.test('the default cap is 1 MiB', async (t) => {
  const { port } = await loopbackServer(t, (_req, res) => res.end('y'.repeat(2 * 1024 * 1024)))
  const out = (await call(executor(seams), 'http_fetch', { url: `http://api.test:${port}/` })) as { body: string; truncated: boolean }
  t.equal(out.body.length, 1024 * 1024)
  t.equal(out.truncated, true)
})

t.test('a server that never answers is FETCH_TIMEOUT', async (t) => {
  const { port } = await loopbackServer(t, () => {})
  const started = Date.now()
  await t.rejects(call(executor({ ...seams, limits: { fetchTimeoutMs: 300 } }), 'http_fetch', { url: `http://api.test:${port}/` }), {
    code: 'FETCH_TIMEOUT',
  })
  t.ok(Date.now() - started < SOON, `timed out after ${Date.now() - started} ms`)
})

t.test('aborting the signal ends the fetch with its reason', async (t) => {
  const { port } = await loopbackServer(t, () => {})
  const controller = new AbortController()
  const reason = new ArmError('CANCELLED', 'task cancelled', false)
  setTimeout(() => controller.abort(reason), 100)
  const started = Date.now()
  await t.rejects(call(executor(seams), 'http_fetch', { url: `http://api.test:${port}/` }, { signal: controller.signal }), reason)
  t.ok(Date.now() - started < SOON, `ended ${Date.now() - started} ms after the start`)
})

t.test('a name that never resolves ends at the fetch timeout, and a cancel ends it at once', async (t) => {
  const hanging = { ...seams, lookup: () => new Promise<never>(() => {}) }
  // AbortSignal.timeout's timer does not hold the process open; a served request would
  const alive = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(alive))
  const started = Date.now()
  await t.rejects(call(executor({ ...hanging, limits: { fetchTimeoutMs: 300 } }), 'http_fetch', { url: 'http://api.test/' }), {
    code: 'FETCH_TIMEOUT',
  })
  t.ok(Date.now() - started < SOON, `timed out after ${Date.now() - started} ms`)

  const controller = new AbortController()
  const reason = new ArmError('CANCELLED', 'task cancelled', false)
  setTimeout(() => controller.abort(reason), 100)
  const cancelledAt = Date.now()
  await t.rejects(call(executor(hanging), 'http_fetch', { url: 'http://api.test/' }, { signal: controller.signal }), reason)
  t.ok(Date.now() - cancelledAt < SOON, `ended ${Date.now() - cancelledAt} ms after the start`)
})
