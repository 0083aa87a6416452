import t from 'tap'
import { startApp } from './fixtures/start-app.js'

t.test('aborts ctx.signal when the client disconnects before the reply', async (t) => {
  let aborted: () => void = () => {}
  const abortedSeen = new Promise<void>((resolve) => (aborted = resolve))
  const { url } = await startApp(t, (app) =>
    app.route(
      'GET',
      '/slow',
      (ctx) => {
        // Answers only once aborted: the reply then goes nowhere and must not throw.
        return new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            aborted()
            resolve({ body: { late: true } })
          }),
        )
      },
      { permission: 'public' },
    ),
  )

  const client = new AbortController()
  const pending = fetch(`${url}/slow`, { signal: client.signal }).catch((err: unknown) => err)
  await new Promise((resolve) => setTimeout(resolve, 100))
  client.abort()
  await pending
  await abortedSeen
  t.pass('the handler saw the abort')
})
