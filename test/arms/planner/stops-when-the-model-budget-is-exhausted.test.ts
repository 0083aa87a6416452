// Running out of tokens or being aborted is not a reason to plan without the model: the call ends.
import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { plan } from './planner-fixture.js'

t.test('no budget left: LLM_BUDGET_EXCEEDED, not retryable, the model never asked', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: '../../arms/planner/fixtures/plan-valid.json' })
  await t.rejects(plan('What caused the March outage?', { llm: new OpenAiProvider({ baseUrl: url }), maxTokens: 20 }), {
    name: 'ArmError',
    code: 'LLM_BUDGET_EXCEEDED',
    retryable: false,
  })
  t.equal(requests.length, 0)
})

t.test('aborted while the model answers: the abort propagates', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/chat-stream.sse', events: 1, then: 'hold' })
  const controller = new AbortController()
  setTimeout(() => controller.abort(new Error('cancelled')), 50)
  const result = plan('What caused the March outage?', { llm: new OpenAiProvider({ baseUrl: url }), signal: controller.signal })
  await t.rejects(result)
  await result.catch((err: { code?: string }) => t.not(err.code, 'PLAN_INVALID'))
})
