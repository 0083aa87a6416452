import t from 'tap'
import { streamWrite } from '../../src/http/stream-write.js'
import { startApp } from './fixtures/start-app.js'

t.test('aborts ctx.signal of a stream when the client goes away mid-stream, and later writes are harmless', async (t) => {
  let done: (writesAfterAbort: number) => void = () => {}
  const finished = new Promise<number>((resolve) => (done = resolve))
  const { url } = await startApp(t, (app) =>
    app.stream(
      'GET',
      '/events',
      async (ctx, res) => {
        res.header('content-type', 'text/event-stream')
        let afterAbort = 0
        for (let i = 0; i < 200; i++) {
          await streamWrite(res, `data: ${i}\n\n`)
          if (ctx.signal.aborted && ++afterAbort === 3) break
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
        res.end()
        done(afterAbort)
      },
      { permission: 'public' },
    ),
  )

  const client = new AbortController()
  const res = await fetch(`${url}/events`, { signal: client.signal })
  const reader = res.body!.getReader()
  const first = await reader.read()
  t.match(new TextDecoder().decode(first.value), /^data: 0/)
  client.abort()
  t.equal(await finished, 3, 'the handler saw the abort and kept running without a crash')
})
