import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { HttpArmClient } from '../../../src/arms/arm-client.js'
import { request } from './servers.js'

t.test("the client's abort signal stops the request", async (t) => {
  let received = 0
  const controller = new AbortController()
  // never answers; the caller gives up once the request is in flight
  const server = createServer(() => {
    received++
    setTimeout(() => controller.abort(), 50)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise((r) => server.close(r))
  })
  const client = new HttpArmClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)

  const started = Date.now()
  const err = await client.execute(request({ tool: 'echo' }), 'token', controller.signal).catch((e: unknown) => e)
  t.ok(Date.now() - started < 5000, 'returned at the abort')
  t.match(err, { code: 'STEP_ABORTED', retryable: true })
  t.equal(received, 1, 'the request had reached the arm')
})
