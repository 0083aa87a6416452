import t from 'tap'
import { InProcessArmEndpoint } from '../../../src/arms/in-process-endpoint.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { StepError } from '../../../src/step-errors.js'
import { echoArm } from './echo-arm.js'
import { makeHost, request, serveArm, tokenFor } from './servers.js'

t.test('a bad body is a 400 naming the field, over HTTP and in-process', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const host = makeHost(echoArm(), issuer.localVerifier())
  const url = await serveArm(t, host)
  const token = await tokenFor(issuer, 'echo')
  const good = request({ tool: 'echo' })
  const cases: Array<[unknown, string]> = [
    [{ ...good, task_id: undefined }, 'task_id'],
    [{ ...good, timeout_ms: 0 }, 'timeout_ms'],
    [{ ...good, budget: { max_tokens: -1 } }, 'budget.max_tokens'],
    [{ ...good, extra: 1 }, 'extra'],
    [{ ...good, input: 'text' }, 'input'],
  ]
  for (const [body, field] of cases) {
    const res = await fetch(`${url}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    })
    t.equal(res.status, 400, field)
    const json = (await res.json()) as { error: { code: string; details: { field: string }; request_id: string } }
    t.equal(json.error.code, 'VALIDATION_ERROR')
    t.equal(json.error.details.field, field)
    t.ok(json.error.request_id)
  }

  // a tool the arm does not have: 400 on `tool` (the token is checked first)
  const unknown = await fetch(`${url}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenFor(issuer, 'fly')}` },
    body: JSON.stringify(request({ tool: 'fly' })),
  })
  t.equal(unknown.status, 400)
  t.equal(((await unknown.json()) as { error: { details: { field: string } } }).error.details.field, 'tool')

  const endpoint = new InProcessArmEndpoint(host)
  const err = await endpoint.execute({ ...good, timeout_ms: 0 }, token, new AbortController().signal).catch((e: unknown) => e)
  t.ok(err instanceof StepError)
  t.match(err, { code: 'ARM_BAD_REQUEST', retryable: false })
  t.match((err as Error).message, /timeout_ms/)
})
