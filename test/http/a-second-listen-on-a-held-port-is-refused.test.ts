// uWS listens with SO_REUSEPORT unless told otherwise; the HTTP layer listens exclusively, so a
// second app on a port the first holds is refused (PortInUseError naming the port) and the first
// keeps every connection.
import t from 'tap'
import { createHttpApp } from '../../src/http/app.js'
import { ensurePortFree, PortInUseError } from '../../src/http/port-in-use.js'
import { startApp } from './fixtures/start-app.js'

const logger = { error: () => {}, warn: () => {} }

t.test('a second app on the same port fails to listen and the first still answers', async (t) => {
  const { url } = await startApp(t, (app) => app.route('GET', '/who', () => ({ body: { who: 'first' } }), { permission: 'public' }))
  const port = Number(new URL(url).port)
  const second = createHttpApp({ name: 'second', bodyLimitBytes: 1024, logger })
  second.route('GET', '/who', () => ({ body: { who: 'second' } }), { permission: 'public' })
  t.teardown(() => second.close())
  const err = await second.listen(port, '127.0.0.1').then(
    () => undefined,
    (e: unknown) => e,
  )
  t.type(err, PortInUseError)
  t.match((err as Error).message, `port ${port} on 127.0.0.1 is already in use`)
  for (let i = 0; i < 20; i++) t.same(await (await fetch(`${url}/who`)).json(), { who: 'first' })
})

t.test('the probe refuses a port a service listens on and passes a free one', async (t) => {
  const { url } = await startApp(t, () => {})
  const port = Number(new URL(url).port)
  await t.rejects(ensurePortFree(port, '127.0.0.1'), new PortInUseError(port, '127.0.0.1'))
  const free = createHttpApp({ name: 'free', bodyLimitBytes: 1024, logger })
  const other = await free.listen(0, '127.0.0.1')
  await free.close()
  await t.resolves(ensurePortFree(other, '127.0.0.1'))
  await t.resolves(ensurePortFree(0, '127.0.0.1'), 'port 0 is any free port')
})
