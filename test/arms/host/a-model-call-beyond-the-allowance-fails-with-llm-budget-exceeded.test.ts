import t from 'tap'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { echoArm } from './echo-arm.js'
import { makeHost, request, tokenFor } from './servers.js'

t.test('a model call beyond the allowance fails with LLM_BUDGET_EXCEEDED and spends nothing', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const host = makeHost(echoArm(), issuer.localVerifier()) // OfflineProvider
  const text = 'A long report sentence about the quarterly numbers and their causes. '.repeat(20)
  const res = await host.execute(
    request({ tool: 'ask', input: { text, max_tokens: 100 }, budget: { max_tokens: 20 } }),
    await tokenFor(issuer, 'ask'),
    new AbortController().signal,
  )
  t.match(res, { status: 'failed', error: { code: 'LLM_BUDGET_EXCEEDED', retryable: false } })
  t.same(res.provenance.tokens, { prompt: 0, completion: 0, total: 0 })
  t.equal(res.provenance.model, null)

  const within = await host.execute(
    request({ tool: 'ask', input: { text: 'Short note.', max_tokens: 100 }, budget: { max_tokens: 200 } }),
    await tokenFor(issuer, 'ask'),
    new AbortController().signal,
  )
  t.equal(within.status, 'completed')
  t.ok(within.provenance.tokens.total <= 200, 'held to the allowance')
})
