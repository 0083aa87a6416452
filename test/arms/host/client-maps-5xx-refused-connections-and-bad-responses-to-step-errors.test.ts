import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { HttpArmClient } from '../../../src/arms/arm-client.js'
import { StepError } from '../../../src/step-errors.js'
import { request } from './servers.js'

/** A plain node server answering every request with `status` and `body`. */
async function answering(t: Test, status: number, body: string): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise((r) => server.close(r)))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function failure(client: HttpArmClient): Promise<StepError> {
  const err = await client.execute(request({ tool: 'echo' }), 'token', new AbortController().signal).catch((e: unknown) => e)
  if (!(err instanceof StepError)) throw new Error(`expected a StepError, got ${String(err)}`)
  return err
}

t.test('5xx, refused connections and bad responses become step errors', async (t) => {
  for (const status of [500, 502, 503]) {
    const err = await failure(new HttpArmClient(await answering(t, status, '{"error":{"code":"INTERNAL_ERROR","message":"x"}}')))
    t.match(err, { code: 'ARM_UNREACHABLE', retryable: true }, `${status}`)
  }

  const closed = createServer()
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
  const port = (closed.address() as AddressInfo).port
  await new Promise((r) => closed.close(r))
  const refused = await failure(new HttpArmClient(`http://127.0.0.1:${port}`))
  t.match(refused, { code: 'ARM_UNREACHABLE', retryable: true })
  t.match(refused.message, /ECONNREFUSED/)

  t.match(await failure(new HttpArmClient(await answering(t, 200, '{"status":"done"}'))), { code: 'ARM_BAD_RESPONSE', retryable: true })
  t.match(await failure(new HttpArmClient(await answering(t, 200, 'not json'))), { code: 'ARM_BAD_RESPONSE', retryable: true })
  t.match(await failure(new HttpArmClient(await answering(t, 400, '{"error":{"code":"VALIDATION_ERROR","message":"bad"}}'))), {
    code: 'ARM_BAD_REQUEST',
    retryable: false,
  })
  t.match(
    await failure(
      new HttpArmClient(
        await answering(
          t,
          403,
          '{"error":{"code":"FORBIDDEN","message":"no","details":{"field":"authorization","constraint":"TOKEN_OUT_OF_SCOPE"}}}',
        ),
      ),
    ),
    { code: 'TOKEN_OUT_OF_SCOPE', retryable: false },
  )

  const unhealthy = new HttpArmClient(await answering(t, 503, '{"status":"unhealthy","arm":"x","version":"1","checks":{}}'))
  t.match(await unhealthy.health(), { status: 'unhealthy' }, 'a 503 with an ArmHealth is an answer')
})
