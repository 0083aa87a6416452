import { decodeJwt } from 'jose'
import t from 'tap'
import { InProcessArmEndpoint } from '../../../src/arms/in-process-endpoint.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { echoArm } from './echo-arm.js'
import { makeHost, request, tokenFor } from './servers.js'

t.test('provenance names the arm, tool, times, tokens, model and token id', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const host = makeHost(echoArm(), issuer.localVerifier())
  const endpoint = new InProcessArmEndpoint(host)
  const signal = new AbortController().signal

  const before = Date.now()
  const token = await tokenFor(issuer, 'ask')
  const asked = await endpoint.execute(
    request({ tool: 'ask', input: { text: 'The sky is blue. Grass is green.', max_tokens: 50 } }),
    token,
    signal,
  )
  t.equal(asked.status, 'completed')
  const p = asked.provenance
  t.equal(p.arm, 'echo')
  t.equal(p.tool, 'ask')
  t.equal(p.token_id, decodeJwt(token).jti)
  t.equal(p.model, 'offline/offline-extractive')
  t.ok(p.tokens.prompt > 0 && p.tokens.completion > 0)
  t.equal(p.tokens.total, p.tokens.prompt + p.tokens.completion)
  t.ok(Date.parse(p.started_at) >= before - 1 && Date.parse(p.completed_at) >= Date.parse(p.started_at))
  t.ok(p.duration_ms >= 0)
  t.match(p.started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

  const echoed = await endpoint.execute(request({ tool: 'echo', input: { emit: 'hi', n: [1, 2] } }), await tokenFor(issuer, 'echo'), signal)
  t.same(
    echoed,
    {
      status: 'completed',
      output: { input: { emit: 'hi', n: [1, 2] }, token_id: echoed.provenance.token_id },
      events: [{ type: 'test.echo', data: { said: 'hi' } }],
      provenance: { ...echoed.provenance, model: null, tokens: { prompt: 0, completion: 0, total: 0 } },
    },
    'no model used: model null, zero tokens; events collected',
  )
})
