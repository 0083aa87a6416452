/**
 * Writing to a streamed reply (`app.stream`) safely.
 *
 * hyper-express 6.14.8 loses chunks written back to back in one tick (`res.write(a); res.write(b);
 * res.end()` sends only `a`), and its `res.sse` helper inherits the problem. Waiting for each
 * write's callback avoids it and also respects backpressure:
 *
 * ```ts
 * app.stream('GET', '/api/v1/tasks/:id/events', async (ctx, res) => {
 *   res.header('content-type', 'text/event-stream')
 *   for await (const event of events(ctx.params.id!, ctx.signal)) await streamWrite(res, formatEvent(event))
 *   res.end()
 * })
 * ```
 */
import type { Response } from 'hyper-express'

/** Resolves once `chunk` is handed to uWS (or the client is gone: check `ctx.signal`). */
export function streamWrite(res: Response, chunk: string | Buffer): Promise<void> {
  if (res.completed) return Promise.resolve()
  return new Promise((resolve) => {
    res.write(chunk, () => resolve())
  })
}
